"""``knock serve``'s ASGI application: the HTTP API, the WebSocket of each seat, the static client.

Rules: PROTO-2, PROTO-3, PROTO-4, PROTO-10, PROTO-11, PROTO-16, PROTO-17, PROTO-19, PROTO-23 (the routes: the API
under ``/api``, the WebSocket at ``/ws``, the client's files). Starlette (routing,
WebSockets, static files) on uvicorn: a small toolkit is all a table server needs, and it keeps the extra light
(FastAPI would add pydantic and an OpenAPI layer this API has no use for). The application holds no game
logic: the hub does.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import gc
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine.rules import PRESETS, RuleSet
from knock.web import protocol, replay_api
from knock.web.botwork import SEARCHING, Bounded, ProcessBots, ThreadBots
from knock.web.guard import HttpRefusal, RateLimit, SecurityHeaders, SocketCount, read_json, remote
from knock.web.hub import Hub
from knock.web.protocol import Message, ProtocolError
from knock.web.store import Store
from knock.web.table import OUTBOX_LIMIT, Connection
from knock.web.tablespec import SpecError, TableSpec, table_spec
from replay.signing import SigningKey

STATIC = Path(__file__).resolve().parent / "static"


@dataclasses.dataclass(frozen=True, slots=True)
class Settings:
    """How the server runs: its allowed origins (besides its own) and the bots' default pace."""

    allow_origins: tuple[str, ...] = ()
    bot_delay: float = 0.5
    banner: str = ""  #: printed once the stored tables are rebuilt and the server is ready (with their count)
    table_rate: int = 10  #: tables one remote address may create a minute (0: no limit), PROTO-17
    max_tables: int = 200  #: tables not over at once
    max_bot_tables: int = 20  #: of them, tables with no human seat
    replay_rate: int = 20  #: replays one remote address may ask for a minute (0: no limit)
    key: SigningKey | None = None  #: signs every new game's log and every view sent (LOG-17, LOG-18)
    digests: Path | None = None  #: each finished game's trailer digest is appended to this file (LOG-19)
    fair: bool = False  #: tables deal fairly unless asked not to (``knock serve --fair``, PROTO-35)
    away_grace: float = 15.0  #: seconds a seat may be without a connection before it is recorded away (PROTO-43)
    abandon_after: float = 600.0  #: seconds a table may go without any person before it is abandoned (PROTO-44)
    max_sockets: int = 32  #: WebSockets open at once from one address (0: any), PROTO-17
    address_tables: int = 20  #: tables not over that one address made since the server started (0: any), PROTO-17
    bot_workers: int = 0  #: processes the bots think in (0: a worker thread of the server's), PROTO-17
    bot_queue: int = 32  #: bots' moves waiting beyond the workers before new searching tables are refused (0: any)


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str], scheme: str = "http") -> bool:
    """A browser's request is accepted from the server's own origin — the same scheme, host and port as the request
    (``scheme`` the request's: ``http`` or ``https``, a WebSocket's ``ws`` or ``wss`` counting as these) — or an
    allowed one; a request without ``Origin`` is not a browser's. Rule: PROTO-4.

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ()), origin_allowed("http://evil.test", "a:1", ())
    (True, False)
    >>> origin_allowed("https://127.0.0.1:8000", "127.0.0.1:8000", (), "ws"), origin_allowed("http://a", "a:80", ())
    (False, True)
    """
    if origin is None:
        return True
    if "*" in allowed or origin in allowed:
        return True
    if host is None:
        return False
    own = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    try:
        sent, here = urlsplit(origin), urlsplit(f"{own}://{host}")
        return (sent.scheme, sent.hostname, _port(sent)) == (here.scheme, here.hostname, _port(here))
    except ValueError:  # a port that is no number, or out of range
        return False


def _port(url: SplitResult) -> int | None:
    return url.port if url.port is not None else {"http": 80, "https": 443}.get(url.scheme)


def _error(status: int, code: str, message: str, rule: str = "PROTO-2") -> JSONResponse:
    return HttpRefusal(status, code, message, rule).response()


#: ``GET /api/tables``'s page: its tables by default, and at most (PROTO-17).
LIST_PAGE, LIST_MAX = 50, 200


def make_app(store: Store, settings: Settings | None = None) -> Starlette:
    """The application over ``store``: its tables are rebuilt at start-up (PROTO-13)."""
    conf = settings or Settings()
    runner = ProcessBots(conf.bot_workers) if conf.bot_workers else ThreadBots()
    bound = max(conf.bot_workers, 1) + conf.bot_queue if conf.bot_queue else 0
    thinking = Bounded(runner, bound)
    hub = Hub(store, bot_delay=conf.bot_delay, key=conf.key, digests=conf.digests, bots=thinking)
    hub.house.grace, hub.house.abandon_after = conf.away_grace, conf.abandon_after

    def allowed(request: Request | WebSocket) -> bool:
        headers = request.headers
        return origin_allowed(headers.get("origin"), headers.get("host"), conf.allow_origins, request.url.scheme)

    async def info(request: Request) -> Response:
        defaults = RuleSet().to_dict()
        return JSONResponse({
            "protocol": list(protocol.PROTOCOL), "server": protocol.SERVER, "bots": list(protocol.TABLE_BOTS),
            "presets": {name: rules.to_dict() for name, rules in PRESETS.items()},
            "options": {k: _option(k, v) for k, v in defaults.items() if k != "name"},
        })  # fmt: skip

    creating = RateLimit(conf.table_rate)

    async def list_tables(request: Request) -> Response:
        """A page of the tables, the newest first (PROTO-2, PROTO-17)."""
        every = hub.summaries()
        start, count = request.query_params.get("start", "0"), request.query_params.get("count", str(LIST_PAGE))
        if not (start.isdigit() and count.isdigit() and 1 <= int(count) <= LIST_MAX and len(start) < 10):
            return _error(400, "bad_query", f"'start' is a whole number, 'count' 1 .. {LIST_MAX}", "PROTO-17")
        first, n = int(start), int(count)
        page = every[::-1][first : first + n]
        after = first + len(page)
        return JSONResponse({"tables": page, "start": first, "total": len(every),
                             "next": after if after < len(every) else None})  # fmt: skip

    made_by: dict[str, set[str]] = {}  #: the tables each address made since the server started (PROTO-17)

    def capacity(spec: TableSpec) -> None:
        """Room for one more table (PROTO-17).

        Raises:
            HttpRefusal: as many tables not over as the server keeps, or bot-only ones.
        """
        playing = [t.game for t in hub.tables.values() if t.game is not None and not t.game.over]
        waiting = sum(t.game is None and t.seeding is not None for t in hub.tables.values())  # PROTO-36
        if conf.max_tables and len(playing) + waiting >= conf.max_tables:
            raise HttpRefusal(429, "too_many_tables", f"the server plays {conf.max_tables} tables at most: try "
                              "again once one is over", "PROTO-17", retry_after=60)  # fmt: skip
        if thinking.busy and any(s.bot in SEARCHING for s in spec.seats):
            raise HttpRefusal(429, "bots_busy", f"the server's bots have {thinking.in_flight} moves to think over: try "
                              "again soon, or play the heuristic bot, which needs no search", "PROTO-17",
                              retry_after=10)  # fmt: skip
        if conf.max_bot_tables and all(s.player == "bot" for s in spec.seats):
            bot_tables = sum(all(s.player == "bot" for s in t.spec.seats) for t in playing)
            if bot_tables >= conf.max_bot_tables:
                raise HttpRefusal(429, "too_many_bot_tables", f"the server plays {conf.max_bot_tables} tables "
                                  "with no human seat at most", "PROTO-17", retry_after=60)  # fmt: skip

    async def create_table(request: Request) -> Response:
        if not allowed(request):
            return _error(403, "origin", "requests from this origin are refused", "PROTO-4")
        try:
            body = await read_json(request, protocol.MAX_MESSAGE)
            try:
                spec = table_spec(body, bot_delay=conf.bot_delay, fair=conf.fair)
            except ValueError as err:  # SpecError, or a rule set's own error: each names its rule
                rule = err.rule if isinstance(err, SpecError) else getattr(err, "rule", "PROTO-2")
                return _error(400, "bad_table", err.message if isinstance(err, SpecError) else str(err), rule)
            capacity(spec)
            address = remote(request)
            made = made_by.setdefault(address, set())
            made.intersection_update(t for t in made if t in hub.tables and not hub.tables[t].over)
            if conf.address_tables and len(made) >= conf.address_tables:
                raise HttpRefusal(429, "too_many_tables", f"one address has {conf.address_tables} tables not over at "
                                  "most: finish or leave one (a table nobody attends is abandoned)", "PROTO-17",
                                  retry_after=60)  # fmt: skip
            creating.take(address, "tables")
        except HttpRefusal as refusal:
            return refusal.response()
        table_id, tokens = await hub.create(spec)
        made.add(table_id)
        seats = [
            {"seat": i, "name": s.name, "player": s.player, "bot": s.bot, "token": tokens.get(i),
             "link": f"/#table={table_id}&seat={i}&token={tokens[i]}" if i in tokens else None}
            for i, s in enumerate(spec.seats)
        ]  # fmt: skip
        # a seed the server chose is never shown while the game runs: whoever knew it would know every card (PROTO-2)
        chosen = spec.seed if isinstance(body, dict) and body.get("seed") is not None else None
        return JSONResponse({"table": table_id, "seats": seats, "spectate": f"/#table={table_id}&spectate=1",
                             "seed": chosen}, status_code=201)  # fmt: skip

    async def one_table(request: Request) -> Response:
        table = hub.tables.get(request.path_params["table"])
        if table is None:
            return _error(404, "no_such_table", "no such table")
        return JSONResponse(table.summary)

    async def table_log(request: Request) -> Response:
        table_id = request.path_params["table"]
        if table_id not in hub.tables:
            return _error(404, "no_such_table", "no such table")
        auth = request.headers.get("authorization", "")
        if auth.startswith("Bearer "):  # a seat's own view of the log so far (LOG-11)
            held = hub.seat_of(auth[7:])
            if held is None or held[0] != table_id:
                return _error(403, "bad_token", "this token holds no seat at this table", "PROTO-3")
            view = await hub.seat_log(table_id, held[1])
            return Response(
                view,
                media_type="application/x-knock-log",
                headers={"content-disposition": f'attachment; filename="{table_id}-p{held[1]}.knock"'},
            )
        data = await hub.full_log(table_id)
        if data is None:
            return _error(409, "not_over", "the full log is offered when the game is over", "PROTO-10")
        return Response(data, media_type="application/x-knock-log",
                        headers={"content-disposition": f'attachment; filename="{table_id}.knock"'})  # fmt: skip

    sockets = SocketCount(conf.max_sockets)

    async def socket(ws: WebSocket) -> None:
        if not allowed(ws):
            await ws.close(code=protocol.CLOSE_POLICY)  # before accepting: the handshake is refused (403)
            return
        address = remote(ws)
        await ws.accept()
        if not sockets.take(address):  # told why, then closed (PROTO-17)
            err = ProtocolError("too_many_connections", f"at most {conf.max_sockets} connections at once from one "
                                "address: close one first", close=True, rule="PROTO-17")  # fmt: skip
            with contextlib.suppress(Exception):
                await ws.send_text(protocol.encode(protocol.error(err)))
                await ws.close(code=protocol.CLOSE_POLICY)
            return
        try:
            await _serve(hub, ws)
        finally:
            sockets.give(address)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await asyncio.to_thread(hub.start)
        hub.resume()
        gc.freeze()  # the rebuilt games are long-lived: keep the collector's full passes off them
        gc.set_threshold(20_000, 20, 20)  # and its passes rarer (games make many small objects that live long)
        if conf.banner:
            rebuilt = ", ".join(f"{t} {v}" for t, v in hub.recovered) or "none"
            print(f"{conf.banner}; {len(hub.tables)} tables stored, rebuilt: {rebuilt}", flush=True)
        yield
        await hub.stop()

    routes = [
        Route("/api", info),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table}", one_table),
        Route("/api/tables/{table}/log", table_log),
        WebSocketRoute("/ws", socket),
        *replay_api.routes(conf.replay_rate),  # POST /api/replay: a page of a log's transcript (replay mode)
        Mount("/static", StaticFiles(directory=STATIC)),
        Mount("/", StaticFiles(directory=STATIC, html=True)),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)],
                    exception_handlers={ClientDisconnect: gone})  # fmt: skip
    app.state.hub = hub
    app.state.bots = thinking
    return app


async def gone(request: Request, exc: Exception) -> Response:
    """A client that went away before its request's body ended: nothing to answer, and nothing wrong with the
    server (no traceback in its log). Rule: PROTO-11."""
    return Response(status_code=400, headers={"connection": "close"})


def _option(name: str, default: Any) -> dict[str, Any]:
    """An option's default and, for an enum, its values (``GET /api``)."""
    value = getattr(RuleSet(), name)
    choices = [m.value for m in type(value)] if isinstance(value, enum.Enum) else None
    return {"default": default, "choices": choices}


class _Bucket:
    """The flood limit: ``RATE`` messages a second, bursts of ``BURST``. Rule: PROTO-11."""

    def __init__(self) -> None:
        self.level = float(protocol.BURST)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.level = min(float(protocol.BURST), self.level + (now - self.at) * protocol.RATE)
        self.at = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


async def _serve(hub: Hub, ws: WebSocket) -> None:
    """One connection: its frames read, checked and answered; its outbox sent by a task of its own."""
    outbox: asyncio.Queue[Message | tuple[int, Message]] = asyncio.Queue()
    closing = asyncio.Event()

    def send(message: Message) -> None:
        if closing.is_set():
            return
        if outbox.qsize() >= OUTBOX_LIMIT:
            close(protocol.CLOSE_POLICY, ProtocolError("internal", "too slow to follow the table", close=True))
            return
        outbox.put_nowait(message)

    def close(code: int, err: ProtocolError) -> None:
        if not closing.is_set():
            outbox.put_nowait((code, protocol.error(err)))
            closing.set()

    async def sender() -> None:
        while True:
            item = await outbox.get()
            if isinstance(item, tuple):
                code, last = item
                with contextlib.suppress(Exception):
                    await ws.send_text(protocol.encode(last))
                    await ws.close(code=code)
                return
            await ws.send_text(protocol.encode(item))

    conn = Connection(send, close)
    task = asyncio.create_task(sender())
    bucket = _Bucket()
    bad = 0
    try:
        while not closing.is_set():
            receiving = asyncio.ensure_future(ws.receive())
            done, _ = await asyncio.wait({receiving, task}, return_when=asyncio.FIRST_COMPLETED)
            if receiving not in done:
                receiving.cancel()
                break
            frame = receiving.result()
            if frame["type"] == "websocket.disconnect":
                break
            if not bucket.take():
                close(protocol.CLOSE_POLICY, ProtocolError("rate_limited", f"more than {protocol.RATE:g} messages a "
                                                           "second", close=True))  # fmt: skip
                break
            text = frame.get("text")
            if text is None:
                close(protocol.CLOSE_BINARY, ProtocolError("binary_frame", "messages are text frames", close=True))
                break
            try:
                await _handle(hub, conn, text)
            except ProtocolError as err:
                if err.close:
                    close(protocol.CLOSE_POLICY, err)
                    break
                bad += 1
                if bad >= protocol.MAX_BAD:
                    close(protocol.CLOSE_POLICY, ProtocolError("too_many_errors", f"{bad} bad messages", close=True))
                    break
                send(protocol.error(err))
    except WebSocketDisconnect:
        pass
    finally:
        hub.leave(conn)
        closing.set()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, timeout=5)
        task.cancel()


async def _handle(hub: Hub, conn: Connection, text: str) -> None:
    """One message from a connection. Rules: PROTO-3, PROTO-7, PROTO-11."""
    message = protocol.decode(text, "knock serve")
    match message:
        case protocol.Hello():
            if conn.table is not None:
                raise ProtocolError("bad_message", "hello is sent once, first")
            await hub.join(conn, message)
        case _ if conn.table is None:
            raise ProtocolError("hello_first", "the first message is hello (with a token, or spectate: true)")
        case protocol.Act():
            await hub.act(conn, message)
        case protocol.ClaimRequest():
            await hub.claim(conn, message)
        case protocol.ViewRequest():
            hub.resend(conn)
        case protocol.Rematch():
            await hub.rematch(conn)
        case protocol.Commit():
            await hub.commit(conn, message)
        case protocol.Seed():
            await hub.seed(conn, message)
        case _:  # decode refuses the other transport's messages (PROTO-21)
            raise AssertionError(f"not a message of knock serve: {message!r}")
