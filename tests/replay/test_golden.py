"""Every committed golden log replays, forever, to the transcript committed beside it (LOG-3, LOG-8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.fsm import EXECUTOR_NAMES, ExecutorName
from replay.audit import verify
from replay.replayer import Replayer
from tests.helpers import tool_check

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
LOGS = sorted(GOLDEN.glob("*.knock"))


def test_there_are_golden_logs_of_every_preset() -> None:
    assert len(LOGS) >= 50
    presets = {verify(p.read_bytes()).rules["name"] for p in LOGS}
    assert presets == {"standard", "oklahoma", "three_handed"}
    assert any("advises" in p.with_suffix(".txt").read_text() for p in LOGS), "no golden game has the sitter's advice"


@pytest.mark.rule("LOG-9")
@pytest.mark.parametrize("executor", EXECUTOR_NAMES)
def test_the_golden_logs_are_what_the_tool_makes(executor: ExecutorName) -> None:
    """tools/golden.py --check: the seeded games still give these very bytes (regenerate only on purpose), with
    either executor running the games and their replays."""
    tool_check("golden.py", "--executor", executor)


@pytest.mark.rule("LOG-3", "LOG-8")
@pytest.mark.parametrize("executor", EXECUTOR_NAMES)
@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.stem)
def test_a_golden_log_replays_to_its_transcript(path: Path, executor: ExecutorName) -> None:
    data = path.read_bytes()
    report = verify(data, executor=executor)
    assert report.ok, report.error
    match = Replayer(data, executor=executor).run()
    text = "".join(f"{e}\n" for e in match.events)
    assert text == path.with_suffix(".txt").read_text(encoding="utf-8")
