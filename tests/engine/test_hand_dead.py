"""Dead hands (spec section 9): two cards left in the stock, the 50th-card rule, the pickup cap."""

from __future__ import annotations

import pytest

from engine.cards import Card
from engine.events import HandDead, WallDeclined
from engine.fsm import Phase
from engine.hand import Hand
from engine.rules import RuleSet
from engine.scoring import ResultKind
from tests.engine.support import burn, draw_from_stock, legal, rejected
from tests.helpers import deal, play

P0 = "As 2s 3s 4h 4d 4c 9s Tc Jd Kh"
KNOCKER = "5c 6c 7c 8d 8h 8s Jc Qc Kc 2d"  # knocks with 2 points whatever card it draws


def assert_dead(hand: Hand, reason: str) -> None:
    assert hand.phase is Phase.HAND_OVER
    assert hand.to_act is None
    assert hand.legal_actions() == []
    assert hand.result is not None
    assert hand.result.kind is ResultKind.DEAD
    assert hand.result.reason == reason
    assert hand.result.winner is None
    assert hand.result.points == 0
    assert isinstance(hand.events[-1], HandDead)
    assert hand.spread is None


# --- DEAD-1: a discard that leaves two cards in the stock ends the hand ----------------------------------


def to_last_draw(rules: RuleSet | None = None, p0: str = P0, p1: str = KNOCKER) -> Hand:
    """Both pass, then 28 turns of drawing and discarding: three cards are left and p1 is to draw."""
    hand = deal(p0=p0, p1=p1, upcard="7d", rules=rules)
    play(hand, "p1 pass", "p0 pass")
    burn(hand, 28)
    assert hand.observation(0).stock_size == 3
    assert hand.phase is Phase.DRAW
    assert hand.to_act == 1
    return hand


@pytest.mark.rule("DEAD-1")
def test_a_discard_leaving_two_stock_cards_ends_the_hand_dead() -> None:
    hand = to_last_draw()
    card = draw_from_stock(hand)
    assert hand.observation(1).stock_size == 2
    assert hand.phase is Phase.DISCARD
    events = hand.play(f"p1 discard {card}")
    assert len(events) == 2
    assert isinstance(events[1], HandDead)
    assert_dead(hand, "stock")
    assert hand.observation(0).stock_size == 2
    rejected(hand, "p0 draw", "TURN-1")


@pytest.mark.rule("DEAD-1")
def test_the_hand_is_alive_while_three_stock_cards_remain_after_a_discard() -> None:
    hand = to_last_draw()
    assert not hand.is_over
    assert hand.result is None
    assert legal(hand) == ["draw", "pickup"]
    play(hand, "p1 pickup")  # a pickup leaves the stock at 3
    assert hand.observation(1).stock_size == 3
    discard = next(a for a in hand.legal_actions() if str(a).startswith("discard"))
    hand.apply(discard)
    assert hand.phase is Phase.DRAW
    draw_from_stock(hand)
    assert hand.observation(0).stock_size == 2
    hand.apply(next(a for a in hand.legal_actions() if str(a).startswith("discard")))
    assert_dead(hand, "stock")


@pytest.mark.rule("DEAD-1", "KNOCK-1", "SCORE-2")
def test_a_knock_with_two_cards_left_is_scored() -> None:
    hand = to_last_draw()
    card = draw_from_stock(hand)
    play(hand, f"p1 knock {card}", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    hand.apply(hand.auto_defence())
    assert hand.result is not None
    assert hand.result.kind is ResultKind.KNOCK
    # p0 lays off Tc onto Jc-Qc-Kc and keeps As-2s-3s 4c-4d-4h: 9s Jd Kh against 2d
    assert (hand.result.winner, hand.result.points) == (1, 29 - 2)


# --- DEAD-2: the 50th-card rule -------------------------------------------------------------------------------

WALL = RuleSet(wall_pickup_to_knock=True)
# p0 needs Kd for Jd-Qd-Kd; then knocking 2s or 4s is within 10. 9h is of no use to him.
WALL_P0 = "5h 6h 7h 8c 9c Tc Jd Qd 4s 2s"
WALL_P1 = "5c 6c 7c 8d 8h 8s 3c 4d Kd 9h"


def wall(last_discard: str, rules: RuleSet = WALL) -> Hand:
    hand = to_last_draw(rules, p0=WALL_P0, p1=WALL_P1)
    draw_from_stock(hand)
    play(hand, f"p1 discard {last_discard}")
    return hand


@pytest.mark.rule("DEAD-2", "DEAD-1")
def test_without_the_option_the_last_discard_kills_the_hand() -> None:
    assert_dead(wall("Kd", RuleSet()), "stock")


@pytest.mark.rule("DEAD-2")
def test_the_opponent_may_take_the_last_discard_to_knock() -> None:
    hand = wall("Kd")
    assert hand.phase is Phase.WALL
    assert hand.to_act == 0
    assert hand.observation(0).stock_size == 2
    assert legal(hand) == ["pickup", "decline"]
    rejected(hand, "p0 draw", "TURN-1")
    rejected(hand, "p1 pickup", "TURN-1")
    play(hand, "p0 pickup")
    assert Card.parse("Kd") in hand.cards_of(0)
    assert hand.observation(0).phase is Phase.DISCARD
    assert legal(hand) == ["knock 2s", "knock 4s"]
    rejected(hand, "p0 discard 4s", "DEAD-2")  # he must knock
    rejected(hand, "p0 discard 2s", "DEAD-2")
    rejected(hand, "p0 knock Kd", "TURN-4")  # and not with the card he took
    rejected(hand, "p0 knock Tc", "KNOCK-2")
    play(hand, "p0 knock 4s", "p0 spread 5h-6h-7h 8c-9c-Tc Jd-Qd-Kd")
    hand.apply(hand.auto_defence())
    assert hand.result is not None
    assert hand.result.kind is ResultKind.KNOCK
    assert hand.result.winner == 0
    assert hand.result.deadwood_of(0) == 2
    assert hand.result.points == hand.result.deadwood_of(1) - 2


@pytest.mark.rule("DEAD-2")
def test_declining_the_last_discard_kills_the_hand() -> None:
    hand = wall("Kd")
    events = hand.play("p0 decline")
    assert events[0] == WallDeclined(0)
    assert_dead(hand, "last discard declined")
    assert Card.parse("Kd") not in hand.cards_of(0)


@pytest.mark.rule("DEAD-2")
def test_the_last_discard_may_not_be_taken_unless_it_allows_a_knock() -> None:
    hand = wall("9h")
    assert legal(hand) == ["decline"]
    rejected(hand, "p0 pickup", "DEAD-2")
    play(hand, "p0 decline")
    assert_dead(hand, "last discard declined")


@pytest.mark.rule("DEAD-2", "TURN-4", "KNOCK-3")
def test_a_last_discard_that_allows_a_knock_only_with_itself_may_not_be_taken() -> None:
    # Under a limit of 5, p0 holds 5h-6h-7h 8c-9c-Tc Jd-Qd-Kd and 2s. With the 9h he could knock only by
    # discarding the 9h again (knocking 2s would leave 9): not a knock "with a discard other than that card".
    rules = WALL.replace(knock_limit_value=5)
    hand = to_last_draw(rules, p0="5h 6h 7h 8c 9c Tc Jd Qd Kd 2s", p1="5c 6c 7c 8d 8h 8s 3c 4d 4s 9h")
    draw_from_stock(hand)
    play(hand, "p1 discard 9h")
    assert hand.phase is Phase.WALL
    assert legal(hand) == ["decline"]
    rejected(hand, "p0 pickup", "DEAD-2")


# --- DEAD-3: the cap on consecutive pickups -------------------------------------------------------------------

P1 = "5c 6c 7c 8d 8h 8s Qs Qh 2d 3h"


def capped(cap: int | None, p1: str = P1) -> Hand:
    return deal(p0=P0, p1=p1, upcard="7d", stock="Ks 9h 5s", rules=RuleSet(max_consecutive_discard_pickups=cap))


@pytest.mark.rule("DEAD-3")
def test_the_hand_dies_after_the_discard_that_follows_the_capped_pickup() -> None:
    hand = capped(2)
    play(hand, "p1 take", "p1 discard Qs")  # the upcard is the first pickup
    assert hand.phase is Phase.DRAW
    play(hand, "p0 pickup")  # the second, by the other seat
    assert hand.observation(0).phase is Phase.DISCARD
    play(hand, "p0 discard Kh")
    assert_dead(hand, "pickup cap")


@pytest.mark.rule("DEAD-3")
def test_a_stock_draw_resets_the_count() -> None:
    hand = capped(2)
    play(hand, "p1 take", "p1 discard Qs", "p0 draw", "p0 discard Kh", "p1 pickup", "p1 discard Qh", "p0 pickup")
    assert not hand.is_over
    play(hand, "p0 discard Jd")
    assert_dead(hand, "pickup cap")


@pytest.mark.rule("DEAD-3", "OFFER-2")
def test_the_dealer_taking_the_upcard_counts() -> None:
    hand = capped(1)
    play(hand, "p1 pass", "p0 take", "p0 discard Kh")
    assert_dead(hand, "pickup cap")


@pytest.mark.rule("DEAD-3", "KNOCK-1")
def test_a_knock_at_the_cap_is_scored() -> None:
    hand = capped(1, p1=KNOCKER)
    play(hand, "p1 take", "p1 knock 2d", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    assert hand.phase is Phase.LAYOFF
    hand.apply(hand.auto_defence())
    assert hand.result is not None
    assert hand.result.kind is ResultKind.KNOCK


@pytest.mark.rule("DEAD-3")
def test_without_a_cap_pickups_may_go_on() -> None:
    hand = capped(None)
    play(hand, "p1 take", "p1 discard Qs")
    for _ in range(20):
        seat = hand.to_act
        play(hand, f"p{seat} pickup")
        discard = next(a for a in hand.legal_actions() if str(a).startswith("discard"))
        hand.apply(discard)
    assert not hand.is_over
    assert hand.observation(0).stock_size == 31
