"""The draw for the first dealer or the roles: who draws in each round, what a round may hold, and the order found.

Rules: MATCH-2, MATCH-3, MATCH-7, THREE-2.

One decision serves the live game and every reader: ``Match`` draws through ``settle`` with its chance, and a
log's reader asks ``due`` after every ``cut`` record whether the rounds so far are sound and who draws next.

>>> from engine.rules import RuleSet
>>> c = lambda text: tuple(Card.parse(t) for t in text.split())
>>> due(RuleSet(), [((0, 1), c("Ks Kh"))])        # a tie: both draw again (MATCH-3)
(0, 1)
>>> due(RuleSet(), [((0, 1), c("Ks Kh")), ((0, 1), c("2c 9d"))]) is None   # decided
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from engine.cards import Card
from engine.errors import InvalidDeal
from engine.rules import CutTiebreak, RuleSet

#: One round of the draw as a log or a script gives it: the seats drawing and their cards, in the same order.
Round = tuple[Sequence[int], Sequence[Card]]


def check_round(count: int, drawn: Sequence[Card], earlier: Collection[Card]) -> None:
    """A round's cards: one for each of the ``count`` seats drawing, no card twice, none of an earlier round.

    Raises:
        InvalidDeal: MATCH-2 (not one card a seat, or a card twice in the round), MATCH-7 (a card drawn before).
    """
    if len(drawn) != count:
        raise InvalidDeal("MATCH-2", f"a round of the draw takes one card from each of the {count} seats drawing, "
                          f"got {len(drawn)}: {' '.join(map(str, drawn)) or 'none'}")  # fmt: skip
    if len(set(drawn)) != count:
        raise InvalidDeal("MATCH-2", f"the draw is from one deck: a card cannot be drawn twice "
                          f"({' '.join(map(str, drawn))})")  # fmt: skip
    again = sorted(set(drawn) & set(earlier))
    if again:
        raise InvalidDeal("MATCH-7", f"redraws come from the same deck (MATCH-3): {' '.join(map(str, again))} "
                          "drawn before")  # fmt: skip


def settle(rules: RuleSet, seats: list[int], draw: Callable[[list[int]], Sequence[Card]]) -> list[int]:
    """``seats`` ordered from the highest card drawn to the lowest, ties resolved; ``draw(seats)`` gives a round's
    cards, one per seat in that order. Rules: MATCH-2, MATCH-3."""
    drawn = draw(seats)
    by_card = dict(zip(seats, drawn, strict=True))
    if rules.cut_tiebreak is CutTiebreak.SUIT_ORDER:
        return sorted(seats, key=lambda s: (by_card[s].rank, by_card[s].suit), reverse=True)
    order: list[int] = []
    for rank in sorted({c.rank for c in drawn}, reverse=True):
        tied = [s for s in seats if by_card[s].rank == rank]
        order += tied if len(tied) == 1 else settle(rules, tied, draw)  # tied seats draw again
    return order


class _Due(Exception):
    """The rounds given run out while seats are still to draw."""

    def __init__(self, seats: tuple[int, ...]) -> None:
        super().__init__(seats)
        self.seats = seats


def due(rules: RuleSet, rounds: Sequence[Round]) -> tuple[int, ...] | None:
    """After ``rounds`` (each sound but perhaps the last), the seats that draw next, or None when the draw is
    decided. A reader calls it after every round, so what it raises is the last round's fault.
    Rules: MATCH-2, MATCH-3, MATCH-7.

    Raises:
        InvalidDeal: MATCH-2 (the first round not drawn by every seat in seat order, or not one card a seat),
            MATCH-3 (a redraw by seats other than the tied ones, or a round after the draw is decided), MATCH-7
            (a card of an earlier round).
    """
    given = iter(rounds)
    drawn: list[Card] = []

    def draw(seats: list[int]) -> Sequence[Card]:
        r = next(given, None)
        if r is None:
            raise _Due(tuple(seats))
        logged, cards = r
        if list(logged) != seats:
            rule = "MATCH-3" if drawn else "MATCH-2"
            who = "every seat, in seat order" if not drawn else "the tied seats, in seat order"
            raise InvalidDeal(rule, f"this round is drawn by {who}: {', '.join(f'p{s}' for s in seats)}, not "
                              f"{', '.join(f'p{s}' for s in logged) or 'nobody'}")  # fmt: skip
        check_round(len(seats), cards, drawn)
        drawn.extend(cards)
        return cards

    try:
        settle(rules, list(range(rules.players)), draw)
    except _Due as pending:
        return pending.seats
    if next(given, None) is not None:
        raise InvalidDeal("MATCH-3", "the draw is decided: no seat draws again")
    return None
