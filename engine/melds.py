"""Melds, deadwood and arrangements.

Rules: MELD-1 .. MELD-5.

The minimum-deadwood search works on bitmasks. Runs live inside one suit, so a
13-bit table gives, for every suit mask, the deadwood left when its cards are
melded in runs (every maximal stretch of three or more consecutive ranks is one
run). Only ranks held three or four times can form sets; the search branches
over the set choices for those few ranks and adds four table look-ups.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from engine.cards import Card, from_mask, to_mask
from engine.errors import InvalidMeld
from engine.notation import meld_cards, words

SUIT_BITS = 0x1FFF
RANK_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


class MeldKind(enum.Enum):
    SET = "set"
    RUN = "run"


@dataclass(frozen=True, slots=True)
class Meld:
    """A valid meld: a set of 3 or 4 of a rank, or a run of 3+ consecutive cards of a suit.

    Build one with ``Meld.of`` or ``Meld.parse``; cards are kept low to high.

    >>> Meld.parse("4c-5c-6c")
    Meld.parse('4c-5c-6c')
    """

    kind: MeldKind
    cards: tuple[Card, ...]

    @staticmethod
    def of(cs: Iterable[Card]) -> Meld:
        """Validate and build a meld. Rules: MELD-1, MELD-2.

        Raises:
            InvalidMeld: the cards form neither a set nor a run.
        """
        cl = sorted(cs, key=lambda c: (c.suit, c.rank))
        if len(set(cl)) != len(cl):
            raise InvalidMeld("MELD-1", f"a meld cannot hold a card twice: {_txt(cl)}")
        if len(cl) < 3:
            raise InvalidMeld("MELD-1", f"a meld needs at least three cards: {_txt(cl)}")
        if all(c.rank == cl[0].rank for c in cl):
            if len(cl) > 4:
                raise InvalidMeld("MELD-1", f"a set has three or four cards: {_txt(cl)}")
            return Meld(MeldKind.SET, tuple(sorted(cl, key=lambda c: c.suit)))
        if all(c.suit == cl[0].suit for c in cl):
            if all(cl[i + 1].rank == cl[i].rank + 1 for i in range(len(cl) - 1)):
                return Meld(MeldKind.RUN, tuple(cl))
            raise InvalidMeld("MELD-2", f"a run needs consecutive ranks, ace low, no wrap: {_txt(cl)}")
        raise InvalidMeld("MELD-1", f"not a set (one rank) nor a run (one suit): {_txt(cl)}")

    @staticmethod
    def parse(text: str) -> Meld:
        """Parse ``"4c-5c-6c"`` or ``"7s-7h-7d"`` (also space separated). Rules: NOTE-3, MELD-1, MELD-2.

        Raises:
            NotationError: the text is no meld in the notation (NOTE-3, NOTE-2).
            InvalidMeld: the cards make no meld (MELD-1, MELD-2).
        """
        return Meld.of(Card.from_index(i) for i in meld_cards("-".join(words(text))))

    @property
    def mask(self) -> int:
        return to_mask(self.cards)

    @property
    def value(self) -> int:
        return sum(c.value for c in self.cards)

    @property
    def sort_key(self) -> tuple[int, int, int]:
        first = self.cards[0]
        return (first.rank, first.suit, len(self.cards))

    def fits(self, extra: Iterable[Card]) -> bool:
        """Whether these cards laid off onto this meld leave one valid meld (LAY-3, LAY-4)."""
        extra = tuple(extra)
        if not extra:
            return True
        if self.kind is MeldKind.SET and len(self.cards) + len(extra) > 4:
            return False
        try:
            Meld.of(self.cards + extra)
        except InvalidMeld:
            return False
        return True

    def open_ends(self) -> int:
        """How many outside cards could be laid off onto this meld next (0, 1 or 2)."""
        if self.kind is MeldKind.SET:
            return 1 if len(self.cards) == 3 else 0
        return (self.cards[0].rank > 1) + (self.cards[-1].rank < 13)

    def __str__(self) -> str:
        return "-".join(str(c) for c in self.cards)

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


def _txt(cs: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cs) or "(none)"


# --- Deadwood tables -------------------------------------------------------------------------


def _suit_table() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """For every 13-bit suit mask: its point value, and its deadwood after melding runs."""
    value = [0] * 8192
    dead = [0] * 8192
    for m in range(8192):
        v = 0
        d = 0
        r = 0
        while r < 13:
            if m >> r & 1:
                s = r
                while r < 13 and m >> r & 1:
                    r += 1
                seg = sum(RANK_VALUES[s:r])
                v += seg
                if r - s < 3:
                    d += seg
            else:
                r += 1
        value[m] = v
        dead[m] = d
    return tuple(value), tuple(dead)


SUIT_VALUE, SUIT_DEADWOOD = _suit_table()


def _gain_table() -> tuple[int, ...]:
    """For every 13-bit suit mask: the most its run deadwood falls when one of its cards is dropped (negative
    when every drop breaks a run; far below any real gain for the empty suit, which has no card to drop)."""
    gain = [-1000] * 8192
    for m in range(1, 8192):
        dead = SUIT_DEADWOOD[m]
        best = -1000
        bits = m
        while bits:
            low = bits & -bits
            bits ^= low
            g = dead - SUIT_DEADWOOD[m ^ low]
            if g > best:
                best = g
        gain[m] = best
    return tuple(gain)


#: MELD-5 in four look-ups: dropping a card from an arrangement's leftover suits (sets chosen first) lowers the
#: deadwood of the one suit it leaves, so ``min_c dw(H - c)`` is, for each choice of sets, the deadwood of the
#: suits less the greatest of their gains (see ``knock_deadwood``).
SUIT_GAIN = _gain_table()


def deadwood(mask: int) -> int:
    """Minimum deadwood of a set of cards given as a bitmask. Rules: MELD-3, MELD-4.

    >>> from engine.cards import cards, to_mask
    >>> deadwood(to_mask(cards("As 2s 3s 7c 7d 7h Kd Qd 9c 2h")))
    31
    """
    a = mask & SUIT_BITS
    b = mask >> 13 & SUIT_BITS
    c = mask >> 26 & SUIT_BITS
    d = mask >> 39 & SUIT_BITS
    trips = (a & b & (c | d)) | (c & d & (a | b))
    if not trips:
        return SUIT_DEADWOOD[a] + SUIT_DEADWOOD[b] + SUIT_DEADWOOD[c] + SUIT_DEADWOOD[d]
    return _remembered(mask, _dw_sets, a, b, c, d, trips)


#: The deadwood of holdings with a choice of sets (the search's rollouts meet the same ones again), at most this many.
SETS_MEMO = 1 << 17
_SETS_DEADWOOD: dict[int, int] = {}


def _remembered(
    key: int, search: Callable[[int, int, int, int, int], int], a: int, b: int, c: int, d: int, t: int
) -> int:
    """``search(a, b, c, d, t)``, remembered in ``_SETS_DEADWOOD`` under ``key`` (cleared when full)."""
    left = _SETS_DEADWOOD.get(key)
    if left is None:
        if len(_SETS_DEADWOOD) >= SETS_MEMO:
            _SETS_DEADWOOD.clear()
        left = _SETS_DEADWOOD[key] = search(a, b, c, d, t)
    return left


def _dw_sets(a: int, b: int, c: int, d: int, trips: int) -> int:
    """Branch over the set choices of the lowest rank in ``trips``: no set, the set of every card held of it,
    and for four of a kind each set of three that leaves one card for a run."""
    dw = SUIT_DEADWOOD
    bit = trips & -trips
    rest = trips ^ bit
    keep = ~bit
    a2, b2, c2, d2 = a & keep, b & keep, c & keep, d & keep  # a suit without the card keeps its mask
    if rest:
        best = _dw_sets(a, b, c, d, rest)  # no set of this rank: its cards stay available for runs
        v = _dw_sets(a2, b2, c2, d2, rest)
    else:
        best = dw[a] + dw[b] + dw[c] + dw[d]
        v = dw[a2] + dw[b2] + dw[c2] + dw[d2]
    if v < best:
        best = v
    if a & b & c & d & bit:  # four of a kind: a set of three, the fourth card left for a run
        for w, x, y, z in ((a, b2, c2, d2), (a2, b, c2, d2), (a2, b2, c, d2), (a2, b2, c2, d)):
            v = _dw_sets(w, x, y, z, rest) if rest else dw[w] + dw[x] + dw[y] + dw[z]
            if v < best:
                best = v
    return best


def _meld_pairs(card: int) -> tuple[int, ...]:
    """The pairs of cards (as masks) that make a meld of three with ``card``: two more of its rank, or the rest
    of a run of three of its suit through it. Rules: MELD-1, MELD-2."""
    rank, suit = card % 13, card // 13
    others = [s * 13 + rank for s in range(4) if s != suit]
    pairs = [1 << a | 1 << b for n, a in enumerate(others) for b in others[n + 1 :]]
    for low in range(max(0, rank - 2), min(rank, 10) + 1):
        pairs.append(sum(1 << (suit * 13 + r) for r in range(low, low + 3) if r != rank))
    return tuple(pairs)


#: For each card, the pairs of cards that make a meld of three with it (``_meld_pairs``).
MELD_PAIRS = tuple(_meld_pairs(i) for i in range(52))


def melds_with(hand: int, card: int) -> bool:
    """Whether ``card`` would be part of a meld with the cards of ``hand``: the public baseline's test for taking
    a discard (``knock.bots.simple``). Rules: MELD-1, MELD-2.

    >>> from engine.cards import Card, cards, to_mask
    >>> hand = to_mask(cards("7c 7d 9h Th 2s"))
    >>> melds_with(hand, Card.parse("8h").index), melds_with(hand, Card.parse("7s").index)
    (True, True)
    >>> melds_with(hand, Card.parse("9c").index), melds_with(hand, Card.parse("3s").index)
    (False, False)
    """
    for pair in MELD_PAIRS[card]:  # noqa: SIM110 (a loop: any() over a generator is slower in the rollouts)
        if hand & pair == pair:
            return True
    return False


def value(mask: int) -> int:
    """Total point value of the cards in a mask. Rule: CARD-3."""
    return (
        SUIT_VALUE[mask & SUIT_BITS]
        + SUIT_VALUE[mask >> 13 & SUIT_BITS]
        + SUIT_VALUE[mask >> 26 & SUIT_BITS]
        + SUIT_VALUE[mask >> 39 & SUIT_BITS]
    )


def knock_deadwood(mask11: int) -> int:
    """The 11-card knock test: the minimum over the 11 discards of the 10-card deadwood. Rule: MELD-5.

    Exact, and as fast as one 10-card search. A choice of sets of ``H - c`` is a choice of sets of ``H``
    without ``c``, so ``min_c dw(H - c)`` is the minimum over the set choices of ``H`` and over the cards
    ``c`` left for runs of the run deadwood of the four suits with ``c`` dropped from its suit: the suits'
    deadwood less the greatest gain (``SUIT_GAIN``) among them. (A card of a chosen set of four is covered by
    the choice of the other three.) Dropping the highest deadwood card of the best 11-card arrangement is
    not the same (MELD-5).

    >>> from engine.cards import cards, to_mask
    >>> knock_deadwood(to_mask(cards("Ac Ad Ah 2c 2d 2h 2s 3c 8c 8d 8h")))  # discard 3c: gin
    0
    """
    a = mask11 & SUIT_BITS
    b = mask11 >> 13 & SUIT_BITS
    c = mask11 >> 26 & SUIT_BITS
    d = mask11 >> 39 & SUIT_BITS
    trips = (a & b & (c | d)) | (c & d & (a | b))
    if not trips:
        dw, g = SUIT_DEADWOOD, SUIT_GAIN
        return dw[a] + dw[b] + dw[c] + dw[d] - max(g[a], g[b], g[c], g[d])
    return _remembered(-1 - mask11, _kdw_sets, a, b, c, d, trips)  # deadwood's memo, its keys apart


def _kdw_sets(a: int, b: int, c: int, d: int, trips: int) -> int:
    """``_dw_sets`` for the knock test: each leaf is the suits' deadwood less their greatest gain."""
    bit = trips & -trips
    rest = trips ^ bit
    keep = ~bit
    dw, g = SUIT_DEADWOOD, SUIT_GAIN
    # No set of this rank: its cards stay available for runs.
    best = _kdw_sets(a, b, c, d, rest) if rest else dw[a] + dw[b] + dw[c] + dw[d] - max(g[a], g[b], g[c], g[d])
    ha, hb, hc, hd = a & bit, b & bit, c & bit, d & bit
    options = [(ha, hb, hc, hd)]
    if ha and hb and hc and hd:  # four of a kind: the set of four, or any set of three with one card left over
        options += [(0, hb, hc, hd), (ha, 0, hc, hd), (ha, hb, 0, hd), (ha, hb, hc, 0)]
    for ua, ub, uc, ud in options:
        a2 = a & keep if ua else a
        b2 = b & keep if ub else b
        c2 = c & keep if uc else c
        d2 = d & keep if ud else d
        if rest:
            v = _kdw_sets(a2, b2, c2, d2, rest)
        else:
            v = dw[a2] + dw[b2] + dw[c2] + dw[d2] - max(g[a2], g[b2], g[c2], g[d2])
        if v < best:
            best = v
    return best


def discards_within(mask11: int, limit: int) -> tuple[Card, ...]:
    """The cards whose discard leaves deadwood at most ``limit`` (sorted). Rules: KNOCK-2, MELD-5.

    Dropping a card ``c`` lowers the deadwood by at most its value: the best arrangement of ``H - c`` plus
    ``c`` as deadwood is an arrangement of ``H``, so ``dw(H - c) >= dw(H) - value(c)``. One search of the
    eleven cards therefore rules out every discard worth less than ``dw(H) - limit``, and usually all.
    """
    need = deadwood(mask11) - limit  # a discard can pass only if it is worth at least this
    if need > 10 or knock_deadwood(mask11) > limit:  # no discard passes: the eleven searches are not needed
        return ()
    return tuple(c for c in from_mask(mask11) if c.value >= need and deadwood(mask11 ^ c.bit) <= limit)


def gin_discards(mask11: int) -> tuple[Card, ...]:
    """The cards whose discard leaves the other ten all melded (sorted): the discards that knock for gin.

    The eleven-card test of MELD-5 with no deadwood left; ``discards_within(mask11, limit)`` gives the
    knock discards under a limit (brief A3). Rules: KNOCK-5, MELD-5.

    >>> from engine.cards import cards, to_mask
    >>> held = to_mask(cards("As 2s 3s 4s 5h 6h 7h 9c 9d 9h Kc"))
    >>> gin_discards(held), discards_within(held, 10)
    ((Card.parse('Kc'),), (Card.parse('As'), Card.parse('4s'), Card.parse('Kc')))
    """
    return discards_within(mask11, 0)


# --- Meld enumeration and arrangements --------------------------------------------------------


def melds_in(mask: int) -> tuple[Meld, ...]:
    """Every meld (each set of 3 or 4, each run of any length >= 3) within the cards. Rules: MELD-1, MELD-2."""
    out: list[Meld] = []
    for rank in range(13):
        suits = [s for s in range(4) if mask >> (s * 13 + rank) & 1]
        if len(suits) >= 3:
            cs = [Card.from_index(s * 13 + rank) for s in suits]
            if len(cs) == 4:
                out.append(Meld(MeldKind.SET, tuple(cs)))
                for skip in range(4):
                    out.append(Meld(MeldKind.SET, tuple(c for i, c in enumerate(cs) if i != skip)))
            else:
                out.append(Meld(MeldKind.SET, tuple(cs)))
    for s in range(4):
        sm = mask >> (s * 13) & SUIT_BITS
        for lo in range(13):
            hi = lo
            while hi < 13 and sm >> hi & 1:
                hi += 1
                if hi - lo >= 3:
                    out.append(Meld(MeldKind.RUN, tuple(Card.from_index(s * 13 + r) for r in range(lo, hi))))
    out.sort(key=lambda m: m.sort_key)
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Disjoint melds from a hand and the cards left over (deadwood)."""

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.deadwood_cards)

    def __str__(self) -> str:
        ms = " ".join(str(m) for m in self.melds) or "(no melds)"
        dw = " ".join(str(c) for c in self.deadwood_cards)
        return f"{ms} | {dw or '-'} ({self.deadwood})"


def well_formed(melds: object) -> bool:
    """Whether ``melds`` is a list or tuple of ``Meld`` values made of cards: the shape an action's melds must
    have (TURN-1). Whether each one is a set or a run is another question (MELD-1, MELD-2)."""
    return isinstance(melds, tuple | list) and all(
        type(m) is Meld and type(m.cards) is tuple and all(type(c) is Card for c in m.cards) for m in melds
    )


def canonical(melds: Iterable[Meld]) -> tuple[Meld, ...]:
    """Melds in their canonical order (so that equal spreads compare equal)."""
    return tuple(sorted(melds, key=lambda m: m.sort_key))


def check_disjoint(melds: Iterable[Meld], within: int, rule: str = "MELD-3") -> int:
    """The union mask of disjoint melds drawn from ``within``. Rule: MELD-3 (LAY-5 for the defender's own melds,
    given as ``rule``).

    Raises:
        InvalidMeld: two melds share a card, or a meld uses a card not in ``within``.
    """
    used = 0
    for m in melds:
        mm = m.mask
        if mm & used:
            raise InvalidMeld(rule, f"melds share a card: {_txt(from_mask(mm & used))}")
        if mm & ~within:
            raise InvalidMeld(rule, f"meld {m} uses cards not held: {_txt(from_mask(mm & ~within))}")
        used |= mm
    return used


def arrangements(mask: int, max_deadwood: int | None = None) -> Iterator[Arrangement]:
    """Every collection of disjoint melds from the cards, with its deadwood (optionally at most ``max_deadwood``).

    Each collection appears once; the order is deterministic. Rule: MELD-3.
    """
    all_melds = melds_in(mask)
    total = value(mask)
    chosen: list[Meld] = []

    def walk(start: int, free: int, melded_value: int) -> Iterator[Arrangement]:
        if max_deadwood is None or total - melded_value <= max_deadwood:
            yield Arrangement(canonical(chosen), from_mask(free))
        for i in range(start, len(all_melds)):
            m = all_melds[i]
            mm = m.mask
            if mm & free == mm:
                chosen.append(m)
                yield from walk(i + 1, free ^ mm, melded_value + m.value)
                chosen.pop()

    yield from walk(0, mask, 0)


def best_arrangement(mask: int) -> Arrangement:
    """A minimum-deadwood arrangement, choosing among equals the one that leaves the fewest open layoff
    targets, then the first in canonical order. Uses only the cards themselves. Rules: MELD-4, KNOCK-4.
    """
    target = deadwood(mask)
    best: Arrangement | None = None
    best_key: tuple[int, list[tuple[int, int, int]]] | None = None
    for arr in arrangements(mask, target):
        if arr.deadwood != target:
            continue
        key = (sum(m.open_ends() for m in arr.melds), [m.sort_key for m in arr.melds])
        if best_key is None or key < best_key:
            best, best_key = arr, key
    assert best is not None
    return best
