"""Seats: a game's players are numbered 0, 1 (and 2 three-handed); a hand is played by two of them.

Rules: DEAL-1, THREE-1.
"""

from __future__ import annotations


def other_seat(seats: tuple[int, int], seat: int) -> int:
    """The other of a hand's two seats: the opponent, the defender of a knocker, a three-handed box's captain.

    >>> other_seat((0, 2), 2)
    0
    """
    return seats[0] + seats[1] - seat
