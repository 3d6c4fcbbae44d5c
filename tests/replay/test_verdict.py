"""Verdicts (LOG-13): every input gets exactly one of pass, unfinished and fail, from every reader entry point."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.match import Match
from engine.rules import RuleSet
from knock.bots import GreedyBot
from replay.codec import chain, header_digest, unpacked
from replay.log import write_log
from replay.redact import redact
from replay.verdict import Verdict, judge

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.knock"))
SMALL = (ROOT / "tests" / "golden" / "standard-1.knock").read_bytes()
THREE = next(p for p in GOLDEN if p.name.startswith("three-handed")).read_bytes()


def boundaries(data: bytes) -> list[int]:
    """The byte offset after the header and after every record."""
    ends, at = [], 0
    for _, raw in unpacked(io.BytesIO(data)):
        at += len(raw)
        ends.append(at)
    return ends


@pytest.mark.rule("LOG-13", "LOG-8", "LOG-12")
@pytest.mark.parametrize("path", GOLDEN[::4], ids=lambda p: p.stem)
def test_every_golden_log_and_view_passes_with_the_trailers_digest(path: Path) -> None:
    data = path.read_bytes()
    for source in (data, *(redact(data, seat) for seat in range(len(judge(data).scores)))):
        verdict = judge(source)
        assert verdict.kind == "pass" and verdict.rule == "" and not verdict.internal, verdict.message
        assert verdict.digest == source[-32:]  # the trailer ends with its digest
        assert verdict.record == len(boundaries(source)) - 1 and verdict.winner is not None


@pytest.mark.rule("LOG-13", "LOG-7")
@pytest.mark.parametrize("view", [None, 0, 2])
def test_every_prefix_ending_between_records_is_unfinished_and_every_other_fails(view: int | None) -> None:
    data = THREE if view is None else redact(THREE, view)
    ends = boundaries(data)
    digest = header_digest(data[: ends[0]])
    for n, end in enumerate(ends[:-1]):
        if n:
            digest = chain(digest, data[ends[n - 1] : end])
        verdict = judge(data[:end])
        assert (verdict.kind, verdict.record, verdict.rule, verdict.digest) == ("unfinished", n, "", digest)
        assert verdict.view == view
    for end in range(1, len(data)):
        if end not in ends:  # a torn record: not a log prefix (LOG-13 decides: fail, not unfinished)
            verdict = judge(data[:end])
            assert verdict.kind == "fail" and verdict.rule == "LOG-7" and not verdict.internal
            assert verdict.record == sum(1 for e in ends if e < end)  # the torn record's number


@pytest.mark.rule("LOG-13")
def test_a_game_in_progress_is_unfinished_with_its_running_scores() -> None:
    match = Match.new(RuleSet.preset("standard", target=500), seed=2)
    bot = GreedyBot()
    while match.number < 3 or sum(match.scores) == 0:
        seat = match.to_act
        assert seat is not None and match.hand is not None
        match.apply(bot.choose(match.hand.observation(seat), match.legal_actions()))
    verdict = judge(write_log(match))
    assert verdict.kind == "unfinished" and verdict.hands == match.number and verdict.winner is None
    assert verdict.scores == match.scores and sum(verdict.scores) > 0


@pytest.mark.rule("LOG-13")
@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xc1",
        b"\x80",
        b"\x91" * 1000 + b"\xc0",
        SMALL + b"\x00",
        SMALL[:-33] + b"\x00" * 33,
        b"\xdd\xff\xff\xff\xff",
    ],
    ids=["empty", "not-msgpack", "empty-map", "deep", "after-trailer", "trailer-zeroed", "huge-array"],
)
def test_bad_bytes_fail_naming_a_record_and_a_rule(data: bytes) -> None:
    verdict = judge(data)
    assert verdict.kind == "fail" and verdict.rule.startswith("LOG-")
    assert (verdict.record is None) == (data == b""), "no record to name only when there was nothing to read"
    assert not verdict.internal and verdict.digest is None


@pytest.mark.rule("LOG-13")
def test_a_bug_in_the_reader_is_a_failed_verdict_saying_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from replay import replayer

    def broken(self: replayer.Replayer) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(replayer.Replayer, "run", broken)
    verdict = judge(SMALL)
    assert (verdict.kind, verdict.internal, verdict.rule, verdict.record) == ("fail", True, "", 0)
    assert "internal error" in verdict.message and "ZeroDivisionError" in verdict.message


@pytest.mark.rule("LOG-13", "LOG-2", "LOG-6", "LOG-7", "LOG-12")
@settings(max_examples=300, deadline=None)
@given(
    seat=st.sampled_from([None, 0, 1, 2]),
    edits=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255), st.sampled_from("sdi")), max_size=4),
)
def test_judge_never_raises_on_damaged_logs_and_views(seat: int | None, edits: list[tuple[int, int, str]]) -> None:
    bad = bytearray(THREE if seat is None else redact(THREE, seat))
    for pos, byte, how in edits:
        at = pos % len(bad)
        if how == "s":
            bad[at] = byte
        elif how == "d":
            del bad[at]
        else:
            bad.insert(at, byte)
    verdict = judge(bytes(bad))
    assert isinstance(verdict, Verdict) and not verdict.internal, verdict.message
    assert verdict.kind in ("pass", "unfinished", "fail")
    if verdict.kind == "fail":
        assert verdict.record is not None and verdict.rule
