"""The host's steps in a conformance case (CONF-12): a forfeit the table declares, its record of a seat leaving
the table and coming back, and its end of a game nobody attends (END-3, END-4, END-6). They are no player's
action, so the notation has no text for them; a case writes them in its ``actions`` as ``p1 forfeit timeout``,
``p1 away 1000``, ``p1 back 1030`` and ``abandon 2000``, and the runner takes each as the host would."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine import notation
from engine.actions import Abort, Claim, Resign
from engine.events import FORFEIT_REASONS, MatchEvent
from engine.match import Match, ending_event
from replay.codec import T_ABANDON, T_AWAY, T_BACK, T_FORFEIT, Record, event_record

_STEP = re.compile(r"p([0-9])[ \t\n\v\f\r]+(forfeit|away|back)[ \t\n\v\f\r]+([0-9a-z_]+)", re.IGNORECASE)
_ABANDON = re.compile(r"(abandon)[ \t\n\v\f\r]+([0-9a-z_]+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class HostStep:
    """A host's step in a case: ``verb`` (``forfeit``, ``away``, ``back``; ``abandon``, of no seat) by ``seat``, with
    its reason or time."""

    seat: int | None
    verb: str
    arg: str

    def apply(self, match: Match) -> list[MatchEvent]:
        """Take the step in ``match`` (refused as the engine refuses it: ``IllegalAction``)."""
        at = int(self.arg) if self.arg.isdigit() else -1  # a time that is no number: refused (END-4)
        if self.seat is None:
            return match.abandon(at)
        if self.verb == "forfeit":
            return match.forfeit(self.seat, self.arg)
        return match.away(self.seat, at) if self.verb == "away" else match.back(self.seat, at)

    def __str__(self) -> str:
        return f"{self.verb} {self.arg}" if self.seat is None else f"p{self.seat} {self.verb} {self.arg}"

    def record(self) -> list[Any]:
        """The record the step would be written as, for the log form of a case refused at it (CONF-4)."""
        if self.seat is None:
            return [T_ABANDON, int(self.arg) if self.arg.isdigit() else 0]
        if self.verb == "forfeit":
            code = FORFEIT_REASONS.index(self.arg) if self.arg in FORFEIT_REASONS else len(FORFEIT_REASONS)
            return [T_FORFEIT, self.seat, code]
        return [T_AWAY if self.verb == "away" else T_BACK, self.seat, int(self.arg) if self.arg.isdigit() else 0]


def host_step(text: str) -> HostStep | None:
    """The host's step a case's action text is, or None (an action of the notation, or no text at all)."""
    text = text.strip(" \t\n\v\f\r")
    m = _STEP.fullmatch(text)
    if m is not None:
        return HostStep(int(m.group(1)), m.group(2).lower(), m.group(3).lower())
    m = _ABANDON.fullmatch(text)
    return None if m is None else HostStep(None, "abandon", m.group(2).lower())


def ending_record(action: Resign | Abort | Claim) -> Record:
    """The record of a resignation, an abort or a claim (LOG-24), for the log form of a case refused at it: the
    record of the event it would have made (``engine.match.ending_event``, ``replay.codec.event_record``)."""
    record = event_record(ending_event(action))
    assert record is not None
    return record


def ends_early(texts: list[str]) -> bool:
    """Whether a case's actions hold a game's end or a host's step: its log is then of version 3.0 (LOG-24)."""
    for text in texts:
        if host_step(text) is not None:
            return True
        words = notation.words(text)
        if any(w.lower() in notation.ENDING_VERBS for w in words[:2]):
            return True
    return False
