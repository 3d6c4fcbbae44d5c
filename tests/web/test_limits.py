"""``knock serve`` as an operator runs it (issue #63): a table nobody attends is abandoned (PROTO-44, END-6) and
stops counting against the server's tables, across a restart too, so that nobody can lock the server out of new
tables by making tables and leaving them."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from knock.web import protocol
from knock.web.client import ServerProcess
from knock.web.hub import Hub
from knock.web.store import SQLiteStore
from knock.web.table import Connection
from knock.web.tablespec import table_spec
from replay.log import LogReader
from replay.verdict import judge
from tests.web.support import valid

TWO = [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}]


def hub_at(folder: Path, abandon_after: float) -> Hub:
    hub = Hub(SQLiteStore(folder), bot_delay=0)
    hub.house.abandon_after, hub.house.grace = abandon_after, 0.0
    hub.start()
    return hub


async def over(hub: Hub, table: str, limit: float = 30.0) -> None:
    """Wait until the table's game is over (the server's own timer: ``limit`` is only how long the test waits)."""
    t = hub.tables[table]
    deadline = time.monotonic() + limit
    while not t.over:
        assert time.monotonic() < deadline, "the table was not abandoned"
        await asyncio.sleep(0.02)


@pytest.mark.rule("PROTO-44", "END-6", "END-5", "LOG-24")
def test_a_table_nobody_joins_is_abandoned_with_no_winner_and_its_log_verifies(tmp_path: Path) -> None:
    async def run() -> None:
        hub = hub_at(tmp_path, 0.05)
        table, _ = await hub.create(table_spec({"seed": 3, "seats": TWO}, bot_delay=0))
        watcher: list[protocol.Message] = []
        spectator = Connection(lambda m: watcher.append(valid(m)), lambda code, err: None)
        await hub.join(spectator, protocol.Hello((1, 4), table, None, True))  # a spectator is nobody's seat
        await over(hub, table)
        summary = hub.tables[table].summary
        assert summary["over"] and summary["winner"] is None and summary["verdict"] == "pass"
        result = next(m for m in watcher if m["type"] == "game_result")
        assert result["ending"] == {"kind": "abandon", "seat": None, "against": None, "reason": None}
        assert next(e for e in watcher[-2]["events"] if e["kind"] == "abandoned")["text"]
        data = hub.store.log(table)
        assert judge(data).kind == "pass" and LogReader(data).header.version == (3, 0)
        await hub.stop()

    asyncio.run(asyncio.wait_for(run(), 60))


@pytest.mark.rule("PROTO-44", "END-6")
def test_a_table_is_abandoned_only_once_its_last_person_has_gone(tmp_path: Path) -> None:
    async def run() -> None:
        hub = hub_at(tmp_path, 0.2)
        table, tokens = await hub.create(table_spec({"seed": 4, "seats": TWO}, bot_delay=0))
        ann = Connection(lambda m: None, lambda code, err: None)
        await hub.join(ann, protocol.Hello((1, 4), table, tokens[0], False))
        await asyncio.sleep(0.6)  # three times the wait: ann is there, so the table goes on
        assert not hub.tables[table].over
        hub.leave(ann)
        await over(hub, table)
        assert hub.tables[table].summary["winner"] is None
        await hub.stop()

    asyncio.run(asyncio.wait_for(run(), 60))


@pytest.mark.rule("PROTO-44", "PROTO-17", "PROTO-13")
def test_tables_made_and_left_cannot_lock_the_server_out_across_a_restart(tmp_path: Path) -> None:
    """The lock-out of issue #63: as many tables as the server keeps, made and never joined, refuse every new one
    (429) — until the server abandons them, which a restart does not undo."""
    data = tmp_path / "data"
    with ServerProcess(data, "--max-tables", "2", "--table-rate", "0", "--abandon-after", "3600") as server:
        for _ in range(2):
            server.table({"seats": TWO})
        status, answer = server.post("/api/tables", {"seats": TWO})
        assert status == 429 and answer["error"]["code"] == "too_many_tables"
    with ServerProcess(data, "--max-tables", "2", "--table-rate", "0", "--abandon-after", "1") as server:
        deadline = time.monotonic() + 60  # the server's wait is 1 s; the test waits as long as the load needs
        while (status := server.post("/api/tables", {"seats": TWO})[0]) == 429:
            assert time.monotonic() < deadline, "the left tables still lock the server out"
            time.sleep(0.2)
        assert status == 201
        status, body = server.get("/api/tables")
        abandoned = [t for t in json.loads(body)["tables"] if t["over"]]
        assert status == 200 and len(abandoned) == 2 and all(t["winner"] is None for t in abandoned)
        for t in abandoned:
            status, log = server.get(f"/api/tables/{t['table']}/log")
            assert status == 200 and judge(log).kind == "pass"
