"""The format's limits and value types (LOG-1, LOG-2): hostile bytes end in a ``LogError`` naming the record.

Arrays nested a thousand deep, huge length claims, oversized records and headers, duplicate or non-text map
keys, floats and booleans where integers belong: each is refused at its record, and no message about it can
fail to be made.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import DECK, Card, cards
from engine.match import Match
from engine.rules import RuleSet
from replay.codec import (
    MAX_DEPTH,
    MAX_HEADER_BYTES,
    MAX_RECORD_BYTES,
    CodecError,
    chain,
    header_digest,
    pack,
    too_deep,
    unpacked,
)
from replay.forms import check_form
from replay.log import LogError, LogReader, LogWriter, write_log
from replay.verdict import judge

ROOT = Path(__file__).resolve().parents[2]
SMALL = (ROOT / "tests" / "golden" / "standard-1.knock").read_bytes()


def split(data: bytes) -> tuple[Any, list[bytes]]:
    parts = list(unpacked(io.BytesIO(data)))
    return parts[0][0], [raw for _, raw in parts[1:]]


def resealed(header: Any, records: list[bytes]) -> bytes:
    """Stored records after a (re-encoded) header, every checkpoint and the trailer recomputed: only the change
    itself is wrong."""
    head = msgpack.packb(header, use_bin_type=True)
    digest = header_digest(head)
    out = [head]
    for i, raw in enumerate(records, start=1):
        value = msgpack.unpackb(raw)
        if isinstance(value, list) and value and value[0] == 8:
            raw = pack([8, digest])
        elif isinstance(value, list) and value and value[0] == 9:
            raw = pack([9, i - 1, digest])
        digest = chain(digest, raw)
        out.append(raw)
    return b"".join(out)


def kinds(records: list[bytes]) -> list[int | None]:
    """Each stored record's type (None for a one-byte action)."""
    return [v[0] if isinstance(v := msgpack.unpackb(r), list) else None for r in records]


def nested(depth: int) -> Any:
    """An integer inside ``depth`` arrays."""
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def error(data: bytes) -> LogError:
    """The ``LogError`` that reading and replaying ``data`` ends in (it must end in one)."""
    verdict = judge(data)
    assert verdict.kind == "fail" and not verdict.internal, verdict.message
    try:
        reader = LogReader(data)
        for _ in reader.entries():
            pass
    except LogError as err:
        if err.record == verdict.record:
            return err
    return LogError(verdict.rule, verdict.record or 0, verdict.message)


# --- LOG-2: nesting depth --------------------------------------------------------------------------------


@pytest.mark.rule("LOG-2")
def test_depth_is_counted_without_recursion() -> None:
    assert not too_deep(nested(MAX_DEPTH)) and too_deep(nested(MAX_DEPTH + 1))
    assert too_deep(nested(100_000))  # far beyond Python's recursion limit
    assert not too_deep({"a": [{"b": [1]}]}) and too_deep({"a": [{"b": [1]}]}, limit=3)


@pytest.mark.rule("LOG-1", "LOG-2")
@pytest.mark.parametrize("where", ["rule value", "meta", "result record", "spread record", "appended record"])
def test_arrays_nested_a_thousand_deep_are_refused_at_their_record(where: str) -> None:
    header, records = split(SMALL)
    deep = nested(1000)
    if where == "rule value":
        header["rules"]["target"] = deep
    elif where == "meta":
        header["meta"]["x"] = deep
    elif where == "result record":
        at = kinds(records).index(6)
        records[at] = msgpack.packb([6, 1, 0, 0, 98, 0, 0, deep, 1, 0, [98, 0]])
    elif where == "spread record":
        at = kinds(records).index(3)
        records[at] = msgpack.packb([3, deep])
    data = resealed(header, records)
    if where == "appended record":  # after the last record before the trailer, not sealed
        data = data[:-37] + msgpack.packb(deep)
    err = error(data)
    assert err.rule == "LOG-2"  # bytes before the header's keys (LOG-13), in the header as in a record
    assert err.record == (0 if where in ("rule value", "meta") else err.record) and len(str(err)) < 400


# --- LOG-2: sizes and length claims -------------------------------------------------------------------------


@pytest.mark.rule("LOG-2")
@pytest.mark.parametrize(
    "claim",
    ["dd ffffffff", "dc ffff", "df ffffffff", "c6 ffffffff", "db ffffffff", "c9 ffffffff 01", "c4 ff", "da 1001"],
    ids=["array32", "array16", "map32", "bin32", "str32", "ext32", "bin8-over-64", "str16-over-4096"],
)
def test_huge_length_claims_are_refused_without_waiting_for_the_data(claim: str) -> None:
    data = SMALL[:-37] + bytes.fromhex(claim.replace(" ", "")) + b"\x00" * (MAX_RECORD_BYTES + 10)
    err = error(data)
    assert err.rule == "LOG-2" and err.record == len(split(SMALL)[1])
    short = judge(SMALL[:-37] + bytes.fromhex(claim.replace(" ", "")) + b"\x00" * 10)
    assert short.kind == "fail" and short.rule in ("LOG-2", "LOG-7")  # refused, or a value cut short


@pytest.mark.rule("LOG-2")
def test_a_record_over_the_size_limit_is_refused() -> None:
    header, records = split(SMALL)
    big = msgpack.packb([3, *[bytes(range(52))] * 20], use_bin_type=True)
    assert len(big) > MAX_RECORD_BYTES
    records.insert(4, big)
    err = error(resealed(header, records))
    assert err.rule == "LOG-2" and err.record == 5 and "limit" in err.reason


@pytest.mark.rule("LOG-1", "LOG-2")
def test_a_header_over_the_size_limit_is_refused_and_never_written() -> None:
    header, records = split(SMALL)
    header["meta"] = {f"k{i}": "x" * 4000 for i in range(20)}
    err = error(resealed(header, records))
    assert err.rule == "LOG-2" and err.record == 0 and str(MAX_HEADER_BYTES) in err.reason  # LOG-13: bytes first
    with pytest.raises(LogError, match="LOG-1"):
        write_log(Match.new(seed=1), meta=header["meta"])
    with pytest.raises(LogError, match="LOG-1"):
        write_log(Match.new(seed=1), meta={"deep": nested(MAX_DEPTH)})


@pytest.mark.rule("LOG-2")
@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=MAX_RECORD_BYTES + 100))
def test_any_bytes_after_a_valid_header_end_in_a_log_error_naming_record_1(junk: bytes) -> None:
    header_end = len(msgpack.packb(split(SMALL)[0], use_bin_type=True))
    verdict = judge(SMALL[:header_end] + junk)
    assert verdict.kind in ("fail", "unfinished") and not verdict.internal, verdict.message
    assert verdict.record is not None and verdict.record >= (0 if verdict.kind == "unfinished" else 1)


# --- LOG-2: the value types of records -----------------------------------------------------------------------

WELL_FORMED: list[Any] = [
    0, 5, 8 + 51, 64, [0, [0, 1], b"\x05\x09"], [1, 1, 0, 0, 1, None], [2, bytes(range(52))], [3], [3, b"\x00\x01\x02"],
    [4, [], []], [4, [b"\x00\x01\x02"], [[3, b"\x04\x05\x06"]]], [5, 2, 8], [5, 2, [4, [], []]],
    [6, 1, 5, None, 0, None, None, None, 1, 1, [0, 0]], [7, 0, [100, 0]], [8, bytes(32)], [9, 10, bytes(32)],
    [10, bytes(32)], [11, b"salt"],
]  # fmt: skip
ILL_FORMED: list[Any] = [
    6, 7, 116, 128, True, None, 1.0, "text", b"\x00", {}, [], [99], [True], [1.0, 1], [1, 1, 0, 0, 1],
    [1, 1.0, 0, 0, 1, None], [1, True, 0, 0, 1, None], [1, -1, 0, 0, 1, None], [0, [0, 1], b"\x34"],
    [2, "text"], [3, [0, 1, 2]], [3, b"\x34\x00\x01"], [4, [], [[52, b"\x04\x05\x06"]]], [4, [], [[True, b"\x04"]]],
    [5, 2, None], [5, 2, 116], [6, 1, 5, None, 0, None, None, None, 1, 1, [0, False]], [7, b"", [0, 0]],
    [8, "digest"], [12, 3], [2, bytes((255, *range(51)))],
]  # fmt: skip
VIEW_ONLY: list[Any] = [116, [12, 3], [5, 2, None], [2, bytes((*range(20), 20, *[255] * 31))]]


@pytest.mark.rule("LOG-2")
@pytest.mark.parametrize("record", WELL_FORMED, ids=repr)
def test_every_form_of_the_table_is_accepted(record: Any) -> None:
    check_form(record)
    check_form(record, view=True)


@pytest.mark.rule("LOG-2", "LOG-11")
@pytest.mark.parametrize("record", ILL_FORMED, ids=repr)
def test_a_record_of_no_form_or_a_field_of_the_wrong_type_is_refused(record: Any) -> None:
    if record not in VIEW_ONLY:
        with pytest.raises(CodecError, match=r"^LOG-2: "):
            check_form(record)
    if record in VIEW_ONLY:
        check_form(record, view=True)


@pytest.mark.rule("LOG-2")
def test_a_float_or_a_boolean_in_a_record_fails_even_with_a_valid_chain() -> None:
    header, records = split(SMALL)
    hand = next(i for i, r in enumerate(records) if r[1] == 1)
    value = list(unpacked(io.BytesIO(b"\x80" + records[hand])))[1][0]
    for bad in (float(value[1]), True if value[1] == 1 else value[1]):
        if type(bad) is int:
            continue
        changed = [*records]
        changed[hand] = msgpack.packb([1, bad, *value[2:]])
        err = error(resealed(header, changed))
        assert err.rule == "LOG-2" and err.record == hand + 1


# --- LOG-1: the header's keys --------------------------------------------------------------------------------


@pytest.mark.rule("LOG-1", "LOG-2", "LOG-13")
def test_a_duplicate_or_non_text_map_key_is_refused() -> None:
    header, records = split(SMALL)
    head = msgpack.packb(header, use_bin_type=True)
    assert head[0] == 0x80 + len(header)  # a fixmap
    dup = bytes((head[0] + 1,)) + head[1:] + msgpack.packb("meta") + b"\x80"  # one pair more: "meta" twice
    err = error(dup + b"".join(records))
    assert err.rule == "LOG-2" and err.record == 0 and "'meta' appears twice" in err.reason  # LOG-13: bytes first
    keyed = msgpack.packb({**header, "meta": {b"bytes": 1}}, use_bin_type=True)
    assert error(keyed + b"".join(records)).record == 0


@pytest.mark.rule("LOG-1", "LOG-3")
def test_an_unknown_header_key_is_refused_unless_a_later_minor_version_adds_it() -> None:
    header, records = split(SMALL)
    err = error(resealed({**header, "colour": "blue"}, records))
    assert err.rule == "LOG-1" and "colour" in err.reason
    later = resealed({**header, "version": [1, 9], "colour": "blue"}, records)
    assert judge(later).kind == "pass"


# --- MATCH-7: a reshuffled draw deck cannot be logged ---------------------------------------------------------


@pytest.mark.rule("MATCH-7", "LOG-1")
def test_the_writer_refuses_a_draw_that_repeats_a_card() -> None:
    class Reshuffled:
        def __init__(self) -> None:
            self.rounds = [cards("Kc Kd"), cards("Kc 2d")]

        def cut(self, count: int) -> tuple[Card, ...]:
            return self.rounds.pop(0)

        def deck(self) -> tuple[Card, ...] | None:
            return DECK

    match = Match(RuleSet(), Reshuffled())
    with pytest.raises(LogError, match=r"^MATCH-7: record 2: the draw repeats Kc"):
        LogWriter(io.BytesIO(), match)


@pytest.mark.rule("LOG-1")
def test_meta_may_hold_any_kind_of_value_within_the_limits() -> None:
    meta = {"seed": 7, "ratio": 1.5, "tags": ["a", b"\x00", None, True], "nested": {"k": [[1]]}}
    data = write_log(Match.new(seed=1), meta=meta)
    assert LogReader(data).header.meta == meta and judge(data).kind == "unfinished"
