"""Rebuilding a table from its stored log after a restart. Rules: PROTO-13, PROTO-14, LOG-8, LOG-13, MATCH-7.

The stored log is resumed by ``replay.resume``, in one strict pass: *unfinished* at N — N the record count the
store holds — is the live game, whose next deals come from the table's seed (every draw and deal the log
holds checked against the seed's), with a writer that continues the stored log; *pass* is a finished game,
rebuilt the same way for its summary. A log that fails, or any disagreement with the table (its rules, players
or meta, or a log stopped inside an action's records), is a ``RecoveryError`` carrying the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.chance import SeededChance
from engine.errors import KnockError
from engine.fairdeal import FairSeeds
from knock.conformance.host import host_step
from knock.web.fairtable import server_seed
from knock.web.game import Applied, Game, Sink
from knock.web.tablespec import TableSpec, commit_key_of, meta_of, players_of
from replay import ResumeError, resume
from replay.codec import T_SEAT_COMMITS, T_SEEDS, T_STATEMENT
from replay.log import LogError, LogReader, LogTruncated
from replay.signing import SigningKey
from replay.verdict import Verdict, judge


class RecoveryError(KnockError, ValueError):
    """A stored game that cannot be rebuilt: its verdict, and why. Rule: PROTO-13."""

    def __init__(self, table: str, message: str, verdict: Verdict | None = None) -> None:
        super().__init__(f"PROTO-13: table {table}: {message}", rule="PROTO-13")
        self.table = table
        self.message = message
        self.verdict = verdict


def rebuild(
    table: str,
    spec: TableSpec,
    data: bytes,
    records: int,
    applied: Sequence[Applied],
    secret: bytes | None,
    key: SigningKey | None = None,
) -> tuple[Game, Verdict]:
    """A stored table's game, rebuilt from its log (see the module's docstring). Rule: PROTO-13.

    Raises:
        RecoveryError: the log fails, holds another number of records than the store says, or disagrees with
            the table's seed, rules, players or meta.
    """
    sink = Sink()
    try:
        game = resume(data, sink, chance=SeededChance(spec.seed), executor=spec.executor,
                      commit_key=commit_key_of(secret, spec), key=key)  # fmt: skip
    except ResumeError as err:
        if err.rule == "MATCH-7":
            raise RecoveryError(table, "its log's draws or deals are not its seed's (MATCH-7)", err.verdict) from None
        raise RecoveryError(table, f"its log fails at record {err.record}: {err}", err.verdict) from None
    verdict = game.verdict
    if verdict.record != records:
        raise RecoveryError(table, f"the store holds {records} records, its log {verdict.record}", verdict)
    header = game.header
    if game.match.rules != spec.rules:
        raise RecoveryError(table, "its log's rules are not the table's", verdict)
    if list(header.players) != players_of(spec) or header.meta != meta_of(table, spec):
        raise RecoveryError(table, "its log's players or meta are not the table's", verdict)
    game.writer.sync()
    if sink.take():  # a store holds an action's records together: a hand's end with the next deal
        raise RecoveryError(table, "its log stops inside an action's records (between two hands, without the "
                            "next deal?)", verdict)  # fmt: skip
    rebuilt = Game(table, spec, game.match, game.writer, sink)
    rebuilt.applied = {a.record: a for a in applied}
    return rebuilt, verdict


def rebuild_fair(
    table: str,
    spec: TableSpec,
    data: bytes,
    records: int,
    applied: Sequence[Applied],
    secret: bytes,
    key: SigningKey | None = None,
) -> Game:
    """A fair table's game after a restart, played again: each hand dealt from the seeds its log holds (the
    server's from ``secret``, PROTO-40), the stored actions applied in order through ``Game.act``; the log
    this writes must be the stored one, byte for byte (``replay.resume`` does not resume a fair log: the next
    hands' seeds are the table's to gather). The game may wait for a hand's seeds (``awaiting_seeds``).
    Rules: PROTO-13, PROTO-40.

    Raises:
        RecoveryError: the log fails, or playing it again does not write it.
    """
    verdict = judge(data)
    if verdict.kind == "fail":
        raise RecoveryError(table, f"its log fails at record {verdict.record}: {verdict.message}", verdict)
    # each hand's seeds as sent, whether its seats committed first (LOG-25) and their statements (LOG-26)
    read: list[tuple[list[bytes | None], bool, list[tuple[int, bytes, bytes]]]] = []
    committed = False
    try:
        for entry in LogReader(data).entries():
            record = entry.record
            if type(record) is list and record[0] == T_SEAT_COMMITS:
                committed = True
            elif type(record) is list and record[0] == T_SEEDS:
                supplied = set(record[2])
                read.append(([None if s in supplied else bytes(x) for s, x in enumerate(record[1])], committed, []))
                committed = False
            elif type(record) is list and record[0] == T_STATEMENT and read:
                read[-1][2].append((record[1], bytes(record[2]), bytes(record[3])))
    except LogTruncated as err:  # a game in progress: its log has no trailer yet
        if not err.clean:
            raise RecoveryError(table, f"its log cannot be read: {err}", verdict) from None
    except LogError as err:
        raise RecoveryError(table, f"its log cannot be read: {err}", verdict) from None
    hands = [FairSeeds.gather(n, server_seed(secret, n), sent, committed=ordered, statements=signed)
             for n, (sent, ordered, signed) in enumerate(read, 1)]  # fmt: skip
    if not hands:
        raise RecoveryError(table, "a fair table's stored log holds no seeds", verdict)
    rebuilt, out = Game.new(table, spec, secret, key, hands[0])
    dealt = 1
    for a in sorted(applied, key=lambda a: a.record):
        # a host's step (a seat away or back, a forfeit, an abandoned game) as the host took it; an action (a claim
        # with the time the host wrote) as the seat's (PROTO-42, PROTO-43)
        hosted = host_step(a.action) is not None
        outcome = rebuilt.host(a.action) if hosted else rebuilt.act(a.seat, a.action, a.record, host_time=True)
        if outcome.applied is None:
            raise RecoveryError(table, f"its stored action at record {a.record} is refused: {outcome.reply}", verdict)
        out += outcome.chunk
        if rebuilt.awaiting_seeds is not None and dealt < len(hands):
            out += rebuilt.deal(hands[dealt])
            dealt += 1
    if out != data or rebuilt.record != records:
        raise RecoveryError(table, "playing its stored seeds and actions again does not write its stored log", verdict)
    rebuilt.applied = {a.record: a for a in applied}
    rebuilt.advance()  # every recipient has seen the game played again (a fresh connection is sent the whole hand)
    for lens in rebuilt.lenses.values():
        lens.fresh.clear()
        lens.results.clear()
    return rebuilt
