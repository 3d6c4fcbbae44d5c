"""``tools/fairness.py`` (issue #36's evidence): its p-values are right where they are known, it flags the two
deliberately biased shuffles at 10^4 decks, and passes Knock's two derivations at that size (deterministically
seeded: the same decks every run)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import fairness  # noqa: E402 -- tools/ is not a package


def test_the_p_values_are_the_known_ones() -> None:
    assert fairness.chi2_p(3.841459, 1) == pytest.approx(0.05, abs=1e-6)
    assert fairness.chi2_p(124.342, 100) == pytest.approx(0.05, abs=1e-5)
    assert fairness.chi2_p(68.669, 51) == pytest.approx(0.05, abs=1e-4)
    assert fairness.chi2_p(0.5, 2) == pytest.approx(0.7788008, abs=1e-7)  # exp(-x/2) for two degrees
    assert fairness.normal_p(1.959964) == pytest.approx(0.05, abs=1e-6)
    rng = random.Random(1)
    assert fairness.ks_p([rng.random() for _ in range(500)]) > 0.01
    assert fairness.ks_p([rng.random() ** 2 for _ in range(500)]) < 1e-6


@pytest.mark.rule("DEAL-7", "DEAL-8")
@pytest.mark.parametrize("biased", ["naive", "modulo"])
def test_a_biased_shuffle_is_flagged_at_ten_thousand_decks(biased: str) -> None:
    report = fairness.run(biased, 10_000)
    assert report.flagged(0.001) and report.bonferroni < 1e-6, report.to_json(0.001)


@pytest.mark.rule("DEAL-2", "DEAL-8")
@pytest.mark.parametrize("derivation", ["seeded", "fair"])
def test_knocks_derivations_are_not_flagged_at_ten_thousand_decks(derivation: str) -> None:
    report = fairness.run(derivation, 10_000)
    assert not report.flagged(0.001), report.to_json(0.001)
    assert len(report.pvalues) == 173 and report.decks == 10_000
