"""Logs as a Parquet dataset for DuckDB, Polars, Spark …: a table of games, of seats, of hands, and optionally of
actions, every row keyed by its game's trailer digest.

``knock export LOGS… -o DIR`` writes ``DIR/TABLE/preset=NAME/part-NNNNN.parquet`` (Hive-style partitions), one
part per batch of logs and preset, in the order the logs were named, then ``DIR/_SUCCESS`` once every part is in
place. Each part is written a row group at a time (memory stays bounded however many logs a batch holds) under a
temporary name, then renamed, and carries Knock's version and the dataset's schema version (``DATASET_VERSION``)
in its key-value metadata. Rows come from replaying each log strictly (``replay.replayer``): a log the replayer
refuses gives no rows and is reported; replay runs the engine's compiled executor. The columns are listed in
``GAME_COLUMNS``, ``SEAT_COLUMNS``, ``HAND_COLUMNS`` and ``ACTION_COLUMNS`` with what each holds.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pyarrow as pa
import pyarrow.parquet as pq

from engine import __version__
from engine.events import (
    Advised,
    BigGinDeclared,
    Dealt,
    DefenceLaid,
    Discarded,
    DrewDiscard,
    DrewStock,
    HandEnded,
    HandStarted,
    Knocked,
    SpreadLaid,
    UpcardPassed,
    UpcardTaken,
    WallDeclined,
)
from knock.cluster.runner import Runner, Stopped, stopped
from knock.cluster.storage import Store, check_output, read_bytes, relative_name, resolve
from replay.codec import T_CHECKPOINT, T_TRAILER
from replay.log import LogError
from replay.replayer import Replayer

#: The dataset's schema version, in every part's key-value metadata beside Knock's version: bumped whenever a
#: table's columns change (1: hands and actions keyed by the log's name; 2: every table keyed by the game's digest,
#: the games and seats tables, partitions by preset).
DATASET_VERSION = 2
#: The Hive-style partition of every table: ``TABLE/preset=NAME/part-NNNNN.parquet`` (the column is in the path,
#: not in the files; DuckDB, pyarrow, Polars and Spark read it back as a column).
PARTITION = "preset"
SUCCESS = "_SUCCESS"  #: written last, once every part is in place: a dataset without it is incomplete
TABLES = ("games", "seats", "hands", "actions")

#: Seats are numbered from 0 everywhere (p0, p1, p2, as in the log); a list indexed by seat holds seat s at
#: position s (pyarrow, Python), s + 1 in DuckDB (whose lists count from 1): the seats table needs neither.
GAME_COLUMNS: list[tuple[str, pa.DataType, str]] = [
    ("game", pa.string(), "the trailer's digest (hex): the game's key in every table"),
    ("log", pa.string(), "the log's name under the folder named (game-17)"),
    ("seed", pa.int64(), "the seed the writer recorded in the header's meta, if any"),
    ("options", pa.string(), "a hash of the complete rule set (16 hex digits): equal options, equal hash"),
    ("players", pa.int8(), "how many seats the game has"),
    ("hands", pa.int32(), "hands played (every deal counts)"),
    ("dead_hands", pa.int32(), "hands that ended dead (no knock)"),
    ("actions", pa.int32(), "player actions in the game (advice included)"),
    ("winner", pa.int8(), "the seat that won the game"),
    ("winner_bot", pa.string(), "the winning seat's bot, as in seats"),
]
SEAT_COLUMNS: list[tuple[str, pa.DataType, str]] = [
    ("game", pa.string(), "the game's key, as in games"),
    ("seat", pa.int8(), "the seat, from 0 (p0)"),
    ("player", pa.string(), "the seat's name in the log (simulate: heuristic#0)"),
    ("bot", pa.string(), "the player's name without its #SEAT suffix (heuristic)"),
    ("score", pa.int32(), "the seat's final total"),
    ("won", pa.bool_(), "whether the seat won the game"),
]
HAND_COLUMNS: list[tuple[str, pa.DataType, str]] = [
    ("game", pa.string(), "the game's key, as in games"),
    ("hand", pa.int32(), "the hand's number in the game, from 1 (every deal counts)"),
    ("dealer", pa.int8(), "the dealer's seat (three-handed: the box)"),
    ("seats", pa.list_(pa.int8()), "the two seats dealt in"),
    ("sitter", pa.int8(), "three-handed: the seat that sits out; null otherwise"),
    ("knock_limit", pa.int8(), "the most deadwood a knock may leave in this hand"),
    ("upcard", pa.string(), "the first upcard (Td)"),
    ("outcome", pa.string(), "gin, big_gin, knock, undercut, tie or dead"),
    ("knocker", pa.int8(), "the seat that knocked (or went gin); null for a dead hand"),
    ("winner", pa.int8(), "the seat that scored the hand; null for a dead hand or a tie"),
    ("points", pa.int32(), "the points the winner scored (0 without a winner)"),
    ("multiplier", pa.int8(), "the hand's score multiplier (spades double)"),
    ("deadwood", pa.list_(pa.int16()), "each seat's deadwood after layoffs; null if not dealt in or dead hand"),
    ("actions", pa.int32(), "player actions in the hand (advice included)"),
    ("scores", pa.list_(pa.int32()), "every seat's running score after the hand"),
    ("checkpoint", pa.string(), "the digest of the hand's checkpoint record (hex)"),
]
ACTION_COLUMNS: list[tuple[str, pa.DataType, str]] = [
    ("game", pa.string(), "the game's key, as in games"),
    ("hand", pa.int32(), "the hand's number"),
    ("step", pa.int32(), "the action's place in the hand, from 1"),
    ("record", pa.int32(), "the index of the action's record in the log (1 is the first after the header)"),
    ("seat", pa.int8(), "the seat that acted"),
    ("action", pa.string(), "pass, take, draw, pickup, discard, knock, big_gin, decline_wall, spread, defence, advise"),
    ("card", pa.string(), "the card taken, drawn, discarded or knocked with; null otherwise"),
    ("text", pa.string(), "the action as Knock prints it (p0 discards Kh)"),
]
COLUMNS = {"games": GAME_COLUMNS, "seats": SEAT_COLUMNS, "hands": HAND_COLUMNS, "actions": ACTION_COLUMNS}


def table_schema(table: str) -> pa.Schema:
    """A table's Arrow schema, with Knock's version and the dataset's schema version as key-value metadata."""
    fields = [(name, kind) for name, kind, _ in COLUMNS[table]]
    metadata = {"knock_version": __version__, "knock_dataset_version": str(DATASET_VERSION), "knock_table": table}
    return pa.schema(fields, metadata=metadata)


SCHEMAS = {table: table_schema(table) for table in TABLES}
HAND_SCHEMA, ACTION_SCHEMA = SCHEMAS["hands"], SCHEMAS["actions"]

VERBS: dict[type, str] = {
    UpcardPassed: "pass", UpcardTaken: "take", DrewStock: "draw", DrewDiscard: "pickup", Discarded: "discard",
    Knocked: "knock", BigGinDeclared: "big_gin", WallDeclined: "decline_wall", SpreadLaid: "spread",
    DefenceLaid: "defence", Advised: "advise",
}  # fmt: skip
ROW_GROUP = 50_000  #: rows held before a row group is written


def options_hash(rules: dict[str, Any]) -> str:
    """A short digest of a complete rule set: games under the same options have the same hash."""
    return hashlib.sha256(json.dumps(rules, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def bot_name(player: str) -> str:
    """A player's bot: its name without the ``#SEAT`` suffix ``knock simulate`` gives it (``heuristic#0``).

    >>> bot_name("heuristic#0"), bot_name("Alice")
    ('heuristic', 'Alice')
    """
    name, sep, seat = player.rpartition("#")
    return name if sep and name and seat.isdigit() else player


@dataclass(frozen=True, slots=True)
class LogRows:
    """One log's rows in every table, and the partition they go to."""

    preset: str
    tables: dict[str, list[dict[str, Any]]]


def log_rows(data: bytes, log: str, with_actions: bool = False) -> LogRows:
    """The rows of one log in every table (actions only if asked), by replaying it strictly; every row is keyed
    by the game's trailer digest.

    Raises:
        LogError: the log is damaged or breaks a rule; no rows are returned for it.
    """
    # the engine's performance mode (the same game, faster), keeping no history: a log of any length, one memory
    replayer = Replayer(data, executor="compiled", history=False)
    header = replayer.reader.header
    seed = header.meta.get("seed")
    players = len(header.players)
    hands: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    games: list[dict[str, Any]] = []
    seats: list[dict[str, Any]] = []
    row: dict[str, Any] = {}
    for state in replayer.states():
        e = state.event
        if e is not None:
            kind = type(e)
            if kind is HandStarted:
                assert isinstance(e, HandStarted)
                row = {"hand": e.number, "dealer": e.dealer, "seats": list(e.seats), "sitter": e.sitter, "actions": 0}
            elif kind is Dealt:
                assert isinstance(e, Dealt)
                row["knock_limit"], row["upcard"] = e.knock_limit, str(e.upcard)
            elif kind is HandEnded:
                assert isinstance(e, HandEnded)
                r = e.result
                deadwood: list[int | None] = [None] * players
                if r.deadwood is not None:
                    for seat, dw in zip(r.seats, r.deadwood, strict=True):
                        deadwood[seat] = dw
                row.update(outcome=r.kind.value, knocker=r.knocker, winner=r.winner, points=r.points,
                           multiplier=r.multiplier, deadwood=deadwood, scores=list(e.scores))  # fmt: skip
            elif kind in VERBS:
                row["actions"] += 1
                if with_actions:
                    card = getattr(e, "card", None)
                    actions.append({"hand": row["hand"], "step": row["actions"], "record": state.index,
                                    "seat": e.seat, "action": VERBS[kind],  # type: ignore[union-attr]
                                    "card": None if card is None else str(card), "text": str(e)})  # fmt: skip
        rec = state.record
        if isinstance(rec, list) and rec and rec[0] == T_CHECKPOINT:
            row["checkpoint"] = rec[1].hex()
            hands.append(row)
        elif isinstance(rec, list) and rec and rec[0] == T_TRAILER:
            key, st = rec[2].hex(), state.match.standings()
            assert st.winner is not None  # a trailer closes a finished game (LOG-8)
            bots = [bot_name(name) for name in header.players]
            games.append({"game": key, "log": log, "seed": seed if type(seed) is int else None,
                          "options": options_hash(replayer.rules.to_dict()), "players": players, "hands": len(hands),
                          "dead_hands": sum(h["outcome"] == "dead" for h in hands),
                          "actions": sum(h["actions"] for h in hands), "winner": st.winner,
                          "winner_bot": bots[st.winner]})  # fmt: skip
            seats = [{"game": key, "seat": seat, "player": name, "bot": bots[seat], "score": st.totals[seat],
                      "won": seat == st.winner} for seat, name in enumerate(header.players)]  # fmt: skip
            for keyed in (*hands, *actions):
                keyed["game"] = key
    tables = {"games": games, "seats": seats, "hands": hands, "actions": actions}
    return LogRows(replayer.rules.name, tables)


class PartWriter:
    """One Parquet file written a row group at a time, under a temporary name until ``close()``."""

    def __init__(self, store: Store, name: str, schema: pa.Schema, tag: str, row_group: int = ROW_GROUP) -> None:
        self.store, self.name, self.schema, self.tag, self.row_group = store, name, schema, tag, row_group
        self.rows: list[dict[str, Any]] = []
        self.written = 0
        self._context: Any = None
        self._writer: pq.ParquetWriter | None = None

    def add(self, rows: list[dict[str, Any]]) -> None:
        self.rows += rows
        while len(self.rows) >= self.row_group:
            self._write(self.rows[: self.row_group])
            del self.rows[: self.row_group]

    def _write(self, rows: list[dict[str, Any]]) -> None:
        if self._writer is None:
            self._context = self.store.writing(self.name, self.tag)
            stream = self._context.__enter__()
            self._writer = pq.ParquetWriter(stream, self.schema, compression="zstd")
        self._writer.write_table(pa.Table.from_pylist(rows, self.schema), row_group_size=self.row_group)
        self.written += len(rows)

    def abort(self, err: BaseException) -> None:
        """Give the file up: its temporary file is removed, nothing appears under its name."""
        if self._writer is not None:
            self._writer.close()
            self._context.__exit__(type(err), err, err.__traceback__)
            self._writer = None

    def close(self) -> int:
        """Write what is left and put the file in place (none when no rows); returns the rows written."""
        if self.rows:
            self._write(self.rows)
            self.rows = []
        if self._writer is not None:
            self._writer.close()
            self._context.__exit__(None, None, None)
        return self.written


def part_name(table: str, preset: str, number: int) -> str:
    """A part's name in the dataset: ``hands/preset=oklahoma/part-00003.parquet`` (Hive-style)."""
    return f"{table}/{PARTITION}={quote(preset, safe='')}/part-{number:05d}.parquet"


@dataclass(frozen=True, slots=True)
class ExportBatch:
    number: int
    logs: tuple[str, ...]  #: log locations, resolved
    roots: tuple[str, ...]  #: the folders named, resolved, for the logs' names
    out: str  #: the dataset's folder or URL, resolved
    actions: bool = False
    tag: str = ""
    row_group: int = ROW_GROUP


@dataclass
class ExportResult:
    logs: int = 0
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))  #: rows written per table
    parts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TABLES, 0))  #: part files per table
    failed: list[tuple[str, str]] = field(default_factory=list)  #: (log, why) for each log left out

    @property
    def hands(self) -> int:
        return self.rows["hands"]

    @property
    def actions(self) -> int:
        return self.rows["actions"]

    @property
    def games(self) -> int:
        return self.rows["games"]

    def add(self, other: ExportResult) -> None:
        self.logs += other.logs
        for table in TABLES:
            self.rows[table] += other.rows[table]
            self.parts[table] += other.parts[table]
        self.failed += other.failed


def export_batch(batch: ExportBatch) -> ExportResult:
    """Replay a batch of logs and write their rows as one part of each table and partition (in a worker)."""
    store = Store(batch.out)
    writers: dict[tuple[str, str], PartWriter] = {}
    result = ExportResult()
    for location in batch.logs:
        if stopped():  # the export was stopped on the client: no part of this batch appears
            err = Stopped(f"batch {batch.number}")
            for writer in writers.values():
                writer.abort(err)
            raise err
        try:
            rows = log_rows(read_bytes(location), relative_name(location, list(batch.roots)), batch.actions)
        except (LogError, OSError) as err:
            result.failed.append((location, str(err)))
            continue
        for table, found in rows.tables.items():
            if found:
                at = (table, rows.preset)
                if at not in writers:
                    name = part_name(table, rows.preset, batch.number)
                    writers[at] = PartWriter(store, name, SCHEMAS[table], batch.tag, batch.row_group)
                writers[at].add(found)
        result.logs += 1
    for (table, _), writer in writers.items():
        result.rows[table] += writer.close()
        result.parts[table] += 1
    return result


def batches(logs: list[str], roots: list[str], out: str, workers: int, *, actions: bool = False, size: int = 0,
            tag: str = "") -> list[ExportBatch]:  # fmt: skip
    """Logs in batches of ``size`` (0: about two per worker, at most 2,000 logs): one part file each."""
    size = size or max(1, min(2000, math.ceil(len(logs) / (2 * workers))))
    return [ExportBatch(n, tuple(logs[i : i + size]), tuple(roots), out, actions, tag)
            for n, i in enumerate(range(0, len(logs), size))]  # fmt: skip


def run(logs: list[str], roots: list[str], out: str, runner: Runner, *, actions: bool = False, size: int = 0,
        tick: Callable[[int], None] | None = None) -> ExportResult:  # fmt: skip
    """Export logs into the dataset at ``out`` on the runner; the rows and parts written per table. The logs, their
    folders and ``out`` are resolved and checked here, on the client; ``_SUCCESS`` is written last.

    Raises:
        FileExistsError: ``out`` holds a dataset already (an export never appends to an earlier one).
    """
    out = check_output(out)
    roots = [resolve(r) for r in roots]
    if existing_parts(out):
        raise FileExistsError(f"{out} already holds an exported dataset; choose another folder, or --force to "
                              "replace it")  # fmt: skip
    total = ExportResult()
    store = Store(out)
    if not store.object_store:
        store.makedirs()
    runner.reaches(out)
    store.remove_leftovers()  # an earlier export's, stopped or killed
    logs = [resolve(location) for location in logs]
    work = batches(logs, roots, out, runner.workers, actions=actions, size=size, tag=runner.run_id)
    for result in runner.map(export_batch, work):
        total.add(result)
        if tick:
            tick(result.logs + len(result.failed))
    store.remove_leftovers(runner.run_id)
    success = {"knock": __version__, "dataset_version": DATASET_VERSION, "logs": total.logs,
               "failed": len(total.failed), "rows": total.rows, "parts": total.parts,
               "partitioning": {"flavor": "hive", "columns": [PARTITION]}}  # fmt: skip
    store.write(SUCCESS, json.dumps(success, indent=1).encode(), runner.run_id)
    return total


def existing_parts(out: str) -> list[str]:
    """The files of a dataset already in a folder, its marker first (an export does not mix with an earlier one)."""
    store = Store(out)
    marker = [SUCCESS] if store.exists(SUCCESS) else []
    return marker + sorted(n for table in TABLES for n in store.sizes(table) if n.endswith(".parquet"))


def remove_parts(out: str) -> int:
    """Remove an earlier export from a dataset folder (``knock export --force``), its marker first; how many files."""
    parts = existing_parts(check_output(out))
    Store(out).remove(parts)
    return len(parts)
