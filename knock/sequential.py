"""The sequential test that stops an arena run of two bots once its result is decided: an SPRT over seed pairs,
as chess engine testers run them (cutechess-cli, fastchess), and the running score ``knock arena`` prints.

The hypotheses are Elo differences of the first bot over the second: H0 ``elo0`` (say 0: no better) against H1
``elo1`` (say 20: better by 20), with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting
H0 when H1 holds). The statistic is the generalised SPRT's log-likelihood ratio for a mean score (M. Van den
Bergh's normal approximation, the one fastchess uses for its pentanomial pairs):

    LLR = n (s1 − s0) (2 m − s0 − s1) / (2 v)

over the ``n`` seed pairs' scores (each the first bot's share of its two games or hands, seats swapped: 0, ¼, ½,
¾ or 1) and one even pair (½) added, as the Elo ladder adds a drawn game (a bot that won every pair still
has a spread to divide by), ``m`` their mean and ``v`` their variance, ``s0``, ``s1`` the scores the two Elo
differences predict (``score_of``: the logistic curve of Elo). The test stops with H1 once LLR ≥ log((1 − beta)
/ alpha), with H0 once LLR ≤ log(beta / (1 − alpha)).

It is computed over the seeds from the run's first, in order, up to the first seed pair not yet played: the same
seeds give the same decision, at the same pair, whatever order the workers finished them in.

>>> test = Sprt(0, 20)
>>> round(test.upper, 3), round(test.lower, 3)
(2.944, -2.944)
>>> won = test.decide([1.0, 0.5] * 400)  # three games won of four: better, decided after 27 pairs
>>> won.pairs, won.verdict
(27, 'H1')
>>> test.decide([0.5, 0.25, 0.75, 0.5] * 400).verdict  # even: not better by 20
'H0'
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Decision", "Sprt", "Tally", "parse_sprt", "score_of"]


def score_of(elo: float) -> float:
    """The expected score of a bot ``elo`` points stronger (the logistic curve: 0 gives ½)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@dataclass(slots=True)
class Tally:
    """Running sums of seed-pair scores, in seed order: what the test and a running score read, each pair once."""

    n: int = 0
    total: float = 0.0
    squares: float = 0.0

    def add(self, score: float) -> None:
        self.n, self.total, self.squares = self.n + 1, self.total + score, self.squares + score * score

    def interval(self) -> tuple[float, float, float]:
        """The mean score and its 95% interval (normal, from the sample spread), as ``knock.arena.mean_interval``
        gives it for the same scores."""
        mean = self.total / self.n if self.n else 0.0
        if self.n < 2:
            return mean, mean, mean
        sd = math.sqrt(max(self.squares - self.n * mean * mean, 0.0) / (self.n - 1))
        half = 1.959964 * sd / math.sqrt(self.n)
        return mean, mean - half, mean + half


@dataclass(frozen=True, slots=True)
class Decision:
    """The test after ``pairs`` seed pairs: its statistic and what it decided (None: go on)."""

    pairs: int
    llr: float
    verdict: str | None  #: "H1" (the first bot is better by elo1), "H0" (it is not better by elo0) or None


@dataclass(frozen=True, slots=True)
class Sprt:
    """An SPRT of H0 ``elo0`` against H1 ``elo1`` at error rates ``alpha`` and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 must be below elo1, got {self.elo0} and {self.elo1}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError("alpha and beta lie strictly between 0 and 0.5")

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    def llr(self, scores: Sequence[float]) -> float:
        """The log-likelihood ratio of the pairs' ``scores`` (0 until they vary)."""
        tally = Tally()
        for x in scores:
            tally.add(x)
        return self._llr(tally)

    def _llr(self, tally: Tally) -> float:
        if tally.n < 2:
            return 0.0
        n, total = tally.n + 1, tally.total + 0.5  # one even pair added: a variance never 0
        mean = total / n
        var = (tally.squares + 0.25) / n - mean * mean
        if var <= 1e-12:
            return 0.0
        s0, s1 = score_of(self.elo0), score_of(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def decide(self, scores: Sequence[float], tally: Tally | None = None) -> Decision:
        """The decision after the pairs' ``scores`` in seed order, at the first pair where a bound is crossed;
        with ``tally``, the scores go on from the pairs it has summed (and it sums them: a run's test reads each
        pair once)."""
        tally = Tally() if tally is None else tally
        for x in scores:
            tally.add(x)
            value = self._llr(tally)
            if value >= self.upper or value <= self.lower:
                return Decision(tally.n, value, "H1" if value >= self.upper else "H0")
        return Decision(tally.n, self._llr(tally), None)

    def describe(self) -> str:
        return f"SPRT elo0 {self.elo0:g}, elo1 {self.elo1:g}, alpha {self.alpha:g}, beta {self.beta:g}"


def parse_sprt(text: str) -> Sprt:
    """``ELO0,ELO1`` or ``ELO0,ELO1,ALPHA,BETA`` (``0,20`` or ``0,20,0.05,0.05``)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) not in (2, 4):
        raise ValueError(f"{text!r} is not ELO0,ELO1 or ELO0,ELO1,ALPHA,BETA")
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise ValueError(f"{text!r}: numbers, e.g. 0,20") from None
    if not all(math.isfinite(x) for x in numbers):
        raise ValueError(f"{text!r}: finite numbers")
    return Sprt(*numbers)
