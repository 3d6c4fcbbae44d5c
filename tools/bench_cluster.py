#!/usr/bin/env python3
"""Knock on a Dask cluster: print figures (medians of repeated runs); nothing here passes or fails.

    .venv/bin/python tools/bench_cluster.py             # default sizes (a few minutes on 2 cores)
    .venv/bin/python tools/bench_cluster.py --quick     # smaller runs

Figures, on a ``LocalCluster`` of 1 and then 2 single-threaded worker processes (the machine's cores):
games/s and hands/s of ``knock simulate`` with logs written, logs verified/s, and the scaling efficiency
(the rate on 2 workers over twice the rate on 1); the per-task overhead (an empty batch, its attempt
recorded, from submit to result); and ``knock export`` in one process: hand rows/s and the process's peak
memory for 1× and 8× the logs (bounded memory: the peak should not grow with the rows).

Conditions (``tools/measuring.py``, stated in the header): the cluster's figures are wall time, the cluster
being what is measured (its workers are not pinned; the CPU figures are the workers' process CPU time, their
task thread's and Dask's own), every process with one BLAS thread; the export runs in a child process pinned to
one core, timed in its measuring thread's own CPU time, and says how many of its other threads (pyarrow's) were
busy: none, in the runs so far, so that clock holds all its work.
"""

from __future__ import annotations

import argparse
import json
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
    args = parser.parse_args()
    measuring.setup(pin=False)  # the workers inherit one BLAS thread; the cluster is not pinned
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
    print(f"load average at the end {measuring.load()} (figures from a loaded machine are low)")


if __name__ == "__main__":
    main()
