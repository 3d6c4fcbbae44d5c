"""Every committed golden log replays, forever, to the transcript committed beside it (LOG-3, LOG-8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.replayer import Replayer, verify

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
LOGS = sorted(GOLDEN.glob("*.knock"))


def test_there_are_golden_logs() -> None:
    assert len(LOGS) >= 8


@pytest.mark.rule("LOG-3", "LOG-8")
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_golden_log_replays_to_its_transcript(path: Path) -> None:
    data = path.read_bytes()
    report = verify(data)
    assert report.ok, report.error
    match = Replayer(data).run()
    text = "".join(f"{e}\n" for e in match.events)
    assert text == path.with_suffix(".txt").read_text(encoding="utf-8")
