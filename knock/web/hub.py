"""The tables of one ``knock serve``, and the routing of connections and requests to them. Rules: PROTO-3,
PROTO-9, PROTO-13, PROTO-29, PROTO-30.

``Hub`` holds the server's tables (``knock.web.table.Table``: each holds everything of its own) and the index of
seat tokens by their hashes; it makes tables (``create``, a rematch), loads them at start (rebuilding each game
that is not over from its stored log), seats a connection at its table, and passes each message to the table it
is for. Tables share nothing but the ``House``: the store's commit thread, the signing key, the digests file and
the bot runner.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from pathlib import Path
from typing import Any

from knock.web import attendance, fairflow, protocol
from knock.web.botwork import BotRunner, ThreadBots
from knock.web.fairtable import FAIR_PROTOCOL
from knock.web.game import Game
from knock.web.protocol import Message, ProtocolError
from knock.web.recovery import RecoveryError, rebuild
from knock.web.store import Create, Fail, GroupCommit, Store
from knock.web.table import Connection, House, Table, fair_pending, new_table_id, new_token, rebuilt_fair, token_hash
from knock.web.tablespec import TableSpec
from replay.redact import redact
from replay.signing import SigningKey

log = logging.getLogger("knock.web")


class Hub:
    """Every table of one server (see the module's docstring)."""

    def __init__(
        self,
        store: Store,
        *,
        bot_delay: float = 0.5,
        key: SigningKey | None = None,
        digests: Path | None = None,
        bots: BotRunner | None = None,
    ) -> None:
        """``key`` signs every new game's log and every seat's view the server sends (LOG-17, LOG-18);
        ``digests``: the append-only file each finished game's trailer digest is appended to (LOG-19); ``bots``:
        where the bots think (``knock.web.botwork``; a worker thread of this process unless given)."""
        self.house = House(store, GroupCommit(store), key, digests, bots if bots is not None else ThreadBots())
        self.bot_delay = bot_delay
        self.tables: dict[str, Table] = {}
        self.tokens: dict[str, tuple[str, int]] = {}  #: each token's hash: its table and seat (PROTO-3)
        self.recovered: list[tuple[str, str]] = []  #: (table, verdict) of every table rebuilt at start

    @property
    def store(self) -> Store:
        return self.house.store

    # --- start and stop --------------------------------------------------------------------------

    def start(self) -> None:
        """Load every stored table; rebuild each game that is not over from its log. Rule: PROTO-13."""
        house = self.house
        self.tokens = self.store.tokens()
        for g in self.store.games():
            spec = TableSpec.from_json(g.spec)
            if g.status == "over" and g.summary is not None:
                self._add(Table(g.game, spec, house, g.secret, g.summary))
                continue
            if g.status == "failed":
                self._add(Table(g.game, spec, house, g.secret, {"table": g.game, "failed": g.note}, failed=g.note))
                continue
            try:
                if spec.fair:
                    self._add(rebuilt_fair(g.game, spec, house, g.records, g.secret))
                    self.recovered.append((g.game, "unfinished"))
                    continue
                game, verdict = rebuild(g.game, spec, self.store.log(g.game), g.records, self.store.applied(g.game),
                                        g.secret, house.key)  # fmt: skip
            except RecoveryError as err:
                log.error("%s", err)
                self.store.commit([Fail(g.game, err.message)])
                failed = {"table": g.game, "failed": err.message}
                self._add(Table(g.game, spec, house, g.secret, failed, failed=err.message))
                self.recovered.append((g.game, "fail"))
                continue
            self._add(Table(g.game, spec, house, g.secret, game.summary(), game))
            self.recovered.append((g.game, verdict.kind))
        for h, (table_id, seat) in self.tokens.items():
            table = self.tables.get(table_id)
            if table is not None:
                table.hashes[seat] = h

    def _add(self, table: Table) -> None:
        """Keep ``table``; a rematch is linked to the table before it (PROTO-29)."""
        self.tables[table.id] = table
        series = table.spec.series
        before = self.tables.get(series["previous"]) if series is not None else None
        if before is not None:
            before.next = table.id

    def resume(self) -> None:
        """Set every rebuilt table's bots and timers going (once the event loop runs)."""
        for table in self.tables.values():
            table.schedule()
            attendance.unattended(table)  # a restart leaves nobody at any table (PROTO-44)
            if table.seeding is not None and table.seeding.number > 1:  # the wait for a fair hand's seeds restarts
                fairflow.start_seeding(table)

    async def stop(self) -> None:
        for table in self.tables.values():
            for task in list(table.tasks):
                task.cancel()
        await asyncio.sleep(0)
        self.house.bots.close()
        self.house.committer.close()
        self.store.close()

    # --- tables ----------------------------------------------------------------------------------

    async def create(self, spec: TableSpec, hashes: dict[int, str] | None = None) -> tuple[str, dict[int, str]]:
        """A new table, stored before it is answered; its seats' tokens (shown this once), or, for a rematch, the
        hashes of the tokens it takes over (``hashes``; no token is shown). Rules: PROTO-2, PROTO-29."""
        house = self.house
        table_id = new_table_id()
        while table_id in self.tables:
            table_id = new_table_id()
        secret = secrets.token_bytes(32) if spec.commitments or spec.fair else None
        humans = tuple(i for i in range(len(spec.seats)) if spec.human(i))
        tokens = {seat: new_token() for seat in humans} if hashes is None else {}
        if hashes is None:
            hashes = {seat: token_hash(t) for seat, t in tokens.items()}
        if spec.fair:  # nothing is dealt before the first hand's seeds are in (PROTO-36): an empty log so far
            assert secret is not None
            table = fair_pending(table_id, spec, house, secret)
            await house.committer.write(Create(table_id, spec.to_json(), secret, hashes, b"", 0))
        else:
            game, head = Game.new(table_id, spec, secret, house.key)
            await house.committer.write(Create(table_id, spec.to_json(), secret, hashes, head, game.record))
            table = Table(table_id, spec, house, secret, game.summary(), game)
        table.hashes = dict(hashes)
        self._add(table)
        for seat, h in hashes.items():
            self.tokens[h] = (table_id, seat)
        table.schedule()
        attendance.unattended(table)  # nobody has taken a seat yet (PROTO-44)
        if table.seeding is not None and not table.seeding.humans:  # bots only: every seed supplied, dealt at once
            async with table.lock:
                await fairflow.deal(table)
        return table_id, tokens

    def _earlier(self, table_id: str, than: str) -> bool:
        """Whether ``table_id`` is an earlier game of the series of table ``than`` (PROTO-29)."""
        table = self.tables.get(than)
        series = table.spec.series if table is not None else None
        while series is not None:
            if series["previous"] == table_id:
                return True
            before = self.tables.get(series["previous"])
            series = before.spec.series if before is not None else None
        return False

    def _rematch_message(self, table: Table) -> Message | None:
        """The ``rematch`` message of a table whose rematch is made (PROTO-30), else None."""
        after = self.tables.get(table.next) if table.next is not None else None
        series = after.spec.series if after is not None else None
        return protocol.rematch(table.next, series["games"], series["totals"]) if table.next and series else None

    async def rematch(self, conn: Connection) -> None:
        """A seat asks for the next game of the table's series, once its game is over: the first asking makes it
        (the same spec but the seed, the series' running totals, the seats' tokens taken over), and every
        connection at the table is told; any later asking is told again. Rules: PROTO-29, PROTO-30.

        Raises:
            ProtocolError: a spectator's, or before the game's end (``bad_message``, rule PROTO-29).
        """
        table = self.tables[conn.table or ""]
        if conn.seat is None:
            raise ProtocolError("bad_message", "a spectator cannot ask for a rematch", rule="PROTO-29")
        if table.failed or not table.over:
            raise ProtocolError("bad_message", "a rematch is asked for once the game is over", rule="PROTO-29")
        async with table.lock:
            told = self._rematch_message(table)
            if told is not None:
                conn.send(told)
                return
            spec = table.spec
            before = spec.series["totals"] if spec.series is not None else [0] * len(spec.seats)
            totals = [a + b for a, b in zip(before, table.summary["scores"], strict=True)]
            await self.create(spec.rematch(table.id, totals), dict(table.hashes))
            told = self._rematch_message(table)
            assert told is not None
            table.send_all(told)

    def summaries(self) -> list[dict[str, Any]]:
        return [table.summary for table in self.tables.values()]

    async def full_log(self, table_id: str) -> bytes | None:
        """The full log of a game that is over (None before its end: PROTO-10)."""
        table = self.tables[table_id]
        if table.failed or not table.over:
            return None
        return await asyncio.to_thread(self.store.log, table_id)

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """The table and seat a token holds: looked up by its SHA-256, the only form the server keeps. Rule: PROTO-3."""
        return self.tokens.get(token_hash(token))

    async def seat_log(self, table_id: str, seat: int) -> bytes:
        """A seat's own view of the game's log so far (LOG-11): the same redaction as ``knock redact``, signed
        with the server's key when it has one (LOG-18: the seat in every seal; LOG-23: the table and the time in its
        header), so that the client can prove what the server told it, and when."""
        key = self.house.key
        data = await asyncio.to_thread(self.store.log, table_id)
        made = int(time.time()) if key is not None else None  # a signed view names its table and time (LOG-23)
        table = table_id if key is not None else None
        return await asyncio.to_thread(redact, data, seat, key=key, table=table, made=made)

    # --- connections -----------------------------------------------------------------------------

    async def join(self, conn: Connection, hello: protocol.Hello) -> None:
        """Seat a connection (its token's seat) or let it watch; send ``welcome`` and its view. Rule: PROTO-3.

        Raises:
            ProtocolError: no such table, a bad token, a failed table.
        """
        table = self.tables.get(hello.table)
        if table is None:
            raise ProtocolError("no_such_table", f"no table {hello.table!r}", close=True)
        seat: int | None = None
        if not hello.spectate:
            assert hello.token is not None
            held = self.seat_of(hello.token)
            if held is None or (held[0] != hello.table and not self._earlier(hello.table, held[0])):
                raise ProtocolError("bad_token", "this token holds no seat at this table", close=True)
            seat = held[1]
        if table.failed:
            raise ProtocolError("table_failed", f"this table cannot go on: {table.failed}", close=True)
        if table.spec.fair and hello.protocol < FAIR_PROTOCOL:  # PROTO-46: no downgrade at a fair table
            raise ProtocolError("unsupported_protocol", f"a fair table takes clients of protocol "
                                f"{FAIR_PROTOCOL[0]}.{FAIR_PROTOCOL[1]} or later, not {hello.protocol[0]}."
                                f"{hello.protocol[1]}: an earlier client sends its seed before every party has "
                                "committed (DEAL-11)", close=True, rule="PROTO-46")  # fmt: skip
        async with table.lock:
            conn.table, conn.key, conn.seat, conn.signer = hello.table, seat, seat, hello.key
            if seat is not None:
                await attendance.returning(table, seat)  # back, if the host had it away (PROTO-43)
            table.seat(conn, seat, self._rematch_message(table))

    def resend(self, conn: Connection) -> None:
        self.tables[conn.table or ""].resend(conn)

    def leave(self, conn: Connection) -> None:
        if conn.table is None:
            return
        table = self.tables.get(conn.table)
        if table is not None:
            table.leave(conn)
            if conn.seat is not None and not table.present(conn.seat):
                table.spawn(attendance.gone(table, conn.seat))  # gone, by the host's record (PROTO-43)
                attendance.unattended(table)  # nobody left at the table: abandoned if nobody comes (PROTO-44)

    async def act(self, conn: Connection, message: protocol.Act) -> None:
        """A seat's action: applied, stored, acknowledged, shown to the table — the answer (ack or refusal) to the
        connection first, then everyone's frames. Rules: PROTO-7, PROTO-8, PROTO-9."""
        table = self.tables[conn.table or ""]
        seat = conn.seat
        if seat is None:
            conn.send(protocol.refusal(None, message.action, "PROTO-3", "a spectator cannot act", table.record))
            return
        if message.seat is not None and message.seat != seat:
            reason = f"this connection holds seat p{seat}, not p{message.seat}"
            conn.send(protocol.refusal(seat, message.action, "PROTO-3", reason, table.record))
            return
        async with table.lock:
            await table.apply(seat, message.action, message.record, conn)

    async def claim(self, conn: Connection, message: protocol.ClaimRequest) -> None:
        """A seat claims the game against a seat away (``Table.claim``). Rules: PROTO-42, END-4."""
        table = self.tables[conn.table or ""]
        seat = conn.seat
        text = f"claim p{message.against}"
        if seat is None:
            conn.send(protocol.refusal(None, text, "PROTO-3", "a spectator cannot claim", table.record))
            return
        if message.seat is not None and message.seat != seat:
            reason = f"this connection holds seat p{seat}, not p{message.seat}"
            conn.send(protocol.refusal(seat, text, "PROTO-3", reason, table.record))
            return
        async with table.lock:
            await table.claim(seat, message.against, message.record, conn)

    async def commit(self, conn: Connection, message: protocol.Commit) -> None:
        """A seat's commitment to its seed for its table's hand being seeded (``fairflow.take_commit``). Rule:
        PROTO-45."""
        await fairflow.take_commit(self.tables[conn.table or ""], conn, message)

    async def seed(self, conn: Connection, message: protocol.Seed) -> None:
        """A seat's seed for its table's hand being seeded (``fairflow.take_seed``). Rules: PROTO-37, PROTO-38,
        PROTO-45."""
        await fairflow.take_seed(self.tables[conn.table or ""], conn, message)
