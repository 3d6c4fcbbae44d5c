"""Where a game's randomness comes from: the cards of the draw for the first deal and each deal's deck order,
seeded (one ``random.Random``, MATCH-7) or prearranged (conformance cases, replays). Rules: MATCH-2, MATCH-3,
MATCH-7."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Protocol

from engine import draw
from engine.cards import Card, shuffle
from engine.errors import InvalidDeal


class Chance(Protocol):
    """Where a match's randomness comes from: cards for the draw, and a deck order for each deal."""

    def cut(self, count: int) -> tuple[Card, ...]:
        """``count`` distinct cards for one round of the dealer or role draw."""
        ...

    def deck(self) -> tuple[Card, ...] | None:
        """The next deal's deck order, or None when there is none (a script that has run out)."""
        ...


class SeededChance:
    """All of a game's randomness from one ``random.Random(seed)``: a shuffled deck for the draw first
    (rounds take its cards in order), then one shuffle per deal. Rule: MATCH-7.
    """

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._cut_deck = list(shuffle(self._rng))

    def cut(self, count: int) -> tuple[Card, ...]:
        if len(self._cut_deck) < count:
            self._cut_deck = list(shuffle(self._rng))
        drawn, self._cut_deck = self._cut_deck[:count], self._cut_deck[count:]
        return tuple(drawn)

    def deck(self) -> tuple[Card, ...]:
        return shuffle(self._rng)


class ScriptedChance:
    """Prearranged draws and deals: each draw round's cards and each deal's deck order, in order."""

    def __init__(self, cuts: Sequence[Sequence[Card]], decks: Sequence[Sequence[Card]]) -> None:
        self._cuts: Iterator[Sequence[Card]] = iter(list(cuts))
        self._decks: Iterator[Sequence[Card]] = iter(list(decks))
        self._drawn: set[Card] = set()

    def cut(self, count: int) -> tuple[Card, ...]:
        drawn = tuple(next(self._cuts, ()))
        if not drawn and self._drawn:
            raise InvalidDeal("MATCH-3", f"the draw is tied: the {count} tied seats draw again, and the script has "
                              "no further round")  # fmt: skip
        draw.check_round(count, drawn, self._drawn)
        self._drawn |= set(drawn)
        return drawn

    def deck(self) -> tuple[Card, ...] | None:
        d = next(self._decks, None)
        return None if d is None else tuple(d)
