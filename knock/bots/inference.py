"""What a seat may infer of the opponent's hand from what it saw, and worlds sampled from it. Rule: VIS-2.

The search bot (``knock.bots.search``) plays out *worlds*: the opponent's hidden cards and the stock's order, drawn
from the cards the seat cannot see. Nothing here reads a hand, only a seat's observation (``Observation``), and
nothing is remembered between decisions (a bot made afresh for every move, as the web tables make theirs, reads
the same):

- the cards the opponent took from the discard pile and has not discarded since (``opponent_known``) are in his
  hand in every world;
- the cards on the discard pile -- his discards, and the cards of this seat's he left there (he drew from the
  stock instead, or passed the upcard) -- make the cards that would meld with them less likely in his hand:
  each such card's weight is cut (``weights``), and his hidden cards are drawn by weight without replacement
  (``sample_world``);
- his hand is *built*: a player keeps the cards that meld and lets the others go, so a hand he has drawn to is
  far better than as many cards picked one by one. A world draws more cards than he holds, as many more as a
  share (``BUILT``) of his draws from the stock, and lets the extra ones go as he would (the card leaving the
  least deadwood, the highest among equals) (``built_hand``);
- his last act weighs each world (``likelihood``): the card he just discarded is one whose discard left about the
  least deadwood, and not a knock (``LAST_DISCARD``, ``NOT_KNOCKED``); the upcard he just passed is not one
  that melds with his hand (``PASSED``). ``POOL`` worlds are drawn for each one kept, and the kept ones drawn
  from them by weight (``sample_worlds``);
- the rest of the unseen cards, shuffled, are the stock.

Measured (docs/bots.md): without the building and the weighing, the worlds' opponent held about 12 points more
deadwood than the real one from the middle of the hand on (``tools/research/search_parts.py --calibration``).

Two states that differ only in cards the seat may not see give the same reading, hence the same worlds (VIS-2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import to_mask
from engine.fsm import Phase
from engine.melds import deadwood, knock_deadwood, melds_with
from engine.visibility import Observation
from knock.bots.rollout import BITS, BY_VALUE

FULL = (1 << 52) - 1
#: A card of the same rank as a card the opponent let go (discarded, or passed on the pile).
SAME_RANK = 0.3
#: A card of the same suit one or two ranks from such a card.
NEAR_RUN = 0.5
#: The least weight a card keeps, however many of his discards it would meld with.
FLOOR = 0.08
#: The share of the opponent's draws from the stock (taken as half of all the stock's draws so far) that a world
#: adds to his hand and lets go again: how much he has built it.
BUILT = 0.5
#: A world's weight falls by this factor a point of deadwood his last discard left above the least it could have.
LAST_DISCARD = 0.5
#: A world's weight when he could have knocked with his last discard, and did not.
NOT_KNOCKED = 0.03
#: A world's weight when the card he just passed would have melded with his hand.
PASSED = 0.1
#: Worlds drawn for each one kept.
POOL = 4


@dataclass(frozen=True, slots=True)
class Reading:
    """What a seat reads of the hidden cards at one decision: the cards it cannot see (``unseen``), the
    opponent's known cards (``known``), how many hidden cards he holds (``hidden``), each unseen card's weight
    (card index -> weight) for being among them; how many cards a world lets him have let go in building his
    hand (``drops``, a mean: a world rounds it at random), the hand's knock limit (``limit``), and his last act:
    the card he just passed (``passed``) or discarded (``discarded``), -1 for none."""

    unseen: tuple[int, ...]
    known: int
    hidden: int
    weight: tuple[float, ...]
    drops: float = 0.0
    limit: int = 10
    passed: int = -1
    discarded: int = -1


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
    drops = BUILT * max(0, obs.rules.stock_size - obs.stock_size) / 2
    passed, discarded = last_act(obs)
    return Reading(unseen, known, hidden, weights(pile, known), drops, obs.knock_limit, passed, discarded)


def last_act(obs: Observation) -> tuple[int, int]:
    """The opponent's last act the seat saw, as (the card he passed, the card he discarded), -1 for neither.

    At the upcard's offer, the dealer has seen the other seat pass it; at a draw or a discard the card on the pile
    (or the one this seat just took from it) is his last discard, or the upcard if he passed it (or, rarely, let
    it go later: read alike). Nothing is known when the non-dealer takes the upcard before he has acted."""
    if obs.phase is Phase.UPCARD_OFFER:
        return (obs.discard_pile[-1].index, -1) if obs.seat == obs.dealer and obs.discard_pile else (-1, -1)
    card = obs.taken if obs.taken is not None else obs.discard_pile[-1] if obs.discard_pile else None
    if card is None:
        return -1, -1
    if card == obs.upcard:
        first = obs.taken is not None and obs.stock_size == obs.rules.stock_size and obs.seat != obs.dealer
        return (-1, -1) if first else (card.index, -1)
    return -1, card.index


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


def built_hand(rng: random.Random, reading: Reading) -> int:
    """His cards in one world: his known cards, and ``hidden`` + n unseen cards drawn by weight without
    replacement, n being ``drops`` rounded at random (at most the unseen cards he does not hold); n cards are
    then let go, one by one, as he lets cards go: the one whose drop leaves the least deadwood, the highest
    among equals (never a known card).

    Only ``random()`` is called (see ``sample_world``)."""
    keyed = sorted(reading.unseen, key=lambda i: -(rng.random() ** (1.0 / reading.weight[i])))
    extra = min(int(reading.drops + rng.random()), len(keyed) - reading.hidden)
    drawn = keyed[: reading.hidden + extra]
    held = reading.known
    for i in drawn:
        held |= BITS[i]
    for _ in range(extra):
        best, least = -1, 1 << 30
        for i in BY_VALUE:
            if held >> i & 1 and not reading.known >> i & 1:
                left = deadwood(held ^ BITS[i])
                if left < least:
                    best, least = i, left
        held ^= BITS[best]
    return held


def likelihood(reading: Reading, held: int) -> float:
    """How well his cards in a world agree with his last act (relative, 1 at best): the card he discarded left
    about the least deadwood and did not make a knock; the upcard he passed does not meld with them. Rule:
    KNOCK-2."""
    if reading.passed >= 0:
        return PASSED if melds_with(held, reading.passed) else 1.0
    if reading.discarded < 0:
        return 1.0
    left = deadwood(held)
    least = knock_deadwood(held | BITS[reading.discarded])
    weight = LAST_DISCARD ** (left - least)
    return weight * NOT_KNOCKED if least <= reading.limit else weight


def sample_worlds(rng: random.Random, reading: Reading, count: int) -> list[tuple[int, list[int]]]:
    """``count`` worlds: his cards (``sample_hands``), each with the other unseen cards shuffled as the stock (as
    ``sample_world``'s). Only ``random()`` is called."""
    return [
        (held, _shuffled(rng, [i for i in reading.unseen if not held >> i & 1]))
        for held in sample_hands(rng, reading, count)
    ]


def sample_hands(rng: random.Random, reading: Reading, count: int) -> list[int]:
    """His cards in ``count`` worlds: ``POOL`` built hands (``built_hand``) for each, of which ``count`` are kept
    by their ``likelihood`` (systematic resampling: one ``random()`` for all)."""
    pool = [built_hand(rng, reading) for _ in range(POOL * count)]
    weight = [likelihood(reading, held) for held in pool]
    step = sum(weight) / count
    mark = rng.random() * step
    kept: list[int] = []
    n, reach = 0, weight[0]
    for _ in range(count):
        while reach < mark and n < len(pool) - 1:
            n += 1
            reach += weight[n]
        kept.append(pool[n])
        mark += step
    return kept


def _shuffled(rng: random.Random, cards: list[int]) -> list[int]:
    """``cards`` in a Fisher–Yates order over ``rng.random()`` (as ``engine.cards.shuffle``), in place."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def sample_world(rng: random.Random, reading: Reading) -> tuple[int, list[int]]:
    """One world: the opponent's cards (a mask: his known cards and ``hidden`` unseen ones drawn by weight,
    without replacement) and the stock (the other unseen cards, shuffled; drawn from the end).

    The stock's shuffle is a Fisher–Yates over ``rng.random()`` (as ``engine.cards.shuffle``), never
    ``random.shuffle``: only ``random()``'s sequence is promised across Python versions, so a seed gives the same
    worlds, hence the same moves, on every version."""
    keyed = sorted(reading.unseen, key=lambda i: -(rng.random() ** (1.0 / reading.weight[i])))
    hidden = keyed[: reading.hidden]
    stock = _shuffled(rng, keyed[reading.hidden :])
    opp = reading.known
    for i in hidden:
        opp |= 1 << i
    return opp, stock
