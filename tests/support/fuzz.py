"""Fuzzing the log readers (LOG-13): seeds, structured mutations, the entry points and what counts as a crash.

Every reader entry point must end any input in one of its documented outcomes — a verdict (``judge``), a
report (``verify``, ``audit``, ``verify_view``), a result or a ``LogError`` (the replayers, ``redact``,
``view_transcript``). Anything else is a *crash*. ``tools/fuzz.py`` runs this for long on several processes
(optionally coverage-guided by atheris); ``tests/replay/test_fuzz.py`` runs a few seconds of it.

Mutations (chosen by weight, ``MIX``): byte edits (flip, set, insert, delete, truncate, append, splice of two
seeds) and structured edits of the decoded records (drop, swap, duplicate, move, transplant a record from
another seed, retype a field, nest a field or a record deep, claim a huge length, replace the header's keys
or options), each structured edit followed half the time by a recomputed digest chain so that the replayer's
checks behind the digests are reached too.
"""

from __future__ import annotations

import hashlib
import io
import random
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

from replay.audit import audit, verify, verify_view, view_transcript
from replay.codec import T_CHECKPOINT, T_TRAILER, chain, header_digest, unpacked
from replay.log import LogError, LogReader
from replay.public import ViewReplayer
from replay.redact import redact
from replay.replayer import Replayer
from replay.verdict import judge

ROOT = Path(__file__).resolve().parents[2]


# --- seeds ----------------------------------------------------------------------------------------------------


def seeds(limit: int | None = None) -> list[bytes]:
    """The golden logs, every seat's view of each, and the compiled conformance logs (some are damaged on
    purpose, which is fine: they are inputs)."""
    out: list[bytes] = []
    for path in sorted((ROOT / "tests" / "golden").glob("*.knock"))[:limit]:
        data = path.read_bytes()
        out.append(data)
        players = len(LogReader(data).header.players)
        out += [redact(data, seat) for seat in range(players)]
    out += [
        p.read_bytes() for p in sorted((ROOT / "knock" / "conformance" / "suite" / "logs").rglob("*.knock"))[:limit]
    ]
    return out


# --- the entry points -----------------------------------------------------------------------------------------


class Crash(Exception):
    """An entry point ended an input in something it must never end in."""


def _run_replayer(data: bytes) -> None:
    Replayer(data).run()


def _run_public(data: bytes) -> None:
    ViewReplayer(data).run()


def _redact_each(data: bytes) -> None:
    for seat in range(3):
        redact(data, seat)


def _judge(data: bytes) -> None:
    verdict = judge(data)
    if verdict.internal or verdict.kind not in ("pass", "unfinished", "fail"):
        raise Crash(verdict.message)
    if verdict.kind == "fail" and (verdict.record is None or not verdict.rule):
        raise Crash(f"a fail verdict without its record and rule: {verdict}")


#: Every reader entry point: name -> a call that must return or raise ``LogError`` (anything else is a crash).
TARGETS: dict[str, Callable[[bytes], object]] = {
    "judge": _judge,
    "verify": verify,
    "audit": audit,
    "verify_view": verify_view,
    "replayer": _run_replayer,
    "public_replayer": _run_public,
    "redact": _redact_each,
    "view_transcript": view_transcript,
}


def _redact_one(data: bytes) -> None:
    redact(data, len(data) % 3)


FOR_LOGS: dict[str, Callable[[bytes], object]] = {
    "judge": _judge,
    "audit": audit,
    "replayer": _run_replayer,
    "redact": _redact_one,
}
FOR_VIEWS: dict[str, Callable[[bytes], object]] = {
    "judge": _judge,
    "audit": audit,
    "public_replayer": _run_public,
    "view_transcript": view_transcript,
}


def targets_for(data: bytes) -> dict[str, Callable[[bytes], object]]:
    """The entry points worth running on ``data``: the view readers for a view, the full-log readers (redact
    for one seat) for anything else; every one of them when the header cannot be read (it is refused at once)."""
    try:
        view = LogReader(data).header.view
    except LogError:
        return TARGETS
    except Exception:  # a crash of the header reader: every entry point meets it
        return TARGETS
    return FOR_VIEWS if view is not None else FOR_LOGS


def check(data: bytes, targets: dict[str, Callable[[bytes], object]] = TARGETS) -> tuple[str, str] | None:
    """Run ``data`` through every entry point; the first crash as (entry point, traceback), else None."""
    for name, target in targets.items():
        try:
            target(data)
        except LogError:
            pass
        except Exception:  # the point of fuzzing: anything but a LogError is a crash
            return name, traceback.format_exc(limit=-4)
    return None


# --- structured mutations -------------------------------------------------------------------------------------

Records = list[Any]  # the header then each record, decoded


def decode(data: bytes) -> Records | None:
    """A seed's values, decoded (None when it does not decode whole)."""
    try:
        return [v for v, _ in unpacked(io.BytesIO(data))]
    except Exception:  # a damaged seed: only byte mutations apply
        return None


def encode(values: Records, rechain: bool) -> bytes:
    """Values back to bytes; with ``rechain``, every checkpoint and the trailer recomputed (LOG-6)."""
    out: list[bytes] = []
    digest = b""
    for i, value in enumerate(values):
        if rechain and i and isinstance(value, list) and value and value[0] == T_CHECKPOINT:
            value = [T_CHECKPOINT, digest]
        elif rechain and i and isinstance(value, list) and value and value[0] == T_TRAILER:
            value = [T_TRAILER, i - 1, digest]
        try:
            raw = msgpack.packb(value, use_bin_type=True)
        except (TypeError, ValueError, OverflowError):
            raw = b"\xc0"
        digest = header_digest(raw) if i == 0 else chain(digest, raw)
        out.append(raw)
    return b"".join(out)


def odd_value(rng: random.Random) -> Any:
    """A value of a kind a field may not hold: floats, booleans, text, bytes, nil, big and negative integers."""
    return rng.choice(
        [None, True, False, 0.0, 1.5, -1, -(2**63), 2**64 - 1, 255, 52, 116, "x", "p0", b"", b"\xff" * 52, [],
         [[]], {}, {"a": 1}, [0, 1], bytes(range(52))]
    )  # fmt: skip


def nest(value: Any, depth: int) -> Any:
    for _ in range(depth):
        value = [value]
    return value


def _fields(value: Any) -> list[tuple[list[Any] | dict[str, Any], Any]]:
    """Every (container, key) inside a value: where a field can be replaced."""
    out: list[tuple[list[Any] | dict[str, Any], Any]] = []
    todo = [value]
    while todo and len(out) < 200:
        v = todo.pop()
        if isinstance(v, list):
            out += [(v, i) for i in range(len(v))]
            todo += v
        elif isinstance(v, dict):
            out += [(v, k) for k in v]
            todo += list(v.values())
    return out


def _retype(rng: random.Random, values: Records) -> None:
    i = rng.randrange(len(values))
    places = _fields(values[i])
    if not places:
        values[i] = odd_value(rng)
        return
    box, key = rng.choice(places)
    box[key] = odd_value(rng)


def _deep(rng: random.Random, values: Records) -> None:
    depth = rng.choice([9, 50, 500, 1000, 1100])
    i = rng.randrange(len(values))
    places = _fields(values[i])
    if places and rng.random() < 0.7:
        box, key = rng.choice(places)
        box[key] = nest(box[key], depth)
    else:
        values[i] = nest(values[i], depth)


def _header(rng: random.Random, values: Records) -> None:
    head = values[0]
    if not isinstance(head, dict):
        return
    what = rng.randrange(6)
    rules = head.get("rules")
    if what == 0 and head:
        del head[rng.choice(list(head))]
    elif what == 1:
        head[rng.choice(["colour", "view", "commitments", "version", "players", "meta", "format"])] = odd_value(rng)
    elif what == 2 and isinstance(rules, dict) and rules:
        rules[rng.choice(list(rules))] = odd_value(rng)
    elif what == 3 and isinstance(rules, dict):
        option = rng.choice(
            ["players", "target", "name", "hollywood", "knock_limit", "max_consecutive_discard_pickups"]
        )
        rules[option] = rng.choice([1, 2, 3, 4, 0, "oklahoma", "upcard", True, 10**6, None, "three_handed"])
    elif what == 4:
        head["version"] = [rng.choice([0, 1, 2, 1]), rng.choice([0, 1, 9])]
    else:
        head["view"] = rng.choice([0, 1, 2, 3, None])


def _structured(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    values = decode(data)
    if values is None or len(values) < 2:
        return _bytes(rng, data, pool)
    body = values[1:]
    op = rng.randrange(9)
    if op == 0:
        del body[rng.randrange(len(body))]
    elif op == 1:
        a, b = rng.randrange(len(body)), rng.randrange(len(body))
        body[a], body[b] = body[b], body[a]
    elif op == 2:
        i = rng.randrange(len(body))
        body.insert(rng.randrange(len(body) + 1), body[i])
    elif op == 3:
        other = decode(rng.choice(pool))
        if other and len(other) > 1:
            body.insert(rng.randrange(len(body) + 1), rng.choice(other[1:]))
    elif op == 4:
        del body[rng.randrange(len(body)) :]
    values = [values[0], *body]
    if op == 5:
        _retype(rng, values)
    elif op == 6:
        _deep(rng, values)
    elif op == 7:
        _header(rng, values)
    data = encode(values, rechain=rng.random() < 0.5)
    if op == 8:  # a huge length claim somewhere between two records
        claim = rng.choice([b"\xdd\xff\xff\xff\xff", b"\xdf\xff\xff\xff\xff", b"\xc6\xff\xff\xff\xff",
                            b"\xdb\x7f\xff\xff\xff", b"\xc9\xff\xff\xff\xff\x01", b"\xdc\xff\xff"])  # fmt: skip
        at = rng.randrange(len(data))
        data = data[:at] + claim + data[at : at + rng.choice([0, 10, 2000])]
    return data


def _bytes(rng: random.Random, data: bytes, pool: list[bytes]) -> bytes:
    out = bytearray(data)
    op = rng.randrange(6)
    if op == 4:
        return bytes(out[: rng.randrange(len(out) + 1)])
    if op == 5:
        other = rng.choice(pool)
        return bytes(out[: rng.randrange(len(out) + 1)]) + other[rng.randrange(len(other) + 1) :]
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        at = rng.randrange(len(out) + 1)
        if op == 0 and at < len(out):
            out[at] ^= 1 << rng.randrange(8)
        elif op == 1 and at < len(out):
            out[at] = rng.randrange(256)
        elif op == 2:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.choice([1, 1, 4])))
        elif op == 3 and at < len(out):
            del out[at : at + rng.choice([1, 1, 2, 9])]
    return bytes(out)


#: The input mix: how often each kind of mutation is chosen.
MIX = {"bytes": 0.45, "structured": 0.5, "seed": 0.05}


def mutate(rng: random.Random, pool: list[bytes]) -> bytes:
    """One fuzzed input from the seed pool, by the mix ``MIX``."""
    data = rng.choice(pool)
    roll = rng.random()
    if roll < MIX["bytes"]:
        return _bytes(rng, data, pool)
    if roll < MIX["bytes"] + MIX["structured"]:
        return _structured(rng, data, pool)
    return data


# --- a run ----------------------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What a run found: inputs tried, and each distinct crash (by entry point and the last frame) with an input."""

    inputs: int = 0
    crashes: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    hangs: dict[str, bytes] = field(default_factory=dict)

    def record(self, data: bytes, found: tuple[str, str]) -> None:
        name, trace = found
        last = [line for line in trace.strip().splitlines() if line.startswith('  File "')][-1:]
        key = f"{name}: {trace.strip().splitlines()[-1][:80]} at {''.join(last).strip()}"
        self.crashes.setdefault(key, (data, trace))


def fuzz(rng: random.Random, pool: list[bytes], inputs: int) -> Iterator[tuple[bytes, tuple[str, str] | None]]:
    """``inputs`` mutated inputs and what each one did (a crash, or None)."""
    for _ in range(inputs):
        data = mutate(rng, pool)
        yield data, check(data, targets_for(data))


def name_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]
