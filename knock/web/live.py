"""What the hub keeps of each table and connection: ``Live`` and ``Connection`` (see ``knock.web.hub``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from knock.web.fairtable import Seeding
from knock.web.protocol import Message, ProtocolError
from knock.web.tables import Key, ServerTable, TableSpec

#: Frames a connection may have waiting to be sent before it is dropped as too slow to follow.
OUTBOX_LIMIT = 1000


class Connection:
    """One client at a table: where its frames go. ``send`` never waits (frames queue for the sender)."""

    def __init__(self, send: Callable[[Message], None], close: Callable[[int, ProtocolError], None]) -> None:
        self.send = send
        self.close = close
        self.table: str | None = None
        self.key: Key = None
        self.seat: int | None = None  #: the seat it plays (None: a spectator, or not joined yet)


@dataclass(eq=False)
class Live:
    """A table in the hub: its game (None once over and loaded from the store, or failed), its summary and
    its connections."""

    id: str
    table: ServerTable | None
    summary: dict[str, Any]
    failed: str = ""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: dict[Key, set[Connection]] = field(default_factory=dict)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    turn: tuple[int, int | None, int] | None = None  #: the turn the timer runs for (hand, seat, hand events)
    deadline: float = 0.0  #: when that turn's timer runs out (``time.monotonic``): what ``turn_left`` tells
    #: At a fair table, the hand whose seeds are being gathered (PROTO-36); before the first deal ``table`` is
    #: None and ``spec`` is the table's.
    seeding: Seeding | None = None
    spec: TableSpec | None = None
