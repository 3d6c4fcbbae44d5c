"""Rebuilding a table from its stored log after a restart. Rules: PROTO-13, PROTO-14, LOG-8, LOG-13, MATCH-7.

The stored log is judged by the reader (``replay.verdict.judge``): *unfinished* at N — N the record count the
store holds — is replayed by the strict replayer, which rebuilds the live game; its next deals then come from
the table's seed, continued past every draw and deal the log holds (each checked against the seed's), and the
log a fresh writer makes of the rebuilt game must be the stored bytes exactly. *pass* is a finished game,
rebuilt the same way for its summary; *fail*, or any disagreement, is a ``RecoveryError`` carrying the verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.errors import KnockError
from engine.events import CutDrawn, Dealt, MatchEvent
from engine.match import SeededChance
from knock.web.tables import Applied, Table, TableSpec, _Sink, commit_key_of, meta_of, players_of
from replay.codec import deck_of
from replay.log import LogTruncated, LogWriter
from replay.replayer import Replayer
from replay.verdict import Verdict, judge


class RecoveryError(KnockError, ValueError):
    """A stored game that cannot be rebuilt: its verdict, and why. Rule: PROTO-13."""

    def __init__(self, table: str, message: str, verdict: Verdict | None = None) -> None:
        super().__init__(f"PROTO-13: table {table}: {message}", rule="PROTO-13")
        self.table = table
        self.message = message
        self.verdict = verdict


def continued_chance(seed: int, events: Iterable[MatchEvent]) -> SeededChance | None:
    """The seed's chance, advanced past every draw round and deal in ``events`` — or None if one of them is
    not what the seed gives (the log and the seed disagree). Rule: MATCH-7."""
    chance = SeededChance(seed)
    for e in events:
        if isinstance(e, CutDrawn) and chance.cut(len(e.seats)) != e.cards:
            return None
        if isinstance(e, Dealt) and chance.deck() != deck_of(e):
            return None
    return chance


def rebuild(
    table: str, spec: TableSpec, data: bytes, records: int, applied: Sequence[Applied], secret: bytes | None
) -> tuple[Table, Verdict]:
    """A stored table's game, rebuilt from its log (see the module's docstring). Rule: PROTO-13.

    Raises:
        RecoveryError: the log fails, holds another number of records than the store says, or disagrees with
            the table's seed, rules or players.
    """
    verdict = judge(data)
    if verdict.kind == "fail":
        raise RecoveryError(table, f"its log fails at record {verdict.record}: {verdict.message}", verdict)
    if verdict.record != records:
        raise RecoveryError(table, f"the store holds {records} records, its log {verdict.record}", verdict)
    replayer = Replayer(data, executor=spec.executor)
    try:
        match = replayer.run()
    except LogTruncated as err:  # unfinished: the game so far, as the strict replay rebuilt it
        if not err.clean or replayer.match is None:
            raise RecoveryError(table, f"its log does not replay: {err}", verdict) from None
        match = replayer.match
    if match.rules != spec.rules:
        raise RecoveryError(table, "its log's rules are not the table's", verdict)
    chance = continued_chance(spec.seed, match.events)
    if chance is None:
        raise RecoveryError(table, "its log's draws or deals are not its seed's (MATCH-7)", verdict)
    if match.awaiting_deck:  # a store holds an action's records together: a hand's end with the next deal
        raise RecoveryError(table, "its log ends between two hands, without the next deal", verdict)
    match.chance = chance
    sink = _Sink()
    writer = LogWriter(sink, match, players=players_of(spec), meta=meta_of(table, spec),
                       commit_key=commit_key_of(secret, spec))  # fmt: skip
    if sink.take() != data:
        raise RecoveryError(table, "the log written from the rebuilt game is not the stored log", verdict)
    rebuilt = Table(table, spec, match, writer, sink)
    rebuilt.applied = {a.record: a for a in applied}
    return rebuilt, verdict
