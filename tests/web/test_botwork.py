"""Where a server's bots think (knock.web.botwork): one interface, the same move in this process or another."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from knock.web.botwork import BotMove, ProcessBots, ThreadBots, choose
from knock.web.game import Game
from knock.web.hub import Hub
from knock.web.store import SQLiteStore
from knock.web.tablespec import table_spec


def _moves() -> list[BotMove]:
    """A bot move at every turn of a short game between a search bot and the random bot."""
    seats = [{"player": "bot", "bot": "easy"}, {"player": "bot", "bot": "random"}]
    game, _ = Game.new("t", table_spec({"seats": seats, "seed": 11, "options": {"target": 1}}))
    out: list[BotMove] = []
    while not game.over:
        seat = game.bot_to_move()
        assert seat is not None
        move = game.bot_move(seat)
        out.append(move)
        game.act(seat, choose(move), game.record)
    return out


@pytest.mark.rule("PROTO-14", "VIS-2")
def test_a_pool_of_processes_answers_as_the_thread_does() -> None:
    moves = _moves()
    pool = ProcessBots(2)

    async def both() -> tuple[list[str], list[str]]:
        thread = ThreadBots()
        here = [await thread.choose(m) for m in moves]
        there = list(await asyncio.gather(*(pool.choose(m) for m in moves)))
        return here, there

    try:
        here, there = asyncio.run(asyncio.wait_for(both(), 120))
    finally:
        pool.close()
    assert len(moves) >= 20 and here == there == [choose(m) for m in moves]


@pytest.mark.rule("PROTO-12", "PROTO-14")
def test_a_server_plays_the_same_game_with_its_bots_in_other_processes(tmp_path: Path) -> None:
    seats = [{"player": "bot", "bot": "heuristic"}, {"player": "bot", "bot": "random"}]

    async def play(where: Path, bots: ProcessBots | ThreadBots) -> dict[str, object]:
        hub = Hub(SQLiteStore(where), bot_delay=0, bots=bots)
        hub.start()
        table_id, _ = await hub.create(table_spec({"seats": seats, "seed": 5, "options": {"target": 1}}, bot_delay=0))
        table = hub.tables[table_id]
        while not table.over:
            await asyncio.sleep(0.01)
        await hub.stop()
        return {k: table.summary[k] for k in ("hand", "scores", "winner", "record")}

    (tmp_path / "p").mkdir()
    (tmp_path / "t").mkdir()
    there = asyncio.run(asyncio.wait_for(play(tmp_path / "p", ProcessBots(1)), 120))
    here = asyncio.run(asyncio.wait_for(play(tmp_path / "t", ThreadBots()), 120))
    assert there == here and there["winner"] is not None
