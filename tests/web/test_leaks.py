"""The leak check's smoke: a few games through the socket protocol, every frame's cards checked against the log."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.rule("PROTO-5", "PROTO-6", "VIS-1", "THREE-8")
def test_no_frame_names_a_card_its_recipient_may_not_see() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "leak_web.py"), "--games", "5", "--parallel", "5",
                           "--target", "25"], capture_output=True, text=True, cwd=ROOT, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 games" in done.stdout and " 0 leaks" in done.stdout
