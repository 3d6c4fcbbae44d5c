"""The state machines — one for a hand, one for a match — written once as data, and their two executors.

``HAND`` and ``MATCH`` are the single source of truth: each row carries its guard as a ``Guard`` (a name,
the one line the spec prints, and the predicate itself). The tables build the shared ``transitions.Machine``s,
and ``tools/gen_spec.py`` writes them into ``spec/transitions.json``, the tables of ``spec/state-machine.md``
and the Mermaid diagrams ``spec/hand-machine.mmd`` and ``spec/match-machine.mmd``; ``tests/spec`` fails when
any of them drift. What the hand needs to know about its phases is derived from the table: the triggers each
phase accepts, the phases in which a player acts, and the steps the engine takes by itself.

A step goes through the machine like this: the guards of the rows of (trigger, source) are tried in table
order; the first row whose guard holds is taken; the step's events are committed to the model (the machine's
``before_state_change`` callback); the state changes; entering a state that only the engine leaves (``score``,
``dead_hand``, ``rotate``) takes that step at once (the state's ``on_enter`` callback).

Each game chooses who executes the steps (``Hand(..., executor=...)``, ``Match(..., executor=...)``):

- ``"library"`` (the default): ``transitions`` itself runs every step, ``Event.trigger`` once per step.
- ``"compiled"``: the same machine's transitions, guards and callbacks, read from the library's objects into a
  lookup, run without the library's per-step machinery. It is the performance mode, chosen explicitly by
  the replayer, simulation and the benchmarks; the suite runs the same games under both and requires
  identical events and bytes.
"""

from __future__ import annotations

import enum
import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from transitions import Machine
from transitions.core import EventData

from engine import kernel
from engine.errors import InternalError, KnockError
from engine.kernel import STOCK_FLOOR, dead_reason

__all__ = [
    "HAND", "INITIAL", "MATCH", "MATCH_TABLE", "PLAYER_PHASES", "PLAYER_TRIGGERS", "SPECS", "STOCK_FLOOR", "TABLE",
    "TERMINAL", "TRIGGERS", "CompiledExecutor", "Executor", "ExecutorName", "Guard", "LibraryExecutor",
    "MachineSpec", "MatchPhase", "Phase", "Row", "build_machine", "compile_machine", "dead_reason", "executor",
    "guard", "guards_markdown", "machine_rows", "mermaid", "table_json", "table_markdown",
]  # fmt: skip

if TYPE_CHECKING:
    from engine.actions import Action, Spread
    from engine.hand import Hand
    from engine.match import Match


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


# --- guards: named, side-effect-free predicates on (model, the step's argument) ------------------------------


@dataclass(frozen=True, slots=True)
class Guard:
    """A transition's condition: its name, the one line the spec prints, and the predicate ``func(model, arg)``
    (``arg`` is the player's action, or what an engine step passes)."""

    name: str
    description: str
    func: Callable[[Any, Any], bool]

    def __call__(self, event: EventData) -> bool:
        """How ``transitions`` asks (the machines send their event data): the model and the step's argument."""
        arg, _events = event.args
        return self.func(event.model, arg)

    def __str__(self) -> str:
        return self.name  # how the library's diagrams label the condition


def guard(func: Callable[[Any, Any], bool]) -> Guard:
    """A guard made from a predicate: named after the function, described by its docstring (one line)."""
    description = " ".join((func.__doc__ or "").split())
    name = func.__name__.lstrip("_")  # the predicates are private to this module; the table names them
    if not description:
        raise InternalError(f"guard {name} has no description")
    return Guard(name, description, func)


@guard
def _non_dealer_acts(hand: Hand, action: Action) -> bool:
    """the non-dealer is the one passing the upcard (OFFER-1)"""
    return action.seat != hand.dealer


@guard
def _dealer_acts(hand: Hand, action: Action) -> bool:
    """the dealer is the one passing the upcard: both have passed (OFFER-2, OFFER-4)"""
    return action.seat == hand.dealer


@guard
def _play_goes_on(hand: Hand, action: Action) -> bool:
    """the stock holds more than two cards and the pickup cap is not reached (TURN-2)"""
    return kernel.play_goes_on(hand)  # the common case, tried first


@guard
def _hand_dies(hand: Hand, action: Action) -> bool:
    """the stock holds two cards and the 50th-card rule is off (DEAD-1), or the pickup cap is reached (DEAD-3)"""
    return kernel.dead_reason(hand) is not None


@guard
def _wall_offered(hand: Hand, action: Action) -> bool:
    """the stock holds two cards, the 50th-card rule is on and the pickup cap is not reached (DEAD-2)"""
    return kernel.wall_offered(hand)


@guard
def _spread_is_gin(hand: Hand, action: Spread) -> bool:
    """the spread laid leaves no card over (KNOCK-5; always so for a big gin, KNOCK-6)"""
    return kernel.spread_is_gin(hand.hands[action.seat], action.melds)


@guard
def _game_won(match: Match, result: object) -> bool:
    """a seat has reached the target (MATCH-1), or every Hollywood column is closed (BONUS-4)"""
    return match.standings().over


# --- the tables ------------------------------------------------------------------------------------------------

#: The steps a game may take whenever it waits — for a player, or between hands for the next deal — rather than
#: in the course of play: its end before the target, and the host's record of a seat leaving or coming back
#: (END-1 .. END-4). A state the engine leaves by itself is still left by itself when it also takes these.
INTERRUPTS = frozenset({"end_early", "forfeit", "presence"})


@dataclass(frozen=True, slots=True)
class Row:
    """One transition: ``trigger`` moves ``source`` to ``dest`` when ``guard`` holds (no guard: always).

    ``actor`` is ``player`` (an action) or ``engine`` (a dealer step the engine takes by itself).
    Rows of one trigger and source are tried in table order.
    """

    trigger: str
    source: Any
    dest: Any
    guard: Guard | None
    actor: str
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "trigger": self.trigger,
            "source": self.source.value,
            "dest": self.dest.value,
            "guard": self.guard.name if self.guard else None,
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

    def guards(self) -> list[Guard]:
        """The table's guards, each once, in table order."""
        return list({r.guard.name: r.guard for r in self.table if r.guard}.values())

    def automatic(self) -> dict[enum.Enum, str]:
        """The states only the engine leaves, by one trigger (the initial state aside, and the steps a waiting game
        may take at any time, ``INTERRUPTS``): on entering one, the engine takes that step by itself."""
        out: dict[enum.Enum, str] = {}
        for state in self.states:
            rows = [r for r in self.table if r.source is state and r.trigger not in INTERRUPTS]
            if state is not self.initial and rows and all(r.actor == "engine" for r in rows):
                (trigger,) = {r.trigger for r in rows}
                out[state] = trigger
        return out


P = Phase
TABLE: tuple[Row, ...] = (
    Row("deal", P.DEAL, P.UPCARD_OFFER, None, "engine", ("DEAL-1", "DEAL-3", "KNOCK-3", "OKLA-1")),
    Row("pass_upcard", P.UPCARD_OFFER, P.UPCARD_OFFER, _non_dealer_acts, "player", ("OFFER-1", "OFFER-2")),
    Row("pass_upcard", P.UPCARD_OFFER, P.DRAW, _dealer_acts, "player", ("OFFER-2", "OFFER-4")),
    Row("take_upcard", P.UPCARD_OFFER, P.DISCARD, None, "player", ("OFFER-1", "OFFER-3")),
    Row("draw_stock", P.DRAW, P.DISCARD, None, "player", ("TURN-2",)),
    Row("draw_discard", P.DRAW, P.DISCARD, None, "player", ("TURN-2", "OFFER-4")),
    Row("discard", P.DISCARD, P.DRAW, _play_goes_on, "player", ("TURN-2", "TURN-3", "TURN-4")),
    Row("discard", P.DISCARD, P.DEAD_HAND, _hand_dies, "player", ("DEAD-1", "DEAD-3")),
    Row("discard", P.DISCARD, P.WALL, _wall_offered, "player", ("DEAD-2",)),
    Row("knock", P.DISCARD, P.KNOCK, None, "player", ("KNOCK-1", "KNOCK-2", "TURN-4")),
    Row("big_gin", P.DISCARD, P.KNOCK, None, "player", ("KNOCK-6",)),
    Row("draw_discard", P.WALL, P.DISCARD, None, "player", ("DEAD-2",)),
    Row("decline_wall", P.WALL, P.DEAD_HAND, None, "player", ("DEAD-2",)),
    Row("spread", P.KNOCK, P.SCORE, _spread_is_gin, "player", ("KNOCK-5", "LAY-2")),
    Row("spread", P.KNOCK, P.LAYOFF, None, "player", ("KNOCK-4", "LAY-1")),
    Row("lay_off", P.LAYOFF, P.SCORE, None, "player", ("LAY-5", "LAY-6")),
    Row("score", P.SCORE, P.HAND_OVER, None, "engine", ("SCORE-1", "SCORE-2", "SCORE-3", "SCORE-4", "SCORE-5")),
    Row("end_dead", P.DEAD_HAND, P.HAND_OVER, None, "engine", ("DEAD-1",)),
)

M = MatchPhase
BONUSES = ("BONUS-1", "BONUS-2", "BONUS-3", "BONUS-4")  # priced when the game ends
END_RULES = ("END-1", "END-2", "END-4", "END-5")  # a seat resigns, aborts or claims: the game ends before the target
MATCH_TABLE: tuple[Row, ...] = (
    Row("draw_cut", M.CUT, M.CUT, None, "engine", ("MATCH-2", "MATCH-3", "THREE-2")),
    Row("start", M.CUT, M.HAND, None, "engine", ("MATCH-2", "THREE-2", "THREE-3")),
    Row("advise", M.HAND, M.HAND, None, "player", ("THREE-7",)),
    Row("end_hand", M.HAND, M.GAME_OVER, _game_won, "engine", ("MATCH-1", "MATCH-6", "THREE-6", *BONUSES)),
    Row("end_hand", M.HAND, M.ROTATE, None, "engine", ("MATCH-1", "THREE-6", "BONUS-1")),
    Row("rotate", M.ROTATE, M.HAND, None, "engine", ("MATCH-4", "MATCH-5", "MATCH-7", "THREE-4", "THREE-5")),
    Row("end_early", M.HAND, M.GAME_OVER, None, "player", END_RULES),
    Row("end_early", M.ROTATE, M.GAME_OVER, None, "player", END_RULES),
    Row("forfeit", M.HAND, M.GAME_OVER, None, "engine", ("END-3", "END-5", "END-6")),
    Row("forfeit", M.ROTATE, M.GAME_OVER, None, "engine", ("END-3", "END-5", "END-6")),
    Row("presence", M.HAND, M.HAND, None, "engine", ("END-4",)),
    Row("presence", M.ROTATE, M.ROTATE, None, "engine", ("END-4",)),
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
#: The player triggers each player phase accepts, each once, in table order.
PLAYER_TRIGGERS: dict[Phase, tuple[str, ...]] = {
    phase: tuple(dict.fromkeys(r.trigger for r in TABLE if r.source is phase and r.actor == "player"))
    for phase in PLAYER_PHASES
}
TERMINAL: Phase = Phase.HAND_OVER
INITIAL: Phase = Phase.DEAL


# --- the transitions machines -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hook:
    """A callback the machine runs during a step: the model's method ``method``, called with ``args`` when
    they are given, else with the step's argument and events."""

    method: str
    args: tuple[str, ...] | None = None

    def __call__(self, event: EventData) -> None:
        getattr(event.model, self.method)(*(event.args if self.args is None else self.args))


#: Commits a step's events to the model (``model._record(arg, events)``), once the guards have chosen the row
#: and before the state changes.
RECORD = Hook("_record")


def step_hook(trigger: str) -> Hook:
    """On entering a state only the engine leaves: the model takes that step (``model._take_step(trigger)``)."""
    return Hook("_take_step", (trigger,))


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
        send_event=True,
        ignore_invalid_triggers=False,
        before_state_change=[RECORD],
        name=spec.name,
    )
    for r in spec.table:
        machine.add_transition(r.trigger, r.source, r.dest, conditions=[r.guard] if r.guard else None)
    for state, trigger in spec.automatic().items():
        machine.get_state(state).add_callback("enter", step_hook(trigger))
    return machine


MACHINE: Machine = build_machine(HAND)
MATCH_MACHINE: Machine = build_machine(MATCH)


# --- the executors ----------------------------------------------------------------------------------------------

ExecutorName = Literal["library", "compiled"]
EXECUTOR_NAMES: tuple[ExecutorName, ...] = ("library", "compiled")


class Executor(ABC):
    """Moves models through one ``transitions`` machine. Shared by every game (copies keep the same one)."""

    name: ClassVar[ExecutorName]
    __slots__ = ("machine", "spec")

    def __init__(self, spec: MachineSpec, machine: Machine) -> None:
        self.spec = spec
        self.machine = machine

    @abstractmethod
    def fire(self, model: Any, trigger: str, arg: object, events: Sequence[Any]) -> None:
        """Move ``model`` by ``trigger``: its guards see ``arg``, and ``events`` are committed on the way.

        This is the one boundary where a refusal by the machine becomes ours: validation has already accepted
        the step, so a refusal (no row whose guard holds) is a bug in Knock, reported as ``InternalError``.
        """

    def _refused(self, trigger: str, source: enum.Enum, why: str = "") -> InternalError:
        return InternalError(
            f"the {self.spec.name} machine refused {trigger!r} in phase {source.value} although it was checked"
            + (f": {why}" if why else "")
        )

    def __reduce__(self) -> tuple[Callable[[str, str], Executor], tuple[str, str]]:
        return executor, (self.spec.name, self.name)

    def __deepcopy__(self, memo: dict[int, object]) -> Executor:
        return self

    def __repr__(self) -> str:
        return f"<{self.name} executor of the {self.spec.name} machine>"


class LibraryExecutor(Executor):
    """``transitions`` runs every step itself: ``Event.trigger`` once per step."""

    name = "library"
    __slots__ = ()

    def fire(self, model: Any, trigger: str, arg: object, events: Sequence[Any]) -> None:
        source = model.phase
        try:
            moved = self.machine.events[trigger].trigger(model, arg, events)
        except KnockError:  # ours, from a dealer's step taken inside this one (a bad deck dealt on entering rotate)
            raise
        except Exception as err:  # transitions.MachineError, an unknown trigger, anything a guard raised
            raise self._refused(trigger, source, str(err)) from err
        if not moved:
            raise self._refused(trigger, source)


#: A compiled step: the destination, its guards' predicates, and the callbacks on entering it (each the name of
#: the model's method and its arguments).
Step = tuple[enum.Enum, tuple[Callable[[Any, Any], bool], ...], tuple[tuple[str, tuple[str, ...]], ...]]


def compile_machine(machine: Machine, states: type[enum.Enum]) -> dict[tuple[str, enum.Enum], tuple[Step, ...]]:
    """The ``transitions`` machine's own transitions as a lookup: (trigger, source) -> the candidate steps in
    the library's order. Read from the built machine's objects (not from the table), so it executes exactly
    what the library holds; it refuses any callback kind the compiled executor does not run.
    """
    unsupported = ("prepare_event", "finalize_event", "after_state_change", "on_exception", "on_final")
    if any(getattr(machine, kind) for kind in unsupported):
        raise InternalError(f"the {machine.name} machine has callbacks the compiled executor does not run")
    if any(s.on_exit for s in machine.states.values()):
        raise InternalError(f"the {machine.name} machine has exit callbacks the compiled executor does not run")
    out: dict[tuple[str, enum.Enum], tuple[Step, ...]] = {}
    for name, event in machine.events.items():
        for source, trans in event.transitions.items():
            steps: list[Step] = []
            for t in trans:
                if t.prepare or t.before or t.after or not all(c.target for c in t.conditions):
                    raise InternalError(f"transition {name} from {source} has callbacks the executor does not run")
                enter = tuple(_enter_hook(f) for f in machine.get_state(str(t.dest)).on_enter)
                steps.append((states[str(t.dest)], tuple(_guard(c.func).func for c in t.conditions), enter))
            out[(name, states[source])] = tuple(steps)
    return out


def _guard(func: object) -> Guard:
    if not isinstance(func, Guard):
        raise InternalError(f"a condition that is not a Guard: {func!r}")
    return func


def _enter_hook(func: object) -> tuple[str, tuple[str, ...]]:
    if not isinstance(func, Hook) or func.args is None:
        raise InternalError(f"an enter callback the compiled executor does not run: {func!r}")
    return func.method, func.args


def _record_hook(func: object) -> str:
    if not isinstance(func, Hook) or func.args is not None:
        raise InternalError(f"a before_state_change callback the compiled executor does not run: {func!r}")
    return func.method


class CompiledExecutor(Executor):
    """The machine's transitions, guards and callbacks compiled into a lookup: the performance mode."""

    name = "compiled"
    __slots__ = ("record", "steps")

    def __init__(self, spec: MachineSpec, machine: Machine) -> None:
        super().__init__(spec, machine)
        self.steps = compile_machine(machine, spec.states)
        self.record = tuple(_record_hook(f) for f in machine.before_state_change)

    def fire(self, model: Any, trigger: str, arg: object, events: Sequence[Any]) -> None:
        source = model.phase
        for dest, guards, enter in self.steps.get((trigger, source), ()):
            for holds in guards:
                if not holds(model, arg):
                    break
            else:
                for method in self.record:
                    getattr(model, method)(arg, events)
                model.phase = dest
                for method, args in enter:
                    getattr(model, method)(*args)
                return
        raise self._refused(trigger, source)


EXECUTORS: dict[str, dict[str, Executor]] = {
    spec.name: {"library": LibraryExecutor(spec, machine), "compiled": CompiledExecutor(spec, machine)}
    for spec, machine in ((HAND, MACHINE), (MATCH, MATCH_MACHINE))
}


def executor(machine: str, name: str) -> Executor:
    """The executor ``name`` (``"library"`` or ``"compiled"``) of the ``"hand"`` or ``"match"`` machine."""
    if name not in EXECUTOR_NAMES:
        raise ValueError(f"the executor is 'library' or 'compiled', not {name!r}")
    return EXECUTORS[machine][name]


# --- the spec's views of the tables -------------------------------------------------------------------------------


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
                "guards": {g.name: g.description for g in spec.guards()},
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
            f"| `{r.trigger}` | {r.source.value} | {r.dest.value} | {r.guard.name if r.guard else '—'} | {r.actor} "
            f"| {', '.join(r.rules)} |"
        )
    return "\n".join(lines) + "\n"


def guards_markdown(spec: MachineSpec = HAND) -> str:
    """The table's guards and when each holds, as Markdown (their descriptions are the predicates' own)."""
    lines = ["| guard | holds when |", "|---|---|"]
    lines += [f"| {g.name} | {g.description} |" for g in spec.guards()]
    return "\n".join(lines) + "\n"


def mermaid(spec: MachineSpec = HAND) -> str:
    """A state diagram in Mermaid, generated from its table."""
    lines = ["stateDiagram-v2", f"    [*] --> {spec.initial.value}"]
    for r in spec.table:
        label = r.trigger + (f" [{r.guard.name}]" if r.guard else "")
        lines.append(f"    {r.source.value} --> {r.dest.value}: {label}")
    lines.append(f"    {spec.terminal.value} --> [*]")
    return "\n".join(lines) + "\n"


def machine_rows(machine: Machine, states: type[enum.Enum] = Phase) -> list[tuple[str, str, str, Guard | None]]:
    """The transitions a live ``transitions`` machine holds, in its own order, with their guard objects
    (for the drift test)."""
    out: list[tuple[str, str, str, Guard | None]] = []
    for name, event in machine.events.items():
        for source, trans in event.transitions.items():
            for t in trans:
                guards = [_guard(c.func) for c in t.conditions]
                out.append((name, states[source].value, states[str(t.dest)].value, guards[0] if guards else None))
    return out
