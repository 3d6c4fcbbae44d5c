"""What a seat may infer of the opponent's hand from what it saw, and worlds sampled from it. Rule: VIS-2.

The search bot (``engine.search``) plays out *worlds*: the opponent's hidden cards and the stock's order, drawn
from the cards the seat cannot see. Nothing here reads a hand; it reads a seat's observations (``Observation``)
and remembers, within a hand, the cards the seat discarded itself:

- the cards the opponent took from the discard pile and has not discarded since (``opponent_known``) are in his
  hand in every world;
- the cards he discarded, and the cards of this seat's he left on the pile (he drew from the stock instead, or
  passed the upcard), make the cards that would meld with them less likely in his hand: each such card's weight
  is cut (``weights``), and his hidden cards are drawn by weight without replacement (``sample_world``);
- the rest of the unseen cards, shuffled, are the stock.

A seat's memory is its own past observations, so two states that differ only in cards it may not see give the
same worlds (VIS-2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import to_mask
from engine.visibility import Observation

FULL = (1 << 52) - 1
#: A card of the same rank as a card the opponent let go (discarded, or passed on the pile).
SAME_RANK = 0.55
#: A card of the same suit one or two ranks from such a card.
NEAR_RUN = 0.7
#: The least weight a card keeps, however many of his discards it would meld with.
FLOOR = 0.08


@dataclass(frozen=True, slots=True)
class Reading:
    """What a seat reads of the hidden cards at one decision: the cards it cannot see (``unseen``), the
    opponent's known cards (``known``), how many hidden cards he holds (``hidden``), and each unseen card's
    weight (card index -> weight) for being among them."""

    unseen: tuple[int, ...]
    known: int
    hidden: int
    weight: tuple[float, ...]


class Memory:
    """One seat's memory of its own discards in the current hand, kept from its observations only.

    A new hand is recognised by its deal (dealer, upcard, knock limit) or by a stock that grew."""

    __slots__ = ("_deal", "_mine", "_stock")

    def __init__(self) -> None:
        self._deal: tuple[object, ...] | None = None
        self._mine = 0
        self._stock = 99

    def see(self, obs: Observation) -> None:
        """Note a new observation (call at every decision, before ``reading``)."""
        deal = (obs.dealer, obs.upcard, obs.knock_limit, obs.seat)
        if deal != self._deal or obs.stock_size > self._stock:
            self._deal, self._mine = deal, 0
        self._stock = obs.stock_size

    def discarded(self, card_bit: int) -> None:
        """This seat discarded the card (or knocked with it)."""
        self._mine |= card_bit

    def reading(self, obs: Observation) -> Reading:
        """The hidden cards as the seat reads them now. Rule: VIS-2."""
        hand = to_mask(obs.hand)
        pile = to_mask(obs.discard_pile)
        known = to_mask(obs.opponent_known)
        seen = hand | pile | known
        if obs.knock_discard is not None:
            seen |= obs.knock_discard.bit
        deck = FULL if not obs.rules.reduced else to_mask(obs.rules.deck)
        unseen = tuple(i for i in range(52) if (deck & ~seen) >> i & 1)
        mine = self._mine & pile
        let_go = pile & ~mine  # his discards (and the upcard, nobody's: a card he may have passed)
        let_go |= mine  # and every card of this seat's left on the pile: he drew from the stock instead
        hidden = max(0, obs.opponent_hand_size - known.bit_count())
        return Reading(unseen, known, hidden, weights(let_go, known))


def weights(let_go: int, known: int) -> tuple[float, ...]:
    """Each card's weight for being among the opponent's hidden cards: 1, cut for every card he let go that it
    would meld with (same rank, or same suit within two ranks), and raised for cards that meld with the cards he
    is known to hold (he collects them)."""
    out = [1.0] * 52
    for i in range(52):
        if let_go >> i & 1:
            rank, suit = i % 13, i // 13
            for s in range(4):
                j = s * 13 + rank
                if j != i:
                    out[j] *= SAME_RANK
            for d in (-2, -1, 1, 2):
                r = rank + d
                if 0 <= r < 13:
                    out[suit * 13 + r] *= NEAR_RUN
    for i in range(52):
        if known >> i & 1:
            rank, suit = i % 13, i // 13
            for s in range(4):
                out[s * 13 + rank] *= 1.4
            for d in (-1, 1):
                r = rank + d
                if 0 <= r < 13:
                    out[suit * 13 + r] *= 1.25
    return tuple(max(FLOOR, w) for w in out)


def sample_world(rng: random.Random, reading: Reading) -> tuple[int, list[int]]:
    """One world: the opponent's cards (a mask: his known cards and ``hidden`` unseen ones drawn by weight,
    without replacement) and the stock (the other unseen cards, shuffled; drawn from the end)."""
    keyed = sorted(reading.unseen, key=lambda i: -(rng.random() ** (1.0 / reading.weight[i])))
    hidden = keyed[: reading.hidden]
    stock = keyed[reading.hidden :]
    rng.shuffle(stock)
    opp = reading.known
    for i in hidden:
        opp |= 1 << i
    return opp, stock
