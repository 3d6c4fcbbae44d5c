"""The chance of winning a two-player game from its scores, for the search bot's score awareness. Rule: MATCH-1.

A game ends when a seat's running score reaches the target (MATCH-1); what a hand's points are worth then
depends on the score: near the end a small knock that wins the game is worth more than a big one that does
not, and when the opponent needs only a few points every hand he wins ends it, whatever its size.
``win_chance(need, other)`` is the chance that the seat needing ``need`` more points wins against one needing
``other``, if each hand is won by either seat alike, its points drawn from ``HAND_POINTS``. The search bot
(``knock.bots.search``) maximises that chance instead of the hand's points (``PointsValue``).

The model is symmetric and memoryless on purpose: it says how points turn into games, not who is the better
player. It has no notion of bonuses beyond the target (boxes, shutouts), which decide only the game's total,
not its winner.
"""

from __future__ import annotations

from functools import cache

#: A hand's points for its winner, in buckets of five (a bucket's mean points, its share of the won hands in
#: thousandths): the heuristic bot against itself, 20,000 hands of the standard rules (seeds 0-19,999, the dealer
#: by the seed's parity; the 13 dead hands left out). Rebuilt by ``tools/research/search_parts.py --hand-points 20000``.
# fmt: off
HAND_POINTS: tuple[tuple[int, int], ...] = (
    (3, 122), (7, 203), (12, 221), (17, 171), (22, 79), (27, 61), (32, 34),
    (37, 35), (42, 26), (47, 20), (52, 13), (57, 8), (62, 3), (73, 4),
)
# fmt: on


@cache
def _table(target: int) -> tuple[tuple[float, ...], ...]:
    """``V[a][b]``: the chance of winning when needing ``a`` points against ``b`` (1 .. target each)."""
    total = sum(share for _, share in HAND_POINTS)
    steps = [(points, share / total / 2) for points, share in HAND_POINTS]
    v = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(1, target + 1):
        row = v[a]
        for b in range(1, target + 1):
            p = 0.0
            for points, half in steps:
                p += half * ((1.0 if points >= a else v[a - points][b]) + (0.0 if points >= b else row[b - points]))
            row[b] = p
    return tuple(tuple(row) for row in v)


def win_chance(need: int, other: int, target: int) -> float:
    """The chance of winning for a seat needing ``need`` more points against one needing ``other`` (each at most
    ``target``): 1 when it needs none, 0 when the other needs none."""
    if need <= 0:
        return 1.0
    if other <= 0:
        return 0.0
    return _table(target)[min(need, target)][min(other, target)]


class PointsValue:
    """A hand's outcome (points from the seat's side, won positive) as the seat's gain in its chance of winning
    the game, in points of the current standing: the chance's change over its change a point at this score
    (``slope``), so that a point is about a point early in the game and margins keep their meaning."""

    __slots__ = ("base", "need", "other", "slope", "target")

    def __init__(self, need: int, other: int, target: int) -> None:
        self.need, self.other, self.target = need, other, target
        self.base = win_chance(need, other, target)
        self.slope = (win_chance(need - 10, other, target) - win_chance(need, other - 10, target)) / 20

    def __call__(self, points: int) -> float:
        if self.slope <= 1e-9:
            return float(points)
        if points >= 0:
            chance = win_chance(self.need - points, self.other, self.target)
        else:
            chance = win_chance(self.need, self.other + points, self.target)
        return (chance - self.base) / self.slope
