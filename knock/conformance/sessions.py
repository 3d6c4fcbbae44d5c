"""Recorded WebSocket sessions of the table protocol: what clients send to a server, and what it must answer.

Rule: PROTO-27 (spec/protocol.md). A session file (``spec/protocol-session-ws.txt``) is text, one step a line:

- ``# …`` a comment (a refusal's names its row of protocol.md's refusal table: ``(row `hello.token`)``);
- ``+ NAME {body}``: ``POST /api/tables`` with that body; ``$NAME`` then stands for the table's id, ``$NAME.N`` for
  seat N's token, in every later line;
- ``X> {message}``: connection ``X`` (a letter; opened to ``/ws`` when first named) sends a text frame;
- ``X>b HEX``: it sends a binary frame; ``X>n SIZE``: it sends a text frame of SIZE spaces;
- ``X< {message}``: the next frame ``X`` receives, compared after ``normalize``;
- ``X! CODE``: ``X`` is closed by the server with that close code.

Frames are compared after ``normalize``: the values a server chooses afresh each time — a table's id and tokens,
the server's name and version, a fair hand's commitment and seeds, times left, digests, URLs — are replaced by
``"*"``; everything else must be equal. ``replay`` drives any server: another implementation is tested by giving
its address (``knock conform sessions --url``).
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["Step", "default_session", "normalize", "parse", "replay"]

#: The keys whose values a server chooses afresh each time: compared only for being there.
VOLATILE = frozenset(
    (
        "table",
        "token",
        "server",
        "commitment",
        "commitments",
        "set",
        "seeds",
        "left",
        "turn_left",
        "digest",
        "url",
        "sha256",
        "bytes",
        "receipts",
        "receipt",
    )
)
_STEP = re.compile(
    r"\A(?:(?P<comment>#.*)|\+ (?P<name>\w+) (?P<body>\{.*\})|(?P<conn>[A-Z])(?P<op>>b|>n|>|<|!) ?(?P<arg>.*))\Z"
)


@dataclass(frozen=True, slots=True)
class Step:
    """One line of a session: ``kind`` is ``comment``, ``table``, ``send``, ``binary``, ``big``, ``expect`` or
    ``close``."""

    kind: str
    conn: str = ""
    text: str = ""
    line: int = 0


def default_session() -> Path:
    """The recorded session shipped with Knock (a copy of ``spec/protocol-session-ws.txt``)."""
    return Path(str(resources.files("knock.conformance").joinpath("suite", "protocol-session-ws.txt")))


def parse(text: str) -> list[Step]:
    """The steps of a session file.

    Raises:
        ValueError: a line of no form above, naming its number.
    """
    out = []
    kinds = {">": "send", ">b": "binary", ">n": "big", "<": "expect", "!": "close"}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        m = _STEP.match(line)
        if m is None:
            raise ValueError(f"line {number}: not a step of a session: {line[:80]!r}")
        if m["comment"] is not None:
            out.append(Step("comment", text=m["comment"][1:].strip(), line=number))
        elif m["name"] is not None:
            out.append(Step("table", m["name"], m["body"], number))
        else:
            out.append(Step(kinds[m["op"]], m["conn"], m["arg"], number))
    return out


def normalize(value: Any) -> Any:
    """``value`` with every volatile value (``VOLATILE``) replaced by ``"*"``, at any depth."""
    if isinstance(value, dict):
        return {k: ("*" if k in VOLATILE and v is not None else normalize(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize(v) for v in value]
    return value


def _post(url: str, body: str) -> dict[str, Any]:
    request = urllib.request.Request(
        url + "/api/tables", data=body.encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            made: dict[str, Any] = json.loads(response.read())
            return made
    except urllib.error.HTTPError as err:
        raise AssertionError(f"POST /api/tables answered {err.code}: {err.read()[:200]!r}") from None


def replay(text: str, url: str, *, timeout: float = 15.0, on_step: Callable[[Step], None] | None = None) -> list[str]:
    """Play a session against the server at ``url`` (``http://host:port``); the differences, none when it answers
    every frame as recorded. Needs ``websockets`` (the ``web`` extra)."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import ClientConnection, connect

    ws_url = "ws" + url.removeprefix("http") + "/ws"
    names: dict[str, str] = {}
    conns: dict[str, ClientConnection] = {}
    problems: list[str] = []

    def bind(text: str) -> str:
        for name in sorted(names, key=len, reverse=True):
            text = text.replace(f"${name}", names[name])
        return text

    def conn(letter: str) -> ClientConnection:
        if letter not in conns:
            conns[letter] = connect(ws_url, open_timeout=timeout, max_size=None).__enter__()
        return conns[letter]

    try:
        for step in parse(text):
            if on_step is not None:
                on_step(step)
            where = f"line {step.line}"
            if step.kind == "table":
                made = _post(url, bind(step.text))
                names[step.conn] = made["table"]
                for i, seat in enumerate(made["seats"]):
                    if seat.get("token"):
                        names[f"{step.conn}.{i}"] = seat["token"]
            elif step.kind == "send":
                conn(step.conn).send(bind(step.text))
            elif step.kind == "binary":
                conn(step.conn).send(bytes.fromhex(step.text))
            elif step.kind == "big":
                conn(step.conn).send(" " * int(step.text))
            elif step.kind == "expect":
                try:
                    got = json.loads(conn(step.conn).recv(timeout=timeout))
                except (TimeoutError, ConnectionClosed) as err:
                    problems.append(f"{where}: {step.conn} expected {step.text[:120]}, got {type(err).__name__}")
                    break
                want = normalize(json.loads(step.text))
                if normalize(got) != want:
                    problems.append(f"{where}: {step.conn} expected {json.dumps(want)[:300]}, got "
                                    f"{json.dumps(normalize(got))[:300]}")  # fmt: skip
                    break
            elif step.kind == "close":
                c = conn(step.conn)
                try:
                    extra = c.recv(timeout=timeout)
                    problems.append(f"{where}: {step.conn} expected its close, got a frame {str(extra)[:200]}")
                    break
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd is not None else None
                    if code != int(step.text):
                        problems.append(f"{where}: {step.conn} closed with {code}, expected {step.text}")
                        break
                    del conns[step.conn]  # the letter names a new connection from its next use
                except TimeoutError:
                    problems.append(f"{where}: {step.conn} was not closed (expected {step.text})")
                    break
    finally:
        for c in conns.values():
            c.close()
    return problems
