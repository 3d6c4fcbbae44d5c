"""A client of the table protocol: a seat's choice from its view alone, and a small WebSocket client.

``choose`` plays a seat from the frames it is sent, as any program over the wire would: from its view's cards,
the discard pile's top and its legal actions (the greedy bot's plan: keep deadwood low, knock when it may, lay
off for the least deadwood). ``Client`` is a blocking WebSocket client for the tests and tools
(``tools/leak_web.py``, ``tools/load_web.py``), and ``play_async`` its asynchronous twin; both need the ``web``
extra. ``ServerProcess`` runs ``knock serve`` on a free local port.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.actions import Discard, Knock, parse_match_action, shown_mask
from engine.cards import Card, to_mask
from engine.fairdeal import seat_commitment, set_hash, statement_message
from engine.melds import deadwood, knock_deadwood, value
from knock.web.protocol import PROTOCOL, Message
from replay.signing import SigningKey


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
    actions = {a: parse_match_action(a, 0) for a in legal}
    knocks = {a: x.card for a, x in actions.items() if isinstance(x, Knock)}
    if knocks:
        return min(knocks, key=lambda a: deadwood(mask ^ knocks[a].bit))
    discards = {a: x.card for a, x in actions.items() if isinstance(x, Discard)}
    if discards:
        return min(discards, key=lambda a: (deadwood(mask ^ discards[a].bit), -discards[a].value))
    return first


def _left(text: str, mask: int) -> int:
    """The deadwood a spread or a defence leaves (its unmelded cards' value)."""
    return value(mask & ~shown_mask(parse_match_action(text, 0)))


class Client:
    """One blocking WebSocket connection to ``knock serve`` (the ``web`` extra's ``websockets``)."""

    def __init__(self, url: str, *, origin: str | None = None, timeout: float = 10.0) -> None:
        from websockets.sync.client import connect

        headers = {"Origin": origin} if origin is not None else None
        self.ws = connect(url, additional_headers=headers, open_timeout=timeout, max_size=None).__enter__()
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

    def hello(self, table: str, token: str | None = None, *, key: bytes | None = None) -> Message:
        """Take seat ``token`` (or watch), naming ``key`` for the seat's statements at a fair table (PROTO-47)."""
        msg: dict[str, Any] = {"type": "hello", "protocol": list(PROTOCOL), "table": table}
        msg.update({"token": token} if token is not None else {"spectate": True})
        if key is not None:
            msg["key"] = key.hex()
        self.send(msg)
        return self.recv()

    def close(self) -> None:
        self.ws.close()


class FairSeat:
    """A seat's half of fair dealing (PROTO-45): it commits to a fresh seed when a hand's commitment is sent
    (``fair_commit``), and reveals it when the set holds the server's commitment it was first sent and its own
    (``fair_set``); any other set is a breach (DEAL-11), answered with nothing. With ``signer`` (the key its hello
    named, PROTO-47) it signs each reveal (DEAL-12)."""

    def __init__(self, seat: int, rng: random.Random, signer: SigningKey | None = None) -> None:
        self.seat = seat
        self.rng = rng
        self.signer = signer
        self.pinned: dict[int, str] = {}  #: hand -> the server's first commitment
        self.seeds: dict[int, bytes] = {}  #: hand -> the seed committed to
        self.breaches: list[str] = []

    def answer(self, frame: Message) -> Message | None:
        """The message to send for ``frame`` (None: nothing)."""
        hand: int = frame["hand"]
        if frame["type"] == "fair_commit":
            first = self.pinned.setdefault(hand, frame["commitment"])
            if first != frame["commitment"]:
                self.breaches.append(f"hand {hand}: the server's commitment changed")
                return None
            seed = self.seeds.setdefault(hand, self.rng.randbytes(32))
            mine = seat_commitment(bytes.fromhex(first), hand, self.seat, seed)
            return {"type": "commit", "hand": hand, "commitment": mine.hex()}
        if frame["type"] == "fair_set" and hand in self.seeds:
            server, seed = bytes.fromhex(self.pinned[hand]), self.seeds[hand]
            made = [bytes.fromhex(c) for c in frame["commitments"]]
            if frame["commitment"] != self.pinned[hand] or made[self.seat] != seat_commitment(
                server, hand, self.seat, seed
            ):
                self.breaches.append(f"hand {hand}: the set does not hold the commitments this seat pinned")
                return None
            if frame["set"] != set_hash(hand, server, made).hex():
                self.breaches.append(f"hand {hand}: the set's hash is not its commitments'")
                return None
            out = {"type": "seed", "hand": hand, "seed": seed.hex(), "set": frame["set"]}
            if self.signer is not None:
                out["statement"] = self.signer.sign(
                    statement_message(bytes.fromhex(frame["set"]), self.seat, seed)
                ).hex()
            return out
        return None


def play_seat(
    client: Client, rng: random.Random, *, advise: float = 0.0, limit: int = 100_000, fair: FairSeat | None = None
) -> Sequence[Message]:
    """Play a seat to the game's end from its frames (``choose``), acting again when an act is stale; at a fair
    table it commits and reveals its seeds (``fair``, by default a ``FairSeat`` of its own). Returns the frames
    received. The client has said hello."""
    if fair is None:
        welcome = next((f for f in client.frames if f["type"] == "welcome"), None)
        fair = FairSeat(welcome["seat"] if welcome is not None and welcome["seat"] is not None else 0, rng)
    for _ in range(limit):
        frame = client.recv()
        kind = frame["type"]
        if kind == "log_offered":
            return client.frames
        if kind in ("fair_commit", "fair_set"):  # a fair table's two rounds (PROTO-45)
            answer = fair.answer(frame)
            if answer is not None:
                client.send(answer)
        elif kind == "view":
            action = choose(frame, rng, advise=advise)
            if action is not None:
                client.send({"type": "act", "action": action, "record": frame["record"]})
        elif kind == "refusal" and frame["rule"] != "PROTO-7":
            raise AssertionError(f"a legal action was refused: {frame}")
    raise AssertionError("the game did not end")


class ServerProcess:
    """``knock serve`` in a process of its own on a free local port, for the tests and tools: started by
    ``start`` (it returns once the server has said it listens), stopped by ``stop`` or killed by ``kill``."""

    def __init__(self, data: str | os.PathLike[str], *args: str, stderr: Path | None = None) -> None:
        """``stderr``: the file the server's own log goes to (by default, this process's standard error)."""
        self.data = Path(data)
        self.args = args
        self.stderr = stderr
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.banner = ""

    def start(self, timeout: float = 60.0) -> ServerProcess:
        command = [sys.executable, "-m", "knock.cli", "serve", "--port", "0", "--data", str(self.data), *self.args]
        errors = self.stderr.open("a") if self.stderr is not None else None
        try:
            self.proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True)
        finally:
            if errors is not None:
                errors.close()
        assert self.proc.stdout is not None
        ready = threading.Event()
        lines: list[str] = []

        def read() -> None:
            assert self.proc is not None and self.proc.stdout is not None
            for line in self.proc.stdout:
                lines.append(line)
                if "listening on" in line:
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        if not ready.wait(timeout) or not lines or "listening on" not in lines[-1]:
            self.kill()
            raise RuntimeError(f"knock serve did not start: {''.join(lines)}")
        self.banner = lines[-1].strip()
        self.url = self.banner.split("listening on ", 1)[1].split()[0]
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def ws(self) -> str:
        return "ws" + self.url[4:] + "/ws"

    def kill(self) -> None:
        """SIGKILL: the process gets no chance to tidy up (the crash the store must survive, PROTO-9)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- the HTTP API ------------------------------------------------------------------------------

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        return http(self.url + path, headers=headers)

    def post(self, path: str, body: object, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        status, data = http(self.url + path, json.dumps(body).encode(), headers)
        return status, json.loads(data)

    def table(self, body: dict[str, Any]) -> dict[str, Any]:
        """A new table (``POST /api/tables``); raises unless it was made."""
        status, made = self.post("/api/tables", body)
        if status != 201:
            raise RuntimeError(f"no table: {status} {made}")
        result: dict[str, Any] = made
        return result


def http(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """One HTTP request (GET, or POST with ``data``): its status and body, whatever the status."""
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


async def play_async(
    url: str,
    table: str,
    token: str | None,
    *,
    rng: random.Random | None = None,
    advise: float = 0.0,
    think: float = 0.0,
    on_frame: Callable[[Message], None] | None = None,
    on_ack: Callable[[float], None] | None = None,
    keep: bool = True,
) -> list[Message]:
    """Play a seat (or, with no token, watch) over a WebSocket to the game's end; returns every frame received.

    ``think`` seconds pass before each action on average (drawn uniformly from half to one and a half times it
    with ``rng``, as a person's pace varies); ``on_ack`` is told each action's latency, from its sending to its
    acknowledgement (PROTO-9). With ``keep`` off, the frames are not kept (a load test's thousands of seats).
    """
    from websockets.asyncio.client import connect

    frames: list[Message] = []
    sent: dict[int, float] = {}
    hello: dict[str, Any] = {"type": "hello", "protocol": list(PROTOCOL), "table": table}
    hello.update({"token": token} if token is not None else {"spectate": True})
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps(hello))
        async for text in ws:
            frame: Message = json.loads(text)
            if keep:
                frames.append(frame)
            if on_frame is not None:
                on_frame(frame)
            kind = frame["type"]
            if kind == "log_offered" or (kind == "error" and frame["close"]):
                break
            if kind == "ack" and on_ack is not None and frame["record"] in sent:
                on_ack(time.perf_counter() - sent.pop(frame["record"]))
            elif kind == "view" and token is not None:
                action = choose(frame, rng, advise=advise)
                if action is not None:
                    if think:
                        await asyncio.sleep(think * (0.5 + rng.random()) if rng is not None else think)
                    sent[frame["record"]] = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": action, "record": frame["record"]}))
    return frames
