"""Per-seat views of a log: what ``engine.visibility`` lets a seat see, written down as a log.

Rule: LOG-11 (spec/log-format.md). ``redact(log, seat)`` gives the log a client at that seat may receive: the
log is replayed strictly, each record's event passes through the seat's ``SeatLens`` and is written as
the view's record (``view_record``); the log's own framing is kept, its checkpoints and trailer
recomputed. A view replays in public mode (``replay.public.ViewReplayer``).
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Iterator
from typing import Any, BinaryIO

from engine.events import Dealt, DrewStock
from engine.hand import HAND_SIZE
from engine.visibility import HiddenAdvice, HiddenDraw, HiddenKnock, SeatLens, Seen, shown_meta
from replay.codec import (
    DRAW,
    KNOCK_HIDDEN,
    NAMED_VERSION,
    SIGNED_VERSION,
    T_ADVICE,
    T_CHECKPOINT,
    T_DEAL,
    T_SEEN_DRAW,
    T_TRAILER,
    UNKNOWN,
    VERSION,
    Record,
    chain,
    event_record,
    header_digest,
    pack,
)
from replay.log import LogError, LogTruncated
from replay.replayer import Replayer, ReplayState
from replay.signing import SigningKey

__all__ = ["redact", "view_record"]


def redact(
    source: BinaryIO | bytes,
    seat: int,
    *,
    key: SigningKey | None = None,
    table: str | None = None,
    made: int | None = None,
) -> bytes:
    """The view of a sound log for ``seat``, with a fresh digest chain over its own bytes. Rule: LOG-11.

    ``key`` signs the view (LOG-18, the seat in every seal): a version-3.0 view whose header names the key's public
    half, whoever signed the log it is made of, with the ``table`` it is of and the time it was ``made`` (seconds
    since 1970-01-01 UTC), both required with a key (LOG-23): a signed view says which game and when, so that an
    old one is not taken for new. Without a key the view is unsigned: version 1.0, or 2.0 of a fair log (LOG-20),
    whether the log was signed or not; the view of a log of version 3.0 (which may hold a game's early end and the
    host's record of absences, LOG-24) is of version 3.0.

    The view of an unfinished log (a game in progress, LOG-13) is unfinished too: it ends after the last
    record the replay has placed.

    Raises:
        LogError: the log does not replay (a view is only made of a sound log), or no such seat.
    """
    replayer = Replayer(source, history=False)  # the view needs each event once, never the history (LOG-15)
    header = replayer.reader.header
    if not 0 <= seat < len(header.players):
        raise LogError("LOG-11", 0, f"no seat p{seat} in a game of {len(header.players)}")
    if key is not None and (type(table) is not str or not table or type(made) is not int or made < 0):
        raise LogError("LOG-23", 0, "a signed view names its table (text, not empty) and the time it was made "
                       "(seconds since 1970-01-01 UTC, a whole number)")  # fmt: skip
    if key is None and (table is not None or made is not None):
        raise LogError("LOG-23", 0, "only a signed view names its table and time")
    wave = key is not None or header.version[0] >= NAMED_VERSION[0]  # a view of a 3.0 log may hold its records
    version = NAMED_VERSION if wave else SIGNED_VERSION if header.fair else VERSION
    shown = dataclasses.replace(header, version=version, meta=shown_meta(header.meta), view=seat,
                                signer=key.public if key is not None else None, table=table, made=made)  # fmt: skip
    head = pack(shown.to_wire())
    out = io.BytesIO()
    out.write(head)
    digest = header_digest(head)
    lens = SeatLens(replayer.rules, seat)
    for count, state in enumerate(_so_far(replayer.states())):
        rec: Any = state.record
        if state.event is not None:
            rec = view_record(lens.see(state.event))
        elif rec[0] == T_CHECKPOINT or rec[0] == T_TRAILER:
            rec = [T_CHECKPOINT, digest] if rec[0] == T_CHECKPOINT else [T_TRAILER, count, digest]
            if key is not None:
                rec.append(key.sign_seal(seat, count + 1, rec[0], digest))
        data = pack(rec)
        out.write(data)
        digest = chain(digest, data)
    return out.getvalue()


def view_record(seen: Seen) -> Record:
    """The record of an event as a seat saw it, in the seat's view of the log (LOG-11); ``engine.visibility``
    decides what is seen, this only writes it down."""
    match seen:
        case HiddenDraw():
            return DRAW
        case DrewStock(card=c):  # a draw the seat saw: its own (or, for a sitter, the captain's)
            return [T_SEEN_DRAW, c.index]
        case HiddenKnock():
            return KNOCK_HIDDEN
        case HiddenAdvice(seat=seat):
            return [T_ADVICE, seat, None]
        case Dealt():
            codes = bytearray(UNKNOWN for _ in range(52))
            non_dealer, dealer = (0, 1) if seen.seats[0] != seen.dealer else (1, 0)
            for i, c in enumerate(seen.hands[non_dealer]):  # DEAL-3: the non-dealer's cards at 0, 2, 4, ...
                codes[2 * i] = c.index
            for i, c in enumerate(seen.hands[dealer]):
                codes[2 * i + 1] = c.index
            codes[2 * HAND_SIZE] = seen.upcard.index  # a log is of the standard deck: the upcard is at 20
            return [T_DEAL, bytes(codes)]
    record = event_record(seen)
    assert record is not None, f"{seen!r} has no record of its own"
    return record


def _so_far(states: Iterator[ReplayState]) -> Iterator[ReplayState]:
    """The states of a log as far as it goes: one that ends cleanly before its trailer is a game in progress
    (LOG-7, LOG-13), and has a view of what it holds."""
    try:
        yield from states
    except LogTruncated as err:
        if not err.clean:
            raise
