"""The transition tables, the live ``transitions`` machines, the generated spec files and the code agree."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from transitions import Machine

from engine import fsm
from engine.actions import ACTION_TYPES, ENDINGS, Advise
from engine.fsm import HAND, MACHINE, MATCH, MATCH_MACHINE, SPECS, MachineSpec, MatchPhase, Phase
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
    for (*_, held), (*_, written) in zip(sorted(fsm.machine_rows(machine, spec.states), key=str),
                                         sorted(expected, key=str), strict=True):  # fmt: skip
        assert held is written, "the machine's conditions are the table's own guard objects"
    # Rows of one trigger and source are tried in table order.
    for trigger, event in machine.events.items():
        for source, trans in event.transitions.items():
            in_table = [r.dest.value for r in spec.table if r.trigger == trigger and r.source.name == source]
            assert [spec.states[str(t.dest)].value for t in trans] == in_table


@pytest.mark.parametrize(("spec", "machine", "model"), LIVE, ids=["hand", "match"])
def test_machine_has_no_back_doors(spec: MachineSpec, machine: Machine, model: type) -> None:
    assert not any(name.startswith("to_") for name in machine.events), "auto_transitions must be off"
    assert set(machine.states) == {p.name for p in spec.states}


@pytest.mark.parametrize("spec", SPECS, ids=["hand", "match"])
def test_guards_are_named_predicates_with_one_line_each(spec: MachineSpec) -> None:
    """Each guard carries its name, the line the spec prints (citing existing rules) and its predicate; one
    object per name."""
    guards = spec.guards()
    assert guards
    for g in guards:
        assert g.name.isidentifier() and g.func.__name__ == f"_{g.name}"  # private to engine.fsm, named by the table
        assert g.description and "\n" not in g.description
        cited = set(re.findall(r"[A-Z]+-\d+", g.description))
        assert cited and cited <= spec_rule_ids(), g.name
    by_name = {r.guard.name: r.guard for r in HAND.table + MATCH.table if r.guard}
    assert all(r.guard is by_name[r.guard.name] for r in spec.table if r.guard)
    text = (SPEC / "state-machine.md").read_text(encoding="utf-8")
    for g in guards:
        assert f"| {g.name} | {g.description} |" in text


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


@pytest.mark.parametrize("spec", SPECS, ids=["hand", "match"])
def test_the_librarys_own_diagram_has_the_same_edges(spec: MachineSpec) -> None:
    """``transitions``' Mermaid rendering (``GraphMachine``, ``graph_engine="mermaid"``) of the table, with the
    same guard objects, draws exactly the edges and guards of ``fsm.mermaid``. Knock keeps its own generator:
    the library's names the states by their enum names, merges the rows between two states into one edge
    (hiding the table's order), draws a registered model's current state and no final state."""
    from transitions.extensions.diagrams import GraphMachine

    class Model:
        """The library draws the machine of a registered model."""

    drawn = GraphMachine(model=Model(), states=list(spec.states), initial=spec.initial, auto_transitions=False,
                         graph_engine="mermaid", show_conditions=True)  # fmt: skip
    for r in spec.table:
        drawn.add_transition(r.trigger, r.source, r.dest, conditions=[r.guard] if r.guard else None)
    theirs = set()
    for line in drawn.get_graph().source.splitlines():
        if "-->" in line and "[*]" not in line:
            ends, labels = line.strip().split(": ", 1)
            source, dest = (spec.states[name].value for name in ends.split(" --> "))
            theirs |= {(source, dest, label) for label in labels.split(" | ")}
    ours = {
        (m[1], m[2], m[3]) for m in re.finditer(r"^    (\w+) --> (\w+): (.+)$", fsm.mermaid(spec), flags=re.MULTILINE)
    }
    assert theirs == ours


def test_transitions_json_is_the_tables() -> None:
    doc = json.loads((SPEC / "transitions.json").read_text(encoding="utf-8"))
    assert [m["machine"] for m in doc["machines"]] == [s.name for s in SPECS]
    for spec, m in zip(SPECS, doc["machines"], strict=True):
        assert m["initial"] == spec.initial.value and m["terminal"] == spec.terminal.value
        assert [(t["trigger"], t["source"], t["dest"], t["guard"], tuple(t["rules"])) for t in m["transitions"]] == [
            (r.trigger, r.source.value, r.dest.value, r.guard.name if r.guard else None, r.rules) for r in spec.table
        ]
        assert m["guards"] == {g.name: g.description for g in spec.guards()}


@pytest.mark.parametrize("spec", SPECS, ids=["hand", "match"])
def test_diagram_has_every_transition(spec: MachineSpec) -> None:
    diagram = (SPEC / f"{spec.name}-machine.mmd").read_text(encoding="utf-8")
    for r in spec.table:
        assert f"{r.source.value} --> {r.dest.value}: {r.trigger}" in diagram


def test_every_player_trigger_is_an_action_and_back() -> None:
    assert {t.trigger for t in ACTION_TYPES} == {r.trigger for r in HAND.table if r.actor == "player"}
    assert {r.trigger for r in MATCH.table if r.actor == "player"} == {Advise.trigger, *(t.trigger for t in ENDINGS)}


@pytest.mark.parametrize("row", HAND.table + MATCH.table, ids=lambda r: f"{r.trigger}:{r.source.value}->{r.dest.value}")
def test_tables_cite_only_existing_rules(row: fsm.Row) -> None:
    assert row.rules
    assert set(row.rules) <= spec_rule_ids()


def test_what_the_engine_knows_of_a_phase_is_derived_from_the_table() -> None:
    """The accepted triggers, the player phases, the kinds of action listed as legal, and the states the engine
    passes through by itself all come from the table."""
    from engine import hand as hand_module
    from engine import legal

    assert {p: {r.trigger for r in HAND.table if r.source is p} for p in Phase} == fsm.TRIGGERS
    assert {r.source for r in HAND.table if r.actor == "player"} == fsm.PLAYER_PHASES
    assert set(legal.MAKERS) == {r.trigger for r in HAND.table if r.actor == "player"}
    assert {p: set(makers) for p, makers in legal._BY_PHASE.items()} == {
        p: {legal.MAKERS[t] for t in fsm.PLAYER_TRIGGERS[p]} for p in fsm.PLAYER_PHASES
    }
    assert HAND.automatic() == {Phase.SCORE: "score", Phase.DEAD_HAND: "end_dead"}
    assert MATCH.automatic() == {MatchPhase.ROTATE: "rotate"}
    assert set(hand_module._STEP_EVENTS) == set(HAND.automatic().values())


@pytest.mark.parametrize(("spec", "machine", "model"), LIVE, ids=["hand", "match"])
def test_the_machines_callbacks_commit_then_take_the_dealers_steps(
    spec: MachineSpec, machine: Machine, model: type
) -> None:
    """One callback commits a step's events before the state changes; entering a state only the engine leaves
    takes its step; nothing else is attached (the compiled executor refuses any other kind)."""
    assert machine.before_state_change == [fsm.RECORD]
    for kind in ("prepare_event", "finalize_event", "after_state_change", "on_exception", "on_final"):
        assert not getattr(machine, kind), kind
    automatic = spec.automatic()
    for state in spec.states:
        held = machine.get_state(state.name)
        assert not held.on_exit
        hooks = [h for h in held.on_enter if isinstance(h, fsm.Hook)]
        assert hooks == held.on_enter
        assert hooks == ([fsm.step_hook(automatic[state])] if state in automatic else [])


def test_the_compiled_executor_is_the_library_machine() -> None:
    """The compiled lookup is read from the ``transitions`` machines: every (trigger, source) pair of the table,
    with the table's destinations and guards in the table's order, and the callbacks on entering each state."""
    for spec, machine in ((HAND, MACHINE), (MATCH, MATCH_MACHINE)):
        compiled = fsm.executor(spec.name, "compiled")
        assert isinstance(compiled, fsm.CompiledExecutor)
        assert compiled.record == (fsm.RECORD.method,) == ("_record",)
        enter = {
            s: tuple((h.method, h.args) for h in machine.get_state(s.name).on_enter if isinstance(h, fsm.Hook))
            for s in spec.states
        }
        from_table: dict[tuple[str, object], list[object]] = {}
        for r in spec.table:
            guards = (r.guard.func,) if r.guard else ()
            from_table.setdefault((r.trigger, r.source), []).append((r.dest, guards, enter[r.dest]))
        assert {k: list(v) for k, v in compiled.steps.items()} == from_table


def test_the_executor_is_chosen_per_game_and_kept_by_copies() -> None:
    import copy
    import pickle

    assert Hand.deal(seed=1).executor.name == "library"
    assert Match.new(seed=1).executor.name == "library"
    hand = Hand.deal(seed=1, executor="compiled")
    assert hand.copy().executor is hand.executor is fsm.executor("hand", "compiled")
    match = Match.new(seed=1, executor="compiled")
    other = Match.new(seed=1)
    assert match.hand is not None and match.hand.executor.name == "compiled"
    assert other.hand is not None and other.hand.executor.name == "library"
    for twin in (copy.deepcopy(match), pickle.loads(pickle.dumps(match))):
        assert twin.executor is match.executor and twin.hand is not None and twin.hand.executor is match.hand.executor
    with pytest.raises(ValueError, match="'library' or 'compiled'"):
        Hand.deal(seed=1, executor="fast")  # type: ignore[arg-type]
    assert not hasattr(fsm, "EXECUTOR") and not hasattr(fsm, "use_library_executor")


def test_a_game_with_the_defaults_calls_the_library_once_per_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """``transitions`` executes every step of a default game: ``Event.trigger`` once per step. Every event is
    one step's except the game's end (read from the state ``end_hand`` led to)."""
    from transitions.core import Event

    from engine.events import GameOver
    from engine.rules import RuleSet
    from knock.bots import Bot, GreedyBot, RandomBot, play_hand, play_match

    calls: list[str] = []
    real = Event.trigger

    def counted(self: Event, model: object, *args: object, **kwargs: object) -> bool:
        calls.append(self.name)
        return bool(real(self, model, *args, **kwargs))

    monkeypatch.setattr(Event, "trigger", counted)
    for preset in ("standard", "three_handed"):
        calls.clear()
        rules = RuleSet.preset(preset)
        bots: list[Bot] = [GreedyBot(), RandomBot(3), GreedyBot()]
        match = play_match(Match.new(rules, seed=3), bots[: rules.players])
        assert match.is_over and match.number > 1 and sum(isinstance(e, GameOver) for e in match.events) == 1
        assert len(calls) == len(match.events) - 1
        assert {"deal", "discard", "score", "draw_cut", "start", "end_hand", "rotate"} <= set(calls)
    calls.clear()
    hand = play_hand(Hand.deal(seed=5), [RandomBot(1), RandomBot(2)])
    assert hand.is_over and len(calls) == len(hand.events)
    calls.clear()
    play_match(Match.new(seed=3, executor="compiled"), [GreedyBot(), RandomBot(3)])
    assert calls == [], "the compiled executor does not go through the library"


@pytest.mark.rule("LOG-9")
@pytest.mark.parametrize("preset", ["standard", "oklahoma", "three_handed"])
def test_both_executors_play_the_same_games(preset: str) -> None:
    """The library executing every trigger itself gives the same games, event for event, as the compiled
    executor; so does an illegal step (both refuse it the same way)."""
    from engine.rules import RuleSet
    from knock.bots import Bot, GreedyBot, RandomBot, play_match

    def games(executor: fsm.ExecutorName) -> list[list[str]]:
        out = []
        for seed in range(6):
            rules = RuleSet.preset(preset, wall_pickup_to_knock=seed % 2 == 0, target=60)
            pool: list[Bot] = [RandomBot(seed), GreedyBot(), RandomBot(seed + 1)]
            bots = pool[: rules.players]
            out.append([repr(e) for e in play_match(Match.new(rules, seed=seed, executor=executor), bots).events])
        return out

    library = games("library")
    compiled = games("compiled")
    assert compiled == library


def test_a_step_the_machine_does_not_hold_is_an_internal_error() -> None:
    """Both executors turn a step outside the table into InternalError (validation should have refused it)."""
    from engine.errors import InternalError

    hand = Hand.deal(seed=3)
    key = hand.state_key()
    for name in fsm.EXECUTOR_NAMES:
        with pytest.raises(InternalError, match="discard"):
            fsm.executor("hand", name).fire(hand, "discard", None, [])
        with pytest.raises(InternalError, match="no_such_trigger"):
            fsm.executor("hand", name).fire(hand, "no_such_trigger", None, [])
    assert hand.state_key() == key


@pytest.mark.parametrize("name", fsm.EXECUTOR_NAMES)
def test_a_guard_refusing_a_checked_step_is_an_internal_error(name: fsm.ExecutorName) -> None:
    """A guard that returns False after validation passed is a bug: no row is taken and both executors say so."""
    import dataclasses

    from engine.errors import InternalError

    never = fsm.Guard("never", "never holds (TURN-1)", lambda model, arg: False)
    table = tuple(dataclasses.replace(r, guard=never) if r.trigger == "pass_upcard" else r for r in HAND.table)
    machine = fsm.build_machine(dataclasses.replace(HAND, table=table))
    run: fsm.Executor = (fsm.LibraryExecutor if name == "library" else fsm.CompiledExecutor)(HAND, machine)
    hand = Hand.deal(seed=3)
    with pytest.raises(InternalError, match="pass_upcard"):
        run.fire(hand, "pass_upcard", hand.legal_actions()[0], [])
    assert hand.phase is Phase.UPCARD_OFFER and len(hand.events) == 1


@pytest.mark.rule("DEAL-4", "MATCH-7")
@pytest.mark.parametrize("name", fsm.EXECUTOR_NAMES)
def test_an_error_in_a_dealers_step_reaches_the_caller_as_itself(name: fsm.ExecutorName) -> None:
    """A scripted game deals its next deck on entering ``rotate`` (a callback inside the ``end_hand`` step): a
    deck that is no deck raises ``InvalidDeal`` to the caller under both executors, not an ``InternalError``."""
    from engine.cards import cards, shuffled_deck
    from engine.errors import InvalidDeal
    from knock.bots import GreedyBot

    deck = shuffled_deck(1)
    match = Match.scripted(cuts=[cards("Ks 2c")], decks=[deck, deck[:51] + deck[:1]], executor=name)
    bot = GreedyBot()
    with pytest.raises(InvalidDeal, match="DEAL-4"):
        while match.hand is not None and (seat := match.to_act) is not None:
            match.apply(bot.choose(match.hand.observation(seat), match.legal_actions()))
    assert match.number == 1 and match.phase is MatchPhase.ROTATE and len(match.results) == 1


def test_guard_predicates_are_not_public_names() -> None:
    """The guards are the table's (``Row.guard``), not part of ``engine``'s or ``engine.fsm``'s public names."""
    import engine
    from engine import fsm

    guards = {g.name for spec in (HAND, MATCH) for g in spec.guards()}
    public = set(fsm.__all__) | set(engine.__all__) | {n for n in dir(fsm) if not n.startswith("_")}
    assert guards and not guards & public
