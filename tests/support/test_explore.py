"""Exhaustive exploration of reduced-deck hands (RULES-3, tests.support.explore): no violation in every state of small
configurations, and the checker catches a planted fault."""

from __future__ import annotations

from typing import Any

import pytest

import engine.hand
import engine.kernel
from engine.actions import Action
from engine.hand import Hand
from engine.rules import RuleSet
from engine.scoring import HandResult, score_hand
from tests.support.explore import Report, TooManyStates, all_deals, count_deals, explore, sample_deals

CAP = {"max_consecutive_discard_pickups": 2}
TINY = RuleSet().replace(deck_ranks=3, deck_suits=2, hand_size=1, **CAP)  # 6 cards: 720 deals
SETS = RuleSet().replace(deck_ranks=4, deck_suits=3, hand_size=3, max_consecutive_discard_pickups=1)


def assert_clean(report: Report) -> None:
    assert report.ok, "\n".join(map(str, report.violations))
    assert report.cycles == 0
    assert report.states > report.terminal > 0 and report.refused > 0


@pytest.mark.rule("RULES-3", "TURN-1", "TURN-2", "DEAL-4", "DEAD-1", "DEAD-3", "SCORE-2", "SCORE-3", "SCORE-6")
def test_every_state_of_every_deal_of_a_tiny_deck_passes_every_check() -> None:
    deals = list(all_deals(TINY))
    assert len(deals) == count_deals(TINY) == 720 == len(set(deals))
    report = explore(TINY, deals)
    assert_clean(report)
    assert report.deals == 720 and report.states == 36_000 and report.terminal == 12_960
    kinds = dict(report.results)
    assert kinds["knock"] + kinds["undercut"] + kinds["dead (stock)"] + kinds["dead (pickup cap)"] == report.terminal


VARIANTS: dict[str, dict[str, Any]] = {
    "standard limit": {},
    "straight gin": {"knock_limit_value": 0},
    "big gin": {"big_gin_bonus": 31},
    "50th card": {"wall_pickup_to_knock": True},
    "no tie undercut": {"undercut_on_tie": False},
    "discard taken": {"may_discard_taken_card": True},
    "zero bonuses": {"gin_bonus": 0, "undercut_bonus": 0},
}


@pytest.mark.rule(
    "RULES-3", "KNOCK-2", "KNOCK-4", "KNOCK-5", "KNOCK-6", "LAY-5", "MELD-4", "DEAD-2", "TURN-4", "SCORE-1", "SCORE-4"
)
@pytest.mark.parametrize("name", VARIANTS)
def test_every_state_of_sampled_deals_passes_under_each_option(name: str) -> None:
    rules = SETS.replace(**VARIANTS[name])
    report = explore(rules, sample_deals(rules, 3, seed=11))
    assert_clean(report)


@pytest.mark.rule("RULES-3", "OKLA-1", "OKLA-2", "OKLA-4", "SCORE-5", "MELD-1")
def test_oklahoma_limits_and_spades_double_on_four_suits() -> None:
    rules = RuleSet().replace(
        deck_ranks=3, deck_suits=4, hand_size=4, knock_limit="upcard", oklahoma_ace="gin_only", spades_double=True
    )
    rules = rules.replace(**CAP)
    deals = [d for d in sample_deals(rules, 40, seed=5) if d[8].suit == 3][:2]  # the upcard a spade: doubled
    report = explore(rules, deals)
    assert_clean(report)


@pytest.mark.rule("DEAD-3", "RULES-3")
def test_without_a_pickup_cap_a_hand_can_go_on_forever() -> None:
    rules = TINY.replace(max_consecutive_discard_pickups=None)
    deals = sample_deals(rules, 2, seed=1)
    report = explore(rules, deals)
    assert not report.ok
    first = report.violations[0]
    assert first.prop == "termination" and "go on forever" in first.detail
    assert any("pickup" in step for step in first.path)
    allowed = explore(rules, deals, allow_cycles=True)
    assert allowed.ok and allowed.cycles > 0  # cycles, yet an end stays reachable from every state


@pytest.mark.rule("RULES-3")
def test_a_search_too_large_for_memory_stops_with_a_clear_error() -> None:
    with pytest.raises(TooManyStates, match="more than 10 states"):
        explore(TINY, sample_deals(TINY, 1, seed=1), max_states=10)


# --- the checker catches planted faults ------------------------------------------------------------------


def wrong_score(*args: Any, **kwargs: Any) -> HandResult:
    result = score_hand(*args, **kwargs)
    return HandResult(
        result.kind, result.winner, result.points + 1, result.knocker, result.deadwood, seats=result.seats
    )


@pytest.mark.rule("SCORE-2")
def test_a_wrong_score_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.hand, "score_hand", wrong_score)
    report = explore(TINY, sample_deals(TINY, 2, seed=3))
    assert not report.ok
    assert {v.prop for v in report.violations} == {"scoring"}
    assert "expected" in str(report.violations[0]) and "after:" in str(report.violations[0])


@pytest.mark.rule("TURN-1")
def test_a_missing_legal_action_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Hand.legal_actions

    def fewer(self: Hand) -> list[Action]:
        return real(self)[:-1]

    monkeypatch.setattr(Hand, "legal_actions", fewer)
    report = explore(TINY, sample_deals(TINY, 1, seed=3))
    assert "legal actions" in {v.prop for v in report.violations}


@pytest.mark.rule("DEAD-1")
def test_play_past_the_dead_hand_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine.kernel, "STOCK_FLOOR", 1)  # the engine would play on with two cards left
    report = explore(TINY, sample_deals(TINY, 1, seed=3))
    assert "stock" in {v.prop for v in report.violations}
