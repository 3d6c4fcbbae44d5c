"""The transition table, the live ``transitions`` machine, the generated spec files and the code agree."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import fsm
from engine.actions import ACTION_TYPES
from engine.fsm import MACHINE, TABLE, Phase
from engine.hand import Hand

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"


def spec_rule_ids() -> set[str]:
    text = (SPEC / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", text, flags=re.MULTILINE))


def test_machine_holds_exactly_the_table() -> None:
    expected = [(r.trigger, r.source.value, r.dest.value, r.guard) for r in TABLE]
    assert sorted(fsm.machine_rows(MACHINE), key=str) == sorted(expected, key=str)
    # Rows of one trigger and source are tried in table order.
    for trigger, event in MACHINE.events.items():
        for source, trans in event.transitions.items():
            in_table = [r.dest.value for r in TABLE if r.trigger == trigger and r.source.name == source]
            assert [Phase[str(t.dest)].value for t in trans] == in_table


def test_machine_has_no_back_doors() -> None:
    assert not any(name.startswith("to_") for name in MACHINE.events), "auto_transitions must be off"
    assert set(MACHINE.states) == {p.name for p in Phase}


def test_generated_spec_files_are_current() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "gen_spec.py"), "--check"], capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_transitions_json_is_the_table() -> None:
    doc = json.loads((SPEC / "transitions.json").read_text(encoding="utf-8"))
    assert [(t["trigger"], t["source"], t["dest"], t["guard"], tuple(t["rules"])) for t in doc["transitions"]] == [
        (r.trigger, r.source.value, r.dest.value, r.guard, r.rules) for r in TABLE
    ]


def test_diagram_has_every_transition() -> None:
    diagram = (SPEC / "hand-machine.mmd").read_text(encoding="utf-8")
    for r in TABLE:
        assert f"{r.source.value} --> {r.dest.value}: {r.trigger}" in diagram


def test_every_state_is_reachable_and_every_row_is_used_by_a_trigger() -> None:
    reached = {fsm.INITIAL}
    changed = True
    while changed:
        changed = False
        for r in TABLE:
            if r.source in reached and r.dest not in reached:
                reached.add(r.dest)
                changed = True
    assert reached == set(Phase)
    for p in Phase:
        if p is not fsm.TERMINAL:
            assert fsm.TRIGGERS[p], f"{p} has no way out"


def test_guards_are_methods_of_the_hand() -> None:
    for r in TABLE:
        if r.guard:
            assert callable(getattr(Hand, r.guard, None)), r.guard


def test_every_player_trigger_is_an_action_and_back() -> None:
    player_triggers = {r.trigger for r in TABLE if r.actor == "player"}
    assert {t.trigger for t in ACTION_TYPES} == player_triggers


@pytest.mark.parametrize("row", TABLE, ids=lambda r: f"{r.trigger}:{r.source.value}->{r.dest.value}")
def test_table_cites_only_existing_rules(row: fsm.Row) -> None:
    assert row.rules
    assert set(row.rules) <= spec_rule_ids()
