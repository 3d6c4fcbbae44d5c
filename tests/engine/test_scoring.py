"""Section 10 of the spec: scoring a hand (engine.scoring.score_hand)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import DECK, Card, Suit, cards, to_mask
from engine.melds import deadwood
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind, dead_result, score_hand
from tests.support import oracle

DEFAULTS = RuleSet()


def outcome(result: HandResult) -> tuple[ResultKind, int | None, int]:
    return result.kind, result.winner, result.points


# --- SCORE-1: gin -------------------------------------------------------------------------------


@pytest.mark.rule("SCORE-1")
@pytest.mark.parametrize(("knocker", "defender"), [(0, 1), (1, 0)])
def test_gin_scores_the_bonus_plus_the_defenders_deadwood(knocker: int, defender: int) -> None:
    result = score_hand(DEFAULTS, knocker=knocker, knocker_deadwood=0, defender_deadwood=17)
    assert outcome(result) == (ResultKind.GIN, knocker, 25 + 17)
    assert result.knocker == knocker
    assert result.deadwood is not None
    assert result.deadwood[knocker] == 0
    assert result.deadwood[defender] == 17


@pytest.mark.rule("SCORE-1")
def test_gin_against_no_deadwood_scores_the_bonus_only() -> None:
    result = score_hand(DEFAULTS, knocker=1, knocker_deadwood=0, defender_deadwood=0)
    assert outcome(result) == (ResultKind.GIN, 1, 25)


@pytest.mark.rule("SCORE-1")
def test_the_gin_bonus_is_an_option() -> None:
    result = score_hand(RuleSet(gin_bonus=20), knocker=0, knocker_deadwood=0, defender_deadwood=9)
    assert outcome(result) == (ResultKind.GIN, 0, 29)


@pytest.mark.rule("SCORE-1", "MELD-4")
def test_the_largest_gin_award_under_the_defaults_is_123() -> None:
    # Two each of K Q J T 9, with no three of a suit in a row: nothing melds.
    worst = cards("Ks Kh Qd Qc Js Jh Td Tc 9s 9h")
    assert oracle.min_deadwood(frozenset(worst)) == deadwood(to_mask(worst)) == 98
    # No ten cards leave more: 99 would need nine cards worth 10 left unmelded, so three of one rank among
    # T J Q K (a set). Checked here over every ten of the twenty cards from 9 up.
    high = [c for c in DECK if c.rank >= 9]
    assert max(deadwood(to_mask(h)) for h in combinations(high, 10)) == 98
    best_gin = score_hand(DEFAULTS, knocker=0, knocker_deadwood=0, defender_deadwood=98)
    assert outcome(best_gin) == (ResultKind.GIN, 0, 123)


# --- SCORE-2: a knock that wins -----------------------------------------------------------------


@pytest.mark.rule("SCORE-2")
@pytest.mark.parametrize(
    ("knocker_dw", "defender_dw", "points"),
    [(3, 10, 7), (10, 11, 1), (1, 98, 97), (9, 30, 21)],
)
def test_a_lower_knocker_scores_the_difference(knocker_dw: int, defender_dw: int, points: int) -> None:
    for knocker in (0, 1):
        result = score_hand(DEFAULTS, knocker=knocker, knocker_deadwood=knocker_dw, defender_deadwood=defender_dw)
        assert outcome(result) == (ResultKind.KNOCK, knocker, points)


# --- SCORE-3: the undercut ----------------------------------------------------------------------


@pytest.mark.rule("SCORE-3")
@pytest.mark.parametrize(
    ("knocker_dw", "defender_dw", "points"),
    [(8, 6, 12), (10, 0, 20), (1, 0, 11), (5, 5, 10), (10, 10, 10)],
)
def test_the_defender_undercuts_with_the_bonus_plus_the_difference(
    knocker_dw: int, defender_dw: int, points: int
) -> None:
    result = score_hand(DEFAULTS, knocker=0, knocker_deadwood=knocker_dw, defender_deadwood=defender_dw)
    assert outcome(result) == (ResultKind.UNDERCUT, 1, points)


@pytest.mark.rule("SCORE-3")
def test_a_tie_is_an_undercut_by_default() -> None:
    assert DEFAULTS.undercut_on_tie
    result = score_hand(DEFAULTS, knocker=1, knocker_deadwood=7, defender_deadwood=7)
    assert outcome(result) == (ResultKind.UNDERCUT, 0, 10)


@pytest.mark.rule("SCORE-3", "SCORE-6")
def test_without_undercut_on_tie_a_tie_scores_nothing() -> None:
    rules = RuleSet(undercut_on_tie=False)
    result = score_hand(rules, knocker=0, knocker_deadwood=7, defender_deadwood=7)
    assert outcome(result) == (ResultKind.TIE, None, 0)
    assert result.deadwood == (7, 7)
    # Only the tie changes: a higher knocker is still undercut, a lower one still wins.
    assert outcome(score_hand(rules, knocker=0, knocker_deadwood=8, defender_deadwood=7)) == (
        ResultKind.UNDERCUT,
        1,
        11,
    )
    assert outcome(score_hand(rules, knocker=0, knocker_deadwood=6, defender_deadwood=7)) == (ResultKind.KNOCK, 0, 1)


@pytest.mark.rule("SCORE-3")
def test_the_undercut_bonus_is_an_option() -> None:
    result = score_hand(RuleSet(undercut_bonus=25), knocker=0, knocker_deadwood=9, defender_deadwood=4)
    assert outcome(result) == (ResultKind.UNDERCUT, 1, 30)


# --- SCORE-4: big gin ---------------------------------------------------------------------------


@pytest.mark.rule("SCORE-4")
@pytest.mark.parametrize(("bonus", "defender_dw", "points"), [(31, 12, 43), (50, 0, 50), (31, 98, 129)])
def test_big_gin_scores_its_bonus_plus_the_defenders_deadwood(bonus: int, defender_dw: int, points: int) -> None:
    rules = RuleSet(big_gin_bonus=bonus)
    result = score_hand(rules, knocker=1, knocker_deadwood=0, defender_deadwood=defender_dw, big_gin=True)
    assert outcome(result) == (ResultKind.BIG_GIN, 1, points)
    # The same spread without the declaration is ordinary gin.
    assert score_hand(rules, knocker=1, knocker_deadwood=0, defender_deadwood=defender_dw).points == 25 + defender_dw


# --- SCORE-5: the multiplier --------------------------------------------------------------------


@pytest.mark.rule("SCORE-5")
@pytest.mark.parametrize(
    ("knocker_dw", "defender_dw", "kind", "winner", "single"),
    [
        (0, 10, ResultKind.GIN, 0, 35),
        (0, 0, ResultKind.GIN, 0, 25),
        (4, 9, ResultKind.KNOCK, 0, 5),
        (9, 6, ResultKind.UNDERCUT, 1, 13),
        (6, 6, ResultKind.UNDERCUT, 1, 10),
    ],
)
def test_a_multiplier_of_two_doubles_the_difference_and_the_bonus(
    knocker_dw: int, defender_dw: int, kind: ResultKind, winner: int, single: int
) -> None:
    once = score_hand(DEFAULTS, knocker=0, knocker_deadwood=knocker_dw, defender_deadwood=defender_dw)
    twice = score_hand(DEFAULTS, knocker=0, knocker_deadwood=knocker_dw, defender_deadwood=defender_dw, multiplier=2)
    assert outcome(once) == (kind, winner, single)
    assert outcome(twice) == (kind, winner, 2 * single)
    assert (once.multiplier, twice.multiplier) == (1, 2)


@pytest.mark.rule("SCORE-5", "SCORE-4")
def test_a_multiplier_doubles_big_gin() -> None:
    result = score_hand(RuleSet(big_gin_bonus=31), 0, 0, 5, big_gin=True, multiplier=2)
    assert outcome(result) == (ResultKind.BIG_GIN, 0, 72)


@pytest.mark.rule("SCORE-5", "SCORE-6")
def test_a_multiplied_tie_without_undercut_is_still_worth_nothing() -> None:
    result = score_hand(RuleSet(undercut_on_tie=False), 0, 5, 5, multiplier=2)
    assert outcome(result) == (ResultKind.TIE, None, 0)


# --- SCORE-6: the winner ------------------------------------------------------------------------


@pytest.mark.rule("SCORE-6")
def test_a_result_worth_nothing_has_no_winner() -> None:
    tie = score_hand(RuleSet(undercut_bonus=0), knocker=0, knocker_deadwood=7, defender_deadwood=7)
    assert outcome(tie) == (ResultKind.UNDERCUT, None, 0)
    gin = score_hand(RuleSet(gin_bonus=0), knocker=1, knocker_deadwood=0, defender_deadwood=0)
    assert outcome(gin) == (ResultKind.GIN, None, 0)
    # A bonus of 0 still leaves a winner when the difference is worth something.
    assert outcome(score_hand(RuleSet(undercut_bonus=0), 0, 7, 5)) == (ResultKind.UNDERCUT, 1, 2)


@pytest.mark.rule("SCORE-6")
@pytest.mark.parametrize(
    ("seats", "knocker", "defender"), [((0, 1), 1, 0), ((1, 2), 2, 1), ((1, 2), 1, 2), ((0, 2), 0, 2)]
)
def test_the_winner_is_the_seat_awarded_the_points(seats: tuple[int, int], knocker: int, defender: int) -> None:
    knock = score_hand(DEFAULTS, knocker, knocker_deadwood=4, defender_deadwood=9, seats=seats)
    assert outcome(knock) == (ResultKind.KNOCK, knocker, 5)
    undercut = score_hand(DEFAULTS, knocker, knocker_deadwood=9, defender_deadwood=4, seats=seats)
    assert outcome(undercut) == (ResultKind.UNDERCUT, defender, 15)
    assert undercut.defender == defender
    assert (undercut.deadwood_of(knocker), undercut.deadwood_of(defender)) == (9, 4)
    assert undercut.deadwood == ((9, 4) if knocker == seats[0] else (4, 9))


@pytest.mark.rule("SCORE-1", "SCORE-2", "SCORE-3", "SCORE-4", "SCORE-5", "SCORE-6", "OKLA-4")
@given(
    rules=st.builds(
        RuleSet,
        gin_bonus=st.sampled_from([0, 20, 25]),
        undercut_bonus=st.sampled_from([0, 10, 25]),
        undercut_on_tie=st.booleans(),
        big_gin_bonus=st.sampled_from([None, 0, 31, 50]),
        spades_double=st.booleans(),
    ),
    upcard=st.sampled_from(DECK),
    seats=st.sampled_from([(0, 1), (0, 2), (1, 2)]),
    first_knocks=st.booleans(),
    knocker_dw=st.integers(0, 10),
    defender_dw=st.integers(0, 98),
    big_gin=st.booleans(),
)
def test_every_score_agrees_with_the_oracle(
    rules: RuleSet,
    upcard: Card,
    seats: tuple[int, int],
    first_knocks: bool,
    knocker_dw: int,
    defender_dw: int,
    big_gin: bool,
) -> None:
    """``score_hand`` against ``tests.support.oracle.hand_score``, written again from the spec."""
    knocker, defender = seats if first_knocks else seats[::-1]
    big_gin = big_gin and rules.big_gin_bonus is not None
    if big_gin:
        knocker_dw = 0
    multiplier = 2 if rules.spades_double and upcard.suit is Suit.SPADES else 1
    result = score_hand(rules, knocker, knocker_dw, defender_dw, big_gin=big_gin, multiplier=multiplier, seats=seats)
    want = oracle.hand_score(rules, upcard, knocker, defender, knocker_dw, defender_dw, big_gin=big_gin)
    assert (result.kind.value, result.winner, result.points, result.multiplier) == (
        want.kind, want.winner, want.points, want.multiplier,
    )  # fmt: skip
    assert (result.knocker, result.deadwood_of(knocker), result.deadwood_of(defender)) == (
        knocker, knocker_dw, defender_dw,
    )  # fmt: skip


@pytest.mark.rule("SCORE-6")
def test_a_dead_hand_has_no_winner() -> None:
    result = dead_result("stock")
    assert outcome(result) == (ResultKind.DEAD, None, 0)
    assert str(result) == "dead hand (stock): no score"


def expected_award(rules: RuleSet, knocker_dw: int, defender_dw: int, multiplier: int) -> tuple[str, int]:
    """Who scores ("knocker", "defender" or "nobody") and how much, written from SCORE-1 .. SCORE-6."""
    if knocker_dw == 0:
        who, base = "knocker", rules.gin_bonus + defender_dw
    elif knocker_dw < defender_dw:
        who, base = "knocker", defender_dw - knocker_dw
    elif knocker_dw == defender_dw and not rules.undercut_on_tie:
        who, base = "nobody", 0
    else:
        who, base = "defender", rules.undercut_bonus + knocker_dw - defender_dw
    points = multiplier * base
    return (who if points else "nobody"), points


@pytest.mark.rule("SCORE-1", "SCORE-2", "SCORE-3", "SCORE-5", "SCORE-6")
@given(
    knocker=st.integers(0, 1),
    knocker_dw=st.integers(0, 10),
    defender_dw=st.integers(0, 98),
    gin_bonus=st.integers(0, 30),
    undercut_bonus=st.integers(0, 30),
    undercut_on_tie=st.booleans(),
    multiplier=st.integers(1, 2),
)
def test_every_result_pays_at_most_one_seat_as_the_spec_says(
    knocker: int,
    knocker_dw: int,
    defender_dw: int,
    gin_bonus: int,
    undercut_bonus: int,
    undercut_on_tie: bool,
    multiplier: int,
) -> None:
    rules = RuleSet(gin_bonus=gin_bonus, undercut_bonus=undercut_bonus, undercut_on_tie=undercut_on_tie)
    result = score_hand(rules, knocker, knocker_dw, defender_dw, multiplier=multiplier)
    who, points = expected_award(rules, knocker_dw, defender_dw, multiplier)
    assert result.points == points
    assert result.winner == {"knocker": knocker, "defender": 1 - knocker, "nobody": None}[who]
    assert (result.winner is None) == (result.points == 0)
    assert result.deadwood == ((knocker_dw, defender_dw) if knocker == 0 else (defender_dw, knocker_dw))


@pytest.mark.rule("SCORE-6")
@given(knocker=st.integers(0, 1), knocker_dw=st.integers(0, 10), defender_dw=st.integers(0, 98))
def test_under_the_defaults_every_scored_hand_has_a_winner(knocker: int, knocker_dw: int, defender_dw: int) -> None:
    result = score_hand(DEFAULTS, knocker, knocker_dw, defender_dw)
    assert result.winner in (0, 1)
    assert result.points >= 1
    knocker_won = result.kind in (ResultKind.GIN, ResultKind.KNOCK)
    assert result.winner == (knocker if knocker_won else 1 - knocker)
