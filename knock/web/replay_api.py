"""Replay mode's endpoint: ``POST /api/replay`` takes a log's bytes and answers its transcript. Rules: LOG-13, LOG-6.

The browser never decodes a log: it sends the bytes (a ``.knock`` file it was given, or a stored game's
``/api/tables/ID/log``) and draws the transcript ``knock.web.transcript`` makes — the verdict, the digest and
every record from every perspective. A log is at most ``MAX_LOG`` bytes, and a few are replayed at once, each in
a worker thread, so that replays never stall the tables.
"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from knock.web.transcript import transcript

#: The largest log the endpoint replays (a game to 100 is a few kilobytes).
MAX_LOG = 1 << 20
#: Replays at once; others wait their turn.
RUNNING = 2


def _error(status: int, code: str, message: str, rule: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, "rule": rule}}, status_code=status)


def routes() -> list[Route]:
    """The routes ``knock.web.app`` includes (one set per application: its own limit on replays at once)."""
    running = asyncio.Semaphore(RUNNING)

    async def endpoint(request: Request) -> Response:
        return await replay(request, running)

    return [Route("/api/replay", endpoint, methods=["POST"])]


async def replay(request: Request, running: asyncio.Semaphore) -> Response:
    """A log's transcript: its verdict, digest and every record drawn from every perspective (LOG-13)."""
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > MAX_LOG):
        return _error(413, "too_big", f"a log to replay is at most {MAX_LOG} bytes", "PROTO-11")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_LOG:
            return _error(413, "too_big", f"a log to replay is at most {MAX_LOG} bytes", "PROTO-11")
    name = request.query_params.get("name", "")[:200]
    async with running:
        t = await asyncio.to_thread(transcript, bytes(data), name=name)
    return JSONResponse(t)
