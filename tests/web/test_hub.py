"""The hub in one process: a bot's move is chosen off the event loop (the loop answers everything else
meanwhile) and applied under its table's lock."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from knock.web.hub import Hub
from knock.web.store import SQLiteStore
from knock.web.tables import ServerTable, table_spec


@pytest.mark.rule("PROTO-11")  # no other table is affected: not even by a bot's long search at this one
def test_a_bots_move_is_chosen_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = ServerTable.bot_action
    entered, release, done = threading.Event(), threading.Event(), threading.Event()
    threads: list[threading.Thread] = []

    def held(table: ServerTable, seat: int, *, stand_in: bool = False) -> str:
        """The first move waits to be let go, as a long search would keep the thread busy."""
        threads.append(threading.current_thread())
        if not entered.is_set():
            entered.set()
            release.wait(10)
            done.set()
        return chosen(table, seat, stand_in=stand_in)

    monkeypatch.setattr(ServerTable, "bot_action", held)

    async def scenario() -> tuple[bool, int, int]:
        hub = Hub(SQLiteStore(tmp_path), bot_delay=0)
        hub.start()
        bots = [{"player": "bot", "bot": "expert"}, {"player": "bot", "bot": "hard"}]
        table_id, _ = await hub.create(table_spec({"seats": bots, "seed": 4, "options": {"target": 1}}, bot_delay=0))
        while not entered.is_set():  # the loop runs on while the first move is being chosen ...
            await asyncio.sleep(0.001)
        live = hub.tables[table_id]
        assert live.table is not None
        record = live.table.record
        ran_meanwhile = not done.is_set() and live.lock.locked()  # ... its table held still by the lock
        release.set()
        while live.table is not None and live.table.record == record:
            await asyncio.sleep(0.001)
        after = live.table.record if live.table is not None else -1
        await hub.stop()
        return ran_meanwhile, record, after

    ran_meanwhile, record, after = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert ran_meanwhile and after > record
    assert threads and all(t is not threading.main_thread() for t in threads)
