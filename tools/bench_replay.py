#!/usr/bin/env python3
"""Replay mode's cost: the CPU a page of a long log's transcript takes (``POST /api/replay``, PROTO-18), beside
Knock at an earlier revision, on the same logs in one run.

    .venv/bin/python tools/bench_replay.py                    # this checkout, and main, 5 rounds each
    .venv/bin/python tools/bench_replay.py --baseline HEAD~3 --rounds 9

The logs (``tests.support.long_logs``) are the longest a server replays (its limit is 112 KiB): 600 dead hands
(the costliest: the longest score sheet), a trading loop and an advice flood, each about 100 KB. Each page — the
last (replay mode's first request), the first, and one in the middle — is drawn ``--rounds`` times in a child
process per revision (pinned to one core, under ``tools/measuring.py``'s conditions), measured by that thread's
own CPU time (``time.thread_time``: no other thread moves it); the median is printed with the revisions' ratio.
PROTO-18 promises at most 2 s of CPU for any log within the limit. Nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import measuring

ROOT = Path(__file__).resolve().parents[1]
LOGS = {"dead": 600, "trading": 50_000, "advice": 25_000}  #: each kind's count: about 100 KB of log
PAGE = 200

_CHILD = """
import json, statistics, sys, time
from pathlib import Path
from knock.web.transcript import transcript
data = Path(sys.argv[1]).read_bytes()
total = transcript(data, perspective="", start=0, count=1)["total"]
out = {}
for name, start in (("last", None), ("first", 0), ("middle", total // 2)):
    times = []
    for _ in range(int(sys.argv[2])):
        t = time.thread_time()
        transcript(data, perspective="", start=start, count=int(sys.argv[3]))
        times.append(time.thread_time() - t)
    out[name] = statistics.median(times)
print(json.dumps(out))
"""


def measure(tree: Path, log: Path, rounds: int) -> dict[str, float]:
    env = measuring.environment({**os.environ, "PYTHONPATH": str(tree)})
    command = ["taskset", "-c", str(measuring.cpu()), sys.executable, "-c", _CHILD, str(log), str(rounds), str(PAGE)]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the child failed at {tree}:\n{done.stderr[-2000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    measuring.setup(pin=False)
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="main", help="the revision to measure beside this checkout")
    parser.add_argument("--rounds", type=int, default=5, help="pages drawn per log and page (the median is shown)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.support.long_logs import build

    print(measuring.header(clock_name="time.thread_time() of the drawing thread (CPU time, one thread)",
                           processes="one child per revision and log, pinned to one core"), flush=True)  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        base, short = measuring.baseline_worktree(args.baseline, Path(tmp))
        try:
            print(f"this checkout ({measuring.commit() or 'no commit'}, with its changes) beside {args.baseline} "
                  f"({short}); a page is {PAGE} steps; median of {args.rounds}")  # fmt: skip
            print(f"{'log':<24}{'page':<8}{'this (s)':>10}{'baseline (s)':>14}{'ratio':>8}")
            for kind, count in LOGS.items():
                log = Path(tmp) / f"{kind}.knock"
                log.write_bytes(build(kind, count))
                here, there = measure(ROOT, log, args.rounds), measure(base, log, args.rounds)
                label = f"{kind} ({log.stat().st_size // 1024} KB)"
                for page in ("last", "first", "middle"):
                    print(f"{label:<24}{page:<8}{here[page]:>10.2f}{there[page]:>14.2f}"
                          f"{here[page] / there[page]:>8.2f}", flush=True)  # fmt: skip
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)], check=False,
                           capture_output=True)  # fmt: skip
    print(f"load average {measuring.load()}; PROTO-18's promise: at most 2 s of CPU for any log within the limit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
