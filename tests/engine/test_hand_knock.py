"""Knocking (spec section 6): when a knock is legal, the knock limit, the spread, gin and big gin."""

from __future__ import annotations

import pytest

from engine.actions import Knock, Spread
from engine.cards import Card, cards
from engine.events import BigGinDeclared, Knocked, SpreadLaid
from engine.fsm import Phase
from engine.melds import Meld
from engine.rules import RuleSet
from engine.scoring import ResultKind
from tests.engine.support import legal, rejected
from tests.helpers import deal, play
from tests.support import oracle

DEFENDER = "As 2s 3s 4h 4d 4s 9s Tc Jd Kh"  # As-2s-3s 4d-4h-4s, 39 deadwood; Tc fits Jc-Qc-Kc
KNOCKER = "5c 6c 7c 8d 8h 8s Jc Qc Kc 2d"  # three melds and 2d
GIN_HAND = "3c 4c 5c 6c 8d 8h 8s Jc Qc Kc"  # ten melded cards


# --- KNOCK-1: after drawing, instead of a discard ------------------------------------------------------


@pytest.mark.rule("KNOCK-1", "TURN-4")
def test_a_knock_after_a_stock_draw_puts_the_card_out_of_play() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER, upcard="7d", stock="Ks")
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    assert hand.play("p1 knock Ks") == [Knocked(1, Card.parse("Ks"))]
    assert hand.phase is Phase.KNOCK
    assert hand.to_act == 1
    assert hand.knocker == 1
    assert hand.cards_of(1) == tuple(sorted(cards(KNOCKER)))
    assert hand.observation(1).knock_discard == Card.parse("Ks")
    assert hand.observation(0).discard_pile == cards("7d")  # face down: not on the pile
    assert Card.parse("Ks") not in hand.cards_of(0)


@pytest.mark.rule("KNOCK-1", "OFFER-2", "OFFER-3")
def test_the_dealer_may_knock_on_the_upcard_turn() -> None:
    hand = deal(p0=KNOCKER, p1=DEFENDER, upcard="7d")
    play(hand, "p1 pass", "p0 take", "p0 knock 2d")
    assert hand.phase is Phase.KNOCK
    assert hand.knocker == 0
    assert hand.to_act == 0


@pytest.mark.rule("KNOCK-2", "KNOCK-5", "MELD-5")
def test_the_knock_and_gin_discards_of_the_seat_to_act() -> None:
    hand = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7d", stock="Ks")
    assert hand.knock_discards() == () == hand.gin_discards(), "none before the draw"
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    knocks = tuple(sorted(a.card for a in hand.legal_actions() if isinstance(a, Knock)))
    held = frozenset(hand.cards_of(1))
    assert hand.knock_discards() == knocks
    assert set(knocks) == {c for c in held if oracle.min_deadwood(held - {c}) <= 10}
    assert hand.gin_discards() == tuple(c for c in knocks if oracle.min_deadwood(held - {c}) == 0) == cards("Ks")
    play(hand, "p1 knock Ks")
    assert hand.knock_discards() == () == hand.gin_discards(), "none once the knock is made"


@pytest.mark.rule("KNOCK-2", "TURN-4")
@pytest.mark.parametrize(("may_discard_taken", "expected"), [(False, "2d"), (True, "2d 7d")])
def test_the_knock_discards_leave_out_the_card_just_taken(may_discard_taken: bool, expected: str) -> None:
    rules = RuleSet(may_discard_taken_card=may_discard_taken)
    hand = deal(p0=DEFENDER, p1=KNOCKER, upcard="7d", rules=rules)
    play(hand, "p1 take")
    assert hand.knock_discards() == cards(expected)
    assert hand.knock_discards() == tuple(sorted(a.card for a in hand.legal_actions() if isinstance(a, Knock)))
    assert hand.gin_discards() == ()


@pytest.mark.rule("KNOCK-1")
def test_knocking_is_never_obligatory() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER, upcard="7d")
    play(hand, "p1 take")
    assert {"knock 2d", "discard 2d"} <= set(legal(hand))
    play(hand, "p1 discard 2d")
    assert hand.phase is Phase.DRAW
    assert hand.to_act == 0
    gin = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7d", stock="Ks")
    play(gin, "p1 pass", "p0 pass", "p1 draw")
    assert "knock Ks" in legal(gin)  # gin by knocking Ks
    play(gin, "p1 discard Ks")
    assert gin.phase is Phase.DRAW


# --- KNOCK-2: the ten cards left must be within the limit ----------------------------------------------


@pytest.mark.rule("KNOCK-2", "MELD-5")
def test_a_knock_above_the_limit_is_rejected_and_changes_nothing() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER, upcard="7d")
    play(hand, "p1 take")
    # knocking Kc breaks Jc-Qc-Kc: Jc Qc 2d 7d are 29 points
    error = rejected(hand, "p1 knock Kc", "KNOCK-2")
    assert "29 deadwood (limit 10)" in str(error)
    for card in ["5c", "6c", "7c", "8d", "8h", "8s", "Jc", "Qc"]:
        rejected(hand, f"p1 knock {card}", "KNOCK-2")
    play(hand, "p1 knock 2d")  # no penalty: the legal knock is still there
    assert hand.phase is Phase.KNOCK


@pytest.mark.rule("KNOCK-2", "KNOCK-3")
def test_deadwood_equal_to_the_limit_may_knock() -> None:
    hand = deal(p0=DEFENDER, p1="5c 6c 7c 8d 8h 8s Jc Qc Kc Td", upcard="7d", stock="2h")
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    assert [a for a in legal(hand) if a.startswith("knock")] == ["knock 2h", "knock Td"]
    play(hand, "p1 knock 2h")  # leaves Td: 10 points
    assert hand.phase is Phase.KNOCK


@pytest.mark.rule("KNOCK-2", "KNOCK-3")
def test_deadwood_one_above_the_limit_may_not_knock() -> None:
    hand = deal(
        p0=DEFENDER, p1="5c 6c 7c 8d 8h 8s Jc Qc Kc Td", upcard="7d", stock="2h", rules=RuleSet(knock_limit_value=9)
    )
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    error = rejected(hand, "p1 knock 2h", "KNOCK-2")
    assert "10 deadwood (limit 9)" in str(error)
    play(hand, "p1 knock Td")  # leaves 2h
    assert hand.phase is Phase.KNOCK


# --- KNOCK-3: the knock limit is fixed at the deal ---------------------------------------------------------


@pytest.mark.rule("KNOCK-3")
@pytest.mark.parametrize("upcard", ["Ad", "6d", "Kd"])
def test_a_fixed_limit_ignores_the_upcard(upcard: str) -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER, upcard=upcard)
    assert hand.knock_limit == 10
    assert hand.observation(0).knock_limit == hand.observation(1).knock_limit == 10


@pytest.mark.rule("KNOCK-3")
def test_a_lower_fixed_limit() -> None:
    rules = RuleSet(knock_limit_value=5)
    hand = deal(p0=DEFENDER, p1="5c 6c 7c 8d 8h 8s Jc Qc Kc 6d", upcard="7d", stock="2h", rules=rules)
    assert hand.knock_limit == 5
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    assert "6 deadwood (limit 5)" in str(rejected(hand, "p1 knock 2h", "KNOCK-2"))
    assert [a for a in legal(hand) if a.startswith("knock")] == ["knock 6d"]


@pytest.mark.rule("KNOCK-3", "KNOCK-2", "KNOCK-5")
def test_straight_gin_allows_only_gin() -> None:
    rules = RuleSet(knock_limit_value=0)
    hand = deal(p0="As 2s 3s 4h 4d 4c 9s Tc Jd Kh", p1=KNOCKER, upcard="7d", stock="Ah 9d 8c", rules=rules)
    assert hand.knock_limit == 0
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    # with Ah: knocking 2d leaves 1 point, knocking Ah leaves 2
    assert "1 deadwood (limit 0)" in str(rejected(hand, "p1 knock 2d", "KNOCK-2"))
    rejected(hand, "p1 knock Ah", "KNOCK-2")
    assert not [a for a in legal(hand) if a.startswith("knock")]
    play(hand, "p1 discard Ah", "p0 draw", "p0 discard 9d", "p1 draw")
    # with 8c: 8c-8d-8h-8s, and knocking 2d is gin
    assert [a for a in legal(hand) if a.startswith("knock")] == ["knock 2d"]
    play(hand, "p1 knock 2d", "p1 spread 5c-6c-7c 8c-8d-8h-8s Jc-Qc-Kc")
    assert hand.result is not None
    assert hand.result.kind is ResultKind.GIN


# --- KNOCK-4: the spread is the knocker's choice within the limit -------------------------------------


@pytest.mark.rule("KNOCK-4", "KNOCK-5")
def test_a_spread_worse_than_the_minimum_is_accepted_within_the_limit() -> None:
    hand = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7d", stock="Ks")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks")
    spreads = legal(hand)
    assert "spread 3c-4c-5c-6c 8d-8h-8s Jc-Qc-Kc" in spreads  # gin
    assert "spread 4c-5c-6c 8d-8h-8s Jc-Qc-Kc" in spreads  # leaves 3c
    events = hand.play("p1 spread 4c-5c-6c 8d-8h-8s Jc-Qc-Kc")
    laid = events[0]
    assert isinstance(laid, SpreadLaid)
    assert laid.deadwood_cards == cards("3c")
    assert laid.deadwood == 3
    # not gin (KNOCK-5): the defender answers, laying off Tc onto Jc-Qc-Kc
    assert hand.phase is Phase.LAYOFF
    assert hand.to_act == 0
    play(hand, "p0 layoff As-2s-3s 4d-4h-4s Tc>Jc-Qc-Kc")
    assert hand.result is not None
    assert hand.result.kind is ResultKind.KNOCK
    assert (hand.result.winner, hand.result.points) == (1, 29 - 3)


SPREAD_ERRORS = [
    ("p1 spread 8d-8h-8s Jc-Qc-Kc", "KNOCK-4"),  # leaves 3c 4c 5c 6c: 18 points
    ("p1 spread 3c-4c-5c-6c", "KNOCK-4"),  # leaves 8d 8h 8s Jc Qc Kc: 54 points
    ("p1 spread", "KNOCK-4"),  # no melds at all
    ("p1 spread 3c-4c-5c-6c 8c-8d-8h-8s Jc-Qc-Kc", "MELD-3"),  # 8c is not his
    ("p1 spread 3c-4c-5c-6c 4c-5c-6c 8d-8h-8s Jc-Qc-Kc", "MELD-3"),  # two melds share cards
]


@pytest.mark.rule("KNOCK-4", "MELD-3")
@pytest.mark.parametrize(("action", "rule"), SPREAD_ERRORS, ids=[a for a, _ in SPREAD_ERRORS])
def test_an_invalid_spread_is_rejected(action: str, rule: str) -> None:
    hand = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7d", stock="Ks")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks")
    rejected(hand, action, rule)


@pytest.mark.rule("KNOCK-4", "KNOCK-3")
@pytest.mark.parametrize(("limit", "legal"), [(2, False), (3, True)])
def test_a_spread_is_checked_against_the_limit_to_the_point(limit: int, legal: bool) -> None:
    hand = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7d", stock="Ks", rules=RuleSet(knock_limit_value=limit))
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks")
    leaves_3c = "p1 spread 4c-5c-6c 8d-8h-8s Jc-Qc-Kc"
    if legal:
        play(hand, leaves_3c)
        assert hand.phase is Phase.LAYOFF
    else:
        assert "3 deadwood, over the knock limit 2" in str(rejected(hand, leaves_3c, "KNOCK-4"))


@pytest.mark.rule("KNOCK-4")
def test_the_automatic_spread_prefers_fewer_layoff_targets() -> None:
    # Three runs T-J-Q or three sets of T, J and Q both leave only 2s; the sets offer 3 open ends, the runs 6.
    hand = deal(p0="Ac 2c 3c 4d 5d 6d 7h 8h 9s Ks", p1="Tc Jc Qc Td Jd Qd Th Jh Qh 2s", upcard="2h", stock="5h")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock 5h")
    assert set(legal(hand)) >= {"spread Tc-Jc-Qc Td-Jd-Qd Th-Jh-Qh", "spread Tc-Td-Th Jc-Jd-Jh Qc-Qd-Qh"}
    auto = hand.auto_spread()
    assert auto == Spread(1, (Meld.parse("Tc-Td-Th"), Meld.parse("Jc-Jd-Jh"), Meld.parse("Qc-Qd-Qh")))
    assert hand.is_legal(auto)
    hand.apply(auto)
    assert hand.spread is not None
    assert hand.spread.deadwood_cards == cards("2s")


# --- KNOCK-5: gin iff the spread leaves no card ------------------------------------------------------------


@pytest.mark.rule("KNOCK-5", "LAY-2", "SCORE-1")
def test_a_gin_spread_goes_straight_to_the_score() -> None:
    hand = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7d", stock="Ks")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks", "p1 spread 3c-4c-5c-6c 8d-8h-8s Jc-Qc-Kc")
    assert hand.is_over
    assert hand.defence is None
    assert hand.result is not None
    assert hand.result.kind is ResultKind.GIN
    # no layoff of Tc after gin: the defender keeps his 39 points
    assert (hand.result.winner, hand.result.points) == (1, 25 + 39)


# --- KNOCK-6: big gin ---------------------------------------------------------------------------------------


@pytest.mark.rule("KNOCK-6")
def test_big_gin_is_not_played_by_default() -> None:
    hand = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7c")
    play(hand, "p1 take")
    assert "big-gin" not in legal(hand)
    rejected(hand, "p1 big-gin", "KNOCK-6")


@pytest.mark.rule("KNOCK-6", "SCORE-4", "LAY-2")
@pytest.mark.parametrize("bonus", [31, 50])
def test_big_gin_spreads_all_eleven_cards_and_scores_its_bonus(bonus: int) -> None:
    hand = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7c", rules=RuleSet(big_gin_bonus=bonus))
    play(hand, "p1 take")
    assert hand.play("p1 big-gin") == [BigGinDeclared(1)]
    assert hand.phase is Phase.KNOCK
    assert len(hand.cards_of(1)) == 11
    assert hand.observation(1).knock_discard is None
    assert hand.observation(0).discard_pile == ()
    rejected(hand, "p1 spread 4c-5c-6c-7c 8d-8h-8s Jc-Qc-Kc", "KNOCK-6")  # leaves 3c
    rejected(hand, "p1 spread 8d-8h-8s Jc-Qc-Kc", "KNOCK-6")  # leaves 25 points
    play(hand, "p1 spread 3c-4c-5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    assert hand.is_over
    assert hand.defence is None  # no layoffs: Tc would fit Jc-Qc-Kc
    assert hand.result is not None
    assert hand.result.kind is ResultKind.BIG_GIN
    assert (hand.result.winner, hand.result.points) == (1, bonus + 39)


@pytest.mark.rule("KNOCK-6")
def test_after_big_gin_no_spread_leaves_even_an_ace_over() -> None:
    """The spread's limit after big gin is none at all: leaving out the ace of Ac-2c-3c-4c-5c (one point, within
    any knock limit) is neither offered nor accepted."""
    hand = deal(p0=DEFENDER, p1="Ac 2c 3c 4c 8d 8h 8s Jc Qc Kc", upcard="5c", rules=RuleSet(big_gin_bonus=31))
    play(hand, "p1 take")
    play(hand, "p1 big-gin")
    spreads = [a for a in legal(hand) if a.startswith("spread")]
    assert spreads and all("Ac" in a for a in spreads), spreads
    rejected(hand, "p1 spread 2c-3c-4c-5c 8d-8h-8s Jc-Qc-Kc", "KNOCK-6")  # leaves Ac
    play(hand, "p1 spread Ac-2c-3c-4c-5c 8d-8h-8s Jc-Qc-Kc")
    assert hand.result is not None and hand.result.kind is ResultKind.BIG_GIN


@pytest.mark.rule("KNOCK-6")
def test_big_gin_needs_all_eleven_cards_melded() -> None:
    hand = deal(p0=DEFENDER, p1=KNOCKER, upcard="7d", rules=RuleSet(big_gin_bonus=31))
    play(hand, "p1 take")
    assert "big-gin" not in legal(hand)
    rejected(hand, "p1 big-gin", "KNOCK-6")


@pytest.mark.rule("KNOCK-6", "KNOCK-5")
def test_with_big_gin_on_a_player_may_still_knock_for_ordinary_gin() -> None:
    hand = deal(p0=DEFENDER, p1=GIN_HAND, upcard="7c", rules=RuleSet(big_gin_bonus=31))
    play(hand, "p1 take")
    hand.apply(Knock(1, Card.parse("3c")))
    play(hand, "p1 spread 4c-5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    assert hand.result is not None
    assert hand.result.kind is ResultKind.GIN
    assert hand.result.points == 25 + 39
