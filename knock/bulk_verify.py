"""Judging many logs, wherever they are (local paths or fsspec URLs), in batches over local processes or a
Dask cluster: the engine behind ``knock verify``. Every file gets one verdict (LOG-13) whatever happens to
the others.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from knock.cluster.runner import Runner, Stopped, stopped
from knock.cluster.storage import is_url, read_bytes, resolve
from replay.verdict import Verdict, judge


@dataclass(frozen=True, slots=True)
class Required:
    """What every log must match from outside it (LOG-19): a signer's public key, published digests."""

    signer: bytes | None = None
    digests: frozenset[bytes] | None = None


NOTHING = Required()


def judge_location(location: str, required: Required = NOTHING) -> Verdict:
    """The verdict on one log; a file that cannot be read is a failed verdict, not an exception. A local file is
    read as a stream, a chunk at a time, so that a log of any length is judged in the same memory (LOG-15); a
    URL's bytes are fetched first."""
    try:
        if is_url(location):
            return judge(read_bytes(location), signer=required.signer, digests=required.digests)
        with open(location, "rb") as stream:
            return judge(stream, signer=required.signer, digests=required.digests)
    except OSError as err:
        why = str(err.strerror or err)
        return Verdict("fail", None, "", f"cannot read {location}: {why[:1].lower() + why[1:]}")


Batch = tuple[int, tuple[str, ...]] | tuple[int, tuple[str, ...], Required]


def judge_batch(batch: Batch) -> tuple[int, list[Verdict]]:
    """Judge a batch of logs (in a worker); the batch's first index comes back with the verdicts, in order."""
    first, locations = batch[0], batch[1]
    required = batch[2] if len(batch) == 3 else NOTHING
    verdicts = []
    for location in locations:
        if stopped():
            raise Stopped(f"batch {first}")
        verdicts.append(judge_location(location, required))
    return first, verdicts


def judge_alone(location: str, required: Required = NOTHING) -> Verdict:
    """Judge one log in a process of its own, so that a log that kills the process that reads it (a crash of
    the interpreter: ``judge`` raises no exception) gets a failed verdict saying so and harms no other."""
    with ProcessPoolExecutor(max_workers=1) as alone:
        try:
            return alone.submit(judge_batch, (0, (location,), required)).result()[1][0]
        except Exception as err:  # the process died (BrokenProcessPool) or could not be started
            return Verdict("fail", None, "", f"internal error: the verifying process died ({type(err).__name__})",
                           internal=True)  # fmt: skip


def stream(files: list[str], runner: Runner, size: int = 0, required: Required = NOTHING) -> Iterator[Verdict]:
    """Judge every log on the runner in batches of ``size`` (0: about four per worker, at most 500 logs), and
    yield the verdicts in the order of ``files``, each as soon as it and every one before it are judged (the
    batches finish in any order; only those ahead of the next one due are held). Should the runner fail (a worker
    process dies and takes its pool with it; a Dask task fails for good), every log not judged yet is judged again
    on its own, one process each.
    """
    size = size or max(1, min(500, math.ceil(len(files) / (4 * runner.workers))))
    held: dict[int, list[Verdict]] = {}  # batches judged ahead of the next one due, by their first index
    due = 0
    # resolved on the client (a worker's working directory is not this one), a batch at a time
    work = ((i, tuple(resolve(f) for f in files[i : i + size]), required) for i in range(0, len(files), size))
    try:
        for first, done in runner.map(judge_batch, work):
            held[first] = done
            while due in held:
                batch = held.pop(due)
                due += len(batch)
                yield from batch
    except Exception:  # the runner broke; the logs it did not judge are judged alone below
        pass
    while due < len(files):
        if due in held:
            batch = held.pop(due)
            due += len(batch)
            yield from batch
        else:
            yield judge_alone(resolve(files[due]), required)
            due += 1


def run(
    files: list[str],
    runner: Runner,
    size: int = 0,
    tick: Callable[[int], None] | None = None,
    required: Required = NOTHING,
) -> list[Verdict]:
    """Every log's verdict, in the order of ``files`` (``stream``'s, all at once); ``tick(1)`` as each is read."""
    out = []
    for verdict in stream(files, runner, size, required):
        out.append(verdict)
        if tick:
            tick(1)
    return out


__all__ = ["Required", "judge_alone", "judge_batch", "judge_location", "run", "stream"]
