#!/usr/bin/env python3
"""Knock's benchmarks: print figures (medians of repeated runs); nothing here passes or fails.

    .venv/bin/python tools/bench.py            # everything, default sizes
    .venv/bin/python tools/bench.py --quick    # smaller runs
    .venv/bin/python tools/bench.py --executor library   # transitions runs every step (default: compiled)

Figures: minimum deadwood of random 10- and 11-card hands (µs per call), and random legal play of
complete hands (hands/s, player actions/s) under each preset, a fresh hand per deal; complete games
to 100 per second for each preset (no log); log bytes per player action and strict replay time per hand.
The games run on the engine's compiled executor (its performance mode) unless ``--executor library``.
Every time is this process's measuring thread's CPU time, the process pinned to one core, under the conditions
of ``tools/measuring.py`` (stated in the header; a warning names any other thread that was busy).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable

import measuring
from measuring import clock

from engine.fsm import EXECUTOR_NAMES, ExecutorName
from engine.hand import Hand
from engine.match import Match
from engine.melds import deadwood, knock_deadwood
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, RandomBot, play_match
from replay.log import write_log
from replay.replayer import Replayer

PLAYER_EVENTS = {
    "UpcardPassed", "UpcardTaken", "DrewStock", "DrewDiscard", "Discarded", "Knocked", "BigGinDeclared",
    "WallDeclined", "SpreadLaid", "DefenceLaid", "Advised",
}  # fmt: skip


def random_masks(n: int, size: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        m = 0
        for i in rng.sample(range(52), size):
            m |= 1 << i
        out.append(m)
    return out


def per_call_us(fn: Callable[[int], int], masks: list[int], repeats: int) -> list[float]:
    runs = []
    for _ in range(repeats):
        t = clock()
        for m in masks:
            fn(m)
        runs.append((clock() - t) / len(masks) * 1e6)
    return runs


def random_play(rules: RuleSet, hands: int, seed: int, executor: ExecutorName) -> tuple[float, int]:
    """Seconds for ``hands`` complete hands of uniform random legal play, and the player actions taken."""
    rng = random.Random(seed)
    actions = 0
    t = clock()
    for i in range(hands):
        hand = Hand.deal(rules, seed=seed + i, dealer=i & 1, executor=executor)
        while hand.to_act is not None:
            legal = hand.legal_actions()
            hand.apply(legal[int(rng.random() * len(legal))])
            actions += 1
    return clock() - t, actions


def games(preset: str, count: int, seed: int, executor: ExecutorName) -> tuple[float, int]:
    """Seconds for ``count`` complete games to the target and the hands they took (greedy bots; p2 random)."""
    rules = RuleSet.preset(preset)
    hands = 0
    t = clock()
    for i in range(count):
        bots: list[Bot] = [GreedyBot(), GreedyBot(), RandomBot(seed + i)]
        hands += play_match(Match.new(rules, seed=seed + i, executor=executor), bots[: rules.players]).number
    return clock() - t, hands


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="smaller runs")
    ap.add_argument("--repeats", type=int, default=7, help="repeated runs per figure (the median is reported)")
    ap.add_argument("--executor", choices=EXECUTOR_NAMES, default="compiled", help="who runs the state machines")
    args = ap.parse_args(argv)
    measuring.setup(pin=True)
    watch = measuring.Threads()
    executor: ExecutorName = args.executor
    n_masks = 5_000 if args.quick else 20_000
    n_hands = 100 if args.quick else 400
    reps = max(1, args.repeats)
    print(f"Knock benchmarks: medians of {reps} runs; the {executor} executor")
    print(measuring.header(processes=f"this one, {measuring.pinning()}, {len(measuring.thread_cpu())} threads") + "\n")

    for size, fn, name in ((10, deadwood, "deadwood"), (11, knock_deadwood, "knock_deadwood (11 discards)")):
        runs = per_call_us(fn, random_masks(n_masks, size, seed=size), reps)
        print(
            f"min deadwood, {size}-card hands, {name:<30} median {statistics.median(runs):7.2f} µs/call"
            f"  (min {min(runs):.2f}, max {max(runs):.2f}; {n_masks} hands per run)"
        )
    print()
    for preset in ("standard", "oklahoma"):
        rules = RuleSet.preset(preset)
        rates = []
        for r in range(reps):
            secs, acts = random_play(rules, n_hands, seed=1000 * r, executor=executor)
            rates.append((n_hands / secs, acts / secs, acts / n_hands))
        hps = statistics.median(x[0] for x in rates)
        aps = statistics.median(x[1] for x in rates)
        apd = statistics.median(x[2] for x in rates)
        print(
            f"random legal play, {preset:<9} median {hps:8.0f} hands/s  {aps:9.0f} actions/s"
            f"  ({apd:.1f} actions per hand; {n_hands} hands per run)"
        )
    print()
    n_logged = 10 if args.quick else 30
    for preset in ("standard", "three_handed"):
        rules = RuleSet.preset(preset)
        logs = []
        for i in range(n_logged):
            bots: list[Bot] = [RandomBot(i), RandomBot(i + 100), RandomBot(i + 200)]
            m = play_match(Match.new(rules, seed=i, executor=executor), bots[: rules.players])
            acts = sum(1 for e in m.events if type(e).__name__ in PLAYER_EVENTS)
            logs.append((write_log(m), m.number, acts))
        size = sum(len(d) for d, _, _ in logs)
        hands = sum(n for _, n, _ in logs)
        acts = sum(a for _, _, a in logs)
        verify_ms = []
        for _ in range(reps):
            t = clock()
            for d, _, _ in logs:
                Replayer(d, executor=executor).run()
            verify_ms.append((clock() - t) / hands * 1000)
        print(
            f"log of random legal play, {preset:<12} {size / acts:5.2f} bytes/player action, {size / hands:6.0f} "
            f"bytes/hand; strict replay median {statistics.median(verify_ms):5.2f} ms/hand "
            f"({acts / hands:.0f} actions/hand; {n_logged} games)"
        )
    print()
    n_games = 20 if args.quick else 60
    for preset in ("standard", "oklahoma", "three_handed"):
        game_runs = [games(preset, n_games, seed=100 * r, executor=executor) for r in range(reps)]
        gps = statistics.median(n_games / secs for secs, _ in game_runs)
        hpg = statistics.median(h / n_games for _, h in game_runs)
        print(
            f"complete games to 100, {preset:<12} median {gps:7.1f} games/s  ({hpg:.1f} hands per game;"
            f" {n_games} games per run; greedy bots, p2 random in three-handed)"
        )
    busy = watch.busy()
    measuring.warn_busy("bench.py", [str(b) for b in busy])
    print(f"\nbusy extra threads while measuring: {len(busy)}; load average at the end {measuring.load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
