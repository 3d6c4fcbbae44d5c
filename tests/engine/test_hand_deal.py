"""The deal (spec section 3): seats, the seeded shuffle, the dealing order and prearranged deals."""

from __future__ import annotations

import math
import random

import pytest

from engine.cards import Card, cards, shuffled_deck
from engine.errors import InvalidDeal
from engine.events import Dealt
from engine.fsm import Phase
from engine.hand import Hand
from tests.engine.support import draw_from_stock
from tests.helpers import deal, play

# The deck before shuffling: the index order of engine.cards (clubs ace to king, then diamonds, hearts,
# spades). DEAL-2 does not say which order the shuffle starts from; this pins the engine's choice.
UNSHUFFLED = [Card.parse(r + s) for s in "cdhs" for r in "A23456789TJQK"]

# Golden deck orders, first card dealt first, computed by ``spec_shuffle`` below and pinned here so that a
# change of the starting order or of the shuffle cannot go unnoticed.
GOLDEN = {
    0: """4c Qh 5c 8h 8c 2c 7c 5d Th Ts 2d 4d 9c
          2s 3h 4s Ac 6h 9s 6c 6d Jc 5h Js 3d As
          3c 6s 8s Ah Td 7s 3s 2h 9h 7h Tc Jd 4h
          Qc Ks Qs Kd 8d Ad Jh 7d Qd Kc 9d Kh 5s""",
    7: """Qc Tc Ac 3s 4h 3d Th 8s 9d Kc As 6c Qd
          Jd 7c 9h Ah 4s 5h Jc Qs 2d Kh 2h 8d 3h
          2s Qh Jh 9s 5s 6h Ad 7d 8h 6s 9c 5c Js
          Ks Ts 7s 6d 2c Td 3c 5d Kd 4c 7h 8c 4d""",
    20240601: """8c Ks 9c 9h Qh Jc Ac 4h Ah 3c Qs Qc 2d
                 3d 6s Jd 2h Kh 4s 6c 5d 7h Js Ad Qd 2c
                 7s 5h Kd 5s 6d Ts Th 3s 8d 6h 5c Kc Td
                 8h Jh 9s 4c 4d 8s Tc 7d 2s 3h As 9d 7c""",
}


def spec_shuffle(seed: int) -> list[Card]:
    """DEAL-2 as the spec words it: for i from 51 down to 1, swap i with floor(random() * (i + 1))."""
    deck = list(UNSHUFFLED)
    rng = random.Random(seed)
    for i in range(51, 0, -1):
        j = math.floor(rng.random() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def dealt(hand: Hand) -> Dealt:
    first = hand.events[0]
    assert isinstance(first, Dealt)
    return first


# --- DEAL-1: two seats, a dealer and a non-dealer -----------------------------------------------------


@pytest.mark.rule("DEAL-1", "OFFER-1")
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_non_dealer_of_the_two_seats_acts_first(dealer: int) -> None:
    hand = Hand.deal(seed=3, dealer=dealer)
    assert hand.dealer == dealer
    assert hand.to_act == 1 - dealer
    assert hand.phase is Phase.UPCARD_OFFER
    assert [len(hand.cards_of(seat)) for seat in (0, 1)] == [10, 10]


@pytest.mark.rule("DEAL-1")
@pytest.mark.parametrize("dealer", [-1, 2, 5])
def test_the_dealer_must_be_one_of_the_two_seats(dealer: int) -> None:
    with pytest.raises(InvalidDeal, match=r"^DEAL-1: ") as info:
        Hand.deal(seed=3, dealer=dealer)
    assert info.value.rule == "DEAL-1"
    with pytest.raises(InvalidDeal, match=r"^DEAL-1: "):
        deal(p0="Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc", p1="Ad 2d 3d 4d 5d 6d 7d 8d 9d Td", upcard="Kh", dealer=dealer)


@pytest.mark.rule("DEAL-1")
def test_a_hand_can_be_dealt_to_two_of_three_seats() -> None:
    hand = Hand.deal(seed=3, dealer=2, seats=(1, 2))
    assert hand.to_act == 1
    assert [len(hand.cards_of(seat)) for seat in (1, 2)] == [10, 10]
    assert hand.observation(1).opponent_hand_size == 10
    with pytest.raises(ValueError, match="VIS-1"):
        hand.observation(0)
    with pytest.raises(InvalidDeal, match=r"^DEAL-1: "):
        Hand.deal(seed=3, dealer=0, seats=(1, 2))


# --- DEAL-2: the seeded shuffle --------------------------------------------------------------------------


@pytest.mark.rule("DEAL-2")
@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_seeded_shuffle_is_the_specified_fisher_yates(seed: int) -> None:
    golden = list(cards(GOLDEN[seed]))
    assert sorted(golden) == sorted(UNSHUFFLED)
    assert spec_shuffle(seed) == golden
    assert list(shuffled_deck(seed)) == golden


@pytest.mark.rule("DEAL-2")
@pytest.mark.parametrize("seed", [1, 2, 99, 123456789, 2**40 + 3])
def test_seeded_shuffle_matches_the_spec_for_other_seeds(seed: int) -> None:
    assert list(shuffled_deck(seed)) == spec_shuffle(seed)


@pytest.mark.rule("DEAL-2")
def test_different_seeds_give_different_decks() -> None:
    decks = {shuffled_deck(seed) for seed in range(50)}
    assert len(decks) == 50


@pytest.mark.rule("DEAL-2", "DEAL-3")
def test_the_deal_records_the_order_and_play_never_asks_the_generator_again() -> None:
    hand = Hand.deal(seed=7)
    deck = list(cards(GOLDEN[7]))
    event = dealt(hand)
    assert event.stock == tuple(deck[21:])
    random.seed(12345)  # the global generator: the hand must not depend on it
    play(hand, "p1 pass", "p0 pass")
    assert draw_from_stock(hand) == deck[21]
    replay = Hand.from_deck(None, deck, dealer=0)
    play(replay, "p1 pass", "p0 pass", "p1 draw")
    assert replay.state_key() == hand.state_key()


# --- DEAL-3: dealing order -------------------------------------------------------------------------------


@pytest.mark.rule("DEAL-3")
def test_dealing_alternates_from_the_non_dealer_then_upcard_then_stock() -> None:
    # The unshuffled deck, dealt by p0: p1 gets the 1st, 3rd, ... card and p0 the 2nd, 4th, ...
    hand = Hand.from_deck(None, UNSHUFFLED, dealer=0)
    assert hand.cards_of(1) == tuple(sorted(cards("Ac 3c 5c 7c 9c Jc Kc 2d 4d 6d")))
    assert hand.cards_of(0) == tuple(sorted(cards("2c 4c 6c 8c Tc Qc Ad 3d 5d 7d")))
    assert hand.upcard == Card.parse("8d")
    assert hand.observation(0).discard_pile == cards("8d")
    assert dealt(hand).stock == tuple(UNSHUFFLED[21:])
    assert hand.observation(0).stock_size == 31
    play(hand, "p1 pass", "p0 pass")
    assert draw_from_stock(hand) == Card.parse("9d")


@pytest.mark.rule("DEAL-3")
def test_dealing_by_p1_gives_p0_the_first_card() -> None:
    hand = Hand.from_deck(None, UNSHUFFLED, dealer=1)
    assert hand.cards_of(0) == tuple(sorted(cards("Ac 3c 5c 7c 9c Jc Kc 2d 4d 6d")))
    assert hand.cards_of(1) == tuple(sorted(cards("2c 4c 6c 8c Tc Qc Ad 3d 5d 7d")))
    assert hand.to_act == 0


@pytest.mark.rule("DEAL-2", "DEAL-3")
def test_seed_0_dealt_by_p0() -> None:
    hand = Hand.deal(seed=0, dealer=0)
    assert hand.cards_of(1) == tuple(sorted(cards("4c 5c 8c 7c Th 2d 9c 3h Ac 9s")))
    assert hand.cards_of(0) == tuple(sorted(cards("Qh 8h 2c 5d Ts 4d 2s 4s 6h 6c")))
    assert hand.upcard == Card.parse("6d")
    play(hand, "p1 pass", "p0 pass")
    assert draw_from_stock(hand) == Card.parse("Jc")
    play(hand, "p1 discard Jc")
    assert draw_from_stock(hand) == Card.parse("5h")


@pytest.mark.rule("DEAL-2", "DEAL-3")
def test_seed_7_dealt_by_p1() -> None:
    hand = Hand.deal(seed=7, dealer=1)
    assert hand.cards_of(0) == tuple(sorted(cards("Qc Ac 4h Th 9d As Qd 7c Ah 5h")))
    assert hand.cards_of(1) == tuple(sorted(cards("Tc 3s 3d 8s Kc 6c Jd 9h 4s Jc")))
    assert hand.upcard == Card.parse("Qs")
    play(hand, "p0 pass", "p1 pass")
    assert draw_from_stock(hand) == Card.parse("2d")


@pytest.mark.rule("DEAL-3", "DEAL-4")
def test_prearranged_deal_keeps_seats_upcard_and_stock_order() -> None:
    hand = deal(
        p0="As 2s 3s 4h 4d 4c 9s Tc Jd Kh",
        p1="5c 6c 7c 8d 8h 8s Qs Qh 2d 3h",
        upcard="7d",
        stock="Kc 9h",
    )
    assert hand.cards_of(0) == tuple(sorted(cards("As 2s 3s 4h 4d 4c 9s Tc Jd Kh")))
    assert hand.cards_of(1) == tuple(sorted(cards("5c 6c 7c 8d 8h 8s Qs Qh 2d 3h")))
    assert hand.upcard == Card.parse("7d")
    play(hand, "p1 pass", "p0 pass")
    assert draw_from_stock(hand) == Card.parse("Kc")
    play(hand, "p1 discard Kc")
    assert draw_from_stock(hand) == Card.parse("9h")
    assert Card.parse("9h") in hand.cards_of(0)


# --- DEAL-4: a prearranged deal is a partition of the deck ----------------------------------------------

P0 = "As 2s 3s 4h 4d 4c 9s Tc Jd Kh"
P1 = "5c 6c 7c 8d 8h 8s Qs Qh 2d 3h"
REST = [c for c in UNSHUFFLED if c not in {*cards(P0), *cards(P1), Card.parse("7d")}]  # 31 cards


def stock_text(cs: list[Card]) -> str:
    return " ".join(map(str, cs))


BAD_DEALS = {
    "p0 has nine cards": (P0.removesuffix(" Kh"), P1, "7d", stock_text([*REST, Card.parse("Kh")])),
    "p0 has eleven cards": (P0 + " " + str(REST[0]), P1, "7d", stock_text(REST[1:])),
    "p1 has nine cards": (P0, P1.removesuffix(" 3h"), "7d", stock_text([*REST, Card.parse("3h")])),
    "a card in both hands": (P0, P1.replace("3h", "Kh"), "7d", stock_text([*REST[:-1], Card.parse("3h")])),
    "the upcard also in a hand": (P0, P1, "Kh", stock_text([*REST[:-1], Card.parse("7d")])),
    "the upcard also in the stock": (P0, P1, "7d", stock_text([*REST[:-1], Card.parse("7d")])),
    "a card twice in the stock": (P0, P1, "7d", stock_text([*REST[:-1], REST[0]])),
    "a stock of 30": (P0, P1, "7d", stock_text(REST[:-1])),
    "a stock of 32": (P0, P1, "7d", stock_text([*REST, REST[0]])),
    "an empty stock": (P0, P1, "7d", ""),
}


@pytest.mark.rule("DEAL-4")
def test_a_proper_partition_is_accepted() -> None:
    hand = Hand.from_deal(hands=(P0, P1), upcard="7d", stock=stock_text(REST))
    assert hand.phase is Phase.UPCARD_OFFER
    assert hand.observation(1).stock_size == 31


@pytest.mark.rule("DEAL-4")
@pytest.mark.parametrize("case", sorted(BAD_DEALS))
def test_a_deal_that_is_not_a_partition_is_rejected(case: str) -> None:
    p0, p1, upcard, stock = BAD_DEALS[case]
    with pytest.raises(InvalidDeal, match=r"^DEAL-4: ") as info:
        Hand.from_deal(hands=(p0, p1), upcard=upcard, stock=stock)
    assert info.value.rule == "DEAL-4"


@pytest.mark.rule("DEAL-4")
@pytest.mark.parametrize(
    "deck",
    [UNSHUFFLED[:51], [*UNSHUFFLED, UNSHUFFLED[0]], [*UNSHUFFLED[:51], UNSHUFFLED[0]], []],
    ids=["51 cards", "53 cards", "a card twice", "empty"],
)
def test_a_deck_order_must_hold_each_card_once(deck: list[Card]) -> None:
    with pytest.raises(InvalidDeal, match=r"^DEAL-4: "):
        Hand.from_deck(None, deck)
