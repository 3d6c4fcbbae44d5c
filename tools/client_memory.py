#!/usr/bin/env python3
"""The client's memory over a long run: ``knock simulate --games 1000000000 --cluster local`` sampled as it goes.

    .venv/bin/python tools/client_memory.py                      # 5 minutes, one worker process
    .venv/bin/python tools/client_memory.py --minutes 2 --jobs 2 --logs /tmp/knock-mem --json

Starts the command in a child process, reads the client's resident memory (``VmRSS`` of that one process: the
client, and the ``LocalCluster``'s scheduler, which runs in it; the worker processes are not counted) every
``--every`` seconds, then stops the run with SIGINT (as Ctrl-C) and prints the memory at minute 1 and at the end,
the growth between them and the peak, with the games played. Issue #30 asks for at most 400 MB and under 20 MB of
growth between minutes 1 and 5. A figure, not a test: nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent


def rss_mib(pid: int) -> float:
    """A process's resident memory in MiB (Linux: /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--every", type=float, default=5.0, help="seconds between samples")
    ap.add_argument("--jobs", type=int, default=1, help="LocalCluster worker processes")
    ap.add_argument("--games", type=int, default=10**9)
    ap.add_argument("--logs", help="write logs there too (a new folder whose parent exists)")
    ap.add_argument("--json", action="store_true", help="one JSON document instead of text")
    args = ap.parse_args()
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:  # started in the background: the child would ignore it too
        signal.signal(signal.SIGINT, signal.default_int_handler)
    logs = ["--logs", args.logs] if args.logs else []
    command = [str(BIN / "knock"), "simulate", "--games", str(args.games), "--bots", "greedy,random", "--cluster",
               "local", "--jobs", str(args.jobs), "--json=-", *logs]  # fmt: skip
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    samples: list[tuple[float, float]] = []
    try:
        while (elapsed := time.monotonic() - started) < args.minutes * 60 and child.poll() is None:
            samples.append((round(elapsed, 1), round(rss_mib(child.pid), 1)))
            time.sleep(args.every)
    finally:
        if child.poll() is None:
            os.kill(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=120)
    summary = json.loads(out) if out.strip().startswith("{") else {}
    at_one = next((m for t, m in samples if t >= 60), samples[-1][1] if samples else 0.0)
    end = samples[-1][1] if samples else 0.0
    report = {"command": " ".join(command), "minutes": args.minutes, "samples": samples, "rss_mib_minute_1": at_one,
              "rss_mib_end": end, "growth_mib": round(end - at_one, 1), "peak_mib": max(m for _, m in samples),
              "games_played": summary.get("played"), "exit": child.returncode,
              "stderr": err.strip().splitlines()[-1:] if err.strip() else []}  # fmt: skip
    if args.json:
        print(json.dumps(report))
        return
    print(f"{report['command']}\n  client RSS at minute 1: {at_one:.1f} MiB; at {samples[-1][0] / 60:.1f} min: "
          f"{end:.1f} MiB (growth {report['growth_mib']:+.1f} MiB); peak {report['peak_mib']:.1f} MiB; "
          f"games played {report['games_played']}; exit {child.returncode}")  # fmt: skip


if __name__ == "__main__":
    main()
