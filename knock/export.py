"""Logs as a Parquet dataset: one row per hand, and optionally one per action, for DuckDB, Polars, Spark …

``knock export LOGS… -o DIR`` writes ``DIR/hands/part-NNNNN.parquet`` (and ``DIR/actions/…``), one part
per batch of logs, in the order the logs were named. Each part is written a row group at a time (memory
stays bounded however many logs a batch holds) under a temporary name, then renamed. Rows come from
replaying each log strictly (``replay.replayer``): a log the replayer refuses gives no rows and is
reported; replay runs the engine's compiled executor. The columns are listed in ``HAND_COLUMNS`` and
``ACTION_COLUMNS`` with what each holds.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

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
from knock.cluster.runner import Runner
from knock.cluster.storage import Store, read_bytes, relative_name, shared
from replay.codec import T_CHECKPOINT, T_TRAILER
from replay.log import LogError
from replay.replayer import Replayer

#: name, Arrow type, what it holds (seats are numbered from 0; lists are indexed by seat)
HAND_COLUMNS: list[tuple[str, pa.DataType, str]] = [
    ("game", pa.string(), "the log's name under the folder named (game-17)"),
    ("game_digest", pa.string(), "the trailer's digest (hex): the game's identity"),
    ("seed", pa.int64(), "the seed the writer recorded in the header's meta, if any"),
    ("preset", pa.string(), "the rule set's name: standard, oklahoma, three_handed"),
    ("options", pa.string(), "a hash of the complete rule set (16 hex digits): equal options, equal hash"),
    ("players", pa.list_(pa.string()), "the players' names by seat (simulate: bot#seat)"),
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
    ("game_winner", pa.int8(), "the seat that won the game"),
]
ACTION_COLUMNS: list[tuple[str, pa.DataType, str]] = [
    ("game", pa.string(), "the log's name, as in hands"),
    ("hand", pa.int32(), "the hand's number"),
    ("step", pa.int32(), "the action's place in the hand, from 1"),
    ("record", pa.int32(), "the index of the action's record in the log (1 is the first after the header)"),
    ("seat", pa.int8(), "the seat that acted"),
    ("action", pa.string(), "pass, take, draw, pickup, discard, knock, big_gin, decline_wall, spread, defence, advise"),
    ("card", pa.string(), "the card taken, drawn, discarded or knocked with; null otherwise"),
    ("text", pa.string(), "the action as Knock prints it (p0 discards Kh)"),
]
HAND_SCHEMA = pa.schema([(name, kind) for name, kind, _ in HAND_COLUMNS])
ACTION_SCHEMA = pa.schema([(name, kind) for name, kind, _ in ACTION_COLUMNS])

VERBS: dict[type, str] = {
    UpcardPassed: "pass", UpcardTaken: "take", DrewStock: "draw", DrewDiscard: "pickup", Discarded: "discard",
    Knocked: "knock", BigGinDeclared: "big_gin", WallDeclined: "decline_wall", SpreadLaid: "spread",
    DefenceLaid: "defence", Advised: "advise",
}  # fmt: skip
ROW_GROUP = 50_000  #: rows held before a row group is written


def options_hash(rules: dict[str, Any]) -> str:
    """A short digest of a complete rule set: games under the same options have the same hash."""
    return hashlib.sha256(json.dumps(rules, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def log_rows(data: bytes, game: str, with_actions: bool = False) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The hand rows (and action rows) of one log, by replaying it strictly.

    Raises:
        LogError: the log is damaged or breaks a rule; no rows are returned for it.
    """
    # the engine's performance mode (the same game, faster), keeping no history: a log of any length, one memory
    replayer = Replayer(data, executor="compiled", history=False)
    header = replayer.reader.header
    seed = header.meta.get("seed")
    common = {"game": game, "seed": seed if type(seed) is int else None, "preset": replayer.rules.name,
              "options": options_hash(replayer.rules.to_dict()), "players": list(header.players)}  # fmt: skip
    players = len(header.players)
    hands: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []
    row: dict[str, Any] = {}
    for state in replayer.states():
        e = state.event
        if e is not None:
            kind = type(e)
            if kind is HandStarted:
                assert isinstance(e, HandStarted)
                row = {**common, "hand": e.number, "dealer": e.dealer, "seats": list(e.seats), "sitter": e.sitter,
                       "actions": 0}  # fmt: skip
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
                    actions.append({"game": game, "hand": row["hand"], "step": row["actions"], "record": state.index,
                                    "seat": e.seat, "action": VERBS[kind],  # type: ignore[union-attr]
                                    "card": None if card is None else str(card), "text": str(e)})  # fmt: skip
        rec = state.record
        if isinstance(rec, list) and rec and rec[0] == T_CHECKPOINT:
            row["checkpoint"] = rec[1].hex()
            hands.append(row)
        elif isinstance(rec, list) and rec and rec[0] == T_TRAILER:
            match = state.match
            st = match.standings()
            for h in hands:
                h["game_digest"], h["game_winner"] = rec[2].hex(), st.winner
    return hands, actions


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

    def close(self) -> int:
        """Write what is left and put the file in place (none when no rows); returns the rows written."""
        if self.rows:
            self._write(self.rows)
            self.rows = []
        if self._writer is not None:
            self._writer.close()
            self._context.__exit__(None, None, None)
        return self.written


@dataclass(frozen=True, slots=True)
class ExportBatch:
    number: int
    logs: tuple[str, ...]  #: log locations
    roots: tuple[str, ...]  #: the folders named, for the logs' names
    out: str  #: the dataset's folder or URL
    actions: bool = False
    tag: str = ""
    row_group: int = ROW_GROUP


@dataclass
class ExportResult:
    logs: int = 0
    hands: int = 0
    actions: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)  #: (log, why) for each log left out


def export_batch(batch: ExportBatch) -> ExportResult:
    """Replay a batch of logs and write their rows as one part of each table (in a worker)."""
    store = Store(batch.out)
    part = f"part-{batch.number:05d}.parquet"
    hands = PartWriter(store, f"hands/{part}", HAND_SCHEMA, batch.tag, batch.row_group)
    actions = PartWriter(store, f"actions/{part}", ACTION_SCHEMA, batch.tag, batch.row_group)
    result = ExportResult()
    for location in batch.logs:
        try:
            rows, steps = log_rows(read_bytes(location), relative_name(location, list(batch.roots)), batch.actions)
        except (LogError, OSError) as err:
            result.failed.append((location, str(err)))
            continue
        hands.add(rows)
        actions.add(steps)
        result.logs += 1
    result.hands, result.actions = hands.close(), actions.close()
    return result


def batches(logs: list[str], roots: list[str], out: str, workers: int, *, actions: bool = False, size: int = 0,
            tag: str = "") -> list[ExportBatch]:  # fmt: skip
    """Logs in batches of ``size`` (0: about two per worker, at most 2,000 logs): one part file each."""
    size = size or max(1, min(2000, math.ceil(len(logs) / (2 * workers))))
    return [ExportBatch(n, tuple(logs[i : i + size]), tuple(roots), out, actions, tag)
            for n, i in enumerate(range(0, len(logs), size))]  # fmt: skip


def run(logs: list[str], roots: list[str], out: str, runner: Runner, *, actions: bool = False, size: int = 0,
        tick: Callable[[int], None] | None = None) -> tuple[ExportResult, int]:  # fmt: skip
    """Export logs into the dataset at ``out`` on the runner; the totals and the number of parts.

    Raises:
        FileExistsError: ``out`` holds parts already (an export is not mixed with an earlier one).
    """
    shared(out)
    if existing_parts(out):
        raise FileExistsError(f"{out} already holds an exported dataset; choose another folder, or --force to "
                              "replace it")  # fmt: skip
    total = ExportResult()
    work = batches(logs, roots, out, runner.workers, actions=actions, size=size, tag=runner.run_id)
    for result in runner.map(export_batch, work):
        total.logs, total.hands, total.actions = (total.logs + result.logs, total.hands + result.hands,
                                                  total.actions + result.actions)  # fmt: skip
        total.failed += result.failed
        if tick:
            tick(result.logs + len(result.failed))
    return total, len(work)


def existing_parts(out: str) -> list[str]:
    """The part files already in a dataset folder (an export does not mix with an earlier one)."""
    store = Store(out)
    return sorted(n for folder in ("hands", "actions") for n in store.sizes(folder) if n.endswith(".parquet"))


def remove_parts(out: str) -> int:
    """Remove the part files of an earlier export from a dataset folder (``knock export --force``); how many."""
    shared(out)
    parts = existing_parts(out)
    Store(out).remove(parts)
    return len(parts)
