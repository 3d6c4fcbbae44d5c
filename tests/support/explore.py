"""Exhaustive exploration of hands on a reduced deck: every reachable state, checked. Rule: RULES-3.

From each deal, a depth-first search over ``legal_actions()`` (a ``Hand.copy()`` per move, memoised on the
hand's position) visits every reachable state once and checks these properties in each:

- ``to act``: a state is either over (no seat to act, no legal action, a result) or has exactly one seat to
  act, one of the hand's two, and at least one legal action; dealer steps never stay pending (TURN-1).
- ``cards conserved``: both hands, the stock, the discard pile and the face-down knock discard hold every
  card of the deck once, and each seat holds ``hand_size`` cards (one more between a draw and a discard,
  or after big gin) (RULES-3, DEAL-4, TURN-2).
- ``stock``: play goes on only while more than two cards are left in the stock (DEAD-1, DEAD-2).
- ``legal actions``: the list is sorted and has no duplicates; every listed action is accepted and changes
  the state; in the upcard, draw, discard and last-discard phases ``check`` accepts exactly the listed simple
  actions, and a knock is listed exactly when the cards left pass the knock limit, recomputed here
  (TURN-3, TURN-4, KNOCK-2, MELD-5); in the showdown the spreads and answers listed are every valid one,
  enumerated here from the cards alone (KNOCK-4, KNOCK-6, LAY-1 .. LAY-5).
- ``illegal refused``: a few illegal actions per state (the other seat acting, a card not held, an action of
  another phase, a knock over the limit) are refused with ``IllegalAction`` and leave ``state_key()``
  unchanged (TURN-1).
- ``termination``: the reachable states form a directed acyclic graph, so every path ends (each
  non-terminal state has a legal action). Without a pickup cap (DEAD-3) the rules allow endless play
  (pickups back and forth); ``allow_cycles`` then counts the cycles and checks only that an end stays
  reachable from every state.
- ``scoring``: every result agrees with SCORE-1 .. SCORE-6 recomputed here from the spread, the defence and
  the deadwood after layoffs, with melds and deadwood validated from the cards alone (MELD-1 .. MELD-4);
  a dead hand has no knock, no winner and 0 points, for a reason that holds (DEAD-1 .. DEAD-3).

The checks (``tests.support.checks``) recompute melds, deadwood, answers and scores with ``tests.support.oracle``,
never with ``engine.melds``, ``engine.showdown`` or ``engine.scoring``: a fault there shows up as a violation.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from engine import fsm
from engine.actions import Action
from engine.cards import Card, shuffled_deck
from engine.hand import Hand
from engine.rules import RuleSet
from tests.support.checks import LABEL_ORDER, PROPERTIES, StateChecks

MAX_VIOLATIONS = 20  #: violations kept with their paths (all are counted)
MAX_STATES = 2_000_000  #: states per deal before ``explore`` gives up (memory grows with them)


class TooManyStates(ValueError):
    """A deal has more reachable states than the search may hold: choose a smaller configuration."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A property that fails in one state: which, where (the deal and the actions from it) and why."""

    prop: str
    deal: int
    deck: tuple[Card, ...]
    path: tuple[str, ...]
    detail: str

    def __str__(self) -> str:
        moves = ", ".join(self.path) or "(the deal itself)"
        order = " ".join(map(str, self.deck))
        return f"{self.prop}: {self.detail}\n  deal {self.deal} (deck order {order})\n  after: {moves}"


@dataclass(frozen=True, slots=True)
class Report:
    """What an exploration covered and found. ``states`` are distinct states summed over the deals."""

    rules: RuleSet
    deals: int
    states: int
    terminal: int
    transitions: int
    refused: int  #: illegal actions tried and checked to be refused
    cycles: int  #: moves back to a state on the current path (0 proves termination)
    results: tuple[tuple[str, int], ...]  #: terminal states by ``result_label``
    violations: tuple[Violation, ...]
    violation_count: int
    seconds: float

    @property
    def ok(self) -> bool:
        return self.violation_count == 0


@dataclass(slots=True)
class _Tally:
    deals: int = 0
    states: int = 0
    terminal: int = 0
    transitions: int = 0
    refused: int = 0
    cycles: int = 0
    results: Counter[str] = field(default_factory=Counter)
    violations: list[Violation] = field(default_factory=list)
    violation_count: int = 0


@dataclass(slots=True)
class _Frame:
    hand: Hand
    key: tuple[object, ...]
    node: int
    actions: list[Action]
    next: int = 0


def explore(
    rules: RuleSet, deals: Iterable[Sequence[Card]], *, allow_cycles: bool = False, max_states: int = MAX_STATES
) -> Report:
    """Explore every state reachable from each deal (deck orders, dealt by seat 0) and check it. Rule: RULES-3.

    Raises:
        InvalidDeal: a deck order that is not the rule set's deck.
        TooManyStates: a deal reaches more than ``max_states`` states.
    """
    start = time.perf_counter()
    tally = _Tally()
    for number, deck in enumerate(deals):
        root = Hand.from_deck(rules, deck, dealer=0)
        _Search(rules, tally, number, tuple(deck), allow_cycles, max_states).run(root)
        tally.deals += 1
    kinds = tuple(sorted(tally.results.items(), key=lambda kv: LABEL_ORDER.index(kv[0].split(" ")[0])))
    return Report(
        rules,
        tally.deals,
        tally.states,
        tally.terminal,
        tally.transitions,
        tally.refused,
        tally.cycles,
        kinds,
        tuple(tally.violations),
        tally.violation_count,
        time.perf_counter() - start,
    )


def all_deals(rules: RuleSet) -> Iterator[tuple[Card, ...]]:
    """Every deal of the rule set's deck as a deck order (DEAL-3): each pair of hands, upcard and stock order.

    The order of the cards within a hand does not matter, so each deal appears once.
    """
    deck = rules.deck
    size = rules.hand_size
    for first in itertools.combinations(deck, size):  # the non-dealer's cards, dealt first
        rest = [c for c in deck if c not in first]
        for second in itertools.combinations(rest, size):
            left = [c for c in rest if c not in second]
            for order in itertools.permutations(left):
                dealt = [c for pair in zip(first, second, strict=True) for c in pair]
                yield (*dealt, *order)


def count_deals(rules: RuleSet) -> int:
    """How many deals ``all_deals`` yields."""
    n, h = len(rules.deck), rules.hand_size
    return math.comb(n, h) * math.comb(n - h, h) * math.factorial(n - 2 * h)


def sample_deals(rules: RuleSet, count: int, seed: int) -> list[tuple[Card, ...]]:
    """``count`` seeded shuffles (DEAL-2) of the rule set's deck."""
    rng = random.Random(seed)
    return [shuffled_deck(rng.getrandbits(32), rules.deck) for _ in range(count)]


def position(hand: Hand) -> tuple[object, ...]:
    """The hand's state without its history: ``state_key()`` less the events and the parts fixed by the deal.

    With no pickup cap the count of pickups in a row decides nothing (DEAD-3), so it is left out; otherwise
    endless play would look like ever new states instead of a cycle.
    """
    pickups = hand.pickups if hand.rules.max_consecutive_discard_pickups is not None else 0
    return (
        hand.phase, hand.turn, tuple(hand.hands), tuple(hand.known), tuple(hand.stock), tuple(hand.discards),
        hand.taken, hand.stock_only, hand.must_knock, pickups, hand.knocker, hand.knock_card, hand.big_gin,
        hand.spread, hand.defence, hand.result, hand.dead_reason,
    )  # fmt: skip


class _Search:
    """The depth-first search from one deal, with the checks of every state it reaches."""

    def __init__(
        self, rules: RuleSet, tally: _Tally, number: int, deck: tuple[Card, ...], allow_cycles: bool, max_states: int
    ) -> None:
        self.rules = rules
        self.max_states = max_states
        self.tally = tally
        self.number = number
        self.deck = deck
        self.allow_cycles = allow_cycles
        self.checks = StateChecks(rules, self.fail)
        self.path: list[str] = []

    def fail(self, prop: str, detail: str, extra: str | None = None) -> None:
        assert prop in PROPERTIES
        self.tally.violation_count += 1
        if len(self.tally.violations) < MAX_VIOLATIONS:
            path = (*self.path[1:], extra) if extra is not None else tuple(self.path[1:])
            self.tally.violations.append(Violation(prop, self.number, self.deck, path, detail))

    def run(self, root: Hand) -> None:
        index: dict[tuple[object, ...], int] = {}
        finished: list[bool] = []
        successors: list[list[int]] = []
        terminal: list[int] = []
        stack: list[_Frame] = []
        cycles = 0

        def enter(hand: Hand, key: tuple[object, ...], label: str) -> None:
            node = len(finished)
            if node >= self.max_states:
                raise TooManyStates(f"deal {self.number} reaches more than {self.max_states} states: too large")
            index[key] = node
            finished.append(False)
            successors.append([])
            self.path.append(label)
            actions = self.checks.check_state(hand)
            if hand.phase is fsm.TERMINAL:
                terminal.append(node)
            stack.append(_Frame(hand, key, node, actions))

        enter(root, position(root), "deal")
        while stack:
            frame = stack[-1]
            if frame.next == len(frame.actions):
                finished[frame.node] = True
                stack.pop()
                self.path.pop()
                continue
            action = frame.actions[frame.next]
            frame.next += 1
            child = frame.hand.copy()
            try:
                events = child.apply(action)
            except Exception as err:  # a listed action must apply; any failure is reported with its state
                self.fail("legal actions", f"{action!r} is listed as legal but fails: {err!r}", str(action))
                continue
            self.tally.transitions += 1
            key = position(child)
            if not events or key == frame.key:
                self.fail("legal actions", f"{action} changes nothing", str(action))
            seen = index.get(key)
            if seen is None:
                successors[frame.node].append(len(finished))
                enter(child, key, f"p{action.seat} {action}")
                continue
            successors[frame.node].append(seen)
            if not finished[seen]:
                cycles += 1
                if not self.allow_cycles:
                    self.fail(
                        "termination",
                        "this move returns to a state earlier on the same path: the hand can go on forever",
                        f"p{action.seat} {action}",
                    )
        self.tally.states += len(finished)
        self.tally.terminal += len(terminal)
        self.tally.cycles += cycles
        self.tally.refused += self.checks.refused
        self.tally.results.update(self.checks.results)
        if cycles and self.allow_cycles:
            self.check_ends_reachable(successors, terminal)

    def check_ends_reachable(self, successors: list[list[int]], terminal: list[int]) -> None:
        """With cycles, every state must still have a path to an end (no trap without one)."""
        preds: list[list[int]] = [[] for _ in successors]
        for node, nexts in enumerate(successors):
            for n in nexts:
                preds[n].append(node)
        reach = [False] * len(successors)
        todo = list(terminal)
        for n in todo:
            reach[n] = True
        while todo:
            for p in preds[todo.pop()]:
                if not reach[p]:
                    reach[p] = True
                    todo.append(p)
        stuck = reach.count(False)
        if stuck:
            self.fail("termination", f"{stuck} states have no path to the end of the hand")
