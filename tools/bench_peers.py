#!/usr/bin/env python3
"""Knock side by side with OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy``, in one run, on one machine.

    .venv/bin/pip install -e '.[peers]'          # open_spiel and rlcard (not needed by the test suite)
    .venv/bin/python tools/bench_peers.py         # --quick for smaller runs; --repeats N (default 7)
    .venv/bin/python tools/bench_peers.py --baseline b6a35b8   # and Knock at an earlier revision, in the same run

Every figure is the median of repeated runs (times are the measuring process's CPU time); nothing here
passes or fails. Knock runs in its performance
mode (the compiled executor, ``executor="compiled"``); the figures of its default mode, ``transitions``
executing every step, are printed beside them. Knock is measured in a fresh child process for each repeat
(this tree in both modes and, with ``--baseline REV``, the revision REV checked out in a temporary git
worktree and imported through ``PYTHONPATH``, run by the same loops), interleaved with the peers' runs so
that every engine sees the same machine; the seeds of repeat r are the same for every Knock.

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
import inspect
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.bots import Bot, GreedyBot, RandomBot, play_match
from engine.hand import Hand
from engine.match import Match
from engine.melds import deadwood, knock_deadwood
from engine.rules import RuleSet
from replay.log import LogWriter, write_log
from replay.replayer import Replayer

try:
    import pyspiel
    from rlcard.games.gin_rummy import game as rl_game
    from rlcard.games.gin_rummy.utils import melding as rl_melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils
except ImportError as err:  # pragma: no cover - the peers extra is not installed
    sys.exit(f"needs the peers extra ({err.name} is missing): .venv/bin/pip install -e '.[peers]'")

ROOT = Path(__file__).resolve().parent.parent
Figures = dict[str, float]
#: The clock of every timing: this process's CPU time, which the other work of a shared machine disturbs far
#: less than wall time (the engines measured are single-threaded).
clock = time.process_time


def rss_kib() -> int:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def per_call(fn: Callable[[Any], object], inputs: list[Any]) -> float:
    t = clock()
    for x in inputs:
        fn(x)
    return (clock() - t) / len(inputs) * 1e6


def hands_of(size: int, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(count)]


def to_mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def memory(make: Callable[[int], object], n: int = 10_000) -> float:
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


def knock_figures(executor: str, repeat: int, quick: bool, everything: bool) -> Figures:
    """One repeat of every Knock figure (or, unless ``everything``, of those that depend on the executor)."""
    game, replay = executor_options(executor)
    n_hands = 60 if quick else 200
    seed = 1_000_003 * (repeat + 1)
    out: Figures = {}

    # Uniform random legal play of complete hands within games to 100, the log written as the game goes (a
    # LogWriter streaming to memory, synced after every action).
    rng = random.Random(seed)
    actions = hands = number = 0
    t = clock()
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
    secs = clock() - t
    out["hands/s"], out["actions/s"] = n_hands / secs, actions / secs

    # The same on bare hands: no game around them, no log. A machine step is one event of the hand.
    rng = random.Random(seed)
    actions = steps = 0
    t = clock()
    for i in range(n_hands):
        hand = Hand.deal(seed=seed + i, dealer=i & 1, **game)
        while hand.to_act is not None:
            legal = hand.legal_actions()
            hand.apply(legal[int(rng.random() * len(legal))])
            actions += 1
        steps += len(hand.events)
    secs = clock() - t
    out["bare actions/s"], out["µs/step"] = actions / secs, secs / steps * 1e6

    # Strict replay of logged games.
    games = [play_match(Match.new(seed=seed + i, **game), [RandomBot(i), RandomBot(i + 7)]) for i in range(10)]
    logs = [write_log(m) for m in games]
    logged_hands = sum(m.number for m in games)
    t = clock()
    for d in logs:
        Replayer(d, **replay).run()
    out["verify ms/hand"] = (clock() - t) / logged_hands * 1000

    n_games = 10 if quick else 30
    for preset in ("standard", "oklahoma", "three_handed"):
        rules = RuleSet.preset(preset)
        t = clock()
        for i in range(n_games):
            bots: list[Bot] = [GreedyBot(), RandomBot(seed + i), GreedyBot()]
            write_log(play_match(Match.new(rules, seed=seed + i, **game), bots[: rules.players]))
        out[f"games/s {preset}"] = n_games / (clock() - t)
    if not everything:
        return out

    # Random play by RandomBot (an observation built per move), each game written to a log afterwards.
    actions = 0
    t = clock()
    for i in range(20 if quick else 60):
        m = play_match(Match.new(seed=seed + i, **game), [RandomBot(seed + i), RandomBot(seed + i + 1)])
        write_log(m)
        actions += sum(1 for e in m.events if type(e).__name__ in PLAYER_EVENTS)
    out["bot actions/s"] = actions / (clock() - t)

    n_calls = 2000 if quick else 10000
    for size, fn in ((10, deadwood), (11, knock_deadwood)):
        masks = [to_mask(h) for h in hands_of(size, n_calls, size)]
        out[f"deadwood {size} µs"] = per_call(fn, masks)

    # A live state halfway through a hand.
    live = Hand.deal(seed=5, **game)
    rng = random.Random(5)
    for _ in range(40):
        legal = live.legal_actions()
        live.apply(legal[int(rng.random() * len(legal))])
    out["copy µs"] = per_call(lambda h: h.copy(), [live] * 2000)

    logged_actions = sum(sum(1 for e in m.events if type(e).__name__ in PLAYER_EVENTS) for m in games)
    out["bytes/hand"] = sum(map(len, logs)) / logged_hands
    out["bytes/action"] = sum(map(len, logs)) / logged_actions
    out["memory KiB"] = memory(lambda i: Hand.deal(seed=i, **game))
    return out


def child(args: argparse.Namespace) -> int:
    import engine

    figures = knock_figures(args.knock_child, args.repeat, args.quick, args.everything)
    print(json.dumps({"engine": str(Path(engine.__file__).resolve().parent), "figures": figures}))
    return 0


class Knock:
    """One Knock to measure: a source tree (this one or a baseline worktree) and an executor."""

    def __init__(self, label: str, tree: Path, executor: str, everything: bool) -> None:
        self.label, self.tree, self.executor, self.everything = label, tree, executor, everything
        self.runs: list[Figures] = []

    def run(self, repeat: int, quick: bool) -> None:
        command = [sys.executable, str(Path(__file__).resolve()), "--knock-child", self.executor,
                   "--repeat", str(repeat)] + ["--quick"] * quick + ["--everything"] * self.everything  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(self.tree)}
        done = subprocess.run(command, cwd=self.tree, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            sys.exit(f"measuring {self.label} failed:\n{done.stderr}")
        answer = json.loads(done.stdout.splitlines()[-1])
        if Path(answer["engine"]) != self.tree / "engine":
            sys.exit(f"{self.label} imported the engine from {answer['engine']}, not from {self.tree}")
        self.runs.append(answer["figures"])

    def median(self, key: str) -> float | None:
        return median(self.runs, key)


def median(runs: list[Figures], key: str) -> float | None:
    """The median of a figure over the repeats that measured it."""
    values = [r[key] for r in runs if key in r]
    return statistics.median(values) if values else None


# --- the peers, one repeat in this process ---------------------------------------------------------------------


def os_hands(n: int, seed: int) -> tuple[float, int]:
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = 0
    t = clock()
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
    return clock() - t, actions


def rl_hands(n: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    actions = 0
    t = clock()
    for i in range(n):
        g = rl_game.GinRummyGame()
        g.np_random.seed(seed + i)
        g.init_game()
        while not g.is_over():
            legal = g.judge.get_legal_actions()
            g.step(legal[int(rng.random() * len(legal))])
            actions += 1
    return clock() - t, actions


def rl_deadwood(cards: list[Any]) -> int:
    clusters = rl_melding.get_best_meld_clusters(hand=cards)
    return int(rl_utils.get_deadwood_count(hand=cards, meld_cluster=clusters[0] if clusters else []))


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


def _rl_dealt(i: int) -> Any:
    g = rl_game.GinRummyGame()
    g.np_random.seed(i)
    g.init_game()
    return g


def peer_figures(repeat: int, quick: bool) -> tuple[Figures, Figures]:
    """One repeat of OpenSpiel's and RLCard's figures."""
    n_hands = 60 if quick else 200
    n_calls = 2000 if quick else 10000
    seed = 1_000_003 * (repeat + 1)
    ops: Figures = {}
    rl: Figures = {}
    secs, acts = os_hands(n_hands, seed)
    ops["hands/s"], ops["actions/s"] = n_hands / secs, acts / secs
    secs, acts = rl_hands(n_hands, seed)
    rl["hands/s"], rl["actions/s"] = n_hands / secs, acts / secs

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for size in (10, 11):
        hs = hands_of(size, n_calls, size)
        ops[f"deadwood {size} µs"] = per_call(utils.min_deadwood, hs)
        if size == 10:
            cards = [[rl_utils.card_from_card_id(c) for c in h] for h in hs[: n_calls // 10]]
            rl[f"deadwood {size} µs"] = per_call(rl_deadwood, cards)

    game = pyspiel.load_game("gin_rummy")
    st = game.new_initial_state()
    rng = random.Random(5)
    while st.move_number() < 60 and not st.is_terminal():
        acts_now = [a for a, _ in st.chance_outcomes()] if st.is_chance_node() else st.legal_actions()
        st.apply_action(acts_now[int(rng.random() * len(acts_now))])
    ops["copy µs"] = per_call(lambda s: s.clone(), [st] * 2000)
    rg = rl_game.GinRummyGame()
    rg.init_game()
    for _ in range(40):
        rg.step(rg.judge.get_legal_actions()[0])
    rl["copy µs"] = per_call(copy.deepcopy, [rg] * 100)

    texts = [os_played(game, seed + i).serialize() for i in range(60)]
    t = clock()
    for text in texts:
        game.deserialize_state(text)
    ops["verify ms/hand"] = (clock() - t) / len(texts) * 1000  # OpenSpiel: deserialize a hand
    ops["bytes/hand"] = sum(len(x.encode()) for x in texts) / len(texts)
    ops["bytes/action"] = sum(len(x.encode()) for x in texts) / sum(len([y for y in x.split("\n") if y.strip()])
                                                                     for x in texts)  # fmt: skip
    if repeat == 0:  # heavy (OpenSpiel's states take ~67 KiB each): once
        ops["memory KiB"] = memory(lambda i: _os_dealt(game, i))
        rl["memory KiB"] = memory(_rl_dealt, 2000)
    return ops, rl


# --- the run ------------------------------------------------------------------------------------------------

#: (label, key, Knock figure is better when higher). Rows whose key the peers lack show Knock alone.
ROWS: list[tuple[str, str, bool]] = [
    ("random play, hands/s (Knock: in games to 100, log written)", "hands/s", True),
    ("random play, player actions/s (Knock: log written)", "actions/s", True),
    ("random play on bare hands, no game or log, actions/s", "bare actions/s", True),
    ("random play by RandomBot (observations), log written, actions/s", "bot actions/s", True),
    ("minimum deadwood, 10 cards, µs/call", "deadwood 10 µs", False),
    ("minimum deadwood, 11 cards (knock test), µs/call", "deadwood 11 µs", False),
    ("copy a live state, µs", "copy µs", False),
    ("verify a logged hand (OpenSpiel: deserialize one), ms", "verify ms/hand", False),
    ("saved bytes per hand", "bytes/hand", False),
    ("saved bytes per player action", "bytes/action", False),
    ("memory per live game, KiB (10,000 at once)", "memory KiB", False),
    ("complete games to 100 with the log, standard, games/s", "games/s standard", True),
    ("complete games to 100 with the log, oklahoma, games/s", "games/s oklahoma", True),
    ("complete games to 100 with the log, three-handed, games/s", "games/s three_handed", True),
]

#: The figures of Knock's default mode (transitions executing every step) printed beside the compiled ones.
DEFAULT_ROWS: list[tuple[str, str]] = [
    ("random play, player actions/s (log written)", "actions/s"),
    ("random play on bare hands, actions/s", "bare actions/s"),
    ("µs per machine step (bare hands; one step per event)", "µs/step"),
    ("verify a logged hand, ms", "verify ms/hand"),
    ("complete games to 100 with the log, standard, games/s", "games/s standard"),
]


def baseline_worktree(rev: str, into: Path) -> tuple[Path, str]:
    """A git worktree of ``rev`` (detached) in ``into``, and the revision's short hash."""
    short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", f"{rev}^{{commit}}"],
                           capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    tree = into / f"knock-{short}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                   capture_output=True, text=True, check=True)  # fmt: skip
    return tree, short


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller runs")
    ap.add_argument("--repeats", type=int, default=7, help="repeated runs per figure (the median is printed)")
    ap.add_argument("--baseline", metavar="REV", help="also measure Knock at git revision REV (a temporary worktree)")
    ap.add_argument("--knock-child", choices=("compiled", "library"), help=argparse.SUPPRESS)
    ap.add_argument("--repeat", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--everything", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.knock_child:
        return child(args)
    reps = max(1, args.repeats)
    with tempfile.TemporaryDirectory(prefix="knock-bench-") as tmp:
        knocks = [Knock("Knock", ROOT, "compiled", True), Knock("Knock, transitions executing", ROOT, "library", False)]
        base_tree: Path | None = None
        if args.baseline:
            base_tree, short = baseline_worktree(args.baseline, Path(tmp))
            knocks.append(Knock(f"Knock@{short}", base_tree, "compiled", True))
        try:
            peers: list[tuple[Figures, Figures]] = []
            for r in range(reps):
                peers.append(peer_figures(r, args.quick))
                for k in knocks:
                    k.run(r, args.quick)
                print(f"repeat {r + 1} of {reps} done", file=sys.stderr, flush=True)
        finally:
            if base_tree is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)],
                               capture_output=True, check=False)  # fmt: skip
    report(knocks, peers, reps)
    return 0


def paired(a: list[Figures], b: list[Figures], key: str) -> float | None:
    """The median over the repeats of a's figure divided by b's in the same repeat (both ran one after the
    other, on the same seeds, so the machine's mood cancels out of the ratio)."""
    values = [x[key] / y[key] for x, y in zip(a, b, strict=False) if key in x and y.get(key)]
    return statistics.median(values) if values else None


def report(knocks: list[Knock], peers: list[tuple[Figures, Figures]], reps: int) -> None:
    knock, default = knocks[0], knocks[1]
    base = knocks[2] if len(knocks) > 2 else None
    ops = [p[0] for p in peers]
    rl = [p[1] for p in peers]
    version = getattr(pyspiel, "__version__", "")
    against = f", baseline {base.label}" if base else ""
    print(f"Knock v OpenSpiel {version} v RLCard; medians of {reps} runs, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores; Knock in its compiled mode{against}")  # fmt: skip
    print("Ratios are medians of the ratios within each repeat.")

    def cell(v: float | None, width: int = 11) -> str:
        return f"{v:>{width}.2f}" if v is not None else f"{'—':>{width}}"

    head = f"{'figure':<66} {'Knock':>11}"
    if base:
        head += f" {base.label:>15}"
    head += f" {'OpenSpiel':>11} {'RLCard':>11} {'K/OS':>7}"
    if base:
        head += f" {'base K/OS':>9} {'change':>7}"
    head += f" {'K/RL':>7}"
    print(head)
    print("-" * len(head))
    for name, key, higher in ROWS:
        line = f"{name:<66} {cell(knock.median(key))}"
        if base:
            line += f" {cell(base.median(key), 15)}"
        line += f" {cell(median(ops, key))} {cell(median(rl, key))} {cell(paired(knock.runs, ops, key), 7)}"
        if base:
            change = paired(knock.runs, base.runs, key)
            if change is not None and not higher:
                change = 1 / change
            line += f" {cell(paired(base.runs, ops, key), 9)} "
            line += f"{(change - 1) * 100:+6.1f}%" if change is not None else f"{'—':>7}"
        line += f" {cell(paired(knock.runs, rl, key), 7)}"
        print(line)
    if base:
        print("change: how much better (+) or worse (-) this Knock does than the baseline (Knock over baseline within")
        print("each repeat, the same as the change of its ratio to OpenSpiel's run in that repeat).")
    print()
    print("Knock's default mode: transitions executes every step (Event.trigger once per step)")
    head = f"{'figure':<66} {'compiled':>11} {'transitions':>11} {'ratio':>7} {'K/OS':>7} {'K/OS':>7}"
    print(head)
    print(f"{'':<66} {'':>11} {'':>11} {'':>7} {'compiled':>7} {'trans.':>7}")
    print("-" * len(head))
    for name, key in DEFAULT_ROWS:
        print(f"{name:<66} {cell(knock.median(key))} {cell(default.median(key))} "
              f"{cell(paired(default.runs, knock.runs, key), 7)} {cell(paired(knock.runs, ops, key), 7)} "
              f"{cell(paired(default.runs, ops, key), 7)}")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
