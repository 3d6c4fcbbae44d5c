"""``knock serve`` as an operator runs it (issue #63): a table nobody attends is abandoned (PROTO-44, END-6) and
stops counting against the server's tables, across a restart too, so that nobody can lock the server out of new
tables by making tables and leaving them."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from knock.web import botwork, protocol
from knock.web.app import Settings, make_app
from knock.web.client import Client, ServerProcess
from knock.web.guard import remote
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
    with ServerProcess(
        data, "--max-tables", "2", "--table-rate", "0", "--address-tables", "0", "--abandon-after", "3600"
    ) as server:
        for _ in range(2):
            server.table({"seats": TWO})
        status, answer = server.post("/api/tables", {"seats": TWO})
        assert status == 429 and answer["error"]["code"] == "too_many_tables"
    with ServerProcess(
        data, "--max-tables", "2", "--table-rate", "0", "--address-tables", "0", "--abandon-after", "1"
    ) as server:
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


@pytest.mark.rule("PROTO-17", "PROTO-21")
def test_one_address_holds_a_bounded_number_of_sockets(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "data", "--max-sockets", "3") as server:
        held = [Client(server.ws) for _ in range(3)]
        extra = Client(server.ws)
        refused = extra.recv()
        assert refused["type"] == "error" and refused["code"] == "too_many_connections" and refused["close"]
        assert refused["rule"] == "PROTO-17"
        with pytest.raises(ConnectionClosed) as closed:
            extra.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        held.pop().close()
        deadline = time.monotonic() + 30  # the server counts the closed one out when it sees the close
        while True:
            again = Client(server.ws)
            with contextlib.suppress(ConnectionClosed):  # refused at once: the error frame is read below
                again.send({"type": "view"})
            answer = again.recv()
            if answer["code"] == "hello_first":  # a socket of its own: the ordinary answer
                break
            assert answer["code"] == "too_many_connections" and time.monotonic() < deadline
            again.close()
            time.sleep(0.1)
        for c in (*held, again):
            c.close()


@pytest.mark.rule("PROTO-17")
@pytest.mark.parametrize("trusted", [False, True])
def test_a_forwarded_address_counts_only_from_a_named_proxy(tmp_path: Path, trusted: bool) -> None:
    """Without ``--trusted-proxy`` anyone could name another address in ``X-Forwarded-For`` and make tables past
    the per-address rate; with the proxy named, each forwarded address is its own."""
    proxy = ("--trusted-proxy", "127.0.0.1") if trusted else ()
    with ServerProcess(tmp_path / "data", "--table-rate", "2", *proxy) as server:
        answers = [
            server.post("/api/tables", {"seats": TWO}, headers={"X-Forwarded-For": f"198.51.100.{i}"})[0]
            for i in range(4)
        ]
        assert answers == ([201] * 4 if trusted else [201, 201, 429, 429])
        if trusted:  # one forwarded address is held to the rate
            again = [server.post("/api/tables", {"seats": TWO}, headers={"X-Forwarded-For": "198.51.100.0"})[0]
                     for _ in range(2)]  # fmt: skip
            assert again == [201, 429]


@pytest.mark.rule("PROTO-17")
def test_an_ipv6_peer_is_counted_by_its_64_block() -> None:
    from types import SimpleNamespace

    def peer(host: str) -> str:
        return remote(SimpleNamespace(client=SimpleNamespace(host=host)))  # type: ignore[arg-type]

    assert peer("2001:db8:0:1::1") == peer("2001:db8:0:1:ffff:ffff:ffff:ffff") == "2001:db8:0:1::/64"
    assert peer("2001:db8:0:2::1") != peer("2001:db8:0:1::1")
    assert peer("::ffff:192.0.2.1") == "192.0.2.1" and peer("192.0.2.1") != peer("192.0.2.2")


def trickle(server: ServerProcess, head: bytes, drip: bytes, *, limit: float = 60.0) -> bytes:
    """Send ``head``, then one ``drip`` every 0.2 s, as a slow client would, until the server closes the connection;
    what it answered."""
    host, port = server.url.split("//")[1].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=limit) as s:
        s.sendall(head)
        s.settimeout(0.2)
        answer = b""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            try:
                got = s.recv(4096)
            except TimeoutError:
                got = None
            except ConnectionError:
                break
            if got == b"":
                break
            if got:
                answer += got
                continue
            try:
                s.sendall(drip)
            except OSError:
                break
        else:
            raise AssertionError("the slow client was never cut")
    return answer


@pytest.mark.rule("PROTO-16")
def test_slow_headers_slow_bodies_and_silent_connections_are_cut(tmp_path: Path) -> None:
    """A header a line at a time, a body a byte at a time, a connection that says nothing: each is cut at its
    deadline (1 s here, ``--header-timeout``/``--body-timeout``), however often a byte arrives."""
    errors = tmp_path / "stderr.txt"
    args = ("--header-timeout", "1", "--body-timeout", "1")
    with ServerProcess(tmp_path / "data", *args, stderr=errors) as server:
        host = server.url.split("//")[1]
        answer = trickle(server, f"GET /api HTTP/1.1\r\nHost: {host}\r\n".encode(), b"X-Slow: 1\r\n")
        assert answer.startswith(b"HTTP/1.1 408"), answer
        head = f"POST /api/tables HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
        answer = trickle(server, head.encode() + b"Content-Length: 500\r\n\r\n", b" ")
        assert answer.startswith(b"HTTP/1.1 408"), answer
        answer = trickle(server, b"", b"")  # nothing at all: closed without a word
        assert answer == b""
        socket_ = Client(server.ws)  # a WebSocket outlives both deadlines: it is no HTTP request once upgraded
        socket_.send({"type": "view"})
        assert socket_.recv()["code"] == "hello_first"
        time.sleep(3)  # three times the deadlines: a WebSocket cut by them would be closed by now
        socket_.send({"type": "view"})
        assert socket_.recv()["code"] == "hello_first"
        socket_.close()
        status, _ = server.get("/api")  # and the server answers everyone else as ever
        assert status == 200
    assert "Traceback" not in errors.read_text()


async def asgi_post(app: Any, path: str, body: object) -> tuple[int, Any]:
    """A POST through the application itself (no server), as uvicorn would hand it one."""
    scope = {"type": "http", "method": "POST", "path": path, "raw_path": path.encode(), "query_string": b"",
             "headers": [(b"content-type", b"application/json"), (b"host", b"test")], "client": ("127.0.0.1", 1),
             "server": ("test", 80), "scheme": "http", "http_version": "1.1", "root_path": "",
             "asgi": {"version": "3.0"}}  # fmt: skip
    inbox = [{"type": "http.request", "body": json.dumps(body).encode(), "more_body": False}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return inbox.pop(0) if inbox else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    return sent[0]["status"], json.loads(b"".join(m.get("body", b"") for m in sent[1:]))


@pytest.mark.rule("PROTO-17")
def test_while_the_bots_are_busy_no_new_table_against_a_searching_bot_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two moves in flight fill a pool of one worker and one queued move: a table against ``expert`` is refused
    (``bots_busy``), one against the heuristic bot is made; once the moves are answered, ``expert`` is taken."""
    release = threading.Event()
    chosen = botwork.choose
    monkeypatch.setattr(botwork, "choose", lambda move: (release.wait(30), chosen(move))[1])

    async def run() -> None:
        app = make_app(SQLiteStore(tmp_path), Settings(bot_workers=0, bot_queue=1, table_rate=0))
        hub, thinking = app.state.hub, app.state.bots
        hub.start()
        move = hub_move(hub)
        thinking_tasks = [asyncio.create_task(thinking.choose(move)) for _ in range(2)]
        while thinking.in_flight < 2:
            await asyncio.sleep(0.01)
        expert = {"seats": [TWO[0], {"player": "bot", "bot": "expert"}], "bot_delay": 0}
        status, answer = await asgi_post(app, "/api/tables", expert)
        assert status == 429 and answer["error"]["code"] == "bots_busy" and answer["error"]["rule"] == "PROTO-17"
        for light in ("heuristic", "hard"):  # neither searches (hard is the heuristic's moves: a budget of 0)
            status, _ = await asgi_post(app, "/api/tables", {"seats": [TWO[0], {"player": "bot", "bot": light}]})
            assert status == 201, light
        release.set()
        await asyncio.gather(*thinking_tasks)
        status, _ = await asgi_post(app, "/api/tables", expert)
        assert status == 201
        await hub.stop()

    asyncio.run(asyncio.wait_for(run(), 60))


def hub_move(hub: Hub) -> botwork.BotMove:
    """A bot's move to ask: the first seat's of a game dealt here."""
    from engine.match import Match
    from engine.rules import RuleSet

    match = Match.new(RuleSet.preset("standard"), seed=1)
    seat = match.to_act
    assert seat is not None
    return botwork.BotMove("heuristic", 1, match.seat_observation(seat), tuple(match.legal_actions()))


def children(pid: int) -> list[int]:
    """The live processes ``pid`` started (Linux's /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid and fields[0] != "Z":
                    out.append(int(entry.name))
    return out


@pytest.mark.rule("PROTO-17", "PROTO-14")
def test_the_bots_think_in_worker_processes_that_end_with_a_killed_server(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "data", "--bot-delay", "0", "--bot-workers", "1") as server:
        made = server.table({"seats": [{"player": "bot", "bot": "expert"}, {"player": "bot", "bot": "heuristic"}]})
        deadline = time.monotonic() + 60
        while not (workers := children(server.pid)):
            assert time.monotonic() < deadline, "no bot worker started"
            time.sleep(0.1)
        while json.loads(server.get(f"/api/tables/{made['table']}")[1])["record"] < 10:  # the bots play on
            assert time.monotonic() < deadline, "the bots did not move"
            time.sleep(0.1)
        server.kill()
    deadline = time.monotonic() + 60
    while any(_alive(w) for w in workers):
        assert time.monotonic() < deadline, f"bot workers outlived the killed server: {workers}"
        time.sleep(0.2)


def _alive(pid: int) -> bool:
    with contextlib.suppress(OSError, IndexError):
        return (Path(f"/proc/{pid}") / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    return False


def post_from(server: ServerProcess, source: str, body: object) -> tuple[int, Any]:
    """``POST /api/tables`` from the local address ``source`` (127.0.0.0/8 is all this machine's)."""
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60, source_address=(source, 0))
    conn.request("POST", "/api/tables", json.dumps(body), {"content-type": "application/json"})
    answer = conn.getresponse()
    data = json.loads(answer.read())
    conn.close()
    return answer.status, data


@pytest.mark.rule("PROTO-17", "PROTO-44")
def test_one_address_holds_a_bounded_number_of_open_tables(tmp_path: Path) -> None:
    """An address that makes tables and leaves them holds a few at most, however fast its rate allows, so that it
    cannot fill the server's tables alone; another address is served."""
    args = ("--address-tables", "2", "--table-rate", "0", "--abandon-after", "3600")
    with ServerProcess(tmp_path / "data", *args) as server:
        assert [post_from(server, "127.0.0.7", {"seats": TWO})[0] for _ in range(2)] == [201, 201]
        status, answer = post_from(server, "127.0.0.7", {"seats": TWO})
        assert status == 429 and answer["error"]["code"] == "too_many_tables" and answer["error"]["rule"] == "PROTO-17"
        assert "one address" in answer["error"]["message"]
        assert post_from(server, "127.0.0.8", {"seats": TWO})[0] == 201


@pytest.mark.rule("PROTO-44", "END-6", "PROTO-37")
def test_a_fair_table_nobody_joins_is_dealt_from_supplied_seeds_then_abandoned(tmp_path: Path) -> None:
    async def run() -> None:
        hub = hub_at(tmp_path, 0.05)
        table, _ = await hub.create(table_spec({"seed": 5, "seats": TWO, "fair": True}, bot_delay=0))
        assert hub.tables[table].game is None  # waiting for the first hand's seeds, with nobody to send them
        await over(hub, table)
        data = hub.store.log(table)
        verdict = judge(data)
        assert verdict.kind == "pass" and verdict.winner is None and LogReader(data).header.fair
        await hub.stop()

    asyncio.run(asyncio.wait_for(run(), 60))
