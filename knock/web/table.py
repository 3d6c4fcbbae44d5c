"""A live table of ``knock serve``: everything one table has, in one object. Rules: PROTO-3, PROTO-7, PROTO-9,
PROTO-10, PROTO-12, PROTO-13, PROTO-14, PROTO-33, PROTO-35 .. PROTO-40.

A ``Table`` holds its spec and secret, its game (``knock.web.game.Game``: the match, its log, what each recipient
has seen), its seats' token hashes, its connections, its lock, its bot's and timers' tasks, the turn its timer
runs for, and at a fair table the seeds being gathered for the next hand (``Seeding``). Every change happens under
its lock: the action is applied (``Game.act``), its records are committed (the store is a table's only
persistence), and only then is it acknowledged and every connection at the table sent its frames. A table's bots
(through the server's bot runner, ``knock.web.botwork``) and its timers are tasks that act through the same path.
The server's shared services — the store and its commit thread, the signing key, the digests file, the bot
runner — are its ``House``; routing connections to tables is ``knock.web.hub.Hub``'s.

Fair dealing (PROTO-35 .. PROTO-40, PROTO-45): before each hand of a fair table its seeds are gathered in two
rounds, every party's commitment and then the seeds (``knock.web.fairflow``), and the hand dealt from them.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from knock.web import fairflow, protocol
from knock.web.botwork import BotRunner
from knock.web.fairtable import Seeding, TableChance
from knock.web.game import Clock, Game, Key, Outcome, wall_clock
from knock.web.protocol import Message, ProtocolError
from knock.web.recovery import rebuild, rebuild_fair
from knock.web.store import Append, GroupCommit, Store
from knock.web.tablespec import TableSpec
from replay.signing import SigningKey
from replay.verdict import judge

log = logging.getLogger("knock.web")

#: Frames a connection may have waiting to be sent before it is dropped as too slow to follow.
OUTBOX_LIMIT = 1000


class Connection:
    """One client at a table: where its frames go. ``send`` never waits (frames queue for the sender)."""

    def __init__(self, send: Callable[[Message], None], close: Callable[[int, ProtocolError], None]) -> None:
        self.send = send
        self.close = close
        self.table: str | None = None
        self.key: Key = None
        self.seat: int | None = None  #: the seat it plays (None: a spectator, or not joined yet)
        self.signer: bytes | None = None  #: the Ed25519 key its hello named for its statements (PROTO-47)


@dataclass
class House:
    """What a server's tables share: the store and its commit thread, the signing key (LOG-17, LOG-18), the file
    each finished game's digest is appended to (LOG-19), and the bot runner."""

    store: Store
    committer: GroupCommit
    key: SigningKey | None
    digests: Path | None
    bots: BotRunner
    clock: Clock = wall_clock  #: the host's time, whole seconds since 1970 (END-4, PROTO-42, PROTO-43)
    grace: float = 15.0  #: the seconds a seat may be without a connection before it is away (PROTO-43)
    abandon_after: float = 600.0  #: the seconds a table may go without any person before it is abandoned (PROTO-44)

    def publish(self, table_id: str, digest: str) -> None:
        """Append a finished game's trailer digest to the digests file (LOG-19): ``HEX  TABLE``, one line a game,
        the file opened for appending each time (a list auditors fetch and ``knock verify --digests`` reads)."""
        if self.digests is None:
            return
        try:
            with self.digests.open("a", encoding="ascii") as f:
                f.write(f"{digest}  {table_id}\n")
        except OSError as err:
            log.error("table %s: its digest could not be appended to %s: %s", table_id, self.digests, err)


#: The label of the key a fair table signs its receipts with when the server has none (PROTO-47).
RECEIPTS_LABEL = b"knock-fair-receipts/1"


@dataclass(eq=False)
class Table:
    """One live table (see the module's docstring). ``game`` is None before a fair table's first deal (``seeding``
    gathers its seeds), once a game that is over is kept as its ``summary`` only, and when it failed."""

    id: str
    spec: TableSpec
    house: House
    secret: bytes | None
    summary: dict[str, Any]
    game: Game | None = None
    failed: str = ""
    hashes: dict[int, str] = field(default_factory=dict)  #: each human seat's token, as its SHA-256 (PROTO-3)
    next: str | None = None  #: the table of this one's rematch, once made (PROTO-29)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: dict[Key, set[Connection]] = field(default_factory=dict)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    turn: tuple[int, int | None, int] | None = None  #: the turn the timer runs for (hand, seat, hand events)
    deadline: float = 0.0  #: when that turn's timer runs out (``time.monotonic``): what ``turn_left`` tells
    seeding: Seeding | None = None  #: at a fair table, the hand whose seeds are being gathered (PROTO-36)
    attended: int = 0  #: how many times a person has taken a seat here (a wait to abandon it ends on a change)

    def __post_init__(self) -> None:
        self.adopt(self.game)

    def adopt(self, game: Game | None) -> None:
        """Hold ``game``, its views timed by the house's clock (PROTO-43)."""
        if game is not None:
            game.clock = self.house.clock
        self.game = game

    # --- what it is --------------------------------------------------------------------------------

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.spec.seats)) if self.spec.human(i))

    @functools.cached_property
    def receipts(self) -> SigningKey | None:
        """The key a fair table signs its receipts with: the server's, else one of the table's own from its secret,
        the same after a restart (PROTO-47)."""
        if not self.spec.fair or self.secret is None:
            return None
        return self.house.key or SigningKey.from_seed(hmac.digest(self.secret, RECEIPTS_LABEL, "sha256"))

    @property
    def receipt_key(self) -> bytes | None:
        key = self.receipts
        return key.public if key is not None else None

    @property
    def over(self) -> bool:
        return bool(self.summary.get("over"))

    @property
    def record(self) -> int:
        return self.game.record if self.game is not None else int(self.summary.get("record", 0))

    def send_all(self, message: Message) -> None:
        for conns in self.conns.values():
            for conn in list(conns):
                conn.send(message)

    def welcome_stored(self, seat: int | None) -> Message:
        s = self.summary
        seats = [protocol.SeatSpec(x["player"], x["name"], x["bot"]) for x in s["seats"]]
        return protocol.welcome(self.id, seat, seats, s["rules"], s.get("turn_timeout"), self.spec.series,
                                bool(s.get("fair")), self.receipt_key)  # fmt: skip

    def offer(self) -> Message:
        s = self.summary
        return protocol.log_offered(f"/api/tables/{self.id}/log", s["log_bytes"], s["record"],
                                    bytes.fromhex(s["digest"]), s["verdict"])  # fmt: skip

    # --- connections -------------------------------------------------------------------------------

    def seat(self, conn: Connection, seat: int | None, told: Message | None) -> None:
        """Under the lock: seat ``conn`` (or let it watch), and send ``welcome`` and its view; ``told``: the
        table's rematch, if made (PROTO-30). Rule: PROTO-3."""
        others = self.conns.setdefault(seat, set())
        if seat is not None:
            self.attended += 1
            for old in list(others):  # a token has one connection: the newest takes the seat over
                others.discard(old)
                old.close(protocol.CLOSE_REPLACED, ProtocolError("replaced", "the seat was taken over by a newer "
                                                                 "connection", close=True))  # fmt: skip
        others.add(conn)
        game, spec = self.game, self.spec
        if game is None and self.seeding is not None:  # a fair table before its first deal (PROTO-36)
            conn.send(protocol.welcome(self.id, seat, spec.seats, spec.rules.to_dict(), spec.turn_timeout,
                                       spec.series, True, self.receipt_key))  # fmt: skip
            if seat is not None and self.seeding.deadline is None:  # the wait starts with the first seat's hello
                fairflow.start_seeding(self, announce=False)
            fairflow.send_fair(self, conn)
            return
        if game is None:  # over, loaded from the store: the summary and where the log is
            conn.send(self.welcome_stored(seat))
            conn.send(self.offer())
            if told is not None:
                conn.send(told)
            return
        conn.send(protocol.welcome(game.id, seat, spec.seats, game.match.rules.to_dict(), spec.turn_timeout,
                                   spec.series, spec.fair, self.receipt_key))  # fmt: skip
        conn.send(game.full_view(seat, self.turn_left()))
        if self.seeding is not None:
            fairflow.send_fair(self, conn)
        if game.over:
            conn.send(game.game_result(seat))
            conn.send(self.offer())
            if told is not None:
                conn.send(told)

    def resend(self, conn: Connection) -> None:
        """A connection's current view again, with the whole hand's events; at a table kept as its summary only,
        its log's offer again (PROTO-24: every request is answered)."""
        if self.game is not None:
            conn.send(self.game.full_view(conn.key, self.turn_left()))
        elif self.seeding is not None:
            fairflow.send_fair(self, conn)
        elif not self.failed:
            conn.send(self.offer())

    def leave(self, conn: Connection) -> None:
        self.conns.get(conn.key, set()).discard(conn)

    # --- acting ------------------------------------------------------------------------------------

    async def apply(self, seat: int, text: str, record: int, conn: Connection | None = None) -> None:
        """Under the lock: act, commit, answer ``conn`` (the actor's connection, if any), then show every
        connection, in PROTO-28's order. Rules: PROTO-9, PROTO-28."""
        if self._closed(seat, text, conn):
            return
        assert self.game is not None
        await self.commit(self.game.act(seat, text, record), conn)

    async def claim(self, seat: int, against: int, record: int, conn: Connection) -> None:
        """Under the lock: ``seat`` claims the game against ``against`` at the host's time now. Rule: PROTO-42."""
        if self._closed(seat, f"claim p{against}", conn):
            return
        assert self.game is not None
        await self.commit(self.game.claim(seat, against, record, self.house.clock()), conn)

    async def host(self, text: str) -> None:
        """Under the lock: the host's step ``text`` (a seat away, back, or forfeiting), if the game takes it.
        Rule: PROTO-43."""
        if self.game is not None and self.seeding is None and not self.game.over:
            with contextlib.suppress(ProtocolError):
                await self.commit(self.game.host(text), None)

    def _closed(self, seat: int, text: str, conn: Connection | None) -> bool:
        """Whether the table takes no action now (a fair hand's seeds being gathered, or the game kept as its
        summary only), the actor told why."""
        if self.seeding is not None:
            if conn is not None:
                reason = f"hand {self.seeding.number} is not dealt yet: its seeds are being gathered"
                conn.send(protocol.refusal(seat, text, "PROTO-36", reason, self.record))
            return True
        if self.game is None:
            if conn is not None:
                conn.send(protocol.refusal(seat, text, "MATCH-1", "the game is over", self.record))
            return True
        return False

    async def commit(self, outcome: Outcome, conn: Connection | None) -> None:
        """Under the lock: store what ``outcome`` applied, then answer ``conn`` and show every connection; a
        refusal only answers ``conn``. Rules: PROTO-9, PROTO-28."""
        game = self.game
        assert game is not None
        done = outcome.applied
        if done is None:
            if conn is not None:
                conn.send(outcome.reply)
            return
        summary = None
        if game.over:
            summary = self._final_summary(game, outcome.chunk)
        try:
            await self.house.committer.write(Append(self.id, done.record, done.after, outcome.chunk, done, summary))
        except Exception as err:  # not stored: the game goes back to what the store holds
            log.error("table %s: the store refused record %d: %s", self.id, done.record, err)
            self.reload()
            raise ProtocolError("internal", "the action could not be stored; it was not applied") from None
        self.summary = summary or game.summary()
        if summary is not None and summary["verdict"] == "pass":
            self.house.publish(self.id, summary["digest"])
        if conn is not None:
            conn.send(outcome.reply)
        self.schedule()  # first: the views shown carry the next turn's clock (PROTO-33)
        self.show()
        if game.awaiting_seeds is not None:  # a fair hand ended: the next one's seeds (PROTO-36)
            fairflow.start_seeding(self, fresh=True)
            if self.seeding is not None and self.seeding.complete:
                await fairflow.deal(self)

    # --- presence (``knock.web.attendance`` keeps the table's record of it) -----------------------------

    def present(self, seat: int) -> bool:
        return bool(self.conns.get(seat))

    def _final_summary(self, game: Game, last: bytes) -> dict[str, Any]:
        """The summary kept of a game that is over, with its log's size, digest and verdict (PROTO-10)."""
        data = self.house.store.log(self.id) + last
        verdict = judge(data)
        return {**game.summary(), "log_bytes": len(data), "digest": (verdict.digest or b"").hex() or "0" * 64,
                "verdict": verdict.kind}  # fmt: skip

    def reload(self) -> None:
        """Rebuild the game from the store after a failed commit (the game in memory is ahead of it)."""
        assert self.game is not None
        store, spec = self.house.store, self.spec
        data, applied = store.log(self.id), store.applied(self.id)
        records = next(g.records for g in store.games() if g.game == self.id)
        try:
            if spec.fair:
                assert self.secret is not None
                self.adopt(rebuild_fair(self.id, spec, data, records, applied, self.secret, self.house.key))
            else:
                self.adopt(rebuild(self.id, spec, data, records, applied, self.secret, self.house.key)[0])
        except Exception as err:
            self.game, self.failed = None, f"the store and the game disagree: {err}"

    def show(self) -> None:
        """Send every connection at the table its frames; recipients with no connection skip theirs."""
        game = self.game
        assert game is not None
        game.advance()
        left = self.turn_left()
        for key, lens in game.lenses.items():
            conns = self.conns.get(key)
            if not conns:
                lens.fresh.clear()
                lens.results.clear()
                continue
            frames = game.frames(key, left)
            if game.over:
                frames.append(self.offer())
            for conn in list(conns):
                for f in frames:
                    conn.send(f)

    # --- bots and timers ---------------------------------------------------------------------------

    def schedule(self) -> None:
        """Start the table's bot if a bot is to act, or its turn timer if a person is. Rules: PROTO-12, PROTO-14."""
        game = self.game
        if game is None or game.over:
            return
        if game.bot_to_move() is not None:
            self.spawn(self._bot())
            return
        turn, timeout = _turn(game), self.spec.turn_timeout
        if turn is None or timeout is None:
            return
        if self.turn != turn:  # a new turn (the sitter's advice does not restart the clock)
            self.turn, self.deadline = turn, time.monotonic() + timeout
            self.spawn(self._timer(turn))

    def turn_left(self) -> float | None:
        """The seconds left of the current turn by its timer, rounded to a tenth; None when no timer runs (no
        timeout, a bot or nobody to act, the game over). Rule: PROTO-33."""
        game = self.game
        if game is None or game.over or self.spec.turn_timeout is None or game.bot_to_move() is not None:
            return None
        if self.turn is None or self.turn != _turn(game):
            return None
        return round(max(0.0, self.deadline - time.monotonic()), 1)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no loop yet (at start): ``Hub.resume`` schedules again
            work.close()
            return
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _bot(self) -> None:
        await asyncio.sleep(self.spec.bot_delay if self.game is not None else 0.0)
        async with self.lock:
            game = self.game
            seat = game.bot_to_move() if game is not None else None
            if game is None or seat is None:
                return
            # A search level takes tens of milliseconds a move: chosen by the bot runner, off the event loop, so
            # the loop answers every other table and request meanwhile; the lock keeps the game still until then.
            action = await self.house.bots.choose(game.bot_move(seat))
            with contextlib.suppress(ProtocolError):
                await self.apply(seat, action, game.record)

    async def _timer(self, turn: tuple[int, int | None, int]) -> None:
        await asyncio.sleep(max(0.0, self.deadline - time.monotonic()))
        async with self.lock:
            game = self.game
            hand = game.match.hand if game is not None else None
            if game is None or hand is None or self.turn != turn or _turn(game) != turn:
                return
            seat = turn[1]
            assert seat is not None
            if self.spec.timeout_forfeits:  # the seat forfeits (END-3) rather than have its move made (PROTO-43)
                self.send_all(protocol.timed_out(seat, None))
                await self.host(f"p{seat} forfeit timeout")
                return
            action = await self.house.bots.choose(game.bot_move(seat, stand_in=True))
            for key, conns in self.conns.items():  # the move itself only to its seat (a knock's card is hidden)
                for conn in list(conns):
                    conn.send(protocol.timed_out(seat, action if key == seat else None))
            with contextlib.suppress(ProtocolError):
                await self.apply(seat, action, game.record)


def pending_summary(table: str, spec: TableSpec) -> dict[str, Any]:
    """The summary of a fair table before its first deal (PROTO-23)."""
    n = len(spec.seats)
    return {"table": table, "preset": spec.preset, "rules": spec.rules.to_dict(),
            "seats": protocol.seat_info(spec.seats), "hand": 0, "scores": [0] * n, "over": False, "winner": None,
            "record": 0, "turn_timeout": spec.turn_timeout}  # fmt: skip


def fair_pending(table_id: str, spec: TableSpec, house: House, secret: bytes) -> Table:
    """A fair table before its first deal: the wait for the first hand's seeds (PROTO-36)."""
    humans = tuple(i for i in range(len(spec.seats)) if spec.human(i))
    seeding = TableChance(spec.rules.players, secret).seeding(1, humans)
    return Table(table_id, spec, house, secret, pending_summary(table_id, spec), seeding=seeding)


def rebuilt_fair(table_id: str, spec: TableSpec, house: House, records: int, secret: bytes | None) -> Table:
    """A fair table after a restart: before its first deal, the wait for the first hand's seeds with those
    stored; else its game played again from its stored seeds and actions (``rebuild_fair``) and, between hands,
    the wait for the next. Rule: PROTO-40."""
    assert secret is not None
    store = house.store
    if records == 0:
        table = fair_pending(table_id, spec, house, secret)
        assert table.seeding is not None
        gathered(table.seeding, store, table_id)
        return table
    game = rebuild_fair(table_id, spec, store.log(table_id), records, store.applied(table_id), secret, house.key)
    table = Table(table_id, spec, house, secret, game.summary(), game)
    hand = game.awaiting_seeds
    if hand is not None:
        assert game.fair is not None
        table.seeding = game.fair.seeding(hand, game.humans)
        gathered(table.seeding, store, table_id)
    return table


def gathered(seeding: Seeding, store: Store, table_id: str) -> None:
    """What a restarted server finds stored of a hand's seeds: the commitments (the set closed if every human seat
    has one, or is stored as having none) and the seeds revealed. Rules: PROTO-40, PROTO-45."""
    seeding.commits.update(store.commits(table_id, seeding.number))
    seeding.sent.update({s: seed for s, seed in store.seeds(table_id, seeding.number).items() if seed is not None})
    seeding.statements.update(store.statements(table_id, seeding.number))


def _turn(game: Game) -> tuple[int, int, int] | None:
    """The turn a person's timer would run for: (the hand's number, the seat to act, the hand's events so far);
    None with nobody to act."""
    hand, seat = game.match.hand, game.match.to_act
    return None if hand is None or seat is None else (game.match.number, seat, len(hand.events))


def token_hash(token: str) -> str:
    """What the server keeps of a token: its SHA-256 (PROTO-3)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A seat's token: 256 random bits (PROTO-3)."""
    return secrets.token_urlsafe(32)


def new_table_id() -> str:
    return secrets.token_urlsafe(9)
