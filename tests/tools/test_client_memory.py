"""A smoke run of ``tools/client_memory.py`` (the client's memory over ``knock simulate --games 10⁹ --cluster
local``, issue #30): it starts the run, samples the client, stops it with SIGINT and reports. The figures
(at most 400 MB, under 20 MB of growth between minutes 1 and 5) come from its long runs, in docs/performance.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_client_memory_tool_samples_a_run_and_stops_it_as_ctrl_c_would(tmp_path: Path) -> None:
    command = [sys.executable, str(ROOT / "tools" / "client_memory.py"), "--minutes", "0.1", "--every", "1",
               "--logs", str(tmp_path / "logs"), "--json"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["exit"] == 130 and report["games_played"] >= 0  # stopped by SIGINT, with its summary
    assert len(report["samples"]) >= 3 and 0 < report["peak_mib"] < 400
    assert report["growth_mib"] == round(report["rss_mib_end"] - report["rss_mib_minute_1"], 1)
    logs = sorted((tmp_path / "logs").glob("game-*.knock"))
    # (on a loaded machine the cluster may not have finished a game in six seconds: no count is required)
    assert len(logs) >= report["games_played"] and not list((tmp_path / "logs" / "_tmp").glob("*"))
