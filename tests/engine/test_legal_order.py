"""``legal_actions()`` is always in its explicit order (``engine.actions.sort_key``), in every phase."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.actions import sort_key
from engine.hand import Hand
from engine.rules import RuleSet


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"knock_limit": "upcard"},
        {"wall_pickup_to_knock": True, "big_gin_bonus": 31, "may_discard_taken_card": True},
    ],
)
def test_legal_actions_are_sorted_in_every_phase_of_random_hands(options: dict[str, Any]) -> None:
    phases = set()
    for seed in range(150):
        hand = Hand.deal(RuleSet().replace(**options), seed=seed, dealer=seed % 2)
        rng = random.Random(seed)
        while hand.to_act is not None:
            legal = hand.legal_actions()
            assert legal == sorted(legal, key=sort_key)
            assert len(set(legal)) == len(legal)
            phases.add(hand.phase)
            hand.apply(legal[int(rng.random() * len(legal))])
    assert len(phases) >= 5
