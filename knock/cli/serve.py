"""The table server and the headless engine: ``knock serve`` and ``knock engine`` (spec/protocol.md)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Annotated

import typer

from knock.cli.common import app, signing_key
from replay.signing import signing_backend


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="The port (0: any free one, printed).")] = 8000,
    data: Annotated[Path, typer.Option(metavar="DIR", help="The folder of the event store (its SQLite file).")] = Path(
        "knock-data"
    ),
    synchronous: Annotated[
        str, typer.Option(help="SQLite synchronous: full (survives power loss) or normal (survives a killed process).")
    ] = "full",
    allow_origin: Annotated[
        list[str] | None, typer.Option(help="A browser origin allowed besides the server's own (repeatable; *: any).")
    ] = None,
    bot_delay: Annotated[float, typer.Option(min=0, max=10, help="Seconds a bot waits before it moves.")] = 0.5,
    table_rate: Annotated[int, typer.Option(min=0, help="Tables one address may create a minute (0: any).")] = 10,
    max_tables: Annotated[int, typer.Option(min=0, help="Tables not over at once (0: any).")] = 200,
    max_bot_tables: Annotated[int, typer.Option(min=0, help="Of them, tables with no human seat (0: any).")] = 20,
    address_tables: Annotated[
        int, typer.Option(min=0, help="Of them, tables one address made and not over (0: any).")
    ] = 20,
    replay_rate: Annotated[int, typer.Option(min=0, help="Replays one address may ask for a minute (0: any).")] = 20,
    max_sockets: Annotated[
        int, typer.Option(min=0, help="WebSockets one address may hold open at once (0: any).")
    ] = 32,
    bot_workers: Annotated[
        int,
        typer.Option(
            min=0,
            max=64,
            help="Processes the bots think in (0: a worker thread of the server's own process, which the search "
            "bots then share with every table).",
        ),
    ] = 2,
    bot_queue: Annotated[
        int,
        typer.Option(
            min=0,
            help="Bots' moves that may wait for a worker before new tables against the search bots are refused "
            "(429 bots_busy; 0: any).",
        ),
    ] = 32,
    header_timeout: Annotated[
        float, typer.Option(min=0.1, max=600, help="Seconds a client has to send a request's header (then 408).")
    ] = 10.0,
    body_timeout: Annotated[
        float, typer.Option(min=0.1, max=3600, help="Seconds a client has, after its header, to send the body.")
    ] = 30.0,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="A proxy in front of the server (repeatable): only its X-Forwarded-For is read for the client's "
            "address, which every per-address limit counts (PROTO-17). Without one, no such header is read."
        ),
    ] = None,
    key: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Sign every new game's log and every seat's view with this secret key "
            "file (knock keygen; LOG-17, LOG-18).",
        ),
    ] = None,
    digests: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Append each finished game's trailer digest to this file, one line "
            "'HEX  TABLE' a game (knock verify --digests reads it; LOG-19).",
        ),
    ] = None,
    fair: Annotated[
        bool,
        typer.Option(
            "--fair",
            help='Deal every table fairly unless its request says "fair": false: each deck from the server\'s '
            "committed seed and every seat's seed (PROTO-35, DEAL-5).",
        ),
    ] = False,
    away_grace: Annotated[
        float,
        typer.Option(
            min=0,
            max=3600,
            help="Seconds a person may be without a connection before the table records the seat away, which "
            "opens a claim against it after the table's claim_after (PROTO-43).",
        ),
    ] = 15.0,
    abandon_after: Annotated[
        float,
        typer.Option(
            min=1,
            max=86_400 * 30,
            help="Seconds a table with human seats may go with none of its people connected (from its making, a "
            "restart or the last one leaving) before its game is abandoned: no winner, no longer counted against "
            "--max-tables (PROTO-44, END-6).",
        ),
    ] = 600.0,
) -> None:
    """Serve Knock tables: an HTTP API, a WebSocket per seat, the web client; every game stored in SQLite.

    Games not over are rebuilt from their logs at start (a signed one needs the same --key).

    Exit status: 0 stopped (Ctrl-C or SIGTERM: every acknowledged action is stored); 1 the web extra is missing;
    2 a usage error (the port taken included).

    Example: knock serve --port 8000 --data games/ --key keys/server --digests games/digests.txt --fair
    """
    signer = signing_key(key)
    try:
        import uvicorn

        from knock.web.app import Settings, make_app
        from knock.web.protocol import MAX_MESSAGE, PING_SECONDS
        from knock.web.slow import GuardedH11
        from knock.web.store import SQLiteStore
    except ImportError:  # pragma: no cover - the web extra is not installed
        sys.exit("knock serve needs the web extra: pip install 'knock-gin[web]'")
    if synchronous not in ("full", "normal"):
        raise typer.BadParameter("full or normal", param_hint="--synchronous")
    sock = socket.create_server((host, port), reuse_port=False)
    bound = sock.getsockname()[1]
    store = SQLiteStore(data, synchronous=synchronous)  # type: ignore[arg-type]
    banner = f"knock serve: listening on http://{host}:{bound} (data {data}, synchronous={synchronous.upper()})"
    if signer is not None:
        banner += f"; signing with {signer.public.hex()[:16]}… through {signing_backend()}"
    if fair:
        banner += "; fair dealing"
    settings = Settings(
        allow_origins=tuple(allow_origin or ()),
        bot_delay=bot_delay,
        banner=banner,
        table_rate=table_rate,
        max_tables=max_tables,
        max_bot_tables=max_bot_tables,
        replay_rate=replay_rate,
        key=signer,
        digests=digests,
        fair=fair,
        away_grace=away_grace,
        abandon_after=abandon_after,
        max_sockets=max_sockets,
        address_tables=address_tables,
        bot_workers=bot_workers,
        bot_queue=bot_queue,
    )
    config = uvicorn.Config(
        make_app(store, settings), ws="websockets-sansio", ws_max_size=MAX_MESSAGE, log_level="warning",
        ws_ping_interval=PING_SECONDS, ws_ping_timeout=PING_SECONDS,  # the keep-alive of PROTO-12
        lifespan="on", timeout_graceful_shutdown=1,
        # HTTP/1.1 with a deadline for each request's header and body, where the bytes are read (PROTO-16)
        http=type("Guarded", (GuardedH11,), {"header_seconds": header_timeout, "body_seconds": body_timeout}),
        # the client's address from a proxy's header only when the operator names the proxy (PROTO-17)
        proxy_headers=bool(trusted_proxy), forwarded_allow_ips=list(trusted_proxy or []),
    )  # fmt: skip
    uvicorn.Server(config).run(sockets=[sock])


@app.command()
def engine() -> None:
    """Play Knock headlessly over standard input and output: the table protocol's messages as JSON lines.

    Exit status: 0 at the end of its input or a quit message (a bad line is answered with an error, never an
    exit); 2 a usage error.

    Example: echo '{"type": "new", "protocol": [1, 0], "seats": [{"player": "bot"}, {"player": "bot"}]}' | knock engine
    """
    from knock.web.engine_io import run

    raise typer.Exit(run(sys.stdin, sys.stdout))
