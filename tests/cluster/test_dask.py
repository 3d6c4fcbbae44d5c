"""Simulate, verify and export on a real Dask cluster: a scheduler and workers started as processes on
127.0.0.1, a worker killed with SIGKILL mid-run, logs on file:// and on an S3-compatible server.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.dataset as ds
import pytest

from knock import bulk_verify as audit
from knock import export
from knock import simulate as sim
from knock.cluster.runner import Runner
from knock.cluster.storage import Store, find_logs
from tests.cluster.conftest import BOTS, Cluster, reference_jobs, same_logs

ROOT = Path(__file__).resolve().parents[2]


def knock(*args: str, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(Path(sys.executable).parent / "knock"), *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=timeout, env={**__import__("os").environ, "COLUMNS": "200"})  # fmt: skip


@pytest.mark.rule("LOG-5")
def test_one_and_two_workers_write_the_bytes_of_one_process(cluster: Cluster, reference: Path, tmp_path: Path) -> None:
    seeds = range(1, 41)
    cluster.scale(1)
    with Runner(cluster.address) as runner:
        assert runner.workers == 1
        one = sim.run(reference_jobs(40), runner, f"file://{tmp_path}/one", size=5)
    cluster.scale(2)
    with Runner(cluster.address) as runner:
        assert runner.workers == 2
        two = sim.run(reference_jobs(40), runner, str(tmp_path / "two"), size=5)
    for report in (one, two):
        assert (report.played, report.skipped, report.retried, report.batches) == (40, 0, 0, 8)
        assert report.tally.games == 40
    same_logs(tmp_path / "one", reference, seeds)
    same_logs(tmp_path / "two", reference, seeds)


@pytest.mark.rule("LOG-5", "LOG-8")
def test_a_worker_killed_mid_run_has_its_batch_retried_with_the_same_bytes(
    cluster: Cluster, reference: Path, tmp_path: Path
) -> None:
    cluster.scale(2)
    logs = tmp_path / "killed"
    games = 160
    command = [str(Path(sys.executable).parent / "knock"), "simulate", "--games", str(games), "--bots", ",".join(BOTS),
               "--cluster", cluster.address, "--batch", "40", "--logs", str(logs)]  # fmt: skip
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        victim = None
        while victim is None:  # a worker running one of the run's batches (not merely holding it)
            assert time.monotonic() < deadline and run.poll() is None, "no batch was seen running"
            running = cluster.client.call_stack()
            victim = next((w for w, keys in running.items() if any("knock-play-batch" in str(k) for k in keys)), None)
            time.sleep(0.02)
        time.sleep(0.15)  # well inside the batch: its attempt is recorded, its games are being written
        cluster.kill(cluster.pids()[victim])
        out, err = run.communicate(timeout=180)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 0, err
    retried = int(re.search(r"retried batches: (\d+)", out).group(1))  # type: ignore[union-attr]
    assert retried >= 1, out
    assert f"played {games} games in 4 batches" in out
    same_logs(logs, reference, range(1, games + 1))
    assert not [p for p in logs.rglob("*") if ".tmp-" in p.name]  # the lost attempt's temporary files are gone
    assert len(sim.finished(Store(str(logs)))) == games
    cluster.scale(2)


@pytest.mark.rule("LOG-6", "LOG-8")
def test_verify_and_export_on_the_cluster_agree_with_one_process(
    cluster: Cluster, reference: Path, tmp_path: Path
) -> None:
    cluster.scale(2)
    logs = tmp_path / "logs"
    shutil.copytree(reference, logs)
    data = bytearray((logs / "game-7.knock").read_bytes())
    data[len(data) // 2] ^= 0x40
    (logs / "game-7.knock").write_bytes(bytes(data))
    files = find_logs([str(logs)])
    with Runner(cluster.address) as runner:
        remote = audit.run(files, runner, size=25)
        exported = export.run(files, [str(logs)], str(tmp_path / "remote"), runner, actions=True, size=50)
    with Runner(None, 1) as runner:
        local = audit.run(files, runner)
        expected = export.run(files, [str(logs)], str(tmp_path / "local"), runner, actions=True, size=50)
    assert remote == local
    assert sum(v.kind == "fail" for v in remote) == 1
    assert (exported.logs, exported.rows, exported.parts) == (expected.logs, expected.rows, expected.parts)
    assert [f for f, _ in exported.failed] == [str(logs / "game-7.knock")]
    assert exported.parts == dict.fromkeys(export.TABLES, 4)
    for table in export.TABLES:
        a = ds.dataset(tmp_path / "remote" / table).to_table()
        b = ds.dataset(tmp_path / "local" / table).to_table()
        assert a.equals(b) and a.num_rows > 0


@pytest.mark.rule("LOG-5", "LOG-8")
def test_s3_logs_simulated_resumed_verified_and_exported_on_the_cluster(
    cluster: Cluster, reference: Path, s3: str, tmp_path: Path
) -> None:
    cluster.scale(2)
    url = f"{s3}/run-{tmp_path.name}"
    with Runner(cluster.address) as runner:
        first = sim.run(reference_jobs(24), runner, url, size=6)
        again = sim.run(reference_jobs(30), runner, url, size=6)
        files = find_logs([url])
        reports = audit.run(files, runner)
        result = export.run(files, [url], f"{url}-dataset", runner, size=10)
    assert (first.played, again.played, again.skipped) == (24, 6, 24)
    assert len(files) == 30 and all(v.kind == "pass" for v in reports)
    store = Store(url)
    for seed in range(1, 31):
        assert store.read(f"game-{seed}.knock") == (reference / f"game-{seed}.knock").read_bytes()
    assert result.logs == 30 and not result.failed
    import fsspec

    fs = fsspec.filesystem("s3")
    hands = ds.dataset(f"{url}-dataset/hands".removeprefix("s3://"), filesystem=fs).to_table()
    assert hands.num_rows == result.hands == sum(v.hands for v in reports)
    games = ds.dataset(f"{url}-dataset/games".removeprefix("s3://"), filesystem=fs, partitioning="hive").to_table()
    assert sorted(games.column("log").to_pylist()) == sorted(f"game-{s}" for s in range(1, 31))
    assert set(games.column("preset").to_pylist()) == {"standard"} and fs.exists(f"{url}-dataset/_SUCCESS")
    assert set(hands.column("game").to_pylist()) == set(games.column("game").to_pylist())


def test_the_newcomer_commands_on_a_local_cluster_and_a_scheduler(cluster: Cluster, tmp_path: Path) -> None:
    cluster.scale(2)
    logs, out = tmp_path / "c", tmp_path / "hands"
    done = knock("simulate", "--games", "12", "--bots", ",".join(BOTS), "--cluster", "local", "--jobs", "2",
                 "--logs", str(logs))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "played 12 games" in done.stdout and "retried batches: 0" in done.stdout
    checked = knock("verify", "--cluster", cluster.address, str(logs))
    assert checked.returncode == 0, checked.stderr
    assert "12 files: 12 pass, 0 unfinished, 0 fail; retried batches: 0" in checked.stdout
    exported = knock("export", str(logs), "-o", str(out), "--cluster", cluster.address)
    assert exported.returncode == 0 and "from 12 logs" in exported.stdout, exported.stderr
    again = knock("export", str(logs), "-o", str(out))
    assert again.returncode == 2 and "already holds" in again.stderr
    shared = knock("simulate", "--games", "2", "--logs", "memory://x")
    assert shared.returncode == 2 and "memory://" in shared.stderr


def run_keys(cluster: Cluster, mark: str) -> list[str]:
    """The keys with ``mark`` still on the scheduler or held by a worker (a cancelled task still running included)."""
    from knock.cluster.runner import _scheduler_keys, _worker_keys

    keys: list[str] = cluster.client.run_on_scheduler(_scheduler_keys, mark)
    return keys + [k for found in cluster.client.run(_worker_keys, mark).values() for k in found]


@pytest.mark.rule("LOG-5")
def test_ctrl_c_stops_the_clusters_tasks_and_a_rerun_resumes(
    cluster: Cluster, reference: Path, tmp_path: Path, ctrl_c: None
) -> None:
    cluster.scale(2)
    logs, games = tmp_path / "logs", 200
    command = [str(Path(sys.executable).parent / "knock"), "simulate", "--games", str(games), "--bots", ",".join(BOTS),
               "--cluster", cluster.address, "--batch", "100", "--logs", "logs"]  # fmt: skip
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        deadline = time.monotonic() + 120
        while len(list(logs.glob("*.knock"))) < 20:
            assert time.monotonic() < deadline and run.poll() is None, "the run did not start"
            time.sleep(0.02)
        os.kill(run.pid, signal.SIGINT)
        interrupted = time.monotonic()
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 130 and "stopped (Ctrl-C)" in out, out + err
    written = sorted(p.name for p in logs.glob("*.knock"))
    assert len(written) < games  # the two batches running were stopped, not run to their end
    time.sleep(max(0.0, interrupted + 5 - time.monotonic()))
    assert sorted(p.name for p in logs.glob("*.knock")) == written  # no new log 5 s after the interrupt
    assert run_keys(cluster, "knock-play-batch") == []  # no task left on the scheduler or a worker
    assert not [p for p in logs.rglob("*") if ".tmp-" in p.name]
    (logs / "_tmp").mkdir(exist_ok=True)
    (logs / "_tmp" / "game-7.knock.tmp-0123456789ab-0a1b2c3d").write_bytes(b"left by a run killed long ago")
    again = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=180)
    assert again.returncode == 0, again.stderr
    skipped = int(re.search(r"([\d,]+) already written", again.stdout).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert skipped >= 10 and f"played {games - skipped} games" in again.stdout, again.stdout
    same_logs(logs, reference, range(1, games + 1))
    assert not [p for p in logs.rglob("*") if ".tmp-" in p.name]  # the earlier runs' leftovers are gone
