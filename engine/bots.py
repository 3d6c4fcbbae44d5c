"""Bots: players that choose from a seat's observation and its legal actions only. Rule: VIS-2.

``RandomBot`` picks uniformly; ``GreedyBot`` is a simple baseline that keeps its deadwood low, knocks as
soon as it may and answers a knock optimally. A stronger heuristic bot comes with the ``knock`` command.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from engine.actions import Action, Discard, DrawDiscard, DrawStock, Knock, LayOff, PassUpcard, Spread, TakeUpcard
from engine.cards import to_mask
from engine.hand import Hand, Observation
from engine.match import Match
from engine.melds import deadwood, knock_deadwood, value
from engine.showdown import best_defence


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


class GreedyBot:
    """Keeps deadwood low: takes a discard only if it lowers its deadwood, discards to the lowest deadwood
    (highest card among equals), knocks whenever it may, spreads and lays off for minimum deadwood.
    """

    name = "greedy"

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        mask = to_mask(obs.hand)
        first = legal[0]
        if isinstance(first, PassUpcard | DrawStock) and len(legal) > 1:
            top = obs.discard_pile[-1]
            gain = knock_deadwood(mask | top.bit) < deadwood(mask) - 1
            take = next(a for a in legal if isinstance(a, TakeUpcard | DrawDiscard))
            return take if gain else first
        if isinstance(first, Spread):
            return min(legal, key=lambda a: _spread_key(a, mask))
        if isinstance(first, LayOff):
            assert obs.spread is not None
            d = best_defence(obs.spread.melds, False, mask)
            return LayOff(obs.seat, d.melds, d.layoffs)
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks:
            return min(knocks, key=lambda a: (deadwood(mask ^ a.card.bit), -a.card.value))
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return min(discards, key=lambda a: (deadwood(mask ^ a.card.bit), -a.card.value, a.card.rank, a.card.suit))
        return first


def _spread_key(action: Action, mask: int) -> tuple[int, int]:
    assert isinstance(action, Spread)
    used = 0
    for m in action.melds:
        used |= m.mask
    left = mask & ~used
    return (value(left), sum(m.open_ends() for m in action.melds))


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name: ``random`` (seeded) or ``greedy``."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}")


BOT_NAMES = ("greedy", "random")


def play_hand(hand: Hand, bots: Sequence[Bot]) -> Hand:
    """Play a hand to its end, each seat's bot seeing only its own observation. Rule: VIS-2."""
    while (seat := hand.to_act) is not None:
        hand.apply(bots[seat].choose(hand.observation(seat), hand.legal_actions()))
    return hand


def play_match(match: Match, bots: Sequence[Bot]) -> Match:
    """Play a game to its end with one bot per seat, each seeing only its own hand observation. Rule: VIS-2."""
    while (seat := match.to_act) is not None:
        assert match.hand is not None
        match.apply(bots[seat].choose(match.hand.observation(seat), match.legal_actions()))
    return match
