"""Laying off and the showdown through the Hand API (spec section 8)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.actions import LayOff
from engine.cards import Card, cards
from engine.events import DefenceLaid, SpreadLaid
from engine.fsm import Phase
from engine.hand import Hand
from engine.melds import Meld
from engine.scoring import ResultKind
from engine.showdown import Layoff
from tests.engine.support import legal, rejected
from tests.helpers import deal, play

SPREAD = "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc"


def knocked() -> Hand:
    """p1 takes the 7d and knocks 2d: 5c-6c-7c 8d-8h-8s Jc-Qc-Kc and 7 deadwood.

    p0 holds As-2s-3s 4c-4d-4h 9s Tc Jd Kh: 4c fits 5c-6c-7c (but is in his set), Tc fits Jc-Qc-Kc.
    """
    hand = deal(p0="As 2s 3s 4h 4d 4c 9s Tc Jd Kh", p1="5c 6c 7c 8d 8h 8s Jc Qc Kc 2d", upcard="7d")
    play(hand, "p1 take", "p1 knock 2d")
    return hand


def spread() -> Hand:
    hand = knocked()
    play(hand, SPREAD)
    return hand


def breakable(defender: str = "7h 8h 9h 9d 9s As 2s 3s 2c 3d") -> Hand:
    """p1 knocks with 4h-5h-6h Td-Th-Ts Jc-Qc-Kc and 9c (9 points); p0 may break 7h-8h-9h to lay off 7h 8h."""
    hand = deal(p0=defender, p1="4h 5h 6h Td Th Ts Jc Qc Kc 9c", upcard="Kd", stock="Ks")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks", "p1 spread 4h-5h-6h Td-Th-Ts Jc-Qc-Kc")
    return hand


def two_targets() -> Hand:
    """p1 knocks with 4c-5c-6c 7d-7h-7s Jd-Qd-Kd and 2s; p0's 7c fits the run or the set, and 8c only after 7c."""
    hand = deal(p0="7c 8c Ah 2h 3h 9s 9h Ks Kh 4d", p1="4c 5c 6c 7d 7h 7s Jd Qd Kd 2s", upcard="Tc", stock="Qs")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Qs", "p1 spread 4c-5c-6c 7d-7h-7s Jd-Qd-Kd")
    return hand


def outcome(hand: Hand, answer: str) -> tuple[int, int | None, int]:
    """The defender's deadwood, the winner and the points if ``answer`` were played on a copy."""
    trial = hand.copy()
    play(trial, answer)
    assert trial.defence is not None and trial.result is not None
    return trial.defence.deadwood, trial.result.winner, trial.result.points


# --- LAY-1: only the defender lays off, only onto the knocker's melds -----------------------------------


@pytest.mark.rule("LAY-1", "LAY-7")
def test_after_a_knock_without_gin_the_defender_answers() -> None:
    hand = spread()
    assert hand.phase is Phase.LAYOFF
    assert hand.to_act == 0
    assert hand.legal_actions()
    assert all(isinstance(a, LayOff) and a.seat == 0 for a in hand.legal_actions())
    rejected(hand, "p1 layoff", "TURN-1")
    rejected(hand, "p1 layoff 2d>Jc-Qc-Kc", "TURN-1")


@pytest.mark.rule("LAY-1")
@pytest.mark.parametrize(
    "answer",
    ["p0 layoff 9s>Ts-Js-Qs", "p0 layoff As-2s-3s 4c-4d-4h Tc>Jc-Qc-Kc Kh>Jd-Qd-Kd"],
    ids=["alone", "beside good layoffs"],
)
def test_layoffs_go_only_onto_the_knockers_melds(answer: str) -> None:
    hand = spread()
    rejected(hand, answer, "LAY-1")


@pytest.mark.rule("LAY-1", "LAY-5", "LAY-6", "SCORE-2")
def test_the_defender_lays_off_and_the_hand_is_scored() -> None:
    hand = spread()
    events = hand.play("p0 layoff As-2s-3s 4c-4d-4h Tc>Jc-Qc-Kc")
    laid = events[0]
    assert laid == DefenceLaid(
        0,
        (Meld.parse("As-2s-3s"), Meld.parse("4c-4d-4h")),
        (Layoff(Card.parse("Tc"), Meld.parse("Jc-Qc-Kc")),),
        cards("9s Jd Kh"),
    )
    assert laid.deadwood == 29
    assert hand.is_over
    assert hand.result is not None
    assert hand.result.kind is ResultKind.KNOCK
    assert (hand.result.winner, hand.result.points) == (1, 29 - 7)
    assert hand.result.deadwood_of(0) == 29
    assert hand.result.deadwood_of(1) == 7


# --- LAY-2: nothing is laid off after gin -------------------------------------------------------------


@pytest.mark.rule("LAY-2", "SCORE-1")
def test_after_gin_the_defender_counts_his_minimum_deadwood_without_layoffs() -> None:
    # p0 could lay off Tc onto Jc-Qc-Kc and 4c onto 5c-6c-7c, but not after gin: As-2s-3s 4c-4d-4h, 39 left.
    hand = deal(p0="As 2s 3s 4h 4d 4c 9s Tc Jd Kh", p1="5c 6c 7c 8d 8h 8s Jc Qc Kc 2d", upcard="7d", stock="8c")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock 2d")
    laid = hand.play("p1 spread 5c-6c-7c 8c-8d-8h-8s Jc-Qc-Kc")[0]
    assert isinstance(laid, SpreadLaid)
    assert laid.deadwood_cards == ()
    assert hand.phase is Phase.HAND_OVER
    assert hand.defence is None
    rejected(hand, "p0 layoff As-2s-3s 4c-4d-4h Tc>Jc-Qc-Kc", "TURN-1")
    assert hand.result is not None
    assert hand.result.deadwood_of(0) == 39
    assert hand.result.points == 25 + 39


# --- LAY-5: the whole answer at once, validated as a whole ------------------------------------------------

BAD_ANSWERS = [
    ("p0 layoff As-2s-3s 4c-4d-4h 4c-4d-4h", "LAY-5", "the same meld twice"),
    ("p0 layoff As-2s-3s 4c-4d-4h-4s", "LAY-5", "a meld with a card he does not hold"),
    ("p0 layoff 4c-4d-4h 4c>5c-6c-7c", "LAY-5", "a card melded and laid off"),
    ("p0 layoff Tc>Jc-Qc-Kc Tc>Jc-Qc-Kc", "LAY-5", "a card laid off twice"),
    ("p0 layoff 8c>8d-8h-8s", "LAY-5", "a layoff of a card he does not hold"),
    ("p0 layoff 2d>Jc-Qc-Kc", "LAY-5", "a layoff of the knocker's card"),
    ("p0 layoff 9s>Jc-Qc-Kc", "LAY-4", "another suit onto a run"),
    ("p0 layoff 9s>8d-8h-8s", "LAY-3", "another rank onto a set"),
    ("p0 layoff Jd>Jc-Qc-Kc", "LAY-4", "a card of the run's ranks but not its suit"),
]


@pytest.mark.rule("LAY-5", "LAY-3", "LAY-4", "MELD-3")
@pytest.mark.parametrize(("answer", "rule", "why"), BAD_ANSWERS, ids=[why for _, _, why in BAD_ANSWERS])
def test_an_invalid_answer_is_rejected_as_a_whole(answer: str, rule: str, why: str) -> None:
    hand = spread()
    rejected(hand, answer, rule)
    play(hand, "p0 layoff As-2s-3s 4c-4d-4h Tc>Jc-Qc-Kc")  # nothing was half-applied
    assert hand.result is not None
    assert hand.result.deadwood_of(0) == 29


@pytest.mark.rule("LAY-5", "LAY-6", "SCORE-2")
@pytest.mark.parametrize(
    ("answer", "deadwood"),
    [
        ("p0 layoff As-2s-3s 4c-4d-4h Tc>Jc-Qc-Kc", 29),
        ("p0 layoff As-2s-3s 4c-4d-4h", 39),  # declines the Tc layoff
        ("p0 layoff As-2s-3s 4c>5c-6c-7c Tc>Jc-Qc-Kc", 37),  # breaks his set for the 4c
        ("p0 layoff As-2s-3s", 51),
        ("p0 layoff", 57),  # shows nothing: every card counts
    ],
)
def test_the_defender_may_decline_layoffs_and_melds(answer: str, deadwood: int) -> None:
    hand = spread()
    assert outcome(hand, answer) == (deadwood, 1, deadwood - 7)


@pytest.mark.rule("LAY-5", "LAY-4", "SCORE-3")
def test_breaking_his_own_meld_to_lay_off_can_turn_the_hand() -> None:
    hand = breakable()
    # keep 7h-8h-9h: 9d 9s 2c 3d are 23 against 9, p1 scores 14
    assert outcome(hand, "p0 layoff 7h-8h-9h As-2s-3s") == (23, 1, 14)
    # lay off 7h and 8h onto 4h-5h-6h, meld 9d-9h-9s: 2c 3d are 5 against 9, an undercut worth 10 + 4
    assert outcome(hand, "p0 layoff As-2s-3s 9d-9h-9s 7h>4h-5h-6h 8h>4h-5h-6h") == (5, 0, 14)
    # lay off the whole run: as bad as keeping it
    assert outcome(hand, "p0 layoff As-2s-3s 7h>4h-5h-6h 8h>4h-5h-6h 9h>4h-5h-6h") == (23, 1, 14)
    rejected(hand, "p0 layoff As-2s-3s 9d-9h-9s 8h>4h-5h-6h", "LAY-4")  # 8h alone leaves a gap
    auto = hand.auto_defence()
    assert str(auto) == "layoff As-2s-3s 9d-9h-9s 7h>4h-5h-6h 8h>4h-5h-6h"


@pytest.mark.rule("LAY-5", "LAY-3", "LAY-4")
def test_the_defender_chooses_which_meld_a_card_goes_onto() -> None:
    hand = two_targets()
    onto_set = "p0 layoff Ah-2h-3h 7c>7d-7h-7s"
    onto_run = "p0 layoff Ah-2h-3h 7c>4c-5c-6c 8c>4c-5c-6c"
    assert outcome(hand, onto_set) == (50, 1, 48)
    assert outcome(hand, onto_run) == (42, 1, 40)
    rejected(hand, "p0 layoff Ah-2h-3h 7c>7d-7h-7s 8c>4c-5c-6c", "LAY-4")  # 8c needs the 7c on the run
    assert f"p0 {hand.auto_defence()}" == onto_run


@pytest.mark.rule("LAY-6", "SCORE-3")
def test_reaching_zero_by_layoffs_is_an_undercut_not_gin() -> None:
    hand = breakable(defender="7h 8h 9h 9d 9s As 2s 3s 4s 5s")
    play(hand, "p0 layoff As-2s-3s-4s-5s 9d-9h-9s 7h>4h-5h-6h 8h>4h-5h-6h")
    assert hand.defence is not None
    assert hand.defence.deadwood_cards == ()
    assert hand.result is not None
    assert hand.result.kind is ResultKind.UNDERCUT
    assert (hand.result.winner, hand.result.points) == (0, 10 + 9)


@pytest.mark.rule("LAY-5", "VIS-2")
@pytest.mark.parametrize("position", [spread, breakable, two_targets], ids=["knocked", "breakable", "two targets"])
def test_the_automatic_answer_is_the_best_legal_answer(position: Callable[[], Hand]) -> None:
    hand = position()
    answers = hand.legal_actions()
    best = min(outcome(hand, f"p0 {a}")[0] for a in answers)
    auto = hand.auto_defence()
    assert auto in answers
    assert outcome(hand, f"p0 {auto}")[0] == best


# --- LAY-7: the knocker spreads first; the knock discard stays hidden ----------------------------------


@pytest.mark.rule("LAY-7", "VIS-1")
def test_the_knocker_spreads_first_and_the_defender_sees_the_spread_not_the_knock_discard() -> None:
    hand = knocked()
    assert hand.phase is Phase.KNOCK
    assert hand.to_act == 1
    rejected(hand, "p0 layoff As-2s-3s 4c-4d-4h", "TURN-1")
    before = hand.observation(0)
    assert before.spread is None
    assert before.knocker == 1
    assert before.knock_discard is None
    assert hand.observation(1).knock_discard == Card.parse("2d")
    play(hand, SPREAD)
    seen = hand.observation(0)
    assert seen.spread is not None
    assert [str(m) for m in seen.spread.melds] == ["5c-6c-7c", "8d-8h-8s", "Jc-Qc-Kc"]
    assert seen.spread.deadwood_cards == cards("7d")
    assert seen.knock_discard is None
    assert Card.parse("2d") not in seen.discard_pile
    play(hand, "p0 layoff As-2s-3s 4c-4d-4h Tc>Jc-Qc-Kc")
    assert hand.observation(0).knock_discard is None
    assert hand.observation(1).knock_discard == Card.parse("2d")


@pytest.mark.rule("LAY-7", "KNOCK-4")
def test_the_defender_may_not_answer_before_the_spread_even_with_a_legal_looking_answer() -> None:
    hand = knocked()
    assert "spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc" in legal(hand)
    rejected(hand, "p0 layoff As-2s-3s 4c-4d-4h Tc>Jc-Qc-Kc", "TURN-1")
    auto = hand.auto_spread()
    assert str(auto) == "spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc"
    hand.apply(auto)
    assert hand.phase is Phase.LAYOFF
