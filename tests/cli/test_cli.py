"""The ``knock`` command, run as a subprocess: demo, verify, show, redact, spec."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"


def knock(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe, "the knock console script is installed beside this Python"
    return subprocess.run([exe, *args], capture_output=True, text=True, cwd=cwd, env={"COLUMNS": "200", "PATH": ""})


@pytest.mark.rule("LOG-5", "LOG-8")
def test_demo_plays_logs_and_verifies_a_game(tmp_path: Path) -> None:
    log = tmp_path / "game.knock"
    done = knock("demo", "--seed", "3", "--summary", "-o", str(log))
    assert done.returncode == 0, done.stderr
    assert "wins after" in done.stdout and "verified" in done.stdout and str(log) in done.stdout
    assert log.stat().st_size > 100


@pytest.mark.rule("LOG-8", "LOG-6", "LOG-7", "LOG-13")
def test_verify_passes_good_logs_and_names_the_record_of_a_bad_one(tmp_path: Path) -> None:
    good = knock("verify", str(GOLDEN))
    assert good.returncode == 0, good.stdout + good.stderr
    assert good.stdout.count("pass ") >= 8
    globbed = knock("verify", str(GOLDEN / "three-handed-*.knock"))
    assert globbed.returncode == 0 and globbed.stdout.count("pass ") == 2
    data = (GOLDEN / "standard-1.knock").read_bytes()
    (tmp_path / "cut.knock").write_bytes(data[:-1])
    bad = bytearray(data)
    bad[len(data) // 3] ^= 0x01
    (tmp_path / "flipped.knock").write_bytes(bytes(bad))
    done = knock("verify", str(tmp_path), str(GOLDEN / "standard-1.knock"))
    assert done.returncode == 1
    assert "FAIL" in done.stdout and "record" in done.stdout and "Traceback" not in done.stderr
    lines = knock("verify", "--json", str(tmp_path / "cut.knock")).stdout.splitlines()
    report = json.loads(lines[0])
    assert report["verdict"] == "fail" and report["rule"] == "LOG-7" and report["record"] > 0


@pytest.mark.rule("LOG-13", "LOG-7")
def test_verify_gives_every_file_one_verdict_and_exit_status_3_for_unfinished_logs(tmp_path: Path) -> None:
    data = (GOLDEN / "standard-1.knock").read_bytes()
    boundary = len(data) - 37  # the trailer is [9, count, bin 32]: 37 bytes
    (tmp_path / "a-unfinished.knock").write_bytes(data[:boundary])
    (tmp_path / "b-pass.knock").write_bytes(data)
    done = knock("verify", "--json", str(tmp_path))
    assert done.returncode == 3, done.stdout + done.stderr
    verdicts = [json.loads(line) for line in done.stdout.splitlines()]
    assert [v["verdict"] for v in verdicts] == ["unfinished", "pass"]
    assert verdicts[0]["rule"] == "" and len(verdicts[0]["digest"]) == 64
    assert verdicts[1]["record"] == verdicts[0]["record"] + 1
    (tmp_path / "c-garbage.knock").write_bytes(b"\x91" * 1000 + b"\xc0")  # arrays nested 1,000 deep
    (tmp_path / "d-view.knock").write_bytes(data[:100])
    human = knock("verify", str(tmp_path))
    assert human.returncode == 1, human.stdout + human.stderr
    assert [line.split()[0] for line in human.stdout.splitlines()[:-1]] == [
        "unfinished", "pass", "FAIL", "FAIL"
    ]  # fmt: skip
    assert "1 pass, 1 unfinished, 2 fail" in human.stdout and "Traceback" not in human.stderr
    missing = knock("verify", str(tmp_path), "missing.knock")  # a path that does not exist: said, the rest judged,
    assert missing.returncode == 2 and "cannot find missing.knock" in missing.stderr  # and exit 2 at the end
    assert missing.stdout == human.stdout
    assert knock("verify").returncode == 2  # a usage error


@pytest.mark.rule("LOG-11", "LOG-12")
def test_redact_show_and_verify_a_view(tmp_path: Path) -> None:
    view = tmp_path / "p2.knock"
    done = knock("redact", str(GOLDEN / "three-handed-5.knock"), "--seat", "2", "-o", str(view))
    assert done.returncode == 0, done.stderr
    assert knock("verify", str(view)).returncode == 0
    shown = knock("show", str(GOLDEN / "three-handed-5.knock"), "--seat", "2")
    assert shown.returncode == 0 and "hand not shown" in shown.stdout and "draws from the stock" in shown.stdout
    full = knock("show", str(GOLDEN / "three-handed-5.knock"))
    assert full.returncode == 0 and "not shown" not in full.stdout


def test_errors_are_one_line_without_a_traceback(tmp_path: Path) -> None:
    missing = knock("verify", "missing.knock")  # a path that does not exist is a usage error, not a verdict
    assert missing.returncode == 2 and "cannot find missing.knock" in missing.stderr and not missing.stdout
    bad = [
        ["demo", "--preset", "nope", "-o", str(tmp_path / "x.knock")],
        ["demo", "--bots", "greedy,nobody", "-o", str(tmp_path / "x.knock")],
        ["demo", "--seed", "99999999999999999999999"],
        ["show", "missing.knock"],
        ["show", str(tmp_path)],
        ["redact", "missing.knock", "--seat", "0", "-o", str(tmp_path / "v.knock")],
        ["simulate", "--set", "target=100000000000000000000"],
        ["play", "--seat", "5"],
    ]
    for args in bad:
        done = knock(*args)
        assert done.returncode != 0
        assert "Traceback" not in done.stderr + done.stdout
        assert len(done.stderr.strip().splitlines()) == 1 and done.stderr.startswith("error: "), done.stderr


def test_spec_prints_or_writes_the_generated_diagrams(tmp_path: Path) -> None:
    assert knock("spec", "table", "--out", str(tmp_path / "t.md")).returncode == 0
    assert "| trigger |" in (tmp_path / "t.md").read_text(encoding="utf-8")
    assert knock("spec", "diagram").stdout == (ROOT / "spec" / "hand-machine.mmd").read_text(encoding="utf-8")
    match = knock("spec", "diagram", "--machine", "match").stdout
    assert match == (ROOT / "spec" / "match-machine.mmd").read_text(encoding="utf-8")


def test_simulate_summarises_and_logs_games_that_verify(tmp_path: Path) -> None:
    logs = tmp_path / "sim"
    done = knock(
        "simulate", "--games", "12", "--preset", "three_handed", "--bots", "heuristic,greedy,random",
        "--jobs", "2", "--logs", str(logs), "--set", "box_bonus=25", "--set", "undercut_on_tie=false",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for bot in ("heuristic", "greedy", "random"):
        assert bot in done.stdout
    assert "hands per game" in done.stdout and "win %" in done.stdout
    assert len(list(logs.glob("*.knock"))) == 12
    assert knock("verify", str(logs)).returncode == 0


def test_simulate_rejects_unknown_bots_and_options() -> None:
    for args in (["--bots", "heuristic,nobody"], ["--set", "no_such_option=1"], ["--set", "target"]):
        done = knock("simulate", "--games", "2", *args)
        assert done.returncode != 0 and "Traceback" not in done.stderr + done.stdout


def test_show_prints_names_as_written_and_shows_a_view(tmp_path: Path) -> None:
    from engine.match import Match
    from knock.bots import GreedyBot, play_match
    from replay.log import write_log

    game = play_match(Match.new(seed=3), [GreedyBot(), GreedyBot()])
    log = tmp_path / "names.knock"
    log.write_bytes(write_log(game, players=["[/b]eve", "[bold]x"]))
    shown = knock("show", str(log))
    assert shown.returncode == 0, shown.stderr
    assert "[/b]eve" in shown.stdout and "[bold]x" in shown.stdout
    view = tmp_path / "v.knock"
    assert knock("redact", str(log), "--seat", "1", "-o", str(view)).returncode == 0
    seen = knock("show", str(view))
    assert seen.returncode == 0 and "The view of" in seen.stdout and "draws from the stock" in seen.stdout
    assert "public replay" in knock("verify", str(view)).stdout
