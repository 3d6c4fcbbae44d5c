"""What stands between ``knock serve`` and a hostile HTTP client: bodies read within their limit, JSON parsed
with bounded nesting and finite numbers, rate limits per remote address, the headers of every response.

Rules: PROTO-16 (request bodies), PROTO-17 (limits), PROTO-19 (headers). Every refusal is an ``HttpRefusal``:
a 4xx status and a JSON error naming the rule, the same shape as every other error of the API (PROTO-2).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from knock.web.protocol import parse_json


class HttpRefusal(Exception):
    """A request refused: its status, error code, message and rule (PROTO-16, PROTO-17)."""

    def __init__(self, status: int, code: str, message: str, rule: str, *, retry_after: int | None = None) -> None:
        super().__init__(f"{rule}: {message}")
        self.status, self.code, self.message, self.rule, self.retry_after = status, code, message, rule, retry_after

    def response(self) -> JSONResponse:
        headers = {"retry-after": str(self.retry_after)} if self.retry_after is not None else {}
        if self.status == 413:
            headers["connection"] = "close"  # the rest of the body is not read: the connection ends with the answer
        body = {"error": {"code": self.code, "message": self.message, "rule": self.rule}}
        return JSONResponse(body, status_code=self.status, headers=headers)


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


async def read_body(request: Request, limit: int, rule: str = "PROTO-16") -> bytes:
    """The request's body, refused (413) as soon as it is known to pass ``limit`` bytes: by its announced
    ``Content-Length`` before a byte is read, or by the bytes received while they are read. Rule: PROTO-16.

    Raises:
        HttpRefusal: the body is too big.
    """
    too_big = HttpRefusal(413, "too_big", f"a request's body is at most {limit} bytes", rule)
    size = request.headers.get("content-length")
    if size is not None and (not size.isdigit() or int(size) > limit):
        await drain(request.stream())
        raise too_big
    data = bytearray()
    stream = request.stream()
    async for chunk in stream:
        data += chunk
        if len(data) > limit:
            await drain(stream)
            raise too_big
    return bytes(data)


#: What the server still reads, and drops, of a body it refuses before answering (at most this many bytes, for at
#: most this many seconds): a client that sends its whole body before it reads the answer then gets the answer,
#: where a socket closed with unread bytes makes the kernel reset the connection and lose it. Rule: PROTO-16.
DRAIN_BYTES, DRAIN_SECONDS = 1 << 20, 1.0


async def drain(stream: AsyncIterator[bytes]) -> None:
    """Read and drop the rest of a refused body, within ``DRAIN_BYTES`` and ``DRAIN_SECONDS`` (a larger or slower
    one is cut: the connection closes with the answer, ``connection: close``)."""

    async def rest() -> None:
        read = 0
        async for chunk in stream:
            read += len(chunk)
            if read > DRAIN_BYTES:
                return

    with contextlib.suppress(Exception):  # a client gone, a stream already read: nothing more to drop
        await asyncio.wait_for(rest(), DRAIN_SECONDS)


async def read_json(request: Request, limit: int) -> Any:
    """A JSON body (``application/json``) within ``limit`` bytes. Rule: PROTO-16.

    Raises:
        HttpRefusal: another content type (415), too big (413), not JSON as ``parse_json`` reads it (400).
    """
    if media_type(request) != "application/json":
        raise HttpRefusal(415, "bad_content_type", "the body is JSON: Content-Type: application/json", "PROTO-16")
    body = await read_body(request, limit)
    try:
        return parse_json(body)
    except UnicodeDecodeError:
        raise HttpRefusal(400, "bad_json", "the body is not UTF-8 text", "PROTO-16") from None
    except ValueError as err:
        raise HttpRefusal(400, "bad_json", f"not JSON: {str(err)[:120]}", "PROTO-16") from None


class RateLimit:
    """At most ``per_minute`` requests a minute from each remote address (a token bucket refilled evenly, as full
    as a minute's worth), the addresses kept at most ``KEEP`` (the oldest forgotten). 0: no limit. Rule: PROTO-17.
    """

    KEEP = 10_000

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, address: str, what: str) -> None:
        """Count one request from ``address``.

        Raises:
            HttpRefusal: 429, with the seconds until one more would be taken.
        """
        if self.per_minute <= 0:
            return
        now = time.monotonic()
        rate = self.per_minute / 60.0
        level, at = self._buckets.pop(address, (float(self.per_minute), now))
        level = min(float(self.per_minute), level + (now - at) * rate)
        if level < 1.0:
            self._buckets[address] = (level, now)
            wait = math.ceil((1.0 - level) / rate)
            raise HttpRefusal(429, "rate_limited", f"at most {self.per_minute} {what} a minute from one address",
                              "PROTO-17", retry_after=wait)  # fmt: skip
        self._buckets[address] = (level - 1.0, now)
        while len(self._buckets) > self.KEEP:
            self._buckets.popitem(last=False)


def remote(request: Request | WebSocket) -> str:
    """The address a request's limits count against (PROTO-17): its peer's (a trusted proxy's header's, when the
    operator names the proxy: ``knock serve --trusted-proxy``), an IPv6 address by its /64 — the block one host or
    one customer is given, so that its 2⁶⁴ addresses are one.

    >>> from types import SimpleNamespace as S
    >>> remote(S(client=S(host="2001:db8:1:2:aaaa::1"))), remote(S(client=S(host="192.0.2.7"))), remote(S(client=None))
    ('2001:db8:1:2::/64', '192.0.2.7', '')
    """
    host = request.client.host if request.client is not None else ""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # a name, or nothing: counted as it is
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # an IPv4 peer on a dual-stack socket
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class SocketCount:
    """The WebSockets open from each address (``remote``): at most ``most`` at once (0: any). Rule: PROTO-17."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.open: dict[str, int] = {}

    def take(self, address: str) -> bool:
        """Count one more socket from ``address``, if there is room (False: none, nothing counted)."""
        held = self.open.get(address, 0)
        if self.most and held >= self.most:
            return False
        self.open[address] = held + 1
        return True

    def give(self, address: str) -> None:
        held = self.open.get(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.open.pop(address, None)


#: The client's page loads its own script, style sheet and socket, nothing else, and no one may frame it.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")  # fmt: skip
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """ASGI middleware: the headers of PROTO-19 added to every HTTP response (the API's, the client's files,
    the errors')."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in HEADERS if h[0] not in names)]
            await send(message)

        await self.app(scope, receive, sending)
