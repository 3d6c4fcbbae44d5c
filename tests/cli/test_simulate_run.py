"""``knock simulate`` as a person meets it: rates, intervals, very long games, and Ctrl-C."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from knock import simulate as sim
from tests.cli.support import run as knock


def test_a_run_prints_rates_and_a_95_percent_interval_per_bot() -> None:
    done = knock("simulate", "--games", "6", "--jobs", "1", "-q")
    assert done.returncode == 0, done.stderr
    assert "95% interval" in done.stdout and "heuristic" in done.stdout and "random" in done.stdout
    assert "games/s" not in done.stdout  # -q: the summary only
    loud = knock("simulate", "--games", "6", "--jobs", "1")
    assert "games/s" in loud.stdout and "hands/s" in loud.stdout and " s (" in loud.stdout


def test_very_long_games_are_reported() -> None:
    """Random against random to 10: the second seed's game takes 64 hands (sim.LONG_GAME is 50)."""
    done = knock("simulate", "--games", "3", "--bots", "random", "--set", "target=10", "--jobs", "1", "-q")
    assert done.returncode == 0, done.stderr
    assert f"1 game ran over {sim.LONG_GAME} hands (the longest 64 hands, seed 2)" in done.stdout


def test_the_wilson_interval() -> None:
    assert sim.wilson(0, 0) == (0.0, 1.0)
    low, high = sim.wilson(0, 20)
    assert low == 0.0 and 0.15 < high < 0.17  # never below 0, and wide for few games
    low, high = sim.wilson(500, 1000)
    assert 0.468 < low < 0.47 and 0.53 < high < 0.532


def test_ctrl_c_stops_at_once_with_the_games_finished_so_far(tmp_path: Path, ctrl_c: None) -> None:
    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe
    run = subprocess.Popen(
        [exe, "simulate", "--games", "2000", "--bots", "random", "--jobs", "2", "--batch", "1",
         "--logs", str(tmp_path / "sim")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
    )  # fmt: skip
    while len(list((tmp_path / "sim").glob("_manifest/*.json"))) < 3:  # some batches are finished
        assert run.poll() is None, run.communicate()
        time.sleep(0.2)
    time.sleep(1)  # and their results are back with the command
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=120)
    assert run.returncode == 130, out + err
    assert "stopped (Ctrl-C) after" in out and "of 2,000" in out and "Traceback" not in err
    finished = int(out.split("stopped (Ctrl-C) after ")[1].split()[0].replace(",", ""))
    assert 0 < finished < 2000  # it did not play the queued games to the end
    assert not [p for p in (tmp_path / "sim").iterdir() if ".tmp" in p.name or "~" in p.name]
