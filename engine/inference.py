"""What a seat may infer of the opponent's hand from what it saw, and worlds sampled from it. Rule: VIS-2.

The search bot (``engine.search``) plays out *worlds*: the opponent's hidden cards and the stock's order, drawn
from the cards the seat cannot see. Nothing here reads a hand, only a seat's observation (``Observation``), and
nothing is remembered between decisions (a bot made afresh for every move, as the web tables make theirs, reads
the same):

- the cards the opponent took from the discard pile and has not discarded since (``opponent_known``) are in his
  hand in every world;
- the cards on the discard pile -- his discards, and the cards of this seat's he left there (he drew from the
  stock instead, or passed the upcard) -- make the cards that would meld with them less likely in his hand:
  each such card's weight is cut (``weights``), and his hidden cards are drawn by weight without replacement
  (``sample_world``);
- the rest of the unseen cards, shuffled, are the stock.

Two states that differ only in cards the seat may not see give the same reading, hence the same worlds (VIS-2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import to_mask
from engine.visibility import Observation

FULL = (1 << 52) - 1
#: A card of the same rank as a card the opponent let go (discarded, or passed on the pile).
SAME_RANK = 0.3
#: A card of the same suit one or two ranks from such a card.
NEAR_RUN = 0.5
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


def read(obs: Observation) -> Reading:
    """The hidden cards as the seat reads them from its observation. Rule: VIS-2.

    Every card on the discard pile is one the opponent let go: he discarded it, or it was this seat's discard
    (or the upcard) and he drew from the stock instead; either way he is less likely to hold cards that meld
    with it (``weights``)."""
    hand = to_mask(obs.hand)
    pile = to_mask(obs.discard_pile)
    known = to_mask(obs.opponent_known)
    seen = hand | pile | known
    if obs.knock_discard is not None:
        seen |= obs.knock_discard.bit
    deck = FULL if not obs.rules.reduced else to_mask(obs.rules.deck)
    unseen = tuple(i for i in range(52) if (deck & ~seen) >> i & 1)
    hidden = max(0, obs.opponent_hand_size - known.bit_count())
    return Reading(unseen, known, hidden, weights(pile, known))


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
    without replacement) and the stock (the other unseen cards, shuffled; drawn from the end).

    The stock's shuffle is a Fisher–Yates over ``rng.random()`` (as ``engine.cards.shuffle``), never
    ``random.shuffle``: only ``random()``'s sequence is promised across Python versions, so a seed gives the same
    worlds, hence the same moves, on every version."""
    keyed = sorted(reading.unseen, key=lambda i: -(rng.random() ** (1.0 / reading.weight[i])))
    hidden = keyed[: reading.hidden]
    stock = keyed[reading.hidden :]
    for i in range(len(stock) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        stock[i], stock[j] = stock[j], stock[i]
    opp = reading.known
    for i in hidden:
        opp |= 1 << i
    return opp, stock
