"""``knock serve`` through real HTTP and WebSocket connections to a server process on a free local port.

Every frame a client here receives is validated against the protocol's schema (``tests.web.support.Seat``).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from knock.web.client import ServerProcess, play_seat
from knock.web.protocol import MAX_MESSAGE, PROTOCOL
from replay.verdict import judge
from tests.web import support
from tests.web.support import Seat

Made = dict[str, Any]
TWO = [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}]


def seated(server: ServerProcess, made: Made, seat: int, origin: str | None = None) -> tuple[Seat, Made]:
    """A client at ``seat`` of a table just made: its welcome checked; returns it and its first view."""
    client = Seat(server.ws, origin=origin)
    welcome = client.hello(made["table"], made["seats"][seat]["token"])
    assert welcome["type"] == "welcome" and welcome["seat"] == seat and welcome["protocol"] == list(PROTOCOL)
    return client, client.view()


def to_act(server: ServerProcess, made: Made) -> tuple[Seat, Made, Seat, Made]:
    """Both seats of a two-player table: the one to act first, with its view, then the other."""
    a, va = seated(server, made, 0)
    b, vb = seated(server, made, 1)
    return (a, va, b, vb) if va["view"]["to_act"] == 0 else (b, vb, a, va)


@pytest.mark.rule("PROTO-2", "RULES-1", "RULES-2")
def test_tables_for_every_preset_and_option(server: ServerProcess) -> None:
    status, info = server.get("/api")
    api = json.loads(info)
    assert (
        status == 200
        and api["protocol"] == list(PROTOCOL)
        and set(api["presets"]) == {"standard", "oklahoma", "three_handed"}
    )
    assert api["options"]["shutout"]["choices"] == ["none", "double_total", "flat_100", "double_game_bonus",
                                                   "double_hand_points"]  # fmt: skip
    for preset, rules in api["presets"].items():
        seats = TWO if rules["players"] == 2 else [*TWO, {"player": "bot", "bot": "greedy"}]
        made = server.table({"preset": preset, "seats": seats})
        assert [s["token"] is not None for s in made["seats"]] == [True, True, *([False] * (len(seats) - 2))]
        assert all(len(s["token"]) >= 43 for s in made["seats"][:2]) and made["seats"][0]["link"].endswith(
            made["seats"][0]["token"]
        )
    options = {"knock_limit_value": 7, "gin_bonus": 20, "shutout": "flat_100", "hollywood": True, "kisses": True,
               "spades_double": True, "big_gin_bonus": 31, "target": 150}  # fmt: skip
    made = server.table({"preset": "standard", "options": options, "seats": TWO, "seed": 4, "turn_timeout": 60})
    status, body = server.get(f"/api/tables/{made['table']}")
    summary = json.loads(body)
    assert status == 200 and summary["rules"]["shutout"] == "flat_100" and summary["rules"]["target"] == 150
    assert "token" not in body.decode() and "seed" not in summary  # public information only
    status, listing = server.get("/api/tables")
    assert made["table"] in {t["table"] for t in json.loads(listing)["tables"]}
    for bad, rule in [({"preset": "gin_rummy", "seats": TWO}, "RULES-1"),
                      ({"options": {"jokers": True}, "seats": TWO}, "RULES-2"),
                      ({"options": {"target": 0}, "seats": TWO}, "RULES-2"),
                      ({"options": {"deck_ranks": 7}, "seats": TWO}, "RULES-3"),
                      ({"preset": "three_handed", "seats": TWO}, "PROTO-2"),
                      ({"seats": [{"player": "alien"}, {"player": "human"}]}, "PROTO-2"),
                      ({"seats": TWO, "turn_timeout": -3}, "PROTO-2")]:  # fmt: skip
        status, answer = server.post("/api/tables", bad)
        assert status == 400 and answer["error"]["rule"] == rule, (bad, answer)
    assert server.get("/")[0] == 200 and b"<html" in server.get("/static/index.html")[1]


@pytest.mark.rule("PROTO-3")
def test_a_token_acts_only_for_its_seat(server: ServerProcess) -> None:
    made = server.table({"seats": TWO, "seed": 3})
    other = server.table({"seats": TWO, "seed": 3})
    first, view, _, _ = to_act(server, made)
    me = view["view"]["you"]
    answer = first.act(f"p{1 - me} pass", view["record"])
    assert answer["type"] == "refusal" and answer["rule"] == "PROTO-3"
    assert first.act("pass", view["record"], seat=1 - me)["rule"] == "PROTO-3"
    for token, table in [("x" * 43, made["table"]), (other["seats"][0]["token"], made["table"])]:
        stranger = Seat(server.ws)
        error = stranger.hello(table, token)
        assert error["type"] == "error" and error["code"] == "bad_token" and error["close"]
        with pytest.raises(ConnectionClosed) as closed:
            stranger.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    early = Seat(server.ws)
    early.send({"type": "act", "action": "pass", "record": 0})
    assert early.recv()["code"] == "hello_first"
    watcher = Seat(server.ws)
    assert watcher.hello(made["table"])["seat"] is None
    assert watcher.view()["view"]["role"] == "spectator"
    assert watcher.act("pass", view["record"])["rule"] == "PROTO-3"
    # A seat that drops reconnects with its token and gets its current view; a second connection takes over.
    again, current = seated(server, made, me)
    assert current["record"] == view["record"] and current["view"]["cards"] == view["view"]["cards"]
    replaced = first.until("error")
    assert replaced["code"] == "replaced"
    with pytest.raises(ConnectionClosed) as closed:
        first.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
    assert again.act("pass", current["record"])["type"] == "ack"


@pytest.mark.rule("PROTO-4")
def test_browsers_connect_from_allowed_origins_only(server: ServerProcess) -> None:
    made = server.table({"seats": TWO})
    host = server.url.split("//")[1]
    for origin in (f"http://{host}", "http://friends.test"):
        client, _ = seated(server, made, 0, origin=origin)
        client.close()
    port = int(host.rsplit(":", 1)[1])
    # another site; the server's host over another scheme or port (another origin, RFC 6454); a port that is none
    others = ("http://evil.test", f"https://{host}", f"http://127.0.0.1:{port + 1}", "http://127.0.0.1:99999")
    for origin in others:
        with pytest.raises(InvalidStatus) as refused:
            Seat(server.ws, origin=origin)
        assert refused.value.response.status_code == 403, origin
        status, answer = server.post("/api/tables", {"seats": TWO}, headers={"Origin": origin})
        assert status == 403 and answer["error"]["rule"] == "PROTO-4", origin


@pytest.mark.rule("PROTO-7", "PROTO-8", "PROTO-9", "TURN-1")
def test_acts_over_the_wire_applied_once_refused_with_the_rule(server: ServerProcess) -> None:
    made = server.table({"seats": TWO, "seed": 8})
    first, view, second, _ = to_act(server, made)
    record = view["record"]
    assert second.act("pass", record)["rule"] == "TURN-1"  # out of turn: the engine's rule and reason
    ack = first.act("pass", record)
    assert ack == {"type": "ack", "seat": view["view"]["you"], "action": "pass", "record": record,
                   "next": record + 1, "duplicate": False}  # fmt: skip
    resent = first.act("pass", record)
    assert resent["duplicate"] and resent["next"] == record + 1
    stale = first.act("take", record)
    assert stale["rule"] == "PROTO-7" and stale["record"] == record + 1
    assert second.view()["record"] == record + 1  # shown to the other seat after it was stored


@pytest.mark.rule("PROTO-28")
def test_after_an_action_the_actor_gets_its_ack_then_every_connection_its_view(server: ServerProcess) -> None:
    made = server.table({"seats": TWO, "seed": 11})
    first, view, second, _ = to_act(server, made)
    watcher = Seat(server.ws)
    watcher.hello(made["table"])
    watcher.recv()  # its view on joining
    record = view["record"]
    first.send({"type": "act", "action": view["legal"][0], "record": record})
    ack, mine = first.recv(), first.recv()
    assert ack["type"] == "ack" and ack["next"] == record + 1
    assert mine["type"] == "view" and mine["record"] == record + 1  # the actor's own view follows its ack
    for other in (second, watcher):
        shown = other.recv()
        assert shown["type"] == "view" and shown["record"] == record + 1 and shown["events"]


@pytest.mark.rule("PROTO-10", "PROTO-28", "LOG-11", "LOG-13")
def test_a_game_to_its_end_results_and_the_log_offered(server: ServerProcess) -> None:
    made = server.table({"preset": "three_handed", "seed": 2, "options": {"target": 40},
                         "seats": [{"player": "human"}, {"player": "bot", "bot": "greedy"},
                                   {"player": "bot", "bot": "random"}]})  # fmt: skip
    table = made["table"]
    status, _ = server.get(f"/api/tables/{table}/log")
    assert status == 409
    token = made["seats"][0]["token"]
    status, view = server.get(f"/api/tables/{table}/log", headers={"Authorization": f"Bearer {token}"})
    assert status == 200 and judge(view).kind == "unfinished" and judge(view).view == 0
    seat = Seat(server.ws)
    seat.hello(table, token)
    watcher = Seat(server.ws)
    watcher.hello(table)
    frames = play_seat(seat, random.Random(1))
    kinds = [f["type"] for f in frames]
    assert "hand_result" in kinds and "game_result" in kinds and kinds[-1] == "log_offered"
    assert kinds[-4:] == ["hand_result", "game_result", "view", "log_offered"]  # PROTO-28's order at the end
    offer = frames[-1]
    status, data = server.get(offer["url"])
    verdict = judge(data)
    assert status == 200 and verdict.kind == "pass" and offer["verdict"] == "pass"
    assert offer["digest"] == verdict.digest.hex() and offer["bytes"] == len(data)  # type: ignore[union-attr]
    result = next(f for f in frames if f["type"] == "game_result")
    assert result["winner"] == verdict.winner and result["totals"] == list(verdict.scores)
    assert watcher.until("log_offered")["digest"] == offer["digest"]  # offered to everyone at the table
    assert [f["type"] for f in watcher.frames[-4:]] == ["hand_result", "game_result", "view", "log_offered"]
    hand = next(f for f in frames if f["type"] == "hand_result")
    assert hand["result"]["kind"] in ("gin", "big_gin", "knock", "undercut", "tie", "dead")
    assert {f["seat"] for f in frames if f["type"] in ("hand_result", "game_result")} == {0}  # whose (PROTO-10)
    assert {f["seat"] for f in watcher.frames if f["type"] in ("hand_result", "game_result")} == {None}
    assert seat.act("draw", offer["records"])["rule"] == "MATCH-1"  # the game is over (PROTO-22)
    later = Seat(server.ws)  # a table whose game is over: welcome, the final view, the result, the offer
    assert later.hello(table, token)["type"] == "welcome"
    assert [later.recv()["type"] for _ in range(3)] == ["view", "game_result", "log_offered"]


@pytest.mark.rule("PROTO-11")
def test_bad_input_gets_an_error_and_leaves_other_tables_alone(server: ServerProcess) -> None:
    made = server.table({"seats": TWO, "seed": 5})
    bystander, view, _, _ = to_act(server, server.table({"seats": TWO, "seed": 6}))
    first, _ = seated(server, made, 0)
    bad = [
        ("{nope", "bad_json"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "act", "record": 1}', "bad_message"),
        ('{"type": "log"}', "unknown_type"),
    ]
    for frame, code in bad:
        first.send(frame)
        error = first.until("error")
        assert error["code"] == code and not error["close"]
    first.send({"type": "view"})
    assert first.view()["type"] == "view"  # still open, still served
    for _ in range(6):
        first.send("[]")
    assert first.until("error")["code"] == "bad_json"
    with pytest.raises(ConnectionClosed):
        for _ in range(12):
            first.recv(timeout=5)  # the tenth bad frame closes the connection
    binary, _ = seated(server, made, 1)
    binary.ws.send(b"\x00\x01")
    assert binary.until("error")["code"] == "binary_frame"
    big, _ = seated(server, made, 0)
    big.send("x" * (MAX_MESSAGE + 10))
    with pytest.raises(ConnectionClosed) as closed:
        big.until("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    flood, _ = seated(server, made, 1)
    with pytest.raises(ConnectionClosed):
        for _ in range(400):
            flood.send({"type": "view"})
        flood.until("never")
    assert any(f.get("code") == "rate_limited" for f in flood.frames)
    assert bystander.act("pass", view["record"])["type"] == "ack"  # the other table did not notice


@pytest.mark.rule("PROTO-12")
def test_a_turn_that_times_out_is_played_by_the_bot(server: ServerProcess) -> None:
    started = time.monotonic()
    made = server.table({"seats": TWO, "seed": 9, "turn_timeout": 1})
    first, view, second, _ = to_act(server, made)
    told = first.until("timed_out", timeout=20)
    assert told["seat"] == view["view"]["you"] and told["action"] in view["legal"]
    assert second.until("timed_out", timeout=20)["action"] is None  # everyone else is told it happened, not what
    assert first.view()["record"] == view["record"] + 1 and time.monotonic() - started >= 0.9


@pytest.mark.rule("PROTO-33", "PROTO-12")
def test_a_view_sent_mid_turn_tells_the_time_left_by_the_servers_timer(server: ServerProcess) -> None:
    """``turn_left``: the server's count of the turn's seconds left when it sends the view, to every connection
    (a spectator's included), less after a wait, afresh for the next turn; null where no timer runs."""
    made = server.table({"seats": TWO, "seed": 9, "turn_timeout": 30, "bot_delay": 0})
    first, view, second, other = to_act(server, made)
    assert 28 < view["turn_left"] <= 30 and 28 < other["turn_left"] <= 30
    time.sleep(1.5)
    first.send({"type": "view"})  # mid-turn: the time left, not the timeout
    again = first.view()
    assert again["record"] == view["record"] and 20 < again["turn_left"] <= view["turn_left"] - 1.4
    watcher = Seat(server.ws)
    watcher.hello_as(list(PROTOCOL), made["table"], token=None, spectate=True)
    watched = watcher.view()
    assert 20 < watched["turn_left"] <= again["turn_left"]
    assert first.act(view["legal"][0], view["record"])["type"] == "ack"
    after = second.view()
    assert after["record"] > view["record"] and after["turn_left"] > again["turn_left"]  # the next turn's clock
    untimed = server.table({"seats": TWO, "seed": 9})
    assert seated(server, untimed, 0)[1]["turn_left"] is None
    for c in (first, second, watcher):
        c.close()


@pytest.mark.rule("PROTO-24", "PROTO-3", "PROTO-20", "PROTO-21")
def test_hello_case_by_case_and_what_a_reconnection_is_sent(server: ServerProcess) -> None:
    made = server.table({"seats": TWO, "seed": 3})
    table, token = made["table"], made["seats"][0]["token"]
    early = Seat(server.ws)  # a message before hello: an error, and the connection stays open (PROTO-3)
    early.send({"type": "act", "action": "pass", "record": 0})
    error = early.recv()
    assert (error["code"], error["rule"], error["close"]) == ("hello_first", "PROTO-3", False)
    assert early.hello(table, token)["seat"] == 0
    first = early.view()
    early.send({"type": "hello", "protocol": list(PROTOCOL), "table": table, "token": token})  # a second hello
    assert early.until("error")["code"] == "bad_message"
    early.send({"type": "view"})  # the answer to view: the whole hand's events again
    assert early.view()["events"] == first["events"] and first["events"][0]["kind"] == "hand_started"
    nothing = Seat(server.ws)
    nothing.send({"type": "hello", "protocol": list(PROTOCOL), "table": table})
    assert nothing.recv()["code"] == "bad_message"
    later = Seat(server.ws)  # a later minor version is answered with the server's own
    welcome = later.hello_as([PROTOCOL[0], PROTOCOL[1] + 5], table, token=None, spectate=True)
    assert welcome["protocol"] == list(PROTOCOL) and welcome["seat"] is None
    both = Seat(server.ws)  # spectate with a token beside it: watches
    assert both.hello_as(list(PROTOCOL), table, token=token, spectate=True)["seat"] is None
    for version, name, code in [([2, 0], table, "unsupported_protocol"), (list(PROTOCOL), "nowhere", "no_such_table")]:
        stranger = Seat(server.ws)
        refused = stranger.hello_as(version, name, token=token)
        assert refused["code"] == code and refused["close"]
        with pytest.raises(ConnectionClosed) as closed:
            stranger.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


@pytest.mark.rule("PROTO-23")
def test_the_websocket_is_at_ws_and_every_api_answer_is_a_body_of_the_schema(server: ServerProcess) -> None:
    with pytest.raises(InvalidStatus) as refused:
        Seat(server.ws.removesuffix("/ws") + "/socket")
    assert refused.value.response.status_code == 403
    support.CHECKED.clear()
    made = server.table({"seats": TWO, "seed": 1, "turn_timeout": 30, "bot_delay": 0})
    server.get("/api")
    server.get("/api/tables?count=2")
    server.get(f"/api/tables/{made['table']}")
    assert server.get("/api/tables/nowhere")[0] == 404
    assert server.post("/api/tables", {"seats": TWO, "seed": -1})[0] == 400
    assert set(support.CHECKED) == {"http_table_created", "http_table_request", "http_api", "http_table_list",
                                    "http_table_summary", "http_error"}  # fmt: skip
