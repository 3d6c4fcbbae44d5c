"""What a seat may see: the one place that decides it. Rules: VIS-1, VIS-2, THREE-7, THREE-8, LOG-11, PROTO-6.

``sight`` says, for a seat in a hand, whose cards it is shown and whether it hears the sitter's advice;
everything else here follows from it, and everything that shows a seat its view asks here:

- ``observe_hand`` and ``observe_match`` — the live state (``Hand.observation``, ``Match.observation``; bots
  and terminal play use them);
- ``SeatLens`` — a game's events as the seat saw them, one at a time (``knock show --seat``, terminal play, and
  the redaction of a log into the seat's view, ``replay.redact``, one record per event);
- ``shown_meta`` — what a view carries of the log's free metadata (nothing);
- a spectator (a seat of ``None``: at the table, in no seat) sees what no seat hides: ``observe_spectator``,
  and ``SeatLens(rules, None)`` (the table protocol's spectators, PROTO-6).

>>> from engine.match import Match
>>> from engine.rules import RuleSet
>>> m = Match.new(RuleSet.preset("three_handed"), seed=4)
>>> s = sight(m.rules, m.sitter, m.seats, m.dealer)       # the sitter advises the captain
>>> s.viewer == m.captain, s.hears_advice
(True, True)
>>> sight(m.rules, m.dealer, m.seats, m.dealer).hears_advice  # the box never does
False
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from engine import describe, kernel
from engine.actions import Advise, BigGin, Discard, DrawDiscard, Knock, LayOff, Spread
from engine.cards import Card, from_mask
from engine.errors import InvalidSeat
from engine.events import (
    Advised,
    Dealt,
    DefenceLaid,
    DrewStock,
    HandStarted,
    Knocked,
    MatchEvent,
    SpreadLaid,
)
from engine.fsm import Phase
from engine.rules import RuleSet
from engine.scoring import HandResult
from engine.seats import other_seat

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.match import Match


@dataclass(frozen=True, slots=True)
class Sight:
    """What one seat sees in one hand. Rules: VIS-1, THREE-8.

    ``position`` is the place at the table the seat looks from: its own seat when it plays, the captain's
    when it sits out (the sitter advises him). ``viewer`` is the seat whose cards it is shown — the position,
    or None for a sitter without ``sitter_sees_captain_hand``. ``hears_advice``:
    the sitter's suggestions reach the captain and the sitter, never the box.
    """

    seat: int | None  #: None for a spectator (PROTO-6)
    position: int
    viewer: int | None
    hears_advice: bool


def sight(rules: RuleSet, seat: int | None, seats: tuple[int, int], dealer: int) -> Sight:
    """What ``seat`` sees in a hand dealt by ``dealer`` to ``seats``: the one answer. Rules: VIS-1, THREE-7, THREE-8.

    A spectator (``seat`` None) looks from the first seat's place, is shown no seat's cards and hears no
    advice (PROTO-6).
    """
    if seat is None:
        return Sight(None, seats[0], None, False)
    if seat in seats:
        return Sight(seat, seat, seat, rules.players == 2 or seat != dealer)
    captain = other_seat(seats, dealer)
    return Sight(seat, captain, captain if rules.sitter_sees_captain_hand else None, True)


# --- the live state ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may see of a hand. Rules: VIS-1, VIS-2.

    ``opponent_known`` are the cards the opponent took from the discard pile and has not discarded face up
    since (a card he knocks with goes face down: the seat does not see it go, VIS-1, LAY-7);
    ``taken`` is this seat's card taken from the discard pile this turn (it may not be discarded, TURN-4);
    ``scores`` are the game's running scores by seat (public, MATCH-1) when the hand is seen as part of a game
    (``Match.observation``), and empty when it is seen on its own (``Hand.observation``).
    """

    seat: int
    phase: Phase
    to_act: int | None
    dealer: int
    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]
    stock_size: int
    upcard: Card
    knock_limit: int
    opponent_hand_size: int
    opponent_known: tuple[Card, ...]
    taken: Card | None
    knocker: int | None
    knock_discard: Card | None
    spread: SpreadLaid | None
    defence: DefenceLaid | None
    result: HandResult | None
    rules: RuleSet
    stock_only: bool  #: both passed the upcard: the first draw must come from the stock (OFFER-4)
    must_knock: bool  #: this seat took the last discard under the 50th-card rule and must knock (DEAD-2)
    scores: tuple[int, ...] = ()  #: the game's running scores by seat, when seen in a game (not in ``SeatBits``)

    def __str__(self) -> str:
        return describe.observation_text(self)


@dataclass(frozen=True, slots=True)
class MatchObservation:
    """What one seat may see of the game: the public game state and its view of the current hand.

    A sitter sees the captain's view (THREE-8) or, with ``sitter_sees_captain_hand`` off, only the
    public part of it.
    """

    seat: int
    role: str  #: "dealer" or "non_dealer" in two-player games; "box", "captain" or "sitter"
    number: int
    dealer: int
    sitter: int | None
    scores: tuple[int, ...]
    to_act: int | None
    hand: Observation | None

    def __str__(self) -> str:
        return describe.match_observation_text(self)


def _dealt(hand: Hand, seat: int) -> int:
    """``seat``, one of the hand's seats. Rule: VIS-1.

    Raises:
        InvalidSeat: the seat holds no cards in this hand.
    """
    if seat not in hand.seats:
        raise InvalidSeat("VIS-1", f"p{seat} has no cards in this hand (seats {hand.seats})")
    return seat


def observe_hand(hand: Hand, seat: int) -> Observation:
    """Exactly what ``seat``, one of the hand's two seats, may see of it. Rules: VIS-1, VIS-2.

    Raises:
        InvalidSeat: the seat holds no cards in this hand.
    """
    return _observe(hand, _dealt(hand, seat), seat)


class SeatBits(NamedTuple):
    """What one seat may see of a hand, as ``Observation`` holds it but with each set of cards one bitmask
    (``Card.bit``): ``hand`` and ``opponent_known``. For encoders that work on bits (the environments); the
    same decision as ``Observation`` (``observe_hand`` is built from it). Rules: VIS-1, VIS-2."""

    seat: int
    phase: Phase
    to_act: int | None
    dealer: int
    hand: int
    discard_pile: tuple[Card, ...]
    stock_size: int
    upcard: Card
    knock_limit: int
    opponent_hand_size: int
    opponent_known: int
    taken: Card | None
    knocker: int | None
    knock_discard: Card | None
    spread: SpreadLaid | None
    defence: DefenceLaid | None
    result: HandResult | None
    rules: RuleSet
    stock_only: bool
    must_knock: bool


def observe_bits(hand: Hand, seat: int) -> SeatBits:
    """``observe_hand(hand, seat)`` with its card sets as bitmasks. Rules: VIS-1, VIS-2.

    Raises:
        InvalidSeat: the seat holds no cards in this hand.
    """
    return _seat_bits(hand, _dealt(hand, seat), seat)


def _seat_bits(hand: Hand, position: int, viewer: int | None) -> SeatBits:
    """The hand seen from ``position``; its private part (cards, the card taken, the knock discard) only when
    ``viewer`` is that position. The one decision both views are made of."""
    other = other_seat(hand.seats, position)
    shown = viewer == position
    turn = hand.turn
    knocker = hand.knocker
    known = hand.known[other]
    if knocker == other and hand.knock_card is not None and hand.knock_taken:
        known |= hand.knock_card.bit  # VIS-1: it went face down; for this seat it is still the card taken
    return SeatBits(
        position, hand.phase, hand.to_act, hand.dealer,
        hand.hands[position] if shown else 0,
        tuple(hand.discards), len(hand.stock), hand.upcard, hand.knock_limit, hand.hands[other].bit_count(), known,
        hand.taken if shown and turn == position else None,
        knocker,
        hand.knock_card if shown and knocker == position else None,  # LAY-7: face down
        hand.spread, hand.defence, hand.result, hand.rules, hand.stock_only,
        hand.must_knock and turn == position,
    )  # fmt: skip


def _observe(hand: Hand, position: int, viewer: int | None, scores: tuple[int, ...] = ()) -> Observation:
    """The hand seen from ``position`` (``_seat_bits``), its card sets as cards. ``Observation``'s fields are
    ``SeatBits``' in the same order, then the game's ``scores`` (a test holds them so), so it is built
    positionally: this is every bot's observation, on the hot path of play."""
    b = _seat_bits(hand, position, viewer)
    return Observation(b[0], b[1], b[2], b[3], from_mask(b[4]) if b[4] else (), b[5], b[6], b[7], b[8], b[9],
                       from_mask(b[10]), *b[11:], scores)  # fmt: skip


def observe_match(match: Match, seat: int) -> MatchObservation:
    """What ``seat`` may see of a game: the public game state and its sight of the current hand.
    Rules: VIS-1, THREE-8.

    Raises:
        InvalidSeat: no such seat in the game.
    """
    _check_seat(match.rules, seat)
    view: Observation | None = None
    scores = match.scores
    if match.hand is not None:
        s = sight(match.rules, seat, match.seats, match.dealer)
        view = _observe(match.hand, s.position, s.viewer, scores)
    role = next(name for name, s in match.roles().items() if s == seat)
    return MatchObservation(seat, role, match.number, match.dealer, match.sitter, scores, match.to_act, view)


def observe_in_game(match: Match, seat: int) -> Observation:
    """What ``seat``, dealt into the current hand, sees of it with the game's scores: ``observe_match(match,
    seat).hand`` made directly, the view every bot in a game is given. Rules: VIS-1, VIS-2.

    Raises:
        InvalidSeat: no hand is in play, or the seat holds no cards in it.
    """
    if match.hand is None:
        raise InvalidSeat("VIS-1", "no hand is in play")
    return _observe(match.hand, _dealt(match.hand, seat), seat, match.scores)


def advice_shown(match: Match, seat: int) -> list[Advise]:
    """The advice ``seat`` may be offered now: the sitter's, while the captain is to act (THREE-7) — all of it when
    it sees the captain's cards, else only the suggestions that name none of them (THREE-8). Rule: PROTO-5."""
    if seat != match.sitter:
        return []
    options = match.advice_options()
    if sight(match.rules, seat, match.seats, match.dealer).viewer is not None:
        return options  # blind_advice's first answer, asked once: he sees the captain's cards, no advice is blind
    return [a for a in options if not blind_advice(match, a)]


def blind_advice(match: Match, advice: Advise) -> bool:
    """Whether ``advice`` names cards of the captain's that its sitter is not shown, or is legal only for some of
    the holdings the sitter cannot tell apart (big gin, taking the last discard to knock) (THREE-8): such advice
    is refused without a word on whether it would be legal, which would tell him the captain's cards.
    Rules: PROTO-5, THREE-8.
    """
    if sight(match.rules, advice.seat, match.seats, match.dealer).viewer is not None:
        return False
    suggestion = advice.suggestion
    if isinstance(suggestion, Discard | Knock | Spread | LayOff | BigGin):
        return True  # named cards, or (big gin) legal only for some holdings of the captain's
    # DEAD-2: taking the last discard is legal only when it lets the captain knock, a fact of his cards
    return isinstance(suggestion, DrawDiscard) and match.hand is not None and match.hand.phase is Phase.WALL


def observe_spectator(match: Match) -> tuple[MatchObservation, ...]:
    """What a spectator may see of a game: the hand from each dealt seat's place, no seat's cards shown (each
    observation's ``opponent_known`` is what everyone knows of the other seat's hand). Rule: PROTO-6."""
    hand = match.hand
    if hand is None:
        return ()
    roles = {s: name for name, s in match.roles().items()}
    return tuple(
        MatchObservation(
            seat, roles[seat], match.number, match.dealer, match.sitter, match.scores, match.to_act,
            _observe(hand, seat, None),
        )
        for seat in hand.seats
    )  # fmt: skip


# --- events as a seat saw them ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HiddenDraw:
    """A stock draw whose card the seat was not shown (LOG-11: a plain ``draw`` in its view)."""

    seat: int

    def __str__(self) -> str:
        return f"p{self.seat} draws from the stock"


@dataclass(frozen=True, slots=True)
class HiddenKnock:
    """A knock whose face-down discard the seat was not shown (LAY-7)."""

    seat: int

    def __str__(self) -> str:
        return f"p{self.seat} knocks"


@dataclass(frozen=True, slots=True)
class HiddenAdvice:
    """The sitter's advice, which the box does not hear (THREE-8): that it was given, not what it said."""

    seat: int

    def __str__(self) -> str:
        return f"p{self.seat} advises the captain"


#: An event as a seat saw it: the event itself, with a deal's unseen hands and the stock left out, or
#: one of the hidden forms.
Seen: TypeAlias = MatchEvent | HiddenDraw | HiddenKnock | HiddenAdvice


class SeatLens:
    """A game's events as ``seat`` saw them, in order: feed it every event (``see``, ``see_all``); it keeps
    track of the seat's sight from each hand's start; a seat of None is a spectator's lens (PROTO-6).
    Rules: VIS-1, THREE-8, LOG-11.

    >>> from engine.match import Match
    >>> m = Match.new(seed=3)
    >>> seen = SeatLens(m.rules, 0).see_all(m.events)
    >>> deal = seen[-1]
    >>> [len(h) for h in deal.hands], len(deal.stock)
    ([10, 0], 0)
    """

    def __init__(self, rules: RuleSet, seat: int | None) -> None:
        if seat is not None:
            _check_seat(rules, seat)
        self.rules = rules
        self.seat = seat
        self.sight: Sight | None = None  #: the seat's sight in the current hand (None before the first)

    def see(self, event: MatchEvent) -> Seen:
        """What the seat saw of ``event`` (events must come in the game's order)."""
        s = self.sight
        match event:
            case HandStarted(seats=seats, dealer=dealer):
                self.sight = sight(self.rules, self.seat, seats, dealer)
            case Dealt(seats=seats, hands=hands):
                viewer = s.viewer if s is not None else None
                shown = tuple(h if holder == viewer else () for holder, h in zip(seats, hands, strict=True))
                return dataclasses.replace(event, hands=(shown[0], shown[1]), stock=())
            case DrewStock(seat=drawer) if s is None or drawer != s.viewer:
                return HiddenDraw(drawer)
            case Knocked(seat=knocker) if s is None or knocker != s.viewer:
                return HiddenKnock(knocker)
            case Advised(seat=adviser) if s is None or not s.hears_advice:
                return HiddenAdvice(adviser)
            case _:
                pass
        return event

    def see_all(self, events: Iterable[MatchEvent]) -> list[Seen]:
        return [self.see(e) for e in events]


def shown_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    """What a seat's view carries of a log's free metadata: nothing — it may hold anything (a game's seed
    rebuilds every deal). Rule: LOG-11."""
    return {}


def unseen(what: str, seat: int) -> Seen:
    """The form a seat's view (LOG-11) gives what it was not shown, by the view record's kind — ``draw`` (the
    card), ``knock`` (the face-down discard) or ``advice`` (what the sitter said) — for a reader of views, which
    holds these forms and nothing more."""
    forms: dict[str, type[HiddenDraw | HiddenKnock | HiddenAdvice]] = {
        "draw": HiddenDraw, "knock": HiddenKnock, "advice": HiddenAdvice,
    }  # fmt: skip
    return forms[what](seat)


def _check_seat(rules: RuleSet, seat: int) -> None:
    """A seat of the game (``engine.kernel.verify_seat_in_game``), or ``InvalidSeat``. Rule: THREE-1."""
    try:
        kernel.verify_seat_in_game(rules.players, seat)
    except kernel.Refused as err:
        raise InvalidSeat(err.rule, err.reason) from None
