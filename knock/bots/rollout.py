"""``Rollout``: a hand played out fast on bitmasks from a sampled world, for the search bot. Rules: SCORE-1 .. SCORE-3.

Not the engine: no events, no checks; it follows the rules that decide a hand's outcome (the knock limit, gin
and undercut bonuses, the defender's best layoffs, the taken card kept (TURN-4), the dead hand at the stock
floor (DEAD-1)). Seat 0 is the searching seat, seat 1 the opponent, and each plays its own policy:

- **the searching seat** plays as the search bot's first choices do (the heuristic bot's measures, on
  bitmasks): it takes the discard when the card melds (its deadwood falls by the card's value and its knock
  deadwood falls) or cuts its knock deadwood by four or more; it discards to the least deadwood less 1.5 a
  partial meld (``partials``: paired ranks and same-suit cards one or two ranks apart), the highest card among
  equals; it knocks as soon as it may, but holds on for gin with 1 to 3 deadwood while 16 or more cards are
  left in the stock (under a knock limit of 10 or more);
- **the opponent** is modelled on the public baseline (``simple``): he takes the discard when it would be part of
  a meld with his hand (``melds_with``: ``simple``'s rule) or cuts his knock deadwood by four or more (the
  heuristic bot's other reason; ``simple`` declines such a card), discards to the least deadwood (the highest
  card among equals) and knocks as soon as he may. (Before 2026-12-05 he took any card that cut his knock
  deadwood by two or more, the greedy bot's rule: it foretold ``simple``'s draws wrongly at 12.4% of them and
  the heuristic bot's at 8.2%; the meld rule alone at 0% and 7.5%, this one at 4.2% and 2.8%.)

The outcome is the hand's points from seat 0's side (won positive, lost negative; a dead hand 0).
"""

from __future__ import annotations

from functools import lru_cache

from engine.kernel import STOCK_FLOOR
from engine.melds import RANK_VALUES, Meld, best_arrangement, deadwood, knock_deadwood, melds_with
from engine.rules import RuleSet
from engine.showdown import defence_deadwood

VALUES = tuple(RANK_VALUES[i % 13] for i in range(52))  # a card's value by its index (suit × 13 + rank − 1)
BITS = tuple(1 << i for i in range(52))
SUIT = 0x1FFF
#: The cards by value, highest first (the lowest index among equals): the order the opponent's discard tries them.
BY_VALUE = tuple(sorted(range(52), key=lambda i: (-VALUES[i], i)))
#: The cards with a card of their suit one rank above (not the king of each suit: its next bit is the next suit's ace).
NEXT = sum(1 << (s * 13 + r) for s in range(4) for r in range(12))
#: The cards with a card of their suit two ranks above.
SKIP = sum(1 << (s * 13 + r) for s in range(4) for r in range(11))
#: How many points of deadwood a partial meld is worth to the searching seat's discard (the heuristic bot's 1.5).
PARTIAL = 1.5
#: The searching seat holds on for gin with at most this much deadwood (and more than none) ...
GIN_HOLD = 3
#: ... while at least this many cards are left in the stock (the heuristic bot's rule).
GIN_STOCK = 16


#: The turns a rollout plays before it calls its hand dead (``Rollout.play``): a hand that draws from the stock
#: each turn ends within 31 turns of each seat; one that lasts longer is two policies trading through the pile.
MAX_TURNS = 200
#: The discards the policies chose, by holding, seat and card taken (``Rollout.discard``), at most this many.
#: Shared by every rollout in the process: a variant of the policies (a subclass, a patched ``_choose_discard``)
#: must clear it first.
CHOSEN_SIZE = 1 << 17
_CHOSEN: dict[int, int] = {}


def holds_for_gin(left: int, stock: int, limit: int) -> bool:
    """The heuristic bot's rule: hold on for gin rather than knock with ``left`` deadwood (1 to ``GIN_HOLD``)
    while ``GIN_STOCK`` or more cards are left in the stock, under a knock limit of 10 or more. (The rollouts
    test it inline: their hot path.) Rule: KNOCK-2."""
    return 0 < left <= GIN_HOLD and stock >= GIN_STOCK and limit >= 10


def partials(mask: int) -> int:
    """The partial melds of a holding, counted fast: ranks held in two suits or more, and pairs of cards of a
    suit one or two ranks apart (whether a live card could complete them is not asked). Rules: MELD-1, MELD-2.

    >>> from engine.cards import cards, to_mask
    >>> partials(to_mask(cards("7c 7d 9h Th Qh 2s")))  # the pair of sevens, 9h-Th, Th-Qh
    3
    """
    a = mask & SUIT
    b = mask >> 13 & SUIT
    c = mask >> 26 & SUIT
    d = mask >> 39 & SUIT
    paired = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    return paired.bit_count() + (mask & mask >> 1 & NEXT).bit_count() + (mask & mask >> 2 & SKIP).bit_count()


@lru_cache(maxsize=1 << 14)
def spread(mask: int) -> tuple[Meld, ...]:
    """The knocker's spread of a holding (``best_arrangement``'s melds), remembered: in a decision's worlds the
    searching seat often knocks with the same cards. Rules: KNOCK-4, MELD-4."""
    return best_arrangement(mask).melds


class Rollout:
    """A hand played out on bitmasks from a world (see the module's docstring): seat 0 searches, seat 1 is the
    opponent. ``hands`` are the two holdings, ``pile`` the discard pile (its top last), ``stock`` the stock
    (drawn from the end)."""

    __slots__ = ("gin", "hands", "limit", "pile", "stock", "tie_undercut", "undercut")

    def __init__(self, rules: RuleSet, limit: int, hands: list[int], pile: list[int], stock: list[int]) -> None:
        self.limit = limit
        self.gin = rules.gin_bonus
        self.undercut = rules.undercut_bonus
        self.tie_undercut = rules.undercut_on_tie
        self.hands = hands
        self.pile = pile
        self.stock = stock

    def takes(self, seat: int) -> bool:
        """The seat's draw: whether it takes the top discard (its policy, see the module's docstring)."""
        if not self.pile:
            return False
        h = self.hands[seat]
        top = self.pile[-1]
        if seat == 1:
            return melds_with(h, top) or knock_deadwood(h | BITS[top]) <= deadwood(h) - 4
        now = deadwood(h)
        after = knock_deadwood(h | BITS[top])
        return (after < now and deadwood(h | BITS[top]) <= now - VALUES[top]) or after <= now - 4

    def discard(self, seat: int, taken: int) -> int:
        """The seat's discard (never ``taken``): the least deadwood left, less ``PARTIAL`` a partial meld for
        the searching seat; the highest card among equals. A function of the holding and the card taken alone,
        remembered (``_CHOSEN``): a decision's worlds often reach the same holding."""
        key = self.hands[seat] << 7 | seat << 6 | (taken + 1)
        card = _CHOSEN.get(key)
        if card is None:
            if len(_CHOSEN) >= CHOSEN_SIZE:
                _CHOSEN.clear()
            card = _CHOSEN[key] = self._choose_discard(seat, taken)
        return card

    def _choose_discard(self, seat: int, taken: int) -> int:
        h = self.hands[seat]
        if seat == 1:
            return self._least_deadwood(h, taken)
        best, key = -1, 1e9
        bits = h
        while bits:
            low = bits & -bits
            bits ^= low
            i = low.bit_length() - 1
            if i == taken:
                continue
            rest = h ^ low
            k = deadwood(rest) * 16 - VALUES[i] - PARTIAL * 16 * partials(rest)
            if k < key:
                best, key = i, k
        return best

    @staticmethod
    def _least_deadwood(h: int, taken: int) -> int:
        """The opponent's discard: the card whose drop leaves the least deadwood, the highest among equals (the
        lowest index among equal values). The cards are tried highest first, and the first whose drop reaches
        the hand's knock deadwood (the least any drop leaves, MELD-5) is the answer; only when none does (the
        card taken was the one to drop) are all compared."""
        floor = knock_deadwood(h)
        best, least = -1, 1 << 30
        for i in BY_VALUE:
            if not h >> i & 1 or i == taken:
                continue
            left = deadwood(h ^ BITS[i])
            if left == floor:
                return i
            if left < least:
                best, least = i, left
        return best

    def turn(self, seat: int, stock_only: bool = False) -> int | None:
        """One turn of the seat's policy: draw, then knock or discard. The outcome if the hand ended, else None."""
        taken = -1
        if not stock_only and self.takes(seat):
            taken = self.pile.pop()
            self.hands[seat] |= BITS[taken]
        else:
            self.hands[seat] |= BITS[self.stock.pop()]
        return self.after_draw(seat, taken)

    def after_draw(self, seat: int, taken: int) -> int | None:
        """The seat's discard, knocking with it when its policy knocks."""
        card = self.discard(seat, taken)
        left = deadwood(self.hands[seat] ^ BITS[card])
        knock = left <= self.limit
        if knock and seat == 0 and 0 < left <= GIN_HOLD and len(self.stock) >= GIN_STOCK and self.limit >= 10:
            knock = False  # holds on for gin
        return self.put(seat, card, knock)

    def put(self, seat: int, card: int, knock: bool) -> int | None:
        """Discard ``card`` (knocking with it when ``knock``): the outcome if the hand ends, else None."""
        self.hands[seat] ^= BITS[card]
        if knock:
            return self.showdown(seat)
        self.pile.append(card)
        if len(self.stock) <= STOCK_FLOOR:
            return 0
        return None

    def play(self, seat: int) -> int:
        """Play on from ``seat``'s turn to the end of the hand: its outcome for seat 0; a hand still going
        after ``MAX_TURNS`` turns (the two policies trading the same cards through the discard pile, DEAD-3)
        counts as dead."""
        for _ in range(MAX_TURNS):
            out = self.turn(seat)
            if out is not None:
                return out
            seat ^= 1
        return 0

    def showdown(self, knocker: int) -> int:
        """The hand's points for seat 0 after ``knocker`` knocks. Rules: SCORE-1 .. SCORE-3, LAY-5."""
        k, d = self.hands[knocker], self.hands[knocker ^ 1]
        dk = deadwood(k)
        sign = 1 if knocker == 0 else -1
        if dk == 0:
            return sign * (self.gin + deadwood(d))
        dd = defence_deadwood(spread(k), d)
        if dk < dd:
            return sign * (dd - dk)
        if dk == dd and not self.tie_undercut:
            return 0
        return -sign * (self.undercut + dk - dd)
