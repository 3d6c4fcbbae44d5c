"""Hand scoring. Rules: SCORE-1 .. SCORE-6, OKLA-4."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine.rules import RuleSet
from engine.seats import other_seat


class ResultKind(enum.Enum):
    GIN = "gin"
    BIG_GIN = "big_gin"
    KNOCK = "knock"
    UNDERCUT = "undercut"
    TIE = "tie"  #: equal deadwood with ``undercut_on_tie`` off: nobody scores
    DEAD = "dead"


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of one hand: who won it and how many points. Rule: SCORE-6.

    ``deadwood`` is by seat after layoffs, in the order of ``seats`` (ascending, as in ``Dealt``);
    ``reason`` says why a dead hand died.
    """

    kind: ResultKind
    winner: int | None
    points: int
    knocker: int | None = None
    deadwood: tuple[int, int] | None = None
    multiplier: int = 1
    reason: str = ""
    seats: tuple[int, int] = (0, 1)

    @property
    def defender(self) -> int | None:
        return None if self.knocker is None else other_seat(self.seats, self.knocker)

    def deadwood_of(self, seat: int) -> int:
        """A seat's deadwood after layoffs (scored hands only)."""
        assert self.deadwood is not None
        return self.deadwood[self.seats.index(seat)]

    def __str__(self) -> str:
        if self.kind is ResultKind.DEAD:
            return f"dead hand ({self.reason}): no score"
        assert self.deadwood is not None and self.knocker is not None
        dw = f"deadwood p{self.seats[0]} {self.deadwood[0]}, p{self.seats[1]} {self.deadwood[1]}"
        times = f" x{self.multiplier}" if self.multiplier != 1 else ""
        if self.winner is None:
            return f"{self.kind.value} by p{self.knocker} ({dw}): no score"
        return (
            f"{self.kind.value.replace('_', ' ')} by p{self.knocker} ({dw}): p{self.winner} scores {self.points}{times}"
        )


def dead_result(reason: str, seats: tuple[int, int] = (0, 1)) -> HandResult:
    """A dead hand: no winner, no points. Rules: DEAD-1, SCORE-6."""
    return HandResult(ResultKind.DEAD, None, 0, reason=reason, seats=seats)


def score_hand(
    rules: RuleSet,
    knocker: int,
    knocker_deadwood: int,
    defender_deadwood: int,
    *,
    big_gin: bool = False,
    multiplier: int = 1,
    seats: tuple[int, int] = (0, 1),
) -> HandResult:
    """Score a shown-down hand. Rules: SCORE-1 .. SCORE-5.

    >>> r = score_hand(RuleSet(), knocker=0, knocker_deadwood=7, defender_deadwood=7)
    >>> r.kind, r.winner, r.points
    (<ResultKind.UNDERCUT: 'undercut'>, 1, 10)
    """
    defender = other_seat(seats, knocker)
    dw = (knocker_deadwood, defender_deadwood) if knocker == seats[0] else (defender_deadwood, knocker_deadwood)
    if big_gin:
        assert rules.big_gin_bonus is not None and knocker_deadwood == 0
        kind, winner, base = ResultKind.BIG_GIN, knocker, rules.big_gin_bonus + defender_deadwood
    elif knocker_deadwood == 0:
        kind, winner, base = ResultKind.GIN, knocker, rules.gin_bonus + defender_deadwood
    elif knocker_deadwood < defender_deadwood:
        kind, winner, base = ResultKind.KNOCK, knocker, defender_deadwood - knocker_deadwood
    elif knocker_deadwood == defender_deadwood and not rules.undercut_on_tie:
        return HandResult(ResultKind.TIE, None, 0, knocker, dw, multiplier, seats=seats)
    else:
        kind, winner, base = ResultKind.UNDERCUT, defender, rules.undercut_bonus + knocker_deadwood - defender_deadwood
    points = multiplier * base
    # SCORE-6: the winner is the player awarded points; a zero-point result (possible only with zero bonuses)
    # has none.
    return HandResult(kind, winner if points > 0 else None, points, knocker, dw, multiplier, seats=seats)
