"""A per-seat view replayed in public mode: the same driver and grammar as a full log, with the public rules.

Rule: LOG-12 (spec/log-format.md). A view's reader cannot re-apply the actions (it does not know the hidden
cards), so ``Public`` gives each record its public meaning: the roles, whose turn it is, the phase of the hand
(where a discard leads is the rules kernel's decision, ``engine.kernel``, on what every seat sees: the stock's
size, the pickups in a row), the discard pile, the stock, the cards the seat holds or advises on, the cards each
seat took from the pile, the spreads and every result. It refuses a view in which the seat discards a card it
does not hold, an opponent discards one the seat holds, a drawn card was seen before, more cards are drawn
than the stock holds, or a record stands where the grammar does not allow it; and everything else the seat
can check (LOG-16): the rules of play, asked of the kernel with the seat's facts (``ViewFacts``: TURN-3, TURN-4,
OFFER-4, DEAD-2, KNOCK-2, KNOCK-6), THREE-7 and LOG-10,
and, through ``replay.reckoning``, the roles, the showdown, every result and score and the game's end.

It holds the current hand's public state and the game's running totals, never the records behind them, so
a view of any length replays in the same memory (LOG-15).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from engine import kernel
from engine.cards import DECK, Card, to_mask
from engine.facts import Holding, Step, advance, start
from engine.hand import HAND_SIZE
from engine.kernel import Refused, knock_limit_for
from engine.match import next_roles
from engine.melds import Meld
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind
from engine.seats import other_seat
from engine.standings import Tally
from engine.visibility import sight
from replay import reckoning
from replay.codec import DISCARD_BASE, KINDS, KNOCK_BASE, KNOCK_HIDDEN, REASONS, T_RESULT, UNKNOWN, CodecError
from replay.endings import Ends
from replay.fair import FairCheck
from replay.grammar import ACCEPTS, ACTIONS, ENDINGS, PLAYING, PRESENCE, VIEW_ONLY, At, Kind, Row, classify
from replay.log import Entry, Header, LogError, LogReader
from replay.notation import record_text
from replay.reading import Handler, Reading
from replay.replayer import drive

UPCARD_AT = 2 * HAND_SIZE  #: the upcard's place in a deal record (DEAL-3)


@dataclass
class PublicState:
    """The public state of a game as one seat's view shows it (LOG-12); ``seat`` sees ``viewer``'s cards."""

    seat: int
    number: int = 0
    dealer: int = 0
    seats: tuple[int, int] = (0, 1)
    sitter: int | None = None
    position: int = 0  #: the seat this one looks from: itself, or the captain for a sitter (THREE-8)
    viewer: int | None = None  #: whose cards the seat sees this hand (its own, the captain's, or none)
    phase: At = At.CUT  #: where the game stands (the grammar's state)
    turn: int | None = None  #: the seat to act
    upcard: Card | None = None
    knock_limit: int = 0
    discard_pile: list[Card] = field(default_factory=list)
    stock_size: int = 0
    held: dict[int, int] = field(default_factory=dict)  #: how many cards each seat of the hand holds
    own: set[Card] = field(default_factory=set)  #: the cards of ``viewer``
    known: dict[int, set[Card]] = field(default_factory=dict)  #: cards each seat took from the pile and holds
    seen: set[Card] = field(default_factory=set)  #: every card this seat has been shown in this hand
    taken: Card | None = None  #: the card the seat to act took from the pile this turn
    pickups: int = 0  #: discard pickups in a row (DEAD-3)
    stock_only: bool = False  #: both passed the upcard (OFFER-4)
    must_knock: bool = False  #: the last discard was taken under the 50th-card rule (DEAD-2)
    knocker: int | None = None
    knock_discard: Card | None = None  #: the knocker's face-down card, when the viewer is the knocker
    big_gin: bool = False
    spread: tuple[tuple[Card, ...], ...] | None = None  #: the knocker's melds
    spread_melds: tuple[Meld, ...] = ()
    defence: tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, tuple[Card, ...]], ...]] | None = None
    bounds: dict[int, tuple[int, int]] = field(default_factory=dict)  #: each seat's deadwood, as far as shown
    dead_reason: str = ""  #: why the hand died (DEAD-1 .. DEAD-3), once it has
    revealed: bool = False  #: the hand's salt is revealed (LOG-10)
    result: HandResult | None = None
    last_winner: int | None = None  #: the last hand's winner, who the next roles depend on
    scores: tuple[int, ...] = ()
    over: bool = False
    winner: int | None = None

    @property
    def opponent_known(self) -> set[Card]:
        """The cards the opponent of ``position`` took from the pile and still holds."""
        return self.known.get(other_seat(self.seats, self.position), set())


class ViewFacts:
    """The facts the rules kernel reads (``engine.kernel.Facts``), as one seat's view shows them: the public
    counts and flags, the cards of the seat it sees (``viewer``), and what it knows of the other seat's: the
    cards that seat took from the pile and holds (yes), the cards the viewer holds (no), anything else unknown
    (a card seen on the pile is left unknown: where a forged view shows one twice, LOG-16's showdown checks and
    the rules' own order name the fault, as they did before the kernel)."""

    __slots__ = ("rules", "st")

    def __init__(self, rules: RuleSet, state: PublicState) -> None:
        self.rules = rules
        self.st = state

    @property
    def knock_limit(self) -> int:
        return self.st.knock_limit

    @property
    def stock_size(self) -> int:
        return self.st.stock_size

    @property
    def pickups(self) -> int:
        return self.st.pickups

    @property
    def taken(self) -> Card | None:
        return self.st.taken

    @property
    def must_knock(self) -> bool:
        return self.st.must_knock

    @property
    def stock_only(self) -> bool:
        return self.st.stock_only

    @property
    def big_gin(self) -> bool:
        return self.st.big_gin

    def holds(self, seat: int, card: Card) -> Holding:
        st = self.st
        if seat == st.viewer:
            return Holding.YES if card in st.own else Holding.NO
        if card in st.known.get(seat, ()):
            return Holding.YES
        if card in st.own:
            return Holding.NO
        return Holding.UNKNOWN

    def mask_of(self, seat: int) -> int | None:
        st = self.st
        return to_mask(st.own) if seat == st.viewer else None


def result_of(record: Any, seats: tuple[int, int]) -> HandResult:
    """The hand result a ``result`` record states (LOG-2), for a reader that cannot work it out (a view).

    Raises:
        CodecError: not a result record of the right shape.
    """
    if not (isinstance(record, list) and len(record) == 11 and record[0] == T_RESULT):
        raise CodecError("a result record is [6, number, kind, winner, points, knocker, deadwood, deadwood, "
                         "multiplier, reason, scores]")  # fmt: skip
    _, number, kind, winner, points, knocker, dw0, dw1, multiplier, reason, scores = record
    ints = (number, kind, points, multiplier, reason)
    optional = (winner, knocker, dw0, dw1)
    if not all(type(v) is int for v in ints) or not all(v is None or type(v) is int for v in optional):
        raise CodecError("a result record's fields are integers (winner, knocker and deadwood may be nil)")
    if not 0 <= kind < len(KINDS) or not 0 <= reason < len(REASONS) or (dw0 is None) != (dw1 is None):
        raise CodecError("a result record names an unknown kind or reason, or half a deadwood pair")
    if not isinstance(scores, list) or not all(type(v) is int for v in scores):
        raise CodecError("a result record ends with the running scores, a list of integers")
    deadwood = None if dw0 is None else (dw0, dw1)
    return HandResult(ResultKind(KINDS[kind]), winner, points, knocker, deadwood, multiplier, REASONS[reason], seats)


class ViewReplayer:
    """Replays a per-seat view: its framing and digests (as any log), the grammar, the turn order, the stock
    count, the seat's own cards and everything it was shown. Rule: LOG-12.
    """

    def __init__(self, source: BinaryIO | bytes | LogReader) -> None:
        self.reader = source if isinstance(source, LogReader) else LogReader(source)
        header = self.reader.header
        if header.view is None:
            raise LogError("LOG-12", 0, "not a per-seat view (the header names no 'view')")
        rules = header.rule_set()
        self.header = header
        self.state = PublicState(seat=header.view, scores=(0,) * len(header.players))
        self.model = Public(header, rules, self.state)

    def records(self) -> Iterator[tuple[Entry, PublicState]]:
        """Every record with the public state after it (one object, updated in place)."""
        st = self.state
        for entry, at in drive(self.reader, self.model, view=True):
            st.phase = at
            yield entry, st

    def states(self) -> Iterator[PublicState]:
        """The public state after every record (one object, updated in place)."""
        for _, st in self.records():
            yield st

    def run(self) -> PublicState:
        for _ in self.states():
            pass
        return self.state


class Public(Reading):
    """A view's records as the seat sees them: the public rules, the seat's own cards (LOG-12), and every check
    the seat can make of the roles, the showdown and the scores (LOG-16). The records it reads as a full log's
    reader does (the draw, a fair hand's, the checkpoint) are ``Reading``'s."""

    noun = "view"

    def __init__(self, header: Header, rules: RuleSet, state: PublicState) -> None:
        self.header = header
        self.rules = rules
        self.st = state
        self.facts = ViewFacts(rules, state)  #: what the rules kernel reads of the hand, as the seat sees it
        self.tally = Tally(rules, len(header.players))  #: the running totals the results must add up to
        self._committed = False
        self.fair = FairCheck(header.fair, len(header.players), header.version)  # its seeds, and the cards it shows
        self.cuts: list[Entry] = []  # the draw's rounds before the first hand (at most 52 cards: MATCH-7)
        self.ends = Ends(rules, header.version)  # a game's end before the target (END-1 .. END-5)
        simple: dict[Kind, Handler] = {
            Kind.PASS: self._pass,
            Kind.TAKE: self._pickup,
            Kind.PICKUP: self._pickup,
            Kind.DRAW: self._draw,
            Kind.SEEN_DRAW: self._draw,
            Kind.DISCARD: self._discard,
            Kind.KNOCK: self._knock,
            Kind.HIDDEN_KNOCK: self._knock,
            Kind.BIG_GIN: self._knock,
            Kind.DECLINE: self._decline,
            Kind.SPREAD: self._spread,
            Kind.LAYOFF: self._layoff,
            Kind.ADVICE: self._advice,
        }
        self.handlers: dict[Kind, Handler] = {
            **self.shared_handlers(),
            **simple,
            Kind.COMMIT: self._commit,
            Kind.HAND: self._hand,
            Kind.DEAL: self._deal,
            Kind.RESULT: self._result,
            Kind.REVEAL: self._reveal,
            Kind.GAME_OVER: self._game_over,
            **dict.fromkeys(ENDINGS | PRESENCE, self._end),
        }

    # --- the draw and the deals ------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.st.number > 0

    def check_going_on(self, entry: Entry) -> None:
        if self.tally.standings().over:
            raise LogError("MATCH-1", entry.index, "a seat has reached the target: the game's end comes next, "
                           "not another hand")  # fmt: skip

    def salt_pending(self) -> bool:
        return self.header.commitments and not self.st.revealed

    def _commit(self, row: Row, entry: Entry) -> At:
        if not self.header.commitments:
            raise LogError("LOG-10", entry.index, "a shuffle commitment in a view whose header declares none")
        self.check_going_on(entry)
        self.check_drawn(entry)
        self._committed = True
        return At.COMMITTED

    def _hand(self, row: Row, entry: Entry) -> At:
        st, rec, players = self.st, entry.record, len(self.header.players)
        if self.header.commitments and not self._committed:
            raise LogError("LOG-10", entry.index, "a hand without its shuffle commitment")
        self.check_fair(entry, lambda: self.fair.hand(rec[1] if len(rec) > 1 else 0))
        self._committed = False
        fields = rec[1:] if len(rec) == 6 else []
        if not fields or not all(type(v) is int or (v is None and i == 4) for i, v in enumerate(fields)):
            raise LogError("LOG-12", entry.index, "a hand record is [1, number, dealer, seat_a, seat_b, sitter]")
        number, dealer, a, b, sitter = fields
        third = None if players == 2 else 3 - a - b
        if not 0 <= a < b < players or dealer not in (a, b) or sitter != third:
            raise LogError("LOG-12", entry.index, f"hand {number}: no such roles in a game of {players}")
        self.check_going_on(entry)
        self.check_drawn(entry)
        if number != st.number + 1:
            raise LogError("LOG-4", entry.index, f"hand {st.number} is followed by hand {st.number + 1}, not {number}")
        first = st.number == 0
        if first:
            roles = reckoning.first_roles(self.rules, self.cuts, entry)
            self.cuts = []
        else:
            roles = next_roles(self.rules, st.dealer, st.seats, st.sitter, st.last_winner)
        st.number, st.dealer, st.seats, st.sitter = number, dealer, (a, b), sitter
        reckoning.check_roles(st, self.rules, roles, entry, first)
        s = sight(self.rules, st.seat, st.seats, dealer)
        st.position, st.viewer = s.position, s.viewer
        return At.DEAL

    def _deal(self, row: Row, entry: Entry) -> At:
        st, rec = self.st, entry.record
        codes = rec[1] if len(rec) == 2 else None
        if not isinstance(codes, bytes) or any(c > 51 and c != UNKNOWN for c in codes):
            raise LogError("LOG-2", entry.index, "a deal in a view is card codes, 255 for a card not seen")
        if len(codes) != 52:
            raise LogError("DEAL-4", entry.index, f"a deck order holds 52 cards, not {len(codes)}")
        self.fair.deal(codes)
        first = None if st.viewer is None else (1 if st.viewer == st.dealer else 0)  # DEAL-3: the viewer's places
        shown = [i for i, c in enumerate(codes) if c != UNKNOWN]
        mine = [] if first is None else list(range(first, UPCARD_AT, 2))
        if shown != sorted([*mine, UPCARD_AT]):
            raise LogError("LOG-12", entry.index, f"the view shows the dealt cards at {shown}, the seat sees "
                           f"{len(mine)} and the upcard")  # fmt: skip
        self.fair.dealt_to(st.dealer, st.seats, st.viewer)
        st.upcard = Card.from_index(codes[UPCARD_AT])
        st.own = {Card.from_index(codes[i]) for i in mine}
        if len(st.own) != len(mine) or st.upcard in st.own:
            raise LogError("DEAL-4", entry.index, "the deal shows a card twice")
        st.seen = st.own | {st.upcard}
        st.discard_pile, st.stock_size = [st.upcard], 52 - UPCARD_AT - 1
        st.held = dict.fromkeys(st.seats, HAND_SIZE)
        st.known = {s: set() for s in st.seats}
        start(st, knock_limit_for(self.rules, st.upcard))  # the counters and flags the rules read (engine.facts)
        st.knock_discard = st.spread = st.defence = st.result = None
        st.spread_melds, st.bounds, st.dead_reason, st.revealed = (), {}, "", False
        return At.UPCARD_OFFER

    # --- play --------------------------------------------------------------------------------------

    def _actor(self) -> int:
        actor = self.st.turn
        assert actor is not None  # the grammar takes an action only while a seat is to act
        self.ends.seen.acted(self.st.number, actor)
        return actor

    def _pass(self, row: Row, entry: Entry) -> At:
        st, actor = self.st, self._actor()
        advance(st, Step.PASS, actor)
        return At.DRAW if actor == st.dealer else At.UPCARD_OFFER

    def _pickup(self, row: Row, entry: Entry) -> At:
        st, actor = self.st, self._actor()
        self.check_play(row.kind, None, entry.index, wall=row.state is At.WALL)
        if not st.discard_pile:
            raise LogError("LOG-12", entry.index, "a pickup from an empty discard pile")
        card = st.discard_pile.pop()
        if actor == st.viewer:
            st.own.add(card)
        self.fair.other_took(actor, card.index)
        st.known[actor].add(card)
        st.held[actor] += 1
        advance(st, Step.TAKE_LAST if row.state is At.WALL else Step.TAKE, actor, card)  # DEAD-2
        return At.DISCARD

    def _draw(self, row: Row, entry: Entry) -> At:
        st, rec, actor = self.st, entry.record, self._actor()
        if row.kind is Kind.SEEN_DRAW:
            if actor != st.viewer or len(rec) != 2 or type(rec[1]) is not int or not 0 <= rec[1] < 52:
                raise LogError("LOG-12", entry.index, "only the viewer's own draw shows its card")
            card = Card.from_index(rec[1])
            if card in st.seen:
                raise LogError("LOG-12", entry.index, f"{card} drawn from the stock was seen before")
            st.own.add(card)
            st.seen.add(card)
            self.fair.stock_draw(52 - st.stock_size, rec[1])
        elif actor == st.viewer:
            raise LogError("LOG-12", entry.index, "the viewer's own draw must show its card")
        else:
            self.fair.other_draw(actor, 52 - st.stock_size)
        st.stock_size -= 1
        if st.stock_size < 0:
            raise LogError("LOG-12", entry.index, "more cards drawn than the stock holds")
        st.held[actor] += 1
        advance(st, Step.DRAW, actor)
        return At.DISCARD

    def check_play(self, kind: Kind, card: Card | None, index: int, *, wall: bool = False) -> None:
        """The rules of play on an action of the seat to act, as a record of ``kind`` shows it (``card``: the card
        of a discard or of the viewer's knock), at the last discard when ``wall``: first the view's consistency
        (LOG-12), then the rules kernel on the seat's facts (LOG-16). The handlers' one check of an action.

        Raises:
            LogError: at record ``index``, under the rule the action breaks.
        """
        st, actor, facts = self.st, self._actor(), self.facts
        if card is not None and actor == st.viewer and card not in st.own:
            verb = "discards" if kind is Kind.DISCARD else "knocks with"
            raise LogError("LOG-12", index, f"the viewer {verb} {card}, which it does not hold")
        if card is not None and actor != st.viewer and card in st.own:
            raise LogError("LOG-12", index, f"p{actor} discards {card}, which the viewer holds")
        if card is not None and actor != st.viewer and card in st.discard_pile:
            raise LogError("LOG-12", index, f"p{actor} discards {card}, which is on the discard pile")
        try:
            if kind is Kind.TAKE or kind is Kind.PICKUP:
                kernel.verify_pickup(facts, actor, st.discard_pile[-1] if st.discard_pile else None, wall=wall)
            elif kind is Kind.DISCARD and card is not None:
                kernel.verify_discard(facts, actor, card)
            elif kind is Kind.KNOCK and card is not None:
                kernel.verify_knock(facts, actor, card)
            elif kind is Kind.BIG_GIN:
                kernel.verify_big_gin(facts, actor)
        except Refused as err:
            raise LogError(err.rule, index, err.reason) from None

    def _discard(self, row: Row, entry: Entry) -> At:
        st, actor = self.st, self._actor()
        card = DECK[entry.record - DISCARD_BASE]
        self.check_play(Kind.DISCARD, card, entry.index)
        if actor == st.viewer:
            st.own.discard(card)
        st.known[actor].discard(card)
        st.held[actor] -= 1
        st.discard_pile.append(card)
        st.seen.add(card)
        advance(st, Step.DISCARD, actor)
        # Where the discard leads: the kernel's decision behind the hand machine's guards (DEAD-1 .. DEAD-3).
        reason = kernel.dead_reason(self.facts)
        if reason is not None:
            st.dead_reason = reason
            return At.DEAD_HAND
        return At.WALL if kernel.wall_offered(self.facts) else At.DRAW

    def _knock(self, row: Row, entry: Entry) -> At:
        st, rec, actor = self.st, entry.record, self._actor()
        if row.kind is Kind.BIG_GIN:
            self.check_play(Kind.BIG_GIN, None, entry.index)
        else:
            if (rec == KNOCK_HIDDEN) != (actor != st.viewer):
                raise LogError("LOG-12", entry.index, "only the viewer's own knock shows its face-down card")
            if rec != KNOCK_HIDDEN:
                card = Card.from_index(rec - KNOCK_BASE)
                self.check_play(Kind.KNOCK, card, entry.index)
                st.own.discard(card)
                st.knock_discard = card
            st.held[actor] -= 1
        advance(st, Step.BIG_GIN if row.kind is Kind.BIG_GIN else Step.KNOCK, actor)
        return At.KNOCK

    def _decline(self, row: Row, entry: Entry) -> At:
        self.st.dead_reason = "last discard declined"
        return At.DEAD_HAND

    def _spread(self, row: Row, entry: Entry) -> At:
        st, actor = self.st, self._actor()
        gin = reckoning.check_spread(st, self.facts, entry)
        self.fair.other_showed(actor, [c for meld in st.spread or () for c in meld])
        advance(st, Step.SPREAD, actor)  # the defender answers (LAY-1)
        return At.SCORE if gin else At.LAYOFF

    def _layoff(self, row: Row, entry: Entry) -> At:
        st, actor = self.st, self._actor()
        reckoning.check_layoff(st, entry)
        if st.defence is not None:
            melds, layoffs = st.defence
            self.fair.other_showed(actor, [*(c for m in melds for c in m), *(c for c, _ in layoffs)])
        return At.SCORE

    def _advice(self, row: Row, entry: Entry) -> At:
        st, rec = self.st, entry.record
        if len(rec) != 3 or type(rec[1]) is not int:
            raise LogError("LOG-12", entry.index, "an advice record is [5, seat, action or nil]")
        try:
            kernel.verify_adviser(st.sitter, rec[1], st.turn, other_seat(st.seats, st.dealer))
        except Refused as err:
            raise LogError(err.rule, entry.index, err.reason) from None
        if sight(self.rules, st.seat, st.seats, st.dealer).hears_advice != (rec[2] is not None):
            hears = rec[2] is None  # the view hid advice the seat hears, or showed advice it does not
            raise LogError("LOG-11", entry.index, "the seat hears the sitter's advice (THREE-8): its view shows it in "
                           "full" if hears else "the seat does not hear the sitter's advice (THREE-8): its view holds "
                           "[5, seat, nil]")  # fmt: skip
        if rec[2] is not None:  # the seat hears the advice (THREE-8): a suggestion the captain could act on now
            kind = classify(rec[2], view=True)
            takes = kind not in VIEW_ONLY and kind in ACCEPTS[row.state] and kind is not Kind.ADVICE
            try:
                kernel.verify_suggested(takes, kind.value, row.state.value)
            except Refused as err:
                raise LogError(err.rule, entry.index, err.reason) from None
        return row.state

    # --- the hand's end and the game's -----------------------------------------------------------

    def _result(self, row: Row, entry: Entry) -> At:
        st = self.st
        try:
            result = result_of(entry.record, st.seats)
        except CodecError as err:
            raise LogError("LOG-2", entry.index, err.reason) from None
        if len(entry.record[10]) != len(self.header.players):
            raise LogError("LOG-2", entry.index, "a result's scores are one per seat")
        reckoning.check_result(st, self.facts, self.tally, result, entry.record, entry)
        st.result, st.last_winner = result, result.winner
        st.scores = tuple(entry.record[10])
        st.turn = None
        return At.HAND_OVER

    def _reveal(self, row: Row, entry: Entry) -> At:
        """A salt, revealed after its hand (LOG-10; only the full log's holder can check it against the deck)."""
        if not self.header.commitments:
            raise LogError("LOG-10", entry.index, "a salt revealed in a view whose header declares no commitments")
        self.st.revealed = True
        return At.REVEALED

    def _end(self, row: Row, entry: Entry) -> At:
        """A game's end before the target, or the host's record of a seat leaving or coming back (END-1 .. END-4)."""
        return At.ENDED if self.ends.take(entry, self.tally.standings().over) else row.state

    def _game_over(self, row: Row, entry: Entry) -> At:
        st, rec = self.st, entry.record
        if len(rec) != 3 or (type(rec[1]) is not int and rec[1] is not None) or not isinstance(rec[2], list):
            raise LogError("LOG-12", entry.index, "a game-over record is [7, winner, totals]")
        if self.ends.ended:
            order = (st.dealer, other_seat(st.seats, st.dealer), *(() if st.sitter is None else (st.sitter,)))
            self.ends.check_game_over(rec, entry, self.tally.standings().running, order)
        else:
            reckoning.check_game_over(self.tally, rec, entry)
        st.over, st.winner = True, rec[1]
        return At.GAME_OVER

    # --- records out of place ----------------------------------------------------------------------

    def refuse(self, at: At, kind: Kind, entry: Entry) -> LogError:
        """The error for a record out of place, by LOG-13's precedence as for a full log: an action while a seat
        is to act is judged by the rules (an action the phase does not take is TURN-1); any other record out of
        place breaks the order of LOG-4."""
        index = entry.index
        if kind is Kind.BAD_CODE or kind is Kind.BAD_FORM:  # the reader refuses these first (LOG-2)
            return LogError("LOG-2", index, f"not a record of a view: {record_text(entry.record)}")
        if kind in ACTIONS and at in PLAYING.values() and self.st.turn is not None:
            refused = kernel.out_of_phase(kind.value, at.value)
            return LogError(refused.rule, index, refused.reason)
        return LogError("LOG-4", index, f"a {kind.value} record where the game is at {at.value}")

    def unfinished(self, at: At, index: int) -> LogError:
        return LogError("LOG-12", index, "the view ends before the game is over")
