"""The showdown: layoffs, what may be laid off onto a meld, and the defender's best answer.

Whether a spread or an answer is legal is the rules kernel's to decide (``engine.kernel.verify_spread``,
``verify_lay_off``). Rules: LAY-3 .. LAY-6.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import Card, from_mask
from engine.melds import (
    Meld,
    MeldKind,
    best_arrangement,
    deadwood,
    well_formed,
)
from engine.notation import WHITE_SPACE, layoff_cards


@dataclass(frozen=True, slots=True)
class Layoff:
    """One card laid off onto one of the knocker's melds. Text: ``7c>4c-5c-6c``."""

    card: Card
    onto: Meld

    @staticmethod
    def parse(text: str) -> Layoff:
        """Parse ``"7c>4c-5c-6c"``. Rules: NOTE-7, MELD-1, MELD-2."""
        card, onto = layoff_cards(text.strip(WHITE_SPACE))
        return Layoff(Card.from_index(card), Meld.of(Card.from_index(i) for i in onto))

    def __str__(self) -> str:
        return f"{self.card}>{self.onto}"


def well_formed_layoffs(layoffs: object) -> bool:
    """Whether ``layoffs`` is a list or tuple of ``Layoff`` values, each a card and a well-formed meld (TURN-1)."""
    return isinstance(layoffs, tuple | list) and all(
        type(lo) is Layoff and type(lo.card) is Card and well_formed((lo.onto,)) for lo in layoffs
    )


def canonical_layoffs(layoffs: Iterable[Layoff]) -> tuple[Layoff, ...]:
    return tuple(sorted(layoffs, key=lambda lo: (lo.onto.sort_key, lo.card)))


def valid(melds: Iterable[Meld]) -> list[Meld]:
    """Each meld checked again from its cards (a ``Meld`` built directly, not by ``Meld.of``, is not trusted).

    Rules: MELD-1, MELD-2.
    Raises:
        InvalidMeld: cards that form no set or run.
    """
    return [Meld.of(m.cards) for m in melds]


def layoff_options(meld: Meld, available: int) -> list[int]:
    """Every mask of available cards that can be laid off onto this meld (0 included). Rules: LAY-3, LAY-4."""
    if meld.kind is MeldKind.SET:
        if len(meld.cards) == 4:
            return [0]
        rank = meld.cards[0].rank
        held = {c.suit for c in meld.cards}
        missing = next(s for s in range(4) if s not in held)
        bit = 1 << (missing * 13 + rank - 1)
        return [0, bit] if available & bit else [0]
    suit = meld.cards[0].suit
    lows = [0]
    r = meld.cards[0].rank - 1
    while r >= 1 and available >> (suit * 13 + r - 1) & 1:
        lows.append(lows[-1] | 1 << (suit * 13 + r - 1))
        r -= 1
    highs = [0]
    r = meld.cards[-1].rank + 1
    while r <= 13 and available >> (suit * 13 + r - 1) & 1:
        highs.append(highs[-1] | 1 << (suit * 13 + r - 1))
        r += 1
    return [lo | hi for lo in lows for hi in highs]


@dataclass(frozen=True, slots=True)
class Defence:
    """The defender's answer: own melds, layoffs and what is left."""

    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.deadwood_cards)


def defence_deadwood(knocker_melds: tuple[Meld, ...], hand_mask: int) -> int:
    """``best_defence(knocker_melds, hand_mask).deadwood`` without building the defence (the search bot's
    rollouts, ``knock.bots.rollout``). Rules: LAY-5, LAY-6."""
    return _best_layoffs(knocker_melds, hand_mask)[0]


def _best_layoffs(knocker_melds: tuple[Meld, ...], hand_mask: int) -> tuple[int, int, tuple[int, ...]]:
    """The defender's least deadwood, the fewest cards laid off for it, and the layoffs (a mask a meld)."""
    combos: Iterable[tuple[int, ...]] = itertools.product(*(layoff_options(m, hand_mask) for m in knocker_melds))
    best: tuple[int, int, tuple[int, ...]] | None = None
    for combo in combos:
        laid = 0
        ok = True
        for m in combo:
            if laid & m:
                ok = False
                break
            laid |= m
        if not ok:
            continue
        key = (deadwood(hand_mask & ~laid), bin(laid).count("1"), combo)
        if best is None or key[:2] < best[:2]:
            best = key
    assert best is not None
    return best


def best_defence(knocker_melds: tuple[Meld, ...], hand_mask: int) -> Defence:
    """The defender's minimum-deadwood answer to a knock that is not gin, over every legal layoff set and every
    arrangement of the rest (after gin he lays nothing off, LAY-2: his answer is ``best_arrangement`` of his cards).

    Uses only what the defender knows (his cards and the knocker's spread). Among equals it lays off the
    fewest cards. Rules: LAY-5, LAY-6.
    """
    best = _best_layoffs(knocker_melds, hand_mask)
    combo = best[2]
    laid = 0
    layoffs: list[Layoff] = []
    for meld, m in zip(knocker_melds, combo, strict=True):
        laid |= m
        layoffs.extend(Layoff(c, meld) for c in from_mask(m))
    arr = best_arrangement(hand_mask & ~laid)
    return Defence(arr.melds, canonical_layoffs(layoffs), arr.deadwood_cards)
