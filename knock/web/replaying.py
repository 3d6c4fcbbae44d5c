"""A log replayed for the replay client: after each record, the game from each wanted perspective, written by
``knock.web.views`` (the one writer of a view). Rules: LOG-8, LOG-12, PROTO-5, PROTO-6.

A full log is replayed strictly (``replay.replayer``) and, after each record, drawn from each perspective:
``full`` (every card, for an auditor), each seat (``Match.observation`` and a ``SeatLens``, exactly as a live
table sends the seat its view) and ``spectator`` (``observe_spectator``, ``SeatLens(rules, None)``). A per-seat
view (LOG-11) is replayed in public mode (``replay.audit.view_events``) and has one perspective, its seat's.
Where the steps go is the caller's (``Steps``: ``knock.web.transcript``'s builder).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from engine.events import GameOver, HandEnded, HandStarted, MatchEvent
from engine.match import Match
from engine.rules import RuleSet
from engine.scoring import HandResult
from engine.visibility import SeatLens, Seen, observe_spectator
from knock.web import views
from knock.web.protocol import Message
from replay.audit import view_events
from replay.grammar import Kind, classify
from replay.log import Header
from replay.narration import Voice, framing_text, line_of, narrate
from replay.replayer import Replayer, ReplayState

#: The perspective that sees every card, and the spectators'.
FULL = "full"
SPECTATOR = "spectator"


class Steps(Protocol):
    """Where a replay's steps go: a window of them (``start``, ``count``), from some perspectives (``keys``)."""

    keys: frozenset[str] | None
    start: int
    count: int
    seen: int

    def wanted(self) -> bool:
        """Whether the next step is in the window (its views are then to be made)."""

    def step(
        self, record: int, hand: int, label: str, seen: dict[str, list[str]], shown: dict[str, Message | None]
    ) -> bool:
        """Take one record's step; False once the window is past (no more are wanted)."""


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
        #: the public facts every view shares, made once a hand, a result and the game's end (a long game's sheet is
        #: long: made at every step it would be most of a page's work)
        self.public: tuple[tuple[int, int, bool], views.Public] | None = None

    def shared(self, match: Match) -> views.Public:
        """What every view of the game shares now (``views.Public``), made again only once it changes."""
        key = (self.hand, len(self.results), self.over)
        if self.public is None or self.public[0] != key:
            pub = views.Public(match.rules, match.roles(), self.results, match.standings(), self.over)
            self.public = (key, pub)
        return self.public[1]

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


def full_log(data: bytes, out: Steps) -> bool:
    """A full log's steps: every record replayed, those in the window drawn with the game after them from the
    wanted perspectives (LOG-8); True if the log's end was reached.

    Raises:
        LogError: where the log goes wrong (the steps stop before it).
    """
    return full_states(Replayer(data).states(), out)


def full_states(states: Iterator[ReplayState], out: Steps) -> bool:
    """``full_log``'s steps from a replay's states (the game keeping its history): those in the window drawn; True
    if the states ended before the window did (the log's end reached). Rule: LOG-8.

    Raises:
        LogError: where the log goes wrong (the steps stop before it).
    """
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
    pub = eyes.shared(match)
    shown: dict[str, Message | None] = {}
    for k in eyes.keys:
        if k == FULL:
            shown[k] = views.full_view(match, pub, eyes.advice(k))
        elif k == SPECTATOR:
            shown[k] = views.spectator_view(observe_spectator(match), pub, eyes.advice(k))
        else:
            shown[k] = views.seat_view(match.observation(int(k)), pub, eyes.advice(k))
    return shown


# --- a per-seat view -----------------------------------------------------------------------------


def view_log(data: bytes, header: Header, out: Steps) -> bool:
    """The steps of a per-seat view: every record replayed, those in the window drawn with the seat's view after
    them (LOG-12), each told by ``replay.narration`` from the event it records as the seat saw it; True if the
    view's end was reached.

    Raises:
        LogError: where the view goes wrong (the steps stop before it).
    """
    rules = RuleSet.from_dict(header.rules)
    voice = Voice(seats=rules.players)
    key = str(header.view)
    results: list[tuple[int, HandResult]] = []
    started = False
    body: Message | None = None
    for entry, st, event in view_events(data):
        kind = classify(entry.record, view=True)
        if kind is Kind.RESULT and st.result is not None:
            results.append((st.number, st.result))
        started = started or kind is Kind.DEAL
        drawn = out.wanted()
        # A hand record's roles are drawn with its deal, the next record: it shows the view before it, so the
        # record before the window is drawn too (and none before that: the state is not kept).
        if started and kind is not Kind.HAND and out.start - 1 <= out.seen < out.start + out.count:
            body = views.public_view(st, rules, results)
        label = "" if not drawn else line_of(event, voice) if event is not None else framing_text(entry.record)
        if not out.step(entry.index, st.number, label, {key: [label]}, {key: body if drawn else None}):
            return False
    return True
