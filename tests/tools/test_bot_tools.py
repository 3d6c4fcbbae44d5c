"""Smoke runs of the bots' measuring tools (their real runs are long: docs/bots.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bench_bots_times_a_levels_moves() -> None:
    out = run("tools/bench_bots.py", "--bots", "easy", "--hands", "1")
    row = next(line for line in out.splitlines() if line.startswith("easy\t")).split("\t")
    assert int(row[1]) > 0 and 0 < float(row[2]) <= float(row[3]) <= float(row[4])


def test_search_parts_measures_a_part_of_the_search() -> None:
    out = run("tools/research/search_parts.py", "--budget", "2", "--width", "1", "--pairs", "2", "--only", "knock")
    assert "2 seed pairs from 5000" in out and "points a hand" in out


def test_search_parts_measures_the_searchs_deviations_against_their_estimates() -> None:
    out = run("tools/research/search_parts.py", "--deviations", "--budget", "8", "--width", "3", "--margin", "0",
              "--pairs", "2", "--seed", "8620", "--reshuffles", "2")  # fmt: skip
    lines = [line for line in out.splitlines() if "estimated lead" in line]
    assert lines and all(line.split()[0] in ("draw", "knock", "discard") and "real lead" in line for line in lines)


def test_search_parts_bounds_the_reading_with_a_search_that_sees_the_opponents_cards() -> None:
    out = run("tools/research/search_parts.py", "--oracle", "--budget", "6", "--width", "2", "--pairs", "2")
    assert "2 seed pairs from 5000" in out and "points a hand" in out


def test_search_parts_reads_the_worlds_against_the_opponents_cards() -> None:
    out = run(
        "tools/research/search_parts.py",
        "--calibration",
        "4",
        "--against",
        "simple",
        "--seed",
        "9000",
        "--tilts",
        "0,0.01",
    )
    stock = [line for line in out.splitlines() if line.strip().startswith("stock")]
    assert stock and all("true" in line and "the worlds'" in line for line in stock)
    assert "decisions where it may knock" in out
    tilts = [line for line in out.splitlines() if line.strip().startswith("tilt")]
    assert [line.split()[1] for line in tilts] == ["0:", "0.01:"]


def test_search_parts_weighs_the_score_awareness_in_games() -> None:
    out = run(
        "tools/research/search_parts.py", "--awareness", "1", "--budget", "3", "--width", "2", "--against", "greedy"
    )
    rows = [line.strip() for line in out.splitlines() if line.startswith("  ")]
    assert "1 seed pairs from 5000" in out and [row.split()[0] for row in rows] == ["with", "without", "without"]
    assert "%" in rows[0] and "%" in rows[1] and rows[2].endswith("1 pairs alike")


def test_search_parts_pairs_budgets_on_the_same_hands() -> None:
    out = run("tools/research/search_parts.py", "--budgets", "0,4", "--width", "2", "--pairs", "2", "--seed", "7000")
    rows = [line.split("\t") for line in out.splitlines() if line[:1].isdigit()]
    assert [row[0] for row in rows] == ["0", "4"] and len(rows[0]) == 3 and len(rows[1]) == 5
    assert "%" in rows[1][1] and rows[1][3].startswith(("+", "-"))
