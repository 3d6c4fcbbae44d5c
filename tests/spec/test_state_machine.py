"""The transition tables, the live ``transitions`` machines, the generated spec files and the code agree."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from transitions import Machine

from engine import fsm
from engine.actions import ACTION_TYPES, Advise
from engine.fsm import HAND, MACHINE, MATCH, MATCH_MACHINE, SPECS, MachineSpec
from engine.hand import Hand
from engine.match import Match
from tests.helpers import tool_check

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "spec"
LIVE: list[tuple[MachineSpec, Machine, type]] = [(HAND, MACHINE, Hand), (MATCH, MATCH_MACHINE, Match)]


def spec_rule_ids() -> set[str]:
    text = (SPEC / "rules.md").read_text(encoding="utf-8")
    return set(re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", text, flags=re.MULTILINE))


@pytest.mark.parametrize(("spec", "machine", "model"), LIVE, ids=["hand", "match"])
def test_machine_holds_exactly_the_table(spec: MachineSpec, machine: Machine, model: type) -> None:
    expected = [(r.trigger, r.source.value, r.dest.value, r.guard) for r in spec.table]
    assert sorted(fsm.machine_rows(machine, spec.states), key=str) == sorted(expected, key=str)
    # Rows of one trigger and source are tried in table order.
    for trigger, event in machine.events.items():
        for source, trans in event.transitions.items():
            in_table = [r.dest.value for r in spec.table if r.trigger == trigger and r.source.name == source]
            assert [spec.states[str(t.dest)].value for t in trans] == in_table


@pytest.mark.parametrize(("spec", "machine", "model"), LIVE, ids=["hand", "match"])
def test_machine_has_no_back_doors(spec: MachineSpec, machine: Machine, model: type) -> None:
    assert not any(name.startswith("to_") for name in machine.events), "auto_transitions must be off"
    assert set(machine.states) == {p.name for p in spec.states}


@pytest.mark.parametrize(("spec", "machine", "model"), LIVE, ids=["hand", "match"])
def test_guards_are_methods_of_the_model(spec: MachineSpec, machine: Machine, model: type) -> None:
    for r in spec.table:
        if r.guard:
            assert callable(getattr(model, r.guard, None)), r.guard


@pytest.mark.parametrize("spec", SPECS, ids=["hand", "match"])
def test_every_state_is_reachable_and_has_a_way_out(spec: MachineSpec) -> None:
    reached = {spec.initial}
    changed = True
    while changed:
        changed = False
        for r in spec.table:
            if r.source in reached and r.dest not in reached:
                reached.add(r.dest)
                changed = True
    assert reached == set(spec.states)
    for p in spec.states:
        if p is not spec.terminal:
            assert any(r.source is p for r in spec.table), f"{p} has no way out"


def test_generated_spec_files_are_current() -> None:
    tool_check("gen_spec.py")


def test_transitions_json_is_the_tables() -> None:
    doc = json.loads((SPEC / "transitions.json").read_text(encoding="utf-8"))
    assert [m["machine"] for m in doc["machines"]] == [s.name for s in SPECS]
    for spec, m in zip(SPECS, doc["machines"], strict=True):
        assert m["initial"] == spec.initial.value and m["terminal"] == spec.terminal.value
        assert [(t["trigger"], t["source"], t["dest"], t["guard"], tuple(t["rules"])) for t in m["transitions"]] == [
            (r.trigger, r.source.value, r.dest.value, r.guard, r.rules) for r in spec.table
        ]


@pytest.mark.parametrize("spec", SPECS, ids=["hand", "match"])
def test_diagram_has_every_transition(spec: MachineSpec) -> None:
    diagram = (SPEC / f"{spec.name}-machine.mmd").read_text(encoding="utf-8")
    for r in spec.table:
        assert f"{r.source.value} --> {r.dest.value}: {r.trigger}" in diagram


def test_every_player_trigger_is_an_action_and_back() -> None:
    assert {t.trigger for t in ACTION_TYPES} == {r.trigger for r in HAND.table if r.actor == "player"}
    assert {r.trigger for r in MATCH.table if r.actor == "player"} == {Advise.trigger}


@pytest.mark.parametrize("row", HAND.table + MATCH.table, ids=lambda r: f"{r.trigger}:{r.source.value}->{r.dest.value}")
def test_tables_cite_only_existing_rules(row: fsm.Row) -> None:
    assert row.rules
    assert set(row.rules) <= spec_rule_ids()


def test_the_compiled_executor_is_the_library_machine() -> None:
    """fsm.COMPILED is read from the ``transitions`` machines: every (trigger, source) pair of the table, with
    the table's destinations and guards in the table's order."""
    for spec, machine in ((HAND, MACHINE), (MATCH, MATCH_MACHINE)):
        compiled = fsm.COMPILED[id(machine)]
        from_table: dict[tuple[str, object], list[tuple[object, tuple[tuple[str, bool], ...]]]] = {}
        for r in spec.table:
            from_table.setdefault((r.trigger, r.source), []).append((r.dest, ((r.guard, True),) if r.guard else ()))
        assert {k: list(v) for k, v in compiled.items()} == from_table


@pytest.mark.rule("LOG-9")
@pytest.mark.parametrize("preset", ["standard", "oklahoma", "three_handed"])
def test_both_executors_play_the_same_games(preset: str) -> None:
    """The library executing every trigger itself gives the same games, event for event, as the compiled
    executor; so does an illegal step (both refuse it the same way)."""
    from engine.bots import Bot, GreedyBot, RandomBot, play_match
    from engine.rules import RuleSet

    def games() -> list[list[str]]:
        out = []
        for seed in range(6):
            rules = RuleSet.preset(preset, wall_pickup_to_knock=seed % 2 == 0, target=60)
            pool: list[Bot] = [RandomBot(seed), GreedyBot(), RandomBot(seed + 1)]
            bots = pool[: rules.players]
            out.append([repr(e) for e in play_match(Match.new(rules, seed=seed), bots).events])
        return out

    assert fsm.EXECUTOR == "compiled"
    compiled = games()
    try:
        fsm.use_library_executor()
        library = games()
    finally:
        fsm.use_library_executor(False)
    assert compiled == library


def test_a_step_the_machine_does_not_hold_is_an_internal_error() -> None:
    """Both executors turn a step outside the table into InternalError (validation should have refused it)."""
    from engine.errors import InternalError

    hand = Hand.deal(seed=3)
    for library in (False, True):
        fsm.use_library_executor(library)
        try:
            with pytest.raises(InternalError, match="discard"):
                fsm.fire(MACHINE, hand, "discard", None)
        finally:
            fsm.use_library_executor(False)
    assert hand.phase is fsm.Phase.UPCARD_OFFER
