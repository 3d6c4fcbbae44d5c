#!/usr/bin/env python3
"""The bots' move times, one process, apart from the arena: median, 99th percentile and the slowest move.

    .venv/bin/python tools/bench_bots.py                          # every search level, 20 hands each
    .venv/bin/python tools/bench_bots.py --bots expert --hands 60 # one level, more hands
    .venv/bin/python tools/bench_bots.py --json docs/bench-bots.json

Each bot plays ``--hands`` single hands (seeds from ``--seed``, dealer by the seed's parity, the compiled
executor) against ``simple`` in both seats; every one of its decisions with more than one legal action is timed
with the measuring thread's own CPU time (``tools/measuring.py``: pinned to one core, a fixed hash seed), so the
machine's other load does not count. Decisions with a single legal action are not timed (the bot answers at
once). The figures are what a level costs a move on this machine; the time cap (``SearchBot(time_limit=...)``)
is off. Nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

import measuring
from measuring import clock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.hand import Hand  # noqa: E402
from engine.rules import RuleSet  # noqa: E402
from knock.bots import make_bot  # noqa: E402
from knock.bots.search import LEVELS  # noqa: E402


def time_bot(name: str, hands: int, seed: int, rules: RuleSet) -> list[float]:
    """The CPU seconds of each timed decision of ``name`` over ``hands`` hands against ``simple``."""
    times: list[float] = []
    for n in range(hands):
        s = seed + n
        for seat in (0, 1):
            hand = Hand.deal(rules, seed=s, dealer=s % 2, executor="compiled")
            bots = [make_bot("simple", s), make_bot("simple", s)]
            bots[seat] = make_bot(name, s)
            while (to_act := hand.to_act) is not None:
                legal = hand.legal_actions()
                obs = hand.observation(to_act)
                if to_act == seat and len(legal) > 1:
                    start = clock()
                    action = bots[to_act].choose(obs, legal)
                    times.append(clock() - start)
                else:
                    action = bots[to_act].choose(obs, legal)
                hand.apply(action)
    return times


def summary(times: list[float]) -> dict[str, Any]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return {
        "moves": len(ordered),
        "median_ms": round(1000 * statistics.median(ordered), 2),
        "p99_ms": round(1000 * p99, 2),
        "max_ms": round(1000 * ordered[-1], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default=",".join(LEVELS), help="bots to time, comma separated")
    parser.add_argument("--hands", type=int, default=20, help="hands per bot (each played from both seats)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (tuning seeds: below 10^9)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    measuring.setup(pin=True)
    print(measuring.header(processes="this one, pinned to one core"))
    print("bot\tmoves\tmedian ms\tp99 ms\tmax ms")
    out: dict[str, Any] = {"hands": args.hands, "seed": args.seed, "bots": {}}
    for name in args.bots.split(","):
        row = summary(time_bot(name, args.hands, args.seed, RuleSet()))
        out["bots"][name] = row
        print(f"{name}\t{row['moves']}\t{row['median_ms']}\t{row['p99_ms']}\t{row['max_ms']}", flush=True)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
