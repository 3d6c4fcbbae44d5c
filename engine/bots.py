"""Bots: players that choose from a seat's observation and its legal actions only. Rule: VIS-2.

``RandomBot`` picks uniformly; ``GreedyBot`` is a simple baseline that keeps its deadwood low, knocks as
soon as it may and answers a knock optimally; ``HeuristicBot`` also counts live cards, reads the
opponent's pickups and plays for gin when it is close. ``SimpleBot`` (``engine.simple``) is the EAAI
challenge's public baseline, ported.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from engine.actions import (
    Action,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    PassUpcard,
    Spread,
    TakeUpcard,
    shown_mask,
)
from engine.cards import to_mask
from engine.hand import Hand
from engine.match import Match
from engine.melds import deadwood, knock_deadwood, value
from engine.rollout import holds_for_gin
from engine.search import LEVELS, make_level
from engine.showdown import best_defence
from engine.simple import SimpleBot
from engine.visibility import Observation


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
        if isinstance(first, Spread | LayOff):
            return showdown_choice(obs, legal)
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks:
            return min(knocks, key=lambda a: (deadwood(mask ^ a.card.bit), -a.card.value))
        discards = [a for a in legal if isinstance(a, Discard)]
        if discards:
            return min(discards, key=lambda a: (deadwood(mask ^ a.card.bit), -a.card.value, a.card.rank, a.card.suit))
        return first


class HeuristicBot:
    """Plays sensibly from its observation: keeps and builds melds, counts which cards are still live
    (not in the discard pile, not held by the opponent), avoids discarding cards the opponent is seen to
    collect, takes a discard only when it melds or clearly lowers its deadwood, knocks when it may but
    holds on for gin when it is close early in the hand, and spreads and lays off for minimum deadwood.
    """

    name = "heuristic"

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        mask = to_mask(obs.hand)
        first = legal[0]
        if isinstance(first, Spread | LayOff):
            return showdown_choice(obs, legal)
        if isinstance(first, PassUpcard | DrawStock) and len(legal) > 1:
            top = obs.discard_pile[-1]
            now = deadwood(mask)
            after = knock_deadwood(mask | top.bit)
            melds_it = deadwood(mask | top.bit) <= now - top.value and after < now
            take = next(a for a in legal if isinstance(a, TakeUpcard | DrawDiscard))
            return take if melds_it or after <= now - 4 else first
        dead = to_mask(obs.discard_pile[:-1]) | to_mask(obs.opponent_known)
        wanted = to_mask(obs.opponent_known)
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks:
            best = min(knocks, key=lambda a: (deadwood(mask ^ a.card.bit), -a.card.value))
            chase_gin = holds_for_gin(deadwood(mask ^ best.card.bit), obs.stock_size, obs.knock_limit)
            if not chase_gin or not any(isinstance(a, Discard) for a in legal):
                return best
        discards = [a for a in legal if isinstance(a, Discard)]
        if not discards:
            return first

        def score(a: Discard) -> tuple[float, int, int, int]:
            rest = mask ^ a.card.bit
            danger = 4.0 if _helps(a.card.index, wanted) else 0.0
            return (deadwood(rest) - 1.5 * _potential(rest, dead) + danger, -a.card.value, a.card.rank, a.card.suit)

        return min(discards, key=score)


def _potential(mask: int, dead: int) -> int:
    """Partial melds in a holding that a live card could still complete: pairs and same-suit near-runs."""
    count = 0
    for i in range(52):
        if not mask >> i & 1:
            continue
        rank, suit = i % 13, i // 13
        for s in range(suit + 1, 4):  # a pair, completed by a live card of the rank
            if mask >> (s * 13 + rank) & 1:
                others = [t * 13 + rank for t in range(4) if t not in (suit, s)]
                count += any(not (mask | dead) >> o & 1 for o in others)
        for gap in (1, 2):  # connectors in a suit, completed by a live card next to them
            r2 = rank + gap
            if r2 < 13 and mask >> (suit * 13 + r2) & 1:
                fills = [suit * 13 + r for r in ((rank + 1,) if gap == 2 else (rank - 1, r2 + 1)) if 0 <= r < 13]
                count += any(not (mask | dead) >> f & 1 for f in fills)
    return count


def _helps(index: int, wanted: int) -> bool:
    """Whether a card would fit with the cards the opponent took from the discard pile (same rank, or next
    to one in its suit)."""
    rank, suit = index % 13, index // 13
    near = (j for j in range(52) if wanted >> j & 1)
    return any(j % 13 == rank or (j // 13 == suit and abs(j % 13 - rank) <= 2) for j in near)


def showdown_choice(obs: Observation, legal: Sequence[Action]) -> Action:
    """The knocker's spread (minimum deadwood, then fewest open layoff targets) or the defender's best answer,
    from the seat's own cards and the spread on the table. Rules: KNOCK-4, LAY-5.
    """
    mask = to_mask(obs.hand)
    if isinstance(legal[0], Spread):
        return min(legal, key=lambda a: _spread_key(a, mask))
    assert obs.spread is not None
    d = best_defence(obs.spread.melds, False, mask)
    return LayOff(obs.seat, d.melds, d.layoffs)


def _spread_key(action: Action, mask: int) -> tuple[int, int]:
    assert isinstance(action, Spread)
    return (value(mask & ~shown_mask(action)), sum(m.open_ends() for m in action.melds))


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name: ``heuristic``, ``greedy``, ``random`` (seeded), ``simple`` (seeded: the EAAI baseline) or a
    search level (seeded: ``easy``, ``medium``, ``hard``, ``expert``, ``engine.search.LEVELS``)."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    if name == "heuristic":
        return HeuristicBot()
    if name == "simple":
        return SimpleBot(seed)
    if name in LEVELS:
        return make_level(name, seed)
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}")


BOT_NAMES = ("heuristic", "greedy", "random", "simple", *LEVELS)


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
