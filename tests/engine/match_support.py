"""Helpers for the match tests: deck orders written in card text, scripted hands, and a game read back from its events.

The scenario deals below are built so that one line of play decides them. The *knocker* holds ``KNOCKER``
(three melds and the king of diamonds), takes the upcard and knocks with ``Kd``; the upcard decides what
his ten cards are worth and the other hand decides the result:

=============  =========  ==================================  ============================================
deal           upcard     knocker's ten cards                 result
=============  =========  ==================================  ============================================
``GIN``        ``Tc``     As-2s-3s 4h-5h-6h 7c-8c-9c-Tc (0)   gin: knocker 25 + 2 = 27
``KNOCK``      ``Qd``     three melds + Qd (10)               knock: knocker 72 - 10 = 62 (nothing lays off)
``UNDERCUT``   ``Qd``     three melds + Qd (10)               undercut: defender 10 + (10 - 5) = 15
``TIE``        ``Qd``     three melds + Qd (10)               tie at 10: undercut 10, or no score
=============  =========  ==================================  ============================================
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.cards import DECK, Card, cards
from engine.events import Dealt, DrewStock, GameOver, HandEnded, HandStarted, MatchEvent
from engine.fsm import Phase
from engine.match import Match

KNOCKER = "As 2s 3s 4h 5h 6h 7c 8c 9c Kd"
LOW = "Kc Kh Ks Qc Qh Qs Jc Jh Js 2d"  # three sets and 2d: deadwood 2
JUNK = "Kc Qh Jh 9s 9d 7d 6s 5d 4c 2d"  # no meld, nothing fits the knocker's melds: deadwood 72
UNDER = "Ac Ad Ah 2c 2d 2h 3c 3d 3h 5s"  # three sets and 5s: deadwood 5
EVEN = "Ac Ad Ah 2c 2d 2h 3c 3d 3h Td"  # three sets and Td: deadwood 10

Role = Literal["non_dealer", "dealer"]


def deck(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> tuple[Card, ...]:
    """A 52-card deck order that deals these hands (DEAL-3): cards alternate non-dealer, dealer; then the upcard;
    then ``stock`` (top first) and every card not named, in deck order.
    """
    nd, d = cards(non_dealer), cards(dealer)
    assert len(nd) == len(d) == 10
    named = [*nd, *d, Card.parse(upcard), *cards(stock)]
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in DECK if c not in set(named)]
    return (*(c for pair in zip(nd, d, strict=True) for c in pair), Card.parse(upcard), *cards(stock), *rest)


@dataclass(frozen=True, slots=True)
class Scenario:
    """A deal and who knocks in it: ``knocker`` takes the upcard and knocks with Kd (None: nobody knocks)."""

    name: str
    deck: tuple[Card, ...]
    knocker: Role | None


def gin_by(role: Role) -> Scenario:
    """The knocker goes gin and scores 27."""
    return _scenario("gin", role, LOW, "Tc")


def knock_by(role: Role) -> Scenario:
    """The knocker wins with 10 deadwood against 72 and scores 62."""
    return _scenario("knock", role, JUNK, "Qd")


def undercut_of(role: Role) -> Scenario:
    """The knocker (``role``) is undercut: the other seat scores 15."""
    return _scenario("undercut", role, UNDER, "Qd")


def tie_by(role: Role) -> Scenario:
    """Both end with 10 deadwood: an undercut worth 10 by default, no score with ``undercut_on_tie`` off."""
    return _scenario("tie", role, EVEN, "Qd")


def dead(upcard: str = "3h") -> Scenario:
    """Nobody knocks: the hand dies when the stock is down to two cards."""
    return Scenario("dead", deck(KNOCKER, LOW, upcard), None)


def _scenario(name: str, role: Role, other: str, upcard: str) -> Scenario:
    if role == "non_dealer":
        return Scenario(name, deck(KNOCKER, other, upcard), role)
    return Scenario(name, deck(other, KNOCKER, upcard), role)


def play_hand(match: Match, knocker: Role | None) -> None:
    """Play the current hand to its end: ``knocker`` takes the upcard and knocks with Kd, then the spread and the
    answer are the automatic ones; with no knocker both pass the upcard and each turn draws from the stock and
    discards the card drawn, until the hand dies (DEAD-1).
    """
    hand = match.hand
    assert hand is not None and not hand.is_over
    nd, d = match.captain, match.dealer
    if knocker == "non_dealer":
        match.play(f"p{nd} take", f"p{nd} knock Kd")
    elif knocker == "dealer":
        match.play(f"p{nd} pass", f"p{d} take", f"p{d} knock Kd")
    else:
        match.play(f"p{nd} pass", f"p{d} pass")
        while (seat := hand.to_act) is not None:
            drew = match.play(f"p{seat} draw")[0]
            assert isinstance(drew, DrewStock)
            match.play(f"p{seat} discard {drew.card}")
    while hand.to_act is not None:
        match.apply(hand.auto_spread() if hand.phase is Phase.KNOCK else hand.auto_defence())
    assert hand.is_over


def play_script(match: Match, scenarios: Sequence[Scenario]) -> None:
    """Play one hand per scenario (the match must have been given the same decks in order)."""
    for s in scenarios:
        play_hand(match, s.knocker)


@dataclass(slots=True)
class PlayedHand:
    """One hand of a game as its events tell it."""

    started: HandStarted
    events: list[MatchEvent] = field(default_factory=list)
    ended: HandEnded | None = None

    @property
    def dealt(self) -> Dealt:
        return next(e for e in self.events if isinstance(e, Dealt))

    @property
    def box(self) -> int:
        return self.started.dealer

    @property
    def captain(self) -> int:
        a, b = self.started.seats
        return a + b - self.started.dealer


def played_hands(events: Sequence[MatchEvent]) -> list[PlayedHand]:
    """The hands of a game, from its event log."""
    out: list[PlayedHand] = []
    for e in events:
        if isinstance(e, HandStarted):
            out.append(PlayedHand(e))
        elif isinstance(e, HandEnded):
            out[-1].ended = e
        elif out and not isinstance(e, GameOver):
            out[-1].events.append(e)
    return out


def game_overs(events: Sequence[MatchEvent]) -> Iterator[GameOver]:
    return (e for e in events if isinstance(e, GameOver))
