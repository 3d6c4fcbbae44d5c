"""Audits: what a replay of a log or of a per-seat view found, as a report that never raises.

Rules: LOG-8, LOG-12, LOG-15. ``verify`` replays a full log strictly, ``verify_view`` a view in public mode,
and ``audit`` takes either; ``view_transcript`` prints a view as text, saying only what it shows. A report
lists every hand and action of an ordinary game; of a log longer than ``REPORT_HANDS`` hands or
``REPORT_ACTIONS`` actions it lists that many and counts the rest, so that auditing a log of any length
stays within bounded memory, as its replay does (LOG-15).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from engine.cards import Card
from engine.errors import KnockError
from engine.events import Dealt, HandEnded, HandStarted
from engine.fsm import ExecutorName
from replay.grammar import Kind, classify
from replay.log import LogError, LogReader
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


_RESULT_KINDS = ["gin", "big gin", "knock", "undercut", "tie", "dead hand"]


def view_transcript(source: BinaryIO | bytes) -> list[str]:
    """A per-seat view as text, one line per record, saying only what the view shows (LOG-12)."""
    return list(_transcript(ViewReplayer(source)))


def _transcript(public: ViewReplayer) -> Iterator[str]:
    st: PublicState = public.state
    actor: int | None = None
    top: Card | None = None
    for entry, _ in public.records():
        rec, who = entry.record, f"p{actor}"
        kind = classify(rec, view=True)
        if kind is Kind.CUT:
            yield "draw for " + ", ".join(f"p{s} {Card.from_index(c)}" for s, c in zip(rec[1], rec[2], strict=False))
        elif kind is Kind.HAND:
            roles = f"p{st.dealer} deals" + (f", p{st.sitter} sits out" if st.sitter is not None else "")
            yield f"hand {st.number}: {roles}"
        elif kind is Kind.DEAL:
            mine = " ".join(map(str, sorted(st.own))) or "(none shown)"
            yield f"  upcard {st.upcard}; the cards you see: {mine}"
        elif kind is Kind.SEEN_DRAW:
            yield f"  {who} draws {Card.from_index(rec[1])} from the stock"
        elif kind is Kind.DRAW:
            yield f"  {who} draws from the stock"
        elif kind is Kind.TAKE or kind is Kind.PICKUP:
            yield f"  {who} picks up {top}"
        elif kind is Kind.PASS:
            yield f"  {who} passes the upcard"
        elif kind is Kind.DISCARD:
            yield f"  {who} discards {st.discard_pile[-1]}"
        elif kind is Kind.HIDDEN_KNOCK:
            yield f"  {who} knocks (the discard is face down)"
        elif kind is Kind.KNOCK:
            yield f"  {who} knocks, discarding {st.knock_discard} face down"
        elif kind is Kind.SPREAD or kind is Kind.LAYOFF:
            melds = st.spread if kind is Kind.SPREAD else st.defence[0] if st.defence else ()
            shown = " ".join("-".join(map(str, m)) for m in melds or ()) or "(no melds)"
            yield f"  {'spread' if kind is Kind.SPREAD else 'defence'}: {shown}"
        elif kind is Kind.ADVICE:
            yield f"  p{rec[1]} advises the captain" + ("" if rec[2] is None else f" ({rec[2]!r})")
        elif kind is Kind.RESULT:
            winner = "no winner" if rec[3] is None else f"p{rec[3]} scores {rec[4]}"
            yield f"hand {rec[1]}: {_RESULT_KINDS[rec[2]]}, {winner}; scores {rec[10]}"
        elif kind is Kind.GAME_OVER:
            yield f"game over: p{rec[1]} wins; totals {rec[2]}"
        actor, top = st.turn, st.discard_pile[-1] if st.discard_pile else None
