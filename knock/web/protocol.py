"""The table protocol's messages: what a client may send, read and checked; what a server sends, built.

Rules: PROTO-1 .. PROTO-15, PROTO-20 .. PROTO-22, PROTO-25 (spec/protocol.md; the shapes:
``protocol.schema.json`` beside this module).

Client messages are small frozen values read by ``decode`` — the one validation path for both transports
(a WebSocket text frame, a line of ``knock engine``), which turns any input into a message or a
``ProtocolError`` with the error code to answer. Server messages are plain JSON objects made by the builders
below, so that a frame is exactly what the schema lists. What a seat's ``view`` holds is built in
``knock.web.views`` from ``engine.visibility``'s answers; nothing here decides what anyone may see.

>>> decode('{"type": "act", "action": "discard Kh", "record": 12}')
Act(action='discard Kh', record=12, seat=None)
>>> decode('{"type": "act", "action": 3}')
Traceback (most recent call last):
...
knock.web.protocol.ProtocolError: bad_message: act: 'action' must be text (an action in card notation)
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal, TypeAlias

from engine import __version__ as ENGINE_VERSION
from engine.errors import KnockError, render
from knock.bots import BOT_NAMES
from replay.ed25519_verify import is_public_key

#: The bots a table seats: the engine's but ``simple``, which remembers its hand between its moves, where a table
#: makes its bot afresh for every move (``knock.web.botwork.choose``). The search levels came with 1.3 (PROTO-20).
TABLE_BOTS: tuple[str, ...] = tuple(b for b in BOT_NAMES if b != "simple")

#: The protocol's version, [major, minor] (PROTO-1, PROTO-20).
PROTOCOL: tuple[int, int] = (1, 4)
#: The server's name in ``welcome`` and ``started``.
SERVER = f"knock-gin {ENGINE_VERSION}"
#: The largest message a client may send, in bytes (PROTO-11).
MAX_MESSAGE = 65_536
#: The WebSocket keep-alive: a ping every this many seconds, and a connection closed this long after an unanswered
#: one (PROTO-12).
PING_SECONDS = 20.0
#: The flood limit: messages a second sustained, and the burst above it (PROTO-11).
RATE, BURST = 50.0, 100
#: Bad frames a connection may send before it is closed (PROTO-11).
MAX_BAD = 10
#: The longest action text, table id, seat name and token a client may send (PROTO-25's ranges).
MAX_ACTION, MAX_ID, MAX_NAME, MAX_TOKEN = 1024, 64, 64, 256

#: WebSocket close codes (PROTO-3, PROTO-11).
CLOSE_POLICY, CLOSE_BINARY, CLOSE_TOO_BIG, CLOSE_REPLACED = 1008, 1003, 1009, 4001

ErrorCode: TypeAlias = Literal[
    "bad_json", "bad_message", "unknown_type", "unsupported_protocol", "hello_first", "bad_token",
    "no_such_table", "replaced", "rate_limited", "binary_frame", "too_many_errors", "no_game", "table_failed",
    "bad_table", "internal", "bad_seed", "too_many_connections",
]  # fmt: skip

#: The rule each error code is answered under (PROTO-21's table); ``bad_table`` names the rule the table breaks.
ERROR_RULES: dict[str, str] = {
    "bad_json": "PROTO-11", "bad_message": "PROTO-11", "unknown_type": "PROTO-11", "unsupported_protocol": "PROTO-20",
    "hello_first": "PROTO-3", "bad_token": "PROTO-3", "no_such_table": "PROTO-3", "replaced": "PROTO-3",
    "rate_limited": "PROTO-11", "binary_frame": "PROTO-11", "too_many_errors": "PROTO-11", "no_game": "PROTO-15",
    "table_failed": "PROTO-13", "bad_table": "PROTO-2", "internal": "PROTO-11", "bad_seed": "PROTO-38",
    "too_many_connections": "PROTO-17",
}  # fmt: skip


class ProtocolError(KnockError, ValueError):
    """A message the protocol does not take: ``code`` is the error to answer (PROTO-11), ``close`` whether the
    connection ends with it."""

    def __init__(self, code: ErrorCode, message: str, *, close: bool = False, rule: str | None = None) -> None:
        super().__init__(f"{code}: {message}", rule=rule or ERROR_RULES[code])
        self.code: ErrorCode = code
        self.message = message
        self.close = close


# --- client messages ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Take a seat with its token, or watch (``spectate``). WebSocket only. Rule: PROTO-3."""

    protocol: tuple[int, int]
    table: str
    token: str | None
    spectate: bool = False
    key: bytes | None = None  #: 1.4: the seat's Ed25519 key for its statements at a fair table (PROTO-47)


@dataclass(frozen=True, slots=True)
class Act:
    """An action in card notation and the record number it expects. Rule: PROTO-7."""

    action: str
    record: int
    seat: int | None = None  #: required on ``knock engine``; on a WebSocket the token's seat, if given


@dataclass(frozen=True, slots=True)
class ViewRequest:
    """Send the current view again (``seat`` on ``knock engine``; None there is the spectator's view)."""

    seat: int | None = None


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """Who takes a seat: a person (by name) or a bot (by name). Rule: PROTO-2."""

    player: Literal["human", "bot"]
    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class New:
    """``knock engine``: start a game. Rule: PROTO-15."""

    protocol: tuple[int, int]
    preset: str
    options: Mapping[str, Any]
    seed: int | None
    seats: tuple[SeatSpec, ...]
    commitments: bool = False


@dataclass(frozen=True, slots=True)
class LogRequest:
    """``knock engine``: the full log so far."""


@dataclass(frozen=True, slots=True)
class Quit:
    """``knock engine``: end."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """A seat asks for the next game of its table's series, once the game is over. WebSocket only. Rule:
    PROTO-29 (protocol 1.2)."""


@dataclass(frozen=True, slots=True)
class Seed:
    """A seat's seed for a fair hand's deal (``seed``: its text as sent, 64 hex digits or None to refuse; read by
    ``knock.web.fairtable.read_seed``, which names PROTO-38). WebSocket only. Rule: PROTO-37 (protocol 1.3)."""

    hand: object
    seed: object
    set: object = None  #: 1.4: the hash of the commitment set the seat was sent (PROTO-45)
    statement: object = None  #: 1.4: the seat's signature of what it saw (DEAL-12, PROTO-47)


@dataclass(frozen=True, slots=True)
class Commit:
    """A seat's commitment to its seed for a fair hand (``commitment``: its text as sent, 64 hex digits or None to
    send no seed; read by ``knock.web.fairtable.read_seed``). WebSocket only. Rule: PROTO-45 (protocol 1.4)."""

    hand: object
    commitment: object


@dataclass(frozen=True, slots=True)
class ClaimRequest:
    """A seat claims the game against a seat away, at the record it expects; the host writes the time (on
    ``knock engine``, whose controller is the host, ``at`` if given). Rule: PROTO-42 (protocol 1.4)."""

    against: int
    record: int
    seat: int | None = None  #: required on ``knock engine``
    at: int | None = None  #: ``knock engine`` only: the host's time of the claim


@dataclass(frozen=True, slots=True)
class HostRequest:
    """``knock engine``: the controller, the game's host, records a step of its own (``pN away T``, ``pN back T``,
    ``pN forfeit REASON``). Rule: PROTO-43 (protocol 1.4)."""

    step: str


ClientMessage: TypeAlias = (
    Hello | Act | ViewRequest | New | LogRequest | Quit | Rematch | Seed | Commit | ClaimRequest | HostRequest
)


#: The longest text a ``seed`` field may hold before its form is judged (its form is 64 hex digits: PROTO-38).
MAX_SEED_TEXT = 256
_KEY = re.compile(r"[0-9a-f]{64}")
#: The deepest nesting of arrays and objects a JSON body or message may have (a table's request needs 3).
MAX_DEPTH = 32

#: A string (to its closing quote, or to the end when it has none: no backtracking) or a bracket.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


def depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (brackets inside strings do not count), in time
    linear in its length and with no recursion. Rule: PROTO-16.

    >>> depth('[[1], {"a": "[[["}]'), depth("7")
    (2, 0)
    """
    level = deepest = 0
    for m in _TOKEN.finditer(text):
        c = m.group(0)[0]
        if c == "[" or c == "{":
            level += 1
            deepest = max(deepest, level)
        elif c != '"':
            level -= 1
    return deepest


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 reads as infinity
        raise ValueError(f"{text[:40]} is out of range")
    return value


def parse_json(data: str | bytes) -> Any:
    """JSON as RFC 8259 has it: UTF-8, nested at most ``MAX_DEPTH`` deep, no ``NaN`` or ``Infinity`` (Python's
    ``json`` accepts both), no number out of a float's range. Rules: PROTO-16, PROTO-11.

    >>> parse_json(b'{"seed": 3}')
    {'seed': 3}
    >>> parse_json("[NaN]")
    Traceback (most recent call last):
    ...
    ValueError: NaN is not a JSON number

    Raises:
        ValueError: the text is not such JSON (UnicodeDecodeError for bytes that are not UTF-8).
    """
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    if text.count("[") + text.count("{") > MAX_DEPTH and depth(text) > MAX_DEPTH:  # the count: at C speed
        raise ValueError(f"nested more than {MAX_DEPTH} deep")
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)


#: The messages each transport takes (PROTO-21: one of the other transport's is ``unknown_type``, whatever its
#: fields, and before ``hello_first``: PROTO-22's step 2 comes before its step 3 for every message).
TRANSPORTS: dict[str, tuple[str, ...]] = {
    "knock serve": ("hello", "act", "claim", "view", "rematch", "commit", "seed"),
    "knock engine": ("new", "act", "claim", "host", "view", "log", "quit"),
}


def decode(frame: str | bytes, transport: str | None = None) -> ClientMessage:
    """A client's message from one frame or line: the one validation path (PROTO-1, PROTO-11, PROTO-22).
    ``transport`` (``"knock serve"`` or ``"knock engine"``, None for either) refuses the other one's messages.

    Raises:
        ProtocolError: not JSON, not an object, an unknown type, a field missing or of the wrong kind, too big.
    """
    if len(frame) > MAX_MESSAGE:
        raise ProtocolError("bad_message", f"a message is at most {MAX_MESSAGE} bytes", close=True)
    try:
        value = parse_json(frame)  # nesting bounded, NaN and Infinity refused (PROTO-16)
    except ValueError as err:  # UnicodeDecodeError is a ValueError
        raise ProtocolError("bad_json", f"not JSON ({render(str(err), 80)})") from None
    if type(value) is not dict:
        raise ProtocolError("bad_json", "a message is a JSON object with a 'type'")
    kind = value.get("type")
    reader = _READERS.get(kind) if type(kind) is str else None
    if reader is None:
        raise ProtocolError("unknown_type", f"no message has the type {render(kind, 60)}")
    if transport is not None and kind not in TRANSPORTS[transport]:
        (other,) = (t for t in TRANSPORTS if t != transport)
        *some, last = TRANSPORTS[transport]
        takes = f"{', '.join(some)} and {last}"
        raise ProtocolError("unknown_type", f"{kind} is a message of {other} only ({transport} takes {takes})")
    message: ClientMessage = reader(_Fields(str(kind), value))
    return message


class _Fields:
    """A message's fields, read with their kinds checked (each error names the message and the field)."""

    def __init__(self, kind: str, value: dict[str, Any]) -> None:
        self.kind = kind
        self.value = value

    def bad(self, name: str, what: str) -> ProtocolError:
        return ProtocolError("bad_message", f"{self.kind}: {name!r} must be {what}")

    def text(self, name: str, limit: int, what: str, *, default: str | None = None) -> str:
        v = self.value.get(name, default)
        if type(v) is not str or not 0 < len(v) <= limit:
            raise self.bad(name, what)
        return v

    def number(self, name: str, low: int, high: int, what: str, *, optional: bool = False) -> int | None:
        v = self.value.get(name)
        if v is None and optional:
            return None
        if type(v) is not int or not low <= v <= high:
            raise self.bad(name, what)
        return v

    def flag(self, name: str) -> bool:
        v = self.value.get(name, False)
        if type(v) is not bool:
            raise self.bad(name, "true or false")
        return v

    def version(self) -> tuple[int, int]:
        v = self.value.get("protocol")
        if not (type(v) is list and len(v) == 2 and all(type(x) is int and x >= 0 for x in v)):
            raise self.bad("protocol", f"the protocol version [major, minor], e.g. {list(PROTOCOL)}")
        if v[0] != PROTOCOL[0]:
            raise ProtocolError("unsupported_protocol", f"this server speaks protocol {PROTOCOL[0]}.{PROTOCOL[1]}, "
                                f"not {v[0]}.{v[1]}", close=True)  # fmt: skip
        return (v[0], v[1])


def _hello(f: _Fields) -> Hello:
    version = f.version()
    table = f.text("table", MAX_ID, "a table id")
    spectate = f.flag("spectate")
    token = None if spectate else f.text("token", MAX_TOKEN, "the seat's token (or spectate: true)")
    key = f.value.get("key")
    if key is not None:
        if type(key) is not str or not _KEY.fullmatch(key) or not is_public_key(bytes.fromhex(key)):
            raise f.bad("key", "an Ed25519 public key, 64 lowercase hex digits (PROTO-47)")
        key = bytes.fromhex(key)
    return Hello(version, table, token, spectate, key)


def _act(f: _Fields) -> Act:
    action = f.text("action", MAX_ACTION, "text (an action in card notation)")
    record = f.number("record", 0, 2**53, "the record number the action expects (a number)")
    seat = f.number("seat", 0, 2, "a seat number", optional=True)
    assert record is not None
    return Act(action, record, seat)


def _claim(f: _Fields) -> ClaimRequest:
    against = f.number("against", 0, 2, "the seat claimed against (a seat number)")
    record = f.number("record", 0, 2**53, "the record number the claim expects (a number)")
    seat = f.number("seat", 0, 2, "a seat number", optional=True)
    at = f.number("at", 0, 10**15 - 1, "the host's time, whole seconds since 1970 (knock engine)", optional=True)
    assert against is not None and record is not None
    return ClaimRequest(against, record, seat, at)


def _host(f: _Fields) -> HostRequest:
    return HostRequest(f.text("step", MAX_ACTION, "text (a host's step: 'p1 away 1765100000', 'p1 forfeit timeout')"))


def _view(f: _Fields) -> ViewRequest:
    return ViewRequest(f.number("seat", 0, 2, "a seat number (or null: the spectator's view)", optional=True))


def _new(f: _Fields) -> New:
    version = f.version()
    preset = f.text("preset", 32, "a preset name", default="standard")
    options = f.value.get("options", {})
    if type(options) is not dict:
        raise f.bad("options", "an object of rule-set options")
    seed = f.number("seed", 0, 2**63 - 1, "a seed, 0 .. 2**63 - 1", optional=True)
    if f.flag("fair"):  # a session of knock engine is reproducible from its seed: no fair mode (PROTO-35)
        raise ProtocolError("bad_message", "new: knock engine deals no fair games: 'fair' must be false or absent",
                            rule="PROTO-35")  # fmt: skip
    return New(version, preset, options, seed, seat_specs(f.value.get("seats"), f.bad), f.flag("commitments"))


def _seed(f: _Fields) -> Seed:
    """A seat's seed: its fields' kinds are the message's (PROTO-22's step 2, ``bad_message``): ``hand`` a number,
    ``seed`` text or null; what the text must be, and whether the table takes it, are PROTO-38's (``bad_seed``)."""
    hand = f.number("hand", 1, 2**53, "the number of the hand whose seeds are gathered")
    seed = f.value.get("seed", "")
    if seed is not None and (type(seed) is not str or len(seed) > MAX_SEED_TEXT):
        raise f.bad("seed", "text (64 lowercase hex digits) or null")
    committed = f.value.get("set")
    if committed is not None and (type(committed) is not str or len(committed) > MAX_SEED_TEXT):
        raise f.bad("set", "text (64 lowercase hex digits)")
    statement = f.value.get("statement")
    if statement is not None and (type(statement) is not str or len(statement) > MAX_SEED_TEXT):
        raise f.bad("statement", "text (128 lowercase hex digits)")
    return Seed(hand, seed, committed, statement)


def _commit(f: _Fields) -> Commit:
    """A seat's commitment: ``hand`` a number, ``commitment`` text or null (PROTO-22's step 2, ``bad_message``);
    what the text must be, and whether the table takes it, are PROTO-38's and PROTO-45's (``bad_seed``)."""
    hand = f.number("hand", 1, 2**53, "the number of the hand whose commitments are gathered")
    value = f.value.get("commitment", "")
    if value is not None and (type(value) is not str or len(value) > MAX_SEED_TEXT):
        raise f.bad("commitment", "text (64 lowercase hex digits) or null")
    return Commit(hand, value)


def seat_specs(value: object, bad: Any) -> tuple[SeatSpec, ...]:
    """Who sits where: ``[{"player": "human", "name": "ann"}, {"player": "bot", "bot": "heuristic"}, ...]``.

    Rule: PROTO-2. ``bad(field, what)`` makes the error to raise.
    """
    if type(value) is not list or not 2 <= len(value) <= 3:
        raise bad("seats", "a list of two or three seats")
    out: list[SeatSpec] = []
    for i, item in enumerate(value):
        if type(item) is not dict or item.get("player") not in ("human", "bot"):
            raise bad(f"seats[{i}]", 'an object {"player": "human" | "bot", ...}')
        name = item.get("name")
        if name is not None and (type(name) is not str or not 0 < len(name) <= MAX_NAME):
            raise bad(f"seats[{i}].name", f"text of 1 .. {MAX_NAME} characters")
        if name is not None:
            name = plain_name(name)
            if not name:
                raise bad(
                    f"seats[{i}].name", "text with a letter, a digit or a sign in it (not only controls or spaces)"
                )
        if item["player"] == "bot":
            bot = item.get("bot", "heuristic")
            if bot not in TABLE_BOTS:
                raise bad(f"seats[{i}].bot", f"one of {', '.join(TABLE_BOTS)}")
            out.append(SeatSpec("bot", name or f"{bot}#{i}", bot))
        else:
            out.append(SeatSpec("human", name or f"p{i}"))
    return tuple(out)


def plain_name(name: str) -> str:
    r"""A seat's name as the table shows it: control and format characters removed — among them the bidirectional
    overrides and isolates, which would turn the text around them — white space collapsed and trimmed (PROTO-25).

    >>> plain_name("  ann\u202e  lee\u0000 "), plain_name("\u200f\u2066")
    ('ann lee', '')
    """
    kept = "".join(c for c in name if unicodedata.category(c)[0] != "C" and unicodedata.category(c) not in ("Zl", "Zp"))
    return " ".join(kept.split())


_READERS: dict[str, Callable[[_Fields], ClientMessage]] = {
    "hello": _hello,
    "act": _act,
    "claim": _claim,
    "host": _host,
    "view": _view,
    "new": _new,
    "log": lambda f: LogRequest(),
    "quit": lambda f: Quit(),
    "rematch": lambda f: Rematch(),
    "seed": lambda f: _seed(f),
    "commit": lambda f: _commit(f),
}


# --- server messages ---------------------------------------------------------------------------

Message: TypeAlias = dict[str, Any]


def encode(message: Message) -> str:
    """A server message as one line of compact JSON (no newline inside: PROTO-1)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def seat_info(seats: Sequence[SeatSpec]) -> list[Message]:
    return [{"seat": i, "name": s.name, "player": s.player, "bot": s.bot} for i, s in enumerate(seats)]


def welcome(
    table: str,
    seat: int | None,
    seats: Sequence[SeatSpec],
    rules: Mapping[str, Any],
    turn_timeout: float | None,
    series: Mapping[str, Any] | None = None,
    fair: bool = False,
    receipts: bytes | None = None,
) -> Message:
    """The answer to ``hello``; ``series`` the games before this one of a rematched table (PROTO-31), ``fair``
    whether the table deals fairly (PROTO-35), ``receipts`` the key of a fair table's receipts (PROTO-47). Rule:
    PROTO-3."""
    return {
        "type": "welcome", "protocol": list(PROTOCOL), "server": SERVER, "table": table, "seat": seat,
        "players": [s.name for s in seats], "seats": seat_info(seats), "rules": dict(rules),
        "turn_timeout": turn_timeout, "series": dict(series) if series is not None else None, "fair": fair,
        "receipts": receipts.hex() if receipts is not None else None,
    }  # fmt: skip


def rematch(table: str, games: int, totals: Sequence[int]) -> Message:
    """The next game of the series is table ``table``: the games over so far and each seat's points summed over
    them. Rule: PROTO-30."""
    return {"type": "rematch", "table": table, "games": games, "totals": list(totals)}


def started(table: str, seats: Sequence[SeatSpec], rules: Mapping[str, Any]) -> Message:
    """``knock engine``'s answer to ``new``. Rule: PROTO-15."""
    return {
        "type": "started", "protocol": list(PROTOCOL), "server": SERVER, "table": table,
        "players": [s.name for s in seats], "seats": seat_info(seats), "rules": dict(rules),
    }  # fmt: skip


def view(
    table: str,
    seat: int | None,
    record: int,
    body: Message,
    legal: Sequence[str],
    events: Sequence[Message],
    defences: Sequence[Message] = (),
    turn_left: float | None = None,
    discards: Sequence[Message] = (),
    fair: Message | None = None,
    draw: Sequence[Message] = (),
    endings: Sequence[str] = (),
    away: Sequence[Message] = (),
) -> Message:
    """A seat's (or a spectator's) view, with its legal actions, the events since its last, its defences ranked
    (PROTO-32), the seconds left of the turn (PROTO-33), the hand's discards (PROTO-34), its fair seeds (PROTO-39)
    the game's draw for the deal (1.4: its rounds, ``{"seats", "cards"}`` each), the endings the seat may ask for
    and the seats away (1.4, PROTO-43). Rule: PROTO-5."""
    return {"type": "view", "table": table, "seat": seat, "record": record, "view": body, "legal": list(legal),
            "events": list(events), "defences": list(defences), "turn_left": turn_left,
            "discards": list(discards), "fair": fair, "draw": list(draw), "endings": list(endings),
            "away": list(away)}  # fmt: skip


def ack(seat: int | None, action: str, record: int, after: int, *, duplicate: bool = False) -> Message:
    """The action is applied and stored (PROTO-7, PROTO-9); ``seat`` None: a host's step of no seat (PROTO-43)."""
    return {"type": "ack", "seat": seat, "action": action, "record": record, "next": after, "duplicate": duplicate}


def refusal(seat: int | None, action: str, rule: str, reason: str, record: int) -> Message:
    """The action is refused under ``rule``; nothing changed. Rule: PROTO-8."""
    return {"type": "refusal", "seat": seat, "action": action[:MAX_ACTION], "rule": rule, "reason": reason,
            "record": record}  # fmt: skip


def timed_out(seat: int, action: str | None) -> Message:
    """The seat's move was made for it: the action to the seat itself, None to everyone else. Rule: PROTO-12."""
    return {"type": "timed_out", "seat": seat, "action": action}


def log_offered(url: str | None, size: int, records: int, digest: bytes, verdict: str) -> Message:
    """The full log, offered when the game ends. Rule: PROTO-10."""
    return {"type": "log_offered", "url": url, "bytes": size, "records": records, "digest": digest.hex(),
            "verdict": verdict}  # fmt: skip


def log(data: str, size: int, records: int, digest: bytes | None, verdict: str) -> Message:
    """``knock engine``: the log so far, base64. Rule: PROTO-15."""
    return {"type": "log", "data": data, "bytes": size, "records": records,
            "digest": digest.hex() if digest is not None else None, "verdict": verdict}  # fmt: skip


def error(err: ProtocolError, *, close: bool | None = None) -> Message:
    """A bad message or a refused connection, under its rule (``close`` overrides the error's). Rules: PROTO-11,
    PROTO-21."""
    return {"type": "error", "code": err.code, "message": err.message, "rule": err.rule,
            "close": err.close if close is None else close}  # fmt: skip


def done(line: int) -> Message:
    """``knock engine``: the answer to input line ``line`` (counted from 1) is complete. Rule: PROTO-15."""
    return {"type": "done", "line": line}


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (``spec/protocol.schema.json``, shipped with the package)."""
    text = resources.files("knock.web").joinpath("protocol.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
