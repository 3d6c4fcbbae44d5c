"""A log as the replay client draws it: the verdict, the digest, and every record from every perspective.

Rules: LOG-13 (the verdict), LOG-6 (the digest), LOG-8 (strict replay), LOG-12 (a per-seat view), PROTO-5 and
PROTO-6 (what a seat and a spectator see). ``transcript(data)`` never raises: whatever the bytes, it answers
with ``replay.verdict.judge``'s verdict and the records it could read before the first fault.

The browser only draws what this module computes. A full log is replayed strictly and, after each record, the
game is written from each perspective: ``full`` (every card, for an auditor), each seat (its view through
``engine.visibility``: ``Match.observation`` and a ``SeatLens``, written by ``knock.web.views`` exactly as the
table protocol sends it) and ``spectator`` (``observe_spectator``, ``SeatLens(rules, None)``). A per-seat view
(LOG-11) is replayed in public mode and has one perspective, its seat's (``knock.web.replay_views``).

Views repeat (a checkpoint changes nothing anyone sees) and score sheets grow slowly, so each distinct view and
sheet is stored once: a step names its views by their place in ``views``, a view its sheet by its place in
``sheets``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

from engine.cards import from_mask, sort_cards, to_mask
from engine.errors import render
from engine.events import GameOver, HandEnded, HandStarted, MatchEvent
from engine.match import Match
from engine.melds import best_arrangement
from engine.scoring import HandResult
from engine.visibility import SeatLens, Seen, observe_spectator
from knock.web import views
from knock.web.protocol import Message
from replay.log import Header, LogError, LogReader
from replay.narration import Voice, framing_text, line_of, narrate
from replay.replayer import Replayer
from replay.verdict import Verdict, judge

#: The format of a transcript (the replay client checks the major number).
FORMAT = "knock-transcript"
VERSION = (1, 1)
#: The records a whole transcript draws at most (``knock view``'s file); a longer log is judged whole and drawn up
#: to here. The replay endpoint draws pages (PROTO-18).
MAX_STEPS = 4000
#: The perspective that sees every card.
FULL = "full"
SPECTATOR = "spectator"
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
    >>> t = transcript(write_log(play_match(Match.new(seed=5), [GreedyBot(), GreedyBot()])))
    >>> t["verdict"]["verdict"], [p["key"] for p in t["perspectives"]], t["steps"][-1]["label"]
    ('pass', ['full', '0', '1', 'spectator'], 'trailer')
    """
    count = MAX_STEPS if count is None else count
    verdict = judge(data)
    expected = steps_in(verdict)
    first = max(0, expected - count) if start is None else max(0, start)
    out = Builder(frozenset([perspective]) if perspective is not None else None, first, max(0, count))
    header: Header | None = None
    perspectives: list[Message] = []
    problem: str | None = None
    ended = False
    try:
        header = LogReader(data).header
        view = header.view
        perspectives = _perspectives(header) if view is None else [_seat_perspective(header, view)]
        if perspective == FIRST and perspectives:
            perspective = perspectives[0]["key"]
            out.keys = frozenset([perspective])
        if perspective is not None and perspective not in {p["key"] for p in perspectives}:
            problem = f"the log has no perspective {perspective[:40]!r}"
        elif header.view is None:
            ended = _full_log(data, out)
        else:
            from knock.web.replay_views import view_log  # a view's own reader: public replay (LOG-12)

            ended = view_log(data, header, out)
    except LogError:
        ended = True  # where the log goes wrong is the verdict's to say; the steps stop before it
    except Exception as err:  # a bug drawing the log: the verdict stands, the steps stop, and it is said
        problem = f"the transcript stops early: {type(err).__name__}: {render(str(err))}"
        ended = True
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


# --- a full log ----------------------------------------------------------------------------------


class _Eyes:
    """The drawn perspectives' lenses on the game, each with the last event it saw (the advice a view shows), and
    the game's public facts, kept as the events go by (never searched for again: the work stays linear)."""

    def __init__(self, match: Match, keys: frozenset[str] | None) -> None:
        players = match.rules.players
        every = [FULL, *map(str, range(players)), SPECTATOR]
        self.keys: list[str] = [k for k in every if keys is None or k in keys]
        self.lenses: dict[str, SeatLens | None] = {}
        for k in self.keys:
            self.lenses[k] = None if k == FULL else SeatLens(match.rules, None if k == SPECTATOR else int(k))
        self.voice = Voice(seats=players)  #: how the steps are told (seats by number, cards with symbols)
        self.last: MatchEvent | None = None  #: the latest event (the advice a view shows, THREE-7)
        self.hand = 0
        self.started = False
        self.results: list[tuple[int, HandResult]] = []
        self.over = False

    def note(self, event: MatchEvent) -> None:
        """Keep the public facts of ``event``; a hand's start also moves every lens (their only state)."""
        self.last = event
        if isinstance(event, HandStarted):
            self.hand, self.started = event.number, True
            for lens in self.lenses.values():
                if lens is not None:
                    lens.see(event)
        elif isinstance(event, HandEnded):
            self.results.append((event.number, event.result))
        elif isinstance(event, GameOver):
            self.over = True

    def seen(self, key: str, event: MatchEvent) -> Seen:
        """``event`` (of the current hand, noted already) as perspective ``key`` saw it: a lens holds only the
        hand's sight, so seeing again is seeing the same."""
        lens = self.lenses[key]
        return event if lens is None else lens.see(event)

    def advice(self, key: str) -> list[Seen]:
        """The latest event as ``key`` saw it: what ``views`` reads the sitter's advice from."""
        return [] if self.last is None else [self.seen(key, self.last)]


def _full_log(data: bytes, out: Builder) -> bool:
    """A full log's steps: every record replayed, those in the window drawn with the game after them from the
    wanted perspectives (LOG-8); True if the log's end was reached."""
    states = Replayer(data).states()
    eyes: _Eyes | None = None
    fed = 0
    for state in states:
        match = state.match
        if eyes is None:
            eyes = _Eyes(match, out.keys)
        drawn = out.wanted()
        seen: dict[str, list[str]] = {k: [] for k in eyes.keys} if drawn else {}
        if state.event is not None:
            upto = _position(match.events, state.event, fed)
            for e in match.events[fed : upto + 1]:
                eyes.note(e)
                if drawn:
                    for k in eyes.keys:
                        seen[k].append(narrate(eyes.seen(k, e), eyes.voice))
            fed = upto + 1
        label = ""
        shown: dict[str, Message | None] = dict.fromkeys(eyes.keys)
        if drawn:
            label = line_of(state.event, eyes.voice) if state.event is not None else framing_text(state.record)
            if eyes.started:
                shown = _shown(match, eyes)
        if not out.step(state.index, eyes.hand, label, seen, shown):
            return False
    return True


def _position(events: list[MatchEvent], event: MatchEvent, start: int) -> int:
    """Where ``event`` (this very object) stands in the game's events, from ``start`` on."""
    for i in range(start, len(events)):
        if events[i] is event:
            return i
    return start - 1  # already fed (a record standing for an event seen with an earlier record)


def _shown(match: Match, eyes: _Eyes) -> dict[str, Message | None]:
    """The game now from every drawn perspective."""
    pub = views.Public(match.rules, match.roles(), eyes.results, match.standings(), eyes.over)
    shown: dict[str, Message | None] = {}
    for k in eyes.keys:
        if k == FULL:
            shown[k] = full_view(match, pub, eyes.advice(k))
        elif k == SPECTATOR:
            shown[k] = views.spectator_view(observe_spectator(match), pub, eyes.advice(k))
        else:
            shown[k] = views.seat_view(match.observation(int(k)), pub, eyes.advice(k))
    return shown


def full_view(match: Match, pub: views.Public, seen: list[Seen]) -> Message:
    """The game with every card shown (an auditor of a full log sees it all): the spectator's view with each
    dealt seat's hand, its best melds and deadwood, the stock in order (top first) and the knock's face-down card.
    """
    body = views.spectator_view(observe_spectator(match), pub, seen)
    hand = match.hand
    assert hand is not None
    hands = []
    for seat in hand.seats:
        cards = from_mask(hand.hands[seat])
        arr = best_arrangement(to_mask(cards)) if cards else None
        hands.append({
            "seat": seat, "cards": views.card_list(sort_cards(cards)),
            "melds": views.meld_list(arr.melds) if arr is not None else [],
            "deadwood_cards": views.card_list(arr.deadwood_cards) if arr is not None else [],
            "deadwood": arr.deadwood if arr is not None else 0,
        })  # fmt: skip
    body.update({
        "role": FULL,
        "hands": hands,
        "stock_cards": views.card_list(reversed(hand.stock)),
        "knock_discard": str(hand.knock_card) if hand.knock_card is not None else None,
        "taken": str(hand.taken) if hand.taken is not None else None,
    })  # fmt: skip
    return body


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
