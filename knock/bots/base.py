"""The bots' common ground: what a bot is (``Bot``), the uniform random bot, and playing a hand or a game with one bot
a seat, each seeing only its own observation. Rule: VIS-2.

>>> from engine import Match
>>> game = play_match(Match.new(seed=4), [RandomBot(1), RandomBot(2)])
>>> game.is_over, game.standings().winner in (0, 1)
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from engine.actions import Action
from engine.hand import Hand
from engine.match import Match
from engine.visibility import Observation

__all__ = ["Bot", "RandomBot", "play_hand", "play_match"]


class Bot(Protocol):
    name: str

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """One of ``legal``, chosen from ``obs`` alone."""
        ...


class RandomBot:
    """Uniform over the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return legal[int(self._rng.random() * len(legal))]


def play_hand(hand: Hand, bots: Sequence[Bot]) -> Hand:
    """Play a hand to its end, each seat's bot seeing only its own observation. Rule: VIS-2."""
    while (seat := hand.to_act) is not None:
        hand.apply(bots[seat].choose(hand.observation(seat), hand.legal_actions()))
    return hand


def play_match(match: Match, bots: Sequence[Bot]) -> Match:
    """Play a game to its end with one bot per seat, each seeing only its own view of the hand, with the game's
    scores (``Match.seat_observation``). Rule: VIS-2."""
    while (seat := match.to_act) is not None:
        match.apply(bots[seat].choose(match.seat_observation(seat), match.legal_actions()))
    return match
