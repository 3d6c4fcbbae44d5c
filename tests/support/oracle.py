"""The reference oracles of the tests, written from the spec alone: one module for the explorer, the unit, property
and stateful tests.

It shares nothing with ``engine.melds``, ``engine.showdown``, ``engine.scoring`` or ``engine.seats`` but the
``Card`` value; rule sets, hands and actions are only read as input. Melds are found by trying every subset of the
cards against the definitions (MELD-1, MELD-2), arrangements by plain recursion over disjoint melds (MELD-3),
deadwood as the minimum over them (MELD-4), the knock test as the minimum over the discards (MELD-5), and the
defender's answers by trying, for each knocker meld, every subset of his cards against it and every combination of
disjoint such subsets (LAY-3 .. LAY-6). A hand's score (SCORE-1 .. SCORE-6, OKLA-4), a game's running scores with
boxes and Hollywood columns (MATCH-1, BONUS-1, BONUS-4), the knock limit (KNOCK-3, OKLA-1, OKLA-2), who deals and
plays next (MATCH-4, MATCH-5, THREE-4, THREE-5) and the rules an action breaks in a hand are written out again.
Slow on purpose: it is meant to be obviously right, not fast.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, pairwise
from typing import Protocol

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
)
from engine.cards import DECK, Card, Suit
from engine.fsm import Phase
from engine.hand import Hand
from engine.rules import DeadHandRoles, KnockLimit, NextDealer, OklahomaAce, RuleSet

Cards = frozenset[Card]
#: A defender's answer: his own melds, and each card laid off with the knocker meld it goes onto.
Answer = tuple[frozenset[Cards], frozenset[tuple[Card, Cards]]]

# --- cards and melds: CARD-3, MELD-1 .. MELD-5 ------------------------------------------------------------------


@cache
def cards_of(mask: int) -> Cards:
    """The cards of a bitmask (one bit per card, as the engine's hands hold them)."""
    return frozenset(c for c in DECK if mask & c.bit)


def points(cs: Iterable[Card]) -> int:
    """Point value by CARD-3: ace 1, two to ten their pips, jack, queen and king 10."""
    return sum(min(c.rank, 10) for c in cs)


def is_set(cs: Iterable[Card]) -> bool:
    """MELD-1: three or four cards of one rank."""
    cl = list(cs)
    return len(cl) in (3, 4) and len({c.rank for c in cl}) == 1 and len(set(cl)) == len(cl)


def is_run(cs: Iterable[Card]) -> bool:
    """MELD-2: three or more cards of one suit in consecutive ranks, ace (1) low, king (13) high, no wrap."""
    cl = sorted(cs, key=lambda c: c.rank)
    if len(cl) < 3 or len({c.suit for c in cl}) != 1:
        return False
    return all(b.rank == a.rank + 1 for a, b in pairwise(cl))


def is_meld(cs: Iterable[Card]) -> bool:
    cl = list(cs)
    return is_set(cl) or is_run(cl)


@lru_cache(maxsize=1 << 14)
def melds_of(hand: Cards) -> tuple[Cards, ...]:
    """Every subset of the cards that is a meld. A meld's cards share a rank (a set) or a suit (a run), so only the
    subsets of each rank's and each suit's cards are tried."""
    ordered = sorted(hand, key=lambda c: (c.suit, c.rank))
    groups = [[c for c in ordered if c.rank == r] for r in sorted({c.rank for c in ordered})]
    groups += [[c for c in ordered if c.suit == s] for s in sorted({c.suit for c in ordered})]
    return tuple(
        frozenset(sub)
        for group in groups
        for size in range(3, len(group) + 1)
        for sub in combinations(group, size)
        if is_meld(sub)
    )


def arrangements_of(hand: Cards) -> Iterator[frozenset[Cards]]:
    """Every collection of pairwise disjoint melds of the cards (MELD-3), the empty one included, each once."""
    ms = melds_of(hand)

    def walk(start: int, used: Cards, chosen: tuple[Cards, ...]) -> Iterator[frozenset[Cards]]:
        yield frozenset(chosen)
        for i in range(start, len(ms)):
            if not ms[i] & used:
                yield from walk(i + 1, used | ms[i], (*chosen, ms[i]))

    yield from walk(0, frozenset(), ())


def leftover(hand: Cards, arrangement: Iterable[Cards]) -> Cards:
    melded: set[Card] = set()
    for m in arrangement:
        melded |= m
    return hand - melded


def melded(melds: Iterable[Iterable[Card]], held: Iterable[Card]) -> Cards | None:
    """The cards of ``melds`` if they are disjoint melds of the cards held (MELD-3), else None."""
    hand = frozenset(held)
    used: set[Card] = set()
    for m in melds:
        cs = list(m)
        if not is_meld(cs) or used & set(cs) or not set(cs) <= hand:
            return None
        used |= set(cs)
    return frozenset(used)


def min_deadwood(hand: Cards, melds: Iterable[Cards] | None = None) -> int:
    """MELD-4: the minimum over all arrangements of the value of the cards left over.

    Plain recursion on the lowest card: it is either left over, or in one of the melds that contain it.
    ``melds`` may pass the melds of a larger holding (those not within ``hand`` are ignored).
    """
    ms = [m for m in (melds_of(hand) if melds is None else melds) if m <= hand]

    @cache
    def least(rest: Cards) -> int:
        if not rest:
            return 0
        low = min(rest, key=lambda c: (c.suit, c.rank))
        best = points([low]) + least(rest - {low})
        for m in ms:
            if low in m and m <= rest:
                best = min(best, least(rest - m))
        return best

    return least(hand)


@lru_cache(maxsize=1 << 16)
def deadwood_of(mask: int) -> int:
    """``min_deadwood`` of a bitmask's cards, remembered."""
    return min_deadwood(cards_of(mask))


def knock_deadwood(hand: Cards) -> int:
    """MELD-5: the minimum over every discard of the deadwood of what is left."""
    ms = melds_of(hand)
    return min(min_deadwood(hand - {c}, ms) for c in hand)


# --- layoffs and the defender's answer: LAY-1 .. LAY-6 ----------------------------------------------------------


def open_targets(meld: Cards) -> int:
    """The cards that could be laid off next onto a meld (LAY-3, LAY-4): a set of three has one, a set of
    four none, a run one at each end that is not past the ace or the king."""
    if is_set(meld):
        return 1 if len(meld) == 3 else 0
    ranks = sorted(c.rank for c in meld)
    return (ranks[0] > 1) + (ranks[-1] < 13)


def fits(target: Iterable[Card], extra: Iterable[Card]) -> bool:
    """LAY-3 and LAY-4: a knocker's meld with the cards laid off onto it is still one meld of the same kind
    (a set of three takes its fourth card, a set of four nothing, a run any cards that keep it one run). A card
    named twice, or one of the meld's own, never fits."""
    meld, laid = list(target), list(extra)
    if not laid:
        return True
    whole = [*meld, *laid]
    if len(set(whole)) != len(whole):
        return False
    return is_set(whole) if is_set(meld) else is_run(whole)


def layoffs_onto(target: Cards, cards: Iterable[Card]) -> list[Cards]:
    """Every subset of the cards that fits onto one target (the empty one included)."""
    cl = sorted(cards, key=lambda c: (c.suit, c.rank))
    return [frozenset(sub) for size in range(len(cl) + 1) for sub in combinations(cl, size) if fits(target, sub)]


def assignments(targets: Sequence[Cards], cards: Iterable[Card]) -> Iterator[frozenset[tuple[Card, Cards]]]:
    """Every way to lay off some of the cards at once (LAY-3, LAY-4, LAY-5): each card onto one target, and every
    target with the cards laid onto it fits."""
    options = [layoffs_onto(t, cards) for t in targets]

    def walk(i: int, used: Cards, laid: tuple[tuple[Card, Cards], ...]) -> Iterator[frozenset[tuple[Card, Cards]]]:
        if i == len(options):
            yield frozenset(laid)
            return
        for extra in options[i]:
            if not extra & used:
                yield from walk(i + 1, used | extra, (*laid, *((c, targets[i]) for c in extra)))

    yield from walk(0, frozenset(), ())


def legal_layoffs(knocker_melds: Iterable[Cards], defender: Cards) -> Iterator[Cards]:
    """Every set of the defender's cards he can lay off at once. Sets may repeat."""
    targets = list(knocker_melds)
    # A card of neither a target set's rank nor a target run's suit can never be laid off; leaving such
    # cards out only saves time.
    touching = [c for c in defender if any(c.rank == min(t).rank or c.suit == min(t).suit for t in targets)]
    for laid in assignments(targets, touching):
        yield frozenset(c for c, _ in laid)


def defender_deadwood(knocker_melds: Iterable[Cards], defender: Cards) -> int:
    """LAY-5, LAY-6: the minimum over every legal set of layoffs of the deadwood of the rest."""
    ms = melds_of(defender)
    return min(min_deadwood(defender - laid, ms) for laid in legal_layoffs(knocker_melds, defender))


@lru_cache(maxsize=1 << 12)
def defences(defender: Cards, targets: tuple[Cards, ...]) -> tuple[Answer, ...]:
    """Every answer of a defender to the knocker's melds ``targets`` (LAY-1, LAY-3 .. LAY-5): an arrangement of his
    own melds, and any of his other cards laid off, each onto one knocker meld."""
    return tuple(
        (own, laid) for own in arrangements_of(defender) for laid in assignments(targets, leftover(defender, own))
    )


def answer_deadwood(defender: Cards, answer: Answer) -> int:
    """The deadwood a defender keeps after his answer (LAY-6)."""
    own, laid = answer
    return points(leftover(defender, own) - {c for c, _ in laid})


# --- a hand's result: KNOCK-3, OKLA-1, OKLA-2, SCORE-1 .. SCORE-6, OKLA-4 --------------------------------------


def knock_limit(rules: RuleSet, upcard: Card) -> int:
    """The most deadwood a knock may leave in a hand with this first upcard. Rules: KNOCK-3, OKLA-1, OKLA-2."""
    if rules.knock_limit is KnockLimit.FIXED:
        return rules.knock_limit_value
    if upcard.rank == 1:
        return 0 if rules.oklahoma_ace is OklahomaAce.GIN_ONLY else 1
    return points([upcard])


@dataclass(frozen=True, slots=True)
class Score:
    """A shown-down hand's result: ``kind`` is a ``ResultKind`` value ("gin", "big_gin", "knock", "undercut",
    "tie"), ``winner`` None when nobody scores."""

    kind: str
    winner: int | None
    points: int
    multiplier: int


def hand_score(
    rules: RuleSet, upcard: Card, knocker: int, defender: int, knocker_deadwood: int, defender_deadwood: int, *,
    big_gin: bool = False,
) -> Score:  # fmt: skip
    """Score a shown-down hand from the two deadwood counts. Rules: SCORE-1 .. SCORE-6, OKLA-4."""
    k, d = knocker_deadwood, defender_deadwood
    multiplier = 2 if rules.spades_double and upcard.suit is Suit.SPADES else 1
    if big_gin:
        assert rules.big_gin_bonus is not None
        kind, winner, base = "big_gin", knocker, rules.big_gin_bonus + d
    elif k == 0:
        kind, winner, base = "gin", knocker, rules.gin_bonus + d
    elif k < d:
        kind, winner, base = "knock", knocker, d - k
    elif k == d and not rules.undercut_on_tie:
        kind, winner, base = "tie", None, 0
    else:
        kind, winner, base = "undercut", defender, rules.undercut_bonus + k - d
    total = multiplier * base
    return Score(kind, winner if total > 0 else None, total, multiplier)


# --- a game: MATCH-1, MATCH-4, MATCH-5, THREE-4, THREE-5, BONUS-1, BONUS-4, BONUS-6 -----------------------------


class Result(Protocol):
    """What the game's scores read of a hand's result."""

    @property
    def kind(self) -> object: ...  # a ResultKind, or its text value as ``Score`` has it
    @property
    def winner(self) -> int | None: ...
    @property
    def points(self) -> int: ...
    @property
    def multiplier(self) -> int: ...


#: BONUS-6: the boxes a win earns beyond its own under ``kisses``, by result kind.
KISSES = {"gin": 2, "big_gin": 2, "undercut": 1}


def boxes_won(rules: RuleSet, r: Result) -> int:
    """The boxes a won hand earns (BONUS-1, BONUS-6): one, its kisses, doubled by a spade with
    ``spades_double_boxes``."""
    kind = r.kind.value if isinstance(r.kind, enum.Enum) else r.kind
    won = 1 + (KISSES.get(str(kind), 0) if rules.kisses else 0)
    return 2 * won if rules.spades_double_boxes and r.multiplier == 2 else won


@dataclass(frozen=True, slots=True)
class ScoreModel:
    """The running scores after each recorded hand, and who closed each column. Rules: MATCH-1, BONUS-1, BONUS-4."""

    history: tuple[tuple[int, ...], ...]
    closed: tuple[int | None, ...]

    @property
    def running(self) -> tuple[int, ...]:
        return self.history[-1]

    @property
    def over(self) -> bool:
        return all(c is not None for c in self.closed)


def score_model(rules: RuleSet, players: int, results: Sequence[Result]) -> ScoreModel:
    ncol = 3 if rules.hollywood else 1
    scored = [[0] * players for _ in range(ncol)]
    boxes = [[0] * players for _ in range(ncol)]
    closed: list[int | None] = [None] * ncol
    wins = [0] * players

    def counted(col: int, seat: int) -> int:
        return scored[col][seat] + (rules.box_bonus * boxes[col][seat] if rules.immediate_boxes else 0)

    history = [tuple(0 for _ in range(players))]
    for r in results:
        assert None in closed, "a hand was played after the game's end"
        if r.winner is not None:
            w = r.winner
            wins[w] += 1
            # BONUS-4: the k-th win goes into each open column among the first k; if all closed, the first open one
            cols = [c for c in range(min(wins[w], ncol)) if closed[c] is None]
            if not cols:
                cols = [closed.index(None)]
            for c in cols:
                scored[c][w] += r.points
                boxes[c][w] += boxes_won(rules, r)
                if counted(c, w) >= rules.target:
                    closed[c] = w
        history.append(tuple(sum(counted(c, s) for c in range(ncol)) for s in range(players)))
    return ScoreModel(tuple(history), tuple(closed))


def next_roles(
    rules: RuleSet, dealer: int, seats: tuple[int, int], sitter: int | None, winner: int | None
) -> tuple[int, tuple[int, ...], int | None]:
    """Who deals and plays after a hand: (dealer, seats, sitter). Rules: MATCH-4, MATCH-5, THREE-4, THREE-5."""
    if sitter is None:
        if winner is None:
            return (dealer, seats, None)
        by_policy = {NextDealer.WINNER: winner, NextDealer.LOSER: 1 - winner, NextDealer.ALTERNATE: 1 - dealer}
        return (by_policy[rules.next_dealer], seats, None)
    if winner is None:
        if rules.three_handed_dead_hand is DeadHandRoles.REPLAY:
            return (dealer, seats, sitter)
        winner = dealer
    (loser,) = (s for s in seats if s != winner)
    return (winner, tuple(sorted((winner, sitter))), loser)


# --- what an action breaks in a hand: TURN-1 .. TURN-4, OFFER-4, KNOCK-2, KNOCK-4, KNOCK-6, LAY-1 .. LAY-5, DEAD-2


#: The actions each phase takes (the transition table of spec/state-machine.md); anything else is TURN-1.
PHASE_ACTIONS: dict[Phase, tuple[type[Action], ...]] = {
    Phase.UPCARD_OFFER: (PassUpcard, TakeUpcard),
    Phase.DRAW: (DrawStock, DrawDiscard),
    Phase.DISCARD: (Discard, Knock, BigGin),
    Phase.WALL: (DrawDiscard, DeclineWall),
    Phase.KNOCK: (Spread,),
    Phase.LAYOFF: (LayOff,),
}


def can_knock_with_last_discard(hand: Hand, seat: int) -> bool:
    """DEAD-2: after taking the last discard he could knock (or declare big gin) with an allowed discard."""
    top = hand.discards[-1]
    eleven = frozenset(hand.cards_of(seat)) | {top}
    ms = melds_of(eleven)
    if hand.rules.big_gin_bonus is not None and min_deadwood(eleven, ms) == 0:
        return True
    free = hand.rules.may_discard_taken_card
    return any(min_deadwood(eleven - {c}, ms) <= hand.knock_limit for c in eleven if free or c != top)


def refusals(hand: Hand, action: Action) -> set[str]:
    """The rules ``action`` breaks in this hand now; empty when the rules allow it."""
    phase = hand.phase
    if hand.to_act is None or action.seat != hand.to_act or not isinstance(action, PHASE_ACTIONS.get(phase, ())):
        return {"TURN-1"}
    seat = action.seat
    held = frozenset(hand.cards_of(seat))
    free = hand.rules.may_discard_taken_card
    match action:
        case Discard(card=card) | Knock(card=card):
            if card not in held:
                return {"TURN-3"}
            broken = {"TURN-4"} if card == hand.taken and not free else set()
            if isinstance(action, Discard) and hand.must_knock:
                broken.add("DEAD-2")
            if isinstance(action, Knock) and min_deadwood(held - {card}) > hand.knock_limit:
                broken.add("KNOCK-2")
            return broken
        case DrawDiscard():
            if phase is Phase.DRAW and hand.stock_only:
                return {"OFFER-4"}
            if phase is Phase.WALL and not can_knock_with_last_discard(hand, seat):
                return {"DEAD-2"}
            return set()
        case BigGin():
            ok = hand.rules.big_gin_bonus is not None and min_deadwood(held) == 0
            return set() if ok else {"KNOCK-6"}
        case Spread(melds=melds):
            spread = melded((m.cards for m in melds), held)
            if spread is None:  # not an arrangement of his cards
                return {"MELD-1", "MELD-2", "MELD-3", "KNOCK-4"}
            if hand.big_gin:
                return {"KNOCK-6"} if held - spread else set()
            return {"KNOCK-4"} if points(held - spread) > hand.knock_limit else set()
        case LayOff(melds=melds, layoffs=layoffs):
            assert hand.spread is not None
            broken = set()
            own = melded((m.cards for m in melds), held)
            if own is None:  # his own melds are not an arrangement of his cards
                broken |= {"MELD-1", "MELD-2", "MELD-3", "LAY-5"}
            used: set[Card] = set(own or ())
            onto: dict[tuple[Card, ...], list[Card]] = {}
            for lo in layoffs:
                if lo.card not in held or lo.card in used:
                    broken.add("LAY-5")
                used.add(lo.card)
                if lo.onto in hand.spread.melds:
                    onto.setdefault(lo.onto.cards, []).append(lo.card)
                else:
                    broken.add("LAY-1")
            for target, extra in onto.items():
                if not fits(target, extra):
                    broken.add("LAY-3" if is_set(target) else "LAY-4")
            return broken
        case _:
            return set()  # pass, take, draw, decline: legal in their phase for the seat to act
