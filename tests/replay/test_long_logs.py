"""Long legal logs (LOG-15): every kind passes, in full and as a view, and replaying it holds the game as it
stands, never its history. Sizes are small here; ``tools/bench_reader.py`` measures time and memory up to 10 MB."""

from __future__ import annotations

import io
import subprocess
import sys
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replay.audit import verify, verify_view
from replay.public import ViewReplayer
from replay.redact import redact
from replay.replayer import Replayer
from replay.verdict import judge
from tests.support import long_logs

ROOT = Path(__file__).resolve().parents[2]
#: Each kind at a small size, and eight times that.
SIZES = {"trading": 2_500, "advice": 2_500, "dead": 12}


@pytest.fixture(scope="module")
def logs() -> dict[tuple[str, int], bytes]:
    return {(kind, k): long_logs.build(kind, n * k) for kind, n in SIZES.items() for k in (1, 8)}


@pytest.mark.rule("LOG-15", "LOG-13", "DEAD-3", "THREE-7", "DEAD-1")
@pytest.mark.parametrize("kind", SIZES)
def test_every_kind_of_long_log_passes_in_full_and_in_every_view(kind: str, logs: dict[Any, bytes]) -> None:
    data = logs[kind, 8]
    assert judge(data).kind == "pass" and judge(io.BytesIO(data)).kind == "pass"
    report = verify(data)
    assert report.ok and report.hands_omitted == report.actions_omitted == 0
    for seat in range(len(judge(data).scores)):
        view = redact(io.BytesIO(data), seat)
        assert judge(view).kind == "pass" and verify_view(view).ok


def live_kib(states: Iterator[Any], at: int) -> tuple[float, float]:
    """The memory the replay holds (tracemalloc, counting what the engine's and the replayer's own code
    allocated, the reader's read buffers left out: they are bounded by the format's limits, LOG-2) after ``at``
    records and at the end. tracemalloc counts every thread of the process, so only allocations made in
    ``engine/`` and ``replay/`` are counted: what the test runner's threads hold meanwhile (pytest-xdist's
    channel to its controller buffers more on a loaded machine) is not the replay's."""
    keep = [
        tracemalloc.Filter(True, "*/engine/*"),
        tracemalloc.Filter(True, "*/replay/*"),
        tracemalloc.Filter(False, "*/replay/codec.py"),
    ]

    def held() -> float:
        return sum(s.size for s in tracemalloc.take_snapshot().filter_traces(keep).statistics("filename")) / 1024

    held()  # the filters compile their patterns on first use (about 7 KB of re and fnmatch): not the replay's
    early = 0.0
    for i, _ in enumerate(states, start=1):
        if i == at:
            early = held()
    return early, held()


@pytest.mark.rule("LOG-15")
@pytest.mark.parametrize("view", [False, True], ids=["log", "view"])
@pytest.mark.parametrize("kind", SIZES)
def test_a_replay_holds_the_game_as_it_stands_never_its_history(kind: str, view: bool, logs: dict[Any, bytes]) -> None:
    data = logs[kind, 8]
    if view:
        data = redact(data, 0)
    records = judge(data).record
    assert records is not None
    tracemalloc.start()
    try:
        source = io.BytesIO(data)
        states = ViewReplayer(source).states() if view else Replayer(source, history=False).states()
        early, late = live_kib(states, records // 8)
    finally:
        tracemalloc.stop()
    # Seven eighths of the records later, the replay holds what it held (a history adds 16 bytes or more a record:
    # about 140 KB, 300 KB and 1 MB here for the dead hands, the trading and the advice).
    assert late - early < 16, (early, late)


@pytest.mark.rule("LOG-15")
def test_a_replay_with_history_keeps_it_for_whoever_asks() -> None:
    data = long_logs.build("dead", 3)
    match = Replayer(data).run()
    assert len(match.results) == match.number and judge(data).hands == match.number


@pytest.mark.rule("LOG-15")
def test_the_reader_benchmark_runs_and_prints_its_table(tmp_path: Path) -> None:
    """A smoke of ``tools/bench_reader.py`` at its smallest size (its figures are not checked: nothing is timed)."""
    command = [sys.executable, str(ROOT / "tools" / "bench_reader.py"), "--kinds", "dead", "--sizes", "1",
               "--dir", str(tmp_path)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith("dead ")]
    assert [(r[2], r[5]) for r in rows] == [("log", "pass"), ("view", "pass")], done.stdout


@pytest.mark.rule("LOG-15", "MATCH-7")
@pytest.mark.parametrize("view", [None, 0])
def test_a_draw_longer_than_a_deck_is_refused_not_held(view: int | None) -> None:
    """The draw's records are judged as they come (LOG-13): a draw that ties for ever runs out of its deck's cards
    (MATCH-7) at the 27th round; nothing more is held."""
    from engine.rules import RuleSet
    from replay.codec import pack
    from replay.log import Header

    head = pack(Header((1, 0), "a forger", RuleSet().to_dict(), ("a", "b"), view=view).to_wire())
    low = [i % 13 + 26 * (i // 13 % 2) for i in range(10_000)]  # Ac Ad, 2c 2d, … Kh Ks, then Ac again
    rounds = b"".join(pack([0, [0, 1], bytes((c, c + 13))]) for c in low)  # every round a tie: the draw goes on
    verdict = judge(head + rounds)
    assert (verdict.kind, verdict.rule, verdict.record) == ("fail", "MATCH-7", 27)
