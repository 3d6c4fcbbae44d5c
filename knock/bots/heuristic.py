"""Two heuristic bots and the showdown they share: ``GreedyBot``, a simple baseline that keeps its deadwood low,
knocks as soon as it may and answers a knock optimally; ``HeuristicBot``, which also counts live cards, reads the
opponent's pickups and plays for gin when it is close. Both choose from a seat's observation and its legal actions
only (VIS-2); the search bots (``knock.bots.search``) use their showdown and their reading of partial melds.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import kernel
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
)
from engine.cards import to_mask
from engine.melds import deadwood, knock_deadwood
from engine.visibility import Observation
from knock.bots.rollout import holds_for_gin

__all__ = ["GreedyBot", "HeuristicBot", "potential", "showdown_choice"]


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
            return (deadwood(rest) - 1.5 * potential(rest, dead) + danger, -a.card.value, a.card.rank, a.card.suit)

        return min(discards, key=score)


def potential(mask: int, dead: int) -> int:
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
    """The knocker's automatic spread or the defender's best answer, from the seat's own cards and the spread on
    the table: the kernel's (``engine.kernel.auto_spread``, ``auto_answer``). Rules: KNOCK-4, LAY-5, VIS-2.
    """
    mask = to_mask(obs.hand)
    if isinstance(legal[0], Spread):
        return kernel.auto_spread(obs.seat, mask)
    assert obs.spread is not None
    return kernel.auto_answer(obs.seat, obs.spread.melds, mask)
