"""The ``knock`` command run in this process (fast: no interpreter start per call), as its console script runs."""

from __future__ import annotations

import contextlib
import io
import sys
from dataclasses import dataclass

import pytest

from knock.cli import main


@dataclass(frozen=True)
class Done:
    returncode: int
    stdout: str
    stderr: str


def run(*args: str, monkeypatch: pytest.MonkeyPatch | None = None) -> Done:
    """``knock ARGS`` through ``knock.cli.main``: its exit status, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.argv
    sys.argv = ["knock", *args]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            main()
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    finally:
        sys.argv = saved
    return Done(code, out.getvalue(), err.getvalue())
