"""Replay mode's endpoint: ``POST /api/replay`` takes a log's bytes and answers a page of its transcript.

Rules: LOG-13, LOG-6, PROTO-16, PROTO-17, PROTO-18. The browser never decodes a log: it sends the bytes (a
``.knock`` file it was given, or a stored game's ``/api/tables/ID/log``) and draws the page
``knock.web.transcript`` makes — the verdict, the digest and ``count`` records from one perspective. A log is at
most ``MAX_LOG`` bytes, a page at most ``MAX_PAGE`` records; one log is replayed at a time, in a worker thread so
that replays never stall the tables, and a few more wait their turn (beyond them: 429). The work of a request
is bounded whatever its bytes: one strict replay of at most ``MAX_LOG`` bytes, ``MAX_PAGE`` views.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from knock.web.guard import HttpRefusal, RateLimit, media_type, read_body, remote
from knock.web.transcript import FIRST, transcript

#: The largest log the endpoint replays (a game to 100 is a few kilobytes; this is 30 times the longest golden log).
MAX_LOG = 112 << 10
#: The records of a page: by default, and at most.
PAGE, MAX_PAGE = 200, 500
#: Replays at once, replays waiting their turn at most, and of them all, one address's at most.
RUNNING, WAITING, PER_ADDRESS = 1, 8, 2
#: The content types a log is sent as.
LOG_TYPES = ("application/x-knock-log", "application/octet-stream")


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:  # pragma: no cover - no C library to load
        return None


_LIBC = _libc()


def give_back() -> None:
    """Return the memory a replay freed to the system (glibc's ``malloc_trim``; elsewhere nothing), so that a
    replay leaves the server's resident memory where it was (PROTO-18)."""
    trim = getattr(_LIBC, "malloc_trim", None)
    if trim is not None:
        trim(0)


def routes(per_minute: int = 20) -> list[Route]:
    """The routes ``knock.web.app`` includes (one set per application: its own replays at once and rate limit)."""
    running = asyncio.Semaphore(RUNNING)
    limit = RateLimit(per_minute)
    waiting = [0]

    held: dict[str, int] = {}  #: each address's replays running or waiting

    async def endpoint(request: Request) -> Response:
        address = remote(request)
        try:
            limit.take(address, "replays")
            if held.get(address, 0) >= PER_ADDRESS:
                raise HttpRefusal(429, "busy", f"one address replays {PER_ADDRESS} logs at once at most: wait for "
                                  "yours", "PROTO-17", retry_after=2)  # fmt: skip
            if waiting[0] >= RUNNING + WAITING:
                raise HttpRefusal(429, "busy", "the server is replaying other logs: try again", "PROTO-17",
                                  retry_after=2)  # fmt: skip
            waiting[0] += 1
            held[address] = held.get(address, 0) + 1
            try:
                return await replay(request, running)
            finally:
                waiting[0] -= 1
                held[address] -= 1
                if not held[address]:
                    del held[address]
        except HttpRefusal as refusal:
            return refusal.response()

    return [Route("/api/replay", endpoint, methods=["POST"])]


def _number(request: Request, name: str, low: int, high: int) -> int | None:
    text = request.query_params.get(name)
    if text is None:
        return None
    if not text.isdigit() or not low <= int(text) <= high:
        raise HttpRefusal(400, "bad_query", f"{name!r} is a whole number {low} .. {high}", "PROTO-18")
    return int(text)


async def replay(request: Request, running: asyncio.Semaphore) -> Response:
    """A page of a log's transcript: its verdict, digest and the records asked for (PROTO-18, LOG-13).

    Raises:
        HttpRefusal: a content type that is not a log's, a body over ``MAX_LOG``, a bad query.
    """
    if media_type(request) not in LOG_TYPES:
        raise HttpRefusal(415, "bad_content_type", f"a log is sent as {LOG_TYPES[0]}", "PROTO-16")
    start = _number(request, "start", 0, MAX_LOG * 8)
    count = _number(request, "count", 1, MAX_PAGE) or PAGE
    perspective = request.query_params.get("perspective", FIRST)[:40]
    name = request.query_params.get("name", "")[:200]
    data = await read_body(request, MAX_LOG)
    async with running:
        t = await asyncio.to_thread(transcript, data, name=name, perspective=perspective, start=start, count=count)
        body = JSONResponse(t)
        del t
        await asyncio.to_thread(give_back)
    return body
