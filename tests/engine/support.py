"""Small helpers for the hand-flow tests: legal actions as text, rejected actions, burning stock turns."""

from __future__ import annotations

import dataclasses

import pytest

from engine.actions import Action, Discard, DrawStock, parse_action
from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import Discarded, DrewDiscard, DrewStock, UpcardTaken
from engine.hand import Hand


def legal(hand: Hand) -> list[str]:
    """The legal actions in the engine's order, as text without the seat."""
    return [str(a) for a in hand.legal_actions()]


def rejected(hand: Hand, action: str | Action, rule: str) -> IllegalAction:
    """Assert that ``action`` is illegal for ``rule`` and that trying it changed nothing."""
    act = parse_action(action) if isinstance(action, str) else action
    before = hand.state_key()
    assert not hand.is_legal(act)
    assert act not in hand.legal_actions()
    with pytest.raises(IllegalAction, match=f"^{rule}: ") as info:
        hand.apply(act)
    assert info.value.rule == rule
    assert info.value.action == act
    assert info.value.phase == hand.phase.value
    assert hand.state_key() == before
    return info.value


def draw_from_stock(hand: Hand) -> Card:
    """The player to act draws from the stock; returns the card drawn."""
    seat = hand.to_act
    assert seat is not None
    events = hand.apply(DrawStock(seat))
    assert isinstance(events[0], DrewStock)
    return events[0].card


def burn(hand: Hand, turns: int) -> None:
    """Play ``turns`` turns in which the player to act draws from the stock and discards the card drawn."""
    for _ in range(turns):
        seat = hand.to_act
        assert seat is not None
        card = draw_from_stock(hand)
        hand.apply(Discard(seat, card))


def cards_in(value: object) -> set[Card]:
    """Every card reachable from a value: its fields, tuples, melds, layoffs, spreads (for observations)."""
    found: set[Card] = set()
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, Card):
            found.add(v)
        elif isinstance(v, tuple | list):
            todo.extend(v)
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            todo.extend(getattr(v, f.name) for f in dataclasses.fields(v))
    return found


def taken_and_held(hand: Hand, seat: int) -> set[Card]:
    """The cards ``seat`` took from the discard pile and has not discarded face up since, read from the events (not
    the engine's state): a card he knocks with goes face down, unseen (VIS-1)."""
    held: set[Card] = set()
    for event in hand.events:
        match event:
            case UpcardTaken(seat=s, card=c) | DrewDiscard(seat=s, card=c) if s == seat:
                held.add(c)
            case Discarded(seat=s, card=c) if s == seat:
                held.discard(c)
    return held


def hidden_from(hand: Hand, seat: int, known: set[Card] | None = None) -> set[Card]:
    """What ``seat`` may not see: the stock, the opponent's unrevealed cards and his face-down knock discard.

    ``known`` are the opponent's cards taken from the discard pile (``taken_and_held``; computed if not given).
    The first upcard is public wherever it went (OKLA-3), so it is never hidden.
    """
    other = 1 - seat
    if known is None:
        known = taken_and_held(hand, other)
    hidden = set(hand.cards_of(other)) - known - cards_in(hand.spread) - cards_in(hand.defence)
    hidden |= set(hand.stock)
    if hand.knocker == other and hand.knock_card is not None and hand.knock_card not in known:
        hidden.add(hand.knock_card)  # face down (a card he took from the pile was seen there, VIS-1)
    return hidden - {hand.upcard}
