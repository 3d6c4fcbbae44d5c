"""Auditing many logs, wherever they are (local paths or fsspec URLs), in batches over local processes or
a Dask cluster: the engine behind ``knock verify``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from knock.cluster.runner import Runner
from knock.cluster.storage import read_bytes
from replay.redact import audit
from replay.replayer import AuditReport


def audit_location(location: str) -> AuditReport:
    """Audit one log; an unreadable file is a failed report, not an exception."""
    try:
        data = read_bytes(location)
    except OSError as err:
        return AuditReport(ok=False, error=f"cannot read {location}: {err.strerror or err}")
    return audit(data)


def audit_batch(batch: tuple[int, tuple[str, ...]]) -> tuple[int, list[AuditReport]]:
    """Audit a batch of logs (in a worker); the batch's first index comes back with the reports, in order."""
    first, locations = batch
    return first, [audit_location(loc) for loc in locations]


def run(
    files: list[str], runner: Runner, size: int = 0, tick: Callable[[int], None] | None = None
) -> list[AuditReport]:
    """Audit every log on the runner in batches of ``size`` (0: about four per worker, at most 500 logs);
    the reports in the order of ``files``; ``tick(n)`` as each batch of n logs is done.
    """
    size = size or max(1, min(500, math.ceil(len(files) / (4 * runner.workers))))
    reports: list[AuditReport | None] = [None] * len(files)
    work = [(i, tuple(files[i : i + size])) for i in range(0, len(files), size)]
    for first, done in runner.map(audit_batch, work):
        reports[first : first + len(done)] = done
        if tick:
            tick(len(done))
    assert all(r is not None for r in reports)
    return [r for r in reports if r is not None]
