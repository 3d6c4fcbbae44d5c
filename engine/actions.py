"""Actions: what a player asks for. A closed union of small frozen values, each with a text form.

Text forms (``parse_action`` reads them, ``str`` writes them)::

    take                      take the first upcard            (OFFER-1, OFFER-2)
    pass                      decline the first upcard         (OFFER-1, OFFER-2)
    draw                      take the top of the stock        (TURN-2)
    pickup                    take the top of the discard pile (TURN-2, DEAD-2)
    discard Kh                discard a card face up           (TURN-2)
    knock Kh                  knock, discarding Kh face down   (KNOCK-1)
    big-gin                   declare big gin, no discard      (KNOCK-6)
    decline                   leave the last discard (50th-card rule) (DEAD-2)
    spread As-2s-3s 7c-7d-7h  the knocker's melds              (KNOCK-4)
    layoff 9c-9d-9h 7c>4c-5c-6c   the defender's melds and layoffs (LAY-5)

With a seat prefix (``p0 discard Kh``) the seat is read from the text. The grammar, with its accepted forms
and the rule each refusal names, is ``spec/notation.md``; ``engine.notation`` reads it. Rules: NOTE-5 .. NOTE-9.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine import notation
from engine.cards import Card
from engine.errors import NotationError
from engine.melds import Meld, canonical, well_formed
from engine.showdown import Layoff, canonical_layoffs, well_formed_layoffs


@dataclass(frozen=True, slots=True)
class TakeUpcard:
    seat: int
    trigger = "take_upcard"
    order = 1

    def __str__(self) -> str:
        return "take"


@dataclass(frozen=True, slots=True)
class PassUpcard:
    seat: int
    trigger = "pass_upcard"
    order = 0

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class DrawStock:
    seat: int
    trigger = "draw_stock"
    order = 2

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class DrawDiscard:
    seat: int
    trigger = "draw_discard"
    order = 3

    def __str__(self) -> str:
        return "pickup"


@dataclass(frozen=True, slots=True)
class Discard:
    seat: int
    card: Card
    trigger = "discard"
    order = 4

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Knock:
    seat: int
    card: Card
    trigger = "knock"
    order = 5

    def __str__(self) -> str:
        return f"knock {self.card}"


@dataclass(frozen=True, slots=True)
class BigGin:
    seat: int
    trigger = "big_gin"
    order = 6

    def __str__(self) -> str:
        return "big-gin"


@dataclass(frozen=True, slots=True)
class DeclineWall:
    seat: int
    trigger = "decline_wall"
    order = 7

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Spread:
    """The knocker's spread: his choice of disjoint melds (kept in canonical order)."""

    seat: int
    melds: tuple[Meld, ...]
    trigger = "spread"
    order = 8

    def __post_init__(self) -> None:
        if well_formed(self.melds):  # anything else is kept as given, for check to refuse (TURN-1)
            object.__setattr__(self, "melds", canonical(self.melds))

    def __str__(self) -> str:
        return " ".join(["spread", *map(str, self.melds)])


@dataclass(frozen=True, slots=True)
class LayOff:
    """The defender's whole answer: his own melds and his layoffs onto the knocker's melds."""

    seat: int
    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...] = ()
    trigger = "lay_off"
    order = 9

    def __post_init__(self) -> None:
        if well_formed(self.melds):  # anything else is kept as given, for check to refuse (TURN-1)
            object.__setattr__(self, "melds", canonical(self.melds))
        if well_formed_layoffs(self.layoffs):
            object.__setattr__(self, "layoffs", canonical_layoffs(self.layoffs))

    def __str__(self) -> str:
        return " ".join(["layoff", *map(str, self.melds), *map(str, self.layoffs)])


Action: TypeAlias = (
    TakeUpcard | PassUpcard | DrawStock | DrawDiscard | Discard | Knock | BigGin | DeclineWall | Spread | LayOff
)


def shown_mask(action: object) -> int:
    """The cards a spread or a defender's answer lays on the table: its melds and, for an answer, the cards it
    lays off (0 for any other action). What is left of the hand is its deadwood. Rules: KNOCK-4, LAY-5."""
    used = 0
    if isinstance(action, Spread | LayOff):
        for m in action.melds:
            used |= m.mask
    if isinstance(action, LayOff):
        for lo in action.layoffs:
            used |= lo.card.bit
    return used


ACTION_TYPES: tuple[type[Action], ...] = (
    PassUpcard,
    TakeUpcard,
    DrawStock,
    DrawDiscard,
    Discard,
    Knock,
    BigGin,
    DeclineWall,
    Spread,
    LayOff,
)


def sort_key(action: Action) -> tuple[object, ...]:
    """The explicit order of ``legal_actions()``: by kind, then by cards (rank, then suit)."""
    match action:
        case Discard(card=c) | Knock(card=c):
            return (action.order, c.rank, c.suit)
        case Spread(melds=ms):
            return (action.order, [m.sort_key for m in ms])
        case LayOff(melds=ms, layoffs=los):
            return (
                action.order,
                [m.sort_key for m in ms],
                [(lo.onto.sort_key, lo.card.rank, lo.card.suit) for lo in los],
            )
        case _:
            return (action.order,)


def parse_action(text: str, seat: int | None = None) -> Action:
    """Read an action from its text (``spec/notation.md``); the seat comes from a ``pN`` prefix or the argument.

    >>> parse_action("p1 knock Kh")
    Knock(seat=1, card=Card.parse('Kh'))

    Raises:
        NotationError: text not in the notation (NOTE-1 .. NOTE-11), advice and a game's end included (a hand takes
            neither, NOTE-8, NOTE-11).
        InvalidMeld: cards written as a meld that make none (MELD-1, MELD-2).
    """
    written = notation.parse(text)
    if written.verb == "advise":
        raise NotationError(f"NOTE-8: advice is a game's action, not a hand's: {text!r}")
    if written.verb in notation.ENDING_VERBS:
        raise NotationError(f"NOTE-11: {written.verb} ends a game, not a hand's action: {text!r}")
    return build(written, seat, text)


def build(written: notation.Written, seat: int | None, text: str) -> Action:
    """The action a parsed text asks for, its seat from the text or ``seat``. Rules: NOTE-4, NOTE-7, MELD-1."""
    seat = written.seat if written.seat is not None else seat
    if seat is None:
        raise NotationError(f"NOTE-4: no seat given for action {text!r} (prefix it with p0, p1 or p2)")
    card = None if written.card is None else Card.from_index(written.card)
    match written.verb:
        case "take":
            return TakeUpcard(seat)
        case "pass":
            return PassUpcard(seat)
        case "draw":
            return DrawStock(seat)
        case "pickup":
            return DrawDiscard(seat)
        case "big-gin":
            return BigGin(seat)
        case "decline":
            return DeclineWall(seat)
        case "discard" if card is not None:
            return Discard(seat, card)
        case "knock" if card is not None:
            return Knock(seat, card)
        case "spread":
            return Spread(seat, tuple(_meld(m) for m in written.melds))
        case "layoff":
            if written.loose:
                raise NotationError(f"NOTE-7: a layoff names the meld it goes onto: {text!r} (e.g. '7c>4c-5c-6c')")
            melds = tuple(_meld(m) for m in written.melds)
            return LayOff(seat, melds, tuple(Layoff(Card.from_index(c), _meld(m)) for c, m in written.layoffs))
    raise NotationError(f"NOTE-5: not an action: {text!r}")


def _meld(indices: tuple[int, ...]) -> Meld:
    return Meld.of(Card.from_index(i) for i in indices)


@dataclass(frozen=True, slots=True)
class Advise:
    """The sitter's non-binding suggestion of an action for the captain (three-handed). Rule: THREE-7."""

    seat: int
    suggestion: Action
    trigger = "advise"
    order = 10

    def __str__(self) -> str:
        seat = getattr(self.suggestion, "seat", "?")  # a bad suggestion is refused, and still printable
        return f"advise p{seat} {self.suggestion}"


@dataclass(frozen=True, slots=True)
class Resign:
    """A seat gives the game up: it loses, at once, whoever is to act. Rule: END-1."""

    seat: int
    trigger = "end_early"

    def __str__(self) -> str:
        return "resign"


@dataclass(frozen=True, slots=True)
class Abort:
    """A seat calls the game off before both seats of the first hand have acted: no winner, no game. Rule: END-2."""

    seat: int
    trigger = "end_early"

    def __str__(self) -> str:
        return "abort"


@dataclass(frozen=True, slots=True)
class Claim:
    """A seat claims the game because ``absent`` has been away long enough; ``at`` is the host's time of the
    claim, in whole seconds since the epoch (the player asks, the host stamps it). Rule: END-4."""

    seat: int
    absent: int
    at: int
    trigger = "end_early"

    def __str__(self) -> str:
        return f"claim p{self.absent} at {self.at}"


#: The requests that end a game before the target (END-1, END-2, END-4).
Ending: TypeAlias = Resign | Abort | Claim
ENDINGS: tuple[type[Resign], type[Abort], type[Claim]] = (Resign, Abort, Claim)

MatchAction: TypeAlias = Action | Advise | Ending


def parse_match_action(text: str, seat: int | None = None) -> MatchAction:
    """Like ``parse_action``, and also ``"p2 advise p1 knock Kh"`` (the sitter's suggestion to the captain) and a
    game's end: ``"p0 resign"``, ``"p1 abort"``, ``"p0 claim p1 at 1765100000"``. Rules: NOTE-8, NOTE-11, NOTE-4."""
    written = notation.parse(text)
    if written.verb in notation.ENDING_VERBS:
        seat = written.seat if written.seat is not None else seat
        if seat is None:
            raise NotationError(f"NOTE-4: no seat given for {text!r} (prefix it with the seat, e.g. 'p0')")
        if written.verb == "resign":
            return Resign(seat)
        if written.verb == "abort":
            return Abort(seat)
        assert written.absent is not None and written.at is not None  # the grammar gives a claim both (NOTE-11)
        return Claim(seat, written.absent, written.at)
    if written.verb != "advise":
        return build(written, seat, text)
    seat = written.seat if written.seat is not None else seat
    if seat is None:
        raise NotationError(f"NOTE-4: no seat given for advice {text!r} (prefix it with the sitter's seat)")
    assert written.suggestion is not None  # the grammar gives advice its suggestion (NOTE-8)
    return Advise(seat, build(written.suggestion, None, text))
