"""One consistent command line: help on every command, the same flags for the same things, one-line errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.rules import options
from knock.cli.common import app, expand_optional
from tests.cli.support import run as knock
from tests.cli.test_cli import GOLDEN

#: Every command, as typed after ``knock``.
COMMANDS = [["demo"], ["simulate"], ["play"], ["verify"], ["export"], ["show"], ["redact"], ["spec"], ["rules"],
            ["conform"], ["conform", "run"], ["conform", "coverage"], ["conform", "answer"], ["arena"]]  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_plain_help_with_h_and_help(command: list[str]) -> None:
    short, long = knock(*command, "-h"), knock(*command, "--help")
    assert short.returncode == 0 and short.stdout == long.stdout, short.stderr
    text = short.stdout
    assert text.startswith(f"Usage: knock {' '.join(command)}")
    for typer_artefact in ("<bool>", "<int", "<str>", "<text>", "<list", "<path>", "[0<=x", "x>=", "╭", "{"):
        assert typer_artefact not in text, f"{typer_artefact!r} in the help of knock {' '.join(command)}"
    if command != ["conform"]:
        assert "Example: knock" in text


def test_knock_alone_prints_help_and_version_is_there() -> None:
    alone = knock()
    assert alone.returncode == 0 and alone.stdout.startswith("Usage: knock") and alone.stderr == ""
    conform = knock("conform")
    assert conform.returncode == 0 and "run" in conform.stdout and conform.stderr == ""
    version = knock("--version")
    assert version.returncode == 0 and re.fullmatch(r"knock \d+\.\d+\.\d+\n", version.stdout)


def help_of(*command: str) -> str:
    return " ".join(knock(*command, "-h").stdout.split())


def test_choices_are_listed_in_help() -> None:
    assert "standard | oklahoma | three_handed" in help_of("demo")
    assert "heuristic, greedy, random" in help_of("simulate")
    spec = help_of("spec")
    assert "[diagram|table]" in spec and "hand | match" in spec
    assert "--json[=FILE]" in knock("verify", "-h").stdout and "--json[=FILE]" in knock("conform", "run", "-h").stdout


def test_the_same_flags_name_the_same_things() -> None:
    """-o/--out for one output, --json[=FILE], -q/--quiet, --seed, --preset and --set: one spelling each."""
    spellings: dict[str, set[str]] = {}
    for command in app.registered_commands:
        assert command.callback is not None
        help_text = knock(command.name or command.callback.__name__, "-h").stdout
        for flag in re.findall(r"^\s+((?:-\w, )?--[\w-]+)", help_text, re.MULTILINE):
            spellings.setdefault(flag.split()[-1], set()).add(flag)
    assert spellings["--out"] == {"-o, --out"} and spellings["--quiet"] == {"-q, --quiet"}
    assert "--log" not in spellings or spellings.get("--log") == {"--log"}  # play's (owned by its own issue)
    for name in ("demo", "simulate", "play", "rules"):
        preset = re.search(r"--preset \S+ (.*?)(?= -)", help_of(name).split("Options:", 1)[1])
        assert preset and "[default: standard]" in preset.group(1), name


def test_json_takes_its_file_only_after_an_equals_sign(tmp_path: Path) -> None:
    assert expand_optional(["verify", "--json", "out/"]) == ["verify", "--json=-", "out/"]
    assert expand_optional(["verify", "--json=x.json", "--", "--json"]) == ["verify", "--json=x.json", "--", "--json"]
    log = str(GOLDEN / "standard-1.knock")
    to_stdout = knock("verify", "--json", log)
    assert to_stdout.returncode == 0 and json.loads(to_stdout.stdout)["verdict"] == "pass"
    target = tmp_path / "v" / "verdicts.jsonl"
    to_file = knock("verify", f"--json={target}", log)
    assert to_file.returncode == 0 and "pass" in to_file.stdout
    assert json.loads(target.read_text())["path"] == log


@pytest.mark.rule("RULES-2")
def test_knock_rules_lists_every_option_with_its_values_default_and_rule() -> None:
    shown = knock("rules")
    assert shown.returncode == 0, shown.stderr
    for option in options():
        assert re.search(rf"^\s*{option.name}\s", shown.stdout, re.MULTILINE), option.name
    listed = [json.loads(line) for line in knock("rules", "--preset", "oklahoma", "--json").stdout.splitlines()]
    assert [o["option"] for o in listed] == [o.name for o in options()]
    by_name = {o["option"]: o for o in listed}
    assert by_name["knock_limit"] == {"option": "knock_limit", "values": "fixed | upcard", "default": "upcard",
                                      "rule": "KNOCK-3", "summary": by_name["knock_limit"]["summary"]}  # fmt: skip
    assert by_name["max_consecutive_discard_pickups"]["values"] == "none | 1..1000"


def test_logs_in_a_folder_are_listed_in_natural_order(tmp_path: Path) -> None:
    data = (GOLDEN / "standard-1.knock").read_bytes()
    for n in (10, 2, 1):
        (tmp_path / f"game-{n}.knock").write_bytes(data)
    out = knock("verify", str(tmp_path)).stdout
    assert [Path(line.split()[1].rstrip(":")).name for line in out.splitlines()[:3]] == [
        "game-1.knock", "game-2.knock", "game-10.knock"
    ]  # fmt: skip


def test_plurals_read_right(tmp_path: Path) -> None:
    one = knock("demo", "--summary", "--set", "target=1", "--seed", "3", "-o", str(tmp_path / "one.knock"))
    assert one.returncode == 0, one.stderr
    assert re.search(r"after 1 hand;", one.stdout) and "1 hands" not in one.stdout
    assert "1 hands" not in knock("verify", str(tmp_path / "one.knock")).stdout


def test_bot_names_are_read_in_any_case() -> None:
    done = knock("demo", "--bots", "Heuristic, GREEDY", "--summary", "--seed", "3", "--set", "target=10")
    assert done.returncode == 0, done.stderr
    assert "heuristic" in done.stdout and "greedy" in done.stdout and "GREEDY" not in done.stdout


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["demo", "--bots", "heuristic,greedy,random"], "3 bots for 2 seats"),
        (["simulate", "--games", "2", "--bots", "random,random,random"], "3 bots for 2 seats"),
        (["demo", "--bots", "heuristic,nobody"], "no bot 'nobody'"),
        (["demo", "--preset", "nope"], "no preset 'nope'; presets: standard, oklahoma, three_handed"),
        (["demo", "--set", "targt=50"], "no rule-set option 'targt'"),
        (["simulate", "--games", "0"], "'0' is not a whole number of at least 1"),
        (["demo", "--seed", "-1"], "'-1' is not a whole number"),
        (["show", "/nope/missing.knock"], "cannot find /nope/missing.knock: no such file or directory"),
        (["spec", "picture"], "no form 'picture'"),
    ],
)
def test_a_mistake_is_one_line_without_a_rule_id_unless_it_is_about_the_rules(args: list[str], says: str) -> None:
    done = knock(*args)
    assert done.returncode in (1, 2) and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and says in lines[0], done.stderr
    assert not re.search(r"\b[A-Z]+-\d+:", lines[0]), lines[0]  # a typing mistake is not a broken rule
    assert "Errno" not in lines[0]


@pytest.mark.rule("RULES-2")
def test_a_value_the_rules_refuse_names_the_rule() -> None:
    done = knock("demo", "--set", "target=0")
    assert done.returncode == 2 and "RULES-2: target must be a whole number from 1 to 1,000,000; got '0'" in done.stderr
    words = knock("demo", "--set", "gin_bonus=abc")
    assert "RULES-2: gin_bonus must be a whole number from 0 to 1,000,000; got 'abc'" in words.stderr
    choices = knock("simulate", "--set", "shutout=nope")
    assert "shutout must be none, double_total, flat_100, double_game_bonus or double_hand_points" in choices.stderr
    flag = knock("demo", "--set", "spades_double=7")
    assert "RULES-2: spades_double must be true or false; got '7'" in flag.stderr


def test_fewer_bots_than_seats_are_repeated_in_seat_order(tmp_path: Path) -> None:
    done = knock("demo", "--preset", "three_handed", "--bots", "greedy", "--summary", "-o", str(tmp_path / "g.knock"))
    assert done.returncode == 0, done.stderr
    assert "p0 = greedy#0, p1 = greedy#1, p2 = greedy#2" in done.stdout
