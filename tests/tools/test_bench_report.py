"""The change from a baseline that ``tools/bench_peers.py`` prints (``tools/bench_peers_report.py``): the same
figure in the ``change`` column and in the "largest change" line, better above 1 whichever way the figure runs.
Nothing here is timed: the figures are made up."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import bench_peers_report as report  # noqa: E402 -- tools/ is not a package


def engine(*runs: dict[str, float]) -> Any:
    """What the report reads of a ``bench_peers.Engine``: its label, its repeats' figures, their medians."""
    figures = list(runs)
    return SimpleNamespace(runs=figures, label="Knock@x", threads=[], median=lambda key: report.median(figures, key))


def test_a_faster_knock_is_a_positive_change_on_a_rate_and_on_a_time() -> None:
    knock = engine({"actions/s": 110.0, "copy µs": 1.0}, {"actions/s": 120.0, "copy µs": 1.0})
    base = engine({"actions/s": 100.0, "copy µs": 1.1}, {"actions/s": 100.0, "copy µs": 1.1})
    assert report.improvement(knock, base, "actions/s", True) == pytest.approx(1.15)
    assert report.improvement(knock, base, "copy µs", False) == pytest.approx(1.1)


def test_the_largest_change_line_names_the_column_s_figure(capsys: pytest.CaptureFixture[str]) -> None:
    # µs/call 0.945 of the baseline's: 5.8 % better (1 / 0.945), not 5.5 % (1 - 0.945).
    figures = {key: 1.0 for _, key, _ in report.ROWS}
    knock = engine({**figures, "deadwood 10 µs": 0.945})
    report.report([knock, *(engine(dict(figures)) for _ in range(4))], reps=1, numpy_first=False)
    out = capsys.readouterr().out
    assert "largest change: 5.8 % (minimum deadwood, 10 cards, µs/call)" in out
