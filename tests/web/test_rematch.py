"""Rematch (protocol 1.2): the next game of a table's series, its running totals kept by the server in the table
store, through a killed server (spec/protocol.md, PROTO-29 .. PROTO-31)."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from knock.web.client import Client, ServerProcess, play_seat
from knock.web.protocol import PROTOCOL

#: A person against a bot, a game to 1: its first scored hand ends it.
TABLE = {"seed": 5, "bot_delay": 0, "options": {"target": 1},
         "seats": [{"player": "human", "name": "ann"}, {"player": "bot", "bot": "greedy"}]}  # fmt: skip


def until(c: Client, kind: str) -> dict[str, Any]:
    frame: dict[str, Any] = c.until(kind)
    return frame


def played(c: Client, table: str, token: str) -> tuple[dict[str, Any], list[int]]:
    """Say hello at ``table`` and play the seat to the game's end: the welcome and the game's final scores."""
    welcome = c.hello(table, token)
    assert welcome["type"] == "welcome" and welcome["protocol"] == list(PROTOCOL), welcome
    frames = play_seat(c, random.Random(5))
    result = next(f for f in reversed(frames) if f["type"] == "game_result")
    over = next(f for f in reversed(frames) if f["type"] == "view")
    assert result["type"] == "game_result"
    return welcome, list(over["view"]["scores"])


@pytest.mark.rule("PROTO-29", "PROTO-30", "PROTO-31", "PROTO-13")
def test_a_rematch_runs_the_totals_on_and_survives_a_killed_server(tmp_path: Path) -> None:
    with contextlib.ExitStack() as stack:
        data = tmp_path / "store"
        first = ServerProcess(data, "--bot-delay", "0", "--table-rate", "0", "--address-tables", "0").start()
        stack.callback(first.kill)
        made = first.table(TABLE)
        old, token = made["table"], made["seats"][0]["token"]
        watcher = Client(first.ws)
        assert watcher.hello(old)["series"] is None  # a table made by POST /api/tables (PROTO-31)

        # Before the game's end a seat may not ask, nor may a spectator ever (PROTO-29).
        seat = Client(first.ws)
        seat.hello(old, token)
        seat.send({"type": "rematch"})
        refused = until(seat, "error")
        assert (refused["code"], refused["rule"], refused["close"]) == ("bad_message", "PROTO-29", False)
        seat.close()
        seat = Client(first.ws)
        welcome, scores = played(seat, old, token)
        assert welcome["series"] is None and sum(scores) > 0
        watcher.send({"type": "rematch"})
        assert until(watcher, "error")["rule"] == "PROTO-29"

        # The first asking makes the rematch; every connection at the table is told (PROTO-30).
        seat.send({"type": "rematch"})
        told = until(seat, "rematch")
        assert told == {"type": "rematch", "table": told["table"], "games": 1, "totals": scores}
        assert until(watcher, "rematch") == told
        seat.send({"type": "rematch"})  # asking again makes nothing
        assert until(seat, "rematch") == told
        status, body = first.get("/api/tables")
        assert status == 200
        tables = [t["table"] for t in json.loads(body)["tables"]]
        assert tables.count(told["table"]) == 1 and len(tables) == 2
        seat.close()

        # The same token holds the seat at the new table, whose welcome names the series (PROTO-31).
        second = Client(first.ws)
        welcome, more = played(second, told["table"], token)
        assert welcome["seat"] == 0 and welcome["series"] == {"previous": old, "games": 1, "totals": scores}
        assert welcome["players"][0] == "ann" and welcome["seats"][1]["bot"] == "greedy"
        second.send({"type": "rematch"})
        third = until(second, "rematch")
        totals = [a + b for a, b in zip(scores, more, strict=True)]
        assert third["games"] == 2 and third["totals"] == totals
        second.close()
        first.kill()  # SIGKILL: the series is in the store with the tables' specs

        again = ServerProcess(data, "--bot-delay", "0", "--table-rate", "0", "--address-tables", "0").start()
        stack.callback(again.kill)
        back = Client(again.ws)
        welcome = back.hello(third["table"], token)
        assert welcome["type"] == "welcome" and welcome["series"] == {"previous": told["table"], "games": 2,
                                                                       "totals": totals}  # fmt: skip
        back.close()
        earlier = Client(again.ws)  # the token still opens the series' first table, which names its rematch
        assert earlier.hello(old, token)["seat"] == 0
        assert until(earlier, "rematch") == told
        earlier.close()
