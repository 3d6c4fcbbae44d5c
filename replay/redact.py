"""Per-seat views of a log, and their replay in public mode.

Rules: LOG-11, LOG-12 (spec/log-format.md). ``redact(log, seat)`` gives the log a client at that seat may
receive: every card the seat has not seen is replaced by the unknown code 255, its own stock draws carry
the card it saw, and an opponent's face-down knock discard is hidden. ``PublicReplayer`` rebuilds from
such a view the public state of the game and checks everything a seat can check.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from engine.cards import Card
from engine.events import DrewStock
from engine.seats import other_seat
from replay.codec import (
    BIG_GIN,
    DECLINE,
    DISCARD_BASE,
    DRAW,
    KNOCK_BASE,
    PASS,
    PICKUP,
    T_ADVICE,
    T_CHECKPOINT,
    T_DEAL,
    T_GAME_OVER,
    T_HAND,
    T_LAYOFF,
    T_RESULT,
    T_SPREAD,
    T_TRAILER,
    TAKE,
    chain,
    header_digest,
    pack,
)
from replay.log import Header, LogError, LogReader, LogTruncated
from replay.replayer import AuditReport, HandReport, Replayer, ReplayState, verify

UNKNOWN = 255  #: the code of a card the seat has not seen
T_SEEN_DRAW = 12  #: ``[12, card]``: the viewer's own stock draw, with the card it saw
KNOCK_HIDDEN = KNOCK_BASE + 52  #: an opponent's knock; the face-down card is not shown


def viewer(header: Header, seat: int, seats: tuple[int, int], dealer: int) -> int | None:
    """Whose cards ``seat`` sees in a hand: its own, or the captain's for a sitter who advises (THREE-8)."""
    if seat in seats:
        return seat
    if header.rules.get("sitter_sees_captain_hand", True):
        return other_seat(seats, dealer)
    return None


def redact(source: BinaryIO | bytes, seat: int) -> bytes:
    """The view of a sound log for ``seat``, with a fresh digest chain over its own bytes. Rule: LOG-11.

    The view of an unfinished log (a game in progress, LOG-13) is unfinished too: it ends after the last
    record the replay has placed.

    Raises:
        LogError: the log does not replay (a view is only made of a sound log), or no such seat.
    """
    replayer = Replayer(source)
    header = replayer.reader.header
    if not 0 <= seat < len(header.players):
        raise LogError("LOG-11", 0, f"no seat p{seat} in a game of {len(header.players)}")
    wire = header.to_wire()
    wire["view"] = seat
    wire["meta"] = {}  # free metadata may hold anything (a seed rebuilds every deal): never carried into a view
    head = pack(wire)
    out = io.BytesIO()
    out.write(head)
    digest = header_digest(head)
    actor: int | None = None
    sees: int | None = None
    for count, state in enumerate(_so_far(replayer.states())):
        rec, match = state.record, state.match
        if isinstance(rec, list) and rec and rec[0] == T_HAND:
            sees = viewer(header, seat, (rec[3], rec[4]), rec[2])
        if isinstance(rec, list) and rec and rec[0] == T_DEAL:
            # DEAL-3: deck positions 0, 2, … go to the non-dealer, 1, 3, … to the dealer; 20 is the upcard.
            mine = set() if sees is None else set(range(1 if sees == match.dealer else 0, 20, 2))
            rec = [T_DEAL, bytes(c if i in mine or i == 20 else UNKNOWN for i, c in enumerate(rec[1]))]
        elif rec == DRAW and actor is not None and actor == sees:
            drawn = match.events[-1]
            assert isinstance(drawn, DrewStock)
            rec = [T_SEEN_DRAW, drawn.card.index]
        elif isinstance(rec, int) and KNOCK_BASE <= rec < KNOCK_BASE + 52 and actor != sees:
            rec = KNOCK_HIDDEN
        elif isinstance(rec, list) and rec and rec[0] == T_ADVICE and sees != match.captain:
            rec = [T_ADVICE, rec[1], None]  # THREE-8: only the captain and the sitter hear the advice
        elif isinstance(rec, list) and rec and rec[0] == T_CHECKPOINT:
            rec = [T_CHECKPOINT, digest]
        elif isinstance(rec, list) and rec and rec[0] == T_TRAILER:
            rec = [T_TRAILER, count, digest]
        data = pack(rec)
        out.write(data)
        digest = chain(digest, data)
        actor = match.to_act
    return out.getvalue()


def _so_far(states: Iterator[ReplayState]) -> Iterator[ReplayState]:
    """The states of a log as far as it goes: one that ends cleanly before its trailer is a game in progress
    (LOG-7, LOG-13), and has a view of what it holds."""
    try:
        yield from states
    except LogTruncated as err:
        if not err.clean:
            raise


@dataclass
class PublicState:
    """The public state of a game as one seat's view shows it (LOG-12)."""

    seat: int
    number: int = 0
    dealer: int = 0
    seats: tuple[int, int] = (0, 1)
    sitter: int | None = None
    viewer: int | None = None  #: whose cards the seat sees this hand (its own, or the captain's)
    turn: int | None = None  #: the seat to act
    upcard: Card | None = None
    discard_pile: list[Card] = field(default_factory=list)
    stock_size: int = 0
    own: set[Card] = field(default_factory=set)  #: the cards of ``viewer``
    opponent_known: set[Card] = field(default_factory=set)
    seen: set[Card] = field(default_factory=set)  #: every card this seat has been shown in this hand
    scores: tuple[int, ...] = ()
    results: list[list[Any]] = field(default_factory=list)
    over: bool = False
    winner: int | None = None


class PublicReplayer:
    """Replays a per-seat view: its framing and digests (as any log), the turn order, the stock count, the
    seat's own cards and everything it was shown. Rule: LOG-12.
    """

    def __init__(self, source: BinaryIO | bytes) -> None:
        self.reader = LogReader(source)
        header = self.reader.header
        if header.view is None:
            raise LogError("LOG-12", 0, "not a per-seat view (the header names no 'view')")
        self.header = header
        self.state = PublicState(seat=header.view)

    def states(self) -> Iterator[PublicState]:
        st = self.state
        for entry in self.reader.entries():
            self._step(entry.index, entry.record)
            yield st
        if not st.over:
            raise LogError("LOG-12", self.reader.index, "the view ends before the game is over")

    def run(self) -> PublicState:
        for _ in self.states():
            pass
        return self.state

    def _step(self, i: int, rec: Any) -> None:
        st = self.state

        def fail(reason: str) -> LogError:
            return LogError("LOG-12", i, reason)

        kind = rec[0] if isinstance(rec, list) and rec and type(rec[0]) is int else None
        actor = st.turn
        if kind == T_HAND:
            if len(rec) != 6:
                raise fail("a hand record is [1, number, dealer, seat_a, seat_b, sitter]")
            _, st.number, st.dealer, a, b, st.sitter = rec
            st.seats = (a, b)
            st.viewer = viewer(self.header, st.seat, st.seats, st.dealer)
        elif kind == T_DEAL:
            codes = rec[1] if len(rec) == 2 else None
            if not isinstance(codes, bytes) or len(codes) != 52 or any(c > 51 and c != UNKNOWN for c in codes):
                raise fail("a deal in a view is 52 card codes, 255 for a card not seen")
            st.upcard = Card.from_index(codes[20])
            st.discard_pile, st.stock_size = [st.upcard], 31
            st.own = {Card.from_index(c) for c in codes[:20] if c != UNKNOWN}
            st.opponent_known = set()
            st.seen = st.own | {st.upcard}
            if len(st.own) != (0 if st.viewer is None else 10):
                raise fail(f"the view shows {len(st.own)} dealt cards, the seat sees {0 if st.viewer is None else 10}")
            st.turn = other_seat(st.seats, st.dealer)
        elif rec == PASS:
            st.turn = self._other(actor)
        elif kind == T_SEEN_DRAW or rec == DRAW:
            if kind == T_SEEN_DRAW:
                if actor != st.viewer or len(rec) != 2 or type(rec[1]) is not int or not 0 <= rec[1] < 52:
                    raise fail("only the viewer's own draw shows its card")
                card = Card.from_index(rec[1])
                if card in st.seen:
                    raise fail(f"{card} drawn from the stock was seen before")
                st.own.add(card)
                st.seen.add(card)
            elif actor == st.viewer and st.viewer is not None:
                raise fail("the viewer's own draw must show its card")
            st.stock_size -= 1
            if st.stock_size < 0:
                raise fail("more cards drawn than the stock holds")
        elif rec in (TAKE, PICKUP):
            if not st.discard_pile:
                raise fail("a pickup from an empty discard pile")
            card = st.discard_pile.pop()
            (st.own if actor == st.viewer else st.opponent_known).add(card)
        elif isinstance(rec, int) and DISCARD_BASE <= rec < DISCARD_BASE + 52:
            card = Card.from_index(rec - DISCARD_BASE)
            if actor == st.viewer:
                if card not in st.own:
                    raise fail(f"the viewer discards {card}, which it does not hold")
                st.own.discard(card)
            elif card in st.own:
                raise fail(f"p{actor} discards {card}, which the viewer holds")
            st.opponent_known.discard(card)
            st.discard_pile.append(card)
            st.seen.add(card)
            st.turn = self._other(actor)
        elif isinstance(rec, int) and KNOCK_BASE <= rec <= KNOCK_HIDDEN:
            if (rec == KNOCK_HIDDEN) != (actor != st.viewer or st.viewer is None):
                raise fail("only the viewer's own knock shows its face-down card")
            if rec != KNOCK_HIDDEN:
                st.own.discard(Card.from_index(rec - KNOCK_BASE))
        elif kind == T_SPREAD:
            st.turn = self._other(actor)  # the defender answers (LAY-1)
        elif kind == T_RESULT:
            st.results.append(rec)
            st.scores = tuple(rec[10])
            st.turn = None
        elif kind == T_GAME_OVER:
            st.over, st.winner = True, rec[1] if len(rec) == 3 and type(rec[1]) is int else None
        elif rec in (BIG_GIN, DECLINE) or kind is not None:
            pass  # spreads, layoffs, advice, seals, commitments: public, checked by the reader's digests
        else:
            raise fail(f"not a record of a view: {rec!r:.60}")

    def _other(self, seat: int | None) -> int | None:
        st = self.state
        return None if seat is None else other_seat(st.seats, seat)


def verify_view(source: BinaryIO | bytes) -> AuditReport:
    """Audit a per-seat view in public mode (LOG-12); never raises for a bad view."""
    report = AuditReport(ok=False)
    try:
        public = PublicReplayer(source)
        report.players, report.rules, report.view = public.header.players, public.header.rules, public.header.view
        state = public.run()
        report.totals, report.winner = state.scores, state.winner
        report.hands = [HandReport(r[1], -1, (-1, -1), None, result=str(r[2:])) for r in state.results]
        report.records, report.checkpoints = public.reader.index, public.reader.checkpoints
        report.ok = True
    except LogError as err:
        report.error, report.error_record, report.error_rule = str(err), err.record, err.rule
    return report


def audit(data: bytes) -> AuditReport:
    """Audit a full log (LOG-8) or a per-seat view (LOG-12), whichever it is; never raises for bad bytes."""
    try:
        view = LogReader(data).header.view
    except LogError:
        view = None  # the full audit reports what is wrong with it
    return verify_view(data) if view is not None else verify(data)


def view_transcript(source: BinaryIO | bytes) -> list[str]:
    """A per-seat view as text, one line per record, saying only what the view shows (LOG-12)."""
    public = PublicReplayer(source)
    st = public.state
    lines: list[str] = []
    kinds = ["gin", "big gin", "knock", "undercut", "tie", "dead hand"]
    for entry in public.reader.entries():
        rec, actor = entry.record, st.turn
        top = st.discard_pile[-1] if st.discard_pile else None
        public._step(entry.index, rec)
        kind = rec[0] if isinstance(rec, list) and rec and type(rec[0]) is int else None
        who = f"p{actor}"
        if kind == 0:
            lines.append(
                "draw for " + ", ".join(f"p{s} {Card.from_index(c)}" for s, c in zip(rec[1], rec[2], strict=False))
            )
        elif kind == T_HAND:
            roles = f"p{st.dealer} deals" + (f", p{st.sitter} sits out" if st.sitter is not None else "")
            lines.append(f"hand {st.number}: {roles}")
        elif kind == T_DEAL:
            mine = " ".join(map(str, sorted(st.own))) or "(none shown)"
            lines.append(f"  upcard {st.upcard}; the cards you see: {mine}")
        elif kind == T_SEEN_DRAW:
            lines.append(f"  {who} draws {Card.from_index(rec[1])} from the stock")
        elif rec == DRAW:
            lines.append(f"  {who} draws from the stock")
        elif rec in (TAKE, PICKUP):
            lines.append(f"  {who} picks up {top}")
        elif rec == PASS:
            lines.append(f"  {who} passes the upcard")
        elif isinstance(rec, int) and DISCARD_BASE <= rec < DISCARD_BASE + 52:
            lines.append(f"  {who} discards {Card.from_index(rec - DISCARD_BASE)}")
        elif rec == KNOCK_HIDDEN:
            lines.append(f"  {who} knocks (the discard is face down)")
        elif isinstance(rec, int) and KNOCK_BASE <= rec < KNOCK_BASE + 52:
            lines.append(f"  {who} knocks, discarding {Card.from_index(rec - KNOCK_BASE)} face down")
        elif kind in (T_SPREAD, T_LAYOFF):
            melds = rec[1:] if kind == T_SPREAD else rec[1]
            shown = " ".join("-".join(str(Card.from_index(c)) for c in m) for m in melds) or "(no melds)"
            lines.append(f"  {'spread' if kind == T_SPREAD else 'defence'}: {shown}")
        elif kind == T_ADVICE:
            lines.append(f"  p{rec[1]} advises the captain" + ("" if rec[2] is None else f" ({rec[2]!r})"))
        elif kind == T_RESULT:
            winner = "no winner" if rec[3] is None else f"p{rec[3]} scores {rec[4]}"
            lines.append(f"hand {rec[1]}: {kinds[rec[2]] if 0 <= rec[2] < 6 else '?'}, {winner}; scores {rec[10]}")
        elif kind == T_GAME_OVER:
            lines.append(f"game over: p{rec[1]} wins; totals {rec[2]}")
    return lines
