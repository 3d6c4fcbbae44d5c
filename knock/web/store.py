"""The event store: every table's log, record by record as it is played, its tokens and its applied actions.

Rules: PROTO-9, PROTO-13. ``Store`` is the interface (a server database can follow it); ``SQLiteStore`` is the
default, one file in WAL mode. A write is a batch of ``Write`` values committed in one transaction, all or
nothing: ``GroupCommit`` gathers the writes of every table waiting at that moment into one commit (one
``fsync`` under ``synchronous=FULL`` for all of them), on a thread of its own, and tells each writer when its
write is durable — only then is an action acknowledged.

What each ``synchronous`` setting survives, in WAL mode: ``FULL`` (the default) syncs the WAL at every
commit, so a committed action survives a killed process and a power loss or operating-system crash;
``NORMAL`` syncs only at checkpoints, so a committed action survives a killed process (the WAL is in the
operating system's hands when the commit returns) but a power loss may lose the last commits (the database
stays consistent). ``OFF`` is not offered.

The log bytes are Knock's own (``replay.log.LogWriter``), stored as the chunks each action wrote: the chunks of a
game, in order, are its log.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol, TypeAlias

from knock.web.game import Applied

Synchronous: TypeAlias = Literal["full", "normal"]


@dataclass(frozen=True, slots=True)
class Create:
    """A new table: its spec, the commitments' secret, its seats' token hashes (a rematch's: those of the table
    before it, which they now leave), its log's first bytes."""

    game: str
    spec: dict[str, Any]
    secret: bytes | None
    tokens: dict[int, str]
    chunk: bytes
    records: int


@dataclass(frozen=True, slots=True)
class Append:
    """An action's records: the log's bytes from record ``first`` on, ``records`` the count after them."""

    game: str
    first: int
    records: int
    chunk: bytes
    applied: Applied
    summary: dict[str, Any] | None = None  #: the table's summary, when the game is over


@dataclass(frozen=True, slots=True)
class Dealt:
    """A fair hand's deal, once its seeds are in (PROTO-37): the log's bytes from record ``first`` on (for the
    first hand, the whole log so far: it replaces the empty chunk the table was made with)."""

    game: str
    first: int
    records: int
    chunk: bytes


@dataclass(frozen=True, slots=True)
class SeedSent:
    """A seat's seed for a fair hand not dealt yet (None: it refused), stored before it is acknowledged
    (PROTO-37, PROTO-40), with the seat's signed statement of what it saw when it gave one, (key, signature)
    (DEAL-12, PROTO-47), in the same transaction."""

    game: str
    hand: int
    seat: int
    seed: bytes | None
    statement: tuple[bytes, bytes] | None = None


@dataclass(frozen=True, slots=True)
class Committed:
    """A seat's commitment to its seed for a fair hand not dealt yet (None: it sent none, or none before the set
    closed), stored before it is acknowledged or the set is sent (PROTO-45)."""

    game: str
    hand: int
    seat: int
    commitment: bytes | None


@dataclass(frozen=True, slots=True)
class Fail:
    """A table that cannot go on (its log does not rebuild): kept, never played."""

    game: str
    note: str


Write: TypeAlias = Create | Append | Dealt | SeedSent | Committed | Fail


@dataclass(frozen=True, slots=True)
class StoredGame:
    game: str
    spec: dict[str, Any]
    secret: bytes | None
    status: str  #: "playing", "over" or "failed"
    records: int
    note: str
    summary: dict[str, Any] | None


class Store(Protocol):
    """Where tables live between restarts. ``commit`` is atomic and durable when it returns (PROTO-9)."""

    synchronous: Synchronous

    def commit(self, writes: Sequence[Write]) -> None: ...

    def games(self) -> list[StoredGame]: ...

    def log(self, game: str) -> bytes: ...

    def applied(self, game: str) -> list[Applied]: ...

    def tokens(self) -> dict[str, tuple[str, int]]:
        """Every token hash with its table and seat."""
        ...

    def seeds(self, game: str, hand: int) -> dict[int, bytes | None]:
        """The seeds the seats sent for a fair hand (PROTO-40)."""
        ...

    def commits(self, game: str, hand: int) -> dict[int, bytes | None]:
        """The commitments the seats sent for a fair hand (None: a seat marked as having none, PROTO-45)."""
        ...

    def statements(self, game: str, hand: int) -> dict[int, tuple[bytes, bytes]]:
        """The statements the seats signed with their seeds for a fair hand, (key, signature) (PROTO-47)."""
        ...

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, spec TEXT NOT NULL, secret BLOB, created REAL NOT NULL,
    status TEXT NOT NULL, records INTEGER NOT NULL, note TEXT NOT NULL DEFAULT '', summary TEXT
);
CREATE TABLE IF NOT EXISTS chunks (
    game TEXT NOT NULL, first INTEGER NOT NULL, records INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (game, first)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS acts (
    game TEXT NOT NULL, record INTEGER NOT NULL, seat INTEGER NOT NULL, action TEXT NOT NULL, after INTEGER NOT NULL,
    PRIMARY KEY (game, record)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, game TEXT NOT NULL, seat INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS seeds (
    game TEXT NOT NULL, hand INTEGER NOT NULL, seat INTEGER NOT NULL, seed BLOB, PRIMARY KEY (game, hand, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS statements (
    game TEXT NOT NULL, hand INTEGER NOT NULL, seat INTEGER NOT NULL, key BLOB NOT NULL, signature BLOB NOT NULL,
    PRIMARY KEY (game, hand, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS commits (
    game TEXT NOT NULL, hand INTEGER NOT NULL, seat INTEGER NOT NULL, commitment BLOB, PRIMARY KEY (game, hand, seat)
) WITHOUT ROWID;
"""


class SQLiteStore:
    """The default store: ``games.sqlite3`` under the data folder, WAL mode. Rule: PROTO-9.

    One connection, used by one thread at a time (``GroupCommit``'s for writes, the caller's for reads at start;
    a lock keeps them apart).
    """

    def __init__(self, folder: Path | str, *, synchronous: Synchronous = "full") -> None:
        if synchronous not in ("full", "normal"):
            raise ValueError(f"synchronous must be 'full' or 'normal', not {synchronous!r}")
        path = Path(folder)
        path.mkdir(parents=True, exist_ok=True)
        self.path = path / "games.sqlite3"
        self.synchronous: Synchronous = synchronous
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise OSError(f"{self.path}: SQLite would not use WAL mode ({mode})")
        self._db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self._db.executescript(_SCHEMA)

    def pragma(self, name: str) -> Any:
        with self._lock:
            return self._db.execute(f"PRAGMA {name}").fetchone()[0]

    def commit(self, writes: Sequence[Write]) -> None:
        """All of ``writes`` in one transaction, durable as ``synchronous`` says when this returns."""
        with self._lock:
            db = self._db
            db.execute("BEGIN IMMEDIATE")
            try:
                for w in writes:
                    self._write(db, w)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    @staticmethod
    def _write(db: sqlite3.Connection, w: Write) -> None:
        match w:
            case Create():
                db.execute(
                    "INSERT INTO games (id, spec, secret, created, status, records) VALUES (?, ?, ?, ?, 'playing', ?)",
                    (w.game, json.dumps(w.spec), w.secret, time.time(), w.records),
                )
                db.execute("INSERT INTO chunks VALUES (?, 0, ?, ?)", (w.game, w.records, w.chunk))
                # A rematch's table takes over its seats' tokens from the table before it (PROTO-29).
                db.executemany("INSERT OR REPLACE INTO tokens VALUES (?, ?, ?)",
                               [(h, w.game, s) for s, h in w.tokens.items()])  # fmt: skip
            case Append():
                a = w.applied
                db.execute("INSERT INTO chunks VALUES (?, ?, ?, ?)", (w.game, w.first, w.records, w.chunk))
                db.execute("INSERT INTO acts VALUES (?, ?, ?, ?, ?)", (w.game, a.record, a.seat, a.action, a.after))
                if w.summary is None:
                    db.execute("UPDATE games SET records = ? WHERE id = ?", (w.records, w.game))
                else:
                    db.execute("UPDATE games SET records = ?, status = 'over', summary = ? WHERE id = ?",
                               (w.records, json.dumps(w.summary), w.game))  # fmt: skip
            case Dealt():
                db.execute("INSERT OR REPLACE INTO chunks VALUES (?, ?, ?, ?)", (w.game, w.first, w.records, w.chunk))
                db.execute("UPDATE games SET records = ? WHERE id = ?", (w.records, w.game))
            case SeedSent():
                db.execute("INSERT INTO seeds VALUES (?, ?, ?, ?)", (w.game, w.hand, w.seat, w.seed))
                if w.statement is not None:  # the seat's statement, in the same transaction (PROTO-47)
                    db.execute("INSERT INTO statements VALUES (?, ?, ?, ?, ?)", (w.game, w.hand, w.seat, *w.statement))
            case Committed():
                db.execute("INSERT INTO commits VALUES (?, ?, ?, ?)", (w.game, w.hand, w.seat, w.commitment))
            case Fail():
                db.execute("UPDATE games SET status = 'failed', note = ? WHERE id = ?", (w.note, w.game))

    def games(self) -> list[StoredGame]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, spec, secret, status, records, note, summary FROM games ORDER BY created, id"
            ).fetchall()
        return [
            StoredGame(r[0], json.loads(r[1]), r[2], r[3], r[4], r[5], json.loads(r[6]) if r[6] else None) for r in rows
        ]

    def log(self, game: str) -> bytes:
        """The game's log: its chunks in order."""
        with self._lock:
            rows = self._db.execute("SELECT data FROM chunks WHERE game = ? ORDER BY first", (game,)).fetchall()
        return b"".join(r[0] for r in rows)

    def applied(self, game: str) -> list[Applied]:
        with self._lock:
            rows = self._db.execute(
                "SELECT seat, action, record, after FROM acts WHERE game = ? ORDER BY record", (game,)
            ).fetchall()
        return [Applied(*r) for r in rows]

    def tokens(self) -> dict[str, tuple[str, int]]:
        with self._lock:
            rows = self._db.execute("SELECT hash, game, seat FROM tokens").fetchall()
        return {h: (g, s) for h, g, s in rows}

    def seeds(self, game: str, hand: int) -> dict[int, bytes | None]:
        with self._lock:
            rows = self._db.execute("SELECT seat, seed FROM seeds WHERE game = ? AND hand = ?", (game, hand)).fetchall()
        return {s: d for s, d in rows}

    def statements(self, game: str, hand: int) -> dict[int, tuple[bytes, bytes]]:
        with self._lock:
            rows = self._db.execute("SELECT seat, key, signature FROM statements WHERE game = ? AND hand = ?",
                                    (game, hand)).fetchall()  # fmt: skip
        return {s: (k, g) for s, k, g in rows}

    def commits(self, game: str, hand: int) -> dict[int, bytes | None]:
        with self._lock:
            rows = self._db.execute("SELECT seat, commitment FROM commits WHERE game = ? AND hand = ?",
                                    (game, hand)).fetchall()  # fmt: skip
        return {s: c for s, c in rows}

    def close(self) -> None:
        with self._lock:
            self._db.close()


class GroupCommit:
    """Commits writes on a thread of its own, every write waiting at that moment in one transaction; ``write``
    returns once its batch is durable. Rule: PROTO-9."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._queue: list[tuple[Write, asyncio.Future[None]]] = []
        self._cond = threading.Condition()
        self._closed = False
        self.commits = 0
        self.writes = 0
        self._thread = threading.Thread(target=self._run, name="knock-store", daemon=True)
        self._thread.start()

    async def write(self, *writes: Write) -> None:
        """Store ``writes`` (together, in one transaction); returns when they are committed.

        Raises:
            OSError, sqlite3.Error: the store could not commit them (nothing of the batch is stored).
        """
        loop = asyncio.get_running_loop()
        futures = []
        with self._cond:
            if self._closed:
                raise OSError("the store is closed")
            for w in writes:
                f: asyncio.Future[None] = loop.create_future()
                self._queue.append((w, f))
                futures.append(f)
            self._cond.notify()
        await asyncio.gather(*futures)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._closed:
                    self._cond.wait()
                if not self._queue:
                    return
                batch, self._queue = self._queue, []
            error: BaseException | None = None
            try:
                self.store.commit([w for w, _ in batch])
            except Exception as err:
                error = err
            self.commits += 1
            self.writes += len(batch)
            for _, f in batch:
                f.get_loop().call_soon_threadsafe(_settle, f, error)

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify()
        self._thread.join()


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
