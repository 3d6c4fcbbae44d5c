"""A server killed (SIGKILL) in the middle of games and started again: nothing acknowledged is lost."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from knock.web.client import ServerProcess, choose
from knock.web.game import Game
from knock.web.tablespec import TableSpec
from replay.replayer import Replayer
from replay.verdict import judge
from tests.web.support import Seat


def acked_actions(data: bytes) -> dict[int, tuple[int, str]]:
    """The actions of a full log by the record number each expected: (seat, text)."""
    out: dict[int, tuple[int, str]] = {}
    for state in Replayer(data).states():
        event = state.event
        if event is not None and state.record != 0 and type(event).__name__ in _ACTION_EVENTS:
            out[state.index - 1] = (getattr(event, "seat", -1), type(event).__name__)
    return out


_ACTION_EVENTS = {"UpcardPassed", "UpcardTaken", "DrewStock", "DrewDiscard", "Discarded", "Knocked", "BigGinDeclared",
                  "WallDeclined", "SpreadLaid", "DefenceLaid", "Advised"}  # fmt: skip


@pytest.mark.rule("PROTO-13", "PROTO-9", "PROTO-14", "LOG-13")
def test_a_killed_server_resumes_every_game_and_loses_nothing(tmp_path: Path) -> None:
    with contextlib.ExitStack() as stack:
        data = tmp_path / "store"
        first = ServerProcess(data, "--bot-delay", "0").start()
        stack.callback(first.kill)
        people = first.table({"seed": 12, "options": {"target": 10}, "commitments": True,
                              "seats": [{"player": "human"}, {"player": "human"}]})  # fmt: skip
        # The bots' game (about 200 actions) paced at 10 ms an action: at 2 ms it could end in the time the watcher,
        # checking each frame against the schema, took to read up to record 40, and so before the kill.
        bots = first.table({"preset": "three_handed", "seed": 3, "bot_delay": 0.01, "commitments": False,
                            "options": {"target": 80},
                            "seats": [{"player": "bot", "bot": "random"}, {"player": "bot"},
                                      {"player": "bot", "bot": "greedy"}]})  # fmt: skip
        seats = [Seat(first.ws) for _ in range(2)]
        for i, s in enumerate(seats):
            s.hello(people["table"], people["seats"][i]["token"])
        acks: list[dict[str, Any]] = []
        latest = {i: s.view() for i, s in enumerate(seats)}
        while len(acks) < 12:  # a few actions, each acknowledged
            seat = next(i for i, v in latest.items() if v["view"]["to_act"] == i)
            answer = seats[seat].act(choose(latest[seat]) or "", latest[seat]["record"])
            assert answer["type"] == "ack"
            acks.append(answer)
            latest = {i: s.view() for i, s in enumerate(seats)}
        watcher = Seat(first.ws)
        watcher.hello(bots["table"])
        while watcher.view()["record"] < 40:  # the bots' game well under way
            pass
        first.kill()  # SIGKILL: no shutdown, no flush
        second = ServerProcess(data, "--bot-delay", "0").start()
        stack.callback(second.stop)
        assert f"{people['table']} unfinished" in second.banner and f"{bots['table']} unfinished" in second.banner
        seats = [Seat(second.ws) for _ in range(2)]
        for i, s in enumerate(seats):
            assert s.hello(people["table"], people["seats"][i]["token"])["seat"] == i
        latest = {i: s.view() for i, s in enumerate(seats)}
        assert latest[0]["record"] == acks[-1]["next"]  # every acknowledged action is there, and nothing after it
        resent = seats[acks[-1]["seat"]].act(acks[-1]["action"], acks[-1]["record"])
        assert resent["duplicate"]  # the applied actions survive the restart: a resend is not applied twice
        while True:
            turn = next((i for i, v in latest.items() if v["view"]["to_act"] == i), None)
            if turn is None:
                break
            seat = turn
            answer = seats[seat].act(choose(latest[seat]) or "", latest[seat]["record"])
            assert answer["type"] == "ack", answer
            latest[seat] = seats[seat].view()
            latest[1 - seat] = seats[1 - seat].view()
        status, log = second.get(f"/api/tables/{people['table']}/log")
        assert status == 200 and judge(log).kind == "pass"
        actions = acked_actions(log)
        for a in acks:
            assert actions[a["record"]][0] == a["seat"]
        watcher = Seat(second.ws)
        watcher.hello(bots["table"])
        watcher.until("log_offered", timeout=60)
        status, played = second.get(f"/api/tables/{bots['table']}/log")
        assert status == 200 and judge(played).kind == "pass"
        # The bots went on as if nothing had happened: the same game as one never interrupted (PROTO-14).
        spec = TableSpec.from_json(json.loads(second.get(f"/api/tables/{bots['table']}")[1]) | _spec_of(bots))
        table, head = Game.new(bots["table"], spec)
        whole = head
        while not table.over:
            bot = table.bot_to_move()
            assert bot is not None
            whole += table.act(bot, table.bot_action(bot), table.record).chunk
        assert whole == played


def _spec_of(made: dict[str, Any]) -> dict[str, Any]:
    return {"preset": "three_handed", "options": {"target": 80}, "seed": 3, "bot_delay": 0.01, "commitments": False,
            "seats": [{"player": "bot", "name": s["name"], "bot": s["bot"]} for s in made["seats"]]}  # fmt: skip
