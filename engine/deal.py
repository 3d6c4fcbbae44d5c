"""Deal validation: a hand's seats and a prearranged deal must be a partition of the rule set's deck.

Rules: DEAL-1, DEAL-4, RULES-3.
"""

from __future__ import annotations

from engine.errors import InvalidDeal
from engine.events import Dealt
from engine.rules import RuleSet


def check_seats(seats: tuple[int, int], dealer: int) -> None:
    """A hand has two seats in ascending order, and the dealer is one of them. Rule: DEAL-1."""
    if len(seats) != 2 or not 0 <= seats[0] < seats[1]:
        raise InvalidDeal("DEAL-1", f"a hand has two seats in ascending order, not {seats!r}")
    if dealer not in seats:
        raise InvalidDeal("DEAL-1", f"the dealer must be one of the seats {seats}, not {dealer!r}")


def check_deal(d: Dealt, rules: RuleSet) -> None:
    """A deal must be a partition of the deck: 10 + 10 cards, the upcard and a 31-card stock (with a reduced deck,
    ``hand_size`` cards each, the upcard and the rest of its cards). Rules: DEAL-4, RULES-3.
    """
    check_seats(d.seats, d.dealer)
    size = rules.hand_size
    for seat in (0, 1):
        if len(d.hands[seat]) != size:
            raise InvalidDeal("DEAL-4", f"p{d.seats[seat]} must be dealt {size} cards, not {len(d.hands[seat])}")
    everything = [*d.hands[0], *d.hands[1], d.upcard, *d.stock]
    if len(set(everything)) != len(everything):
        dup = sorted({c for c in everything if everything.count(c) > 1})
        raise InvalidDeal("DEAL-4", f"cards dealt twice: {' '.join(map(str, dup))}")
    full = rules.deck
    if len(full) != 52:
        foreign = sorted(set(everything) - set(full))
        if foreign:
            raise InvalidDeal("DEAL-4", f"cards not in the rule set's reduced deck: {' '.join(map(str, foreign))}")
    if len(everything) != len(full):
        missing = sorted(set(full) - set(everything))
        raise InvalidDeal("DEAL-4", f"the deal must use all {len(full)} cards; missing: {' '.join(map(str, missing))}")
