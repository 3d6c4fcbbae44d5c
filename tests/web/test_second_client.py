"""The second implementation (issue #28): a JavaScript client written from ``spec/`` alone by an author who never
saw Knock's code (its brief and its report of guesses are beside it in ``tests/protocol/client``). The suite runs
its ``all`` command: one ``knock engine`` game of every preset over stdio, one ``knock serve`` game over a
WebSocket with a dropped connection, a reconnect and a resend, every frame and HTTP body checked by Ajv in strict
mode against ``spec/protocol.schema.json``, every log checked by ``knock verify``; and (protocol 1.3) a fair
table's game, each seat sending its seed and recomputing its deals by the client's own reading of DEAL-6 .. DEAL-9."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rules import PRESETS
from knock.web.client import ServerProcess
from replay.verdict import judge

CLIENT = Path(__file__).resolve().parents[1] / "protocol" / "client"


@pytest.mark.rule("PROTO-1", "PROTO-15", "PROTO-20", "PROTO-23", "PROTO-36", "PROTO-37", "PROTO-39")
def test_the_second_client_plays_every_preset_and_reconnects(tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None, "the second client needs Node 20 (python3 tools/dev.py test installs its packages)"
    assert (CLIENT / "node_modules" / "ws").is_dir(), "its packages are not installed: run python3 tools/dev.py setup"
    knock = f"{sys.executable} -m knock.cli"
    with ServerProcess(tmp_path / "serve", "--bot-delay", "0", "--table-rate", "0", "--address-tables", "0") as server:
        run = subprocess.run(
            [node, str(CLIENT / "client.mjs"), "all", "--engine", f"{knock} engine", "--url", server.url,
             "--out", str(tmp_path / "out"), "--knock", knock],
            capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
        )  # fmt: skip
    assert run.returncode == 0, f"the second client failed:\n{run.stdout}\n{run.stderr}"
    for preset in PRESETS:  # one stdio game of every preset, and the WebSocket game
        assert f"PASS stdio {preset}" in run.stdout, run.stdout
    assert "PASS ws " in run.stdout and "reconnect" in run.stdout, run.stdout
    assert "PASS ws-fair " in run.stdout and "deals recomputed" in run.stdout, run.stdout  # protocol 1.3
    logs = sorted((tmp_path / "out").rglob("*.knock"))
    assert len(logs) >= len(PRESETS) + 3, f"the second client wrote too few logs:\n{run.stdout}"
    for log in logs:  # what it checked with knock verify, judged again here: full logs and the seats' views
        assert judge(log.read_bytes()).kind == "pass", log.name
    assert {judge(log.read_bytes()).view for log in logs} >= {None, 0, 1}
