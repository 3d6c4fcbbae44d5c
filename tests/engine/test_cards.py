"""Section 1 of the spec: the deck, the order of ranks and the point values."""

from __future__ import annotations

import pytest

from engine.cards import DECK, RANKS, SUITS, Card, Suit, cards, fmt, from_mask, sort_cards, to_mask
from engine.errors import NotationError
from engine.melds import value


@pytest.mark.rule("CARD-1")
def test_the_deck_is_52_distinct_cards_thirteen_ranks_in_four_suits() -> None:
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert {(c.rank, c.suit) for c in DECK} == {(r, s) for r in range(1, 14) for s in Suit}
    assert len({c.index for c in DECK}) == 52
    assert to_mask(DECK) == (1 << 52) - 1


@pytest.mark.rule("CARD-1")
def test_every_card_is_written_rank_then_suit_and_parses_back() -> None:
    texts = [r + s for s in SUITS for r in RANKS]
    assert [str(Card.parse(t)) for t in texts] == texts
    assert {Card.parse(t) for t in texts} == set(DECK)
    assert all(Card.parse(str(c)) is c for c in DECK)
    assert all(Card.from_index(c.index) is c for c in DECK)


@pytest.mark.rule("CARD-1", "NOTE-2")
def test_card_notation_accepts_ten_as_10_and_commas() -> None:
    assert Card.parse("10h") == Card.parse("Th") == Card(10, Suit.HEARTS)
    assert cards("As, 2s 3s") == (Card(1, Suit.SPADES), Card(2, Suit.SPADES), Card(3, Suit.SPADES))
    assert fmt(cards("Kh 7c Ad")) == "Kh 7c Ad"
    assert eval(repr(Card.parse("Td"))) == Card.parse("Td")


@pytest.mark.rule("NOTE-2")
@pytest.mark.parametrize("text", ["", "A", "1s", "Ax", "Kss", "11h", "0c", "Zs", "s A"])
def test_text_that_is_not_a_card_is_rejected(text: str) -> None:
    with pytest.raises(NotationError) as err:
        Card.parse(text)
    assert err.value.rule == "NOTE-2"


@pytest.mark.rule("CARD-1")
@pytest.mark.parametrize("rank", [0, 14, -1])
def test_a_card_outside_the_thirteen_ranks_cannot_be_built(rank: int) -> None:
    with pytest.raises(NotationError, match="CARD-1"):
        Card(rank, Suit.CLUBS)


@pytest.mark.rule("CARD-1")
@pytest.mark.parametrize("index", [-1, 52])
def test_a_card_index_outside_the_deck_is_rejected(index: int) -> None:
    with pytest.raises(NotationError, match="CARD-1"):
        Card.from_index(index)


@pytest.mark.rule("CARD-1")
def test_a_mask_holds_each_card_once() -> None:
    hand = cards("Kh 7c Ad 7c")
    assert from_mask(to_mask(hand)) == cards("Ad 7c Kh")


@pytest.mark.rule("CARD-2")
def test_ranks_run_from_ace_one_to_king_thirteen() -> None:
    assert [Card.parse(r + "s").rank for r in "A23456789TJQK"] == list(range(1, 14))


@pytest.mark.rule("CARD-2")
def test_the_ace_is_below_the_two_and_never_above_the_king() -> None:
    ace, two, king = cards("As 2s Ks")
    assert ace < two < king
    assert not ace > king
    assert sort_cards(cards("Ks As Qs 2s")) == cards("As 2s Qs Ks")
    assert from_mask(to_mask(cards("Kd Ac Qh 2s"))) == cards("Ac 2s Qh Kd")


@pytest.mark.rule("CARD-2")
def test_cards_sort_by_rank_first_then_suit() -> None:
    assert sort_cards(cards("2c As Ac Ks Kc 2h")) == cards("Ac As 2c 2h Kc Ks")


@pytest.mark.rule("CARD-3")
@pytest.mark.parametrize(
    ("text", "points"),
    [("Ac", 1), ("2d", 2), ("5h", 5), ("9s", 9), ("Tc", 10), ("Jd", 10), ("Qh", 10), ("Ks", 10)],
)
def test_point_values(text: str, points: int) -> None:
    assert Card.parse(text).value == points


@pytest.mark.rule("CARD-3")
def test_every_card_is_worth_its_pips_or_ten_for_a_picture() -> None:
    expected = dict(zip(RANKS, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10], strict=True))
    assert all(c.value == expected[str(c)[0]] for c in DECK)
    # A suit is worth 1 + 2 + ... + 9 + 4 × 10 = 85; the deck four times that.
    assert sum(c.value for c in DECK) == 340
    assert value(to_mask(DECK)) == 340
    assert value(to_mask(cards("As Td Kh 7c"))) == 28
