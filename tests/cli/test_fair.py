"""``--fair`` on ``knock demo`` and ``knock simulate``: fair logs (LOG-20, DEAL-5) that ``knock verify`` passes,
signed too; seeded play keeps its seeds and its version-1.0 logs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.log import LogReader
from tests.cli.support import run


@pytest.mark.rule("LOG-20", "DEAL-5")
def test_demo_and_simulate_deal_fairly_when_asked(tmp_path: Path) -> None:
    log = tmp_path / "fair.knock"
    done = run("demo", "--fair", "--seed", "2", "-q", "-o", str(log), "--json=-")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["fair"] is True
    header = LogReader(log.read_bytes()).header
    assert header.fair and header.version == (2, 0)
    verified = run("verify", str(log), "--json")
    assert verified.returncode == 0 and "recomputed" in json.loads(verified.stdout)["message"]
    plain = tmp_path / "plain.knock"
    assert run("demo", "--seed", "2", "-q", "-o", str(plain)).returncode == 0
    assert LogReader(plain.read_bytes()).header.version == (1, 0)
    logs = tmp_path / "sim"
    done = run("simulate", "--games", "2", "--fair", "--logs", str(logs), "--jobs", "1", "-q")
    assert done.returncode == 0, done.stderr
    files = sorted(logs.glob("*.knock"))
    assert len(files) == 2 and all(LogReader(f.read_bytes()).header.fair for f in files)
    assert run("verify", str(logs), "-q").returncode == 0
