"""Every option of the rule set, in every preset, plays complete games to the end through the API."""

from __future__ import annotations

from typing import Any

import pytest

from engine.events import GameOver, HandEnded
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, RandomBot, play_match

OPTIONS: list[dict[str, Any]] = [
    {},
    {"knock_limit_value": 0},
    {"oklahoma_ace": "gin_only", "knock_limit": "upcard"},
    {"gin_bonus": 20, "undercut_bonus": 25},
    {"undercut_on_tie": False},
    {"big_gin_bonus": 31},
    {"spades_double": True, "spades_double_boxes": True, "box_bonus": 25},
    {"may_discard_taken_card": True},
    {"wall_pickup_to_knock": True},
    {"max_consecutive_discard_pickups": 2},
    {"target": 150},
    {"next_dealer": "loser"},
    {"next_dealer": "alternate", "cut_tiebreak": "suit_order"},
    {"three_handed_dead_hand": "box_wins", "sitter_sees_captain_hand": False},
    {"box_bonus": 25, "immediate_boxes": True, "game_bonus": 100},
    {"game_bonus": 100, "shutout": "double_total"},
    {"game_bonus": 100, "shutout": "flat_100"},
    {"game_bonus": 100, "shutout": "double_game_bonus"},
    {"game_bonus": 100, "shutout": "double_hand_points"},
    {"hollywood": True, "box_bonus": 20, "game_bonus": 100},
]


@pytest.mark.rule("RULES-1", "RULES-2", "MATCH-1", "MATCH-6", "BONUS-5")
@pytest.mark.parametrize("preset", ["standard", "oklahoma", "three_handed"])
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_complete_games_under_every_option(preset: str, options: dict[str, Any]) -> None:
    rules = RuleSet.preset(preset, **options)
    for seed in range(2):
        bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
        match = play_match(Match.new(rules, seed=seed), bots[: rules.players])
        assert match.is_over and match.to_act is None
        over = [e for e in match.events if isinstance(e, GameOver)]
        assert len(over) == 1 and over[0].winner == match.winner
        ended = [e for e in match.events if isinstance(e, HandEnded)]
        assert len(ended) == len(match.results) == match.number
        assert over[0].totals == match.standings().totals
