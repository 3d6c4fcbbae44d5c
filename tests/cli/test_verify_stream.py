"""``knock verify`` streams (issue #66): each verdict as soon as it and those before it are judged, a bad path
reported and the rest judged, special files skipped, Ctrl-C ends with the totals so far (spec/log-format.md,
LOG-13)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from knock import bulk_verify
from tests.cli.support import run as knock

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


class Batches:
    """A runner that judges each batch only when the next result is asked for (``lazy``), or every batch first and
    then hands them back last first; ``judged`` counts the batches judged so far."""

    workers = 2

    def __init__(self, lazy: bool) -> None:
        self.lazy = lazy
        self.judged = 0

    def map(self, fn: Callable[[Any], Any], items: Iterable[Any]) -> Iterator[Any]:
        if self.lazy:
            for item in items:
                self.judged += 1
                yield fn(item)
            return
        done = []
        for item in items:
            self.judged += 1
            done.append(fn(item))
        yield from reversed(done)


@pytest.mark.rule("LOG-13")
def test_verdicts_come_in_the_order_of_the_files_each_as_soon_as_those_before_it_are_judged(tmp_path: Path) -> None:
    (tmp_path / "cut.knock").write_bytes((GOLDEN / "standard-1.knock").read_bytes()[:-1])
    logs = [
        str(GOLDEN / "standard-1.knock"),
        str(tmp_path / "cut.knock"),
        *sorted(map(str, GOLDEN.glob("*.knock")))[:4],
    ]
    lazy = Batches(lazy=True)
    seen = [(v.kind, lazy.judged) for v in bulk_verify.stream(logs, lazy, size=2)]  # type: ignore[arg-type]
    assert [kind for kind, _ in seen] == ["pass", "fail", "pass", "pass", "pass", "pass"]
    assert [n for _, n in seen] == [1, 1, 2, 2, 3, 3]  # each verdict out before the next batch is judged
    backwards = Batches(lazy=False)
    held = [v.kind for v in bulk_verify.stream(logs, backwards, size=2)]  # type: ignore[arg-type]
    assert held == [kind for kind, _ in seen]  # batches that finish out of order are let out in order


@pytest.mark.rule("LOG-13")
def test_a_bad_path_is_reported_and_the_rest_judged_and_a_fifo_is_skipped(tmp_path: Path) -> None:
    shutil.copy(GOLDEN / "standard-1.knock", tmp_path / "a.knock")
    os.mkfifo(tmp_path / "b.knock")  # read, it would wait for a writer for ever
    done = knock("verify", str(tmp_path), str(tmp_path / "missing.knock"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stdout.startswith("pass") and "a.knock" in done.stdout and "b.knock" not in done.stdout, done.stdout
    assert "b.knock: skipped, not a regular file" in done.stderr and "cannot find" in done.stderr, done.stderr


@pytest.mark.rule("LOG-13")
def test_ctrl_c_ends_with_the_verdicts_so_far_and_the_totals(tmp_path: Path) -> None:
    data = (GOLDEN / "standard-1.knock").read_bytes()
    for i in range(400):
        (tmp_path / f"g-{i:03d}.knock").write_bytes(data)
    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe
    run = subprocess.Popen([exe, "verify", "--jobs", "1", str(tmp_path)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert run.stdout is not None
    first = run.stdout.readline()  # streamed: the first verdict before the last file is judged
    assert first.startswith("pass"), first
    run.send_signal(signal.SIGINT)
    rest, err = run.communicate(timeout=120)
    assert run.returncode == 130, (rest[-500:], err[-500:])
    summary = rest.strip().splitlines()[-1]
    assert summary.startswith("stopped after ") and " of 400 files: " in summary and "Traceback" not in err, summary
    judged = int(summary.split()[2])
    shown = [first, *rest.strip().splitlines()[:-1]]  # the verdicts so far, then the totals
    assert 1 <= judged < 400 and len(shown) == judged and all(line.startswith("pass") for line in shown)


def command(
    *args: str, stdin: bytes = b"", shell_tail: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``knock ARGS`` as a process (standard input and output are the point), with ``shell_tail`` after it."""
    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe
    line = " ".join([exe, *args]) + shell_tail
    return subprocess.run(line, shell=True, input=stdin, capture_output=True, timeout=120, check=False, cwd=cwd)


@pytest.mark.rule("LOG-13")
def test_dash_is_standard_input_and_output(tmp_path: Path) -> None:
    log = GOLDEN / "standard-1.knock"
    data = log.read_bytes()
    read = command("verify", "-", stdin=data)
    assert read.returncode == 0 and read.stdout.startswith(b"pass") and b"(standard input)" in read.stdout
    cut = command("verify", "-", "--json", stdin=data[:-1])
    assert cut.returncode == 1 and b'"path": "-"' in cut.stdout and b'"verdict": "fail"' in cut.stdout
    assert command("verify", "-", str(log)).returncode == 2  # standard input is one file: alone
    view = command("redact", str(log), "--seat", "0", "-o", "-")
    assert view.returncode == 0 and command("verify", "-", stdin=view.stdout).stdout.startswith(b"pass")
    page = command("view", "-", "-o", "-", stdin=data)
    assert page.returncode == 0 and page.stdout.startswith(b"<!doctype html>")
    shown = command("show", "-", stdin=data)
    assert shown.returncode == 0 and b"hand 1" in shown.stdout
    refused = command("demo", "-o", "-", cwd=tmp_path)  # a command that writes its file as it goes: never a file "-"
    assert refused.returncode == 2 and b"standard output" in refused.stderr and not (tmp_path / "-").exists()


@pytest.mark.rule("LOG-13")
def test_a_closed_standard_output_ends_with_the_status_and_no_traceback(tmp_path: Path) -> None:
    (tmp_path / "cut.knock").write_bytes((GOLDEN / "standard-1.knock").read_bytes()[:-1])
    passing = command("verify", str(GOLDEN / "standard-1.knock"), shell_tail=" >&-")
    failing = command("verify", str(tmp_path / "cut.knock"), shell_tail=" >&-")
    assert (passing.returncode, failing.returncode) == (0, 1) and b"Traceback" not in passing.stderr + failing.stderr
