"""A game's end before the target, as a per-seat view's reader sees it: the records of a resignation, an abort, a
forfeit and a claim, and the host's record of a seat leaving the table and coming back (END-1 .. END-5, LOG-24).

Every fact these records are judged by is public — who has acted in the first hand, who is away and since when,
the last time recorded, the running scores — so a view's reader checks them exactly as a full replay does: the
decisions are the rules kernel's (``engine.kernel``: ``verify_abort``, ``verify_claim``, ``early_winner`` …), the
same functions ``engine.match.Match`` asks. A full log's reader (``replay.replayer``) needs none of this: it hands
each record to the match itself.
"""

from __future__ import annotations

from typing import Any

from engine import kernel
from engine.events import FORFEIT_REASONS
from engine.facts import Attendance
from engine.kernel import Refused
from engine.rules import RuleSet
from replay.codec import NAMED_VERSION, RECORD_NAMES, WAVE_RECORDS
from replay.log import Entry, LogError


def check_version(version: tuple[int, int], entry: Entry) -> None:
    """A record of the wave's step only in a log of version 3.0 or later. Rule: LOG-24."""
    record = entry.record
    if version[0] < NAMED_VERSION[0] and type(record) is list and record and record[0] in WAVE_RECORDS:
        raise LogError("LOG-24", entry.index, f"a {RECORD_NAMES[record[0]]} record in a log of version "
                       f"{version[0]}.{version[1]}: it is a record of version 3.0")  # fmt: skip


def forfeit_reason(entry: Entry) -> str:
    """The reason a forfeit record gives (END-3): its code, 0 … 1."""
    code = entry.record[2]
    if code >= len(FORFEIT_REASONS):
        raise LogError("END-3", entry.index, f"a forfeit's reason is 0 (timeout) or 1 (no reveal), not {code}")
    return FORFEIT_REASONS[code]


class Ends:
    """What a view's reader keeps of a game's early end: the facts it is judged by (``engine.facts.Attendance``, as
    the game keeps them) and, once the game has ended early, the seat that lost (None after an abort)."""

    def __init__(self, rules: RuleSet, version: tuple[int, int]) -> None:
        self.rules = rules
        self.version = version
        self.seen = Attendance()
        self.ended = False
        self.abandoned = False  #: ended by the host as abandoned (END-6)
        self.loser: int | None = None

    def take(self, entry: Entry, over: bool) -> bool:
        """Judge an ending or a presence record (the grammar placed it); True if it ends the game.

        Raises:
            LogError: naming the record and the rule it breaks (LOG-24, MATCH-1, THREE-1, END-1 .. END-4).
        """
        check_version(self.version, entry)
        rec: list[Any] = entry.record
        kind = RECORD_NAMES[rec[0]]
        if kind == "abandon":  # the host's end of a game nobody attends: no seat, its time (END-6)
            try:
                kernel.verify_going_on(over or self.ended)
                kernel.verify_time(rec[1], self.seen.clock)
            except Refused as err:
                raise LogError(err.rule, entry.index, err.reason) from None
            self.seen.record(kind, -1, rec[1])
            self.ended, self.abandoned, self.loser = True, True, None
            return True
        seat = rec[1]
        absent, at = (rec[2], rec[3]) if kind == "claim" else (None, rec[2] if kind in ("away", "back") else None)
        try:
            if kind == "forfeit":
                kernel.verify_going_on(over or self.ended)
                kernel.verify_seat_in_game(self.rules.players, seat)
            else:
                kernel.verify_end(self.rules.players, over or self.ended, self.seen, self.rules.claim_after, kind, seat,
                                  absent, at)  # fmt: skip
        except Refused as err:
            raise LogError(err.rule, entry.index, err.reason) from None
        if kind == "forfeit":
            forfeit_reason(entry)
        if at is not None:
            self.seen.record(kind, seat, at)
        if kind in ("away", "back"):
            return False
        self.ended = True
        self.loser = None if kind == "abort" else absent if kind == "claim" else seat
        return True

    def check_game_over(self, record: Any, entry: Entry, running: tuple[int, ...], order: tuple[int, ...]) -> None:
        """The game's end after an early one: END-1's winner (none after an abort, END-2) and the running scores as
        the totals, every seat's (END-5). ``order``: the seats in the order box (dealer), captain, sitter."""
        winner = None if self.loser is None else kernel.early_winner(self.loser, running, order)
        if record[1] != winner:
            who = "no seat" if winner is None else f"p{winner}"
            found = "none" if record[1] is None else f"p{record[1]}"
            rule = "END-1" if winner is not None else "END-6" if self.abandoned else "END-2"
            raise LogError(rule, entry.index, f"{who} won the game, not {found}")
        if tuple(record[2]) != running:
            raise LogError("END-5", entry.index, f"the final totals are the running scores {list(running)}, not "
                           f"{record[2]}")  # fmt: skip
