"""The first upcard (spec section 4): the non-dealer's option, the dealer's option, both passing."""

from __future__ import annotations

import pytest

from engine.cards import Card, cards
from engine.events import DrewDiscard, UpcardPassed, UpcardTaken
from engine.fsm import Phase
from engine.hand import Hand
from tests.engine.support import draw_from_stock, legal, rejected
from tests.helpers import deal, play

# Neither hand can use the upcard 7d; both are far from knocking.
DEALER_HAND = "As 2s 3s 4h 4d 4c 9s Tc Jd Kh"
OTHER_HAND = "5c 6c 7c 8d 8h 8s Qs Qh 2d 3h"


def offer(dealer: int = 0) -> Hand:
    """A fresh hand dealt by ``dealer``; the dealer holds DEALER_HAND, the non-dealer OTHER_HAND."""
    hands = {dealer: DEALER_HAND, 1 - dealer: OTHER_HAND}
    return deal(p0=hands[0], p1=hands[1], upcard="7d", stock="Kc 9h", dealer=dealer)


@pytest.mark.rule("OFFER-1", "TURN-1")
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_non_dealer_has_the_first_option(dealer: int) -> None:
    hand = offer(dealer)
    non_dealer = 1 - dealer
    assert hand.phase is Phase.UPCARD_OFFER
    assert hand.to_act == non_dealer
    assert legal(hand) == ["pass", "take"]
    assert {a.seat for a in hand.legal_actions()} == {non_dealer}
    rejected(hand, f"p{dealer} take", "TURN-1")
    rejected(hand, f"p{dealer} pass", "TURN-1")


@pytest.mark.rule("OFFER-1", "OFFER-3")
@pytest.mark.parametrize("dealer", [0, 1])
def test_the_non_dealer_takes_the_upcard(dealer: int) -> None:
    hand = offer(dealer)
    nd = 1 - dealer
    events = hand.play(f"p{nd} take")
    assert events == [UpcardTaken(nd, Card.parse("7d"))]
    assert Card.parse("7d") in hand.cards_of(nd)
    assert len(hand.cards_of(nd)) == 11
    assert hand.observation(nd).discard_pile == ()
    assert hand.observation(nd).stock_size == 31
    assert hand.phase is Phase.DISCARD
    assert hand.to_act == nd


@pytest.mark.rule("OFFER-2")
@pytest.mark.parametrize("dealer", [0, 1])
def test_after_the_non_dealer_passes_the_dealer_may_take_or_pass(dealer: int) -> None:
    hand = offer(dealer)
    nd = 1 - dealer
    assert hand.play(f"p{nd} pass") == [UpcardPassed(nd)]
    assert hand.phase is Phase.UPCARD_OFFER
    assert hand.to_act == dealer
    assert legal(hand) == ["pass", "take"]
    rejected(hand, f"p{nd} take", "TURN-1")
    rejected(hand, f"p{nd} pass", "TURN-1")
    play(hand, f"p{dealer} take")
    assert Card.parse("7d") in hand.cards_of(dealer)
    assert hand.observation(dealer).phase is Phase.DISCARD
    assert hand.to_act == dealer


@pytest.mark.rule("OFFER-3", "TURN-2")
def test_the_non_dealer_takes_discards_and_the_dealer_has_an_ordinary_turn() -> None:
    hand = offer(dealer=0)
    play(hand, "p1 take", "p1 discard Qs")
    assert hand.phase is Phase.DRAW
    assert hand.to_act == 0
    assert legal(hand) == ["draw", "pickup"]
    assert hand.observation(0).discard_pile == cards("Qs")
    assert hand.play("p0 pickup") == [DrewDiscard(0, Card.parse("Qs"))]


@pytest.mark.rule("OFFER-2", "OFFER-3", "TURN-2")
def test_the_dealer_takes_discards_and_the_non_dealer_has_an_ordinary_turn() -> None:
    hand = offer(dealer=0)
    play(hand, "p1 pass", "p0 take", "p0 discard Kh")
    assert hand.phase is Phase.DRAW
    assert hand.to_act == 1
    assert legal(hand) == ["draw", "pickup"]
    play(hand, "p1 pickup")
    assert Card.parse("Kh") in hand.cards_of(1)


@pytest.mark.rule("OFFER-3", "KNOCK-1")
def test_the_upcard_taker_may_knock_instead_of_discarding() -> None:
    # p1 holds 5c-6c-7c 8d-8h-8s Jc-Qc-Kc and 2d; with the 7d taken, knocking 2d leaves 7 points.
    hand = deal(p0=DEALER_HAND, p1="5c 6c 7c 8d 8h 8s Jc Qc Kc 2d", upcard="7d")
    play(hand, "p1 take", "p1 knock 2d")
    assert hand.phase is Phase.KNOCK
    assert hand.knocker == 1


@pytest.mark.rule("OFFER-4", "OFFER-2")
@pytest.mark.parametrize("dealer", [0, 1])
def test_when_both_pass_the_non_dealer_draws_from_the_stock(dealer: int) -> None:
    hand = offer(dealer)
    nd = 1 - dealer
    play(hand, f"p{nd} pass", f"p{dealer} pass")
    assert hand.phase is Phase.DRAW
    assert hand.to_act == nd
    assert legal(hand) == ["draw"]
    assert hand.observation(nd).discard_pile == cards("7d")
    error = rejected(hand, f"p{nd} pickup", "OFFER-4")
    assert Card.parse("7d") not in hand.cards_of(nd)
    assert error.phase == "draw"
    rejected(hand, f"p{nd} take", "TURN-1")
    rejected(hand, f"p{dealer} draw", "TURN-1")
    assert draw_from_stock(hand) == Card.parse("Kc")


@pytest.mark.rule("OFFER-4", "TURN-2")
def test_after_the_first_stock_draw_the_discard_pile_is_open_again() -> None:
    hand = offer(dealer=0)
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 discard Qs")
    assert legal(hand) == ["draw", "pickup"]
    play(hand, "p0 pickup")
    assert Card.parse("Qs") in hand.cards_of(0)
    assert hand.observation(0).discard_pile == cards("7d")
    play(hand, "p0 discard Kh")
    # the declined upcard is under Kh; it could come back only by being the top again
    assert legal(hand) == ["draw", "pickup"]
