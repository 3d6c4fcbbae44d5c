"""The hub in one process: a bot's move is chosen off the event loop (the loop answers everything else
meanwhile) and applied under its table's lock."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from knock.web import botwork
from knock.web.hub import Hub
from knock.web.store import SQLiteStore
from knock.web.tablespec import table_spec


@pytest.mark.rule("PROTO-11")  # no other table is affected: not even by a bot's long search at this one
def test_a_bots_move_is_chosen_off_the_event_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    chosen = botwork.choose
    entered, release, done = threading.Event(), threading.Event(), threading.Event()
    threads: list[threading.Thread] = []

    def held(move: botwork.BotMove) -> str:
        """The first move waits to be let go, as a long search would keep the thread busy."""
        threads.append(threading.current_thread())
        if not entered.is_set():
            entered.set()
            release.wait(10)
            done.set()
        return chosen(move)

    monkeypatch.setattr(botwork, "choose", held)

    async def scenario() -> tuple[bool, int, int]:
        hub = Hub(SQLiteStore(tmp_path), bot_delay=0)
        hub.start()
        bots = [{"player": "bot", "bot": "expert"}, {"player": "bot", "bot": "hard"}]
        table_id, _ = await hub.create(table_spec({"seats": bots, "seed": 4, "options": {"target": 1}}, bot_delay=0))
        while not entered.is_set():  # the loop runs on while the first move is being chosen ...
            await asyncio.sleep(0.001)
        table = hub.tables[table_id]
        assert table.game is not None
        record = table.game.record
        ran_meanwhile = not done.is_set() and table.lock.locked()  # ... its table held still by the lock
        release.set()
        while table.game is not None and table.game.record == record:
            await asyncio.sleep(0.001)
        after = table.game.record if table.game is not None else -1
        await hub.stop()
        return ran_meanwhile, record, after

    ran_meanwhile, record, after = asyncio.run(asyncio.wait_for(scenario(), 60))
    assert ran_meanwhile and after > record
    assert threads and all(t is not threading.main_thread() for t in threads)
