"""Records in words (replay.notation): a replay's errors show cards in their notation, never raw bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.notation import record_text
from replay.verdict import judge

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize(
    ("record", "text"),
    [
        (0, "pass"),
        (3, "pickup"),
        (8 + 12, "discard Kc"),
        (64 + 51, "knock Ks"),
        (116, "knock (face down)"),
        ([3, bytes([0, 1, 2]), bytes([8, 21, 34])], "spread Ac-2c-3c 9c-9d-9h"),
        ([4, [], []], "layoff (nothing)"),
        ([0, [0, 1], bytes([11, 51])], "cut p0 Qc, p1 Ks"),
        ([1, 2, 1, 0, 1, None], "hand 2: p1 deals, seats p0 and p1"),
        ([5, 2, 8 + 13], "p2 advises: discard Ad"),
        ([7, 1, [40, 120]], "game over: p1 wins, totals 40-120"),
        ([3, b"\x05\xff"], "spread 6c-??"),
        ([4, [b"\x05"], 6], "[4, [6c], 6]"),
        ("text", "'text'"),
    ],
)
def test_a_record_in_words(record: object, text: str) -> None:
    assert record_text(record) == text


def test_record_text_never_raises_and_stays_short() -> None:
    nested: list[object] = []
    for _ in range(1000):
        nested = [nested]
    for value in (nested, [6, 1, 99, None, None, None, None, None, None, None, None], [2, b"\x00" * 60], 10**40):
        assert len(record_text(value)) <= 160


@pytest.mark.rule("LOG-8", "TURN-3")
def test_a_replay_error_names_the_cards_of_the_record_it_refuses() -> None:
    data = bytearray((GOLDEN / "standard-1.knock").read_bytes())
    data[804] ^= 1
    verdict = judge(bytes(data))
    assert verdict.message == "TURN-3: record 81: illegal action: p0 does not hold 7d (found knock 7d)"
