#!/usr/bin/env python3
"""Knock side by side with OpenSpiel's ``gin_rummy`` and RLCard's ``gin-rummy``, in one run, on one machine.

    .venv/bin/pip install -e '.[peers]'          # open_spiel and rlcard (not needed by the test suite)
    .venv/bin/python tools/bench_peers.py         # --quick for smaller runs; --repeats N (default 5)

Every figure is the median of repeated runs; nothing here passes or fails. How the rules differ, and what
that does to hand length: OpenSpiel plays the same core game (knock limit 10, Oklahoma off) but pays 25 for
an undercut, has the 50th-card "wall" phase, ends a hand after 50 pickups and makes the knocker lay his
melds one action at a time, so its hands have more actions; RLCard plays a single game step per action
through its ``GinRummyGame`` (used directly here, without the RL environment's tensor encoding), forbids
discarding the taken card like Knock and ends a hand at two stock cards. Knock's random play includes
its full validation path, the state machine and, where said, writing the log.
"""

from __future__ import annotations

import argparse
import copy
import io
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
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

Figure = dict[str, float | None]


def median_of(runs: int, fn: Callable[[], float]) -> float:
    return statistics.median(fn() for _ in range(runs))


def rss_kib() -> int:
    with open(f"/proc/{os.getpid()}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


# --- random legal play ---------------------------------------------------------------------------------


def knock_hands(n: int, seed: int) -> tuple[float, int]:
    """Uniform random legal play of ``n`` complete hands, within games to 100, with the log written as the
    game goes (a LogWriter streaming to memory, synced after every action); seconds and player actions."""
    rng = random.Random(seed)
    actions = hands = 0
    game = 0
    t = time.perf_counter()
    while hands < n:
        match = Match.new(seed=seed + game, executor="compiled")
        game += 1
        writer = LogWriter(io.BytesIO(), match)
        while match.to_act is not None and hands < n:
            legal = match.legal_actions()
            number = match.number
            match.apply(legal[int(rng.random() * len(legal))])
            writer.sync()
            actions += 1
            hands += match.number != number or match.is_over
    return time.perf_counter() - t, actions


def knock_bare_hands(n: int, seed: int) -> tuple[float, int]:
    """The same on bare ``Hand`` objects: no game around them, no log."""
    rng = random.Random(seed)
    actions = 0
    t = time.perf_counter()
    for i in range(n):
        hand = Hand.deal(seed=seed + i, dealer=i & 1, executor="compiled")
        while hand.to_act is not None:
            legal = hand.legal_actions()
            hand.apply(legal[int(rng.random() * len(legal))])
            actions += 1
    return time.perf_counter() - t, actions


def knock_logged_games(n: int, seed: int) -> tuple[float, int, int]:
    """Complete games of uniform random play, each written to a log; seconds, hands, player actions."""
    hands = actions = 0
    t = time.perf_counter()
    for i in range(n):
        m = play_match(Match.new(seed=seed + i, executor="compiled"), [RandomBot(seed + i), RandomBot(seed + i + 1)])
        write_log(m)
        hands += m.number
        actions += sum(1 for e in m.events if type(e).__name__ in PLAYER_EVENTS)
    return time.perf_counter() - t, hands, actions


PLAYER_EVENTS = {
    "UpcardPassed", "UpcardTaken", "DrewStock", "DrewDiscard", "Discarded", "Knocked", "BigGinDeclared",
    "WallDeclined", "SpreadLaid", "DefenceLaid", "Advised",
}  # fmt: skip


def os_hands(n: int, seed: int) -> tuple[float, int]:
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    actions = 0
    t = time.perf_counter()
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
    return time.perf_counter() - t, actions


def rl_hands(n: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    actions = 0
    t = time.perf_counter()
    for i in range(n):
        g = rl_game.GinRummyGame()
        g.np_random.seed(seed + i)
        g.init_game()
        while not g.is_over():
            legal = g.judge.get_legal_actions()
            g.step(legal[int(rng.random() * len(legal))])
            actions += 1
    return time.perf_counter() - t, actions


# --- minimum deadwood ------------------------------------------------------------------------------------


def hands_of(size: int, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(count)]


def per_call(fn: Callable[[Any], object], inputs: list[Any]) -> float:
    t = time.perf_counter()
    for x in inputs:
        fn(x)
    return (time.perf_counter() - t) / len(inputs) * 1e6


def to_mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def rl_deadwood(cards: list[Any]) -> int:
    clusters = rl_melding.get_best_meld_clusters(hand=cards)
    return int(rl_utils.get_deadwood_count(hand=cards, meld_cluster=clusters[0] if clusters else []))


# --- the run ------------------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    reps = max(1, args.repeats)
    n_hands = 60 if args.quick else 200
    n_calls = 2000 if args.quick else 10000
    rows: list[tuple[str, Figure]] = []

    def rate(fn: Callable[[int, int], tuple[float, int]], per: str) -> float:
        def once() -> float:
            secs, acts = fn(n_hands, random.randrange(1 << 30))
            return (n_hands if per == "hands" else acts) / secs

        return median_of(reps, once)

    rows.append(
        (
            "random play, hands/s (Knock: log written; fresh state per hand)",
            {
                "knock": rate(knock_hands, "hands"),
                "openspiel": rate(os_hands, "hands"),
                "rlcard": rate(rl_hands, "hands"),
            },
        )
    )
    rows.append(("random play, player actions/s (Knock: log written)", {
        "knock": rate(knock_hands, "actions"), "openspiel": rate(os_hands, "actions"),
        "rlcard": rate(rl_hands, "actions")}))  # fmt: skip
    rows.append(("random play, bare hands without a game or log, actions/s",
                 {"knock": rate(knock_bare_hands, "actions"), "openspiel": None, "rlcard": None}))  # fmt: skip
    logged = [knock_logged_games(20 if args.quick else 60, 1000 * r) for r in range(reps)]
    rows.append(
        (
            "random play by RandomBot (with observations), log written, actions/s",
            {"knock": statistics.median(a / s for s, _, a in logged), "openspiel": None, "rlcard": None},
        )
    )

    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    for size in (10, 11):
        hs = hands_of(size, n_calls, size)
        masks = [to_mask(h) for h in hs]
        rl_cards = [[rl_utils.card_from_card_id(c) for c in h] for h in hs[: n_calls // 10]]
        fn = deadwood if size == 10 else knock_deadwood
        knock_us = median_of(reps, lambda f=fn, m=masks: per_call(f, m))  # type: ignore[misc]
        os_us = median_of(reps, lambda h=hs: per_call(utils.min_deadwood, h))  # type: ignore[misc]
        rl_us = median_of(reps, lambda c=rl_cards: per_call(rl_deadwood, c)) if size == 10 else None  # type: ignore[misc]
        rows.append(
            (f"minimum deadwood, {size} cards, µs/call", {"knock": knock_us, "openspiel": os_us, "rlcard": rl_us})
        )

    # A live state halfway through a hand, for copying and for saving and restoring.
    hand = Hand.deal(seed=5, executor="compiled")
    rng = random.Random(5)
    for _ in range(40):
        legal = hand.legal_actions()
        hand.apply(legal[int(rng.random() * len(legal))])
    game = pyspiel.load_game("gin_rummy")
    st = game.new_initial_state()
    while st.move_number() < 60 and not st.is_terminal():
        acts = [a for a, _ in st.chance_outcomes()] if st.is_chance_node() else st.legal_actions()
        st.apply_action(acts[int(rng.random() * len(acts))])
    rg = rl_game.GinRummyGame()
    rg.init_game()
    for _ in range(40):
        rg.step(rg.judge.get_legal_actions()[0])
    copies = 2000
    rows.append(("copy a live state, µs", {
        "knock": median_of(reps, lambda: per_call(lambda h: h.copy(), [hand] * copies)),
        "openspiel": median_of(reps, lambda: per_call(lambda s: s.clone(), [st] * copies)),
        "rlcard": median_of(reps, lambda: per_call(copy.deepcopy, [rg] * (copies // 20)))}))  # fmt: skip

    # Save and restore: Knock writes a game's log and replays it; OpenSpiel serializes and deserializes.
    games_for_log = [
        play_match(Match.new(seed=i, executor="compiled"), [RandomBot(i), RandomBot(i + 7)]) for i in range(10)
    ]
    logs = [write_log(m) for m in games_for_log]
    n_logged_hands = sum(m.number for m in games_for_log)
    n_logged_actions = sum(sum(1 for e in m.events if type(e).__name__ in PLAYER_EVENTS) for m in games_for_log)
    os_states = []
    for i in range(n_logged_hands):
        s = game.new_initial_state()
        r = random.Random(i)
        while not s.is_terminal():
            acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
            s.apply_action(acts[int(r.random() * len(acts))])
        os_states.append(s.serialize())

    def knock_verify_ms() -> float:
        t = time.perf_counter()
        for d in logs:
            Replayer(d).run()
        return (time.perf_counter() - t) / n_logged_hands * 1000

    def os_deserialize_ms() -> float:
        t = time.perf_counter()
        for text in os_states:
            game.deserialize_state(text)
        return (time.perf_counter() - t) / len(os_states) * 1000

    rows.append(
        (
            "verify (Knock) / deserialize (OpenSpiel) a hand, ms",
            {
                "knock": median_of(reps, knock_verify_ms),
                "openspiel": median_of(reps, os_deserialize_ms),
                "rlcard": None,
            },
        )
    )
    os_actions = sum(len([x for x in t.split("\n") if x.strip()]) for t in os_states)
    rows.append(("saved bytes per hand", {
        "knock": sum(map(len, logs)) / n_logged_hands,
        "openspiel": sum(len(t.encode()) for t in os_states) / len(os_states), "rlcard": None}))  # fmt: skip
    rows.append(("saved bytes per player action", {
        "knock": sum(map(len, logs)) / n_logged_actions,
        "openspiel": sum(len(t.encode()) for t in os_states) / max(os_actions, 1), "rlcard": None}))  # fmt: skip

    def memory(make: Callable[[int], object], n: int = 10_000) -> float:
        before = rss_kib()
        keep = [make(i) for i in range(n)]
        after = rss_kib()
        assert len(keep) == n
        return (after - before) / n

    rows.append(("memory per live game, KiB (10,000 at once)", {
        "knock": memory(lambda i: Hand.deal(seed=i, executor="compiled")),
        "openspiel": memory(lambda i: _os_dealt(game, i)),
        "rlcard": memory(lambda i: _rl_dealt(i), 2000)}))  # fmt: skip

    def games_per_s(rules: RuleSet) -> float:
        n = 10 if args.quick else 30
        t = time.perf_counter()
        for i in range(n):
            bots: list[Bot] = [GreedyBot(), RandomBot(i), GreedyBot()]
            write_log(play_match(Match.new(rules, seed=i, executor="compiled"), bots[: rules.players]))
        return n / (time.perf_counter() - t)

    for preset in ("standard", "oklahoma", "three_handed"):
        rules = RuleSet.preset(preset)
        rows.append((f"complete games to 100 with the log, {preset}, games/s", {
            "knock": median_of(reps, lambda r=rules: games_per_s(r)), "openspiel": None, "rlcard": None}))  # type: ignore[misc]  # fmt: skip

    print(
        f"Knock v OpenSpiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''} v RLCard; medians "
        f"of {reps} runs, Python {sys.version.split()[0]}, {os.cpu_count()} cores"
    )
    head = f"{'figure':<52} {'Knock':>11} {'OpenSpiel':>11} {'RLCard':>11} {'K/OS':>7} {'K/RL':>7}"
    print(head)
    print("-" * len(head))
    for name, fig in rows:
        k, o, rl = fig["knock"], fig["openspiel"], fig["rlcard"]

        def cell(v: float | None) -> str:
            return f"{v:>11.2f}" if v is not None else f"{'—':>11}"

        def ratio(a: float | None, b: float | None) -> str:
            return f"{a / b:>7.2f}" if a is not None and b else f"{'—':>7}"

        print(f"{name:<52} {cell(k)} {cell(o)} {cell(rl)} {ratio(k, o)} {ratio(k, rl)}")
    return 0


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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
