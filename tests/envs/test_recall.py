"""Perfect recall of the OpenSpiel game (spec/environments.md, ENV-12): on reduced decks, information-state
strings and tensors correspond one to one with the oracle's information sets (``tests.support.recall``; the
full check, 20,000 hands per deck, is ``tools/recall.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.envs.twin_tables import spiel_game
from tests.support.recall import check_recall

DECKS: dict[str, tuple[dict[str, Any], int]] = {
    "5x2-h3-choice": ({"deck_ranks": 5, "deck_suits": 2, "hand_size": 3, "showdown": "choice"}, 1000),
    "6x3-h4": ({"deck_ranks": 6, "deck_suits": 3, "hand_size": 4}, 100),
}


@pytest.mark.rule("ENV-12", "VIS-1")
@pytest.mark.parametrize("name", sorted(DECKS))
def test_information_states_correspond_one_to_one_with_what_the_player_saw_and_did(name: str) -> None:
    params, hands = DECKS[name]
    report = check_recall(spiel_game(params), hands, seed=2)
    strings, tensors, observations = report.checks
    assert strings.one_to_one and tensors.one_to_one, str(report)
    assert len(strings.by_key) > hands  # many information sets
    if name.startswith("5x2"):  # a deck small enough for hands to meet: the observation (no recall) merges sets
        assert observations.merged > 0 and observations.split == 0, str(report)
