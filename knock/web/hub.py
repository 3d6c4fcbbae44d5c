"""The tables of one ``knock serve``: their games, their connections, their bots and timers, and the store.

Rules: PROTO-3, PROTO-7, PROTO-9, PROTO-10, PROTO-12, PROTO-13, PROTO-33. Every change to a table happens under its
lock: the action is applied (``ServerTable.act``), its records are committed (``GroupCommit``), and only then is it
acknowledged and every connection at the table sent its frames. A table's bots and its turn timer are tasks
of the hub that act through the same path. Tables share nothing but the store's commit thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from knock.web import protocol
from knock.web.fairhub import FairDealing, pending_summary
from knock.web.fairtable import TableChance
from knock.web.live import Connection, Live
from knock.web.protocol import Message, ProtocolError
from knock.web.recovery import RecoveryError, rebuild, rebuild_fair
from knock.web.store import Append, Create, Fail, GroupCommit, Store
from knock.web.tables import ServerTable, TableSpec, new_table_id, new_token, token_hash
from replay.redact import redact
from replay.signing import SigningKey
from replay.verdict import judge

log = logging.getLogger("knock.web")


class Hub(FairDealing):
    """Every table of one server (see the module's docstring)."""

    def __init__(
        self, store: Store, *, bot_delay: float = 0.5, key: SigningKey | None = None, digests: Path | None = None
    ) -> None:
        """``key`` signs every new game's log and every seat's view the server sends (LOG-17, LOG-18);
        ``digests``: the append-only file each finished game's trailer digest is appended to (LOG-19)."""
        self.store = store
        self.key = key
        self.digests = digests
        self.committer = GroupCommit(store)
        self.bot_delay = bot_delay
        self.tables: dict[str, Live] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        self.recovered: list[tuple[str, str]] = []  #: (table, verdict) of every table rebuilt at start
        self._secrets: dict[str, bytes | None] = {}
        self._series: dict[str, Mapping[str, Any] | None] = {}  #: each table's series (PROTO-31), from its spec
        self._next: dict[str, str] = {}  #: a table's rematch (PROTO-29)

    # --- start and stop --------------------------------------------------------------------------

    def start(self) -> None:
        """Load every stored table; rebuild each game that is not over from its log. Rule: PROTO-13."""
        self.tokens = self.store.tokens()
        for g in self.store.games():
            spec = TableSpec.from_json(g.spec)
            self._secrets[g.game] = g.secret
            self._note_series(g.game, spec)
            if g.status == "over" and g.summary is not None:
                self.tables[g.game] = Live(g.game, None, g.summary)
                continue
            if g.status == "failed":
                self.tables[g.game] = Live(g.game, None, {"table": g.game, "failed": g.note}, failed=g.note)
                continue
            try:
                if spec.fair:
                    self.tables[g.game] = self._rebuild_fair(g.game, spec, g.records, g.secret)
                    self.recovered.append((g.game, "unfinished"))
                    continue
                table, verdict = rebuild(g.game, spec, self.store.log(g.game), g.records, self.store.applied(g.game),
                                         g.secret, self.key)  # fmt: skip
            except RecoveryError as err:
                log.error("%s", err)
                self.store.commit([Fail(g.game, err.message)])
                self.tables[g.game] = Live(g.game, None, {"table": g.game, "failed": err.message}, failed=err.message)
                self.recovered.append((g.game, "fail"))
                continue
            self.tables[g.game] = Live(g.game, table, table.summary())
            self.recovered.append((g.game, verdict.kind))

    def resume(self) -> None:
        """Set every rebuilt table's bots and timers going (once the event loop runs)."""
        for live in self.tables.values():
            self._schedule(live)
            if live.seeding is not None and live.seeding.number > 1:  # the wait for a fair hand's seeds restarts
                self._start_seeding(live)

    async def stop(self) -> None:
        for live in self.tables.values():
            for task in list(live.tasks):
                task.cancel()
        await asyncio.sleep(0)
        self.committer.close()
        self.store.close()

    # --- tables ----------------------------------------------------------------------------------

    async def create(self, spec: TableSpec, hashes: dict[int, str] | None = None) -> tuple[str, dict[int, str]]:
        """A new table, stored before it is answered; its seats' tokens (shown this once), or, for a rematch, the
        hashes of the tokens it takes over (``hashes``; no token is shown). Rules: PROTO-2, PROTO-29."""
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
            live = Live(table_id, None, pending_summary(table_id, spec), spec=spec,
                        seeding=TableChance(spec.rules.players, secret).seeding(1, humans))  # fmt: skip
            await self.committer.write(Create(table_id, spec.to_json(), secret, hashes, b"", 0))
        else:
            table, head = ServerTable.new(table_id, spec, secret, self.key)
            await self.committer.write(Create(table_id, spec.to_json(), secret, hashes, head, table.record))
            live = Live(table_id, table, table.summary())
        self._secrets[table_id] = secret
        self._note_series(table_id, spec)
        self.tables[table_id] = live
        for seat, h in hashes.items():
            self.tokens[h] = (table_id, seat)
        self._schedule(live)
        if live.seeding is not None and not live.seeding.humans:  # bots only: every seed supplied, dealt at once
            async with live.lock:
                await self._deal(live)
        return table_id, tokens

    def _note_series(self, table_id: str, spec: TableSpec) -> None:
        self._series[table_id] = spec.series
        if spec.series is not None:
            self._next[spec.series["previous"]] = table_id

    def _earlier(self, table_id: str, than: str) -> bool:
        """Whether ``table_id`` is an earlier game of the series of table ``than`` (PROTO-29)."""
        series = self._series.get(than)
        while series is not None:
            if series["previous"] == table_id:
                return True
            series = self._series.get(series["previous"])
        return False

    def _rematch_message(self, table_id: str) -> Message | None:
        """The ``rematch`` message of a table whose rematch is made (PROTO-30), else None."""
        after = self._next.get(table_id)
        series = self._series.get(after) if after is not None else None
        return protocol.rematch(after, series["games"], series["totals"]) if after and series else None

    async def rematch(self, conn: Connection) -> None:
        """A seat asks for the next game of the table's series, once its game is over: the first asking makes it
        (the same spec but the seed, the series' running totals, the seats' tokens taken over), and every
        connection at the table is told; any later asking is told again. Rules: PROTO-29, PROTO-30.

        Raises:
            ProtocolError: a spectator's, or before the game's end (``bad_message``, rule PROTO-29).
        """
        live = self.tables[conn.table or ""]
        if conn.seat is None:
            raise ProtocolError("bad_message", "a spectator cannot ask for a rematch", rule="PROTO-29")
        if live.failed or not live.summary.get("over"):
            raise ProtocolError("bad_message", "a rematch is asked for once the game is over", rule="PROTO-29")
        async with live.lock:
            told = self._rematch_message(live.id)
            if told is not None:
                conn.send(told)
                return
            if live.table is not None:
                spec = live.table.spec
            elif live.spec is not None:
                spec = live.spec
            else:  # over, loaded from the store as its summary
                spec = TableSpec.from_json(next(g.spec for g in self.store.games() if g.game == live.id))
            before = spec.series["totals"] if spec.series is not None else [0] * len(spec.seats)
            totals = [a + b for a, b in zip(before, live.summary["scores"], strict=True)]
            hashes = {seat: h for h, (table, seat) in self.tokens.items() if table == live.id}
            await self.create(spec.rematch(live.id, totals), hashes)
            told = self._rematch_message(live.id)
            assert told is not None
            for conns in live.conns.values():
                for c in list(conns):
                    c.send(told)

    def summaries(self) -> list[dict[str, Any]]:
        return [live.summary for live in self.tables.values()]

    async def full_log(self, table_id: str) -> bytes | None:
        """The full log of a game that is over (None before its end: PROTO-10)."""
        live = self.tables[table_id]
        if live.failed or not live.summary.get("over"):
            return None
        return await asyncio.to_thread(self.store.log, table_id)

    def seat_of(self, token: str) -> tuple[str, int] | None:
        """The table and seat a token holds: looked up by its SHA-256, the only form the server keeps. Rule: PROTO-3."""
        return self.tokens.get(token_hash(token))

    # --- connections -----------------------------------------------------------------------------

    async def join(self, conn: Connection, hello: protocol.Hello) -> None:
        """Seat a connection (its token's seat) or let it watch; send ``welcome`` and its view. Rule: PROTO-3.

        Raises:
            ProtocolError: no such table, a bad token, a failed table.
        """
        live = self.tables.get(hello.table)
        if live is None:
            raise ProtocolError("no_such_table", f"no table {hello.table!r}", close=True)
        seat: int | None = None
        if not hello.spectate:
            assert hello.token is not None
            held = self.seat_of(hello.token)
            if held is None or (held[0] != hello.table and not self._earlier(hello.table, held[0])):
                raise ProtocolError("bad_token", "this token holds no seat at this table", close=True)
            seat = held[1]
        if live.failed:
            raise ProtocolError("table_failed", f"this table cannot go on: {live.failed}", close=True)
        async with live.lock:
            conn.table, conn.key, conn.seat = hello.table, seat, seat
            others = live.conns.setdefault(seat, set())
            if seat is not None:
                for old in list(others):  # a token has one connection: the newest takes the seat over
                    others.discard(old)
                    old.close(protocol.CLOSE_REPLACED, ProtocolError("replaced", "the seat was taken over by a "
                                                                     "newer connection", close=True))  # fmt: skip
            others.add(conn)
            table = live.table
            told = self._rematch_message(live.id)
            if table is None and live.seeding is not None:  # a fair table before its first deal (PROTO-36)
                assert live.spec is not None
                spec = live.spec
                conn.send(protocol.welcome(live.id, seat, spec.seats, spec.rules.to_dict(), spec.turn_timeout,
                                           spec.series, fair=True))  # fmt: skip
                if seat is not None and live.seeding.deadline is None:  # the wait starts with the first seat's hello
                    self._start_seeding(live, announce=False)
                conn.send(self._commit_message(live))
                return
            if table is None:  # over, loaded from the store: the summary and where the log is
                conn.send(self._welcome_stored(live, seat))
                conn.send(self._offer(live))
                if told is not None:
                    conn.send(told)
                return
            conn.send(protocol.welcome(table.id, seat, table.spec.seats, table.match.rules.to_dict(),
                                       table.spec.turn_timeout, table.spec.series, table.spec.fair))  # fmt: skip
            conn.send(table.full_view(seat, self._turn_left(live)))
            if live.seeding is not None:
                conn.send(self._commit_message(live))
            if table.over:
                conn.send(table.game_result(seat))
                conn.send(self._offer(live))
                if told is not None:
                    conn.send(told)

    def resend(self, conn: Connection) -> None:
        """A connection's current view again, with the whole hand's events; at a table kept as its summary only,
        its log's offer again (PROTO-24: every request is answered)."""
        live = self.tables[conn.table or ""]
        if live.table is not None:
            conn.send(live.table.full_view(conn.key, self._turn_left(live)))
        elif live.seeding is not None:
            conn.send(self._commit_message(live))
        elif not live.failed:
            conn.send(self._offer(live))

    async def seat_log(self, table_id: str, seat: int) -> bytes:
        """A seat's own view of the game's log so far (LOG-11): the same redaction as ``knock redact``, signed
        with the server's key when it has one (LOG-18: the seat in every seal; LOG-23: the table and the time in its
        header), so that the client can prove what the server told it, and when."""
        data = await asyncio.to_thread(self.store.log, table_id)
        made = int(time.time()) if self.key is not None else None  # a signed view names its table and time (LOG-23)
        table = table_id if self.key is not None else None
        return await asyncio.to_thread(redact, data, seat, key=self.key, table=table, made=made)

    def leave(self, conn: Connection) -> None:
        if conn.table is None:
            return
        live = self.tables.get(conn.table)
        if live is not None:
            live.conns.get(conn.key, set()).discard(conn)

    def _welcome_stored(self, live: Live, seat: int | None) -> Message:
        s = live.summary
        seats = [protocol.SeatSpec(x["player"], x["name"], x["bot"]) for x in s["seats"]]
        return protocol.welcome(live.id, seat, seats, s["rules"], s.get("turn_timeout"), self._series.get(live.id),
                                bool(s.get("fair")))  # fmt: skip

    def _offer(self, live: Live) -> Message:
        s = live.summary
        return protocol.log_offered(f"/api/tables/{live.id}/log", s["log_bytes"], s["record"],
                                    bytes.fromhex(s["digest"]), s["verdict"])  # fmt: skip

    # --- acting ----------------------------------------------------------------------------------

    async def act(self, conn: Connection, message: protocol.Act) -> None:
        """A seat's action: applied, stored, acknowledged, shown to the table — the answer (ack or refusal) to the
        connection first, then everyone's frames. Rules: PROTO-7, PROTO-8, PROTO-9."""
        live = self.tables[conn.table or ""]
        seat = conn.seat
        if seat is None:
            conn.send(protocol.refusal(None, message.action, "PROTO-3", "a spectator cannot act", self._record(live)))
            return
        if message.seat is not None and message.seat != seat:
            reason = f"this connection holds seat p{seat}, not p{message.seat}"
            conn.send(protocol.refusal(seat, message.action, "PROTO-3", reason, self._record(live)))
            return
        async with live.lock:
            await self._apply(live, seat, message.action, message.record, conn)

    def _record(self, live: Live) -> int:
        return live.table.record if live.table is not None else int(live.summary.get("record", 0))

    async def _apply(self, live: Live, seat: int, text: str, record: int, conn: Connection | None = None) -> None:
        """Under the table's lock: act, commit, answer ``conn`` (the actor's connection, if any), then show every
        connection, in PROTO-28's order. Rules: PROTO-9, PROTO-28."""
        table = live.table
        if live.seeding is not None:
            if conn is not None:
                reason = f"hand {live.seeding.number} is not dealt yet: its seeds are being gathered"
                conn.send(protocol.refusal(seat, text, "PROTO-36", reason, self._record(live)))
            return
        if table is None:
            if conn is not None:
                conn.send(protocol.refusal(seat, text, "MATCH-1", "the game is over", self._record(live)))
            return
        outcome = table.act(seat, text, record)
        done = outcome.applied
        if done is None:
            if conn is not None:
                conn.send(outcome.reply)
            return
        summary = None
        if table.over:
            summary = self._final_summary(table, outcome.chunk)
        try:
            await self.committer.write(Append(live.id, done.record, done.after, outcome.chunk, done, summary))
        except Exception as err:  # not stored: the game goes back to what the store holds
            log.error("table %s: the store refused record %d: %s", live.id, done.record, err)
            self._reload(live)
            raise ProtocolError("internal", "the action could not be stored; it was not applied") from None
        live.summary = summary or table.summary()
        if summary is not None and summary["verdict"] == "pass":
            self._publish(live.id, summary["digest"])
        if conn is not None:
            conn.send(outcome.reply)
        self._schedule(live)  # first: the views shown carry the next turn's clock (PROTO-33)
        self._show(live)
        if table.awaiting_seeds is not None:  # a fair hand ended: the next one's seeds (PROTO-36)
            self._start_seeding(live, fresh=True)
            if live.seeding is not None and live.seeding.complete:
                await self._deal(live)

    def _final_summary(self, table: ServerTable, last: bytes) -> dict[str, Any]:
        """The summary kept of a game that is over, with its log's size, digest and verdict (PROTO-10)."""
        data = self.store.log(table.id) + last
        verdict = judge(data)
        return {**table.summary(), "log_bytes": len(data), "digest": (verdict.digest or b"").hex() or "0" * 64,
                "verdict": verdict.kind}  # fmt: skip

    def _publish(self, table_id: str, digest: str) -> None:
        """Append a finished game's trailer digest to the digests file (LOG-19): ``HEX  TABLE``, one line a game,
        the file opened for appending each time (a list auditors fetch and ``knock verify --digests`` reads)."""
        if self.digests is None:
            return
        try:
            with self.digests.open("a", encoding="ascii") as f:
                f.write(f"{digest}  {table_id}\n")
        except OSError as err:
            log.error("table %s: its digest could not be appended to %s: %s", table_id, self.digests, err)

    def _reload(self, live: Live) -> None:
        """Rebuild a table from the store after a failed commit (its game in memory is ahead of it)."""
        assert live.table is not None
        spec = live.table.spec
        data, applied = self.store.log(live.id), self.store.applied(live.id)
        records = _stored_records(self.store, live.id)
        secret = self._secrets.get(live.id)
        try:
            if spec.fair:
                assert secret is not None
                live.table = rebuild_fair(live.id, spec, data, records, applied, secret, self.key)
            else:
                live.table, _ = rebuild(live.id, spec, data, records, applied, secret, self.key)
        except Exception as err:
            live.table, live.failed = None, f"the store and the game disagree: {err}"

    def _show(self, live: Live) -> None:
        """Send every connection at the table its frames; recipients with no connection skip theirs."""
        table = live.table
        assert table is not None
        table.advance()
        left = self._turn_left(live)
        for key, lens in table.lenses.items():
            conns = live.conns.get(key)
            if not conns:
                lens.fresh.clear()
                lens.results.clear()
                continue
            frames = table.frames(key, left)
            if table.over:
                frames.append(self._offer(live))
            for conn in list(conns):
                for f in frames:
                    conn.send(f)

    # --- bots and timers -------------------------------------------------------------------------

    def _schedule(self, live: Live) -> None:
        """Start the table's bot if a bot is to act, or its turn timer if a person is. Rules: PROTO-12, PROTO-14."""
        table = live.table
        if table is None or table.over:
            return
        if table.bot_to_move() is not None:
            self._spawn(live, self._bots(live))
            return
        turn, timeout = _turn(table), table.spec.turn_timeout
        if turn is None or timeout is None:
            return
        if live.turn != turn:  # a new turn (the sitter's advice does not restart the clock)
            live.turn, live.deadline = turn, time.monotonic() + timeout
            self._spawn(live, self._timer(live, turn))

    def _turn_left(self, live: Live) -> float | None:
        """The seconds left of the current turn by its timer, rounded to a tenth; None when no timer runs (no
        timeout, a bot or nobody to act, the game over). Rule: PROTO-33."""
        table = live.table
        if table is None or table.over or table.spec.turn_timeout is None or table.bot_to_move() is not None:
            return None
        if live.turn is None or live.turn != _turn(table):
            return None
        return round(max(0.0, live.deadline - time.monotonic()), 1)

    def _spawn(self, live: Live, work: Any) -> None:
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no loop yet (at start): ``resume`` schedules again
            work.close()
            return
        live.tasks.add(task)
        task.add_done_callback(live.tasks.discard)

    async def _bots(self, live: Live) -> None:
        delay = live.table.spec.bot_delay if live.table is not None else 0.0
        await asyncio.sleep(delay)
        async with live.lock:
            table = live.table
            seat = table.bot_to_move() if table is not None else None
            if table is None or seat is None:
                return
            # A search level takes tens of milliseconds a move: chosen in a worker thread, so the loop answers
            # every other table and request meanwhile; the table's lock keeps its game still until it is applied.
            action = await asyncio.to_thread(table.bot_action, seat)
            with contextlib.suppress(ProtocolError):
                await self._apply(live, seat, action, table.record)

    async def _timer(self, live: Live, turn: tuple[int, int | None, int]) -> None:
        await asyncio.sleep(max(0.0, live.deadline - time.monotonic()))
        async with live.lock:
            table = live.table
            hand = table.match.hand if table is not None else None
            if table is None or hand is None or live.turn != turn or _turn(table) != turn:
                return
            seat = turn[1]
            assert seat is not None
            action = table.bot_action(seat, stand_in=True)
            for key, conns in live.conns.items():  # the move itself only to its seat (a knock's card is hidden)
                for conn in list(conns):
                    conn.send(protocol.timed_out(seat, action if key == seat else None))
            with contextlib.suppress(ProtocolError):
                await self._apply(live, seat, action, table.record)


def _turn(table: ServerTable) -> tuple[int, int, int] | None:
    """The turn a person's timer would run for: (the hand's number, the seat to act, the hand's events so far);
    None with nobody to act."""
    hand, seat = table.match.hand, table.match.to_act
    return None if hand is None or seat is None else (table.match.number, seat, len(hand.events))


def _stored_records(store: Store, game: str) -> int:
    return next(g.records for g in store.games() if g.game == game)
