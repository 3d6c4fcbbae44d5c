#!/usr/bin/env python3
"""The cost of signed logs (LOG-17, LOG-18): bytes per hand, µs per hand to write, and verify time, signed
and unsigned, with each Ed25519 backend (issue #35; the figures are in docs/performance.md).

    .venv/bin/python tools/bench_signing.py               # 200 games, 7 repeats; --games N, --repeats N
    taskset -c 1 .venv/bin/python tools/bench_signing.py  # as docs/performance.md quotes it (also pinned itself)

The games (standard rules, greedy against greedy, seeds 1 ..) are played once; each repeat then writes every
log (``write_log``) and judges every log (``replay.verdict.judge``, the strict replay ``knock verify`` runs),
unsigned, signed through ``cryptography`` (the ``sign`` extra) and signed in pure Python, the three in an
order that turns with each repeat. Times are the measuring thread's CPU time (``tools/measuring.py``); every
figure is the median over the repeats of that repeat's total divided by the hands (or logs). Nothing here
passes or fails.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable

import measuring

measuring.setup(pin=True)

from engine.bots import GreedyBot, play_match  # noqa: E402
from engine.match import Match  # noqa: E402
from replay import ed25519  # noqa: E402
from replay.log import write_log  # noqa: E402
from replay.signing import SigningKey  # noqa: E402
from replay.verdict import judge  # noqa: E402

KEY = SigningKey.from_seed(bytes(range(32)))  #: a published key: for measuring only
MODES = ("unsigned", "signed (cryptography)", "signed (pure Python)")


def timed(work: Callable[[], object]) -> float:
    start = measuring.clock()
    work()
    return measuring.clock() - start


def writing(matches: list[Match], key: SigningKey | None) -> Callable[[], object]:
    return lambda: [write_log(m, key=key) for m in matches]


def judging(logs: list[bytes], verdicts: list[str]) -> Callable[[], object]:
    return lambda: verdicts.extend(judge(d).kind for d in logs)


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--python-games", type=int, default=20, help="games of the pure-Python rows (slower)")
    args = ap.parse_args(argv)
    print(measuring.header(processes=f"this one, {measuring.pinning()}",
                           versions={"cryptography": measuring.version("cryptography")}))  # fmt: skip
    matches = [play_match(Match.new(seed=s), [GreedyBot(), GreedyBot()]) for s in range(1, args.games + 1)]
    hands = sum(m.number for m in matches)
    few = matches[: args.python_games]
    few_hands = sum(m.number for m in few)
    games = {MODES[0]: matches, MODES[1]: matches, MODES[2]: few}
    keys = {MODES[0]: None, MODES[1]: KEY, MODES[2]: KEY}
    backends = {MODES[0]: "cryptography", MODES[1]: "cryptography", MODES[2]: "python"}
    logs = {mode: [write_log(m, key=keys[mode]) for m in games[mode]] for mode in MODES}
    write: dict[str, list[float]] = {m: [] for m in MODES}
    verify: dict[str, list[float]] = {m: [] for m in MODES}
    for r in range(args.repeats):
        for mode in MODES[r % 3 :] + MODES[: r % 3]:
            ed25519.use(backends[mode])  # type: ignore[arg-type]
            n = sum(m.number for m in games[mode])
            write[mode].append(timed(writing(games[mode], keys[mode])) / n)
            verdicts: list[str] = []
            verify[mode].append(timed(judging(logs[mode], verdicts)) / n)
            assert set(verdicts) == {"pass"}, verdicts
    ed25519.use("cryptography")
    print(f"{args.games} games, {hands:,} hands ({hands / args.games:.2f} a game); pure Python: {len(few)} games, "
          f"{few_hands} hands; {args.repeats} repeats, medians\n")  # fmt: skip
    print(f"{'':24}{'bytes/hand':>11}{'write µs/hand':>15}{'verify µs/hand':>16}{'verify ms/log':>15}")
    for mode in MODES:
        n = hands if mode != MODES[2] else few_hands
        size = sum(map(len, logs[mode])) / n
        w, v = statistics.median(write[mode]) * 1e6, statistics.median(verify[mode]) * 1e6
        per_log = v * n / len(logs[mode]) / 1e3
        print(f"{mode:24}{size:11.1f}{w:15.1f}{v:16.1f}{per_log:15.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
