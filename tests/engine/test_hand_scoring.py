"""Scoring whole hands (spec section 10): gin, a won knock, undercuts and ties, the multiplier, the winner."""

from __future__ import annotations

import pytest

from engine.events import HandScored
from engine.hand import Hand
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind
from tests.helpers import deal, play

GIN_HAND = "3c 4c 5c 6c 8d 8h 8s Jc Qc Kc"
DEFENDER_39 = "As 2s 3s 4h 4d 4s 9s Tc Jd Kh"  # As-2s-3s 4d-4h-4s: 9s Tc Jd Kh left
DEFENDER_0 = "As 2s 3s 4d 4h 4s 9h Th Jh Qh"  # all melded


def result(hand: Hand) -> HandResult:
    assert hand.is_over
    assert hand.result is not None
    last = hand.events[-1]
    assert isinstance(last, HandScored)
    assert last.result == hand.result
    return hand.result


def gin_by_p1(defender: str, rules: RuleSet | None = None) -> HandResult:
    hand = deal(p0=defender, p1=GIN_HAND, upcard="7d", stock="Ks", rules=rules)
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks", "p1 spread 3c-4c-5c-6c 8d-8h-8s Jc-Qc-Kc")
    return result(hand)


# --- SCORE-1: gin -------------------------------------------------------------------------------------------


@pytest.mark.rule("SCORE-1", "SCORE-6", "KNOCK-5")
def test_gin_scores_the_bonus_plus_the_defenders_deadwood() -> None:
    r = gin_by_p1(DEFENDER_39)
    assert r.kind is ResultKind.GIN
    assert r.knocker == 1
    assert r.deadwood_of(1) == 0
    assert r.deadwood_of(0) == 39
    assert (r.winner, r.points) == (1, 25 + 39)


@pytest.mark.rule("SCORE-1", "SCORE-6")
def test_gin_against_a_fully_melded_defender_scores_the_bonus_only_and_the_defender_nothing() -> None:
    r = gin_by_p1(DEFENDER_0)
    assert r.kind is ResultKind.GIN
    assert r.deadwood_of(0) == 0
    assert (r.winner, r.points) == (1, 25)


@pytest.mark.rule("SCORE-1", "RULES-2")
def test_the_gin_bonus_is_an_option() -> None:
    r = gin_by_p1(DEFENDER_39, RuleSet(gin_bonus=20))
    assert (r.winner, r.points) == (1, 20 + 39)


@pytest.mark.rule("SCORE-1", "DEAL-1")
def test_gin_by_the_dealer() -> None:
    hand = deal(p0=GIN_HAND, p1=DEFENDER_39, upcard="7d", stock="Ks Qs")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 discard Ks", "p0 draw", "p0 knock Qs")
    play(hand, "p0 spread 3c-4c-5c-6c 8d-8h-8s Jc-Qc-Kc")
    r = result(hand)
    assert r.kind is ResultKind.GIN
    assert r.knocker == 0
    assert (r.winner, r.points) == (0, 25 + 39)


# --- SCORE-2 and SCORE-3: the knocker against the defender after layoffs --------------------------------

# p0 melds As-2s-3s 4d-4h-4s and lays off 9c Tc onto p1's Jc-Qc-Kc: 2h 3h, 5 points left.
# p1 knocks with 5c-6c-7c 8d-8h-8s Jc-Qc-Kc and one more card, the only one he does not meld.
UNDERCUTTER = "As 2s 3s 4d 4h 4s 9c Tc 2h 3h"
ANSWER = "p0 layoff As-2s-3s 4d-4h-4s 9c>Jc-Qc-Kc Tc>Jc-Qc-Kc"


def knock_by_p1(last_card: str, rules: RuleSet | None = None) -> HandResult:
    hand = deal(p0=UNDERCUTTER, p1=f"5c 6c 7c 8d 8h 8s Jc Qc Kc {last_card}", upcard="7d", stock="Ks", rules=rules)
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc", ANSWER)
    r = result(hand)
    assert r.knocker == 1
    assert r.deadwood_of(0) == 5
    return r


@pytest.mark.rule("SCORE-2", "SCORE-6", "LAY-6")
def test_the_knocker_with_less_deadwood_scores_the_difference() -> None:
    r = knock_by_p1("2d")
    assert r.kind is ResultKind.KNOCK
    assert r.deadwood_of(1) == 2
    assert (r.winner, r.points) == (1, 5 - 2)


@pytest.mark.rule("SCORE-3", "SCORE-6")
@pytest.mark.parametrize(("last_card", "knocker_deadwood"), [("6d", 6), ("9d", 9)])
def test_the_defender_with_less_deadwood_undercuts(last_card: str, knocker_deadwood: int) -> None:
    r = knock_by_p1(last_card)
    assert r.kind is ResultKind.UNDERCUT
    assert r.deadwood_of(1) == knocker_deadwood
    assert (r.winner, r.points) == (0, 10 + knocker_deadwood - 5)


@pytest.mark.rule("SCORE-3", "RULES-2")
def test_the_undercut_bonus_is_an_option() -> None:
    r = knock_by_p1("9d", RuleSet(undercut_bonus=25))
    assert (r.winner, r.points) == (0, 25 + 4)


@pytest.mark.rule("SCORE-3", "SCORE-6")
def test_a_tie_is_an_undercut_by_default() -> None:
    r = knock_by_p1("5d")
    assert r.kind is ResultKind.UNDERCUT
    assert r.deadwood_of(1) == 5
    assert (r.winner, r.points) == (0, 10)


@pytest.mark.rule("SCORE-3", "SCORE-6")
def test_a_tie_without_undercut_on_tie_scores_nothing() -> None:
    r = knock_by_p1("5d", RuleSet(undercut_on_tie=False))
    assert r.kind is ResultKind.TIE
    assert (r.winner, r.points) == (None, 0)
    # the option changes only ties
    assert knock_by_p1("6d", RuleSet(undercut_on_tie=False)).points == 11
    assert knock_by_p1("2d", RuleSet(undercut_on_tie=False)).points == 3


# --- SCORE-5: the multiplier --------------------------------------------------------------------------------


@pytest.mark.rule("SCORE-5", "OKLA-4")
def test_the_multiplier_applies_to_difference_and_bonus_under_a_fixed_limit_too() -> None:
    rules = RuleSet(spades_double=True)
    hand = deal(p0=UNDERCUTTER, p1="5c 6c 7c 8d 8h 8s Jc Qc Kc 9d", upcard="7s", stock="Ks", rules=rules)
    assert hand.knock_limit == 10
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc", ANSWER)
    r = result(hand)
    assert r.multiplier == 2
    assert (r.winner, r.points) == (0, 2 * (10 + 4))


@pytest.mark.rule("SCORE-5")
@pytest.mark.parametrize("last_card", ["2d", "5d", "9d"])
def test_without_spades_double_the_multiplier_is_one(last_card: str) -> None:
    assert knock_by_p1(last_card).multiplier == 1


# --- SCORE-6: the winner is the seat awarded points --------------------------------------------------------


@pytest.mark.rule("SCORE-6", "SCORE-1")
def test_gin_worth_nothing_has_no_winner() -> None:
    r = gin_by_p1(DEFENDER_0, RuleSet(gin_bonus=0))
    assert r.kind is ResultKind.GIN
    assert (r.winner, r.points) == (None, 0)


@pytest.mark.rule("SCORE-6", "SCORE-3")
def test_an_undercut_worth_nothing_has_no_winner() -> None:
    r = knock_by_p1("5d", RuleSet(undercut_bonus=0))
    assert r.kind is ResultKind.UNDERCUT
    assert (r.winner, r.points) == (None, 0)
    assert knock_by_p1("9d", RuleSet(undercut_bonus=0)).winner == 0
