"""Asking another implementation for its answer: the adapter command ``CMD CASE LOG``, one JSON object out.

Rule: CONF-6.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
from pathlib import Path
from typing import Any

from knock.conformance.cases import Case


class AdapterFailure(Exception):
    """The adapter gave no answer: it could not start, took too long, or printed no JSON object."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def run_adapter(args: list[str], timeout: float) -> tuple[int, str, str]:
    """Run an adapter ``args`` in its own process group and return its exit status, standard output and error;
    the whole group is stopped when it overruns ``timeout`` seconds.

    Raises:
        AdapterFailure: it could not be started, or gave no answer in time.
    """
    try:
        proc = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group: a timeout ends the adapter and its children
        )
    except OSError as err:
        raise AdapterFailure(f"the adapter could not be started: {err}") from None
    try:
        out, err_text = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AdapterFailure(f"the adapter gave no answer within {timeout:g} s (stopped)") from None
    return proc.returncode, out, err_text


def ask_adapter(command: str, case: Case, log: bytes | None, workdir: Path, timeout: float = 60) -> dict[str, Any]:
    """Run ``command CASE LOG`` (LOG is ``-`` when the case has no log form; else the log is written into
    ``workdir``) and return the answer it prints (CONF-6). The adapter runs in its own process group, all of
    which is stopped when it overruns ``timeout`` seconds; its exit status is not used.

    Raises:
        AdapterFailure: no answer (not started, timed out, no JSON object on standard output).
    """
    log_path = "-"
    if log is not None:
        target = workdir / (case.name.replace("/", "__") + ".knock")
        target.write_bytes(log)
        log_path = str(target)
    returncode, out, err_text = run_adapter([*shlex.split(command), str(case.path), log_path], timeout)
    try:
        answer = json.loads(out)
    except json.JSONDecodeError:
        tail = err_text.strip()[-300:]
        raise AdapterFailure(
            f"the adapter printed no JSON answer (exit {returncode}): stdout {out.strip()[:120]!r}"
            + (f"; stderr ...{tail}" if tail else "")
        ) from None
    if not isinstance(answer, dict):
        raise AdapterFailure("the adapter's answer is not a JSON object")
    return answer
