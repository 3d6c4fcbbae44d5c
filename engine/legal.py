"""What the seat to act may do: a hand's legal actions, listed trigger by trigger from the transition table.

Which actions are legal is the rules kernel's to decide (``engine.kernel``); a maker lists the candidates the
kernel accepts, through its own predicates or through a bitmask fast path of the same rule (the discards),
and ``tests/engine/test_kernel.py`` proves every maker equal to the kernel's verdicts on every action.

The phases in which a player acts, and the triggers each accepts, come from the table
(``engine.fsm.PLAYER_TRIGGERS``). Each player trigger has one maker that lists its legal actions (each
maker lists legal ones only: nothing is filtered afterwards), and a phase's list is its makers' lists in
the order of ``sort_key`` — the kinds' order, then cards — so it is sorted without a sort, except within
the spreads and the defences, which their makers sort.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine import fsm, kernel
from engine.actions import (
    ACTION_TYPES,
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
from engine.cards import BY_ORDER, DECK, from_mask, rank_major
from engine.fsm import Phase
from engine.melds import arrangements
from engine.showdown import Layoff, layoff_options

if TYPE_CHECKING:
    from engine.hand import Hand

# The simple actions of each seat, made once: actions are frozen values, so the lists hand out these.
_SEATS = range(3)
_PASS = tuple(PassUpcard(s) for s in _SEATS)
_TAKE = tuple(TakeUpcard(s) for s in _SEATS)
_DRAW = tuple(DrawStock(s) for s in _SEATS)
_PICKUP = tuple(DrawDiscard(s) for s in _SEATS)
_DISCARD = tuple(tuple(Discard(s, c) for c in DECK) for s in _SEATS)
_KNOCK = tuple(tuple(Knock(s, c) for c in DECK) for s in _SEATS)
_DISCARD_BY_ORDER = tuple(tuple(_DISCARD[s][c.index] for c in BY_ORDER) for s in _SEATS)

#: A maker appends the legal actions of one trigger for the seat to act to a list.
Maker = Callable[["Hand", int, list[Action]], None]


def legal_actions(hand: Hand) -> list[Action]:
    """Every legal action of the seat to act, sorted by an explicit key (``sort_key``; deterministic). The kinds
    of action listed come from the triggers the table lets the phase accept (``engine.legal``)."""
    out: list[Action] = []
    seat = hand.turn
    for make in _BY_PHASE.get(hand.phase, ()):
        make(hand, seat, out)
    return out


def _pass(hand: Hand, seat: int, out: list[Action]) -> None:
    out.append(_PASS[seat])


def _take(hand: Hand, seat: int, out: list[Action]) -> None:
    out.append(_TAKE[seat])


def _draw(hand: Hand, seat: int, out: list[Action]) -> None:
    out.append(_DRAW[seat])


def _pickup(hand: Hand, seat: int, out: list[Action]) -> None:
    if hand.phase is Phase.WALL:  # DEAD-2: only to knock
        if kernel.can_pickup(hand, seat, hand.discards[-1], wall=True):
            out.append(_PICKUP[seat])
    elif not hand.stock_only:  # the fast path of kernel.verify_pickup off the wall: OFFER-4
        out.append(_PICKUP[seat])


def _discard(hand: Hand, seat: int, out: list[Action]) -> None:
    # The fast path of kernel.verify_discard over every card held (tests/engine/test_kernel.py proves it equal).
    if hand.must_knock:  # DEAD-2
        return
    barred = kernel.barred_card(hand)  # TURN-4; compared by order: a Card may be a fresh instance
    skip = -1 if barred is None else barred.order
    discards = _DISCARD_BY_ORDER[seat]
    m = rank_major(hand.hands[seat])  # the discards in rank-then-suit order, straight from the bits
    while m:
        low = m & -m
        i = low.bit_length() - 1
        if i != skip:
            out.append(discards[i])
        m ^= low


def _knock(hand: Hand, seat: int, out: list[Action]) -> None:
    knocks = _KNOCK[seat]
    out += [knocks[c.index] for c in kernel.knock_discards(hand, hand.hands[seat])]


def _big_gin(hand: Hand, seat: int, out: list[Action]) -> None:
    if kernel.big_gin_allowed(hand.rules) and kernel.can_big_gin(hand, seat):  # the option first: no refusal made
        out.append(BigGin(seat))


def _decline(hand: Hand, seat: int, out: list[Action]) -> None:
    out.append(DeclineWall(seat))


def _spread(hand: Hand, seat: int, out: list[Action]) -> None:
    limit = kernel.spread_limit(hand)
    out += sorted((Spread(seat, a.melds) for a in arrangements(hand.hands[seat], limit)), key=sort_key)


def _defence(hand: Hand, seat: int, out: list[Action]) -> None:
    assert hand.spread is not None
    mask = hand.hands[seat]
    targets = hand.spread.melds
    answers: list[Action] = []
    for combo in itertools.product(*(layoff_options(m, mask) for m in targets)):
        laid = 0
        for m in combo:
            if laid & m:
                break
            laid |= m
        else:
            layoffs = tuple(Layoff(c, t) for t, m in zip(targets, combo, strict=True) for c in from_mask(m))
            answers.extend(LayOff(seat, a.melds, layoffs) for a in arrangements(mask & ~laid))
    out += sorted(answers, key=sort_key)


#: The maker of each player trigger.
MAKERS: dict[str, Maker] = {
    PassUpcard.trigger: _pass,
    TakeUpcard.trigger: _take,
    DrawStock.trigger: _draw,
    DrawDiscard.trigger: _pickup,
    Discard.trigger: _discard,
    Knock.trigger: _knock,
    BigGin.trigger: _big_gin,
    DeclineWall.trigger: _decline,
    Spread.trigger: _spread,
    LayOff.trigger: _defence,
}
_KIND_ORDER = {kind.trigger: kind.order for kind in ACTION_TYPES}
#: Each player phase's makers: the triggers the table lets it accept, in the order of ``sort_key``.
_BY_PHASE: dict[Phase, tuple[Maker, ...]] = {
    phase: tuple(MAKERS[t] for t in sorted(triggers, key=_KIND_ORDER.__getitem__))
    for phase, triggers in fsm.PLAYER_TRIGGERS.items()
}
