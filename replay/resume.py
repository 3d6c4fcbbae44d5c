"""Resuming a game from its log: the live game and a writer that continues the same log, in one pass.

Rules: LOG-5, LOG-8, LOG-11, LOG-13, MATCH-7. ``resume(data)`` replays a full log strictly (the replay is the
judgement: a log that does not replay is refused with the record and the reason), checks every draw and deal
against the chance the game goes on with (by default the seed in the log's ``meta``), and hands back the game
as it stands with a ``LogWriter`` whose next ``sync()`` writes exactly what one writer, run from the start,
would have written next. A finished game resumes as finished: the caller decides what to do with it.

>>> from knock.bots import GreedyBot, play_match
>>> from engine.match import Match
>>> from replay.log import LogReader, write_log
>>> whole = write_log(play_match(Match.new(seed=7), [GreedyBot(), GreedyBot()]), meta={"seed": 7})
>>> cut = len(whole) - sum(r.size for r in list(LogReader(whole).entries())[100:])  # after 100 records
>>> out = io.BytesIO()
>>> game = resume(whole[:cut], out)
>>> game.finished, game.verdict.kind, game.verdict.record
(False, 'unfinished', 100)
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import BinaryIO

from engine.actions import MatchAction
from engine.chance import Chance, SeededChance
from engine.events import CutDrawn, Dealt
from engine.fsm import ExecutorName
from engine.match import Match
from engine.rules import RuleSet
from replay.codec import NAMED_VERSION, T_COMMIT, deck_of
from replay.log import Header, LogError, LogReader, LogTruncated, LogWriter, write_log
from replay.replayer import Replayer
from replay.signing import SigningKey
from replay.verdict import Kind, Verdict


class ResumeError(LogError):
    """A log that cannot be resumed: it fails (``verdict`` says where and why), it is a per-seat view (LOG-11),
    or its draws and deals are not the chance's (MATCH-7). ``record`` and ``rule`` as for ``LogError``."""

    def __init__(self, rule: str, record: int, reason: str, verdict: Verdict | None = None) -> None:
        super().__init__(rule, record, reason)
        self.verdict = verdict


@dataclass(frozen=True, slots=True)
class Resumed:
    """A resumed game: the live ``match``, the ``writer`` continuing its log, the log's ``header`` and
    ``verdict`` (*unfinished*, or *pass* for a finished game), and every action the log holds, in order."""

    match: Match
    writer: LogWriter
    header: Header
    verdict: Verdict
    actions: tuple[MatchAction, ...]

    @property
    def finished(self) -> bool:
        """The log is whole (its trailer read): nothing is left to write. A game over whose log stops before
        its trailer is not finished: its writer writes the rest."""
        return self.verdict.kind == "pass"


def resume(
    data: bytes,
    stream: BinaryIO | None = None,
    *,
    chance: Chance | None = None,
    executor: ExecutorName = "compiled",
    commit_key: bytes | None = None,
    before: Callable[[Match, MatchAction], None] | None = None,
    key: SigningKey | None = None,
) -> Resumed:
    """The game logged in ``data``, live, and a writer that appends to ``stream`` what comes next (by default a
    fresh ``io.BytesIO``: the writer then holds only the new bytes; give the file opened for appending to go on
    with it). ``chance``: where the next draws and deals come from (default: ``SeededChance`` of the ``seed``
    in the log's ``meta``); the log's own must be the first it gives. ``commit_key``: the secret of a log with
    shuffle commitments (LOG-10). ``key``: the signer's key of a signed log (LOG-17), which signs what comes
    next (ignored for an unsigned log, which goes on unsigned). ``before``: a caller's check of each action as
    it is replayed (see ``Replayer``). Rules: LOG-5, LOG-8, LOG-11, LOG-17, MATCH-7.

    Raises:
        ResumeError: the log fails (the record and message of its verdict), is a per-seat view, holds no seed
            and no chance was given, or its draws and deals are not the chance's.
    """
    try:
        reader = LogReader(data)
    except LogError as err:
        raise ResumeError(err.rule, err.record, f"the log fails: {err.reason}", _fail(err)) from None
    header = reader.header
    if header.view is not None:
        raise ResumeError("LOG-11", 0, f"a per-seat view (for p{header.view}) hides the deals: only a full log "
                          "resumes")  # fmt: skip
    if header.fair:  # the next hands' seeds are the table's to gather (a server seed committed first, DEAL-9)
        raise ResumeError("LOG-20", 0, "a fair game is not resumed from its log (not built): its next hands' seeds "
                          "come from the table that deals them")  # fmt: skip
    if header.commitments and commit_key is None:
        raise ResumeError("LOG-10", 0, "the log commits to its shuffles: give its commit_key to go on")
    if header.signer is None:
        key = None  # an unsigned log goes on unsigned: a log is signed from its header on, or not at all
    elif key is None or key.public != header.signer:
        raise ResumeError("LOG-17", 0, "the log is signed: give its signer's key to go on" if key is None else
                          "the key given is not the log's signer")  # fmt: skip
    if chance is None:
        seed = header.meta.get("seed")
        if type(seed) is not int:
            raise ResumeError("MATCH-7", 0, "the log's meta holds no seed: give the chance to go on with")
        chance = SeededChance(seed)
    actions: list[MatchAction] = []

    def noted(match: Match, action: MatchAction) -> None:
        if before is not None:
            before(match, action)
        actions.append(action)

    try:
        replayer = Replayer(reader, executor=executor, then=chance, before=noted)
    except LogError as err:
        raise ResumeError(err.rule, err.record, f"the log fails: {err.reason}", _fail(err)) from None
    last: int | None = None  # the index of the last event whose record the log holds
    written = 0  # the records of that event (and after it) that the log holds
    commit = False
    finished = False
    yielded = 0  # the number of the last record replayed
    try:
        for state in replayer.states():
            yielded = state.index
            event = state.event
            if event is None:
                written += 1
                commit = type(state.record) is list and state.record[0] == T_COMMIT
                continue
            if isinstance(event, CutDrawn) and chance.cut(len(event.seats)) != event.cards:
                raise _not_chance(state.index, "draw")
            if isinstance(event, Dealt) and chance.deck() != deck_of(event):
                raise _not_chance(state.index, "deal")
            last = _position(state.match, event)
            written = 1 + commit  # a hand's commitment is the first of its records
            commit = False
        finished = True
    except LogTruncated as err:
        if not err.clean:
            raise ResumeError(err.rule, err.record, f"the log fails: {err.reason}", _fail(err)) from None
    except ResumeError:
        raise
    except LogError as err:
        raise ResumeError(err.rule, err.record, f"the log fails: {err.reason}", _fail(err)) from None
    records, digest = reader.index, reader.digest
    written += records - yielded  # a hand's record waits for its deal: read, not yet replayed
    verdict = _verdict(reader, replayer.match, finished)
    match = replayer.go_on()
    if match is None:  # stopped in the draw, before the first deal: the chance makes the game from the start
        match, last, written = _undealt(data, records, chance, replayer.rules, executor, commit_key), 0, records
    assert last is not None
    out = stream if stream is not None else io.BytesIO()
    writer = LogWriter.continuing(out, match, digest=digest, records=records, size=len(data), event=last,
                                  written=written, commit_key=commit_key, key=key,
                                  endings=header.version[0] >= NAMED_VERSION[0])  # fmt: skip
    return Resumed(match, writer, header, verdict, tuple(actions))


def _verdict(reader: LogReader, match: Match | None, finished: bool) -> Verdict:
    """The verdict ``judge`` gives of the log: *pass*, or *unfinished* at its last record. Rule: LOG-13."""
    n = reader.index
    kind: Kind
    if finished:
        kind, rule, digest = "pass", "", reader.trailer_digest
        message = f"{n} records, {reader.checkpoints} checkpoints, strict replay"
    else:
        kind, rule, digest = "unfinished", "", reader.digest
        message = f"the log ends after record {n}, before its trailer: a game in progress, stopped or cut short"
    if match is None:
        return Verdict(kind, n, rule, message, digest)
    st = match.standings()
    scores = st.totals if match.is_over else match.scores
    return Verdict(kind, n, rule, message, digest, None, match.number, tuple(scores), st.winner)


def _position(match: Match, event: object) -> int:
    """The index of ``event`` among ``match``'s events (counting those a game without history let go)."""
    events = match.events
    for i in range(len(events) - 1, -1, -1):
        if events[i] is event:
            return match.dropped + i
    raise AssertionError("a replayed event is not the game's")


def _undealt(
    data: bytes, records: int, chance: Chance, rules: RuleSet, executor: ExecutorName, commit_key: bytes | None
) -> Match:
    """A log that stops before its first deal: the game dealt from ``chance``, whose first records the log's
    must be (the few records of a draw, compared as a writer makes them)."""
    match = Match(rules, chance, executor=executor)
    made = LogReader(write_log(match, commit_key=commit_key)).entries()
    try:
        for entry in LogReader(data).entries():
            if next(made).record != entry.record:
                raise _not_chance(entry.index, "draw")
    except LogTruncated:
        pass
    return match


def _not_chance(record: int, what: str) -> ResumeError:
    return ResumeError("MATCH-7", record, f"the log's {what} is not the one its seed (the chance to go on with) "
                       "gives: the game cannot go on as it was dealt")  # fmt: skip


def _fail(err: LogError) -> Verdict:
    return Verdict("fail", err.record, err.rule, str(err))
