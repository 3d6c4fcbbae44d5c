#!/usr/bin/env python3
"""The cost of signed logs (LOG-17, LOG-18): bytes per hand, µs per hand to write, and verify time, signed
and unsigned, verified with each Ed25519 backend (issue #35; the figures are in docs/performance.md).

    .venv/bin/python tools/bench_signing.py               # 200 games, 7 repeats; --games N, --repeats N
    taskset -c 1 .venv/bin/python tools/bench_signing.py  # as docs/performance.md quotes it (also pinned itself)
    .venv/bin/python tools/bench_signing.py --leak 400    # does signing time follow the secret nonce's bits?
    .venv/bin/python tools/bench_signing.py --leak 400 --old 21704cd  # and the pure-Python signer Knock had then

The games (standard rules, greedy against greedy, seeds 1 ..) are played once; each repeat then writes every
log (``write_log``; signing is always ``cryptography``'s, Knock has no signer of its own) and judges every log
(``replay.verdict.judge``, the strict replay ``knock verify`` runs): unsigned, signed and verified through
``cryptography``, and signed and verified by ``replay.ed25519_verify``'s pure Python, the three in an order that
turns with each repeat. Times are the measuring thread's CPU time (``tools/measuring.py``); every figure is the
median over the repeats of that repeat's total divided by the hands (or logs). Nothing here passes or fails.

``--leak N`` is the timing adversary of issue #56: N signatures of random messages with a published key, each
timed (the median of 15 runs, CPU time), against the number of set bits of its secret nonce ``r`` (RFC 8032's
``SHA-512(prefix ‖ message) mod L``, computable here because the key is published). It prints the correlation
and the slope in µs a bit: Knock's former pure-Python signer showed 3.2–4.3 µs a bit (correlation 0.14–0.28);
a constant-time signer shows none beyond noise. ``--old REV`` times, in the same run, the pure-Python signer of
``replay/ed25519.py`` at that git revision (the last with one: 21704cd), loaded from git.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import statistics
import subprocess
import sys
import types
from collections.abc import Callable
from pathlib import Path

import measuring

measuring.setup(pin=True)

from engine.match import Match  # noqa: E402
from knock.bots import GreedyBot, play_match  # noqa: E402
from replay import ed25519_verify as ed25519  # noqa: E402
from replay import signing  # noqa: E402
from replay.log import write_log  # noqa: E402
from replay.signing import SigningKey  # noqa: E402
from replay.verdict import judge  # noqa: E402

KEY = SigningKey.from_seed(bytes(range(32)))  #: a published key: for measuring only
MODES = ("unsigned", "signed, verified by cryptography", "signed, verified in Python")


def timed(work: Callable[[], object]) -> float:
    start = measuring.clock()
    work()
    return measuring.clock() - start


def writing(matches: list[Match], key: SigningKey | None) -> Callable[[], object]:
    return lambda: [write_log(m, key=key) for m in matches]


def judging(logs: list[bytes], verdicts: list[str]) -> Callable[[], object]:
    return lambda: verdicts.extend(judge(d).kind for d in logs)


def nonce_bits(seed: bytes, message: bytes) -> int:
    """The set bits of the secret nonce RFC 8032 derives for ``message`` (5.1.6: r = SHA-512(prefix ‖ M) mod L)."""
    prefix = hashlib.sha512(seed).digest()[32:]
    r = int.from_bytes(hashlib.sha512(prefix + message).digest(), "little") % ed25519.Q
    return r.bit_count()


def old_signer(rev: str) -> Callable[[bytes, bytes], bytes]:
    """The pure-Python ``sign(seed, message)`` of ``replay/ed25519.py`` at git revision ``rev``."""
    source = subprocess.run(["git", "show", f"{rev}:replay/ed25519.py"], capture_output=True, text=True, check=True,
                            cwd=Path(__file__).resolve().parent.parent).stdout  # fmt: skip
    module = types.ModuleType("old_ed25519")
    exec(compile(source, f"{rev}:replay/ed25519.py", "exec"), module.__dict__)
    sign: Callable[[bytes, bytes], bytes] = module._py_sign
    return sign


def leak(n: int, label: str, sign: Callable[[bytes], bytes]) -> None:
    """Time ``n`` signatures against their nonces' weights: the correlation and the slope (µs a set bit)."""
    rng = random.Random(56)
    messages = [rng.randbytes(58) for _ in range(n)]
    weights = [nonce_bits(KEY.seed, m) for m in messages]
    times = []
    for m in messages:
        runs = []
        for _ in range(15):
            start = measuring.clock()
            sign(m)
            runs.append(measuring.clock() - start)
        times.append(statistics.median(runs) * 1e6)
    slope = statistics.linear_regression(weights, times).slope
    print(f"{n} signatures, {label}: median {statistics.median(times):.1f} µs; nonce "
          f"weight {min(weights)}–{max(weights)} bits; correlation {statistics.correlation(weights, times):+.3f}, "
          f"slope {slope:+.3f} µs a set bit")  # fmt: skip


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--leak", type=int, metavar="N", help="time N signatures against their nonces' weights, only")
    ap.add_argument("--old", metavar="REV", help="with --leak: also the pure-Python signer of that git revision")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--python-games", type=int, default=20, help="games of the pure-Python rows (slower)")
    args = ap.parse_args(argv)
    print(measuring.header(processes=f"this one, {measuring.pinning()}",
                           versions={"cryptography": measuring.version("cryptography")}))  # fmt: skip
    if args.leak:
        if args.old:
            old = old_signer(args.old)
            leak(args.leak, f"Knock's pure-Python signer at {args.old}", lambda m: old(KEY.seed, m))
        leak(args.leak, f"through {signing.signing_backend()}", KEY.sign)
        return 0
    matches = [play_match(Match.new(seed=s), [GreedyBot(), GreedyBot()]) for s in range(1, args.games + 1)]
    hands = sum(m.number for m in matches)
    few = matches[: args.python_games]
    few_hands = sum(m.number for m in few)
    games = {MODES[0]: matches, MODES[1]: matches, MODES[2]: few}
    keys = {MODES[0]: None, MODES[1]: KEY, MODES[2]: KEY}
    backends: dict[str, ed25519.Backend] = {MODES[0]: "cryptography", MODES[1]: "cryptography", MODES[2]: "python"}
    logs = {mode: [write_log(m, key=keys[mode]) for m in games[mode]] for mode in MODES}
    write: dict[str, list[float]] = {m: [] for m in MODES}
    verify: dict[str, list[float]] = {m: [] for m in MODES}
    for r in range(args.repeats):
        for mode in MODES[r % 3 :] + MODES[: r % 3]:
            ed25519.use(backends[mode])
            n = sum(m.number for m in games[mode])
            write[mode].append(timed(writing(games[mode], keys[mode])) / n)
            verdicts: list[str] = []
            verify[mode].append(timed(judging(logs[mode], verdicts)) / n)
            assert set(verdicts) == {"pass"}, verdicts
    ed25519.use("cryptography")
    print(f"{args.games} games, {hands:,} hands ({hands / args.games:.2f} a game); pure Python: {len(few)} games, "
          f"{few_hands} hands; {args.repeats} repeats, medians\n")  # fmt: skip
    print(f"{'':34}{'bytes/hand':>11}{'write µs/hand':>15}{'verify µs/hand':>16}{'verify ms/log':>15}")
    for mode in MODES:
        n = hands if mode != MODES[2] else few_hands
        size = sum(map(len, logs[mode])) / n
        w, v = statistics.median(write[mode]) * 1e6, statistics.median(verify[mode]) * 1e6
        per_log = v * n / len(logs[mode]) / 1e3
        print(f"{mode:34}{size:11.1f}{w:15.1f}{v:16.1f}{per_log:15.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
