"""The conditions every benchmark under ``tools/`` measures in, set and stated in one place.

A figure is the measuring thread's own CPU time (``clock``: ``time.thread_time()``), which no other thread of
the process and no other process of a shared machine can move, in a process pinned to one core, started with
one BLAS thread (``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` set to 1 before numpy
can be imported: otherwise importing numpy, directly or through RLCard or the environments, starts an
OpenBLAS thread pool whose spinning a process-wide clock such as ``time.process_time()`` counts) and a fixed
string hash seed (the same code lays out its dicts and sets the same way in every run). ``OPENBLAS_CORETYPE``
and ``OPENBLAS_L2_SIZE`` are left as the machine sets them.

    measuring.setup(pin=True)          # first thing in a measuring process: re-executes it if the environment
                                       # was not set before it started, then pins it to one core
    watch = measuring.Threads()        # every thread's CPU time now ...
    ...                                # ... the measured work ...
    watch.busy()                       # ... and the other threads that were busy meanwhile (a warning)

Standard library only: PettingZoo's virtual environment (``tools/bench_envs.py``) imports it too.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The clock of every CPU-time figure: the calling thread's own CPU time.
clock = time.thread_time
CLOCK_NAME = "time.thread_time() (the measuring thread's own CPU time)"

#: The checkout the tools are in.
ROOT = Path(__file__).resolve().parent.parent

#: Set to 1 in every measuring process, before anything can import numpy.
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
#: Reported as the machine sets them, never changed.
BLAS_MACHINE = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
#: Every measuring process hashes strings with this seed (dict and set layouts are the same from run to run).
HASH_SEED = "0"

#: Another thread is busy when it used at least this much CPU time in the window ...
BUSY_SECONDS = 0.02
#: ... and at least this share of the measuring thread's.
BUSY_SHARE = 0.01


def environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """``base`` (default: this process's environment) with the measuring conditions: one BLAS thread, the
    fixed hash seed. Pass it to every measuring child process."""
    env = dict(os.environ if base is None else base)
    env.update(dict.fromkeys(BLAS_THREADS, "1"))
    env["PYTHONHASHSEED"] = HASH_SEED
    return env


def _environment_set() -> bool:
    return all(os.environ.get(k) == "1" for k in BLAS_THREADS) and os.environ.get("PYTHONHASHSEED") == HASH_SEED


def setup(*, pin: bool) -> None:
    """Make this process a measuring one: if its environment lacks the conditions (they must hold from the
    interpreter's start: the hash seed is read then, and a BLAS pool is made when numpy is imported), run it
    again with them (``os.execve``, the same arguments); then, with ``pin``, pin it to one core (``cpu()``)."""
    if not _environment_set():
        sys.stdout.flush()
        sys.stderr.flush()
        os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], environment())
    if pin and hasattr(os, "sched_setaffinity"):
        core = {cpu()}
        for task in Path("/proc/self/task").iterdir():  # every thread there is (later ones inherit the core)
            os.sched_setaffinity(int(task.name), core)


def cpu() -> int:
    """The core a pinned measuring process runs on: the last this process may use (``KNOCK_BENCH_CPU`` to
    choose another)."""
    chosen = os.environ.get("KNOCK_BENCH_CPU")
    if chosen is not None:
        return int(chosen)
    return max(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0


def pinning() -> str:
    """Where this process may run, in words."""
    if not hasattr(os, "sched_getaffinity"):
        return "not pinned (no sched_getaffinity here)"
    allowed = sorted(os.sched_getaffinity(0))
    if len(allowed) == 1:
        return f"pinned to CPU {allowed[0]} of {os.cpu_count()}"
    return f"not pinned (CPUs {','.join(map(str, allowed))})"


# --- the threads of this process ---------------------------------------------------------------------------


def thread_cpu() -> dict[int, tuple[str, float]]:
    """Every thread of this process: its id, its name and the CPU seconds it has used (Linux's
    ``/proc/self/task/*``: ``schedstat`` in nanoseconds where the kernel keeps it, else ``stat``'s ticks)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    out: dict[int, tuple[str, float]] = {}
    for task in Path("/proc/self/task").iterdir():
        try:
            stat = (task / "stat").read_text()
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            try:
                seconds = int((task / "schedstat").read_text().split()[0]) / 1e9
            except (OSError, ValueError, IndexError):
                fields = stat[stat.rindex(")") + 2 :].split()
                seconds = (int(fields[11]) + int(fields[12])) / tick  # utime, stime: fields 14 and 15
        except (OSError, ValueError):  # the thread ended while we looked
            continue
        out[int(task.name)] = (name, seconds)
    return out


@dataclass(frozen=True, slots=True)
class Busy:
    """Another thread that used CPU time while a figure was measured."""

    tid: int
    name: str
    seconds: float

    def __str__(self) -> str:
        return f"thread {self.tid} ({self.name}) used {self.seconds:.3f} s of CPU"


class Threads:
    """The CPU time of every thread of this process from now on, to tell which others were busy."""

    def __init__(self) -> None:
        self.measuring = threading.get_native_id()
        self.before = thread_cpu()
        self.process = time.process_time()

    def busy(self) -> list[Busy]:
        """The threads other than the measuring one that used at least ``BUSY_SECONDS`` of CPU time since this
        watch began, and at least ``BUSY_SHARE`` of the measuring thread's; threads that ended meanwhile are
        one entry (tid 0), the process's CPU time that the living threads do not account for."""
        after = thread_cpu()
        process = time.process_time() - self.process
        used = {tid: (name, s - self.before.get(tid, (name, 0.0))[1]) for tid, (name, s) in after.items()}
        gone = process - sum(s for _, s in used.values())
        if gone > 0:
            used[0] = ("threads that ended meanwhile", gone)
        own = used.get(self.measuring, ("", 0.0))[1]
        return [Busy(tid, name, s) for tid, (name, s) in sorted(used.items())
                if tid != self.measuring and s >= BUSY_SECONDS and s >= BUSY_SHARE * own]  # fmt: skip

    def report(self) -> dict[str, Any]:
        """What a measuring child sends its parent about its threads: how many, and the busy others."""
        return {"threads": len(thread_cpu()), "busy": [str(b) for b in self.busy()], "pinning": pinning(),
                "numpy": "numpy" in sys.modules}  # fmt: skip


def warn_busy(label: str, busy: list[str]) -> None:
    """Print a warning on stderr for each busy extra thread of the measuring process ``label``."""
    for line in busy:
        print(f"warning: {label}'s measuring process had another busy thread: {line} "
              "(its figures may not be its own)", file=sys.stderr, flush=True)  # fmt: skip


# --- the header -------------------------------------------------------------------------------------------


def header(*, processes: str, clock_name: str = CLOCK_NAME, versions: Mapping[str, str] | None = None) -> str:
    """The conditions of a run, for the first lines of a tool's output: the clock, the measuring processes
    (their threads and pinning, in ``processes``), the environment they ran in, Python, the peers' versions
    and the machine's load."""
    blas = ", ".join(f"{k}={os.environ.get(k, 'unset')}" for k in BLAS_THREADS)
    machine = ", ".join(f"{k}={os.environ[k]}" for k in BLAS_MACHINE if k in os.environ) or "none set"
    lines = [
        f"clock: {clock_name}",
        f"measuring processes: {processes}",
        f"environment: {blas}; PYTHONHASHSEED={os.environ.get('PYTHONHASHSEED', 'unset')}; "
        f"OPENBLAS_CORETYPE/L2_SIZE as the machine sets them: {machine}",
        f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()} "
        f"{platform.system()}, {os.cpu_count()} cores; load average {load()}",
    ]
    if versions:
        lines.append("versions: " + ", ".join(f"{k} {v}" for k, v in versions.items()))
    return "\n".join(lines)


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"


def version(distribution: str) -> str:
    """An installed distribution's version, or "not installed"."""
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def commit(rev: str = "HEAD") -> str:
    """The short hash of revision ``rev`` of this checkout, or "" outside a git checkout (or for a revision it
    does not have): the commit a record was made at."""
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", f"{rev}^{{commit}}"],
                              capture_output=True, text=True)  # fmt: skip
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def baseline_worktree(rev: str, into: Path) -> tuple[Path, str]:
    """A detached git worktree of revision ``rev`` in ``into`` (to measure it beside this checkout), and the
    revision's short hash."""
    short = commit(rev)
    if not short:
        sys.exit(f"no revision {rev!r} in the git checkout {ROOT}")
    tree = into / f"knock-{short}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                   capture_output=True, text=True, check=True)  # fmt: skip
    return tree, short
