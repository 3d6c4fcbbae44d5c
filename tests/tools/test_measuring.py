"""The benchmarks' measuring conditions (``tools/measuring.py``): a busy extra thread is named, an idle one is not;
a measuring process runs with one BLAS thread and the fixed hash seed, pinned to one core; a measuring child of
``tools/bench_peers.py`` has one thread even with numpy imported first. Nothing here is timed: the busy thread
spins until it has used a set amount of its own CPU time, however loaded the machine is."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import measuring  # noqa: E402 -- tools/ is not a package


def spin(seconds: float) -> None:
    """Use ``seconds`` of this thread's own CPU time."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


def test_a_busy_extra_thread_is_named_and_an_idle_one_is_not() -> None:
    stop, spun = threading.Event(), threading.Event()

    def busy_then_idle() -> None:
        spin(10 * measuring.BUSY_SECONDS)
        spun.set()
        stop.wait()

    idle = threading.Thread(target=stop.wait)
    idle.start()
    try:
        watch = measuring.Threads()
        busy = threading.Thread(target=busy_then_idle)
        busy.start()
        spun.wait()
        named = watch.busy()
    finally:
        stop.set()
        idle.join()
        busy.join()
    assert [b.tid for b in named] == [busy.native_id], named
    assert named[0].seconds >= 10 * measuring.BUSY_SECONDS
    assert "thread" in str(named[0]) and "s of CPU" in str(named[0])


def test_a_busy_thread_that_has_ended_is_still_counted() -> None:
    watch = measuring.Threads()
    busy = threading.Thread(target=spin, args=(10 * measuring.BUSY_SECONDS,))
    busy.start()
    busy.join()
    named = watch.busy()
    # The kernel may still list the thread for an instant after ``join`` returns (its task not yet reaped):
    # then it is named by its own id; once gone, its time is the one "ended meanwhile" entry.
    assert [b.tid for b in named] in ([0], [busy.native_id]), named
    assert named[0].seconds >= 9 * measuring.BUSY_SECONDS, named


def test_the_measuring_thread_itself_is_never_named() -> None:
    watch = measuring.Threads()
    spin(5 * measuring.BUSY_SECONDS)
    assert watch.busy() == []


def test_a_measuring_process_runs_again_under_the_conditions_and_pinned() -> None:
    """Started without the environment, ``setup`` runs the process again with it, then pins it."""
    code = (f"import sys, os, json; sys.path.insert(0, {str(ROOT / 'tools')!r}); import measuring; "
            "measuring.setup(pin=True); print(json.dumps([{k: os.environ.get(k) for k in "
            "(*measuring.BLAS_THREADS, 'PYTHONHASHSEED')}, sorted(os.sched_getaffinity(0))]))")  # fmt: skip
    env = {k: v for k, v in measuring.environment().items() if k not in (*measuring.BLAS_THREADS, "PYTHONHASHSEED")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    settings, cores = json.loads(done.stdout)
    assert settings == {**dict.fromkeys(measuring.BLAS_THREADS, "1"), "PYTHONHASHSEED": "0"}
    assert len(cores) == 1


def test_a_bench_peers_child_with_numpy_first_has_one_thread() -> None:
    """numpy imported first, and a product that wakes OpenBLAS's pool where there is one: still one thread."""
    command = [sys.executable, str(ROOT / "tools" / "bench_peers.py"), "--child", "knock-compiled", "--quick",
               "--everything", "--numpy-first"]  # fmt: skip
    done = subprocess.run(command, input="deadwood 10\ndone\n", capture_output=True, text=True, cwd=ROOT,
                          check=True, env={**measuring.environment(), "PYTHONPATH": str(ROOT)})  # fmt: skip
    ready, measured, threads = (json.loads(line) for line in done.stdout.splitlines())
    assert "deadwood 10" in ready["tasks"] and measured["counts"]["deadwood 10 µs"] > 0
    assert threads["numpy"] and threads["threads"] == 1 and threads["busy"] == [], threads


def test_a_baseline_revision_is_checked_out_beside_this_one(tmp_path: Path) -> None:
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    assert measuring.commit() == head.stdout.strip() != ""
    assert measuring.commit("no-such-revision") == ""
    tree, short = measuring.baseline_worktree("HEAD", tmp_path)
    try:
        assert short == measuring.commit() and tree == tmp_path / f"knock-{short}"
        assert (tree / "engine" / "kernel.py").is_file()
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
