"""The facts the rules read, and the one bookkeeping that keeps them as a hand is played.

``Facts`` is what the rules kernel (``engine.kernel``) reads of a hand: the rule set and the hand's knock limit,
the stock's size, the pickups in a row, the card just taken from the pile, whether the seat must knock, whether
both seats passed the upcard, whether a big gin was declared, and what is known of a seat's cards (``holds``:
yes / no / unknown; ``mask_of``: all of them, or None when the facts do not show them). A full hand
(``engine.hand.Hand``) knows everything; a seat's view (``replay.public.ViewFacts``) knows its own cards and
what was shown.

The counters and flags among them, and whose turn it is, are kept by ``start`` (at the deal) and ``advance``
(each step of play) over a ``Kept`` record: the hand keeps them on itself, a view's reader on its public state,
and both move them with these two functions, so they cannot keep them differently. Where the cards are
(masks for the hand, what the seat sees for a view) each keeps in its own way: that is what they can see.
Rules: TURN-3, TURN-4, OFFER-4, DEAD-2, DEAD-3, KNOCK-2, KNOCK-6, LAY-1 (spec/rules.md).
"""

from __future__ import annotations

import enum
from typing import Protocol

from engine.cards import Card
from engine.rules import RuleSet
from engine.seats import other_seat


class Holding(enum.Enum):
    """Whether a seat holds a card, as far as the facts show."""

    YES = "yes"
    NO = "no"
    UNKNOWN = "unknown"


class Facts(Protocol):
    """What the rules need to know of a hand. ``engine.hand.Hand`` provides it from its masks, and
    ``replay.public.ViewFacts`` from what one seat's view shows."""

    @property
    def rules(self) -> RuleSet: ...
    @property
    def knock_limit(self) -> int: ...
    @property
    def stock_size(self) -> int: ...
    @property
    def pickups(self) -> int: ...  # discard pickups in a row (DEAD-3)
    @property
    def taken(self) -> Card | None: ...  # the card the seat to act took from the pile this turn (TURN-4)
    @property
    def must_knock(self) -> bool: ...  # the last discard was taken under the 50th-card rule (DEAD-2)
    @property
    def stock_only(self) -> bool: ...  # both seats passed the upcard (OFFER-4)
    @property
    def big_gin(self) -> bool: ...  # the knocker declared big gin (KNOCK-6)

    def holds(self, seat: int, card: Card) -> Holding:
        """Whether ``seat`` holds ``card``."""
        ...

    def mask_of(self, seat: int) -> int | None:
        """Every card ``seat`` holds as a mask, or None when the facts do not show them all."""
        ...


class Kept(Protocol):
    """The record ``start`` and ``advance`` keep: the hand's seats and dealer (read), whose turn it is and the
    counters and flags the rules read (written)."""

    @property
    def seats(self) -> tuple[int, int]: ...
    @property
    def dealer(self) -> int: ...
    @property
    def turn(self) -> int | None: ...
    @turn.setter
    def turn(self, seat: int) -> None: ...

    knock_limit: int
    taken: Card | None
    pickups: int
    stock_only: bool
    must_knock: bool
    knocker: int | None
    big_gin: bool


class Step(enum.Enum):
    """A step of play, as far as the facts the rules read are concerned."""

    PASS = "pass"  #: the upcard passed
    TAKE = "take"  #: a card taken from the discard pile: the upcard, or a discard
    TAKE_LAST = "take last"  #: the last discard, taken under the 50th-card rule (DEAD-2)
    DRAW = "draw"  #: a card drawn from the stock
    DISCARD = "discard"  #: a card discarded (not a knock)
    KNOCK = "knock"  #: a knock, its card face down
    BIG_GIN = "big gin"  #: big gin declared, all eleven cards melded
    SPREAD = "spread"  #: the knocker's melds laid: the defender answers


def start(kept: Kept, knock_limit: int) -> None:
    """The facts at the deal: the seat after the dealer to act, nothing taken, no pickups, no flag set. Rules:
    DEAL-5, KNOCK-3."""
    kept.turn = other_seat(kept.seats, kept.dealer)
    kept.knock_limit = knock_limit
    kept.taken = None
    kept.pickups = 0
    kept.stock_only = kept.must_knock = kept.big_gin = False
    kept.knocker = None


def advance(kept: Kept, step: Step, seat: int, card: Card | None = None) -> None:
    """Move the facts on by ``seat``'s ``step`` (``card``: the card taken, for a take).

    >>> from engine.hand import Hand
    >>> h = Hand.deal(seed=7)
    >>> advance(h, Step.PASS, 1); advance(h, Step.PASS, 0)
    >>> h.turn, h.stock_only
    (1, True)
    """
    if step is _DISCARD:
        kept.taken = None
        kept.turn = other_seat(kept.seats, seat)
    elif step is _DRAW:
        kept.taken = None
        kept.stock_only = False  # OFFER-4 holds for the first draw only
        kept.pickups = 0  # DEAD-3 counts pickups in a row
    elif step is _TAKE or step is _TAKE_LAST:
        kept.taken = card  # TURN-4
        kept.pickups += 1  # DEAD-3
        kept.must_knock = step is _TAKE_LAST  # DEAD-2
    elif step is _PASS:
        kept.turn = other_seat(kept.seats, seat)
        kept.stock_only = seat == kept.dealer  # OFFER-4: both passed
    elif step is _KNOCK or step is _BIG_GIN:
        kept.knocker = seat
        kept.big_gin = step is _BIG_GIN  # KNOCK-6
        kept.taken = None
        kept.must_knock = False
    elif step is _SPREAD:
        kept.turn = other_seat(kept.seats, seat)  # LAY-1: the defender answers


# Read on every step: globals, not attribute lookups on the enum.
_PASS, _TAKE, _TAKE_LAST, _DRAW = Step.PASS, Step.TAKE, Step.TAKE_LAST, Step.DRAW
_DISCARD, _KNOCK, _BIG_GIN, _SPREAD = Step.DISCARD, Step.KNOCK, Step.BIG_GIN, Step.SPREAD


class Attendance:
    """The facts a game's early end is judged by, kept once for the game (``engine.match``) and for a view's reader
    (``replay.endings``): the seats that have acted in the first hand (END-2), the seats away and since when, and the
    last time the host recorded (END-4). ``kernel.verify_end`` reads them; ``acted`` and ``record`` keep them."""

    __slots__ = ("away", "clock", "moved")

    def __init__(self) -> None:
        self.moved: set[int] = set()
        self.away: dict[int, int] = {}
        self.clock = 0

    def acted(self, number: int, seat: int) -> None:
        """``seat`` made an action of hand ``number`` (the sitter's advice is none)."""
        if number == 1:
            self.moved.add(seat)

    def record(self, kind: str, seat: int, at: int) -> None:
        """The host's time ``at`` of an ``away``, a ``back`` or a ``claim`` (judged already) by ``seat``."""
        self.clock = at
        if kind == "away":
            self.away[seat] = at
        elif kind == "back":
            del self.away[seat]
