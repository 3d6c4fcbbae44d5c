"""A log as the replay client draws it: the verdict, the digest, and every record from every perspective.

Rules: LOG-13 (the verdict), LOG-6 (the digest), LOG-8 (strict replay), LOG-12 (a per-seat view), PROTO-5 and
PROTO-6 (what a seat and a spectator see). ``transcript(data)`` never raises: whatever the bytes, it answers
with ``replay.verdict.judge``'s verdict and the records it could read before the first fault.

The browser only draws what this module computes. The log is replayed by ``knock.web.replaying`` and, after
each record, the game is written from each perspective by ``knock.web.views``, the one writer of a view (a seat's
exactly as the table protocol sends it); this module keeps the steps, the verdict and the header.

Views repeat (a checkpoint changes nothing anyone sees) and score sheets grow slowly, so each distinct view and
sheet is stored once: a step names its views by their place in ``views``, a view its sheet by its place in
``sheets``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable, Iterator
from typing import Any

from engine.errors import render
from knock.web import replaying
from knock.web.protocol import Message
from replay.log import Header, LogError, LogReader
from replay.replayer import ReplayState
from replay.verdict import Verdict, judge

#: The format of a transcript (the replay client checks the major number).
FORMAT = "knock-transcript"
VERSION = (1, 1)
#: The records a whole transcript draws at most (``knock view``'s file); a longer log is judged whole and drawn up
#: to here. The replay endpoint draws pages (PROTO-18).
MAX_STEPS = 4000
#: The perspective that sees every card, and the spectators' (``knock.web.replaying``'s).
FULL = replaying.FULL
SPECTATOR = replaying.SPECTATOR
#: The perspective asked for as "the log's first one" (``full`` for a full log, the seat of a per-seat view).
FIRST = ""


class _Interned:
    """Values stored once each (by their JSON text), named by their place."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[str, int] = {}

    def add(self, value: Any) -> int:
        key = json.dumps(value, separators=(",", ":"))  # the views' keys come in one order: no need to sort
        at = self._index.get(key)
        if at is None:
            at = self._index[key] = len(self.items)
            self.items.append(value)
        return at


class Builder:
    """The transcript being written: a window of its steps (``start``, ``count``) from some perspectives, their
    distinct views and sheets. Steps outside the window are counted, not drawn: ``wanted`` tells which to draw."""

    def __init__(self, keys: frozenset[str] | None = None, start: int = 0, count: int = MAX_STEPS) -> None:
        self.keys = keys  #: the perspectives drawn (None: every one)
        self.start, self.count = start, count
        self.seen = 0  #: the steps met so far, drawn or not
        self.steps: list[Message] = []
        self.views = _Interned()
        self.sheets = _Interned()
        self.truncated = False
        self._sheet: tuple[object, int] | None = None  # the last sheet stored (one object serves a whole step)

    def wanted(self) -> bool:
        """Whether the next step is in the window (its views are then to be made)."""
        return self.start <= self.seen < self.start + self.count

    def view(self, body: Message | None) -> int | None:
        if body is None:
            return None
        body = dict(body)
        sheet = body["sheet"]
        if self._sheet is None or self._sheet[0] is not sheet:
            self._sheet = (sheet, self.sheets.add(sheet))
        body["sheet"] = self._sheet[1]
        return self.views.add(body)

    def step(
        self, record: int, hand: int, label: str, seen: dict[str, list[str]], shown: dict[str, Message | None]
    ) -> bool:
        """Add one record's step if it is in the window; False once the window is past (no more are wanted)."""
        if self.seen >= self.start + self.count:
            self.truncated = True
            return False
        if self.seen >= self.start:
            keep = [k for k in shown if self.keys is None or k in self.keys]
            self.steps.append({"record": record, "hand": hand, "label": label,
                               "events": {k: seen.get(k, []) for k in keep},
                               "views": {k: self.view(shown[k]) for k in keep}})  # fmt: skip
        self.seen += 1
        return True


class _Pass:
    """The drawing of a transcript's steps (``Builder``), by the verdict's replay (``walk``) or on its own (``draw``):
    whether the log's end was reached, and a problem drawing it (a bug: the verdict stands, the steps stop)."""

    def __init__(self, out: Builder) -> None:
        self.out = out
        self.drawn = False
        self.ended = False
        self.problem: str | None = None

    def walk(self, states: Iterator[ReplayState]) -> None:
        """Draw from the verdict's replay; a ``LogError`` of the states is let through (it is the verdict's)."""
        self.draw(lambda: replaying.full_states(states, self.out), reraise=True)

    def draw(self, run: Callable[[], bool], *, reraise: bool = False) -> None:
        self.drawn = True
        try:
            self.ended = run()
        except LogError:
            self.ended = True  # where the log goes wrong is the verdict's to say; the steps stop before it
            if reraise:
                raise
        except Exception as err:  # a bug drawing the log: the verdict stands, the steps stop, and it is said
            self.problem = f"the transcript stops early: {type(err).__name__}: {render(str(err))}"
            self.ended = True


def _records(data: bytes) -> int:
    """The records a log holds before its first fault of form (its entries read, no game replayed)."""
    n = 0
    with contextlib.suppress(LogError):
        for _ in LogReader(data).entries():
            n += 1
    return n


def steps_in(verdict: Verdict) -> int:
    """The steps a log's transcript has, told by its verdict: every record read (a pass or an unfinished log), or
    every record before the fault. A transcript can have fewer (a draw's records wait for the deal that follows
    them), never more."""
    if verdict.record is None:
        return 0
    return verdict.record - 1 if verdict.kind == "fail" else verdict.record


def transcript(
    data: bytes, *, name: str = "", perspective: str | None = None, start: int | None = 0, count: int | None = None
) -> Message:
    """What the replay client draws of ``data``: its verdict and digest, and the ``count`` steps from ``start``
    (None: the last ones; ``count`` None: ``MAX_STEPS``) from ``perspective`` (None: every one; ``FIRST``: the
    log's first). Never raises.
    Rules: LOG-13, LOG-6, PROTO-5, PROTO-6, PROTO-18.

    The records before the window are replayed and not drawn, the records after it not replayed: the work is
    the replay up to the window's end and the views of its steps, whatever the log.

    >>> from knock.bots import GreedyBot, play_match
    >>> from replay.log import write_log
    >>> from engine.match import Match
    >>> t = transcript(write_log(play_match(Match.new(seed=5), [GreedyBot(), GreedyBot()])))
    >>> t["verdict"]["verdict"], [p["key"] for p in t["perspectives"]], t["steps"][-1]["label"]
    ('pass', ['full', '0', '1', 'spectator'], 'trailer')
    """
    count = MAX_STEPS if count is None else count
    header: Header | None = None
    with contextlib.suppress(LogError):
        header = LogReader(data).header
    perspectives: list[Message] = []
    if header is not None:
        perspectives = _perspectives(header) if header.view is None else [_seat_perspective(header, header.view)]
    if perspective == FIRST and perspectives:
        perspective = perspectives[0]["key"]
    problem: str | None = None
    if header is not None and perspective is not None and perspective not in {p["key"] for p in perspectives}:
        problem = f"the log has no perspective {perspective[:40]!r}"
    drawn = header is not None and problem is None
    # A full log is drawn by the verdict's own replay (one pass, LOG-13): the window of the last steps is placed by
    # the log's records, counted first (cheap: no game), and placed again only if the replay stopped short of them.
    guess = _records(data) if drawn and header is not None and header.view is None and start is None else None
    first = max(0, (guess or 0) - count) if start is None else max(0, start)
    out = Builder(frozenset([perspective]) if perspective is not None else None, first, max(0, count))
    pass_ = _Pass(out)
    verdict = judge(data, walk=pass_.walk if drawn and header is not None and header.view is None else None)
    expected = steps_in(verdict)
    if start is None and first != max(0, expected - count):  # the replay stopped before the counted records
        first = max(0, expected - count)
        out = pass_.out = Builder(out.keys, first, max(0, count))
        pass_.drawn = False
    if drawn and header is not None and not pass_.drawn:
        pass_.draw(
            lambda: replaying.full_log(data, out) if header.view is None else replaying.view_log(data, header, out)
        )
    problem = problem or pass_.problem
    ended = pass_.ended or header is None  # a header that cannot be read: no step
    return {
        "format": FORMAT,
        "version": list(VERSION),
        "name": name,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "verdict": _verdict(verdict),
        "digest": verdict.digest.hex() if verdict.digest is not None else None,
        "header": _header(header),
        "perspectives": perspectives,
        "perspective": perspective,
        "start": first,
        "total": out.seen if ended else expected,
        "steps": out.steps,
        "views": out.views.items,
        "sheets": out.sheets.items,
        "truncated": out.truncated,
        "max_steps": MAX_STEPS,
        "problem": problem,
    }


def _verdict(v: Verdict) -> Message:
    """The verdict in words as well as fields: pass, unfinished at N, fail at record N under a rule."""
    data = v.to_json()
    if v.kind == "pass":
        data["summary"] = f"pass: {v.message}"
    elif v.kind == "unfinished":
        data["summary"] = f"unfinished at record {v.record}: {v.message}"
    else:
        where = f"record {v.record}" if v.record is not None else "no record"
        rule = f" ({v.rule})" if v.rule else ""
        message = v.message.removeprefix(f"{v.rule}: ").removeprefix(f"record {v.record}: ")
        data["summary"] = f"fail at {where}{rule}: {message}"
    return data


def _header(header: Header | None) -> Message | None:
    if header is None:
        return None
    return {"version": list(header.version), "engine": header.engine, "rules": header.rules,
            "players": list(header.players), "commitments": header.commitments, "view": header.view}  # fmt: skip


def _seat_perspective(header: Header, seat: int) -> Message:
    name = header.players[seat] if 0 <= seat < len(header.players) else ""
    return {"key": str(seat), "seat": seat, "label": f"p{seat} {name}".strip()}


def _perspectives(header: Header) -> list[Message]:
    seats = [_seat_perspective(header, s) for s in range(len(header.players))]
    return [{"key": FULL, "seat": None, "label": "full view (every card)"}, *seats,
            {"key": SPECTATOR, "seat": None, "label": "spectator"}]  # fmt: skip


def steps_of(t: Message, key: str) -> Iterator[tuple[Message, Message | None]]:
    """Each step of a transcript with its view from perspective ``key``, the sheet put back (for tests, tools)."""
    for step in t["steps"]:
        at = step["views"].get(key)
        if at is None:
            yield step, None
            continue
        body = dict(t["views"][at])
        body["sheet"] = t["sheets"][body["sheet"]]
        yield step, body
