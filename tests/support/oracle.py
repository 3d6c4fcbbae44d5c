"""A brute-force oracle for melds, deadwood and the defender's layoffs, written from the spec alone.

It shares nothing with ``engine.melds`` or ``engine.showdown`` but the ``Card`` value: melds are found by
trying every subset of the cards against the definitions (MELD-1, MELD-2), arrangements by plain
recursion over disjoint melds (MELD-3), deadwood as the minimum over them (MELD-4), the knock test as
the minimum over the discards (MELD-5), and the defender's answer by trying, for each knocker meld,
every subset of his cards against it and every combination of disjoint such subsets, that is every
assignment of laid-off cards to the knocker's melds (LAY-3 .. LAY-6). Slow on purpose: it is meant to
be obviously right, not fast.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from itertools import combinations, pairwise

from engine.cards import Card

Cards = frozenset[Card]


def points(cs: Iterable[Card]) -> int:
    """Point value by CARD-3: ace 1, two to ten their pips, jack, queen and king 10."""
    return sum(min(c.rank, 10) for c in cs)


def is_set(cs: Iterable[Card]) -> bool:
    """MELD-1: three or four cards of one rank."""
    cl = list(cs)
    return len(cl) in (3, 4) and len({c.rank for c in cl}) == 1 and len(set(cl)) == len(cl)


def is_run(cs: Iterable[Card]) -> bool:
    """MELD-2: three or more cards of one suit in consecutive ranks, ace (1) low, king (13) high, no wrap."""
    cl = sorted(cs, key=lambda c: c.rank)
    if len(cl) < 3 or len({c.suit for c in cl}) != 1:
        return False
    return all(b.rank == a.rank + 1 for a, b in pairwise(cl))


def is_meld(cs: Iterable[Card]) -> bool:
    cl = list(cs)
    return is_set(cl) or is_run(cl)


@cache
def melds_of(hand: Cards) -> tuple[Cards, ...]:
    """Every subset of the cards that is a meld."""
    ordered = sorted(hand, key=lambda c: (c.suit, c.rank))
    return tuple(
        frozenset(sub) for size in range(3, len(ordered) + 1) for sub in combinations(ordered, size) if is_meld(sub)
    )


def arrangements_of(hand: Cards) -> Iterator[frozenset[Cards]]:
    """Every collection of pairwise disjoint melds of the cards (MELD-3), the empty one included, each once."""
    ms = melds_of(hand)

    def walk(start: int, used: Cards, chosen: tuple[Cards, ...]) -> Iterator[frozenset[Cards]]:
        yield frozenset(chosen)
        for i in range(start, len(ms)):
            if not ms[i] & used:
                yield from walk(i + 1, used | ms[i], (*chosen, ms[i]))

    yield from walk(0, frozenset(), ())


def leftover(hand: Cards, arrangement: Iterable[Cards]) -> Cards:
    melded: set[Card] = set()
    for m in arrangement:
        melded |= m
    return hand - melded


def min_deadwood(hand: Cards, melds: Iterable[Cards] | None = None) -> int:
    """MELD-4: the minimum over all arrangements of the value of the cards left over.

    Plain recursion on the lowest card: it is either left over, or in one of the melds that contain it.
    ``melds`` may pass the melds of a larger holding (those not within ``hand`` are ignored).
    """
    ms = [m for m in (melds_of(hand) if melds is None else melds) if m <= hand]

    @cache
    def least(rest: Cards) -> int:
        if not rest:
            return 0
        low = min(rest, key=lambda c: (c.suit, c.rank))
        best = points([low]) + least(rest - {low})
        for m in ms:
            if low in m and m <= rest:
                best = min(best, least(rest - m))
        return best

    return least(hand)


def knock_deadwood(hand: Cards) -> int:
    """MELD-5: the minimum over every discard of the deadwood of what is left."""
    ms = melds_of(hand)
    return min(min_deadwood(hand - {c}, ms) for c in hand)


def open_targets(meld: Cards) -> int:
    """The cards that could be laid off next onto a meld (LAY-3, LAY-4): a set of three has one, a set of
    four none, a run one at each end that is not past the ace or the king."""
    if is_set(meld):
        return 1 if len(meld) == 3 else 0
    ranks = sorted(c.rank for c in meld)
    return (ranks[0] > 1) + (ranks[-1] < 13)


def fits(target: Cards, extra: Iterable[Card]) -> bool:
    """LAY-3 and LAY-4: a knocker's meld with the cards laid off onto it is still one meld of the same kind
    (a set of three takes its fourth card, a set of four nothing, a run any cards that keep it one run)."""
    extra = frozenset(extra)
    if not extra:
        return True
    whole = target | extra
    if len(whole) != len(target) + len(extra):
        return False
    return is_set(whole) if is_set(target) else is_run(whole)


def layoffs_onto(target: Cards, cards: Iterable[Card]) -> list[Cards]:
    """Every subset of the cards that fits onto one target (the empty one included)."""
    cl = sorted(cards, key=lambda c: (c.suit, c.rank))
    return [frozenset(sub) for size in range(len(cl) + 1) for sub in combinations(cl, size) if fits(target, sub)]


def legal_layoffs(knocker_melds: Iterable[Cards], defender: Cards) -> Iterator[Cards]:
    """Every set of the defender's cards he can lay off at once (LAY-3, LAY-4, LAY-5): each card goes onto
    one target, and every target with the cards assigned to it fits. Sets may repeat."""
    targets = list(knocker_melds)
    # A card of neither a target set's rank nor a target run's suit can never be laid off; leaving such
    # cards out only saves time.
    touching = [c for c in defender if any(c.rank == min(t).rank or c.suit == min(t).suit for t in targets)]
    options = [layoffs_onto(t, touching) for t in targets]

    def walk(i: int, laid: Cards) -> Iterator[Cards]:
        if i == len(options):
            yield laid
            return
        for extra in options[i]:
            if not extra & laid:
                yield from walk(i + 1, laid | extra)

    yield from walk(0, frozenset())


def defender_deadwood(knocker_melds: Iterable[Cards], defender: Cards) -> int:
    """LAY-5, LAY-6: the minimum over every legal set of layoffs of the deadwood of the rest."""
    ms = melds_of(defender)
    return min(min_deadwood(defender - laid, ms) for laid in legal_layoffs(knocker_melds, defender))
