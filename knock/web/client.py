"""A client of the table protocol: a seat's choice from its view alone, and a small WebSocket client.

``choose`` plays a seat from the frames it is sent, as any program over the wire would: from its view's cards,
the discard pile's top and its legal actions (the greedy bot's plan: keep deadwood low, knock when it may, lay
off for the least deadwood). ``Client`` is a blocking WebSocket client for the tests and tools
(``tools/leak_web.py``, ``tools/load_web.py``); it needs the ``web`` extra.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from engine.actions import LayOff, Spread, parse_match_action
from engine.cards import Card, to_mask
from engine.melds import deadwood, knock_deadwood, value
from knock.web.protocol import PROTOCOL, Message


def choose(frame: Message, rng: random.Random | None = None, *, advise: float = 0.0) -> str | None:
    """The action a seat sends for a ``view`` frame, or None when it has nothing to do.

    A sitter with ``advise`` > 0 gives advice that often (drawn from ``rng``): its first option.
    """
    legal: list[str] = frame["legal"]
    if not legal:
        return None
    v = frame["view"]
    if legal[0].startswith("advise"):
        return legal[0] if rng is not None and rng.random() < advise else None
    mask = to_mask(Card.parse(c) for c in v["cards"])
    first = legal[0]
    if first in ("pass", "draw") and len(legal) > 1 and v["discard_top"] is not None:
        top = Card.parse(v["discard_top"])
        take = next(a for a in legal if a in ("take", "pickup"))
        return take if knock_deadwood(mask | top.bit) < deadwood(mask) - 1 else first
    if first.startswith(("spread", "layoff")):
        return min(legal, key=lambda a: _left(a, mask))
    if "pickup" in legal and "decline" in legal:
        return "pickup"
    knocks = [a for a in legal if a.startswith("knock ")]
    if knocks:
        return min(knocks, key=lambda a: deadwood(mask ^ Card.parse(a.split()[1]).bit))
    discards = [a for a in legal if a.startswith("discard ")]
    if discards:
        return min(discards, key=lambda a: (deadwood(mask ^ Card.parse(a.split()[1]).bit), -Card.parse(a[8:]).value))
    return first


def _left(text: str, mask: int) -> int:
    """The deadwood a spread or a defence leaves (its unmelded cards' value)."""
    action = parse_match_action(text, 0)
    used = 0
    if isinstance(action, Spread | LayOff):
        for m in action.melds:
            used |= m.mask
    if isinstance(action, LayOff):
        for lo in action.layoffs:
            used |= lo.card.bit
    return value(mask & ~used)


class Client:
    """One blocking WebSocket connection to ``knock serve`` (the ``web`` extra's ``websockets``)."""

    def __init__(self, url: str, *, origin: str | None = None, timeout: float = 10.0) -> None:
        from websockets.sync.client import connect

        headers = {"Origin": origin} if origin is not None else None
        self.ws = connect(url, additional_headers=headers, open_timeout=timeout, max_size=None)
        self.timeout = timeout
        self.frames: list[Message] = []  #: every frame received, in order

    def send(self, message: Message | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float | None = None) -> Message:
        frame: Message = json.loads(self.ws.recv(timeout=self.timeout if timeout is None else timeout))
        self.frames.append(frame)
        return frame

    def until(self, kind: str, timeout: float | None = None) -> Message:
        """Frames up to the first of type ``kind`` (returned)."""
        while True:
            frame = self.recv(timeout)
            if frame["type"] == kind:
                return frame

    def hello(self, table: str, token: str | None = None) -> Message:
        msg: dict[str, Any] = {"type": "hello", "protocol": list(PROTOCOL), "table": table}
        msg.update({"token": token} if token is not None else {"spectate": True})
        self.send(msg)
        return self.recv()

    def close(self) -> None:
        self.ws.close()


def play_seat(client: Client, rng: random.Random, *, advise: float = 0.0, limit: int = 100_000) -> Sequence[Message]:
    """Play a seat to the game's end from its frames (``choose``), acting again when an act is stale; returns
    the frames received. The client has said hello."""
    for _ in range(limit):
        frame = client.recv()
        kind = frame["type"]
        if kind == "log_offered":
            return client.frames
        if kind == "view":
            action = choose(frame, rng, advise=advise)
            if action is not None:
                client.send({"type": "act", "action": action, "record": frame["record"]})
        elif kind == "refusal" and frame["rule"] != "PROTO-7":
            raise AssertionError(f"a legal action was refused: {frame}")
    raise AssertionError("the game did not end")
