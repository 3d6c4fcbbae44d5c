#!/usr/bin/env python3
"""Knock side by side with OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy``, in one run, on one machine.

    .venv/bin/pip install -e '.[peers]'          # open_spiel and rlcard (not needed by the test suite)
    .venv/bin/python tools/bench_peers.py         # --quick for smaller runs; --repeats N (default 7)
    .venv/bin/python tools/bench_peers.py --baseline b6a35b8   # and Knock at an earlier revision, in the same run

Every figure is the median of repeated runs; nothing here passes or fails. Each engine is measured in a fresh
child process for every repeat, under the same conditions (``tools/measuring.py``, stated in the output's
header): the measuring thread's own CPU time (``time.thread_time()``), the process pinned to one core, one
BLAS thread, a fixed hash seed; the children run one after another, in an order that turns with each repeat,
and the seeds of repeat r are the same for every Knock. With ``--numpy-first`` every child imports numpy
before anything else (RLCard's always does): the figures must not move. A child that had another busy thread
is named in a warning. Knock runs in its performance mode (the compiled executor, ``executor="compiled"``);
the figures of its default mode, ``transitions`` executing every step, are printed beside them. With
``--baseline REV`` the revision REV, checked out in a temporary git worktree and imported through
``PYTHONPATH``, is run by the same loops; ``--baseline HEAD`` is the A/A check (every change within ±5 %).

How the rules differ, and what that does to hand length: OpenSpiel plays the same core game (knock limit
10, Oklahoma off) but pays 25 for an undercut, has the 50th-card "wall" phase, ends a hand after 50 pickups
and makes the knocker lay his melds one action at a time, so its hands have more actions; RLCard plays a
single game step per action through its ``GinRummyGame`` (used directly here, without the RL environment's
tensor encoding), forbids discarding the taken card like Knock and ends a hand at two stock cards. Knock's
random play includes its full validation path, the state machine and, where said, writing the log.
"""

from __future__ import annotations

import argparse
import copy
import functools
import importlib.util
import inspect
import io
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import measuring
from bench_peers_report import Figures, median, report
from measuring import clock

from engine.hand import Hand
from engine.match import Match
from engine.melds import deadwood, knock_deadwood
from engine.rules import RuleSet

try:  # a --baseline revision before the bots' move (#58) has them in engine.bots
    from knock.bots import Bot, GreedyBot, RandomBot, play_match
except ImportError:
    from engine.bots import Bot, GreedyBot, RandomBot, play_match  # type: ignore[import-not-found,no-redef]
from replay.log import LogWriter, write_log
from replay.replayer import Replayer

ROOT = Path(__file__).resolve().parent.parent
#: The least CPU time one round of a figure's work takes (its work is done again, the same each time, until then)
ROUND_SECONDS = 0.03
#: The rounds of every timed figure in a repeat: the engines take turns, a round each, so a busy machine's mood
#: falls on them alike.
ROUNDS = 5
#: One round of a task: ``{"seconds": s, "counts": {figure: count}}`` (a figure is its count per second for
#: "/s" figures, else the time per count) or, untimed, ``{"figures": {figure: value}}``.
Measured = dict[str, Any]


def rss_kib() -> int:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def timed(keys: tuple[str, ...], work: Callable[[], tuple[float, ...]]) -> Measured:
    """One round: ``work`` (which returns its counts, one for each of ``keys``) done again, the same each time,
    until it has filled ``ROUND_SECONDS`` of the measuring thread's CPU time."""
    totals = (0.0,) * len(keys)
    t = clock()
    while True:
        totals = tuple(a + b for a, b in zip(totals, work(), strict=True))
        if (spent := clock() - t) >= ROUND_SECONDS:
            return {"seconds": spent, "counts": dict(zip(keys, totals, strict=True))}


def per_call(key: str, fn: Callable[[Any], object], inputs: list[Any], each: float = 1) -> Measured:
    """One round of calls of ``fn`` over ``inputs``, counting ``each`` for every call."""

    def calls() -> tuple[float]:
        for x in inputs:
            fn(x)
        return (len(inputs) * each,)

    return timed((key,), calls)


def figure(key: str, seconds: float, count: float) -> float:
    """A figure from its rounds' summed time and count: a rate ("actions/s", "games/s standard"), else µs or ms
    per count ("µs/step", "copy µs")."""
    if any(word.endswith("/s") for word in key.split()):
        return count / seconds
    return seconds / count * (1e6 if "µs" in key else 1e3)


def hands_of(size: int, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(count)]


def to_mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def memory(make: Callable[[int], object], n: int) -> float:
    """KiB of resident memory per live object, ``n`` of them at once."""
    before = rss_kib()
    keep = [make(i) for i in range(n)]
    after = rss_kib()
    assert len(keep) == n
    return (after - before) / n


PLAYER_EVENTS = {
    "UpcardPassed", "UpcardTaken", "DrewStock", "DrewDiscard", "Discarded", "Knocked", "BigGinDeclared",
    "WallDeclined", "SpreadLaid", "DefenceLaid", "Advised",
}  # fmt: skip


# --- Knock, one repeat in a child process (this tree or a baseline revision on PYTHONPATH) --------------------


def executor_options(executor: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """How this revision of Knock is told its executor: the options for ``Hand``/``Match`` and for ``Replayer``.

    Revisions whose games take ``executor=`` get it; older ones had one executor for the whole process (the
    compiled one by default), switched by ``engine.fsm.use_library_executor()``.
    """
    if "executor" in inspect.signature(Match.new).parameters:
        replay = {"executor": executor} if "executor" in inspect.signature(Replayer).parameters else {}
        return {"executor": executor}, replay
    import engine.fsm

    if executor == "library":
        getattr(engine.fsm, "use_library_executor")()  # noqa: B009 -- absent from this tree, present in old ones
    return {}, {}


Task = Callable[[], Measured]


def knock_tasks(executor: str, repeat: int, quick: bool, everything: bool) -> dict[str, Task]:
    """Every Knock figure of one repeat, by task (or, unless ``everything``, those that depend on the executor)."""
    game, replay = executor_options(executor)
    n_hands = 30 if quick else 200
    n_games = 5 if quick else 30
    n_calls = 2000 if quick else 10000
    seed = 1_000_003 * (repeat + 1)

    def logged_play() -> tuple[int, int]:
        """Uniform random legal play of complete hands within games to 100, the log written as the game goes
        (a LogWriter streaming to memory, synced after every action): hands and actions."""
        rng = random.Random(seed)
        actions = hands = number = 0
        while hands < n_hands:
            match = Match.new(seed=seed + number, **game)
            number += 1
            writer = LogWriter(io.BytesIO(), match)
            while match.to_act is not None and hands < n_hands:
                legal = match.legal_actions()
                before = match.number
                match.apply(legal[int(rng.random() * len(legal))])
                writer.sync()
                actions += 1
                hands += match.number != before or match.is_over
        return hands, actions

    def play() -> Measured:
        return timed(("hands/s", "actions/s"), logged_play)

    def bare_play() -> tuple[int, int]:
        """The same on bare hands: no game around them, no log: actions and machine steps (a hand's events)."""
        rng = random.Random(seed)
        actions = steps = 0
        for i in range(n_hands):
            hand = Hand.deal(seed=seed + i, dealer=i & 1, **game)
            while hand.to_act is not None:
                legal = hand.legal_actions()
                hand.apply(legal[int(rng.random() * len(legal))])
                actions += 1
            steps += len(hand.events)
        return actions, steps

    def bare() -> Measured:
        return timed(("bare actions/s", "µs/step"), bare_play)

    @functools.cache
    def logged_games() -> tuple[list[bytes], int, int]:
        """Logged games of random play (two, or ten): the logs, their hands and their player actions."""
        games = [play_match(Match.new(seed=seed + i, **game), [RandomBot(i), RandomBot(i + 7)])
                 for i in range(2 if quick else 10)]  # fmt: skip
        actions = sum(sum(1 for e in m.events if type(e).__name__ in PLAYER_EVENTS) for m in games)
        return [write_log(m) for m in games], sum(m.number for m in games), actions

    def verify() -> Measured:
        logs, hands, _ = logged_games()
        return per_call("verify ms/hand", lambda d: Replayer(d, **replay).run(), logs, each=hands / len(logs))

    def complete_games(preset: str) -> Task:
        rules = RuleSet.preset(preset)

        def games() -> tuple[int]:
            for i in range(n_games):
                bots: list[Bot] = [GreedyBot(), RandomBot(seed + i), GreedyBot()]
                write_log(play_match(Match.new(rules, seed=seed + i, **game), bots[: rules.players]))
            return (n_games,)

        return lambda: timed((f"games/s {preset}",), games)

    tasks: dict[str, Task] = {"play": play, "bare": bare, "verify": verify}
    tasks.update((f"games {preset}", complete_games(preset)) for preset in ("standard", "oklahoma", "three_handed"))
    if not everything:
        return tasks

    def bot_play() -> tuple[int]:
        """Random play by RandomBot (an observation built per move), each game written to a log afterwards."""
        actions = 0
        for i in range(1 if quick else 4):
            m = play_match(Match.new(seed=seed + i, **game), [RandomBot(seed + i), RandomBot(seed + i + 1)])
            write_log(m)
            actions += sum(1 for e in m.events if type(e).__name__ in PLAYER_EVENTS)
        return (actions,)

    def min_deadwood(size: int, fn: Callable[[int], int]) -> Task:
        masks = [to_mask(h) for h in hands_of(size, n_calls, size)]
        return lambda: per_call(f"deadwood {size} µs", fn, masks)

    @functools.cache
    def live() -> Hand:
        hand = Hand.deal(seed=5, **game)  # a live state halfway through a hand
        rng = random.Random(5)
        for _ in range(40):
            legal = hand.legal_actions()
            hand.apply(legal[int(rng.random() * len(legal))])
        return hand

    def sizes() -> Measured:
        logs, hands, actions = logged_games()
        return {"figures": {"bytes/hand": sum(map(len, logs)) / hands, "bytes/action": sum(map(len, logs)) / actions}}

    tasks.update({"bot": lambda: timed(("bot actions/s",), bot_play), "deadwood 10": min_deadwood(10, deadwood),
                  "deadwood 11": min_deadwood(11, knock_deadwood),
                  "copy": lambda: per_call("copy µs", lambda h: h.copy(), [live()] * 2000), "sizes": sizes,
                  "memory": lambda: {"figures": {"memory KiB": memory(lambda i: Hand.deal(seed=i, **game), 10_000)}},
                  })  # fmt: skip
    return tasks


# --- the peers -------------------------------------------------------------------------------------------------


def os_hands(pyspiel: Any, n: int, seed: int) -> tuple[int, int]:
    """OpenSpiel's random play of ``n`` hands: hands and actions."""
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = 0
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.apply_action(legal[int(rng.random() * len(legal))])
                actions += 1
    return n, actions


def os_played(game: Any, seed: int) -> Any:
    s = game.new_initial_state()
    r = random.Random(seed)
    while not s.is_terminal():
        acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        s.apply_action(acts[int(r.random() * len(acts))])
    return s


def _os_dealt(game: Any, i: int) -> Any:
    s = game.new_initial_state()
    r = random.Random(i)
    while s.is_chance_node():
        s.apply_action([a for a, _ in s.chance_outcomes()][int(r.random() * len(s.chance_outcomes()))])
    return s


def os_tasks(repeat: int, quick: bool) -> dict[str, Task]:
    """OpenSpiel's figures of one repeat, by task."""
    import pyspiel

    n_hands = 30 if quick else 200
    n_calls = 2000 if quick else 10000
    n_live = 2000 if quick else 10000
    seed = 1_000_003 * (repeat + 1)
    game = pyspiel.load_game("gin_rummy")
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)

    def min_deadwood(size: int) -> Task:
        inputs = hands_of(size, n_calls, size)
        return lambda: per_call(f"deadwood {size} µs", utils.min_deadwood, inputs)

    @functools.cache
    def live() -> Any:
        st = game.new_initial_state()
        rng = random.Random(5)
        while st.move_number() < 60 and not st.is_terminal():
            acts_now = [a for a, _ in st.chance_outcomes()] if st.is_chance_node() else st.legal_actions()
            st.apply_action(acts_now[int(rng.random() * len(acts_now))])
        return st

    @functools.cache
    def texts() -> list[str]:
        return [os_played(game, seed + i).serialize() for i in range(60)]

    def sizes() -> Measured:
        done = texts()
        size = sum(len(x.encode()) for x in done)
        return {"figures": {"bytes/hand": size / len(done),
                "bytes/action": size / sum(len([y for y in x.split("\n") if y.strip()]) for x in done)}}  # fmt: skip

    tasks: dict[str, Task] = {
        "play": lambda: timed(("hands/s", "actions/s"), lambda: os_hands(pyspiel, n_hands, seed)),
        "verify": lambda: per_call("verify ms/hand", game.deserialize_state, texts()),  # OpenSpiel: deserialize
        "deadwood 10": min_deadwood(10),
        "deadwood 11": min_deadwood(11),
        "copy": lambda: per_call("copy µs", lambda s: s.clone(), [live()] * 2000),
        "sizes": sizes,
    }
    if repeat == 0:  # heavy (OpenSpiel's states take ~67 KiB each): once
        tasks["memory"] = lambda: {"figures": {"memory KiB": memory(lambda i: _os_dealt(game, i), n_live)}}
    return tasks


def rl_hands(n: int, seed: int) -> tuple[int, int]:
    """RLCard's random play of ``n`` hands: hands and actions."""
    from rlcard.games.gin_rummy import game as rl_game

    rng = random.Random(seed)
    actions = 0
    for i in range(n):
        g = rl_game.GinRummyGame()
        g.np_random.seed(seed + i)
        g.init_game()
        while not g.is_over():
            legal = g.judge.get_legal_actions()
            g.step(legal[int(rng.random() * len(legal))])
            actions += 1
    return n, actions


def _rl_dealt(i: int) -> Any:
    from rlcard.games.gin_rummy import game as rl_game

    g = rl_game.GinRummyGame()
    g.np_random.seed(i)
    g.init_game()
    return g


def rl_tasks(repeat: int, quick: bool) -> dict[str, Task]:
    """RLCard's figures of one repeat, by task."""
    from rlcard.games.gin_rummy import game as rl_game
    from rlcard.games.gin_rummy.utils import melding as rl_melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils

    n_hands = 30 if quick else 200
    n_calls = 2000 if quick else 10000
    seed = 1_000_003 * (repeat + 1)

    def rl_deadwood(cards: list[Any]) -> int:
        clusters = rl_melding.get_best_meld_clusters(hand=cards)
        return int(rl_utils.get_deadwood_count(hand=cards, meld_cluster=clusters[0] if clusters else []))

    cards = [[rl_utils.card_from_card_id(c) for c in h] for h in hands_of(10, n_calls, 10)[: n_calls // 10]]
    live = rl_game.GinRummyGame()
    live.init_game()
    for _ in range(40):
        live.step(live.judge.get_legal_actions()[0])
    tasks: dict[str, Task] = {
        "play": lambda: timed(("hands/s", "actions/s"), lambda: rl_hands(n_hands, seed)),
        "deadwood 10": lambda: per_call("deadwood 10 µs", rl_deadwood, cards),
        "copy": lambda: per_call("copy µs", copy.deepcopy, [live] * 100),
    }
    if repeat == 0:
        tasks["memory"] = lambda: {"figures": {"memory KiB": memory(_rl_dealt, 2000)}}
    return tasks


# --- a measuring child process, and its parent's handle ---------------------------------------------------------

#: Who a child measures: Knock in either mode (this tree or a baseline's), or a peer.
CHILDREN = ("knock-compiled", "knock-library", "openspiel", "rlcard")
#: The tasks of a repeat, in the order they are measured (each by every engine that has it, one after another).
TASKS = ("memory", "play", "bare", "verify", "games standard", "games oklahoma", "games three_handed", "bot",
         "deadwood 10", "deadwood 11", "copy", "sizes")  # fmt: skip
#: The tasks whose figures are not times: measured once.
UNTIMED = ("sizes", "memory")


def child(args: argparse.Namespace) -> int:
    """One repeat of one engine in this (fresh, pinned) process: it says which tasks it has, then measures each
    task its parent names on stdin, one JSON line of figures for each; on "done", its threads."""
    measuring.setup(pin=True)
    if args.numpy_first:  # numpy first, and one product, which wakes OpenBLAS's pool where there is one
        import numpy

        numpy.ones((64, 64)) @ numpy.ones((64, 64))
    if args.child == "openspiel":
        tasks = os_tasks(args.repeat, args.quick)
    elif args.child == "rlcard":
        tasks = rl_tasks(args.repeat, args.quick)
    else:
        tasks = knock_tasks(args.child.removeprefix("knock-"), args.repeat, args.quick, args.everything)
    import engine

    watch = measuring.Threads()
    print(json.dumps({"engine": str(Path(engine.__file__).resolve().parent), "tasks": list(tasks)}), flush=True)
    for line in sys.stdin:
        if line.strip() == "done":
            break
        print(json.dumps(tasks[line.strip()]()), flush=True)
    print(json.dumps(watch.report()), flush=True)
    return 0


class Engine:
    """One engine to measure, in a fresh child process each repeat: a peer, or Knock from a source tree (this
    one or a baseline worktree) with an executor."""

    def __init__(self, label: str, who: str, tree: Path = ROOT, everything: bool = True) -> None:
        self.label, self.who, self.tree, self.everything = label, who, tree, everything
        self.runs: list[Figures] = []
        self.threads: list[dict[str, Any]] = []

    def start(self, repeat: int, quick: bool, numpy_first: bool) -> None:
        command = [sys.executable, str(Path(__file__).resolve()), "--child", self.who, "--repeat", str(repeat)]
        command += ["--quick"] * quick + ["--everything"] * self.everything + ["--numpy-first"] * numpy_first
        env = measuring.environment({**os.environ, "PYTHONPATH": str(self.tree)})
        self.proc = subprocess.Popen(command, cwd=self.tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)  # fmt: skip
        answer = self._answer()
        if self.who.startswith("knock") and Path(answer["engine"]) != self.tree / "engine":
            sys.exit(f"{self.label} imported the engine from {answer['engine']}, not from {self.tree}")
        self.tasks, self.repeat = set(answer["tasks"]), repeat
        self.runs.append({})
        self.sums: dict[str, list[float]] = {}  # figure: [seconds, count] of this repeat's rounds so far

    def _answer(self) -> Any:
        line = self.proc.stdout.readline() if self.proc.stdout else ""
        if not line:
            sys.exit(f"measuring {self.label} failed:\n{self.proc.stderr.read() if self.proc.stderr else ''}")
        return json.loads(line)

    def measure(self, task: str) -> None:
        """One round of ``task``, if this engine has it."""
        if task not in self.tasks:
            return
        assert self.proc.stdin is not None
        self.proc.stdin.write(task + "\n")
        self.proc.stdin.flush()
        measured = self._answer()
        self.runs[-1].update(measured.get("figures", {}))
        for key, count in measured.get("counts", {}).items():
            total = self.sums.setdefault(key, [0.0, 0.0])
            total[0] += measured["seconds"]
            total[1] += count
        for key, (seconds, count) in self.sums.items():
            self.runs[-1][key] = figure(key, seconds, count)

    def finish(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("done\n")
        self.proc.stdin.flush()
        threads = self._answer()
        self.proc.communicate()
        measuring.warn_busy(f"{self.label} (repeat {self.repeat + 1})", threads["busy"])
        self.threads.append(threads)

    def median(self, key: str) -> float | None:
        return median(self.runs, key)


# --- the run ------------------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller runs")
    ap.add_argument("--repeats", type=int, default=7, help="repeated runs per figure (the median is printed)")
    ap.add_argument("--baseline", metavar="REV", help="also measure Knock at git revision REV (a temporary worktree)")
    ap.add_argument("--numpy-first", action="store_true", help="every measuring process imports numpy first")
    ap.add_argument("--child", choices=CHILDREN, help=argparse.SUPPRESS)
    ap.add_argument("--repeat", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--everything", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        return child(args)
    missing = [name for name in ("pyspiel", "rlcard") if importlib.util.find_spec(name) is None]
    if missing:
        sys.exit(f"needs the peers extra ({', '.join(missing)} missing): .venv/bin/pip install -e '.[peers]'")
    measuring.setup(pin=False)  # the children inherit the conditions and pin themselves
    reps = max(1, args.repeats)
    with tempfile.TemporaryDirectory(prefix="knock-bench-") as tmp:
        engines = [Engine("Knock", "knock-compiled"), Engine("Knock, transitions executing", "knock-library",
                   everything=False), Engine("OpenSpiel", "openspiel"), Engine("RLCard", "rlcard")]  # fmt: skip
        base_tree: Path | None = None
        if args.baseline:
            base_tree, short = measuring.baseline_worktree(args.baseline, Path(tmp))
            engines.append(Engine(f"Knock@{short}", "knock-compiled", base_tree))
        try:
            for r in range(reps):
                turn = r % len(engines)  # who goes first turns with the repeats
                order = engines[turn:] + engines[:turn]
                for e in order:
                    e.start(r, args.quick, args.numpy_first)
                for task in TASKS:  # round by round, the engines in turn: each figure of each at about one time
                    for _ in range(ROUNDS if task not in UNTIMED else 1):
                        for e in order:
                            e.measure(task)
                for e in order:
                    e.finish()
                print(f"repeat {r + 1} of {reps} done (load average {measuring.load()})", file=sys.stderr, flush=True)
        finally:
            if base_tree is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)],
                               capture_output=True, check=False)  # fmt: skip
    report(engines, reps, args.numpy_first)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
