"""Where batches of work run: this process, a pool of local processes (the default), or a Dask cluster.

``Runner`` hands each batch to one task and yields the results as they complete. On a Dask cluster a
worker lost mid-run has its tasks run again elsewhere, silently; so that a run can say how many batches
were retried, every task records its attempt in a Dask ``Queue`` on the scheduler before it starts, and
the runner counts the batches that started more than once.

Ctrl-C (or an error) on the client stops the run on the cluster too: Dask cancels a task that has not started,
but cannot stop one that runs, so the runner also sets the run's stop ``Event`` on the scheduler, which a task
asks (``stopped()``, at most every ``STOP_POLL`` seconds) between the pieces of its batch, and waits until no task
of the run is left on the scheduler or a worker.
"""

from __future__ import annotations

import errno
import itertools
import logging
import os
import signal
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import TracebackType
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

LOCAL = "local"  #: the address that asks for a LocalCluster started and stopped by the command
LOOPBACK = "127.0.0.1"


STOP_POLL = 0.25  #: seconds between a task's questions to the scheduler: was its run stopped?
STOP_WAIT = 10.0  #: seconds the client waits, after Ctrl-C, for its running tasks to stop

_queues: dict[str, Any] = {}  #: a worker's handles on the runs' attempt queues, each made once per process
_task = threading.local()  #: in a worker's task thread: the stop event of the run it serves, when next to ask


class Stopped(Exception):
    """Raised in a task whose run was stopped on the client (Ctrl-C): its batch is abandoned, nothing half-written."""


def _attempt(queue: str, stop: str, number: int, fn: Callable[[T], R], item: T) -> R:
    """Run one batch on a Dask worker, after recording the attempt (the scheduler acknowledges it first)."""
    handle = _queues.get(queue)
    if handle is None:
        from distributed import Queue

        while len(_queues) >= 8:  # a long-lived worker serves many runs: keep the latest handles only
            _queues.pop(next(iter(_queues)), None)
        handle = _queues[queue] = Queue(queue)
    handle.put(number)
    _task.stop, _task.next = stop, 0.0
    try:
        return fn(item)
    finally:
        _task.stop = ""


def stopped() -> bool:
    """In a task: whether its run was stopped on the client (Ctrl-C), asking the scheduler at most every
    ``STOP_POLL`` seconds; always False off Dask (local processes are ended by the client itself)."""
    name = getattr(_task, "stop", "")
    if not name or time.monotonic() < _task.next:
        return False
    _task.next = time.monotonic() + STOP_POLL
    from distributed import Event

    return bool(Event(name).is_set())


def _scheduler_keys(mark: str, dask_scheduler: Any = None) -> list[str]:
    return [str(key) for key in dask_scheduler.tasks if mark in str(key)]


def _worker_keys(mark: str, dask_worker: Any = None) -> list[str]:
    """The run's tasks a worker still holds, a cancelled one still running included (the scheduler forgets it)."""
    state = getattr(dask_worker, "state", None)
    return [str(key) for key in getattr(state, "tasks", {}) if mark in str(key)]


def _ignore_interrupts() -> None:
    """In a local worker: Ctrl-C is the parent's to handle (it stops the workers), not a traceback per worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Runner:
    """Runs batches of work and yields their results as they finish, in any order.

    ``cluster`` is None for local processes (``workers`` of them; 0 means one per core, 1 runs in this
    process), ``"local"`` for a Dask ``LocalCluster`` of ``workers`` single-threaded processes on the
    loopback address, or a scheduler's address (``tcp://host:8786``). Use it as a context manager.
    """

    def __init__(self, cluster: str | None = None, workers: int = 0) -> None:
        self.cluster = cluster
        self.requested = workers
        self.run_id = uuid.uuid4().hex[:12]  #: names this run's temporary files and attempt queue
        self.retried = 0  #: batches that started more than once (a Dask worker was lost while it ran them)
        self.attempts = 0  #: batch starts recorded (Dask only)
        self._pool: ProcessPoolExecutor | None = None
        self._processes = 1
        self._client: Any = None
        self._local: Any = None
        self._inflight: Any = None  #: the futures of the run's tasks in flight (Dask)

    def __enter__(self) -> Runner:
        if self.cluster is None:
            self._processes = self.requested or os.cpu_count() or 1
            if self._processes > 1:
                self._pool = ProcessPoolExecutor(max_workers=self._processes, initializer=_ignore_interrupts)
            return self
        try:
            from distributed import Client, LocalCluster
        except ImportError:  # pragma: no cover - the cluster extra is not installed
            raise OSError("--cluster needs Dask: pip install 'knock-gin[cluster]'") from None
        if self.cluster == LOCAL:
            self._local = LocalCluster(
                n_workers=self.requested or os.cpu_count() or 1, threads_per_worker=1, processes=True,
                host=LOOPBACK, dashboard_address=None, silence_logs=logging.ERROR,
                scheduler_kwargs={"dashboard_address": f"{LOOPBACK}:0"},  # its HTTP server (health, metrics)
            )  # fmt: skip
            self._client = Client(self._local)
        else:
            try:
                self._client = Client(self.cluster, timeout="20s")
            except (OSError, TimeoutError) as err:
                raise OSError(f"cannot reach the Dask scheduler at {self.cluster}: {err}") from None
        return self

    def __exit__(self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None) -> None:
        if self._pool is not None and kind is not None:  # Ctrl-C or an error: stop now, not after the queued work
            self._stop_pool(self._pool)
        elif self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
        if self._client is not None and kind is not None:
            self.cancel()
        if self._client is not None:
            self._client.close()
        if self._local is not None:
            self._local.close()

    @property
    def _stop_event(self) -> str:
        return f"knock-stop-{self.run_id}"

    def left(self) -> list[str]:
        """The keys of this run's tasks still on the scheduler or on a worker (Dask; empty elsewhere)."""
        if self._client is None:
            return []
        mark = f"-{self.run_id}-"
        keys: list[str] = self._client.run_on_scheduler(_scheduler_keys, mark)
        for found in self._client.run(_worker_keys, mark).values():
            keys += found
        return keys

    def cancel(self) -> None:
        """Stop the run on the cluster: tell its running tasks to stop (``stopped()``), cancel the others, and wait
        (at most ``STOP_WAIT`` s) until none is left. A scheduler already gone has nothing left to cancel."""
        from distributed import Event

        client = self._client
        try:
            event = Event(self._stop_event, client=client)
            event.set()
            if self._inflight is not None:
                client.cancel(list(self._inflight.futures), force=True)
            deadline = time.monotonic() + STOP_WAIT
            while (left := self.left()) and time.monotonic() < deadline:
                time.sleep(0.1)
            if not left:
                event.clear()  # the scheduler forgets the event; a task still running would not see it
        except (OSError, TimeoutError):  # pragma: no cover - the scheduler is gone
            pass

    @staticmethod
    def _stop_pool(pool: ProcessPoolExecutor) -> None:
        """Cancel what is queued and end the worker processes at once: their batches are lost, never half-written
        (logs are written atomically). The executor has no public way to end its processes before Python 3.14."""
        processes = list((getattr(pool, "_processes", None) or {}).values())  # shutdown forgets them
        manager = getattr(pool, "_executor_manager_thread", None)  # and its manager thread
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
        if manager is not None:  # it closes its wake-up pipe, which Python's exit hook writes to: left running, the
            manager.join(5)  # two race (EBADF, a traceback after Ctrl-C; the executor's own race until Python 3.12)

    def reaches(self, location: str) -> None:
        """Check that every Dask worker sees a local file or folder the client named (resolved, absolute): a local
        path serves a cluster only on a filesystem all its workers share. URLs and local processes pass.

        Raises:
            FileNotFoundError: naming a worker that does not see it.
        """
        if self._client is None or ("://" in location and not location.startswith("file://")):
            return
        seen: dict[str, bool] = self._client.run(os.path.exists, location.removeprefix("file://"))
        blind = sorted(worker for worker, ok in seen.items() if not ok)
        if blind:
            raise FileNotFoundError(errno.ENOENT, f"not seen by {len(blind)} of {len(seen)} workers ({blind[0]}); a "
                                    "local path serves a cluster only on a filesystem every worker shares (or use "
                                    "s3://…)", location)  # fmt: skip

    @property
    def workers(self) -> int:
        """How many batches can run at once: worker threads on the cluster, processes locally."""
        if self._client is not None:
            info = self._client.scheduler_info()
            return max(1, sum(int(w.get("nthreads", 1)) for w in info["workers"].values()))
        return self._processes

    def worker_cpu(self) -> float:
        """CPU seconds the Dask workers' processes have used so far (for benchmarks; 0 off Dask)."""
        if self._client is None:
            return 0.0
        return float(sum(self._client.run(time.process_time).values()))

    @property
    def window(self) -> int:
        """How many batches are handed out at once: two per worker, so none waits while results come back, and
        memory is bounded however many batches a run has (they are read from ``map``'s items as they go)."""
        return 2 * self.workers

    def map(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        """``fn(item)`` for every item, each a task; results as they complete. An error in a task is raised here.
        Items are taken lazily, at most ``window`` of them in flight."""
        if self._client is not None:
            yield from self._map_dask(fn, items)
        elif self._pool is not None:
            pool, it = self._pool, iter(items)
            pending: set[Future[R]] = {pool.submit(fn, item) for item in itertools.islice(it, self.window)}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                pending |= {pool.submit(fn, item) for item in itertools.islice(it, len(finished))}
                for future in finished:
                    yield future.result()
        else:
            for item in items:
                yield fn(item)

    def _map_dask(self, fn: Callable[[T], R], items: Iterable[T]) -> Iterator[R]:
        from distributed import Queue
        from distributed import as_completed as dask_completed

        client = self._client
        name = f"knock-attempts-{self.run_id}-{uuid.uuid4().hex[:6]}"
        queue = Queue(name, client=client)
        label = getattr(fn, "__name__", "batch").replace("_", "-")
        numbered = enumerate(items)

        def submit(count: int) -> list[Any]:
            return [client.submit(_attempt, name, self._stop_event, i, fn, item, key=f"knock-{label}-{self.run_id}-{i}",
                                  pure=False) for i, item in itertools.islice(numbered, count)]  # fmt: skip

        futures = self._inflight = dask_completed(submit(self.window), with_results=True)
        starts: Counter[int] = Counter()
        completed: list[int] = []  # batches finished whose starts are not yet counted

        def count_starts() -> None:
            """Fold the attempts recorded so far; a finished batch's count is final, and forgotten."""
            starts.update(queue.get(batch=True))
            for number in completed:
                attempts = starts.pop(number, 0)
                self.attempts += attempts
                self.retried += attempts > 1
            completed.clear()

        try:
            for future, result in futures:
                completed.append(int(future.key.rsplit("-", 1)[1]))
                future.release()
                for more in submit(1):
                    futures.add(more)
                if len(completed) >= 64:
                    count_starts()
                yield result
            count_starts()
        finally:
            client.cancel([f for f in futures.futures if not f.done()])
            queue.close()
