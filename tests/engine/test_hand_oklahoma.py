"""Oklahoma Gin (spec section 7): the upcard sets the knock limit; spades double the hand."""

from __future__ import annotations

import pytest

from engine.cards import RANKS, Card
from engine.events import Dealt
from engine.hand import Hand
from engine.rules import KnockLimit, RuleSet
from engine.scoring import ResultKind
from tests.engine.support import legal, rejected
from tests.helpers import deal, play

OKLAHOMA = RuleSet.preset("oklahoma")
GIN_ONLY_ACE = RuleSet.preset("oklahoma", oklahoma_ace="gin_only")

# Clubs and hearts only, so that any diamond can be the upcard.
CLUBS = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc"
HEARTS = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th"

# The limit each rank of upcard sets: a ten or a picture gives 10, an ace 1, the others their pips.
LIMITS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10}

KNOCKER = "5c 6c 7c 8d 8h 8s Jc Qc Kc"  # three melds; tests add a tenth card
DEFENDER = "As 2s 3s 4h 4d 4s 9s Tc Jd Kh"  # 39 deadwood, 29 after laying off Tc onto Jc-Qc-Kc


def knocks(hand: Hand) -> list[str]:
    return [a for a in legal(hand) if a.startswith("knock")]


# --- OKLA-1: the upcard's value is the knock limit ----------------------------------------------------


@pytest.mark.rule("OKLA-1", "KNOCK-3", "VIS-1")
@pytest.mark.parametrize("rank", list(RANKS))
def test_every_upcard_rank_sets_its_limit(rank: str) -> None:
    assert set(LIMITS) == set(RANKS)
    hand = deal(p0=CLUBS, p1=HEARTS, upcard=f"{rank}d", rules=OKLAHOMA)
    assert hand.knock_limit == LIMITS[rank]
    first = hand.events[0]
    assert isinstance(first, Dealt)
    assert first.knock_limit == LIMITS[rank]
    for seat in (0, 1):
        assert hand.observation(seat).knock_limit == LIMITS[rank]


@pytest.mark.rule("OKLA-1", "KNOCK-2")
def test_a_six_upcard_lets_a_knock_with_six_but_not_with_seven() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER + " 7h", upcard="6d", stock="2h", rules=OKLAHOMA)
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    # 7h and 2h over three melds: knocking 2h leaves 7, knocking 7h leaves 2
    assert "7 deadwood (limit 6)" in str(rejected(hand, "p1 knock 2h", "KNOCK-2"))
    assert knocks(hand) == ["knock 7h"]
    standard = deal(p0=DEFENDER, p1=KNOCKER + " 7h", upcard="6d", stock="2h")
    play(standard, "p1 pass", "p0 pass", "p1 draw")
    assert knocks(standard) == ["knock 2h", "knock 7h"]


@pytest.mark.rule("OKLA-1", "KNOCK-2")
def test_the_limit_equal_to_the_deadwood_may_knock() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER + " 6h", upcard="6d", stock="Kd", rules=OKLAHOMA)
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Kd")
    assert hand.spread is None
    play(hand, "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    assert hand.spread is not None
    assert hand.spread.deadwood == 6


# --- OKLA-2: an ace upcard --------------------------------------------------------------------------------


@pytest.mark.rule("OKLA-2")
def test_an_ace_gives_one_or_gin_only() -> None:
    assert OKLAHOMA.oklahoma_ace.value == "one"
    assert deal(p0=CLUBS, p1=HEARTS, upcard="Ad", rules=OKLAHOMA).knock_limit == 1
    assert deal(p0=CLUBS, p1=HEARTS, upcard="Ad", rules=GIN_ONLY_ACE).knock_limit == 0
    # gin_only changes only the ace
    for rank in "23456789TJQK":
        assert deal(p0=CLUBS, p1=HEARTS, upcard=f"{rank}d", rules=GIN_ONLY_ACE).knock_limit == LIMITS[rank]


@pytest.mark.rule("OKLA-2", "KNOCK-2")
def test_an_ace_upcard_allows_one_point_under_one_and_none_under_gin_only() -> None:
    one = deal(p0=DEFENDER, p1=KNOCKER + " 9h", upcard="Ad", stock="Ah", rules=OKLAHOMA)
    play(one, "p1 pass", "p0 pass", "p1 draw")
    assert knocks(one) == ["knock 9h"]  # leaves Ah: 1 point
    gin_only = deal(p0=DEFENDER, p1=KNOCKER + " 9h", upcard="Ad", stock="Ah", rules=GIN_ONLY_ACE)
    play(gin_only, "p1 pass", "p0 pass", "p1 draw")
    assert "1 deadwood (limit 0)" in str(rejected(gin_only, "p1 knock 9h", "KNOCK-2"))
    assert knocks(gin_only) == []


@pytest.mark.rule("OKLA-2", "KNOCK-5")
def test_gin_is_still_legal_with_an_ace_under_gin_only() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER + " 9h", upcard="Ad", stock="8c", rules=GIN_ONLY_ACE)
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    assert knocks(hand) == ["knock 9h"]
    play(hand, "p1 knock 9h", "p1 spread 5c-6c-7c 8c-8d-8h-8s Jc-Qc-Kc")
    assert hand.result is not None
    assert hand.result.kind is ResultKind.GIN


@pytest.mark.rule("OKLA-2", "OKLA-3")
def test_the_ace_upcard_taken_is_one_point_of_deadwood_under_one() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER + " 9h", upcard="Ad", rules=OKLAHOMA)
    play(hand, "p1 take")
    assert knocks(hand) == ["knock 9h"]  # leaves Ad: 1 point


# --- OKLA-3: fixed at the deal, for that deal only, public ---------------------------------------------


@pytest.mark.rule("OKLA-3", "VIS-1")
def test_the_limit_and_the_first_upcard_stay_after_the_upcard_is_taken() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER + " 9h", upcard="3d", stock="Qd Kd 5h", rules=OKLAHOMA)
    assert hand.knock_limit == 3
    play(hand, "p1 take")
    assert hand.knock_limit == 3
    # 3d with 9h: knocking 9h leaves 3 (the limit); nothing else passes
    assert knocks(hand) == ["knock 9h"]
    play(hand, "p1 discard 9h", "p0 draw", "p0 discard Qd", "p1 draw", "p1 discard Kd", "p0 pickup")
    for seat in (0, 1):
        obs = hand.observation(seat)
        assert obs.upcard == Card.parse("3d")
        assert obs.knock_limit == 3
    play(hand, "p0 discard 9s", "p1 draw")
    # p1 now holds 3d and 5h over his melds: knocking 3d leaves 5, over the limit of 3
    assert "5 deadwood (limit 3)" in str(rejected(hand, "p1 knock 3d", "KNOCK-2"))
    assert knocks(hand) == ["knock 5h"]


@pytest.mark.rule("OKLA-3", "OKLA-1")
def test_each_deal_sets_its_own_limit() -> None:
    assert OKLAHOMA.knock_limit is KnockLimit.UPCARD
    hands = [Hand.deal(OKLAHOMA, seed=seed) for seed in range(40)]
    assert len({hand.knock_limit for hand in hands}) > 3
    for hand in hands:
        assert hand.knock_limit == LIMITS[str(hand.upcard)[0]]


# --- OKLA-4: a spade upcard doubles the hand ---------------------------------------------------------------

SPADES_DOUBLE = RuleSet.preset("oklahoma", spades_double=True)


def knock_hand(upcard: str, rules: RuleSet) -> Hand:
    """p1 knocks with 2d over three melds; p0 lays off Tc: 29 against 2, p1 scores 27 (times the multiplier)."""
    hand = deal(p0=DEFENDER, p1=KNOCKER + " 2d", upcard=upcard, stock="Qh", rules=rules)
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Qh", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    play(hand, "p0 layoff As-2s-3s 4d-4h-4s Tc>Jc-Qc-Kc")
    return hand


@pytest.mark.rule("OKLA-4", "SCORE-2", "SCORE-5")
@pytest.mark.parametrize(("upcard", "multiplier"), [("7s", 2), ("Ks", 2), ("7d", 1), ("7h", 1)])
def test_a_spade_upcard_doubles_a_knock(upcard: str, multiplier: int) -> None:
    hand = knock_hand(upcard, SPADES_DOUBLE)
    assert hand.result is not None
    assert hand.result.kind is ResultKind.KNOCK
    assert (hand.result.winner, hand.result.points) == (1, multiplier * 27)
    assert hand.result.multiplier == multiplier


@pytest.mark.rule("OKLA-4", "SCORE-5")
def test_spades_do_not_double_unless_the_option_is_on() -> None:
    hand = knock_hand("7s", OKLAHOMA)
    assert hand.result is not None
    assert hand.result.points == 27


@pytest.mark.rule("OKLA-4", "SCORE-1", "SCORE-5")
def test_a_spade_upcard_doubles_gin_with_its_bonus() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER + " 8c", upcard="7s", stock="Qh", rules=SPADES_DOUBLE)
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Qh", "p1 spread 5c-6c-7c 8c-8d-8h-8s Jc-Qc-Kc")
    assert hand.result is not None
    assert hand.result.kind is ResultKind.GIN
    assert hand.result.points == 2 * (25 + 39)


@pytest.mark.rule("OKLA-4", "SCORE-3", "SCORE-5")
def test_a_spade_upcard_doubles_an_undercut_with_its_bonus() -> None:
    # p1 knocks with 7 (the upcard's limit); p0 melds everything but 2h 3h: 5.
    hand = deal(p0="As 2s 3s 4d 4h 4s 9c Tc 2h 3h", p1=KNOCKER + " 7d", upcard="7s", stock="Qh", rules=SPADES_DOUBLE)
    assert hand.knock_limit == 7
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Qh", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    play(hand, "p0 layoff As-2s-3s 4d-4h-4s 9c>Jc-Qc-Kc Tc>Jc-Qc-Kc")
    assert hand.result is not None
    assert hand.result.kind is ResultKind.UNDERCUT
    assert (hand.result.winner, hand.result.points) == (0, 2 * (10 + 7 - 5))


@pytest.mark.rule("OKLA-4", "OKLA-3", "SCORE-5")
def test_the_spade_upcard_doubles_even_after_it_is_taken() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER + " 2d", upcard="7s", rules=SPADES_DOUBLE)
    play(hand, "p1 take", "p1 knock 2d", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    assert hand.spread is not None
    assert hand.spread.deadwood == 7  # the 7s taken is his deadwood now
    play(hand, "p0 layoff As-2s-3s 4d-4h-4s Tc>Jc-Qc-Kc")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.points) == (1, 2 * (29 - 7))


@pytest.mark.rule("OKLA-4", "KNOCK-6", "SCORE-4", "SCORE-5")
def test_a_spade_upcard_doubles_big_gin() -> None:
    rules = SPADES_DOUBLE.replace(big_gin_bonus=31)
    hand = deal(p0=DEFENDER, p1="3c 4c 5c 6c 8d 8h 8s Jc Qc Kc", upcard="Qs", stock="7c", rules=rules)
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 big-gin", "p1 spread 3c-4c-5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    assert hand.result is not None
    assert hand.result.kind is ResultKind.BIG_GIN
    assert hand.result.points == 2 * (31 + 39)
