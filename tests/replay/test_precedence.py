"""Which record and which rule a failure names (spec/log-format.md, LOG-13): its worked table, in logs and views."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

from engine import Match
from engine.cards import Card
from knock.bots import GreedyBot, play_match
from replay.codec import T_CHECKPOINT, T_TRAILER, chain, header_digest, pack, unpacked
from replay.log import write_log
from replay.redact import redact
from replay.verdict import judge

GAME = write_log(play_match(Match.new(seed=5), [GreedyBot(), GreedyBot()]))
VIEW = redact(GAME, 0)
Edit = Callable[[list[Any]], list[Any]]


def records(data: bytes) -> list[Any]:
    return [v for v, _ in unpacked(io.BytesIO(data))]


def joined(values: list[Any]) -> bytes:
    """The values as a log, every checkpoint and the trailer recomputed (only the edit is wrong)."""
    out, digest = [], b""
    for i, v in enumerate(values):
        if isinstance(v, list) and v[0] == T_CHECKPOINT:
            v = [T_CHECKPOINT, digest]
        elif isinstance(v, list) and v[0] == T_TRAILER:
            v = [T_TRAILER, i - 1, digest]
        raw = pack(v)
        digest = header_digest(raw) if i == 0 else chain(digest, raw)
        out.append(raw)
    return b"".join(out)


def edited(data: bytes, edit: Edit) -> bytes:
    return joined(edit(records(data)))


def first(values: list[Any], kind: int) -> int:
    return next(i for i, v in enumerate(values) if isinstance(v, list) and v[0] == kind)


def verdict(data: bytes) -> tuple[str, int | None, str]:
    v = judge(data)
    return v.kind, v.record, v.rule


def codes(text: str) -> bytes:
    return bytes(Card.parse(t).index for t in text.split())


RESULT = first(records(GAME), 6)  # the first result; its checkpoint follows
OUT_OF_PLACE: dict[str, tuple[Edit, int]] = {
    "checkpoint deleted": (lambda vs: vs[: RESULT + 1] + vs[RESULT + 2 :], RESULT + 1),
    "result deleted": (lambda vs: vs[:RESULT] + vs[RESULT + 1 :], RESULT),
    "result before the last action": (lambda vs: [*vs[: RESULT - 1], vs[RESULT], *vs[RESULT - 1 :]], RESULT - 1),
    "hand record twice": (lambda vs: [*vs[:3], vs[2], *vs[3:]], 3),
    "deal deleted": (lambda vs: vs[:3] + vs[4:], 3),
    "hand deleted": (lambda vs: vs[:2] + vs[3:], 2),
    "a cut mid-hand": (lambda vs: [*vs[:4], vs[1], *vs[4:]], 4),
    "an action after a result": (lambda vs: [*vs[: RESULT + 1], 8, *vs[RESULT + 1 :]], RESULT + 1),
    "game over mid-hand": (lambda vs: [*vs[:5], vs[-2], *vs[5:]], 5),
    "trailer mid-hand": (lambda vs: [*vs[:5], vs[-1], *vs[5:]], 5),
    "a commitment mid-hand, none declared": (lambda vs: [*vs[:5], [10, bytes(32)], *vs[5:]], 5),
}


@pytest.mark.rule("LOG-13", "LOG-4")
@pytest.mark.parametrize("source", [GAME, VIEW], ids=["log", "view"])
@pytest.mark.parametrize("case", sorted(OUT_OF_PLACE))
def test_a_record_out_of_place_is_log_4_whatever_its_kind(source: bytes, case: str) -> None:
    edit, at = OUT_OF_PLACE[case]
    assert verdict(edited(source, edit)) == ("fail", at, "LOG-4")


@pytest.mark.rule("LOG-13", "LOG-10")
@pytest.mark.parametrize("source", [GAME, VIEW], ids=["log", "view"])
def test_a_commitment_where_one_may_stand_is_judged_by_log_10(source: bytes) -> None:
    data = edited(source, lambda vs: [vs[0], [10, bytes(32)], *vs[1:]])
    assert verdict(data) == ("fail", 1, "LOG-10")


DRAWS: dict[str, tuple[list[Any], tuple[int, str]]] = {
    "a card twice in a round": ([[0, [0, 1], codes("Ks Ks")]], (1, "MATCH-2")),
    "the faulty round named, not the last": (
        [[0, [0, 1], codes("Ks Ks")], [0, [0, 1], codes("2s 3h")]],
        (1, "MATCH-2"),
    ),
    "one card for two seats": ([[0, [0, 1], codes("Ks")]], (1, "MATCH-2")),
    "seats out of order": ([[0, [1, 0], codes("2s Ks")]], (1, "MATCH-2")),
    "a redraw repeats a card": ([[0, [0, 1], codes("Ks Kh")], [0, [0, 1], codes("Ks 3h")]], (2, "MATCH-7")),
    "a redraw by the wrong seats": ([[0, [0, 1], codes("Ks Kh")], [0, [1], codes("3h")]], (2, "MATCH-3")),
    "a round after the draw is decided": ([[0, [0, 1], codes("2s Ks")], [0, [0, 1], codes("3s 4h")]], (2, "MATCH-3")),
    "a tie not drawn again": ([[0, [0, 1], codes("Ks Kh")]], (2, "MATCH-3")),
    "no draw at all": ([], (1, "MATCH-2")),
}


@pytest.mark.rule("LOG-13", "MATCH-2", "MATCH-3", "MATCH-7")
@pytest.mark.parametrize("source", [GAME, VIEW], ids=["log", "view"])
@pytest.mark.parametrize("case", sorted(DRAWS))
def test_the_draw_is_judged_round_by_round(source: bytes, case: str) -> None:
    rounds, (at, rule) = DRAWS[case]
    assert verdict(edited(source, lambda vs: [vs[0], *rounds, *vs[2:]])) == ("fail", at, rule)


@pytest.mark.rule("LOG-13", "MATCH-3")
@pytest.mark.parametrize("source", [GAME, VIEW], ids=["log", "view"])
def test_a_tie_cut_before_the_next_record_is_unfinished_and_a_redraw_passes(source: bytes) -> None:
    """L2: the record a tie is blamed on is the one that shows no redraw follows; before it the log is a prefix."""
    tie = [0, [0, 1], codes("Ks Kh")]
    head = records(source)[0]
    assert verdict(joined([head, tie])) == ("unfinished", 1, "")
    redrawn = edited(source, lambda vs: [vs[0], tie, [0, [0, 1], codes("2s 3h")], *vs[2:]])
    assert judge(redrawn).kind == "pass"


@pytest.mark.rule("LOG-13", "LOG-2", "LOG-7")
@pytest.mark.parametrize(
    ("tail", "rule"),
    [
        ("c6ffffffff", "LOG-2"),  # bin 32 of 4 GB: over the limit before its bytes
        ("c4c8", "LOG-2"),  # bin 8 of 200: over 64
        ("da07d0" + "61" * 10, "LOG-2"),  # text of 2,000 bytes: over a record's 1,024
        ("dd" + "ff" * 4, "LOG-2"),  # an array of 4 billion items
        ("c43c" + "00" * 10, "LOG-7"),  # bin 8 of 60, cut: within the limits
        ("da03e8" + "61" * 10, "LOG-7"),  # text of 1,000, cut
        ("9501", "LOG-7"),
        ("dc", "LOG-7"),
    ],
)
def test_a_length_over_a_limit_is_log_2_even_at_the_end(tail: str, rule: str) -> None:
    head = pack(records(GAME)[0])
    assert verdict(head + bytes.fromhex(tail)) == ("fail", 1, rule)


@pytest.mark.rule("LOG-13", "LOG-7")
@pytest.mark.parametrize("tail", ["c1", "dc", "00", "c6ffffffff", "93000102"])
def test_any_byte_after_the_trailer_is_log_7(tail: str) -> None:
    count = len(records(GAME))
    assert verdict(GAME + bytes.fromhex(tail)) == ("fail", count, "LOG-7")


@pytest.mark.rule("LOG-13", "LOG-2")
def test_a_header_that_does_not_decode_is_log_2() -> None:
    assert verdict(bytes.fromhex("dfffffffff")) == ("fail", 0, "LOG-2")
    assert verdict(bytes.fromhex("c1")) == ("fail", 0, "LOG-2")


def with_rules(source: bytes, **options: Any) -> bytes:
    vs = records(source)
    vs[0] = {**vs[0], "rules": {**vs[0]["rules"], **options}}
    return joined(vs)


@pytest.mark.rule("LOG-13", "RULES-1", "RULES-2", "RULES-3", "LOG-1")
@pytest.mark.parametrize("source", [GAME, VIEW], ids=["log", "view"])
def test_the_header_s_rules_in_order(source: bytes) -> None:
    assert verdict(with_rules(source, name="gin_rummy", foo=1))[2] == "RULES-1"
    assert verdict(with_rules(source, target=100.0))[2] == "RULES-2"  # a float is an option's wrong kind
    assert verdict(with_rules(source, deck_ranks=99)) == ("fail", 0, "RULES-2")
    assert verdict(with_rules(source, players=3)) == ("fail", 0, "LOG-1")  # two names for three seats
    reduced = with_rules(source, deck_ranks=12)
    header_only = reduced[: len(pack(records(reduced)[0]))]
    assert verdict(reduced) == verdict(header_only) == ("fail", 0, "RULES-3")  # at once, not at the first deal


@pytest.mark.rule("LOG-13", "LOG-1", "RULES-3")
@pytest.mark.parametrize("source", [GAME, VIEW], ids=["log", "view"])
def test_reduced_deck_keys_at_the_standard_values_change_nothing(source: bytes) -> None:
    """L3: a reader takes them as any option; a writer never writes them."""
    assert judge(with_rules(source, deck_ranks=13, deck_suits=4, hand_size=10)).kind == "pass"
    assert "deck_ranks" not in records(source)[0]["rules"]


@pytest.mark.rule("LOG-13", "DEAL-4", "LOG-2")
@pytest.mark.parametrize("source", [GAME, VIEW], ids=["log", "view"])
def test_a_deal_s_count_is_deal_4_its_codes_form(source: bytes) -> None:
    assert verdict(edited(source, lambda vs: [*vs[:3], [2, bytes(range(51))], *vs[4:]])) == ("fail", 3, "DEAL-4")
    assert verdict(edited(source, lambda vs: [*vs[:3], [2, bytes([*range(51), 52])], *vs[4:]])) == ("fail", 3, "LOG-2")


@pytest.mark.rule("LOG-13", "MELD-1", "MELD-2", "MELD-3")
@pytest.mark.parametrize(
    ("meld", "rule"),
    [("4c 5c 7c", "MELD-2"), ("Ks As 2s", "MELD-2"), ("4c 5d 6c", "MELD-1"), ("4c 5c", "MELD-1"),
     ("4c 4c 4d", "MELD-1"), ("4c 4d 4h", "MELD-3")],
)  # fmt: skip
def test_a_spread_s_melds_are_judged_before_their_use(meld: str, rule: str) -> None:
    spread = first(records(GAME), 3)
    data = edited(GAME, lambda vs: [*vs[:spread], [3, codes(meld)], *vs[spread + 1 :]])
    assert verdict(data) == ("fail", spread, rule)
