"""The replayer: rebuild a game from its log alone, re-check every action and every derived record.

Rules: LOG-8, LOG-9. Replay never calls a random number generator: the draws and deck orders come from
the log's records, through ``Match.scripted``. Replay runs the engine's compiled executor (its performance
mode, ``engine.fsm``) unless asked for ``executor="library"``; both give the same game.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from engine.actions import Action, Advise
from engine.cards import Card
from engine.errors import IllegalAction, InvalidDeal, InvalidMeld, InvalidRules, KnockError
from engine.events import GameOver, HandEnded, MatchEvent
from engine.fsm import ExecutorName
from engine.match import Match
from engine.rules import RuleSet
from replay.codec import (
    RECORD_NAMES,
    T_ADVICE,
    T_CHECKPOINT,
    T_COMMIT,
    T_CUT,
    T_DEAL,
    T_HAND,
    T_LAYOFF,
    T_REVEAL,
    T_SPREAD,
    T_TRAILER,
    CodecError,
    action_of,
    commitment,
    event_record,
    record_type,
)
from replay.log import Entry, LogError, LogReader

INPUTS = (T_SPREAD, T_LAYOFF, T_ADVICE)
SEALS = ([T_CHECKPOINT], [T_TRAILER])


def expected_records(events: list[MatchEvent]) -> list[Any]:
    """The records (and seals) a log holds for these engine events, in order (LOG-4, LOG-6)."""
    out: list[Any] = []
    for e in events:
        rec = event_record(e)
        if rec is not None:
            out.append(rec)
        if isinstance(e, HandEnded):
            out.append([T_CHECKPOINT])
        elif isinstance(e, GameOver):
            out.append([T_TRAILER])
    return out


class ReplayError(LogError):
    """The log disagrees with the rules: an illegal action, or a derived record that differs from the
    engine's. Carries what the engine expected and what the log holds.
    """

    def __init__(self, rule: str, record: int, reason: str, *, expected: Any = None, found: Any = None) -> None:
        parts = [
            f"expected {expected!r:.120}" if expected is not None else "",
            f"found {found!r:.120}" if found is not None else "",
        ]
        detail = f" ({', '.join(p for p in parts if p)})" if any(parts) else ""
        super().__init__(rule, record, reason + detail)
        self.expected = expected
        self.found = found


@dataclass(frozen=True, slots=True)
class ReplayState:
    """The game after one record: the record's index and value, and the live match (read it, don't change it)."""

    index: int
    record: Any
    match: Match


class Replayer:
    """Replays one log strictly: ``states()`` yields the game after every record; ``run()`` replays it all."""

    def __init__(self, source: BinaryIO | bytes, *, executor: ExecutorName = "compiled") -> None:
        self.executor: ExecutorName = executor
        self.reader = LogReader(source)
        header = self.reader.header
        if header.view is not None:
            raise LogError("LOG-11", 0, f"a per-seat view (for p{header.view}) replays in public mode only")
        try:
            self.rules = RuleSet.from_dict(header.rules)
        except InvalidRules as err:
            raise LogError(err.rule, 0, f"the header's rule set is not valid: {err.reason}") from None
        except TypeError as err:
            raise LogError("LOG-1", 0, f"the header's rule set is not valid: {err}") from None
        if len(header.players) != self.rules.players:
            raise LogError("LOG-1", 0, f"{len(header.players)} players named for a {self.rules.players}-seat game")
        self.match: Match | None = None
        self._expected: deque[Any] = deque()  # derived records (and seals) the log must hold next
        self._commit: tuple[int, bytes] | None = None  # the pending shuffle commitment (LOG-10)
        self._deck_codes = b""

    def states(self) -> Iterator[ReplayState]:
        """The game after every record, in order (the draw's records are yielded once the first hand is dealt)."""
        for done in self._steps():
            assert self.match is not None
            for e in done:
                yield ReplayState(e.index, e.record, self.match)

    def _steps(self) -> Iterator[Sequence[Entry]]:
        """Replay record by record; yields the records each step consumed."""
        entries = self.reader.entries()
        cuts: list[Entry] = []
        for entry in entries:
            rec = entry.record
            kind = rec[0] if isinstance(rec, list) and rec and type(rec[0]) is int else None
            done: Sequence[Entry] = (entry,)
            if kind == T_COMMIT:
                self._take_commitment(entry)
                if self.match is None:
                    cuts.append(entry)
                    continue
            elif kind == T_REVEAL:
                self._reveal(entry)
            elif kind == T_CHECKPOINT:
                if self._commit is not None:
                    raise ReplayError("LOG-10", entry.index, "the hand ends without revealing its salt")
                self._expect_seal(entry, "checkpoint")
            elif kind == T_TRAILER:
                self._expect_seal(entry, "trailer")
            elif self.match is None:
                if kind == T_CUT:
                    cuts.append(entry)
                    continue
                if kind != T_HAND:
                    raise ReplayError(
                        "LOG-8", entry.index, f"a game starts with the draw, not a {record_type(rec)} record"
                    )
                deal = next(entries, None)
                self._check_committed(entry, deal)
                self._start(entry, deal, [(c.index, c.record) for c in cuts if c.record[0] == T_CUT])
                done = [*cuts, entry, *([deal] if deal else [])]
            elif self._expected:
                self._compare(entry)
            elif kind == T_HAND:
                deal = next(entries, None)
                self._check_committed(entry, deal)
                self._deal(entry, deal)
                done = [entry, *([deal] if deal else [])]
            elif isinstance(rec, int) or kind in INPUTS:
                self._act(entry)
            elif kind not in RECORD_NAMES:
                raise ReplayError("LOG-2", entry.index, f"no record has the form {rec!r}")
            else:
                raise ReplayError(
                    "LOG-8", entry.index, f"a {record_type(rec)} record where the engine expects an action"
                )
            yield done
        if self._expected:
            raise ReplayError("LOG-8", self.reader.index, "the log ends before the engine's records",
                              expected=self._expected[0])  # fmt: skip
        if self.match is None or not self.match.is_over:
            raise ReplayError("LOG-8", self.reader.index, "the log ends before the game is over")

    def run(self) -> Match:
        """Replay to the end; returns the rebuilt game.

        Raises:
            LogError: the first thing wrong with the log, with its record index.
        """
        for _ in self._steps():
            pass
        assert self.match is not None
        return self.match

    # --- steps -----------------------------------------------------------------------------------

    def _take_commitment(self, entry: Entry) -> None:
        rec = entry.record
        if not self.reader.header.commitments:
            raise ReplayError("LOG-10", entry.index, "a shuffle commitment in a log whose header declares none")
        if len(rec) != 2 or not isinstance(rec[1], bytes) or len(rec[1]) != 32:
            raise ReplayError("LOG-2", entry.index, "a commitment is [10, 32-byte digest]")
        if self._commit is not None or self._expected or (self.match is not None and not self.match.awaiting_deck):
            raise ReplayError("LOG-10", entry.index, "a commitment stands only just before a hand")
        self._commit = (entry.index, rec[1])

    def _check_committed(self, hand: Entry, deal: Entry | None) -> None:
        if self.reader.header.commitments and self._commit is None:
            raise ReplayError("LOG-10", hand.index, "a hand without its shuffle commitment")
        if deal is not None and isinstance(deal.record, list) and len(deal.record) == 2:
            self._deck_codes = deal.record[1] if isinstance(deal.record[1], bytes) else b""

    def _reveal(self, entry: Entry) -> None:
        rec = entry.record
        if self._commit is None or not self._expected or self._expected[0] != [T_CHECKPOINT]:
            raise ReplayError("LOG-10", entry.index, "a salt is revealed only after its hand's result")
        if len(rec) != 2 or not isinstance(rec[1], bytes):
            raise ReplayError("LOG-2", entry.index, "a reveal is [11, salt bytes]")
        at, digest = self._commit
        if commitment(self._deck_codes, rec[1]) != digest:
            raise ReplayError("LOG-10", entry.index, f"the deck and salt do not match the commitment of record {at}")
        self._commit = None

    def _start(self, hand: Entry, deal: Entry | None, cuts: list[tuple[int, Any]]) -> None:
        deck = self._deck(hand, deal)
        rounds = []
        for index, rec in cuts:
            if len(rec) != 3 or not isinstance(rec[2], bytes) or any(b > 51 for b in rec[2]):
                raise ReplayError("LOG-2", index, "a cut record is [0, [seats], card codes]")
            rounds.append(tuple(Card.from_index(b) for b in rec[2]))
        try:
            self.match = Match.scripted(self.rules, cuts=rounds, decks=[deck], executor=self.executor)
        except InvalidDeal as err:
            at = cuts[-1][0] if cuts and err.rule.startswith("MATCH") else hand.index
            raise ReplayError(err.rule, at, err.reason) from None
        except InvalidRules as err:  # a rule set a game cannot be played under (RULES-3): the header's fault
            raise ReplayError(err.rule, 0, err.reason) from None
        produced = [(event_record(e), e) for e in self.match.events]
        logged = [rec for _, rec in cuts] + [hand.record]
        for (want, _), (index, got) in zip(produced, [*cuts, (hand.index, hand.record)], strict=False):
            if want != got:
                raise ReplayError(
                    "LOG-8", index, "the draw or the first hand differs from the engine's", expected=want, found=got
                )
        if len(produced) - 1 != len(logged):  # the engine's Dealt is the deal record itself
            raise ReplayError("LOG-8", hand.index, f"{len(cuts)} draw rounds logged, the engine drew "
                              f"{len(produced) - 2}")  # fmt: skip

    def _deck(self, hand: Entry, deal: Entry | None) -> tuple[Card, ...]:
        if deal is None:
            raise ReplayError("LOG-7", hand.index + 1, "the log ends before the deal of a hand")
        rec = deal.record
        if not (isinstance(rec, list) and len(rec) == 2 and rec[0] == T_DEAL and isinstance(rec[1], bytes)):
            raise ReplayError("LOG-8", deal.index, "a hand record must be followed by its deal record", found=rec)
        if len(rec[1]) != 52 or len(set(rec[1])) != 52 or max(rec[1]) > 51:
            raise ReplayError("DEAL-4", deal.index, "a deck order holds each of the 52 card codes once")
        return tuple(Card.from_index(b) for b in rec[1])

    def _deal(self, hand: Entry, deal: Entry | None) -> None:
        assert self.match is not None
        if not self.match.awaiting_deck:
            raise ReplayError("LOG-8", hand.index, "a new hand while the engine is not between hands")
        deck = self._deck(hand, deal)
        events = self.match.add_deck(deck)
        want = event_record(events[0])
        if want != hand.record:
            raise ReplayError(
                "LOG-8", hand.index, "the next hand's roles differ from the engine's", expected=want, found=hand.record
            )

    def _act(self, entry: Entry) -> None:
        assert self.match is not None
        rec = entry.record
        seat = self.match.to_act
        if seat is None:
            raise ReplayError("LOG-8", entry.index, "an action while nobody is to act")
        try:
            action: Action
            if isinstance(rec, list) and rec[0] == T_ADVICE:
                if len(rec) != 3 or type(rec[1]) is not int:
                    raise CodecError("an advice record is [5, seat, action]")
                captain = self.match.captain
                events = self.match.apply(Advise(rec[1], action_of(rec[2], captain)))
            else:
                action = action_of(rec, seat)
                events = self.match.apply(action)
        except CodecError as err:
            raise ReplayError("LOG-2", entry.index, err.reason) from None
        except InvalidMeld as err:  # a well-formed spread or layoff of cards that are no meld
            raise ReplayError(err.rule, entry.index, f"illegal action: {err.reason}", found=rec) from None
        except IllegalAction as err:
            raise ReplayError(err.rule, entry.index, f"illegal action: {err.reason}", found=rec) from None
        records = expected_records(events)
        if records[0] != rec:
            raise ReplayError(
                "LOG-2", entry.index, "the action is not written in its canonical form", expected=records[0], found=rec
            )
        self._expected.extend(records[1:])

    def _compare(self, entry: Entry) -> None:
        want = self._expected.popleft()
        if want in SEALS:
            raise ReplayError("LOG-6", entry.index, f"a {record_type(want)} must follow the hand's result here",
                              found=record_type(entry.record))  # fmt: skip
        if want != entry.record:
            raise ReplayError("LOG-8", entry.index, f"the {record_type(want)} record differs from the engine's",
                              expected=want, found=entry.record)  # fmt: skip

    def _expect_seal(self, entry: Entry, what: str) -> None:
        """A checkpoint follows every hand's result and the trailer the game's end (the reader checked the digest)."""
        want = self._expected[0] if self._expected else None
        if want is None or record_type(want) != what:
            raise ReplayError("LOG-6", entry.index, f"a {what} where the engine expects "
                              f"{record_type(want) if want is not None else 'an action'}")  # fmt: skip
        self._expected.popleft()


def iter_states(source: BinaryIO | bytes, *, executor: ExecutorName = "compiled") -> Iterator[ReplayState]:
    """The game after every record of a log, replayed strictly (LOG-8); raises ``LogError`` where it goes wrong."""
    return Replayer(source, executor=executor).states()


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


def verify(source: BinaryIO | bytes, *, executor: ExecutorName = "compiled") -> AuditReport:
    """Audit a log: replay it strictly and report every hand, the result and the digests. Never raises for a
    bad log: the report says where and why it fails.
    """
    from engine.events import Dealt, HandDead, HandEnded, HandScored, HandStarted

    report = AuditReport(ok=False)
    try:
        replayer = Replayer(source, executor=executor)
        report.players = replayer.reader.header.players
        report.rules = replayer.rules.to_dict()
        seen = 0
        for state in replayer.states():
            for e in state.match.events[seen:]:
                if isinstance(e, HandStarted):
                    report.hands.append(HandReport(e.number, e.dealer, e.seats, e.sitter))
                elif isinstance(e, Dealt) and report.hands:
                    report.hands[-1].upcard, report.hands[-1].knock_limit = str(e.upcard), e.knock_limit
                    report.hands[-1].dealt = {
                        s: " ".join(map(str, sorted(h))) for s, h in zip(e.seats, e.hands, strict=True)
                    }
                elif isinstance(e, HandEnded):
                    report.hands[-1].result, report.hands[-1].scores = str(e.result), e.scores
                elif report.hands and not isinstance(e, HandScored | HandDead):
                    report.hands[-1].actions.append(str(e))
            seen = len(state.match.events)
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
