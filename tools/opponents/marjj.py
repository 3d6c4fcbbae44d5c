"""``marjj``: a port of the public Java Gin Rummy bot MARJJ v5, a benchmark-only opponent. Rule: VIS-2.

Provenance: ``aqibahm/MARJJ`` on GitHub, file ``MARJJ_v5-1.java`` (class ``MARJJ_v5``, a ``GinRummyPlayer`` of the
EAAI Gin Rummy challenge's host ``tneller/gin-rummy-eaai``), at commit 5d1f00c1dff5380021785c8146d039a11efcabc3
(2020-09-21, the repository's only commit). The repository carries no licence, so this port ships in no wheel
(``tools/`` is outside the packages) and is offered to no player: it is an opponent for benchmarks only. Whether
this file is the binary MARJJ submitted to the EAAI-2021 challenge is not established.

The algorithm, as the Java code has it (its class comments are not always what the code does):

- **hand knowledge** (``GameState``): the cards it has *seen* (its own cards, every card it was offered face up,
  the opponent's discards) and the cards the opponent has *picked up* face up this hand (kept after he discards
  them again);
- **draw** (``willDrawFaceUpCard``): take the face-up card when it is part of a meld of the chosen best meld set
  of the eleven cards with it (``getBestMeld``, below) and the best deadwood after taking it and discarding is
  strictly below the present deadwood; otherwise draw from the stock;
- **discard** (``getDiscard``): the candidates are the cards outside some minimum-deadwood meld set, within 5
  points of the dearest such card (``getUnmeldedCards``; a single candidate, or one leaving gin, is discarded
  at once); each is scored ``myEV + oppEV``, the least score wins, ties at random:
  ``myEV`` = deadwood after the discard + 18 x (the mean of the 7 lowest best-deadwoods over every unseen card
  drawn next) x 0.9^(turn - 1) (``getFutureDeadwoodImprovement``: future-card weighting that fades with the
  turns); ``oppEV`` is a danger model (``getOpponentDeadwoodImprovement``): bonuses when the suited neighbours
  (one and two ranks away) or the other cards of the rank are gone (seen, or held), penalties when the opponent
  picked them up — run -10 / +20, adjacent -5 / +5, two away -3 / +3, set -10 / +20, rank -4 / +4;
- **knock** (``getFinalMelds``): in its first three turns of a hand whenever the deadwood allows it; from the
  fourth turn on only for gin;
- **melds** (knocker and defender, ``getBestMeld``): among the minimum-deadwood meld sets, the first (in the
  Java's order, ``GinRummyUtil.cardsToBestMeldSets``) of least "layoff points": for a run, the value of each end
  card whose outer neighbour the opponent picked up or it has not seen; for a set, the value of each card whose
  next suit (Java order C H S D) of the rank is so; the defender's layoffs are the EAAI game's
  (``knock.bots.simple.game_layoffs``).

Constants as in the Java: ``SEQUENCE_BONUS`` -10, ``ADJ_BONUS`` -5, ``ADJ2_BONUS`` -3, ``SEQUENCE_PENALTY`` 20,
``ADJ_PENALTY`` 5, ``ADJ2_PENALTY`` 3, ``SET_BONUS`` -10, ``RANK_BONUS`` -4, ``SET_PENALTY`` 20, ``RANK_PENALTY``
4, ``INIT_WEIGHT`` 18, ``DECAY`` 0.9, ``MAX_CARDS_TO_CONSIDER`` 7, ``MAX_DEADWOOD_DIFFERENCE`` 5, early knocks in
turns 1 to 3. The Java's own slips are kept: past a queen the "second higher" test marks the *adjacent* higher
card gone; the same-rank count includes the card itself; ``RANK_PENALTY`` applies when no *other* card of the rank
is gone (not when the opponent holds one); a card the opponent picked up stays his after he discards it.
The file's unused code (``hasPair``, ``hasPossibleStraight``, ``cardsCannotMeld1/2``, ``getDifferenceInDeadwood``,
``avgDeadwood``, ``numCardsToMakeGin``, ``opponentCanMakeMeld``, the pile count) is not ported.

Checked against the Java itself (compiled with the host's classes and fed each game's reports, outside this
repository): over 300 games against ``simple`` under the EAAI options, every one of 15,789 draw choices, 14,845
knock choices and 380 spreads agreed, and 14,838 of 14,845 discards (the other 7: a choice among several gin
discards, difference 4) and 1,815 of 1,818 defences (the other 3: difference 2, each agreeing once the knock
discard is counted seen); a discard agrees when the Java's card is among the port's ties, as many as the Java's.

Differences forced by Knock's rules and observation:

1. Knock tells a bot its cards, the discard pile, and the opponent's picks he still holds, not the stream of
   reports the Java player gets; the bot rebuilds the Java's ``GameState`` per hand from its observations:
   *seen* is every card it held and every card in the discard pile at any of its decisions (the upcard counts
   only when it was offered it, as in the Java: when the non-dealer takes it, the dealer never sees it in the
   pile); *picked up* is every card ever among the opponent's known cards; *turns* counts its discards. A bot made
   in the middle of a hand knows only what it saw since. Under ``may_discard_taken_card`` a card the opponent
   takes and discards in one turn is not counted as picked up (the EAAI game forbids that discard).
2. The knocker's discard goes face down in Knock (LAY-7); the Java is told it. The defender's ``getBestMeld`` tie
   break therefore counts it unseen.
3. The Java knocks early at deadwood under 11 (the EAAI limit, 10); Knock's limit is the rule set's
   (``knock_limit``; Oklahoma: the upcard's), so the early knock is at deadwood up to that limit. Gin from turn 4.
4. The Java keeps its cards in the order the game dealt and drew them; Knock's hand is a set, so the discard
   candidates are taken in Knock's card order. This decides only which of several gin discards is made (the
   first) and how a tie is broken (at random, from the bot's own ``random.Random(seed)``, not Java's unseeded
   ``Random``). The order of the best meld sets, which decides ``getBestMeld``'s ties, is the Java's exactly: its
   breadth-first search over the maximal meld sets is reproduced (``java_best_meld_sets``).
5. The defender's layoffs are the EAAI game's, not the player's (as ``simple``, its difference 2); onto
   Knock's canonical order of the knocker's melds.
6. A card Knock does not let it discard is excluded where the Java excludes the face-up card just taken (TURN-4):
   under the 50th-card rule (DEAD-2) a seat that must knock chooses among its knock discards only, and then
   knocks. Under ``wall_pickup_to_knock`` the last discard is taken by the face-up rule when the pickup is legal.
   Big gin (KNOCK-6) is never declared (the Java discards and goes gin with ten cards).
7. The unseen cards it weighs are those of the rule set's deck (the Java's is always 52 cards).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.actions import (
    Action,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    PassUpcard,
    Spread,
    TakeUpcard,
    shown_mask,
)
from engine.cards import DECK, Card, from_mask, to_mask
from engine.melds import Meld, deadwood, knock_deadwood, value
from engine.visibility import Observation
from knock.bots.simple import JAVA_SUITS, game_layoffs, java_order

__all__ = [
    "Knowledge",
    "MarjjBot",
    "best_meld",
    "candidates",
    "discard_choices",
    "future_ev",
    "java_best_meld_sets",
    "opponent_ev",
    "wants_to_knock",
    "will_draw",
]

SEQUENCE_BONUS = -10.0
ADJ_BONUS = -5.0
ADJ2_BONUS = -3.0
SEQUENCE_PENALTY = 20.0
ADJ_PENALTY = 5.0
ADJ2_PENALTY = 3.0
SET_BONUS = -10.0
RANK_BONUS = -4.0
SET_PENALTY = 20.0
RANK_PENALTY = 4.0
INIT_WEIGHT = 18.0
DECAY = 0.9
MAX_CARDS_TO_CONSIDER = 7
MAX_DEADWOOD_DIFFERENCE = 5
EARLY_KNOCK_TURNS = 3  #: ``turns < 4``: it knocks whenever it may in its first three turns, later only for gin

#: The cards by their Java id (``Card.getId``: suit-major in C H S D, ace to king).
JAVA_CARDS: tuple[Card, ...] = tuple(sorted(DECK, key=java_order))


def _jbit(jid: int) -> int:
    """The Knock bit of the card with Java id ``jid``."""
    return JAVA_CARDS[jid].bit


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The Java's ``GameState`` for one hand: the cards seen, and those the opponent picked up face up (ever)."""

    seen: int = 0
    picked: int = 0


def _java_meld_lists() -> tuple[tuple[int, ...], ...]:
    """``GinRummyUtil``'s meld table as Knock masks, in its order: for each suit (C H S D) and each start rank the
    runs from it by length; then for each rank the sets of three (without C, H, S, D) and the set of four."""
    lists: list[tuple[int, ...]] = []
    for suit in JAVA_SUITS:
        base = suit * 13
        for start in range(11):
            mask = 1 << (base + start) | 1 << (base + start + 1)
            runs = []
            for rank in range(start + 2, 13):
                mask |= 1 << (base + rank)
                runs.append(mask)
            lists.append(tuple(runs))
    for rank in range(13):
        four = [1 << (suit * 13 + rank) for suit in JAVA_SUITS]
        for skip in range(5):
            lists.append((sum(b for s, b in enumerate(four) if s != skip),))
    return tuple(lists)


_MELD_LISTS = _java_meld_lists()


def java_melds(hand: int) -> list[int]:
    """Every meld within the cards, in the Java's order (``cardsToAllMeldBitstrings``). Rules: MELD-1, MELD-2."""
    out = []
    for runs in _MELD_LISTS:
        for meld in runs:
            if meld & hand != meld:
                break
            out.append(meld)
    return out


def java_best_meld_sets(hand: int) -> list[tuple[int, ...]]:
    """The minimum-deadwood meld sets of the cards (meld masks), in the Java's order (``cardsToBestMeldSets``):
    its breadth-first search over sets of melds, level by level, each set taken at its first appearance, its
    children in meld order; the maximal sets in the order they close. Empty when the cards hold no meld. Rule:
    MELD-4."""
    melds = java_melds(hand)
    best: list[tuple[int, ...]] = []
    low = 1 << 30
    level: list[tuple[int, ...]] = [(i,) for i in range(len(melds))]
    while level:
        following: list[tuple[int, ...]] = []
        queued: set[tuple[int, ...]] = set()
        for chosen in level:
            used = 0
            for i in chosen:
                used |= melds[i]
            maximal = True
            for i, meld in enumerate(melds):
                if i not in chosen and not meld & used:
                    maximal = False
                    child = tuple(sorted((*chosen, i)))
                    if child not in queued:
                        queued.add(child)
                        following.append(child)
            if maximal:
                dw = value(hand & ~used)
                if dw <= low:
                    if dw < low:
                        low, best = dw, []
                    best.append(tuple(melds[i] for i in chosen))
        level = following
    return best


def _gone_or_picked(jid: int, known: Knowledge) -> bool:
    """The Java's ``opponentHasCard(id) || !hasBeenSeen(id)``: a card the opponent might lay off."""
    bit = _jbit(jid)
    return bool(known.picked & bit) or not known.seen & bit


def layoff_points(melds: tuple[int, ...], known: Knowledge) -> int:
    """``getBestMeld``'s score of a meld set: the points the opponent might lay off onto it, as the Java counts
    them (a run's end cards' values, a set's cards' values when the next suit of the rank might be his)."""
    points = 0
    for meld in melds:
        cs = sorted(from_mask(meld), key=java_order)  # bitstringToCards: by Java id
        if cs[0].suit == cs[1].suit:
            low, high = cs[0], cs[-1]
            if low.rank > 1 and _gone_or_picked(java_order(low) - 1, known):
                points += low.value
            if high.rank < 13 and _gone_or_picked(java_order(high) + 1, known):
                points += high.value
        else:
            for c in cs:
                if _gone_or_picked((java_order(c) + 13) % 52, known):
                    points += c.value
    return points


def best_meld(sets: Sequence[tuple[int, ...]], known: Knowledge) -> tuple[int, ...]:
    """``getBestMeld``: the first of the meld sets with the fewest layoff points (``sets`` is not empty)."""
    if len(sets) == 1:
        return sets[0]
    chosen, low = 0, 1 << 62
    for i, melds in enumerate(sets):
        points = layoff_points(melds, known)
        if points < low:
            low, chosen = points, i
    return sets[chosen]


def will_draw(hand: int, card: Card, known: Knowledge) -> bool:
    """``willDrawFaceUpCard``: the card is in a meld of the chosen best meld set of the hand with it, and taking
    it lowers the best deadwood after a discard below the present deadwood. Rules: MELD-4, MELD-5."""
    more = hand | card.bit
    sets = java_best_meld_sets(more)
    if not sets:
        return False
    return any(meld & card.bit for meld in best_meld(sets, known)) and knock_deadwood(more) < deadwood(hand)


def candidates(hand: int, allowed: int) -> list[tuple[Card, int]]:
    """``getUnmeldedCards`` (``MAX_DEADWOOD_DIFFERENCE`` 5): the discards ``getDiscard`` weighs, each with the
    deadwood it leaves (-1 when there is one candidate: the Java does not compute it then). ``allowed``: the cards
    that may be discarded (the Java excludes the face-up card just taken). Rules: MELD-4, TURN-4."""
    sets = java_best_meld_sets(hand)
    held = [c for c in from_mask(hand) if allowed & c.bit]
    if not sets:
        include = held
    else:
        covers = [sum(s) for s in sets]  # the melds of a set are disjoint: the sum is their union
        include = [c for c in held if any(not cover & c.bit for cover in covers)]
    biggest = max((c.value for c in include), default=0)
    include = [c for c in include if c.value >= biggest - MAX_DEADWOOD_DIFFERENCE]
    if len(include) == 1:
        return [(include[0], -1)]
    if not include:
        include = held
    stats: list[tuple[Card, int]] = []
    lowest = 1 << 30
    for c in include:
        dw = deadwood(hand ^ c.bit)
        if dw == 0:  # gin: the first such card
            return [(c, 0)]
        lowest = min(lowest, dw)
        stats.append((c, dw))
    return [(c, dw) for c, dw in stats if dw <= lowest + MAX_DEADWOOD_DIFFERENCE]


def future_ev(hand: int, card: Card, left: int, unseen: Sequence[Card], turns: int) -> float:
    """``getFutureDeadwoodImprovement`` for one discard: the deadwood it leaves (``left``) plus 18 x the mean of
    the 7 lowest best-deadwoods after drawing each unseen card (and discarding) x 0.9^(turns - 1). Rule: MELD-5."""
    rest = hand ^ card.bit
    possible = sorted(knock_deadwood(rest | c.bit) for c in unseen)[:MAX_CARDS_TO_CONSIDER]
    average = 0.0
    for dw in possible:
        average += dw
    if possible:
        average /= len(possible)
    return left + INIT_WEIGHT * average * DECAY ** (turns - 1)


def _where(jid: int, mine: int, known: Knowledge) -> tuple[bool, bool]:
    """(the opponent picked it up, else it is gone: held by this seat or seen) for the card of Java id ``jid``."""
    bit = _jbit(jid)
    if known.picked & bit:
        return True, False
    return False, bool((mine | known.seen) & bit)


def opponent_ev(card: Card, mine: int, known: Knowledge) -> float:
    """``getOpponentDeadwoodImprovement`` for one discard: the danger model's bonuses and penalties, the Java's
    slips kept (see the module's docstring). ``mine``: the cards held (eleven)."""
    jid, rank = java_order(card), card.rank - 1
    opp_high = gone_high = opp_low = gone_low = False
    opp_high2 = gone_high2 = opp_low2 = gone_low2 = False
    if rank < 12:
        opp_high, gone_high = _where(jid + 1, mine, known)
    else:
        gone_high = True
    if rank > 0:
        opp_low, gone_low = _where(jid - 1, mine, known)
    else:
        gone_low = True
    if rank < 11:
        opp_high2, gone_high2 = _where(jid + 2, mine, known)
    else:
        gone_high = True  # the Java's slip: not gone_high2
    if rank > 1:
        opp_low2, gone_low2 = _where(jid - 2, mine, known)
    else:
        gone_low2 = True
    opp_rank = gone_rank = 0
    for suit in range(4):  # the card itself included: it is held
        opp, gone = _where(rank + suit * 13, mine, known)
        opp_rank += opp
        gone_rank += gone
    ev = 0.0
    if (gone_high and (gone_low or gone_low2)) or (gone_low and (gone_high or gone_high2)):
        ev += SEQUENCE_BONUS
    else:
        ev += ADJ_BONUS * (gone_low + gone_high) + ADJ2_BONUS * (gone_low2 + gone_high2)
    if (opp_high and (opp_low or opp_low2)) or (opp_low and (opp_high or opp_high2)):
        ev += SEQUENCE_PENALTY
    else:
        ev += ADJ_PENALTY * (opp_low + opp_high) + ADJ2_PENALTY * (opp_low2 + opp_high2)
    if gone_rank >= 3:
        ev += SET_BONUS
    elif gone_rank == 2:
        ev += RANK_BONUS
    if opp_rank >= 2:
        ev += SET_PENALTY
    elif gone_rank == 1:
        ev += RANK_PENALTY
    return ev


def discard_choices(hand: int, allowed: int, known: Knowledge, turns: int, deck: Sequence[Card]) -> list[Card]:
    """``getDiscard``'s choice before its random pick: the candidates (``candidates``) of least ``myEV + oppEV``,
    or the one candidate it discards at once. ``turns`` counts this discard; ``deck``: the rule set's cards.
    Rules: MELD-4, TURN-4."""
    stats = candidates(hand, allowed)
    if len(stats) == 1:
        return [stats[0][0]]
    unseen = from_mask(to_mask(deck) & ~known.seen)
    ties: list[Card] = []
    low = float("inf")
    for card, left in stats:
        score = future_ev(hand, card, left, unseen, turns) + opponent_ev(card, hand, known)
        if score < low:
            low, ties = score, []
        if score == low:
            ties.append(card)
    return ties


def wants_to_knock(rest: int, turns: int, limit: int) -> bool:
    """The knocker's ``getFinalMelds`` after its discard: in its first three turns whenever the ten cards left
    may knock (the rule set's limit; the Java's is 10), later only for gin. Rules: KNOCK-2, KNOCK-5."""
    dw = deadwood(rest)
    if dw <= limit and turns <= EARLY_KNOCK_TURNS:
        return True
    return dw == 0


def _melds(masks: tuple[int, ...]) -> tuple[Meld, ...]:
    return tuple(Meld.of(from_mask(m)) for m in masks)


class MarjjBot:
    """MARJJ v5, ported from the Java (see the module's docstring for its provenance and the differences).

    It keeps, per hand, the Java's knowledge (``Knowledge``) and its count of turns; its random tie breaks come
    from its own ``random.Random(seed)``.
    """

    name = "marjj"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._hand_key: tuple[object, ...] | None = None
        self._stock = 0
        self.known = Knowledge()
        self.turns = 0

    def _follow(self, obs: Observation) -> None:
        """Start a new hand's memory when the observation is of another hand than the last one seen; then add
        what this observation shows: its cards and the discard pile seen, the opponent's picks."""
        key = (obs.seat, obs.dealer, obs.upcard, obs.knock_limit, obs.rules, obs.scores)
        if key != self._hand_key or obs.stock_size > self._stock:
            self._hand_key, self.known, self.turns = key, Knowledge(), 0
        self._stock = obs.stock_size
        k = self.known
        seen = k.seen | to_mask(obs.hand) | to_mask(obs.discard_pile)
        self.known = replace(k, seen=seen, picked=k.picked | to_mask(obs.opponent_known))

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        self._follow(obs)
        mask = to_mask(obs.hand)
        first = legal[0]
        if isinstance(first, Spread):
            return self._spread(obs, mask, legal)
        if isinstance(first, LayOff):
            return self._defend(obs, mask, legal)
        takes = [a for a in legal if isinstance(a, TakeUpcard | DrawDiscard)]
        declines = [a for a in legal if isinstance(a, PassUpcard | DrawStock | DeclineWall)]
        if takes and declines:
            return takes[0] if will_draw(mask, obs.discard_pile[-1], self.known) else declines[0]
        if takes or declines:
            return (takes or declines)[0]
        return self._discard(obs, mask, legal)

    def _discard(self, obs: Observation, mask: int, legal: Sequence[Action]) -> Action:
        """``getDiscard``, then the knocker's ``getFinalMelds``: knock with the card when it wants to."""
        self.turns += 1
        knocks = {a.card: a for a in legal if isinstance(a, Knock)}
        discards = {a.card: a for a in legal if isinstance(a, Discard)}
        ties = discard_choices(mask, to_mask(knocks) | to_mask(discards), self.known, self.turns, obs.rules.deck)
        card = ties[0] if len(ties) == 1 else ties[int(self._rng.random() * len(ties))]
        if card in knocks and (card not in discards or wants_to_knock(mask ^ card.bit, self.turns, obs.knock_limit)):
            return knocks[card]
        return discards[card]

    def _spread(self, obs: Observation, mask: int, legal: Sequence[Action]) -> Action:
        """The knocker's melds (``getFinalMelds``: ``getBestMeld`` of its best meld sets). Rules: KNOCK-4, MELD-4."""
        sets = java_best_meld_sets(mask)
        answer = Spread(obs.seat, _melds(best_meld(sets, self.known)) if sets else ())
        if answer in legal:
            return answer
        return min(legal, key=lambda a: value(mask & ~shown_mask(a)))  # not reached under the EAAI rules

    def _defend(self, obs: Observation, mask: int, legal: Sequence[Action]) -> Action:
        """The defender's ``getFinalMelds`` (``getBestMeld`` of its best meld sets), then the EAAI game's layoffs
        onto the spread (none after gin). Rules: LAY-1, LAY-2, LAY-5."""
        assert obs.spread is not None
        sets = java_best_meld_sets(mask)
        melds = best_meld(sets, self.known) if sets else ()
        melded = sum(melds)
        gin = obs.spread.deadwood == 0
        layoffs = () if gin else game_layoffs(mask & ~melded, obs.spread.melds)
        answer = LayOff(obs.seat, _melds(melds), layoffs)
        if answer in legal:
            return answer
        return min(legal, key=lambda a: value(mask & ~shown_mask(a)))  # not reached under the EAAI rules
