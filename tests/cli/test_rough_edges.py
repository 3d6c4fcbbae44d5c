"""The command line without rough edges: JSON from every command, one overwrite policy, errors that say what is
allowed and never show Python, output that fits the terminal, a quiet end on a closed pipe, bounded memory."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from rich.console import Console

from engine.rules import RuleSet, options
from knock import simulate as sim
from knock.cli import common, output
from knock.cli import main as knock_main
from knock.cli import spec as spec_cli
from knock.cli.common import app
from knock.cluster.runner import Runner
from tests.cli.support import Done
from tests.cli.support import run as knock
from tests.cli.test_cli import GOLDEN

LOG = str(GOLDEN / "standard-1.knock")
CASE = "knock/conformance/suite/cases/lay/LAY-4-chain.toml"


def json_commands(tmp: Path) -> list[tuple[list[str], str]]:
    """Every command that prints results, with --json to stdout, and whether it gives one document or lines."""
    return [
        (["demo", "--seed", "3", "-o", str(tmp / "d.knock")], "document"),
        (["simulate", "--games", "3", "--jobs", "1"], "document"),
        (["verify", LOG, str(GOLDEN / "three-handed-5.knock")], "lines"),
        (["export", LOG, "-o", str(tmp / "ds"), "--jobs", "1"], "document"),
        (["show", LOG], "lines"),
        (["redact", LOG, "--seat", "1", "-o", str(tmp / "v.knock")], "document"),
        (["spec", "table"], "document"),
        (["rules"], "lines"),
        (["view", LOG, "-o", str(tmp / "g.html")], "document"),
        (["conform", "run", CASE], "document"),
        (["conform", "coverage", CASE], "document"),
    ]


def test_every_command_that_prints_results_gives_json_as_its_help_says(tmp_path: Path) -> None:
    for args, form in json_commands(tmp_path):
        done = knock(*args, "--json")
        assert done.returncode in (0, 1), (args, done.stderr)  # coverage of one case has gaps: exit 1
        if form == "document":
            parsed = json.loads(done.stdout)
            assert isinstance(parsed, dict) and parsed, args
        else:
            lines = [json.loads(line) for line in done.stdout.splitlines()]
            assert lines and all(isinstance(x, dict) for x in lines), args
        said = " ".join(knock(*args[: 2 if args[0] == "conform" else 1], "-h").stdout.split())
        assert ("one document" if form == "document" else "JSON lines") in said, args
    events = [json.loads(line) for line in knock("show", LOG, "--json").stdout.splitlines()]
    assert events[-1]["verdict"] == "pass" and events[-1]["path"] == LOG
    assert all(isinstance(e["record"], int) and e["event"] for e in events[:-1])
    assert knock("conform", "answer", CASE).stdout.count("\n") == 1  # always one JSON document on one line


def test_quiet_prints_less_on_every_command_that_prints_results(tmp_path: Path) -> None:
    for args, _ in json_commands(tmp_path / "loud"):
        if args[0] == "spec":
            continue  # spec prints its diagram or table: that is the result; -q quiets -o's line
        loud, quiet = knock(*args), knock(*[a.replace("loud", "quiet") for a in args], "-q")
        assert quiet.returncode == loud.returncode, (args, quiet.stderr)
        assert len(quiet.stdout) < len(loud.stdout) or quiet.stdout == loud.stdout == "", args


def test_every_output_file_is_refused_when_it_exists_unless_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "there.out"
    for args in (["demo", "--summary"], ["redact", LOG, "--seat", "0"], ["spec", "diagram"], ["view", LOG]):
        target.write_text("keep me")
        refused = knock(*args, "-o", str(target))
        assert refused.returncode == 2 and "exists; choose another file, or --force" in refused.stderr, args
        assert target.read_text() == "keep me"
        forced = knock(*args, "-o", str(target), "--force")
        assert forced.returncode == 0, (args, forced.stderr)
        assert target.read_bytes() != b"keep me"
    target.write_text("keep me")
    play = knock("play", "-o", str(target))
    assert play.returncode == 2 and "exists; choose another file, or --force" in play.stderr
    assert target.read_text() == "keep me"
    done = knock("export", LOG, "-o", str(tmp_path / "ds"), "--jobs", "1")
    assert done.returncode == 0, done.stderr
    again = knock("export", LOG, "-o", str(tmp_path / "ds"), "--jobs", "1")
    assert again.returncode == 2 and "--force to replace it" in again.stderr
    assert knock("export", LOG, "-o", str(tmp_path / "ds"), "--jobs", "1", "--force").returncode == 0
    monkeypatch.chdir(tmp_path)  # the demo's default log is the same game's bytes again: replaced, so it reruns
    for _ in range(2):
        assert knock("demo", "--seed", "4", "-q").returncode == 0
    assert (tmp_path / "out" / "demo-4.knock").exists()


#: What Python shows and a person should not see: a traceback, an exception's name, a repr, escaped bytes.
PYTHON_TEXT = re.compile(
    r"Traceback|\b[A-Z]\w*(Error|Exception)\b|<\w[\w.]* object at 0x|Errno|\\x[0-9a-f]{2}|^\s+File \"", re.MULTILINE
)


def bad_inputs(tmp: Path) -> list[list[str]]:
    data = bytearray((GOLDEN / "standard-1.knock").read_bytes())
    data[9] = 0xFF  # a header string that is not UTF-8
    broken = tmp / "broken.knock"
    broken.write_bytes(bytes(data))
    (tmp / "empty.knock").write_bytes(b"")
    return [
        ["demo", "--set", "gin_bonus=abc"], ["demo", "--set", "knock_limit=sometimes"], ["demo", "--seed", "x"],
        ["demo", "-o", str(tmp)], ["demo", "--bots", ""], ["demo", "--set", "=1"],
        ["simulate", "--cluster", "nonsense"], ["simulate", "--games", "-5"], ["simulate", "--jobs", "many"],
        ["simulate", "--logs", "memory://x", "--games", "1"], ["simulate", "--set", "players=9"],
        ["play", "--seat", "x"], ["play", "--resume", str(broken)], ["play", "--bots", "nobody"],
        ["verify", str(broken)], ["verify", str(tmp / "empty.knock")], ["verify", "--cluster", "tcp://nowhere"],
        ["export", str(broken), "-o", str(tmp / "ds"), "--jobs", "1"], ["export", LOG, "-o", "memory://x"],
        ["show", str(broken)], ["show", str(broken), "--json"], ["show", LOG, "--seat", "7"],
        ["redact", str(broken), "--seat", "0", "-o", str(tmp / "r.knock")], ["redact", LOG, "--seat", "-1", "-o", "x"],
        ["spec", "picture"], ["spec", "--machine", "hnd"], ["rules", "--preset", "okla"],
        ["view", str(broken), "-o", str(tmp / "b.html")], ["view", str(tmp / "missing.knock")],
        ["conform", "run", str(broken)], ["conform", "coverage", str(tmp / "nowhere")],
        ["conform", "answer", str(broken)], ["conform", "answer", CASE, str(broken)], ["nonsense"],
    ]  # fmt: skip


def test_bad_input_gets_words_never_python(tmp_path: Path) -> None:
    for args in bad_inputs(tmp_path):
        done = knock(*args)
        said = done.stdout + done.stderr
        assert done.returncode != 0 or args[0] == "conform", (args, said)
        assert not PYTHON_TEXT.search(said), (args, said)


def test_cluster_must_be_local_or_an_address_with_a_port() -> None:
    assert common.cluster_address("local") == "local"
    assert common.cluster_address("tcp://10.0.0.5:8786") == "tcp://10.0.0.5:8786"
    assert common.cluster_address("scheduler:8786") == "scheduler:8786"  # Dask takes tcp:// as the default
    for wrong in ("nonsense", "tcp://nowhere", "local:", "http://x"):
        with pytest.raises(typer.BadParameter, match="give 'local' or a scheduler's address with its port"):
            common.cluster_address(wrong)
    done = knock("simulate", "--cluster", "nonsense")
    assert done.returncode == 2 and "give 'local' or a scheduler's address with its port" in done.stderr


def test_one_quoting_of_options_in_errors() -> None:
    preset, setting = knock("demo", "--preset", "nope").stderr, knock("demo", "--set", "targt=1").stderr
    assert "Invalid value for --preset:" in preset and "Invalid value for --set:" in setting
    assert "Missing option -o / --out" in knock("redact", LOG, "--seat", "0").stderr


def terminal(width: int, monkeypatch: pytest.MonkeyPatch) -> io.StringIO:
    """The commands' console as a terminal of ``width`` columns, writing into the returned buffer."""
    buffer = io.StringIO()
    screen = Console(file=buffer, width=width, force_terminal=True, color_system=None, highlight=False)
    monkeypatch.setattr(common, "console", screen)
    monkeypatch.setattr(output, "console", screen)
    monkeypatch.setattr(spec_cli, "console", screen)
    return buffer


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize("width", [60, 80, 160])
def test_rules_fit_the_terminal_and_say_everything(width: int, monkeypatch: pytest.MonkeyPatch) -> None:
    buffer = terminal(width, monkeypatch)
    spec_cli.rules(preset="oklahoma", json_out=None, quiet=False)
    text = buffer.getvalue()
    assert max(len(line) for line in text.splitlines()) <= width
    flat = " ".join(text.split())
    assert "…" not in text
    for o in options():
        assert o.name in flat and o.rule in flat
        words = o.summary.split()
        assert all(w in flat for w in words), o.name  # wrapped, never cut
    if width < 110:  # an option a paragraph: its summary's words stay together
        assert " ".join(options()[3].summary.split()) in flat


def test_rules_piped_are_one_option_a_line() -> None:
    lines = knock("rules", "--preset", "oklahoma").stdout.splitlines()
    rows = [line.split("\t") for line in lines[2:]]
    assert lines[1].split("\t") == ["option", "values", "oklahoma", "rule", "what it does"]
    assert [r[0] for r in rows] == [o.name for o in options()] and all(len(r) == 5 for r in rows)
    chosen = RuleSet.preset("oklahoma")
    quiet = knock("rules", "--preset", "oklahoma", "-q").stdout.splitlines()
    assert quiet[0] == "name=oklahoma" and f"target={chosen.target}" in quiet


def test_a_simulation_table_piped_is_one_bot_a_line() -> None:
    out = knock("simulate", "--games", "4", "--jobs", "1", "-q").stdout.splitlines()
    assert out[1].split("\t")[:3] == ["bot", "seats played", "games won"]
    assert [line.split("\t")[0] for line in out[2:4]] == ["heuristic", "random"]


def test_help_is_as_wide_as_the_terminal_and_lists_whole_summaries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    top = knock("-h").stdout
    assert "..." not in top.split("Commands:")[1] and max(len(line) for line in top.splitlines()) <= 100
    flat = " ".join(top.split())
    for command in app.registered_commands:
        assert command.callback is not None and command.callback.__doc__
        first = " ".join(command.callback.__doc__.strip().split("\n\n")[0].split())
        assert first.split(". ")[0].rstrip(".") in flat, command.name
    assert "Exit status:" in top
    monkeypatch.setenv("COLUMNS", "70")
    assert max(len(line) for line in knock("simulate", "-h").stdout.splitlines()) <= 70


class ClosedAfter(io.StringIO):
    """Standard output whose reader goes away after ``limit`` characters (``| head -c``)."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def write(self, text: str) -> int:
        if self.tell() + len(text) > self.limit:
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def piped(limit: int, *args: str) -> Done:
    out, err = ClosedAfter(limit), io.StringIO()
    saved, sys.argv = sys.argv, ["knock", *args]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            knock_main()
    except SystemExit as stop:
        return Done(stop.code if isinstance(stop.code, int) else 0, out.getvalue(), err.getvalue())
    finally:
        sys.argv = saved
    raise AssertionError("main returns only by exiting")


@pytest.mark.rule("LOG-13")
def test_a_closed_pipe_ends_quietly_with_the_status_of_what_was_judged(tmp_path: Path) -> None:
    passing = piped(60, "verify", str(GOLDEN))
    assert (passing.returncode, passing.stderr) == (0, "") and passing.stdout.count("\n") <= 1
    (tmp_path / "a-cut.knock").write_bytes((GOLDEN / "standard-1.knock").read_bytes()[:-1])
    shutil.copy(GOLDEN / "standard-1.knock", tmp_path / "b.knock")
    failing = piped(60, "verify", str(tmp_path))  # verdicts stream: the failure was judged before the reader left
    assert (failing.returncode, failing.stderr) == (1, "")
    (tmp_path / "a-cut.knock").rename(tmp_path / "z-cut.knock")
    passing = piped(60, "verify", str(tmp_path))  # the reader left before the failure was judged: not judged
    assert (passing.returncode, passing.stderr) == (0, "") and "z-cut" not in passing.stdout
    shown = piped(200, "show", LOG)
    assert (shown.returncode, shown.stderr) == (0, "")
    lines = piped(100, "verify", "--json", str(GOLDEN))
    assert (lines.returncode, lines.stderr) == (0, "")


def test_a_pipe_closed_before_the_first_line_ends_quietly_too() -> None:
    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe
    run = subprocess.Popen([exe, "verify", str(GOLDEN)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert run.stdout is not None and run.stderr is not None
    run.stdout.close()  # the reader is gone before the command writes a byte
    err = run.stderr.read()
    assert run.wait(60) == 0 and err == b""


def test_a_run_of_any_size_is_planned_lazily() -> None:
    todo = sim.Jobs(RuleSet.preset("standard"), ["heuristic", "random"], 10**12, 5)
    assert len(todo) == 10**12 and todo[10**12 - 1].seed == 10**12 + 4
    assert todo[3] == list(sim.jobs(RuleSet.preset("standard"), ["heuristic", "random"], 4, 5))[3]
    assert todo[1].bots == ("random", "heuristic") and todo[-1] == todo[10**12 - 1]
    pulled = 0

    def endless() -> Iterator[int]:
        nonlocal pulled
        while True:
            pulled += 1
            yield pulled

    with Runner(None, 2) as runner:
        results = runner.map(abs, endless())
        got = [next(results) for _ in range(5)]
        # in flight at most a window, and at most a window done but not yet handed on: never the whole plan
        assert len(got) == 5 and pulled <= 5 + 2 * runner.window


def tree_rss(pid: int) -> int:
    """The resident memory of a process and its descendants, in bytes (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        with contextlib.suppress(OSError):
            rss = re.search(r"VmRSS:\s+(\d+)", Path(f"/proc/{p}/status").read_text())
            total += int(rss.group(1)) * 1024 if rss else 0
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    return total


#: How long the 10⁹-game run is watched: long enough that eager planning (~110 MB/s) or a leak shows, short
#: enough for the suite's budget.
WATCH = 12.0


def test_a_billion_games_run_in_bounded_memory_until_stopped(tmp_path: Path, ctrl_c: None) -> None:
    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe
    command = [exe, "simulate", "--games", "1000000000", "-q"]
    run = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, start_new_session=True
    )
    samples: list[tuple[float, int]] = []
    try:
        started = time.monotonic()
        while (now := time.monotonic() - started) < WATCH:
            assert run.poll() is None, run.communicate()
            if now > 2:  # the workers are up
                samples.append((now, tree_rss(run.pid)))
            time.sleep(0.25)
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=60)
    finally:  # a failing run leaves no simulation behind (the command and its workers are one session)
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
    peak = max(rss for _, rss in samples)
    third = len(samples) // 3
    early = max(rss for _, rss in samples[:third])
    late = max(rss for _, rss in samples[-third:])
    assert peak < 300 * 2**20, f"{peak / 2**20:.0f} MB"
    assert late - early < 16 * 2**20, f"grew {(late - early) / 2**20:.1f} MB in {WATCH - 2:.0f} s"
    assert run.returncode == 130 and "Traceback" not in err, err
    assert "stopped (Ctrl-C) after" in out and "of 1,000,000,000" in out
