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

The checks use only ``engine.cards`` for melds and deadwood, never ``engine.melds``, ``engine.showdown`` or
``engine.scoring``: a fault there shows up as a violation.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from engine import fsm
from engine.actions import (
    Action,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    PassUpcard,
    Spread,
    TakeUpcard,
    sort_key,
)
from engine.cards import DECK, Card, Suit, shuffled_deck, to_mask
from engine.errors import IllegalAction
from engine.events import Discarded, WallDeclined
from engine.fsm import Phase
from engine.hand import STOCK_FLOOR, Hand
from engine.melds import Meld
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind

PROPERTIES = (
    "to act",
    "cards conserved",
    "stock",
    "legal actions",
    "illegal refused",
    "termination",
    "scoring",
)
_SIMPLE_PHASES = frozenset({Phase.UPCARD_OFFER, Phase.DRAW, Phase.DISCARD, Phase.WALL})
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
    kinds = tuple(sorted(tally.results.items(), key=lambda kv: _LABEL_ORDER.index(kv[0].split(" ")[0])))
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


_LABEL_ORDER = [k.value for k in ResultKind]


def result_label(result: HandResult) -> str:
    """The kind of a result, with a dead hand's reason, and "0 points" for a scored hand without a winner."""
    if result.kind is ResultKind.DEAD:
        return f"dead ({result.reason})"
    if result.kind is not ResultKind.TIE and result.winner is None:
        return f"{result.kind.value} (0 points)"
    return str(result.kind.value)


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
        self.deck_mask = to_mask(rules.deck)
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
            actions = self.check_state(hand)
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

    # --- the checks of one state ----------------------------------------------------------------

    def check_state(self, hand: Hand) -> list[Action]:
        """Check every property in ``hand``; returns its legal actions."""
        actions = hand.legal_actions()
        self.check_conserved(hand)
        if hand.phase is fsm.TERMINAL:
            if actions or hand.to_act is not None or hand.result is None:
                self.fail("to act", f"the hand is over but {len(actions)} actions, to act {hand.to_act}")
            else:
                self.tally.results[result_label(hand.result)] += 1
                self.check_result(hand, hand.result)
            return []
        if hand.phase not in fsm.PLAYER_PHASES:
            self.fail("to act", f"the hand waits in phase {hand.phase.value}, where no player acts")
            return []
        seat = hand.to_act
        if seat is None or seat not in hand.seats or hand.result is not None:
            self.fail("to act", f"phase {hand.phase.value} with to_act {seat} of seats {hand.seats}")
            return []
        if not actions:
            self.fail("to act", f"no legal action for p{seat} in phase {hand.phase.value}")
            return []
        if any(a.seat != seat for a in actions):
            self.fail("to act", f"actions listed for a seat other than p{seat}")
        self.check_stock(hand)
        self.check_listed(hand, seat, actions)
        self.check_refusals(hand, seat, actions)
        return actions

    def check_conserved(self, hand: Hand) -> None:
        a, b = hand.seats
        places = [hand.hands[a], hand.hands[b], to_mask(hand.stock), to_mask(hand.discards)]
        if hand.knock_card is not None:
            places.append(hand.knock_card.bit)
        union = 0
        for p in places:
            union |= p
        count = sum(p.bit_count() for p in places)
        listed = len(hand.stock) + len(hand.discards)  # a card listed twice in the stock or the pile
        twice = listed != places[2].bit_count() + places[3].bit_count()
        if union != self.deck_mask or count != len(self.rules.deck) or twice:
            self.fail("cards conserved", f"the hands, stock, discards and knock discard hold {count} cards, "
                      f"{union.bit_count()} distinct, for a deck of {len(self.rules.deck)}")  # fmt: skip
        size = self.rules.hand_size
        for seat in hand.seats:
            held = hand.hands[seat].bit_count()
            extra = (hand.phase is Phase.DISCARD and seat == hand.turn) or (hand.big_gin and seat == hand.knocker)
            if held != size + extra:
                self.fail("cards conserved", f"p{seat} holds {held} cards in phase {hand.phase.value}")

    def check_stock(self, hand: Hand) -> None:
        left = len(hand.stock)
        if hand.phase is Phase.WALL:
            ok = left == STOCK_FLOOR and self.rules.wall_pickup_to_knock
        elif hand.phase in (Phase.UPCARD_OFFER, Phase.DRAW):
            ok = left > STOCK_FLOOR
        else:
            ok = left >= STOCK_FLOOR
        if not ok:
            self.fail("stock", f"phase {hand.phase.value} with {left} cards in the stock")

    def check_listed(self, hand: Hand, seat: int, actions: list[Action]) -> None:
        if len(set(actions)) != len(actions) or actions != sorted(actions, key=sort_key):
            self.fail("legal actions", "the legal actions are not sorted or hold a duplicate")
        phase = hand.phase
        if phase in _SIMPLE_PHASES:
            listed = set(actions)
            for action in _simple_actions(hand, seat):
                if hand.is_legal(action) != (action in listed):
                    self.fail("legal actions", f"check and legal_actions() disagree on {action!r}")
            if phase is Phase.DISCARD:
                self.check_knocks(hand, seat, listed)
        elif phase is Phase.KNOCK:
            limit = 0 if hand.big_gin else hand.knock_limit
            want = {melds for melds, free in _arrangements(hand.hands[seat]) if _value(free) <= limit}
            got = {_meld_set(a.melds) for a in actions if isinstance(a, Spread)}
            if got != want or len(got) != len(actions):
                self.fail("legal actions", f"{len(got)} spreads listed, {len(want)} valid (KNOCK-4)")
        elif phase is Phase.LAYOFF:
            assert hand.spread is not None
            targets = tuple(frozenset(m.cards) for m in hand.spread.melds)
            want_answers = set(_defences(hand.hands[seat], targets))
            got_answers = {_answer(a) for a in actions if isinstance(a, LayOff)}
            if got_answers != want_answers or len(got_answers) != len(actions):
                self.fail("legal actions", f"{len(got_answers)} answers listed, {len(want_answers)} valid (LAY-5)")

    def check_knocks(self, hand: Hand, seat: int, listed: set[Action]) -> None:
        """A knock is legal exactly when the cards left pass the limit (KNOCK-2, MELD-5) and may be discarded."""
        mask = hand.hands[seat]
        free = self.rules.may_discard_taken_card
        for card in _cards(mask):
            allowed = free or card != hand.taken
            want = allowed and _min_deadwood(mask & ~card.bit) <= hand.knock_limit
            if (Knock(seat, card) in listed) != want:
                self.fail("legal actions", f"knock {card} listed {not want}, expected {want} (KNOCK-2)")

    def check_refusals(self, hand: Hand, seat: int, actions: list[Action]) -> None:
        """Illegal actions are refused with ``IllegalAction`` and change nothing (TURN-1)."""
        other = hand.other(seat)
        tries: list[Action] = [dataclasses.replace(actions[0], seat=other)]
        not_held = next((c for c in self.rules.deck if not hand.hands[seat] & c.bit), None)
        if not_held is not None:
            tries.append(Discard(seat, not_held))
        held = _cards(hand.hands[seat])
        tries.append(DrawStock(seat) if hand.phase is not Phase.DRAW else Knock(seat, held[0]))
        if hand.phase is Phase.DISCARD:
            over = [Knock(seat, c) for c in held if Knock(seat, c) not in actions]
            tries.extend(over[:1])
        before = hand.state_key()
        for action in tries:
            try:
                hand.apply(action)
            except IllegalAction:
                self.tally.refused += 1
            except Exception as err:  # anything but IllegalAction is a fault
                self.fail("illegal refused", f"{action!r} raised {type(err).__name__}, not IllegalAction: {err}")
            else:
                self.fail("illegal refused", f"{action!r} by p{action.seat} was accepted")
                return  # the hand has changed: nothing more to compare against
            if hand.state_key() != before:
                self.fail("illegal refused", f"refusing {action!r} changed the hand")
                return

    def check_result(self, hand: Hand, result: HandResult) -> None:
        """The result, recomputed from the cards: SCORE-1 .. SCORE-6, DEAD-1 .. DEAD-3."""
        rules = self.rules
        if hand.knocker is None:
            reasons = {
                "stock": len(hand.stock) <= STOCK_FLOOR and not rules.wall_pickup_to_knock,
                "pickup cap": rules.max_consecutive_discard_pickups is not None
                and hand.pickups >= rules.max_consecutive_discard_pickups,
                "last discard declined": rules.wall_pickup_to_knock and isinstance(hand.events[-2], WallDeclined),
            }
            ended_by = hand.events[-2]
            dead = HandResult(ResultKind.DEAD, None, 0, reason=result.reason, seats=hand.seats)
            if result != dead or not reasons.get(result.reason, False):
                self.fail("scoring", f"dead hand result {result!r} for a hand that died {ended_by}")
            elif result.reason != "last discard declined" and not isinstance(ended_by, Discarded):
                self.fail("scoring", f"dead hand ({result.reason}) not after a discard but {ended_by}")
            return
        spread = hand.spread
        knocker = hand.knocker
        defender = hand.other(knocker)
        if spread is None or spread.seat != knocker:
            self.fail("scoring", "a scored hand without the knocker's spread")
            return
        k_melds = [frozenset(m.cards) for m in spread.melds]
        k_dead = _leftover(hand.hands[knocker], k_melds)
        if k_dead is None:
            self.fail("scoring", f"the spread {spread} is not disjoint melds of the knocker's cards")
            return
        gin = k_dead == 0
        if (hand.big_gin and not gin) or (not hand.big_gin and k_dead > hand.knock_limit):
            self.fail("scoring", f"the spread leaves {k_dead} deadwood (limit {hand.knock_limit})")
        d_mask = hand.hands[defender]
        if gin:
            if hand.defence is not None:
                self.fail("scoring", "the defender laid off after gin (LAY-2)")
            d_dead = _min_deadwood(d_mask)
        else:
            if hand.defence is None:
                self.fail("scoring", "no defence after a knock without gin")
                return
            targets = tuple(frozenset(m.cards) for m in spread.melds)
            answer = _answer(LayOff(defender, hand.defence.melds, hand.defence.layoffs))
            if answer not in set(_defences(d_mask, targets)):
                self.fail("scoring", f"the defence {hand.defence} is not a valid answer (LAY-5)")
                return
            laid = frozenset(c for c, _ in answer[1])
            d_dead = _value(_cards(d_mask)) - sum(_value(m) for m in answer[0]) - _value(laid)
        want = _score(rules, hand, knocker, k_dead, d_dead)
        if result != want:
            self.fail("scoring", f"result {result!r}, expected {want!r} (knocker {k_dead}, defender {d_dead})")


# --- the rules' arithmetic, recomputed from the cards alone ---------------------------------------


def _score(rules: RuleSet, hand: Hand, knocker: int, k_dead: int, d_dead: int) -> HandResult:
    """SCORE-1 .. SCORE-6 and OKLA-4, written out again."""
    defender = hand.other(knocker)
    dw = (k_dead, d_dead) if knocker == hand.seats[0] else (d_dead, k_dead)
    multiplier = 2 if rules.spades_double and hand.upcard.suit is Suit.SPADES else 1
    winner: int | None
    if hand.big_gin:
        assert rules.big_gin_bonus is not None
        kind, winner, base = ResultKind.BIG_GIN, knocker, rules.big_gin_bonus + d_dead
    elif k_dead == 0:
        kind, winner, base = ResultKind.GIN, knocker, rules.gin_bonus + d_dead
    elif k_dead < d_dead:
        kind, winner, base = ResultKind.KNOCK, knocker, d_dead - k_dead
    elif k_dead == d_dead and not rules.undercut_on_tie:
        kind, winner, base = ResultKind.TIE, None, 0
    else:
        kind, winner, base = ResultKind.UNDERCUT, defender, rules.undercut_bonus + k_dead - d_dead
    points = multiplier * base
    return HandResult(kind, winner if points else None, points, knocker, dw, multiplier, seats=hand.seats)


def _value(cards: Iterable[Card]) -> int:
    return sum(min(c.rank, 10) for c in cards)


@functools.cache
def _cards(mask: int) -> tuple[Card, ...]:
    return tuple(c for c in DECK if mask & c.bit)


def _is_meld(cards: Sequence[Card]) -> bool:
    """A set of three or four of a rank, or a run of three or more of a suit (MELD-1, MELD-2)."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    if len({c.rank for c in cards}) == 1:
        return len(cards) <= 4
    if len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(c.rank for c in cards)
    return ranks == list(range(ranks[0], ranks[0] + len(ranks)))


MeldSet = frozenset[frozenset[Card]]


@functools.cache
def _melds_within(mask: int) -> tuple[frozenset[Card], ...]:
    cards = _cards(mask)
    return tuple(
        frozenset(combo)
        for r in range(3, len(cards) + 1)
        for combo in itertools.combinations(cards, r)
        if _is_meld(combo)
    )


@functools.cache
def _arrangements(mask: int) -> tuple[tuple[MeldSet, frozenset[Card]], ...]:
    """Every collection of disjoint melds of the cards, with the cards left over (MELD-3)."""
    melds = _melds_within(mask)
    out: list[tuple[MeldSet, frozenset[Card]]] = []

    def walk(start: int, chosen: list[frozenset[Card]], free: frozenset[Card]) -> None:
        out.append((frozenset(chosen), free))
        for i in range(start, len(melds)):
            if melds[i] <= free:
                walk(i + 1, [*chosen, melds[i]], free - melds[i])

    walk(0, [], frozenset(_cards(mask)))
    return tuple(out)


@functools.cache
def _min_deadwood(mask: int) -> int:
    """MELD-4 by brute force."""
    return min(_value(free) for _, free in _arrangements(mask))


def _leftover(mask: int, melds: Sequence[frozenset[Card]]) -> int | None:
    """The deadwood left by these melds of the cards, or None if they are not disjoint melds of them."""
    held = frozenset(_cards(mask))
    used: set[Card] = set()
    for m in melds:
        if not _is_meld(tuple(m)) or not m <= held or m & used:
            return None
        used |= m
    return _value(held - used)


Answer = tuple[MeldSet, frozenset[tuple[Card, frozenset[Card]]]]


def _answer(action: LayOff) -> Answer:
    return _meld_set(action.melds), frozenset((lo.card, frozenset(lo.onto.cards)) for lo in action.layoffs)


def _meld_set(melds: Iterable[Meld]) -> MeldSet:
    return frozenset(frozenset(m.cards) for m in melds)


@functools.cache
def _defences(mask: int, targets: tuple[frozenset[Card], ...]) -> tuple[Answer, ...]:
    """Every answer of a defender: his own melds, and any of the other cards laid off, each onto one knocker
    meld that it and the other cards laid off onto it extend to one meld (LAY-1, LAY-3 .. LAY-5)."""
    out: list[Answer] = []
    for melds, free in _arrangements(mask):
        rest = sorted(free)
        for choice in itertools.product(range(len(targets) + 1), repeat=len(rest)):
            extra: dict[int, list[Card]] = {}
            for card, t in zip(rest, choice, strict=True):
                if t:
                    extra.setdefault(t - 1, []).append(card)
            if all(_is_meld((*targets[t], *cs)) for t, cs in extra.items()):
                laid = frozenset((card, targets[t - 1]) for card, t in zip(rest, choice, strict=True) if t)
                out.append((melds, laid))
    return tuple(out)


def _simple_actions(hand: Hand, seat: int) -> list[Action]:
    """The actions without melds a seat could ask for now: every kind, each card it holds and one it does not."""
    cards = list(_cards(hand.hands[seat]))
    cards += [c for c in hand.rules.deck if not hand.hands[seat] & c.bit][:1]
    out: list[Action] = [
        PassUpcard(seat),
        TakeUpcard(seat),
        DrawStock(seat),
        DrawDiscard(seat),
        DeclineWall(seat),
        BigGin(seat),
    ]
    out += [Discard(seat, c) for c in cards]
    out += [Knock(seat, c) for c in cards]
    return out
