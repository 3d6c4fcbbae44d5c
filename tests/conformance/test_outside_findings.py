"""What an outside author met writing cases from spec/conformance.md alone, fixed (issue #12): a malformed
``[tamper]`` is an invalid case, never a crash (CONF-2, CONF-7); a view of a game in progress is accepted so
far (CONF-5); a draw refused without a hand gets the same answer in both modes (CONF-3, CONF-4); a draw gives
the first dealer (CONF-2); the runner never stops on one case (CONF-2); coverage as CONF-9 says; the rule ids
listed in the spec's appendix (CONF-10); and the author's cases stay in the suite."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from knock.conformance import (
    Case,
    CaseError,
    answer_case,
    answer_log,
    compile_case,
    default_suite,
    load_case,
    load_cases,
    rule_coverage,
    rule_ids,
    run_case,
)
from knock.conformance import run as run_module

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "spec" / "conformance.md").read_text(encoding="utf-8")

#: p0 knocks and wins 17 (the hand of outside/standard/knock-layoffs-chain); the game goes on.
KNOCK = """title = "a knock"
OPTIONS
[[hand]]
p0 = "3h 4h 5h 6h 9c 9d 9s Ac 2d Qc"
p1 = "8h 9h Kc Kd Ks 4c 5c 6c Jd Qs"
upcard = "7h"
actions = ["p0 take", "p0 knock Qc", "p0 spread 3h-4h-5h-6h-7h 9c-9d-9s",
           "p1 layoff Kc-Kd-Ks 4c-5c-6c 8h>3h-4h-5h-6h-7h 9h>3h-4h-5h-6h-7h"]
[tamper]
TAMPER
[expect]
EXPECT
"""


def write(tmp_path: Path, text: str, name: str = "case.toml") -> Case:
    path = tmp_path / name
    path.write_text(text)
    return load_case(path)


def knock(tmp_path: Path, tamper: str, expect: str = 'outcome = "accept"', options: str = "") -> Case:
    text = KNOCK.replace("OPTIONS", options).replace("TAMPER", tamper).replace("EXPECT", expect)
    return write(tmp_path, text)


# --- CONF-7: [tamper] view is a seat, every edit checked for its form ---------------------------------------


@pytest.mark.rule("CONF-7", "LOG-11")
def test_a_view_is_a_seat_written_as_everywhere_or_as_its_number(tmp_path: Path) -> None:
    by_name = compile_case(knock(tmp_path, 'view = "p1"', options="options = { target = 10 }"))
    by_number = compile_case(knock(tmp_path, "view = 1", options="options = { target = 10 }"))
    assert by_name.data is not None and by_name.data == by_number.data
    answer = answer_log(by_name.data)
    assert (answer["view"], answer["game_over"], answer["winner"]) == ("p1", True, "p0")


@pytest.mark.rule("CONF-2", "CONF-7")
@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        ('view = "p2"', "a seat of this game, p0 to p1, not 'p2'"),
        ("view = 2", "a seat of this game, p0 to p1, not 2"),
        ("view = -1", "a seat of this game"),
        ('view = "one"', "a seat is written p0, p1 or p2"),
        ("view = true", "a seat is written p0, p1 or p2"),
        ("truncate = -3", "truncate is a whole number, 0 or more"),
        ('truncate = "3"', "truncate is a whole number"),
        ("truncate = { record = 3 }", "truncate is a table with record and keep"),
        ("truncate = { record = 3, keep = 1, at = 2 }", "unknown key(s) at"),
        ("delete = 1.5", "delete is a whole number"),
        ("flip = { byte = 2 }", "flip is a table with record"),
        ("flip = { record = 2, mask = 0 }", "flip mask is a byte, 1 to 255"),
        ("flip = { record = 2, mask = 256 }", "flip mask is a byte"),
        ("replace = { record = 2 }", "replace is a table with record and value"),
        ("replace = 2", "replace must be a table"),
        ("insert = { before = 2, value = 1979-05-27 }", "a log holds no date"),
        ('append = { bin = "zz" }', "bytes are written in hex"),
        ('append_bytes = "c"', "bytes are written in hex"),
        ("rechain = 1", "rechain is true or false"),
        ("header = 3", "header is a table"),
        ("colour = 1", "unknown key(s) colour"),
    ],
)
def test_a_malformed_tamper_is_an_invalid_case(tmp_path: Path, tamper: str, message: str) -> None:
    with pytest.raises(CaseError, match="CONF-2") as err:
        knock(tmp_path, tamper)
    assert message in err.value.reason


@pytest.mark.rule("CONF-2", "CONF-7")
@pytest.mark.parametrize(
    ("tamper", "message"),
    [
        ("delete = 40", "a record number 0..9, not 40"),
        ("flip = { record = 4, byte = 1 }", "record 4 has 1 bytes, no byte 1"),
        ("truncate = 100000", "the log has"),
        ("truncate = { record = 4, keep = 1 }", "record 4 has 1 bytes; keep fewer"),
        ("truncate = { record = 10, keep = 0 }", "a record number 0..9, not 10"),
    ],
)
def test_an_edit_the_log_cannot_take_fails_the_case_and_the_run_goes_on(
    tmp_path: Path, tamper: str, message: str
) -> None:
    case = knock(tmp_path, tamper)
    with pytest.raises(CaseError, match=re.escape(message)):
        compile_case(case)
    result = run_case(case)
    assert not result.passed and any(message in p for p in result.problems)


@pytest.mark.rule("CONF-7", "LOG-7")
def test_truncate_names_the_record_it_cuts_inside(tmp_path: Path) -> None:
    plain = compile_case(knock(tmp_path, ""))
    assert plain.data is not None
    inside = compile_case(knock(tmp_path, "truncate = { record = 3, keep = 10 }"))
    before = compile_case(knock(tmp_path, "truncate = { record = 4, keep = 0 }"))
    assert inside.data is not None and before.data is not None
    assert plain.data.startswith(inside.data) and plain.data.startswith(before.data)
    # The deal record is 56 bytes: a fixarray, its type, a bin8 and its length, 52 card codes.
    assert len(before.data) - len(inside.data) == 56 - 10
    assert answer_log(inside.data)["rule"] == "LOG-7" and answer_log(inside.data)["record"] == 3
    assert answer_log(before.data)["outcome"] == "accept"


@pytest.mark.rule("CONF-7", "CONF-3")
def test_a_log_case_is_placed_by_its_record_and_gives_no_stage(tmp_path: Path) -> None:
    with pytest.raises(CaseError, match="gives no stage"):
        knock(tmp_path, "truncate = 2", 'outcome = "reject"\nstage = "deal"\nrecord = 11')
    with pytest.raises(CaseError, match="gives its record"):
        knock(tmp_path, "truncate = 2", 'outcome = "reject"')
    no_actions = KNOCK.replace("actions = [", "x = [").replace("OPTIONS", "").replace("TAMPER", "truncate = 10")
    case = write(tmp_path, no_actions.replace("EXPECT", 'outcome = "reject"\nrule = "LOG-7"\nrecord = 3').replace(
        'x = ["p0 take", "p0 knock Qc", "p0 spread 3h-4h-5h-6h-7h 9c-9d-9s",\n           "p1 layoff Kc-Kd-Ks 4c-5c-6c '
        '8h>3h-4h-5h-6h-7h 9h>3h-4h-5h-6h-7h"]\n', ""))  # fmt: skip
    assert case.hands[0].actions == ()
    assert run_case(case).passed


# --- CONF-5: the view of a game in progress ------------------------------------------------------------------


@pytest.mark.rule("CONF-5", "CONF-7", "LOG-11", "LOG-13")
def test_the_view_of_a_game_in_progress_is_accepted_so_far(tmp_path: Path) -> None:
    case = knock(tmp_path, 'view = "p1"', 'outcome = "accept"\ngame_over = false\nscores = { p0 = 17, p1 = 0 }')
    compiled = compile_case(case)
    assert compiled.data is not None
    answer = answer_log(compiled.data)
    assert answer == {"outcome": "accept", "view": "p1", "scores": {"p0": 17, "p1": 0}, "game_over": False,
                      "winner": None}  # fmt: skip
    assert run_case(case).passed


# --- CONF-3, CONF-4: a draw refused without a hand ------------------------------------------------------------


DRAW_ONLY = """title = "a draw"
PRESET
draw = DRAW
[expect]
outcome = "reject"
stage = "draw"
"""


@pytest.mark.rule("CONF-3", "CONF-4", "MATCH-2", "MATCH-3", "LOG-13")
@pytest.mark.parametrize(
    ("preset", "draw", "rule"),
    [
        ("standard", '["Ks Ks"]', "MATCH-2"),
        ("standard", '["Ks Kh"]', "MATCH-3"),
        ("standard", '["Ks"]', "MATCH-2"),
        ("standard", '["Ks Kh", "Ks 2c"]', "MATCH-7"),
        ("three_handed", '["Ks Qs"]', "MATCH-2"),
        ("three_handed", '["Ks Kh 2c"]', "MATCH-3"),
    ],
)
def test_a_draw_refused_without_a_hand_gets_one_answer_in_both_modes(
    tmp_path: Path, preset: str, draw: str, rule: str
) -> None:
    case = write(tmp_path, DRAW_ONLY.replace("PRESET", f'preset = "{preset}"').replace("DRAW", draw))
    by_case = answer_case(case)
    assert (by_case["outcome"], by_case["rule"], by_case["hand"], by_case["action"]) == ("reject", rule, 0, 0)
    compiled = compile_case(case)
    assert compiled.data is not None
    by_log = answer_log(compiled.data)
    assert (by_log["outcome"], by_log["rule"], by_log["record"]) == ("reject", rule, compiled.expect["record"])
    # the last cut record, or, for a tie no round settles, the first hand's record after it (LOG-13)
    assert compiled.expect["record"] == len(case.cuts) + (rule == "MATCH-3")
    assert run_case(case).passed


@pytest.mark.rule("CONF-3", "CONF-4")
def test_a_draw_the_engine_accepts_without_a_hand_is_accepted_in_both_modes(tmp_path: Path) -> None:
    case = write(tmp_path, DRAW_ONLY.replace("PRESET", "").replace("DRAW", '["Ks 2c"]'))
    compiled = compile_case(case)
    assert compiled.data is not None
    assert answer_case(case)["outcome"] == answer_log(compiled.data)["outcome"] == "accept"
    assert not run_case(case).passed  # the case expects a rejection that does not come


# --- CONF-2: the draw gives the first dealer; a draw round never reached --------------------------------------


DRAWN = """title = "dealt after a draw"
PRESET
draw = DRAW
[[hand]]
DEALER
SEATS
upcard = "Qh"
[expect]
outcome = "accept"
"""
SEATS_01 = 'p0 = "As 2s 3s 4s 5h 6h 7h 9c 9d 9h"\np1 = "2c 3d 4c 6d 8s Tc Jd Qs Kh Ks"'
SEATS_02 = SEATS_01.replace("p1 =", "p2 =")


def drawn(tmp_path: Path, draw: str, dealer: str = "", seats: str = SEATS_01, preset: str = "") -> Case:
    text = DRAWN.replace("PRESET", preset).replace("DRAW", draw).replace("DEALER", dealer).replace("SEATS", seats)
    return write(tmp_path, text)


@pytest.mark.rule("CONF-2", "MATCH-2", "THREE-2")
@pytest.mark.parametrize(
    ("draw", "preset", "seats", "dealer"),
    [
        ('["Ks 2h"]', "", SEATS_01, 0),
        ('["2h Ks"]', "", SEATS_01, 1),
        ('["7c 7h", "Qd 3s"]', "", SEATS_01, 0),
        ('["Kh Ks"]', 'options = { cut_tiebreak = "suit_order" }', SEATS_01, 1),
        ('["Ks 2h Qd"]', 'preset = "three_handed"', SEATS_02, 0),
    ],
)
def test_a_draw_gives_the_first_dealer_when_the_case_names_none(
    tmp_path: Path, draw: str, preset: str, seats: str, dealer: int
) -> None:
    case = drawn(tmp_path, draw, seats=seats, preset=preset)
    assert case.hands[0].dealer == dealer
    result = run_case(case)
    assert result.passed, result.problems
    assert answer_case(case)["hands"][0]["dealer"] == f"p{dealer}"


@pytest.mark.rule("CONF-2", "CONF-11")
@pytest.mark.parametrize(
    ("draw", "dealer", "seats", "preset", "message"),
    [
        ('["Ks 2h"]', 'dealer = "p1"', SEATS_01, "", "the draw has p0 deal to p0 and p1"),
        ('["Ks 2h Qd"]', "", SEATS_01, 'preset = "three_handed"', "the draw has p0 deal to p0 and p2"),
        ('["Ks 2h", "3c 4c"]', "", SEATS_01, "", "round 2 is never drawn"),
    ],
)
def test_a_first_hand_the_draw_does_not_give_is_an_invalid_case(
    tmp_path: Path, draw: str, dealer: str, seats: str, preset: str, message: str
) -> None:
    with pytest.raises(CaseError, match=message):
        drawn(tmp_path, draw, dealer, seats, preset)


@pytest.mark.rule("CONF-11")
def test_roles_given_deal_from_the_box_and_no_one_else(tmp_path: Path) -> None:
    text = DRAWN.replace("draw = DRAW", 'box = "p2"\ncaptain = "p0"').replace("PRESET", 'preset = "three_handed"')
    case = write(tmp_path, text.replace("DEALER", "").replace("SEATS", SEATS_02))
    assert case.hands[0].dealer == 2
    with pytest.raises(CaseError, match="the draw has p2 deal to p0 and p2"):
        write(tmp_path, text.replace("DEALER", 'dealer = "p0"').replace("SEATS", SEATS_02))


# --- CONF-2: the runner never stops on one case -----------------------------------------------------------


@pytest.mark.rule("CONF-2")
def test_an_error_nothing_expects_fails_its_case_and_no_other(tmp_path: Path, monkeypatch: Any) -> None:
    case = knock(tmp_path, "")
    assert run_case(case).passed

    def broken(*_: Any, **__: Any) -> dict[str, Any]:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(run_module, "answer_case", broken)
    result = run_case(case.__class__(**{**case.__dict__, "tamper": None}))
    assert not result.passed and result.modes["case"] == "fail"
    assert result.problems == ["internal error (a bug in Knock): ZeroDivisionError: a bug"]


@pytest.mark.rule("CONF-2", "CONF-7")
def test_the_command_reports_a_case_with_a_bad_view_and_runs_the_others(tmp_path: Path) -> None:
    good = KNOCK.replace("OPTIONS", "").replace("TAMPER", 'view = "p1"').replace("EXPECT", 'outcome = "accept"')
    (tmp_path / "good.toml").write_text(good)
    (tmp_path / "bad.toml").write_text(good.replace('view = "p1"', 'view = "p7"'))
    done = subprocess.run([sys.executable, "-m", "knock.cli", "conform", "run", str(tmp_path)], capture_output=True,
                          text=True, env={"COLUMNS": "200", "PATH": ""}, check=False)  # fmt: skip
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "1 of 2 cases pass" in done.stdout and "a seat is written p0, p1 or p2, not 'p7'" in done.stdout


# --- CONF-9, CONF-8: a reject case counts for its one rule, listed or not -----------------------------------


@pytest.mark.rule("CONF-8", "CONF-9")
def test_a_reject_case_counts_for_its_one_rule_whether_or_not_rules_lists_it(tmp_path: Path) -> None:
    text = KNOCK.replace("OPTIONS", 'rules = ["OFFER-3"]').replace("[tamper]\nTAMPER\n", "").replace(
        '"p0 knock Qc"', '"p0 discard 7h"').replace("EXPECT", 'outcome = "reject"\nrule = "TURN-4"')  # fmt: skip
    text = text.replace(', "p0 spread 3h-4h-5h-6h-7h 9c-9d-9s",', "]\n#").replace(
        '           "p1 layoff', '#"p1 layoff')  # fmt: skip
    case = write(tmp_path, text)
    assert case.hands[0].actions == ("p0 take", "p0 discard 7h") and run_case(case).passed
    cov = rule_coverage([case], ["OFFER-3", "TURN-4"])
    assert list(cov.rows()) == [("OFFER-3", 1, 0), ("TURN-4", 0, 1)]


# --- CONF-10: the rule ids, in the spec itself ------------------------------------------------------------


@pytest.mark.rule("CONF-10")
def test_the_spec_lists_every_rule_id_a_case_may_name() -> None:
    appendix = SPEC[SPEC.index("## Appendix: the rule ids") :]
    listed = re.findall(r"^\| `([A-Z]+-\d+)` \| [^|]+ \| .+ \|$", appendix, flags=re.MULTILINE)
    assert listed == rule_ids()


# --- the outside author's folder ------------------------------------------------------------------------


@pytest.mark.rule("CONF-1", "CONF-5")
def test_the_outside_authors_cases_are_in_the_suite_and_pass() -> None:
    """The folder a session wrote from spec/conformance.md alone (issue #12), its reproducers included; the
    whole suite's run covers each case in both modes (tests/conformance/test_conformance.py)."""
    cases = load_cases([default_suite() / "outside"])
    names = {c.name for c in cases}
    assert len(cases) == 26 and all(n.startswith("outside/") for n in names)
    assert {
        "outside/reproducers/view-seat-name",
        "outside/reproducers/draw-reject-without-hand",
        "outside/reproducers/draw-tie-without-redraw",
        "outside/reproducers/draw-default-dealer",
    } <= names
    actions = [a for c in cases for h in c.hands for a in h.actions]
    kinds = {
        "three-handed with roles": any(c.players == 3 and "\nbox = " in c.path.read_text() for c in cases),
        "unassigned layoffs": any(re.search(r"layoff .* [2-9TJQKA][cdhs](\s|$)", a) for a in actions),
        "any-rule reject": any(c.outcome == "reject" and c.reject_rules is None for c in cases),
        "a log case": any(c.tamper is not None for c in cases),
    }
    assert all(kinds.values()), kinds
