"""The forms of the log's records (spec/log-format.md, the table of records; LOG-2): each kind of record's
length and the kind of every field, checked before its content is (``replay.fair``, the replayers). The codes
and names are ``replay.codec``'s; this module says which values have a record's shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from replay.codec import (
    BIG_GIN,
    DECLINE,
    DISCARD_BASE,
    DRAW,
    KNOCK_BASE,
    KNOCK_HIDDEN,
    PASS,
    PICKUP,
    RECORD_NAMES,
    T_ABANDON,
    T_ABORT,
    T_ADVICE,
    T_AWAY,
    T_BACK,
    T_CHECKPOINT,
    T_CLAIM,
    T_COMMIT,
    T_CUT,
    T_DEAL,
    T_FAIR_COMMIT,
    T_FAIR_REVEAL,
    T_FORFEIT,
    T_GAME_OVER,
    T_HAND,
    T_LAYOFF,
    T_RESIGN,
    T_RESULT,
    T_REVEAL,
    T_SEAT_COMMITS,
    T_SEEDS,
    T_SEEN_DRAW,
    T_SPREAD,
    T_STATEMENT,
    T_TRAILER,
    TAKE,
    UNKNOWN,
    CodecError,
)

_CARD_CODES = bytes(range(52))
_VIEW_CODES = _CARD_CODES + bytes((UNKNOWN,))
ACTION_CODES = frozenset((PASS, TAKE, DRAW, PICKUP, DECLINE, BIG_GIN, *range(DISCARD_BASE, DISCARD_BASE + 52),
                          *range(KNOCK_BASE, KNOCK_BASE + 52)))  # fmt: skip


def _n(v: Any) -> bool:
    """A number: a non-negative integer (never a boolean, a float or nil)."""
    return type(v) is int and v >= 0


def _n_or_nil(v: Any) -> bool:
    return v is None or (type(v) is int and v >= 0)


def _numbers(v: Any) -> bool:
    """A list of numbers. (Loops, not generators, in the checks of the common records: they run for most.)"""
    if type(v) is not list:
        return False
    for x in v:  # noqa: SIM110 -- a loop is twice as fast as all() over a generator here
        if type(x) is not int or x < 0:
            return False
    return True


def _codes(v: Any, allowed: bytes = _CARD_CODES) -> bool:
    """Card codes: a ``bin`` of bytes 0..51 (and 255 where a view hides a card)."""
    return type(v) is bytes and not v.translate(None, allowed)


def _all_codes(vs: list[Any]) -> bool:
    """A list of card codes' ``bin`` values (melds)."""
    for v in vs:  # noqa: SIM110 -- as in _numbers
        if type(v) is not bytes or v.translate(None, _CARD_CODES):
            return False
    return True


def _view_deck(v: Any) -> bool:
    """A deal in a view: 52 codes, 255 for the cards the seat is not shown, never the upcard (LOG-11)."""
    return _codes(v, _VIEW_CODES) and len(v) == 52 and v[20] != UNKNOWN


def _spread_form(v: list[Any]) -> bool:
    return _all_codes(v[1:])


def _layoff_form(v: list[Any]) -> bool:
    if len(v) != 3 or type(v[1]) is not list or type(v[2]) is not list or not _all_codes(v[1]):
        return False
    for lo in v[2]:
        if type(lo) is not list or len(lo) != 2 or type(lo[0]) is not int or not 0 <= lo[0] < 52 or not _codes(lo[1]):
            return False
    return True


def _bin32(v: Any) -> bool:
    return type(v) is bytes and len(v) == 32


def _seeds_form(v: list[Any]) -> bool:
    """The seats' seeds of a fair hand (LOG-21): a list of seeds (bytes) and a list of seats (numbers). How many
    seeds, of how many bytes, and which seats, are content: DEAL-5 and LOG-21 (``replay.fair``)."""
    seeds, supplied = v[1], v[2]
    return type(seeds) is list and all(type(x) is bytes for x in seeds) and _numbers(supplied)


def _action(v: Any, view: bool) -> bool:
    if type(v) is int:
        return v in ACTION_CODES or (view and v == KNOCK_HIDDEN)
    if type(v) is not list or not v:
        return False
    return (v[0] == T_SPREAD and _spread_form(v)) or (v[0] == T_LAYOFF and _layoff_form(v))


def _hand(v: list[Any], view: bool) -> bool:
    _, number, dealer, a, b, sitter = v
    return _n(number) and _n(dealer) and _n(a) and _n(b) and _n_or_nil(sitter)


def _result(v: list[Any], view: bool) -> bool:
    _, number, kind, winner, points, knocker, dw_a, dw_b, multiplier, reason, scores = v
    return (
        _n(number) and _n(kind) and _n(points) and _n(multiplier) and _n(reason) and _n_or_nil(winner)
        and _n_or_nil(knocker) and _n_or_nil(dw_a) and _n_or_nil(dw_b) and _numbers(scores)
    )  # fmt: skip


#: Every array record's form (LOG-2): its length (None: any), a check of the whole, and how the table writes it.
FORMS: dict[int, tuple[int | None, Callable[[list[Any], bool], bool], str]] = {
    T_CUT: (3, lambda v, _: _numbers(v[1]) and 1 <= len(v[1]) <= 3 and _codes(v[2]),
            "[0, [seat, …], bin cards]"),
    T_HAND: (6, _hand, "[1, number, dealer, seat_a, seat_b, sitter or nil]"),
    T_DEAL: (2, lambda v, view: _codes(v[1]) or (view and _view_deck(v[1])),
             "[2, bin card codes] (in a view: 52 codes, 255 for a card not shown, the upcard shown)"),
    T_SPREAD: (None, lambda v, _: _spread_form(v), "[3, bin meld, …]"),
    T_LAYOFF: (3, lambda v, _: _layoff_form(v), "[4, [bin meld, …], [[card, bin meld], …]]"),
    T_ADVICE: (3, lambda v, view: _n(v[1]) and (_action(v[2], view) or (view and v[2] is None)),
               "[5, seat, action]"),
    T_RESULT: (11, _result, "[6, number, kind, winner, points, knocker, dw_a, dw_b, multiplier, reason, [score, …]]"),
    T_GAME_OVER: (3, lambda v, _: _n_or_nil(v[1]) and _numbers(v[2]), "[7, winner or nil, [total, …]]"),
    T_CHECKPOINT: (None, lambda v, _: len(v) in (2, 3) and all(type(x) is bytes for x in v[1:]),
                   "[8, bin digest] (signed, LOG-18: [8, bin digest, bin signature])"),
    T_TRAILER: (None, lambda v, _: len(v) in (3, 4) and _n(v[1]) and all(type(x) is bytes for x in v[2:]),
                "[9, count, bin digest] (signed, LOG-18: [9, count, bin digest, bin signature])"),
    T_COMMIT: (2, lambda v, _: type(v[1]) is bytes, "[10, bin digest]"),
    T_REVEAL: (2, lambda v, _: type(v[1]) is bytes, "[11, bin salt]"),
    T_SEEN_DRAW: (2, lambda v, view: view and type(v[1]) is int and 0 <= v[1] < 52, "[12, card] (in a view only)"),
    T_FAIR_COMMIT: (2, lambda v, _: _bin32(v[1]), "[13, bin 32 commitment]"),
    T_SEEDS: (3, lambda v, _: _seeds_form(v), "[14, [bin seed, …], [seat, …]]"),
    T_FAIR_REVEAL: (2, lambda v, _: type(v[1]) is bytes, "[15, bin server seed]"),  # its length: DEAL-5
    T_RESIGN: (2, lambda v, _: _n(v[1]), "[16, seat]"),
    T_ABORT: (2, lambda v, _: _n(v[1]), "[17, seat]"),
    T_FORFEIT: (3, lambda v, _: _n(v[1]) and _n(v[2]), "[18, seat, reason]"),
    T_CLAIM: (4, lambda v, _: _n(v[1]) and _n(v[2]) and _n(v[3]), "[19, seat, absent seat, time]"),
    T_AWAY: (3, lambda v, _: _n(v[1]) and _n(v[2]), "[20, seat, time]"),
    T_BACK: (3, lambda v, _: _n(v[1]) and _n(v[2]), "[21, seat, time]"),
    T_ABANDON: (2, lambda v, _: _n(v[1]), "[22, time]"),
    # how many commitments, of how many bytes: content (DEAL-5, ``replay.fair``)
    T_SEAT_COMMITS: (2, lambda v, _: type(v[1]) is list and all(type(x) is bytes for x in v[1]),
                     "[23, [bin commitment, …]]"),
    T_STATEMENT: (4, lambda v, _: _n(v[1]) and type(v[2]) is bytes and type(v[3]) is bytes,
                  "[24, seat, bin key, bin signature]"),  # the lengths: LOG-17's, under DEAL-12
}  # fmt: skip


def check_form(record: Any, view: bool = False) -> None:
    """Refuse a record that has none of the forms of the format's table (in a per-seat view, ``view``, also the
    view's own forms): the right type of record, length and type of every field (integers non-negative, never
    booleans or floats; card codes 0..51). Whether the values make sense is the replayer's question. Rule: LOG-2.

    Raises:
        CodecError: naming the form the record should have.
    """
    if type(record) is int:
        if record in ACTION_CODES or (view and record == KNOCK_HIDDEN):
            return
        raise CodecError(f"unknown action code {record}")
    if type(record) is not list or not record or type(record[0]) is not int or record[0] not in FORMS:
        raise CodecError(f"no record has the form {_shown(record)}")
    size, ok, form = FORMS[record[0]]
    if (size is not None and len(record) != size) or not ok(record, view):
        raise CodecError(f"a {RECORD_NAMES[record[0]]} record is {form}, not {_shown(record)}")


def _shown(record: Any) -> str:
    """A refused record for its message, cards in their notation (``replay.notation``, which reads this module's
    codes: imported here, on the error path, not at the top)."""
    from replay.notation import record_text

    return record_text(record)
