"""The event store: WAL mode, its synchronous setting, atomic batches, and the group commit."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from knock.web.game import Applied
from knock.web.store import Append, Create, Fail, GroupCommit, SQLiteStore


def create(game: str) -> Create:
    return Create(game, {"preset": "standard"}, None, {0: f"{game}h0", 1: f"{game}h1"}, b"head", 3)


@pytest.mark.rule("PROTO-9")
@pytest.mark.parametrize(("setting", "level"), [("full", 2), ("normal", 1)])
def test_the_store_is_sqlite_in_wal_mode(tmp_path: Path, setting: str, level: int) -> None:
    store = SQLiteStore(tmp_path, synchronous=setting)  # type: ignore[arg-type]
    assert store.pragma("journal_mode") == "wal" and store.pragma("synchronous") == level
    store.close()
    with pytest.raises(ValueError):
        SQLiteStore(tmp_path, synchronous="off")  # type: ignore[arg-type]


@pytest.mark.rule("PROTO-9", "PROTO-13")
def test_a_batch_is_stored_whole_or_not_at_all(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path)
    store.commit([create("g1")])
    step = Append("g1", 3, 4, b"-r4", Applied(0, "pass", 3, 4))
    with pytest.raises(sqlite3.IntegrityError):
        store.commit([Append("g1", 4, 5, b"-r5", Applied(1, "pass", 4, 5)), step, step])  # the last repeats
    assert store.log("g1") == b"head" and store.applied("g1") == []
    store.commit([step, Append("g1", 4, 5, b"-r5", Applied(1, "take", 4, 5), {"over": True})])
    store.commit([create("g2"), Fail("g2", "its log fails")])
    again = SQLiteStore(tmp_path)  # what a restarted server reads
    games = {g.game: g for g in again.games()}
    assert again.log("g1") == b"head-r4-r5" and [a.action for a in again.applied("g1")] == ["pass", "take"]
    assert games["g1"].status == "over" and games["g1"].records == 5 and games["g1"].summary == {"over": True}
    assert games["g2"].status == "failed" and games["g2"].note == "its log fails"
    assert again.tokens()["g1h1"] == ("g1", 1)


@pytest.mark.rule("PROTO-9")
def test_writes_waiting_together_are_committed_together(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path)
    committer = GroupCommit(store)

    async def many() -> None:
        await committer.write(*(create(f"g{i}") for i in range(3)))
        await asyncio.gather(*(committer.write(Append(f"g{i % 3}", 3 + i // 3, 4 + i // 3, b".",
                                                      Applied(0, "pass", 3 + i // 3, 4 + i // 3)))
                               for i in range(60)))  # fmt: skip

    asyncio.run(many())
    committer.close()
    assert committer.writes == 63 and committer.commits < 63  # fewer transactions than writes
    assert SQLiteStore(tmp_path).log("g1") == b"head" + b"." * 20
