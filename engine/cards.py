"""Cards, ranks, suits and card notation.

Rules: CARD-1, CARD-2, CARD-3, NOTE-2.

A card is written rank then suit (its grammar: ``engine.notation``): ranks ``A23456789TJQK``, suits ``cdhs``
(``As``, ``Td``, ``Kh``). Every card also has an index 0..51 (suit-major:
``suit * 13 + rank - 1``) so that a set of cards is one integer bitmask;
the meld search works on those masks.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from engine import notation
from engine.errors import NotationError
from engine.notation import WHITE_SPACE, card_index

RANKS = notation.RANKS
SUITS = notation.SUITS

SUIT_SYMBOLS = "♣♦♥♠"


class Suit(enum.IntEnum):
    """The four suits, in index order (clubs, diamonds, hearts, spades). Rule: CARD-1."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUITS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


@dataclass(frozen=True, slots=True, order=False)
class Card:
    """One playing card; ``rank`` is 1 (ace, always low) .. 13 (king). Rules: CARD-1, CARD-2."""

    rank: int
    suit: Suit
    #: The card's index 0..51 (suit-major), its one-bit mask, and its place in rank-then-suit order
    #: (rank-major, 0..51): derived once, when the card is made.
    index: int = field(init=False, repr=False, compare=False)
    bit: int = field(init=False, repr=False, compare=False)
    order: int = field(init=False, repr=False, compare=False)

    _BY_INDEX: ClassVar[tuple[Card, ...]]

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise NotationError(f"CARD-1: rank must be 1..13, got {self.rank!r}")
        if not isinstance(self.suit, Suit):
            raise NotationError(f"CARD-1: suit must be a Suit, got {self.suit!r}")
        _derive(self)

    @property
    def value(self) -> int:
        """Deadwood points: ace 1, two to ten their pips, pictures 10. Rule: CARD-3."""
        return 10 if self.rank >= 10 else self.rank

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with index 0..51."""
        if not 0 <= index < 52:
            raise NotationError(f"CARD-1: card index must be 0..51, got {index!r}")
        return Card._BY_INDEX[index]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``"As"``, ``"Td"``, ``"10h"`` (letters in either case; white space around is ignored). Rule: NOTE-2.

        >>> Card.parse("Td")
        Card.parse('Td')
        """
        return Card._BY_INDEX[card_index(text.strip(WHITE_SPACE))]

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.order < other.order

    def __le__(self, other: Card) -> bool:
        return self.order <= other.order

    def __gt__(self, other: Card) -> bool:
        return self.order > other.order

    def __ge__(self, other: Card) -> bool:
        return self.order >= other.order


def _derive(card: Card) -> None:
    index = int(card.suit) * 13 + card.rank - 1
    object.__setattr__(card, "index", index)
    object.__setattr__(card, "bit", 1 << index)
    object.__setattr__(card, "order", (card.rank - 1) * 4 + int(card.suit))


Card._BY_INDEX = tuple(object.__new__(Card) for _ in range(52))
for _i, _c in enumerate(Card._BY_INDEX):
    object.__setattr__(_c, "rank", _i % 13 + 1)
    object.__setattr__(_c, "suit", Suit(_i // 13))
    _derive(_c)
del _i, _c

#: The 52 cards in rank-then-suit order (``Card.order``).
BY_ORDER: tuple[Card, ...] = tuple(sorted(Card._BY_INDEX, key=lambda c: c.order))


def _spread_table() -> tuple[int, ...]:
    """For each 13-bit suit mask (bit r = rank r + 1), the same ranks in rank-major positions (bit 4r)."""
    return tuple(sum(1 << 4 * r for r in range(13) if m >> r & 1) for m in range(1 << 13))


_SPREAD = _spread_table()
_SUIT = (1 << 13) - 1
#: The 52 cards in index order (clubs A..K, diamonds, hearts, spades).
DECK: tuple[Card, ...] = Card._BY_INDEX


def cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by spaces or commas, in the order written.

    >>> cards("As 2s 3s")
    (Card.parse('As'), Card.parse('2s'), Card.parse('3s'))
    """
    return tuple(Card.parse(t) for t in text.replace(",", " ").split())


def to_mask(cs: Iterable[Card]) -> int:
    """The bitmask of some cards."""
    m = 0
    for c in cs:
        m |= 1 << (c.suit * 13 + c.rank - 1)
    return m


def rank_major(mask: int) -> int:
    """A suit-major card mask respread rank-major: card ``c`` moves to bit ``c.order`` (one lookup a suit)."""
    spread = _SPREAD
    return (
        spread[mask & _SUIT]
        | spread[mask >> 13 & _SUIT] << 1
        | spread[mask >> 26 & _SUIT] << 2
        | spread[mask >> 39 & _SUIT] << 3
    )


def _byte_table() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """For each byte ``i`` of a rank-major mask and each of its 256 values, its cards in order."""
    return tuple(tuple(tuple(BY_ORDER[8 * i + j] for j in range(8) if b >> j & 1 and 8 * i + j < 52)
                       for b in range(256)) for i in range(7))  # fmt: skip


_BYTES = _byte_table()


def from_mask(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, sorted by rank then suit.

    The suit-major mask is respread rank-major (one table lookup a suit), so the cards of each of its seven
    bytes, in order, are one more lookup.
    """
    m = rank_major(mask)
    t = _BYTES
    return (t[0][m & 255] + t[1][m >> 8 & 255] + t[2][m >> 16 & 255] + t[3][m >> 24 & 255] + t[4][m >> 32 & 255]
            + t[5][m >> 40 & 255] + t[6][m >> 48])  # fmt: skip


def sort_cards(cs: Iterable[Card]) -> tuple[Card, ...]:
    """Cards sorted by rank then suit (the display and legal-action order)."""
    return tuple(sorted(cs))


def fmt(cs: Iterable[Card]) -> str:
    """Cards as text, space separated, in the order given."""
    return " ".join(str(c) for c in cs)


def shuffle(rng: random.Random, unshuffled: Sequence[Card] = DECK) -> tuple[Card, ...]:
    """A deck order: Fisher–Yates over ``rng.random()``, from the last card down. Rules: DEAL-2, MATCH-7, RULES-3.

    Only ``random()``'s sequence is promised stable across Python versions, so the shuffle is ours (never
    ``random.shuffle``). ``unshuffled`` is the deck in index order: all 52, or a rule set's reduced deck.
    """
    deck = list(unshuffled)
    for i in range(len(deck) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def shuffled_deck(seed: int, unshuffled: Sequence[Card] = DECK) -> tuple[Card, ...]:
    """The deck after the seeded shuffle of ``random.Random(seed)`` (DEAL-2)."""
    return shuffle(random.Random(seed), unshuffled)
