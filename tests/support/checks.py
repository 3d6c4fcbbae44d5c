"""The checks of one state of a reduced-deck hand, for the exhaustive explorer (``tests.support.explore``).

Each property is recomputed from the cards with ``tests.support.oracle``, never with ``engine.melds``,
``engine.showdown`` or ``engine.scoring``: a fault there shows up as a violation. The properties are listed in
``tests.support.explore``'s docstring.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from typing import Protocol

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
from engine.cards import DECK, Card, to_mask
from engine.errors import IllegalAction
from engine.events import Discarded, WallDeclined
from engine.fsm import STOCK_FLOOR, Phase
from engine.hand import Hand
from engine.melds import Meld
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind
from tests.support import oracle

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
LABEL_ORDER = [k.value for k in ResultKind]


class Fail(Protocol):
    def __call__(self, prop: str, detail: str, extra: str | None = None) -> None: ...


def result_label(result: HandResult) -> str:
    """The kind of a result, with a dead hand's reason, and "0 points" for a scored hand without a winner."""
    if result.kind is ResultKind.DEAD:
        return f"dead ({result.reason})"
    if result.kind is not ResultKind.TIE and result.winner is None:
        return f"{result.kind.value} (0 points)"
    return str(result.kind.value)


class StateChecks:
    """The checks of every state of one rule set's hands; ``fail`` records a violation in the current state."""

    def __init__(self, rules: RuleSet, fail: Fail) -> None:
        self.rules = rules
        self.fail = fail
        self.deck_mask = to_mask(rules.deck)
        self.refused = 0  #: illegal actions tried and checked to be refused
        self.results: Counter[str] = Counter()  #: terminal states by ``result_label``

    def check_state(self, hand: Hand) -> list[Action]:
        """Check every property in ``hand``; returns its legal actions."""
        actions = hand.legal_actions()
        self.check_conserved(hand)
        if hand.phase is fsm.TERMINAL:
            if actions or hand.to_act is not None or hand.result is None:
                self.fail("to act", f"the hand is over but {len(actions)} actions, to act {hand.to_act}")
            else:
                self.results[result_label(hand.result)] += 1
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
            for action in simple_actions(hand, seat):
                if hand.is_legal(action) != (action in listed):
                    self.fail("legal actions", f"check and legal_actions() disagree on {action!r}")
            if phase is Phase.DISCARD:
                self.check_knocks(hand, seat, listed)
        elif phase is Phase.KNOCK:
            limit = 0 if hand.big_gin else hand.knock_limit
            held = oracle.cards_of(hand.hands[seat])
            want = {a for a in oracle.arrangements_of(held) if oracle.points(oracle.leftover(held, a)) <= limit}
            got = {meld_set(a.melds) for a in actions if isinstance(a, Spread)}
            if got != want or len(got) != len(actions):
                self.fail("legal actions", f"{len(got)} spreads listed, {len(want)} valid (KNOCK-4)")
        elif phase is Phase.LAYOFF:
            assert hand.spread is not None
            targets = tuple(frozenset(m.cards) for m in hand.spread.melds)
            want_answers = set(oracle.defences(oracle.cards_of(hand.hands[seat]), targets))
            got_answers = {answer(a) for a in actions if isinstance(a, LayOff)}
            if got_answers != want_answers or len(got_answers) != len(actions):
                self.fail("legal actions", f"{len(got_answers)} answers listed, {len(want_answers)} valid (LAY-5)")

    def check_knocks(self, hand: Hand, seat: int, listed: set[Action]) -> None:
        """A knock is legal exactly when the cards left pass the limit (KNOCK-2, MELD-5) and may be discarded."""
        mask = hand.hands[seat]
        free = self.rules.may_discard_taken_card
        for card in in_deck_order(mask):
            allowed = free or card != hand.taken
            want = allowed and oracle.deadwood_of(mask & ~card.bit) <= hand.knock_limit
            if (Knock(seat, card) in listed) != want:
                self.fail("legal actions", f"knock {card} listed {not want}, expected {want} (KNOCK-2)")

    def check_refusals(self, hand: Hand, seat: int, actions: list[Action]) -> None:
        """Illegal actions are refused with ``IllegalAction`` and change nothing (TURN-1)."""
        other = next(s for s in hand.seats if s != seat)
        tries: list[Action] = [dataclasses.replace(actions[0], seat=other)]
        not_held = next((c for c in self.rules.deck if not hand.hands[seat] & c.bit), None)
        if not_held is not None:
            tries.append(Discard(seat, not_held))
        held = in_deck_order(hand.hands[seat])
        tries.append(DrawStock(seat) if hand.phase is not Phase.DRAW else Knock(seat, held[0]))
        if hand.phase is Phase.DISCARD:
            over = [Knock(seat, c) for c in held if Knock(seat, c) not in actions]
            tries.extend(over[:1])
        before = hand.state_key()
        for action in tries:
            try:
                hand.apply(action)
            except IllegalAction:
                self.refused += 1
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
        got = (result.kind.value, result.winner, result.points, result.multiplier, result.knocker, result.deadwood)
        if hand.knocker is None:
            reasons = {
                "stock": len(hand.stock) <= STOCK_FLOOR and not rules.wall_pickup_to_knock,
                "pickup cap": rules.max_consecutive_discard_pickups is not None
                and hand.pickups >= rules.max_consecutive_discard_pickups,
                "last discard declined": rules.wall_pickup_to_knock and isinstance(hand.events[-2], WallDeclined),
            }
            ended_by = hand.events[-2]
            dead = got == ("dead", None, 0, 1, None, None) and result.seats == hand.seats
            if not dead or not reasons.get(result.reason, False):
                self.fail("scoring", f"dead hand result {result!r} for a hand that died {ended_by}")
            elif result.reason != "last discard declined" and not isinstance(ended_by, Discarded):
                self.fail("scoring", f"dead hand ({result.reason}) not after a discard but {ended_by}")
            return
        spread = hand.spread
        knocker = hand.knocker
        defender = next(s for s in hand.seats if s != knocker)
        if spread is None or spread.seat != knocker:
            self.fail("scoring", "a scored hand without the knocker's spread")
            return
        k_held = oracle.cards_of(hand.hands[knocker])
        k_melded = oracle.melded((m.cards for m in spread.melds), k_held)
        if k_melded is None:
            self.fail("scoring", f"the spread {spread} is not disjoint melds of the knocker's cards")
            return
        k_dead = oracle.points(k_held - k_melded)
        gin = k_dead == 0
        if (hand.big_gin and not gin) or (not hand.big_gin and k_dead > hand.knock_limit):
            self.fail("scoring", f"the spread leaves {k_dead} deadwood (limit {hand.knock_limit})")
        d_mask = hand.hands[defender]
        if gin:
            if hand.defence is not None:
                self.fail("scoring", "the defender laid off after gin (LAY-2)")
            d_dead = oracle.deadwood_of(d_mask)
        else:
            if hand.defence is None:
                self.fail("scoring", "no defence after a knock without gin")
                return
            targets = tuple(frozenset(m.cards) for m in spread.melds)
            given = answer(LayOff(defender, hand.defence.melds, hand.defence.layoffs))
            if given not in oracle.defences(oracle.cards_of(d_mask), targets):
                self.fail("scoring", f"the defence {hand.defence} is not a valid answer (LAY-5)")
                return
            d_dead = oracle.answer_deadwood(oracle.cards_of(d_mask), given)
        want = oracle.hand_score(rules, hand.upcard, knocker, defender, k_dead, d_dead, big_gin=hand.big_gin)
        by_seat = (k_dead, d_dead) if knocker == hand.seats[0] else (d_dead, k_dead)
        expected = (want.kind, want.winner, want.points, want.multiplier, knocker, by_seat)
        if got != expected or result.seats != hand.seats:
            self.fail("scoring", f"result {result!r}, expected {want} (knocker {k_dead}, defender {d_dead})")


def in_deck_order(mask: int) -> list[Card]:
    return [c for c in DECK if mask & c.bit]


def answer(action: LayOff) -> oracle.Answer:
    """A defender's answer as the oracle writes it."""
    return meld_set(action.melds), frozenset((lo.card, frozenset(lo.onto.cards)) for lo in action.layoffs)


def meld_set(melds: Iterable[Meld]) -> frozenset[oracle.Cards]:
    return frozenset(frozenset(m.cards) for m in melds)


def simple_actions(hand: Hand, seat: int) -> list[Action]:
    """The actions without melds a seat could ask for now: every kind, each card it holds and one it does not."""
    cards = in_deck_order(hand.hands[seat])
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
