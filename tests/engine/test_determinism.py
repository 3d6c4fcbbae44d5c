"""Determinism: the same seed gives the same game, in any process, whatever PYTHONHASHSEED is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
from knock.bots import GreedyBot, RandomBot, play_hand
from engine.hand import Hand
from engine.rules import RuleSet
for preset in ("standard", "oklahoma"):
    for seed in range(12):
        hand = play_hand(Hand.deal(RuleSet.preset(preset), seed=seed, dealer=seed % 2), [RandomBot(seed), GreedyBot()])
        for event in hand.events:
            print(repr(event))
        print([str(a) for a in hand.legal_actions()])
"""


def run_with_hashseed(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return done.stdout


@pytest.mark.rule("DEAL-2")
def test_same_games_in_other_processes_and_hash_seeds() -> None:
    outputs = {run_with_hashseed(s) for s in ("0", "1", "12345")}
    assert len(outputs) == 1
    assert outputs.pop().count("Dealt(") == 24
