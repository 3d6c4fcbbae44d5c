"""Game standings from the recorded hand results: running scores, boxes, Hollywood columns, bonuses.

Rules: MATCH-1, MATCH-6, THREE-6, BONUS-1 .. BONUS-6.

``standings`` is a pure function of the rule set, the number of seats and the hand results, so a
finished game can be re-priced under other scoring options from its record alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.rules import RuleSet, Shutout
from engine.scoring import HandResult, ResultKind

#: The boxes a win earns beyond its own under ``kisses`` (BONUS-6): two for gin (or big gin), one for an undercut.
KISSES: dict[ResultKind, int] = {ResultKind.GIN: 2, ResultKind.BIG_GIN: 2, ResultKind.UNDERCUT: 1}


@dataclass(frozen=True, slots=True)
class Column:
    """One scoring column (the whole game, or one of Hollywood's three).

    ``closed_by`` is the seat that reached the target in it (None while open); ``totals`` include the
    box, game and shutout bonuses once it is closed (before that: the running scores).
    """

    points: tuple[int, ...]
    boxes: tuple[int, ...]
    running: tuple[int, ...]
    closed_by: int | None
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Standings:
    columns: tuple[Column, ...]
    winner: int | None  #: None while the game goes on
    totals: tuple[int, ...]  #: the sum over the columns

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def running(self) -> tuple[int, ...]:
        """Every seat's score so far: what counts toward the target, summed over the columns (MATCH-1)."""
        return tuple(sum(col.running[s] for col in self.columns) for s in range(len(self.totals)))


def standings(rules: RuleSet, seats: int, results: Sequence[HandResult]) -> Standings:
    """Score a game from its hand results, in order. Hands after the game's end are ignored."""
    tally = Tally(rules, seats)
    for r in results:
        tally.add(r)
    return tally.standings()


class Tally:
    """The standings as running totals, one hand result at a time (``standings`` folds a game's results into
    one): it keeps no results, so adding one costs the same in the first hand as in the millionth.
    Rules: MATCH-1, BONUS-1 .. BONUS-6.

    >>> from engine.scoring import score_hand
    >>> t = Tally(RuleSet(), 2)
    >>> t.add(score_hand(RuleSet(), knocker=1, knocker_deadwood=3, defender_deadwood=20))
    >>> t.standings().running
    (0, 17)
    """

    __slots__ = ("_cache", "boxes", "closed", "points", "rules", "seats", "wins")

    def __init__(self, rules: RuleSet, seats: int) -> None:
        ncol = 3 if rules.hollywood else 1
        self.rules = rules
        self.seats = seats
        self.points = [[0] * seats for _ in range(ncol)]
        self.boxes = [[0] * seats for _ in range(ncol)]
        self.closed: list[int | None] = [None] * ncol
        self.wins = [0] * seats
        self._cache: Standings | None = None

    def add(self, r: HandResult) -> None:
        """Enter the next hand's result (ignored once the game is over)."""
        closed, rules = self.closed, self.rules
        if r.winner is None or all(c is not None for c in closed):
            return
        self._cache = None
        w = r.winner
        self.wins[w] += 1
        ncol = len(closed)
        # BONUS-4: the k-th win goes into every open column among the first k (3 at most), or, if those
        # are all closed, into the first open column.
        cols = [c for c in range(min(self.wins[w], ncol)) if closed[c] is None]
        if not cols:
            cols = [next(c for c in range(ncol) if closed[c] is None)]
        box = boxes_for(rules, r)
        for c in cols:
            self.points[c][w] += r.points
            self.boxes[c][w] += box
            if _running(rules, self.points[c], self.boxes[c])[w] >= rules.target:
                closed[c] = w

    def standings(self) -> Standings:
        """The standings after the results entered so far."""
        if self._cache is None:
            self._cache = self._standings()
        return self._cache

    def _standings(self) -> Standings:
        rules, seats, closed = self.rules, self.seats, self.closed
        columns = tuple(_column(rules, self.points[c], self.boxes[c], closed[c]) for c in range(len(closed)))
        totals = tuple(sum(col.totals[s] for col in columns) for s in range(seats))
        winner: int | None = None
        if all(c is not None for c in closed):
            if len(closed) == 1:
                winner = closed[0]
            else:  # Hollywood: the highest grand total; then more columns won; then column 1's winner
                won = [sum(1 for c in closed if c == s) for s in range(seats)]
                winner = max(range(seats), key=lambda s: (totals[s], won[s], closed[0] == s))
        return Standings(columns, winner, totals)


def boxes_for(rules: RuleSet, result: HandResult) -> int:
    """The boxes a won hand earns its winner in each column it enters. Rules: BONUS-1, BONUS-6.

    One box, plus its kisses (two for gin or big gin, one for an undercut) under ``kisses``; all of them
    doubled under ``spades_double_boxes`` when a spade upcard doubled the hand.

    >>> from engine.scoring import score_hand
    >>> gin = score_hand(RuleSet(), knocker=0, knocker_deadwood=0, defender_deadwood=9)
    >>> boxes_for(RuleSet(), gin), boxes_for(RuleSet(kisses=True), gin)
    (1, 3)
    """
    boxes = 1 + KISSES.get(result.kind, 0) if rules.kisses else 1
    return 2 * boxes if rules.spades_double_boxes and result.multiplier == 2 else boxes


def _running(rules: RuleSet, points: list[int], boxes: list[int]) -> list[int]:
    """What counts toward the target: hand points, plus boxes when they are credited immediately (BONUS-1)."""
    if rules.immediate_boxes:
        return [p + rules.box_bonus * b for p, b in zip(points, boxes, strict=True)]
    return list(points)


def _column(rules: RuleSet, points: list[int], boxes: list[int], closed_by: int | None) -> Column:
    running = _running(rules, points, boxes)
    if closed_by is None:
        return Column(tuple(points), tuple(boxes), tuple(running), None, tuple(running))
    totals = [p + rules.box_bonus * b for p, b in zip(points, boxes, strict=True)]
    w = closed_by
    game = rules.game_bonus
    shutout = rules.shutout is not Shutout.NONE and all(points[s] == 0 for s in range(len(points)) if s != w)
    if shutout:
        match rules.shutout:
            case Shutout.DOUBLE_TOTAL:
                totals[w] = 2 * (totals[w] + game)
                game = 0
            case Shutout.FLAT_100:
                totals[w] += 100
            case Shutout.DOUBLE_GAME_BONUS:
                game *= 2
            case Shutout.DOUBLE_HAND_POINTS:
                totals[w] += points[w]
    totals[w] += game
    return Column(tuple(points), tuple(boxes), tuple(running), w, tuple(totals))
