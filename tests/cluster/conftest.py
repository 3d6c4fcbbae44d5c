"""Real parts for the cluster tests: a Dask scheduler and workers started as processes on the loopback
address, and an S3-compatible server (moto's server mode) on 127.0.0.1. Every process is stopped, and
every variable put back, whatever the tests do.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.rules import RuleSet
from knock import simulate as sim

BIN = Path(sys.executable).parent
BUCKET = "knock-test"
START_TIMEOUT = 90.0  #: seconds a scheduler or worker may take to come up on a loaded machine


@pytest.fixture(scope="session")
def s3() -> Iterator[str]:
    """An S3-compatible server on 127.0.0.1 with an empty bucket; its endpoint and test credentials are set in
    the environment (for this process and every process started after), so ``s3://knock-test/…`` reaches it.
    """
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request otherwise
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    saved = dict(os.environ)
    os.environ.update(AWS_ACCESS_KEY_ID="testing", AWS_SECRET_ACCESS_KEY="testing", AWS_DEFAULT_REGION="us-east-1",
                      AWS_ENDPOINT_URL_S3=f"http://{host}:{port}")  # fmt: skip
    try:
        import fsspec

        fsspec.filesystem("s3").mkdir(BUCKET)
        yield f"s3://{BUCKET}"
    finally:
        os.environ.clear()
        os.environ.update(saved)
        server.stop()


@dataclass
class Cluster:
    """A scheduler and workers, each a process this test session started (and only those are ever killed)."""

    folder: Path
    address: str = ""
    scheduler: subprocess.Popen[bytes] | None = None
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    client: Any = None
    started: int = 0

    def start(self) -> None:
        file = self.folder / "scheduler.json"
        self.scheduler = self._spawn("scheduler", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
                                     "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
                                     "--scheduler-file", str(file))  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        while not file.exists() or not file.read_text().strip():
            if time.monotonic() > deadline or self.scheduler.poll() is not None:
                raise RuntimeError("the scheduler did not start: " + self.log("scheduler"))
            time.sleep(0.1)
        self.address = json.loads(file.read_text())["address"]
        from distributed import Client

        self.client = Client(self.address, timeout=START_TIMEOUT)

    def _spawn(self, name: str, *cmd: str) -> subprocess.Popen[bytes]:
        out = (self.folder / f"{name}.log").open("wb")
        return subprocess.Popen([str(BIN / cmd[0]), *cmd[1:]], stdout=out, stderr=subprocess.STDOUT,
                                cwd=self.folder, start_new_session=True)  # fmt: skip

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def alive(self) -> list[subprocess.Popen[bytes]]:
        return [w for w in self.workers if w.poll() is None]

    def scale(self, n: int) -> None:
        """Start or kill workers (single-threaded, no nanny) until exactly ``n`` are connected."""
        while len(self.alive()) > n:
            self.kill(self.alive()[-1].pid)
        while len(self.alive()) < n:
            self.started += 1
            self.workers.append(self._spawn(f"worker-{self.started}", "dask", "worker", self.address, "--nthreads",
                                            "1", "--no-nanny", "--no-dashboard", "--dashboard-address", "127.0.0.1:0",
                                            "--host", "127.0.0.1",
                                            "--name", f"w{self.started}", "--death-timeout", "60"))  # fmt: skip
        deadline = time.monotonic() + START_TIMEOUT
        while len(self.client.scheduler_info(n_workers=-1)["workers"]) != n:
            if time.monotonic() > deadline:
                raise RuntimeError(f"expected {n} workers: " + self.log(f"worker-{self.started}"))
            time.sleep(0.1)

    def pids(self) -> dict[str, int]:
        """Each connected worker's address and process id."""
        pids: dict[str, int] = self.client.run(os.getpid)
        return pids

    def kill(self, pid: int) -> None:
        """SIGKILL one of this session's workers (never any other process)."""
        process = next(w for w in self.workers if w.pid == pid)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)

    def stop(self) -> None:
        if self.client is not None:
            self.client.close()
        for p in [*self.workers, *([self.scheduler] if self.scheduler else [])]:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)  # its own session: the process and anything it started
                p.wait(timeout=30)


@pytest.fixture(scope="session")
def cluster(tmp_path_factory: pytest.TempPathFactory, s3: str) -> Iterator[Cluster]:
    """A running scheduler on 127.0.0.1 (workers are added by ``scale``); workers see the S3 server too."""
    c = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        c.start()
        yield c
    finally:
        c.stop()


GAMES = 200
BOTS = ["greedy", "random"]  #: short games: the tests time the machinery, not the bots


def reference_jobs(games: int = GAMES, seed: int = 1) -> list[sim.Job]:
    return sim.jobs(RuleSet.preset("standard"), BOTS, games, seed)


@pytest.fixture(scope="session")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The logs of games 1..200 played in this process, one at a time: what every run must reproduce."""
    from knock.cluster.runner import Runner

    folder = tmp_path_factory.mktemp("reference")
    with Runner(None, 1) as runner:
        sim.run(reference_jobs(), runner, str(folder))
    return folder


def same_logs(folder: Path, reference: Path, seeds: range) -> None:
    """Every log of these seeds in ``folder`` has the reference's bytes."""
    for seed in seeds:
        name = f"game-{seed}.knock"
        assert (folder / name).read_bytes() == (reference / name).read_bytes(), name
