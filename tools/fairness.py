#!/usr/bin/env python3
"""Statistical evidence that Knock's shuffles are fair: deal many decks by a derivation and run the tests a test
lab would, combining their p-values so that a few small ones among many are not read as failures.

    .venv/bin/python tools/fairness.py                       # 10^6 decks by the seeded and the fair derivation
    .venv/bin/python tools/fairness.py --decks 10000 --derivation naive modulo   # biased shuffles: flagged
    .venv/bin/python tools/fairness.py --json out/fairness.json

Derivations: ``seeded`` (DEAL-2 and MATCH-7: a game's draw deck, then one Fisher–Yates shuffle per hand over
``random.Random(seed)``), ``fair`` (DEAL-5 .. DEAL-8: HMAC-SHA256 in counter mode from a server seed and each
seat's seed, every one of them new each hand), and two deliberately biased shuffles the tool must flag:
``naive`` (for each position i, swap with ``j = random(0..51)``: 52^52 equally likely paths onto 52! orders)
and ``modulo`` (the fair derivation without DEAL-7's rejection: ``j = byte mod (i + 1)``).

Decks are dealt in games of ``--hands`` hands (the serial test compares consecutive hands of a game). The tests,
each giving p-values (method in docs/fairness.md):

- positions: for each card, Pearson's chi-square of its 52 positions against uniform (52 tests, 51 degrees of
  freedom each), and the 52 x 52 table's chi-square of independence (51^2 degrees of freedom);
- pairs: for pairs of positions (every adjacent pair, and the upcard with its neighbours and the deal's first
  card), the chi-square of the pair's (suit, suit) and (rank, rank) against their exact probabilities under a
  uniform deck (a same-suit pair is 12/51 as likely, not 1/4);
- first upcard (position 20) and the draw: the upcard's card, the draw deck's first card and the seat the draw
  makes dealer (a fair coin: an exact-as-normal binomial test);
- serial: consecutive hands of a game, the (suit, suit) of their upcards and of their first cards, and the
  number of positions holding the same card in both decks (expected 1: a normal test on the mean).

Combined: a Bonferroni bound (the smallest p-value times their number) and a Kolmogorov–Smirnov test of all the
p-values against uniform. A derivation is *flagged* when either is below ``--alpha`` (default 0.001). Pure
Python and numpy (counts); the chi-square and Kolmogorov p-values are computed here (no scipy in the project).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import platform
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine import draw, fairdeal
from engine.cards import DECK, shuffle
from engine.rules import RuleSet

Game = tuple[list[tuple[int, ...]], tuple[int, ...]]  #: a game's decks (card codes) and its draw deck


# --- p-values ---------------------------------------------------------------------------------------------------


def gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) (a series below a + 1, a continued fraction above:
    Numerical Recipes, 6.2)."""
    if x <= 0:
        return 1.0
    ln = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(ln))
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 100_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(ln) * h)


def chi2_p(statistic: float, dof: int) -> float:
    """P(chi-square with ``dof`` degrees of freedom >= statistic)."""
    return gamma_q(dof / 2, statistic / 2)


def pearson(observed: np.ndarray, expected: np.ndarray) -> float:
    """The p-value of Pearson's chi-square of counts against expected counts (same total)."""
    stat = float(((observed - expected) ** 2 / expected).sum())
    return chi2_p(stat, observed.size - 1)


def normal_p(z: float) -> float:
    """Two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def ks_p(pvalues: list[float]) -> float:
    """The p-value of the Kolmogorov–Smirnov test of ``pvalues`` against uniform on [0, 1] (the asymptotic
    distribution with Stephens' correction for n)."""
    n = len(pvalues)
    xs = sorted(pvalues)
    d = max(max((i + 1) / n - x, x - i / n) for i, x in enumerate(xs))
    lam = (math.sqrt(n) + 0.12 + 0.11 / math.sqrt(n)) * d
    if lam < 0.2:
        return 1.0
    total = math.fsum(2.0 * (-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return min(1.0, max(0.0, total))


# --- derivations -------------------------------------------------------------------------------------------------


def _seeded(game: int, hands: int, base: int) -> Game:
    rng = random.Random(base + game)  # MATCH-7: the draw deck first, then a shuffle per deal
    draw_deck = tuple(c.index for c in shuffle(rng))
    return [tuple(c.index for c in shuffle(rng)) for _ in range(hands)], draw_deck


def _seeds(game: int, hand: int, base: int) -> tuple[bytes, list[bytes]]:
    """A hand's server seed and two seats' seeds, each new (SHA-256 of the game, hand and seat)."""
    label = b"fairness %d %d %d" % (base, game, hand)
    seats = [hashlib.sha256(label + b" seat %d" % s).digest() for s in (0, 1)]
    return hashlib.sha256(label + b" server").digest(), seats


def _fair(game: int, hands: int, base: int) -> Game:
    decks = []
    first: tuple[bytes, list[bytes]] | None = None
    for n in range(1, hands + 1):
        server, seats = _seeds(game, n, base)
        first = first or (server, seats)
        decks.append(fairdeal.deal_codes(server, seats, n))
    assert first is not None
    return decks, fairdeal.draw_codes(*first)


def _modulo(source: Iterator[int], n: int) -> int:
    return next(source) % n  # the bug: no rejection (DEAL-7), so small j are favoured


def _modulo_deck(server: bytes, seats: list[bytes], purpose: int, number: int) -> tuple[int, ...]:
    source = fairdeal.stream(server, seats, purpose, number)
    deck = list(range(52))
    for i in range(51, 0, -1):
        j = _modulo(source, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def _modulo_game(game: int, hands: int, base: int) -> Game:
    decks = []
    for n in range(1, hands + 1):
        server, seats = _seeds(game, n, base)
        decks.append(_modulo_deck(server, seats, fairdeal.DEAL, n))
    server, seats = _seeds(game, 1, base)
    return decks, _modulo_deck(server, seats, fairdeal.DRAW, 0)


def _naive_deck(rng: random.Random) -> tuple[int, ...]:
    deck = list(range(52))
    for i in range(52):
        j = int(rng.random() * 52)  # the bug: j over the whole deck at every step
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def _naive(game: int, hands: int, base: int) -> Game:
    rng = random.Random(base + game)
    draw_deck = _naive_deck(rng)
    return [_naive_deck(rng) for _ in range(hands)], draw_deck


DERIVATIONS: dict[str, Callable[[int, int, int], Game]] = {
    "seeded": _seeded,
    "fair": _fair,
    "naive": _naive,
    "modulo": _modulo_game,
}


# --- the tests ----------------------------------------------------------------------------------------------------

SUIT = np.arange(52) // 13
RANK = np.arange(52) % 13
#: The position pairs of the pair test: every adjacent pair, and the upcard (20) with the deal's first cards and
#: the stock's top; the first card with the last.
PAIRS = [(p, p + 1) for p in range(51)] + [(0, 20), (1, 20), (0, 51), (20, 51), (0, 2), (1, 3)]


def _pair_expected(groups: np.ndarray, size: int, n: int) -> np.ndarray:
    """Expected counts of (group at p, group at q) for two distinct cards of a uniform deck."""
    counts = np.bincount(groups, minlength=size).astype(float)
    table = np.outer(counts, counts) - np.diag(counts)  # ordered pairs of distinct cards
    expected: np.ndarray = table / table.sum() * n
    return expected


@dataclass
class Report:
    derivation: str
    decks: int
    games: int
    seconds: float
    families: dict[str, list[float]] = field(default_factory=dict)
    figures: dict[str, float] = field(default_factory=dict)

    @property
    def pvalues(self) -> list[float]:
        return [p for ps in self.families.values() for p in ps]

    @property
    def bonferroni(self) -> float:
        ps = self.pvalues
        return min(1.0, min(ps) * len(ps))

    @property
    def ks(self) -> float:
        return ks_p(self.pvalues)

    def flagged(self, alpha: float) -> bool:
        return self.bonferroni < alpha or self.ks < alpha

    def to_json(self, alpha: float) -> dict[str, Any]:
        return {
            "derivation": self.derivation, "decks": self.decks, "games": self.games, "seconds": round(self.seconds, 1),
            "tests": len(self.pvalues), "bonferroni": self.bonferroni, "ks": self.ks, "flagged": self.flagged(alpha),
            "families": {k: {"tests": len(v), "min_p": min(v)} for k, v in self.families.items()},
            "figures": self.figures,
        }  # fmt: skip


def run(derivation: str, decks: int, hands: int = 10, base: int = 1) -> Report:
    """Deal ``decks`` decks (in games of ``hands``) by ``derivation`` and test them."""
    games = max(1, decks // hands)
    make = DERIVATIONS[derivation]
    started = time.perf_counter()
    all_decks = np.empty((games * hands, 52), dtype=np.uint8)
    draws = np.empty((games, 2), dtype=np.uint8)
    dealers = 0
    rules = RuleSet()
    for g in range(games):
        dealt, draw_deck = make(g, hands, base)
        all_decks[g * hands : (g + 1) * hands] = dealt
        draws[g] = draw_deck[:2]
        taken = iter(draw_deck)
        order = draw.settle(rules, [0, 1], lambda seats, it=taken: [DECK[next(it)] for _ in seats])  # type: ignore[misc]
        dealers += order[0]  # the higher card deals (MATCH-2): 1 when p1 drew it
    seconds = time.perf_counter() - started
    n = len(all_decks)
    report = Report(derivation, n, games, seconds)

    # positions: cards x positions
    table = np.stack([np.bincount(all_decks[:, p], minlength=52) for p in range(52)], axis=1).astype(float)
    uniform = np.full(52, n / 52)
    report.families["card positions"] = [pearson(table[c], uniform) for c in range(52)]
    stat = float(((table - n / 52) ** 2 / (n / 52)).sum())
    report.families["positions table"] = [chi2_p(stat, 51 * 51)]
    report.figures["largest cell / expected"] = float(table.max() / (n / 52))
    report.figures["smallest cell / expected"] = float(table.min() / (n / 52))

    # pairs of positions
    pair_ps = []
    for groups, size in ((SUIT, 4), (RANK, 13)):
        expected = _pair_expected(groups, size, n)
        for p, q in PAIRS:
            codes = groups[all_decks[:, p]] * size + groups[all_decks[:, q]]
            observed = np.bincount(codes, minlength=size * size).astype(float)
            pair_ps.append(pearson(observed, expected.ravel()))
    report.families["position pairs"] = pair_ps

    # the first upcard and the draw
    upcard = np.bincount(all_decks[:, 20], minlength=52).astype(float)
    first_drawn = np.bincount(draws[:, 0], minlength=52).astype(float)
    z = (dealers - games / 2) / math.sqrt(games / 4)
    report.families["upcard and draw"] = [pearson(upcard, uniform), pearson(first_drawn, np.full(52, games / 52)),
                                          normal_p(z)]  # fmt: skip
    report.figures["p1 deals (share)"] = dealers / games

    # serial: consecutive hands of a game
    by_game = all_decks.reshape(games, hands, 52)
    now, nxt = by_game[:, :-1].reshape(-1, 52), by_game[:, 1:].reshape(-1, 52)
    serial = []
    expected_suits = np.full(16, len(now) / 16)
    for pos in (20, 0):
        codes = SUIT[now[:, pos]] * 4 + SUIT[nxt[:, pos]]
        serial.append(pearson(np.bincount(codes, minlength=16).astype(float), expected_suits))
    same = (now == nxt).sum(axis=1).astype(float)  # positions holding the same card: mean 1, variance 1
    if len(same):
        serial.append(normal_p((same.mean() - 1) / math.sqrt(1 / len(same))))
        report.figures["same card, same position, next hand (mean)"] = float(same.mean())
    report.families["serial"] = serial
    return report


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=1_000_000, help="decks per derivation (default 10^6)")
    parser.add_argument("--hands", type=int, default=10, help="hands per game (default 10)")
    parser.add_argument("--derivation", nargs="+", choices=sorted(DERIVATIONS), default=["seeded", "fair"])
    parser.add_argument("--alpha", type=float, default=0.001, help="the flagging threshold (default 0.001)")
    parser.add_argument("--seed", type=int, default=1, help="the base of the games' seeds (default 1)")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON too")
    args = parser.parse_args(argv)
    out = []
    print(f"# {' '.join(['tools/fairness.py', *argv])}; {platform.python_implementation()} "
          f"{platform.python_version()} on {platform.machine()}, {platform.processor() or 'cpu'}")  # fmt: skip
    for name in args.derivation:
        r = run(name, args.decks, args.hands, args.seed)
        out.append(r.to_json(args.alpha))
        print(f"\n{name}: {r.decks:,} decks in {r.games:,} games, dealt in {r.seconds:.1f} s; {len(r.pvalues)} tests")
        for family, ps in r.families.items():
            print(f"  {family:<18} {len(ps):>4} tests, smallest p {min(ps):.3g}")
        for k, v in r.figures.items():
            print(f"  {k}: {v:.4f}")
        verdict = "FLAGGED" if r.flagged(args.alpha) else "not flagged"
        print(f"  combined: Bonferroni {r.bonferroni:.3g}, Kolmogorov–Smirnov over the p-values {r.ks:.3g} -> "
              f"{verdict} (alpha {args.alpha})")  # fmt: skip
    if args.json:
        Path(args.json).write_text(json.dumps({"argv": argv, "alpha": args.alpha, "runs": out}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
