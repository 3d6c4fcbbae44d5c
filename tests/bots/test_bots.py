"""Bots choose from their seat's observation only (VIS-2), and the heuristic bot plays well."""

from __future__ import annotations

import pytest

from engine.cards import DECK
from engine.hand import Hand
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import BOT_NAMES, make_bot, play_hand, play_match
from tests.helpers import quick_bot


@pytest.mark.rule("VIS-2")
@pytest.mark.parametrize("name", BOT_NAMES)
def test_a_bots_choice_depends_only_on_its_observation(name: str) -> None:
    # Two deals that look the same to seat 1 (its cards, the upcard) but differ in everything it cannot see.
    for seed in range(30):
        base = Hand.deal(seed=seed)
        mine = base.cards_of(1)
        hidden = [c for c in DECK if c not in mine and c != base.upcard]
        twin = Hand.from_deal(hands=(tuple(hidden[:10]), mine), upcard=base.upcard, stock=tuple(hidden[10:]), dealer=0)
        assert twin.cards_of(0) != base.cards_of(0) and base.to_act == twin.to_act == 1
        assert base.observation(1) == twin.observation(1)
        choice = quick_bot(name, seed).choose(base.observation(1), base.legal_actions())
        assert quick_bot(name, seed).choose(twin.observation(1), twin.legal_actions()) == choice


@pytest.mark.rule("VIS-2")
@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_bot_finishes_hands_and_games_in_every_preset(name: str) -> None:
    for preset in ("standard", "oklahoma", "three_handed"):
        rules = RuleSet.preset(preset, wall_pickup_to_knock=True, big_gin_bonus=31)
        hand = play_hand(Hand.deal(rules, seed=3), [quick_bot(name, 1), quick_bot(name, 2)])
        assert hand.is_over
        match = play_match(Match.new(rules, seed=4), [quick_bot(name, i) for i in range(rules.players)])
        assert match.is_over


def test_the_heuristic_bot_beats_random_in_at_least_95_percent_of_200_games() -> None:
    wins = 0
    for seed in range(200):
        me = seed % 2
        bots = [make_bot("random", seed), make_bot("random", seed)]
        bots[me] = make_bot("heuristic", seed)
        wins += play_match(Match.new(RuleSet(), seed=seed), bots).winner == me
    assert wins >= 190, f"{wins} of 200"
