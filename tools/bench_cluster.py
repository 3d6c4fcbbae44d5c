#!/usr/bin/env python3
"""Knock on a Dask cluster: print figures (medians of repeated runs); nothing here passes or fails.

    .venv/bin/python tools/bench_cluster.py             # default sizes (a few minutes on 2 cores)
    .venv/bin/python tools/bench_cluster.py --quick     # smaller runs
    .venv/bin/python tools/bench_cluster.py --client    # only the client's own cost, 10^3 to 10^6 games

Figures, on a ``LocalCluster`` of 1 and then 2 single-threaded worker processes (the machine's cores):
games/s and hands/s of ``knock simulate`` with logs written, logs verified/s, and the scaling efficiency
(the rate on 2 workers over twice the rate on 1); the per-task overhead (an empty batch, its attempt
recorded, from submit to result); and ``knock export`` in one process: hand rows/s and the process's peak
memory for 1× and 8× the logs (bounded memory: the peak should not grow with the rows).

The client's own cost (``--client``, also part of a default run): ``knock simulate``'s planning, submitting,
result handling and tally, measured as the CPU time of the client process alone (the scheduler and two workers
are processes of their own, started here), on tasks that play no game (each returns a summary per job, as a
played batch does): CPU per game at 10³, 10⁴, 10⁵ and 10⁶ games in batches of 250, and CPU per task from the
same games in batches of 250 and of 50 (the difference over the difference in tasks), with the client's peak
memory.

Conditions (``tools/measuring.py``, stated in the header): the cluster's figures are wall time, the cluster
being what is measured (its workers are not pinned; the CPU figures are the workers' process CPU time, their
task thread's and Dask's own), every process with one BLAS thread; the export runs in a child process pinned to
one core, timed in its measuring thread's own CPU time, and says how many of its other threads (pyarrow's) were
busy: none, in the runs so far, so that clock holds all its work.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import measuring

from engine.rules import RuleSet
from knock import bulk_verify as audit
from knock import simulate as sim
from knock.cluster.runner import Runner
from knock.cluster.storage import find_logs

EXPORT = """
import json, resource, sys
sys.path.insert(0, sys.argv[4])
import measuring
measuring.setup(pin=True)
watch = measuring.Threads()
from knock import export
from knock.cluster.runner import Runner
from knock.cluster.storage import find_logs
logs, out, times = sys.argv[1], sys.argv[2], int(sys.argv[3])
files = find_logs([logs]) * times
t = measuring.clock()
with Runner(None, 1) as runner:
    result, _ = export.run(files, [logs], out, runner, actions=True, size=len(files))
print(json.dumps({"seconds": measuring.clock() - t, "hands": result.hands, "actions": result.actions,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, **watch.report()}))
"""
TOOLS = Path(__file__).resolve().parent


def median(xs: list[float]) -> float:
    return statistics.median(xs)


def cluster_rates(workers: int, games: int, repeats: int, bots: list[str], folder: Path) -> dict[str, float]:
    """Simulate (logs written) and verify on a LocalCluster of ``workers`` processes; medians of ``repeats``."""
    todo = sim.jobs(RuleSet.preset("standard"), bots, games, 1)
    games_s, hands_s, verify_s, overhead, games_cpu, verify_cpu = [], [], [], [], [], []
    with Runner("local", workers) as runner:
        for r in range(repeats):
            logs = folder / f"w{workers}-r{r}"
            t, cpu = time.perf_counter(), runner.worker_cpu()
            report = sim.run(todo, runner, str(logs))
            dt = time.perf_counter() - t
            games_s.append(report.played / dt)
            hands_s.append(report.tally.hands / dt)
            games_cpu.append(report.played / (runner.worker_cpu() - cpu))
            files = find_logs([str(logs)])
            t, cpu = time.perf_counter(), runner.worker_cpu()
            reports = audit.run(files, runner)
            verify_s.append(len(files) / (time.perf_counter() - t))
            verify_cpu.append(len(files) / (runner.worker_cpu() - cpu))
            assert all(v.kind == "pass" for v in reports)
            empty = [(i, ()) for i in range(200)]  # empty batches: what a task costs besides its work
            t = time.perf_counter()
            for _ in runner.map(audit.judge_batch, empty):
                pass
            overhead.append((time.perf_counter() - t) / len(empty) * workers * 1000)
    figures = {"games_s": games_s, "hands_s": hands_s, "verify_s": verify_s, "overhead_ms": overhead,
               "games_cpu": games_cpu, "verify_cpu": verify_cpu}  # fmt: skip
    return {key: median(runs) for key, runs in figures.items()}


def fake_batch(batch: sim.Batch) -> sim.Tally:
    """A batch that plays nothing: a summary per job, folded as a played batch's are (what the client receives)."""
    return sim.Tally.of(sim.GameSummary(job.seed, job.bots, job.seed % 2, (100, 37), 5, 1, key=job.key)
                        for job in batch.jobs)  # fmt: skip


class Processes:
    """A ``dask scheduler`` and ``dask worker`` processes on 127.0.0.1 (this process is the client alone)."""

    def __init__(self, workers: int, folder: Path) -> None:
        self.folder, self.started = folder, list[subprocess.Popen[bytes]]()
        folder.mkdir(parents=True, exist_ok=True)
        file = folder / "scheduler.json"
        self._spawn("dask", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                    "--scheduler-file", str(file))  # fmt: skip
        deadline = time.monotonic() + 90
        while not file.exists() or not file.read_text().strip():
            if time.monotonic() > deadline:
                raise RuntimeError("the scheduler did not start")
            time.sleep(0.1)
        self.address = json.loads(file.read_text())["address"]
        for _ in range(workers):
            self._spawn("dask", "worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
                        "--host", "127.0.0.1")  # fmt: skip

    def _spawn(self, *cmd: str) -> None:
        bin_dir = Path(sys.executable).parent
        self.started.append(subprocess.Popen([str(bin_dir / cmd[0]), *cmd[1:]], cwd=self.folder,
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                             start_new_session=True, env=measuring.environment()))  # fmt: skip

    def stop(self) -> None:
        for process in self.started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)


def client_cost(folder: Path, sizes: list[int], workers: int = 2) -> list[dict[str, float]]:
    """The client's CPU per game and per task, on tasks that play nothing; one run per size and batch size."""
    cluster = Processes(workers, folder)
    rules = RuleSet.preset("standard")
    rows = []
    try:
        with Runner(cluster.address) as runner:
            while runner.workers < workers:
                time.sleep(0.1)
            cost: dict[tuple[int, int], tuple[float, float, int]] = {}
            for games in sizes:
                for size in (250, 50):
                    todo = sim.Jobs(rules, ["greedy", "random"], games, 1)
                    t, cpu = time.perf_counter(), time.process_time()
                    report = sim.run(todo, runner, None, size=size, play=fake_batch)
                    cost[games, size] = (time.process_time() - cpu, time.perf_counter() - t, report.batches)
                (cpu1, wall, tasks1), (cpu2, _, tasks2) = cost[games, 250], cost[games, 50]
                per_task = (cpu2 - cpu1) / (tasks2 - tasks1)
                rows.append({"games": games, "tasks": tasks1, "cpu_s": cpu1, "wall_s": wall,
                             "us_per_game": cpu1 / games * 1e6, "ms_per_task": per_task * 1000,
                             "us_per_game_net": (cpu1 - per_task * tasks1) / games * 1e6,
                             "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024})  # fmt: skip
    finally:
        cluster.stop()
    return rows


def print_client(rows: list[dict[str, float]]) -> None:
    print("the client's own cost (CPU of the client process; tasks that play nothing; batches of 250, and of 50 "
          "for the per-task figure):")  # fmt: skip
    print(f"{'games':>12}{'tasks':>8}{'client CPU s':>14}{'wall s':>9}{'µs/game':>10}{'ms/task':>10}"
          f"{'µs/game net':>13}{'peak MiB':>10}")  # fmt: skip
    for r in rows:
        print(f"{r['games']:>12,}{r['tasks']:>8,}{r['cpu_s']:>14.2f}{r['wall_s']:>9.1f}{r['us_per_game']:>10.1f}"
              f"{r['ms_per_task']:>10.2f}{r['us_per_game_net']:>13.1f}{r['peak_mib']:>10.0f}")  # fmt: skip


def export_figures(logs: Path, folder: Path, times: int, repeats: int) -> dict[str, Any]:
    runs = []
    for r in range(repeats):
        out = folder / f"export-{times}-{r}"
        done = subprocess.run([sys.executable, "-c", EXPORT, str(logs), str(out), str(times), str(TOOLS)],
                              capture_output=True, text=True, check=True, env=measuring.environment())  # fmt: skip
        runs.append(json.loads(done.stdout))
    threads = max(x["threads"] for x in runs)
    busy = max(len(x["busy"]) for x in runs)
    for x in runs:
        measuring.warn_busy("the export child", x["busy"])
    return {"threads": threads, "busy": busy, "pinning": runs[0]["pinning"],
            "rows_s": median([x["hands"] / x["seconds"] for x in runs]),
            "actions_s": median([x["actions"] / x["seconds"] for x in runs]),
            "hands": runs[0]["hands"], "peak_mib": median([x["peak_mib"] for x in runs])}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    parser.add_argument("--games", type=int, default=0, help="games per run (default 600, quick 120)")
    parser.add_argument("--repeats", type=int, default=0, help="runs per figure (default 3, quick 1)")
    parser.add_argument("--bots", default="heuristic,random", help="the bots (knock simulate's default)")
    parser.add_argument("--client", action="store_true", help="only the client's own cost")
    args = parser.parse_args()
    measuring.setup(pin=False)  # the workers inherit one BLAS thread; the cluster is not pinned
    sizes = [10**3, 10**4, 10**5] if args.quick else [10**3, 10**4, 10**5, 10**6]
    if args.client:
        with tempfile.TemporaryDirectory(prefix="knock-bench-") as tmp:
            print_client(client_cost(Path(tmp), sizes))
        print(f"load average at the end {measuring.load()} (figures from a loaded machine are low)")
        return
    games = args.games or (120 if args.quick else 600)
    repeats = args.repeats or (1 if args.quick else 3)
    bots = args.bots.split(",")
    print(f"Knock on Dask, {games} games of standard Gin ({args.bots}) per run, medians of {repeats}")
    print(measuring.header(clock_name="wall time (time.perf_counter()) of the cluster's runs; the workers' process "
                           "CPU time for the per-CPU-second figures; the export child's thread CPU time",
                           processes="1, then 2 Dask worker processes, not pinned; the export child pinned (below)",
                           versions={"dask": measuring.version("dask"), "distributed": measuring.version("distributed"),
                                     "pyarrow": measuring.version("pyarrow")}))  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="knock-bench-") as tmp:
        folder = Path(tmp)
        one = cluster_rates(1, games, repeats, bots, folder)
        two = cluster_rates(2, games, repeats, bots, folder)
        print(f"{'figure':<44}{'1 worker':>12}{'2 workers':>12}{'efficiency':>12}")
        for key, label in (("games_s", "simulate, games/s (logs written)"), ("hands_s", "simulate, hands/s"),
                           ("verify_s", "verify, logs/s")):  # fmt: skip
            eff = two[key] / (2 * one[key])
            print(f"{label:<44}{one[key]:>12,.1f}{two[key]:>12,.1f}{eff:>11.0%}")
        label = "per-task overhead, ms of a worker per task"
        print(f"{label:<44}{one['overhead_ms']:>12.2f}{two['overhead_ms']:>12.2f}")
        for key, label in (
            ("games_cpu", "games per worker CPU-second"),
            ("verify_cpu", "logs verified per CPU-second"),
        ):
            print(f"{label:<44}{one[key]:>12,.1f}{two[key]:>12,.1f}")
        logs = folder / "w1-r0"
        for times in (1, 8):
            ex = export_figures(logs, folder, times, repeats)
            print(f"export in one process, {ex['hands']:,} hand rows (+ actions): {ex['rows_s']:,.0f} hand rows/s, "
                  f"{ex['actions_s']:,.0f} action rows/s, peak memory {ex['peak_mib']:.0f} MiB ({ex['pinning']}; "
                  f"{ex['threads']:.0f} threads, {ex['busy']:.0f} busy besides the measuring one)")  # fmt: skip
        print_client(client_cost(folder / "client", sizes))
    print(f"load average at the end {measuring.load()} (figures from a loaded machine are low)")


if __name__ == "__main__":
    main()
