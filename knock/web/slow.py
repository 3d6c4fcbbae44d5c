"""Slow clients cut where the bytes are read: ``knock serve``'s HTTP/1.1 protocol, uvicorn's h11 one with deadlines
for a request's header and its body. Rule: PROTO-16.

uvicorn closes a connection idle between requests (its keep-alive, 5 s) but has no deadline for a request that
arrives a byte at a time: a client sending a header line every few seconds, or a body a byte every few seconds,
holds its connection — and the server's memory and sockets — for ever, and an ASGI middleware runs too late to see
it (it is called once the header is whole). ``GuardedH11`` arms one timer per request, never moved by the bytes
that trickle in: ``HEADER_SECONDS`` from the connection's start (or the end of the last response) to the header's
end, then ``BODY_SECONDS`` to the body's end. A request that misses one is answered ``408`` and its connection
closed. A WebSocket, once upgraded, is no longer this protocol's: its pings keep it (PROTO-12).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("knock.web")

#: The seconds a client has to send a request's header, and then its body (PROTO-16).
HEADER_SECONDS, BODY_SECONDS = 10.0, 30.0


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's header and body (see the module's docstring)."""

    header_seconds = HEADER_SECONDS
    body_seconds = BODY_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting: str | None = None  #: what the deadline is for: "header", "body", or nothing
        self._upgraded = False  #: the connection is a WebSocket's now: no deadline of this protocol's applies

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._watch()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._arm(None)
        super().connection_lost(exc)

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._upgraded = True  # the connection is the WebSocket's from here: its pings keep it (PROTO-12)
        self._arm(None)
        super().handle_websocket_upgrade(event)

    def _watch(self) -> None:
        """Arm the deadline for what the client owes now: a header, a body, or nothing (its request is whole, or the
        connection is a WebSocket's)."""
        if self._upgraded:
            return
        state = self.conn.their_state
        owed = "header" if state is h11.IDLE else "body" if state is h11.SEND_BODY else None
        if owed != self._waiting:
            self._arm(owed)

    def _arm(self, owed: str | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self._waiting = owed
        if owed is not None and not self.transport.is_closing():
            seconds = self.header_seconds if owed == "header" else self.body_seconds
            self._deadline = self.loop.call_later(seconds, self._expired, owed)

    def _expired(self, owed: str) -> None:
        """The client missed its deadline: ``408`` if nothing of a response was sent yet, then the connection
        closed (a client that sent nothing at all is closed without a word)."""
        self._deadline = None
        if self.transport.is_closing():
            return
        started = owed == "body" or self.conn.their_state is not h11.IDLE or bool(self.conn.trailing_data[0])
        if started and self.conn.our_state in (h11.IDLE, h11.SEND_RESPONSE):
            with contextlib.suppress(h11.LocalProtocolError):
                body = f"the request's {owed} did not arrive in time".encode()
                headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close"),
                           (b"content-length", str(len(body)).encode())]  # fmt: skip
                self.transport.write(self.conn.send(h11.Response(status_code=408, headers=headers, reason=b"")))
                self.transport.write(self.conn.send(h11.Data(data=body)) or b"")
                self.transport.write(self.conn.send(h11.EndOfMessage()) or b"")
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # an app still reading the body sees the client gone
            self.cycle.message_event.set()
        self.transport.close()
