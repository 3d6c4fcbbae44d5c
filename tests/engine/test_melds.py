"""Section 2 of the spec: melds, arrangements and deadwood, checked against a brute-force oracle."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import melds
from engine.cards import DECK, Card, Suit, cards, to_mask
from engine.errors import InvalidMeld, NotationError
from engine.melds import (
    Meld,
    MeldKind,
    arrangements,
    check_disjoint,
    deadwood,
    discards_within,
    gin_discards,
    knock_deadwood,
    melds_in,
    melds_with,
)
from tests.engine.card_strategies import holdings
from tests.support import oracle

DATA = Path(__file__).resolve().parents[1] / "data"


def hand(text: str) -> frozenset[Card]:
    held = cards(text)
    assert len(set(held)) == len(held), f"a card written twice in {text!r}"
    return frozenset(held)


def dw(text: str) -> int:
    return deadwood(to_mask(cards(text)))


def as_sets(melds: tuple[Meld, ...]) -> frozenset[frozenset[Card]]:
    return frozenset(frozenset(m.cards) for m in melds)


# --- MELD-1: sets ------------------------------------------------------------------------------


@pytest.mark.rule("MELD-1")
@pytest.mark.parametrize("text", ["7c-7d-7h", "7s-7h-7d", "Ac-Ad-Ah-As", "Kd-Kc-Ks"])
def test_three_or_four_cards_of_a_rank_are_a_set(text: str) -> None:
    meld = Meld.parse(text)
    assert meld.kind is MeldKind.SET
    assert set(meld.cards) == set(cards(text.replace("-", " ")))


@pytest.mark.rule("MELD-1")
def test_a_set_is_the_same_meld_whatever_order_it_is_written_in() -> None:
    assert Meld.parse("7s-7h-7d") == Meld.parse("7d-7h-7s") == Meld.of(cards("7h 7s 7d"))
    assert str(Meld.parse("7s-7h-7d")) == "7d-7h-7s"


@pytest.mark.rule("MELD-1")
@pytest.mark.parametrize("text", ["7c-7d", "7c", "7c-7d-7d", "7c-7d-8h", "7c-7d-7h-8c"])
def test_fewer_than_three_cards_or_mixed_ranks_are_not_a_set(text: str) -> None:
    with pytest.raises(InvalidMeld) as err:
        Meld.parse(text)
    assert err.value.rule in {"MELD-1", "MELD-2"}


@pytest.mark.rule("MELD-1")
@pytest.mark.parametrize("text", ["", " - ", "7c-7d-7x"])
def test_text_that_is_not_a_meld_is_rejected(text: str) -> None:
    with pytest.raises(NotationError):
        Meld.parse(text)


@pytest.mark.rule("MELD-1")
def test_two_cards_make_no_meld() -> None:
    with pytest.raises(InvalidMeld) as err:
        Meld.parse("7c-7d")
    assert err.value.rule == "MELD-1"


# --- MELD-2: runs ------------------------------------------------------------------------------


@pytest.mark.rule("MELD-2")
@pytest.mark.parametrize(
    "text", ["As-2s-3s", "4c-5c-6c", "Jh-Qh-Kh", "9d-Td-Jd-Qd", "Ac-2c-3c-4c-5c-6c-7c-8c-9c-Tc-Jc-Qc-Kc"]
)
def test_three_or_more_consecutive_cards_of_a_suit_are_a_run(text: str) -> None:
    meld = Meld.parse(text)
    assert meld.kind is MeldKind.RUN
    assert meld.cards == cards(text.replace("-", " "))


@pytest.mark.rule("MELD-2")
def test_a_run_of_ten_is_one_meld() -> None:
    meld = Meld.parse("2d-3d-4d-5d-6d-7d-8d-9d-Td-Jd")
    assert meld.kind is MeldKind.RUN
    assert len(meld.cards) == 10
    assert dw("2d 3d 4d 5d 6d 7d 8d 9d Td Jd") == 0


@pytest.mark.rule("MELD-2")
def test_a_run_is_kept_low_to_high_whatever_order_it_is_written_in() -> None:
    assert Meld.of(cards("6c 4c 5c")) == Meld.parse("4c-5c-6c")
    assert str(Meld.of(cards("3s As 2s"))) == "As-2s-3s"


@pytest.mark.rule("MELD-2", "CARD-2")
@pytest.mark.parametrize("text", ["Qs-Ks-As", "Ks-As-2s", "Js-Qs-Ks-As", "Qh-Kh-Ah-2h"])
def test_the_ace_is_low_only_and_runs_do_not_wrap(text: str) -> None:
    with pytest.raises(InvalidMeld) as err:
        Meld.parse(text)
    assert err.value.rule == "MELD-2"


@pytest.mark.rule("MELD-2")
@pytest.mark.parametrize("text", ["4c-5c-7c", "2h-3h-5h-6h", "9d-Jd-Qd"])
def test_a_run_with_a_gap_is_not_a_meld(text: str) -> None:
    with pytest.raises(InvalidMeld) as err:
        Meld.parse(text)
    assert err.value.rule == "MELD-2"


@pytest.mark.rule("MELD-1", "MELD-2")
def test_consecutive_ranks_in_mixed_suits_are_no_meld() -> None:
    with pytest.raises(InvalidMeld) as err:
        Meld.parse("4c-5d-6c")
    assert err.value.rule in {"MELD-1", "MELD-2"}


@pytest.mark.rule("MELD-1", "MELD-2")
def test_every_meld_in_a_holding_is_found() -> None:
    found = as_sets(melds_in(to_mask(cards("7c 7d 7h 7s 5s 6s 8s Qs Ks As"))))
    expected = {
        # the set of four and the four sets of three inside it
        *(frozenset(cards(t)) for t in ["7c 7d 7h 7s", "7d 7h 7s", "7c 7h 7s", "7c 7d 7s", "7c 7d 7h"]),
        # every run of three or more inside 5s-6s-7s-8s; Qs-Ks-As is not a run
        *(frozenset(cards(t)) for t in ["5s 6s 7s", "6s 7s 8s", "5s 6s 7s 8s"]),
    }
    assert found == expected
    assert len(melds_in(to_mask(cards("7c 7d 7h 7s 5s 6s 8s Qs Ks As")))) == len(expected)


@pytest.mark.rule("MELD-1", "MELD-2")
@given(holdings(0, 13))
def test_melds_in_finds_exactly_the_oracles_melds(held: frozenset[Card]) -> None:
    found = melds_in(to_mask(held))
    assert len(found) == len(as_sets(found)), "a meld listed twice"
    assert as_sets(found) == frozenset(oracle.melds_of(held))
    for m in found:
        assert Meld.of(m.cards) == m


@pytest.mark.rule("MELD-1", "MELD-2")
@given(holdings(1, 12))
def test_a_card_melds_with_a_hand_when_the_oracle_finds_a_meld_through_it(held: frozenset[Card]) -> None:
    # each card of the holding against the rest of it: a meld of the whole holding holds the card, or none does
    mask = to_mask(held)
    for card in held:
        through = any(card in m for m in oracle.melds_of(held))
        assert melds_with(mask & ~card.bit, card.index) == through, f"{card} with {sorted(held - {card})}"


@pytest.mark.rule("MELD-1", "MELD-2")
@given(holdings(3, 5))
def test_meld_of_agrees_with_the_definitions(group: frozenset[Card]) -> None:
    if oracle.is_meld(group):
        assert set(Meld.of(group).cards) == group
        assert Meld.of(group).kind is (MeldKind.SET if oracle.is_set(group) else MeldKind.RUN)
    else:
        with pytest.raises(InvalidMeld):
            Meld.of(group)


# --- MELD-3: arrangements ----------------------------------------------------------------------


@pytest.mark.rule("MELD-3")
def test_melds_that_share_a_card_are_no_arrangement() -> None:
    held = to_mask(cards("5c 6c 7c 7d 7h 9s"))
    with pytest.raises(InvalidMeld) as err:
        check_disjoint([Meld.parse("5c-6c-7c"), Meld.parse("7c-7d-7h")], held)
    assert err.value.rule == "MELD-3"
    assert check_disjoint([Meld.parse("5c-6c-7c")], held) == to_mask(cards("5c 6c 7c"))


@pytest.mark.rule("MELD-3")
def test_an_arrangement_uses_only_cards_held() -> None:
    with pytest.raises(InvalidMeld) as err:
        check_disjoint([Meld.parse("7c-7d-7h-7s")], to_mask(cards("7c 7d 7h 9s")))
    assert err.value.rule == "MELD-3"


@pytest.mark.rule("MELD-3")
def test_the_deadwood_of_an_arrangement_is_the_cards_in_no_meld() -> None:
    held = to_mask(cards("4c 5c 6c 6d 6h 9s"))
    found = {as_sets(a.melds): (a.deadwood_cards, a.deadwood) for a in arrangements(held)}
    assert found == {
        frozenset(): (cards("4c 5c 6c 6d 6h 9s"), 36),
        as_sets((Meld.parse("4c-5c-6c"),)): (cards("6d 6h 9s"), 21),
        as_sets((Meld.parse("6c-6d-6h"),)): (cards("4c 5c 9s"), 18),
    }


@pytest.mark.rule("MELD-3")
@given(holdings(0, 10))
def test_arrangements_are_every_collection_of_disjoint_melds_once(held: frozenset[Card]) -> None:
    found = [as_sets(a.melds) for a in arrangements(to_mask(held))]
    assert len(found) == len(set(found)), "an arrangement listed twice"
    assert set(found) == set(oracle.arrangements_of(held))
    for a in arrangements(to_mask(held)):
        assert frozenset(a.deadwood_cards) == oracle.leftover(held, as_sets(a.melds))
        assert a.deadwood == oracle.points(a.deadwood_cards)


@pytest.mark.rule("MELD-3")
@given(holdings(0, 10), st.integers(0, 30))
def test_arrangements_within_a_deadwood_bound(held: frozenset[Card], bound: int) -> None:
    found = {as_sets(a.melds) for a in arrangements(to_mask(held), bound)}
    expected = {a for a in oracle.arrangements_of(held) if oracle.points(oracle.leftover(held, a)) <= bound}
    assert found == expected


# --- MELD-4: minimum deadwood ------------------------------------------------------------------


def deadwood_table() -> list[tuple[str, int]]:
    rows = []
    for line in (DATA / "deadwood.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            text, _, value = line.partition("=")
            rows.append((text.strip(), int(value)))
    return rows


@pytest.mark.rule("MELD-4")
def test_the_deadwood_table_is_large_and_has_no_repeats() -> None:
    rows = deadwood_table()
    assert len(rows) >= 30
    assert len({hand(text) for text, _ in rows}) == len(rows)


@pytest.mark.rule("MELD-4")
@pytest.mark.parametrize(("text", "expected"), deadwood_table())
def test_deadwood_table(text: str, expected: int) -> None:
    held = hand(text)
    assert oracle.min_deadwood(held) == expected, "the table disagrees with the oracle"
    assert min(oracle.points(oracle.leftover(held, a)) for a in oracle.arrangements_of(held)) == expected
    assert deadwood(to_mask(held)) == expected


@pytest.mark.rule("MELD-4")
@given(holdings(10, 11))
def test_deadwood_of_ten_and_eleven_cards_matches_the_oracle(held: frozenset[Card]) -> None:
    assert deadwood(to_mask(held)) == oracle.min_deadwood(held)


@pytest.mark.rule("MELD-4")
@given(holdings(0, 16))
def test_deadwood_of_any_holding_matches_the_oracle(held: frozenset[Card]) -> None:
    assert deadwood(to_mask(held)) == oracle.min_deadwood(held)


@pytest.mark.rule("MELD-3", "MELD-4")
@given(holdings(0, 9))
def test_the_oracle_recursion_agrees_with_the_oracle_arrangements(held: frozenset[Card]) -> None:
    # The oracle's two halves checked against each other, so that neither can drift unnoticed.
    least = min(oracle.points(oracle.leftover(held, a)) for a in oracle.arrangements_of(held))
    assert oracle.min_deadwood(held) == least


@pytest.mark.rule("MELD-4", "MELD-5")
def test_the_remembered_deadwood_of_a_holding_with_sets_is_its_deadwood(monkeypatch: pytest.MonkeyPatch) -> None:
    # Holdings with a choice of sets are remembered (the search's rollouts meet them again); the memo is
    # cleared when full, and what it gives back, the first time or the second, is the oracle's answer.
    monkeypatch.setattr(melds, "SETS_MEMO", 8)
    monkeypatch.setattr(melds, "_SETS_DEADWOOD", {})
    rng = random.Random(31)
    for _ in range(60):
        rank = rng.randrange(13)
        trip = [Card.from_index(s * 13 + rank) for s in rng.sample(range(4), 3)]
        held = frozenset([*trip, *rng.sample([c for c in DECK if c not in trip], 8)])
        mask = to_mask(held)
        for _again in range(2):
            assert deadwood(to_mask(held - {trip[0]})) == oracle.min_deadwood(held - {trip[0]})
            assert knock_deadwood(mask) == oracle.knock_deadwood(held)
        assert len(melds._SETS_DEADWOOD) <= 8


# --- MELD-5: the eleven-card knock test --------------------------------------------------------


def knock_table() -> list[tuple[str, int, str, str]]:
    rows = []
    for line in (DATA / "knock_deadwood.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            text, _, rest = line.partition("=")
            value, gin, within = (part.strip() for part in rest.split("|"))
            rows.append((text.strip(), int(value), gin.strip("-"), within.strip("-")))
    return rows


@pytest.mark.rule("MELD-5")
@pytest.mark.parametrize(("text", "expected", "gin", "within_ten"), knock_table())
def test_knock_table(text: str, expected: int, gin: str, within_ten: str) -> None:
    held = hand(text)
    assert len(held) == 11
    assert oracle.knock_deadwood(held) == expected, "the table disagrees with the oracle"
    assert {c for c in held if oracle.min_deadwood(held - {c}) == 0} == set(cards(gin))
    assert {c for c in held if oracle.min_deadwood(held - {c}) <= 10} == set(cards(within_ten))
    mask = to_mask(held)
    assert knock_deadwood(mask) == expected
    assert discards_within(mask, 0) == tuple(sorted(cards(gin)))
    assert gin_discards(mask) == tuple(sorted(cards(gin)))
    assert discards_within(mask, 10) == tuple(sorted(cards(within_ten)))


def drop_highest_shortcut(held: frozenset[Card]) -> set[int]:
    """The shortcut MELD-5 rules out: a best eleven-card arrangement, minus its highest deadwood card.

    One value for each minimum-deadwood arrangement, since the shortcut may pick any of them.
    """
    best = oracle.min_deadwood(held)
    values = set()
    for a in oracle.arrangements_of(held):
        left = oracle.leftover(held, a)
        if oracle.points(left) == best:
            values.add(best - max((oracle.points([c]) for c in left), default=0))
    return values


@pytest.mark.rule("MELD-5")
@pytest.mark.parametrize(
    ("text", "true_value", "discard"),
    [
        # Best eleven: 2d-2h-2s 8c-8d-8h Ac-2c-3c, left Ad Ah (2): the shortcut says 1. Discarding 3c leaves
        # Ac-Ad-Ah 2c-2d-2h-2s 8c-8d-8h: gin, which the shortcut misses.
        ("Ac Ad Ah 2c 2d 2h 2s 3c 8c 8d 8h", 0, "3c"),
        # Best eleven: 4s-5s-6s-7s 6c-6d-6h, left 2c 4h 5c 5d (16): the shortcut says 11, no knock. Discarding
        # 7s leaves 5c-5d-5s 6c-6d-6h-6s and 2c 4h 4s: 10, a legal knock.
        ("2c 4h 4s 5c 5d 5s 6c 6d 6h 6s 7s", 10, "7s"),
        # Best eleven: 3s-4s-5s-6s 5c-5d-5h, left Ac As 4d 4h (10): the shortcut says 6. Discarding 6s leaves
        # 4d-4h-4s 5c-5d-5h-5s and Ac As 3s: 5.
        ("Ac As 3s 4d 4h 4s 5c 5d 5h 5s 6s", 5, "6s"),
    ],
)
def test_dropping_the_highest_deadwood_card_is_not_the_knock_test(text: str, true_value: int, discard: str) -> None:
    held = hand(text)
    assert oracle.knock_deadwood(held) == true_value
    assert oracle.min_deadwood(held - {Card.parse(discard)}) == true_value
    assert min(drop_highest_shortcut(held)) > true_value, "the shortcut would give the true value here"
    assert knock_deadwood(to_mask(held)) == true_value
    assert Card.parse(discard) in discards_within(to_mask(held), true_value)


@pytest.mark.rule("MELD-5")
@given(holdings(11, 11))
def test_knock_deadwood_is_the_minimum_over_the_discards(held: frozenset[Card]) -> None:
    assert knock_deadwood(to_mask(held)) == oracle.knock_deadwood(held)


@pytest.mark.rule("MELD-5")
@given(holdings(11, 11), st.integers(0, 10))
def test_discards_within_are_the_discards_that_pass(held: frozenset[Card], limit: int) -> None:
    ms = oracle.melds_of(held)
    expected = sorted(c for c in held if oracle.min_deadwood(held - {c}, ms) <= limit)
    assert list(discards_within(to_mask(held), limit)) == expected


@pytest.mark.rule("MELD-5", "KNOCK-5")
@given(holdings(11, 11))
def test_gin_discards_are_the_discards_that_leave_nothing_unmelded(held: frozenset[Card]) -> None:
    ms = oracle.melds_of(held)
    expected = sorted(c for c in held if oracle.min_deadwood(held - {c}, ms) == 0)
    assert list(gin_discards(to_mask(held))) == expected
    assert set(gin_discards(to_mask(held))) <= set(discards_within(to_mask(held), 0))


def melds_of_size(size: int, used: frozenset[Card]) -> list[frozenset[Card]]:
    """Every set (of 3 or 4) and run of ``size`` cards in the deck that uses none of ``used`` (MELD-1, MELD-2)."""
    out = [frozenset(Card(r, s) for r in range(low, low + size)) for s in Suit for low in range(1, 15 - size)]
    if size in (3, 4):
        out += [frozenset(Card(r, s) for s in suits) for r in range(1, 14) for suits in combinations(Suit, size)]
    return [m for m in out if not m & used]


@pytest.mark.rule("MELD-5", "KNOCK-5")
@given(st.sampled_from([(3, 3, 4), (4, 3, 3), (3, 7), (4, 6), (5, 5), (10,)]), st.data())
def test_gin_discards_of_a_gin_hand_and_one_card_more(sizes: tuple[int, ...], data: st.DataObject) -> None:
    ten: frozenset[Card] = frozenset()
    for size in sizes:
        ten |= data.draw(st.sampled_from(melds_of_size(size, ten)))
    held = ten | {data.draw(st.sampled_from([c for c in DECK if c not in ten]))}
    found = gin_discards(to_mask(held))
    assert found, "the eleventh card at least is a gin discard"
    assert list(found) == sorted(c for c in held if oracle.min_deadwood(held - {c}) == 0)
