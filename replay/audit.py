"""Audits: what a replay of a log or of a per-seat view found, as a report that never raises.

Rules: LOG-8, LOG-12, LOG-15. ``verify`` replays a full log strictly, ``verify_view`` a view in public mode,
and ``audit`` takes either; ``view_transcript`` prints a view as text, saying only what it shows. A report
lists every hand and action of an ordinary game; of a log longer than ``REPORT_HANDS`` hands or
``REPORT_ACTIONS`` actions it lists that many and counts the rest, so that auditing a log of any length
stays within bounded memory, as its replay does (LOG-15).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from engine.cards import Card
from engine.errors import KnockError
from engine.events import (
    BigGinDeclared,
    CutDrawn,
    Dealt,
    Discarded,
    DrewDiscard,
    DrewStock,
    GameOver,
    HandEnded,
    HandStarted,
    Knocked,
    UpcardPassed,
    UpcardTaken,
    WallDeclined,
)
from engine.fsm import ExecutorName
from engine.seats import other_seat
from engine.visibility import Seen, unseen
from replay.grammar import Kind, classify
from replay.log import Entry, LogError, LogReader
from replay.notation import record_text
from replay.public import PublicState, ViewReplayer
from replay.replayer import Replayer

REPORT_HANDS = 10_000  #: hands a report lists; later ones are counted in ``hands_omitted``
REPORT_ACTIONS = 100_000  #: actions a report lists, over all its hands; later ones are counted in ``actions_omitted``


@dataclass
class HandReport:
    number: int
    dealer: int
    seats: tuple[int, int]
    sitter: int | None
    dealt: dict[int, str] = field(default_factory=dict)  #: each seat's ten cards as dealt
    upcard: str = ""
    knock_limit: int = 0
    actions: list[str] = field(default_factory=list)
    result: str = ""
    scores: tuple[int, ...] = ()


@dataclass
class AuditReport:
    """What ``verify`` found: the header, every hand, the final result and the digest status, or the error."""

    ok: bool
    players: tuple[str, ...] = ()
    rules: dict[str, Any] = field(default_factory=dict)
    hands: list[HandReport] = field(default_factory=list)
    winner: int | None = None
    totals: tuple[int, ...] = ()
    records: int = 0
    checkpoints: int = 0
    error: str = ""
    error_record: int | None = None
    error_rule: str = ""
    view: int | None = None  #: the seat, when the log audited is a per-seat view (LOG-12)
    hands_omitted: int = 0  #: hands played but not listed (beyond ``REPORT_HANDS``)
    actions_omitted: int = 0  #: actions taken but not listed (beyond ``REPORT_ACTIONS``)


class _Lister:
    """Adds hands and actions to a report up to its limits, counting the rest."""

    def __init__(self, report: AuditReport) -> None:
        self.report = report
        self.actions = 0
        self.hand: HandReport | None = None  # the hand being listed (None: not listed)

    def start(self, hand: HandReport) -> None:
        report = self.report
        if len(report.hands) < REPORT_HANDS:
            report.hands.append(hand)
            self.hand = hand
        else:
            report.hands_omitted += 1
            self.hand = None

    def action(self, text: str) -> None:
        if self.hand is not None and self.actions < REPORT_ACTIONS:
            self.hand.actions.append(text)
            self.actions += 1
        else:
            self.report.actions_omitted += 1


def verify(source: BinaryIO | bytes, *, executor: ExecutorName = "compiled") -> AuditReport:
    """Audit a log: replay it strictly and report every hand, the result and the digests. Never raises for a
    bad log: the report says where and why it fails.
    """
    report = AuditReport(ok=False)
    try:
        replayer = Replayer(source, executor=executor, history=False)
        report.players = replayer.reader.header.players
        report.rules = replayer.rules.to_dict()
        lister = _Lister(report)
        started = False
        for state in replayer.states():
            e = state.event
            if e is None:
                continue
            if isinstance(e, HandStarted):
                lister.start(HandReport(e.number, e.dealer, e.seats, e.sitter))
                started = True
            elif not started:
                continue  # the draw
            elif isinstance(e, Dealt):
                if lister.hand is not None:
                    hand = lister.hand
                    hand.upcard, hand.knock_limit = str(e.upcard), e.knock_limit
                    hand.dealt = {s: " ".join(map(str, sorted(h))) for s, h in zip(e.seats, e.hands, strict=True)}
            elif isinstance(e, HandEnded):
                if lister.hand is not None:
                    lister.hand.result, lister.hand.scores = str(e.result), e.scores
            else:
                lister.action(str(e))
        match = replayer.match
        assert match is not None
        st = match.standings()
        report.winner, report.totals = st.winner, st.totals
        report.records, report.checkpoints = replayer.reader.index, replayer.reader.checkpoints
        report.ok = True
    except LogError as err:
        report.error, report.error_record, report.error_rule = str(err), err.record, err.rule
    except KnockError as err:  # pragma: no cover - every engine error is turned into a LogError above
        report.error, report.error_rule = str(err), err.rule
    return report


def verify_view(source: BinaryIO | bytes) -> AuditReport:
    """Audit a per-seat view in public mode (LOG-12); never raises for a bad view."""
    report = AuditReport(ok=False)
    try:
        public = ViewReplayer(source)
        report.players, report.rules, report.view = public.header.players, public.header.rules, public.header.view
        lister = _Lister(report)
        for entry, st in public.records():
            kind = classify(entry.record, view=True)
            if kind is Kind.HAND:
                lister.start(HandReport(st.number, st.dealer, st.seats, st.sitter))
            elif kind is Kind.RESULT and lister.hand is not None:
                lister.hand.result, lister.hand.scores = str(st.result), st.scores
        report.totals, report.winner = public.state.scores, public.state.winner
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


@dataclass(frozen=True, slots=True)
class ShownSpread:
    """The knocker's spread as a per-seat view records it: his melds, and his deadwood cards when the view is
    his own (a view does not carry another seat's: their count is in the hand's result)."""

    seat: int
    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...] | None = None

    def __str__(self) -> str:
        return (
            f"p{self.seat} spreads "
            + (" ".join(_meld(m) for m in self.melds) or "(no melds)")
            + _left(self.deadwood_cards)
        )


@dataclass(frozen=True, slots=True)
class ShownDefence:
    """The defender's answer as a per-seat view records it: his melds and his layoffs, each ``card>meld``, and
    his deadwood cards when the view is his own."""

    seat: int
    melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[tuple[Card, tuple[Card, ...]], ...]
    deadwood_cards: tuple[Card, ...] | None = None

    def __str__(self) -> str:
        melds = " ".join(_meld(m) for m in self.melds) or "(no melds)"
        layoffs = " ".join(f"{card}>{_meld(onto)}" for card, onto in self.layoffs) or "none"
        return f"p{self.seat} shows {melds}, lays off {layoffs}" + _left(self.deadwood_cards)


def _left(deadwood: tuple[Card, ...] | None) -> str:
    """A showdown's deadwood as the full history prints it (``SpreadLaid``, ``DefenceLaid``), when known."""
    if deadwood is None:
        return ""
    return f"; deadwood [{' '.join(map(str, deadwood))}] = {sum(c.value for c in deadwood)}"


def _own_left(st: PublicState, who: int, laid: Iterable[Card]) -> tuple[Card, ...] | None:
    """The cards ``who`` keeps as deadwood after laying ``laid``, when they are the viewer's own cards."""
    if who != st.viewer or st.viewer is None:
        return None
    return tuple(sorted(st.own - set(laid)))


@dataclass(frozen=True, slots=True)
class Note:
    """A line of a view's history that no engine event says (the sitter's advice, as the view records it)."""

    text: str

    def __str__(self) -> str:
        return self.text


def _meld(cards: tuple[Card, ...]) -> str:
    return "-".join(map(str, cards))


#: A view's record as an event, as the seat saw it (None for the log's framing: salts, checkpoints, the trailer).
ViewEvent = Seen | ShownSpread | ShownDefence | Note


def view_events(source: BinaryIO | bytes) -> Iterator[tuple[Entry, PublicState, ViewEvent | None]]:
    """A per-seat view's records, each with the public state after it and the event it records as the seat saw
    it: the same events ``SeatLens`` gives for the full log, as far as the view holds them (LOG-12).

    Raises:
        LogError: where the view goes wrong (an unfinished view ends in ``LogTruncated``).
    """
    public = ViewReplayer(source)
    actor: int | None = None
    top: Card | None = None
    for entry, st in public.records():
        yield entry, st, _view_event(entry.record, st, actor, top)
        actor, top = st.turn, st.discard_pile[-1] if st.discard_pile else None


def _view_event(rec: Any, st: PublicState, actor: int | None, top: Card | None) -> ViewEvent | None:
    """What one record of a view stands for; ``actor`` was to act before it, ``top`` topped the discard pile."""
    kind = classify(rec, view=True)
    who = actor if actor is not None else -1
    if kind is Kind.CUT:
        return CutDrawn(tuple(rec[1]), tuple(Card.from_index(c) for c in rec[2]))
    if kind is Kind.HAND:
        return HandStarted(st.number, st.dealer, st.seats, st.sitter)
    if kind is Kind.DEAL:
        assert st.upcard is not None  # the deal record shows the upcard (LOG-11)
        mine = tuple(sorted(st.own))
        hands = tuple(mine if seat == st.viewer else () for seat in st.seats)
        return Dealt(st.dealer, (hands[0], hands[1]), st.upcard, (), st.knock_limit, st.seats)
    simple: dict[Kind, ViewEvent] = {
        Kind.PASS: UpcardPassed(who), Kind.DRAW: unseen("draw", who), Kind.HIDDEN_KNOCK: unseen("knock", who),
        Kind.DECLINE: WallDeclined(who), Kind.BIG_GIN: BigGinDeclared(who),
    }  # fmt: skip
    if kind in simple:
        return simple[kind]
    if (kind is Kind.TAKE or kind is Kind.PICKUP) and top is not None:
        return UpcardTaken(who, top) if kind is Kind.TAKE else DrewDiscard(who, top)
    if kind is Kind.SEEN_DRAW:
        return DrewStock(who, Card.from_index(rec[1]))
    if kind is Kind.DISCARD:
        return Discarded(who, st.discard_pile[-1])
    if kind is Kind.KNOCK and st.knock_discard is not None:
        return Knocked(who, st.knock_discard)
    if kind is Kind.SPREAD:
        melds = st.spread or ()
        return ShownSpread(who, melds, _own_left(st, who, (c for m in melds for c in m)))
    if kind is Kind.LAYOFF:
        melds, layoffs = st.defence or ((), ())
        laid = [*(c for m in melds for c in m), *(card for card, _ in layoffs)]
        return ShownDefence(who, melds, layoffs, _own_left(st, who, laid))
    if kind is Kind.ADVICE:
        captain = other_seat(st.seats, st.dealer)
        said = "" if rec[2] is None else f": {record_text(rec[2])}"
        return unseen("advice", rec[1]) if not said else Note(f"p{rec[1]} advises p{captain}{said}")
    if kind is Kind.RESULT and st.result is not None:
        ended = HandEnded(rec[1], st.result, st.scores)
        return ended
    if kind is Kind.GAME_OVER:
        return GameOver(rec[1], tuple(rec[2]))
    return None


def view_transcript(source: BinaryIO | bytes) -> list[str]:
    """A per-seat view as text, one line per record that says something, only what the view shows (LOG-12)."""
    lines = []
    for _, _, event in view_events(source):
        if isinstance(event, Dealt):
            seen = [" ".join(map(str, h)) for h in event.hands if h]
            lines.append(f"p{event.dealer} deals; upcard {event.upcard}, knock limit {event.knock_limit}; the cards "
                         f"you see: {seen[0] if seen else '(none)'}")  # fmt: skip
            continue
        if isinstance(event, HandEnded):
            lines.append(str(event.result))
        if event is not None:
            lines.append(str(event))
    return lines
