"""Cases for outside authors (spec/conformance.md, CONF-9 to CONF-14): rejections under any rule or one of
several, cases without rule ids, three-handed roles, the verb table, unassigned layoffs, option aliases, and
the worked examples of the spec."""

from __future__ import annotations

import dataclasses
import io
import json
import re
from pathlib import Path

import pytest

from engine.actions import parse_match_action
from engine.cards import Card, cards
from engine.match import Match
from engine.rules import RuleSet
from knock.conformance import (
    Case,
    CaseError,
    answer_case,
    compare,
    compile_case,
    default_suite,
    load_case,
    load_cases,
    rule_coverage,
    rule_ids,
)
from knock.conformance.aliases import OPTION_ALIASES, VERB_ALIASES, VERB_SPELLINGS, resolve
from knock.conformance.answer import deal
from replay.codec import T_LAYOFF, unpacked

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "spec" / "conformance.md").read_text(encoding="utf-8")

HAND = """
[[hand]]
p0 = "As 2s 3s 4s 5h 6h 7h 9c 9d 9h"
p1 = "2c 3d 4c 6d 8s Tc Jd Qs Kh Ks"
upcard = "Qh"
stock = "Kc ..."
actions = ACTIONS
"""
#: The game of lay/LAY-1-lay-off-onto-knocker-melds, up to the defender's answer.
LAYOFF = """
[[hand]]
p0 = "5s 6s 7s Kc Kd Kh 2c 3c 4c 3d"
p1 = "8s 9s 9h Th Jh 2d 4d 8d 9c Ks"
upcard = "5h"
stock = "Qd ..."
actions = ["p0 pass", "p1 pass", "p0 draw", "p0 knock Qd", "p0 spread 2c-3c-4c 5s-6s-7s Kc-Kd-Kh", "ANSWER"]
"""


def write(tmp_path: Path, text: str, name: str = "case.toml") -> Case:
    path = tmp_path / name
    path.write_text(text)
    return load_case(path)


def knock_over_the_limit(tmp_path: Path, expect: str) -> Case:
    """p0 knocks keeping 9d 9h Kc (28): the engine refuses under KNOCK-2."""
    actions = '["p0 pass", "p1 pass", "p0 draw", "p0 knock 9c"]'
    return write(tmp_path, 'rules = ["KNOCK-2"]\n' + HAND.replace("ACTIONS", actions) + expect)


def played(tmp_path: Path, text: str) -> Match:
    """The game of a case after all but its last action (for resolving the last one)."""
    case = write(tmp_path, text)
    match = deal(case, case.rule_set(), case.hands[0], None)
    for action in case.hands[0].actions[:-1]:
        match.apply(parse_match_action(resolve(match, action)))
    return match


# --- CONF-9: any rule, one of several ---------------------------------------------------------------------


@pytest.mark.rule("CONF-9")
@pytest.mark.parametrize(
    ("rule", "passes"),
    [
        ("", True),
        ('rule = "KNOCK-2"', True),
        ('rule = ["MELD-2", "KNOCK-2"]', True),
        ('rule = ["KNOCK-4", "MELD-2"]', False),
        ('rule = "KNOCK-4"', False),
    ],
)
def test_a_rejection_passes_under_any_rule_or_one_of_a_list(tmp_path: Path, rule: str, passes: bool) -> None:
    case = knock_over_the_limit(tmp_path, f'[expect]\noutcome = "reject"\n{rule}\n')
    problems = compare(case, answer_case(case), log=False)
    assert (problems == []) is passes, problems
    if rule.startswith("rule = ["):
        assert passes or problems == ['rule: expected one of ["KNOCK-4", "MELD-2"], got "KNOCK-2"']


@pytest.mark.rule("CONF-9")
def test_any_rule_still_checks_the_position(tmp_path: Path) -> None:
    case = knock_over_the_limit(tmp_path, '[expect]\noutcome = "reject"\n')
    early = dataclasses.replace(case, hands=(dataclasses.replace(case.hands[0], actions=case.hands[0].actions[:3]),))
    answer = answer_case(case)
    assert compare(early, answer, log=False) == ["position (hand, action): expected [1, 3], got [1, 4]"]


@pytest.mark.rule("CONF-9", "CONF-8")
def test_coverage_counts_a_reject_case_only_under_one_rule(tmp_path: Path) -> None:
    single = knock_over_the_limit(tmp_path, '[expect]\noutcome = "reject"\nrule = "KNOCK-2"\n')
    (tmp_path / "b").mkdir()
    several = knock_over_the_limit(tmp_path / "b", '[expect]\noutcome = "reject"\nrule = ["KNOCK-2", "MELD-2"]\n')
    (tmp_path / "c").mkdir()
    anyrule = knock_over_the_limit(tmp_path / "c", '[expect]\noutcome = "reject"\n')
    cov = rule_coverage([single, several, anyrule], ["KNOCK-2", "MELD-2"])
    assert list(cov.rows()) == [("KNOCK-2", 0, 1), ("MELD-2", 0, 0)]


# --- CONF-10: no rule ids -------------------------------------------------------------------------------------


@pytest.mark.rule("CONF-10")
def test_a_case_without_rules_runs_and_counts_for_nothing(tmp_path: Path) -> None:
    case = write(tmp_path, HAND.replace("ACTIONS", '["p0 pass"]') + '[expect]\noutcome = "accept"\n')
    assert case.rules == ()
    assert compare(case, answer_case(case), log=False) == []
    cov = rule_coverage([case], ["OFFER-1"])
    assert list(cov.rows()) == [("OFFER-1", 0, 0)]


@pytest.mark.rule("CONF-10", "CONF-2")
def test_the_rules_a_case_names_must_exist(tmp_path: Path) -> None:
    knock_over_the_limit(tmp_path, '[expect]\noutcome = "reject"\nrule = ["KNOCK-2", "KNOCK-99"]\n')
    invalid: list[CaseError] = []
    assert load_cases([tmp_path], invalid, set(rule_ids())) == []
    assert "KNOCK-99" in invalid[0].reason


# --- CONF-11: roles -------------------------------------------------------------------------------------------

THREE = """preset = "three_handed"
ROLES
[[hand]]
p1 = "As 2s 3s 4s 5h 6h 7h 9c 9d 9h"
p2 = "2c 3d 4c 6d 8s Tc Jd Qs Kh Ks"
upcard = "Qh"
[expect]
outcome = "accept"
"""


@pytest.mark.rule("CONF-11", "THREE-2")
@pytest.mark.parametrize(
    "roles",
    ['box = "p2"\ncaptain = "p1"\nsitter = "p0"', 'box = "p2"\ncaptain = "p1"', 'captain = "p1"\nsitter = "p0"'],
)
def test_roles_are_the_draw_that_gives_them(tmp_path: Path, roles: str) -> None:
    case = write(tmp_path, THREE.replace("ROLES", roles))
    assert case.draw == (cards("Js Qs Ks"),)
    assert case.hands[0].dealer == 2
    answer = answer_case(case)
    assert answer["hands"][0]["sitter"] == "p0" and answer["state"]["to_act"] == "p1"


@pytest.mark.rule("CONF-11")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        (THREE.replace("ROLES", 'box = "p2"'), "two or three different seats"),
        (THREE.replace("ROLES", 'box = "p2"\ncaptain = "p2"'), "two or three different seats"),
        (THREE.replace("ROLES", 'box = "p2"\ncaptain = "p1"\ndraw = ["Ks Qs Js"]'), "not both"),
        (THREE.replace("ROLES", 'box = "p2"\ncaptain = "p1"').replace("three_handed", "standard"), "three-handed"),
        (THREE.replace("ROLES", 'box = "p3"\ncaptain = "p1"'), "a seat is written"),
    ],
)
def test_roles_that_cannot_be_are_case_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CaseError, match=message):
        write(tmp_path, text)


# --- CONF-12: the verb table ----------------------------------------------------------------------------------


def table(heading: str) -> list[list[str]]:
    """The rows of the table that follows ``heading`` in spec/conformance.md, cell by cell."""
    start = SPEC.index(heading)
    rows = re.findall(r"^ *\|(.+)\|$", SPEC[start : SPEC.index("\n\n", SPEC.index("|---", start))], re.MULTILINE)
    return [[cell.strip() for cell in row.split("|")] for row in rows[2:]]


@pytest.mark.rule("CONF-12")
def test_the_verb_table_is_the_notation() -> None:
    rows = table("| verb | action |")
    verbs = [row[0].strip("`").split()[0] for row in rows]
    assert verbs == ["pass", "take", "draw", "pickup", "decline", "discard", "knock", "big-gin", "spread", "layoff",
                     "advise"]  # fmt: skip
    spelled = {re.sub(r"`", "", a): row[0].strip("`").split()[0] for row in rows for a in row[2].split(", ") if a}
    assert spelled == VERB_SPELLINGS
    assert {row[0].strip("`"): row[3].strip("`") for row in rows if row[3]} == VERB_ALIASES


@pytest.mark.rule("CONF-12", "OFFER-4", "TURN-2")
@pytest.mark.parametrize(
    ("before", "written", "meant"),
    [
        ([], "p0 pickup", "p0 take"),  # the upcard offer
        (["p0 pass"], "p1 PickUp", "p1 take"),
        ([], "p0 decline", "p0 pass"),
        (["p0 pass", "p1 pass", "p0 draw", "p0 discard Kc"], "p1 take", "p1 pickup"),
        (["p0 pass", "p1 pass"], "p0 take", "p0 take"),  # neither is legal (OFFER-4): the verb's own refusal
        (["p0 pass"], "p1 draw", "p1 draw"),
        (["p0 pass", "p1 pass", "p0 draw"], "p0 big_gin", "p0 big-gin"),
    ],
)
def test_verbs_mean_their_alias_where_only_that_is_legal(
    tmp_path: Path, before: list[str], written: str, meant: str
) -> None:
    match = played(tmp_path, HAND.replace("ACTIONS", json.dumps([*before, written])) + '[expect]\noutcome = "accept"\n')
    assert resolve(match, written) == meant


@pytest.mark.rule("CONF-12", "THREE-7")
def test_a_suggestion_is_resolved_as_the_advice_is_judged(tmp_path: Path) -> None:
    text = THREE.replace("ROLES", 'box = "p2"\ncaptain = "p1"').replace("[expect]", 'actions = ["p2 advise p1 X"]\n'
                                                                       "[expect]")  # fmt: skip
    match = played(tmp_path, text.replace("X", "pass"))
    assert resolve(match, "p0 advise p1 pickup") == "p0 advise p1 take"
    assert resolve(match, "p0 advise p1 decline") == "p0 advise p1 pass"


# --- CONF-13: unassigned layoffs ------------------------------------------------------------------------------


@pytest.mark.rule("CONF-13", "LAY-4", "LAY-5")
@pytest.mark.parametrize(
    ("answer", "meant"),
    [
        ("p1 layoff 9h-Th-Jh 9s 8s Ks", "p1 layoff 9h-Th-Jh 9s>5s-6s-7s 8s>5s-6s-7s Ks>Kc-Kd-Kh"),
        ("p1 layoff 9h-Th-Jh Ks>Kc-Kd-Kh 8s", "p1 layoff 9h-Th-Jh Ks>Kc-Kd-Kh 8s>5s-6s-7s"),
        ("p1 layoff 9h-Th-Jh 9s", "p1 layoff 9h-Th-Jh 9s>5s-6s-7s"),  # fits nowhere: onto the run of its suit
        ("p1 layoff 9h-Th-Jh 8d", "p1 layoff 9h-Th-Jh 8d>2c-3c-4c"),  # no meld could take it: the first
        ("p1 layoff 9h-Th-Jh 9s>5s-6s-7s", "p1 layoff 9h-Th-Jh 9s>5s-6s-7s"),  # nothing unassigned
    ],
)
def test_unassigned_layoffs_take_the_first_legal_assignment(tmp_path: Path, answer: str, meant: str) -> None:
    match = played(tmp_path, LAYOFF + '[expect]\noutcome = "accept"\n')
    assert resolve(match, answer) == meant


@pytest.mark.rule("CONF-13", "TURN-1")
def test_unassigned_layoffs_before_a_spread_are_left_out(tmp_path: Path) -> None:
    match = played(
        tmp_path, LAYOFF.replace('"p0 spread 2c-3c-4c 5s-6s-7s Kc-Kd-Kh", ', "") + '[expect]\noutcome = "accept"\n'
    )
    assert resolve(match, "p1 layoff 9h-Th-Jh 8s") == "p1 layoff 9h-Th-Jh"
    assert not match.is_legal(parse_match_action("p1 layoff 9h-Th-Jh"))


@pytest.mark.rule("CONF-13", "CONF-4", "LOG-2")
def test_the_log_form_records_the_assignment_found(tmp_path: Path) -> None:
    case = write(tmp_path, LAYOFF.replace("ANSWER", "p1 layoff 9h-Th-Jh Ks 9s 8s") + '[expect]\noutcome = "accept"\n')
    compiled = compile_case(case)
    assert compiled.data is not None
    (record,) = [v for v, _ in unpacked(io.BytesIO(compiled.data)) if isinstance(v, list) and v[0] == T_LAYOFF]
    layoffs = [f"{Card.from_index(c)}>{'-'.join(str(Card.from_index(i)) for i in meld)}" for c, meld in record[2]]
    assert layoffs == ["8s>5s-6s-7s", "9s>5s-6s-7s", "Ks>Kc-Kd-Kh"]


# --- CONF-14: option aliases ----------------------------------------------------------------------------------


@pytest.mark.rule("CONF-14", "RULES-2")
def test_the_option_table_is_every_option_with_its_aliases() -> None:
    rows = table("| option | default (RULES-2) | also accepted |")
    spec = {row[0].strip("`"): tuple(a.strip("`") for a in row[2].split(", ") if a) for row in rows}
    options = [f.name for f in dataclasses.fields(RuleSet) if f.name != "name"]
    assert list(OPTION_ALIASES) == options, (
        "every option of RuleSet has a row (add one to OPTION_ALIASES and the table)"
    )
    assert spec == OPTION_ALIASES, "spec/conformance.md's option table and notation.OPTION_ALIASES differ"
    names = [n for name, aliases in OPTION_ALIASES.items() for n in (name, *aliases)]
    assert len(names) == len(set(names)), "a name names two options"


@pytest.mark.rule("CONF-14", "OKLA-4")
def test_options_by_any_of_their_names(tmp_path: Path) -> None:
    text = 'options = { "Spade doubling" = true, "pickup-cap" = 3, target = 50, colour = "red" }\n'
    case = write(tmp_path, text + HAND.replace("ACTIONS", "[]") + '[expect]\noutcome = "accept"\n')
    assert case.options == {"spades_double": True, "max_consecutive_discard_pickups": 3, "target": 50, "colour": "red"}
    answer = answer_case(case)
    assert (answer["outcome"], answer["rule"], answer["hand"]) == ("reject", "RULES-2", 0)


@pytest.mark.rule("CONF-14")
def test_an_option_named_twice_is_a_case_error(tmp_path: Path) -> None:
    text = 'options = { spades_double = true, "spade doubling" = false }\n' + HAND.replace("ACTIONS", "[]")
    with pytest.raises(CaseError, match="spades_double is given twice"):
        write(tmp_path, text + '[expect]\noutcome = "accept"\n')


# --- the worked examples --------------------------------------------------------------------------------------


@pytest.mark.rule("CONF-2", "CONF-7", "CONF-9", "CONF-11", "CONF-13")
def test_the_worked_examples_are_suite_cases() -> None:
    """Each worked example of the spec is, word for word, the suite case its first line names; the suite runs it."""
    blocks = re.findall(r"```toml\n(.*?)```", SPEC[SPEC.index("## Worked examples") :], flags=re.DOTALL)
    assert len(blocks) == 6
    suite = {c.name: c for c in load_cases([default_suite() / "conf"])}
    for block in blocks:
        name = re.fullmatch(r"# cases/(\S+)\.toml", block.splitlines()[0])
        assert name, block.splitlines()[0]
        case = suite[name.group(1)]
        assert case.path.read_text(encoding="utf-8") == block
    kinds = {(c.players, c.outcome, c.reject_rules is None, c.tamper is not None) for c in suite.values()
             if c.name.startswith("conf/example")}  # fmt: skip
    assert {(2, "accept", True, False), (2, "reject", False, False), (3, "accept", True, False),
            (2, "reject", True, False), (2, "reject", False, True)} <= kinds  # fmt: skip
