"""The state machines — one for a hand, one for a match — written once as data.

``HAND`` and ``MATCH`` are the single source of truth: each builds its shared ``transitions.Machine``,
and ``tools/gen_spec.py`` writes them into ``spec/transitions.json``, the tables in
``spec/state-machine.md`` and the Mermaid diagrams ``spec/hand-machine.mmd`` and
``spec/match-machine.mmd``. ``tests/spec`` fails when any of them drift.
"""

from __future__ import annotations

import enum
import json
import logging
from dataclasses import dataclass
from typing import Any

from transitions import Machine

from engine.errors import InternalError


class Phase(enum.Enum):
    """The states of one hand."""

    DEAL = "deal"
    UPCARD_OFFER = "upcard_offer"
    DRAW = "draw"
    DISCARD = "discard"
    WALL = "wall"
    KNOCK = "knock"
    LAYOFF = "layoff"
    SCORE = "score"
    DEAD_HAND = "dead_hand"
    HAND_OVER = "hand_over"

    __hash__ = object.__hash__  # members are singletons compared by identity; the default hashes the name


class MatchPhase(enum.Enum):
    """The states of a match (a game to the target)."""

    CUT = "cut"
    HAND = "hand"
    ROTATE = "rotate"
    GAME_OVER = "game_over"

    __hash__ = object.__hash__


@dataclass(frozen=True, slots=True)
class Row:
    """One transition: ``trigger`` moves ``source`` to ``dest`` when ``guard`` (a named predicate) holds.

    ``actor`` is ``player`` (an action) or ``engine`` (a dealer step the engine takes by itself).
    Rows of one trigger and source are tried in table order.
    """

    trigger: str
    source: Any
    dest: Any
    guard: str | None
    actor: str
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "trigger": self.trigger,
            "source": self.source.value,
            "dest": self.dest.value,
            "guard": self.guard,
            "actor": self.actor,
            "rules": list(self.rules),
        }


@dataclass(frozen=True, slots=True)
class MachineSpec:
    """A machine as data: its states, initial and terminal state, and its transition table."""

    name: str
    states: type[enum.Enum]
    initial: enum.Enum
    terminal: enum.Enum
    table: tuple[Row, ...]


P = Phase
TABLE: tuple[Row, ...] = (
    Row("deal", P.DEAL, P.UPCARD_OFFER, None, "engine", ("DEAL-1", "DEAL-3", "KNOCK-3", "OKLA-1")),
    Row("pass_upcard", P.UPCARD_OFFER, P.UPCARD_OFFER, "non_dealer_acts", "player", ("OFFER-1", "OFFER-2")),
    Row("pass_upcard", P.UPCARD_OFFER, P.DRAW, "dealer_acts", "player", ("OFFER-2", "OFFER-4")),
    Row("take_upcard", P.UPCARD_OFFER, P.DISCARD, None, "player", ("OFFER-1", "OFFER-3")),
    Row("draw_stock", P.DRAW, P.DISCARD, None, "player", ("TURN-2",)),
    Row("draw_discard", P.DRAW, P.DISCARD, None, "player", ("TURN-2", "OFFER-4")),
    Row("discard", P.DISCARD, P.DRAW, "play_goes_on", "player", ("TURN-2", "TURN-3", "TURN-4")),
    Row("discard", P.DISCARD, P.DEAD_HAND, "hand_dies", "player", ("DEAD-1", "DEAD-3")),
    Row("discard", P.DISCARD, P.WALL, "wall_offered", "player", ("DEAD-2",)),
    Row("knock", P.DISCARD, P.KNOCK, None, "player", ("KNOCK-1", "KNOCK-2", "TURN-4")),
    Row("big_gin", P.DISCARD, P.KNOCK, None, "player", ("KNOCK-6",)),
    Row("draw_discard", P.WALL, P.DISCARD, None, "player", ("DEAD-2",)),
    Row("decline_wall", P.WALL, P.DEAD_HAND, None, "player", ("DEAD-2",)),
    Row("spread", P.KNOCK, P.SCORE, "spread_is_gin", "player", ("KNOCK-5", "LAY-2")),
    Row("spread", P.KNOCK, P.LAYOFF, None, "player", ("KNOCK-4", "LAY-1")),
    Row("lay_off", P.LAYOFF, P.SCORE, None, "player", ("LAY-5", "LAY-6")),
    Row("score", P.SCORE, P.HAND_OVER, None, "engine", ("SCORE-1", "SCORE-2", "SCORE-3", "SCORE-4", "SCORE-5")),
    Row("end_dead", P.DEAD_HAND, P.HAND_OVER, None, "engine", ("DEAD-1",)),
)

M = MatchPhase
MATCH_TABLE: tuple[Row, ...] = (
    Row("draw_cut", M.CUT, M.CUT, None, "engine", ("MATCH-2", "MATCH-3", "THREE-2")),
    Row("start", M.CUT, M.HAND, None, "engine", ("MATCH-2", "THREE-2", "THREE-3")),
    Row("advise", M.HAND, M.HAND, None, "player", ("THREE-7",)),
    Row("end_hand", M.HAND, M.ROTATE, None, "engine", ("MATCH-1", "THREE-6", "BONUS-1")),
    Row("rotate", M.ROTATE, M.GAME_OVER, "game_won", "engine", ("MATCH-1", "MATCH-6", "BONUS-2", "BONUS-3", "BONUS-4")),
    Row("rotate", M.ROTATE, M.HAND, None, "engine", ("MATCH-4", "MATCH-5", "THREE-4", "THREE-5")),
)

HAND = MachineSpec("hand", Phase, Phase.DEAL, Phase.HAND_OVER, TABLE)
MATCH = MachineSpec("match", MatchPhase, MatchPhase.CUT, MatchPhase.GAME_OVER, MATCH_TABLE)
SPECS = (HAND, MATCH)

#: The triggers each phase accepts, derived from the table.
TRIGGERS: dict[Phase, frozenset[str]] = {
    phase: frozenset(r.trigger for r in TABLE if r.source is phase) for phase in Phase
}
#: Phases in which a player is to act.
PLAYER_PHASES: frozenset[Phase] = frozenset(r.source for r in TABLE if r.actor == "player")
TERMINAL: Phase = Phase.HAND_OVER
INITIAL: Phase = Phase.DEAL


def build_machine(spec: MachineSpec) -> Machine:
    """The ``transitions`` machine for a table. Models are driven through it without being registered
    (so a live game carries no per-game bound methods and the machine keeps no reference to it).
    """
    # The library logs at every step of every trigger (debug) and warns for every skipped convenience
    # binding (we bind none on purpose); neither tells an embedder anything, and both cost time per action.
    library_log = logging.getLogger("transitions.core")
    library_log.setLevel(logging.ERROR)
    library_log.disabled = True
    machine = Machine(
        model=None,
        states=list(spec.states),
        initial=spec.initial,
        auto_transitions=False,
        model_attribute="phase",
        send_event=False,
        ignore_invalid_triggers=False,
        name=spec.name,
    )
    for r in spec.table:
        machine.add_transition(r.trigger, r.source, r.dest, conditions=[r.guard] if r.guard else None)
    return machine


MACHINE: Machine = build_machine(HAND)
MATCH_MACHINE: Machine = build_machine(MATCH)


#: A step the compiled executor takes: the destination and the guards (name, required outcome), in order.
Step = tuple[enum.Enum, tuple[tuple[str, bool], ...]]


def compile_machine(machine: Machine, states: type[enum.Enum]) -> dict[tuple[str, enum.Enum], tuple[Step, ...]]:
    """The ``transitions`` machine's own transitions as a lookup: (trigger, source) -> the candidate steps in
    the library's order, each with its destination and its conditions. Read from the built machine (not from
    the table), so it executes exactly what the library holds; ``tests/spec/test_state_machine.py`` checks the
    two executors agree step for step.
    """
    out: dict[tuple[str, enum.Enum], tuple[Step, ...]] = {}
    for name, event in machine.events.items():
        for source, trans in event.transitions.items():
            steps: list[Step] = []
            for t in trans:
                if t.prepare or t.before or t.after:  # pragma: no cover - the table has none
                    raise InternalError(f"transition {name} from {source} has callbacks the executor does not run")
                steps.append((states[str(t.dest)], tuple((str(c.func), bool(c.target)) for c in t.conditions)))
            out[(name, states[source])] = tuple(steps)
    return out


#: The compiled machines, by the identity of the ``transitions`` machine they come from.
COMPILED: dict[int, dict[tuple[str, enum.Enum], tuple[Step, ...]]] = {
    id(MACHINE): compile_machine(MACHINE, Phase),
    id(MATCH_MACHINE): compile_machine(MATCH_MACHINE, MatchPhase),
}

#: Which executor moves the models: "compiled" (default) runs the machine's transitions from ``COMPILED``;
#: "library" has ``transitions`` run each trigger itself (``Event.trigger``), at about 8 µs more per step.
#: Both execute the same transitions, in the same order, with the same guards.
EXECUTOR = "compiled"


def use_library_executor(on: bool = True) -> None:
    """Make ``transitions`` itself execute every step (for audits of the executor; slower)."""
    global EXECUTOR
    EXECUTOR = "library" if on else "compiled"


def fire(machine: Machine, model: Any, trigger: str, arg: object) -> None:
    """Move ``model`` through ``machine`` by ``trigger``; its guards see ``arg``.

    This is the one boundary where a refusal by the machine becomes ours: validation has already accepted
    the step, so a refusal is a bug in Knock, reported as ``InternalError``.
    """
    before = model.phase
    if EXECUTOR == "compiled":
        for dest, guards in COMPILED[id(machine)].get((trigger, before), ()):
            for guard, want in guards:
                if bool(getattr(model, guard)(arg)) is not want:
                    break
            else:
                model.phase = dest
                return
        raise InternalError(
            f"no {machine.name} transition for {trigger!r} in phase {before.value} although it was checked"
        )
    try:
        moved = machine.events[trigger].trigger(model, arg)
    except Exception as err:  # transitions.MachineError and anything a guard raised
        raise InternalError(f"the {machine.name} machine refused {trigger!r} in phase {before.value}: {err}") from err
    if not moved:
        raise InternalError(
            f"no {machine.name} transition for {trigger!r} in phase {before.value} although it was checked"
        )


def table_json() -> str:
    """The machine-readable tables (``spec/transitions.json``)."""
    doc = {
        "machines": [
            {
                "machine": spec.name,
                "initial": spec.initial.value,
                "terminal": spec.terminal.value,
                "states": [p.value for p in spec.states],
                "transitions": [r.to_json() for r in spec.table],
            }
            for spec in SPECS
        ]
    }
    return json.dumps(doc, indent=2) + "\n"


def table_markdown(spec: MachineSpec = HAND) -> str:
    """A table as Markdown rows (inside ``spec/state-machine.md``)."""
    lines = ["| trigger | source | dest | guard | actor | rules |", "|---|---|---|---|---|---|"]
    for r in spec.table:
        lines.append(
            f"| `{r.trigger}` | {r.source.value} | {r.dest.value} | {r.guard or '—'} | {r.actor} "
            f"| {', '.join(r.rules)} |"
        )
    return "\n".join(lines) + "\n"


def mermaid(spec: MachineSpec = HAND) -> str:
    """A state diagram in Mermaid, generated from its table."""
    lines = ["stateDiagram-v2", f"    [*] --> {spec.initial.value}"]
    for r in spec.table:
        label = r.trigger + (f" [{r.guard}]" if r.guard else "")
        lines.append(f"    {r.source.value} --> {r.dest.value}: {label}")
    lines.append(f"    {spec.terminal.value} --> [*]")
    return "\n".join(lines) + "\n"


def machine_rows(machine: Machine, states: type[enum.Enum] = Phase) -> list[tuple[str, str, str, str | None]]:
    """The transitions a live ``transitions`` machine holds, in its own order (for the drift test)."""
    out: list[tuple[str, str, str, str | None]] = []
    for name, event in machine.events.items():
        for source, trans in event.transitions.items():
            for t in trans:
                guards = [str(c.func) for c in t.conditions]
                out.append((name, states[source].value, states[str(t.dest)].value, guards[0] if guards else None))
    return out
