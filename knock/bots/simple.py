"""``simple``: a port of the EAAI Gin Rummy challenge's public baseline, ``SimpleGinRummyPlayer``. Rule: VIS-2.

The port follows the Java code of ``tneller/gin-rummy-eaai`` (at 559c712), not its class comment:

- **draw**: take the face-up card only if it would be part of a meld (any run or set of the hand with it);
  otherwise draw from the stock;
- **discard**: at random (its own seeded generator) among the cards whose discard leaves the least deadwood,
  never the face-up card just taken, and never a card that repeats an earlier draw/discard pair of this hand
  (the pair is a set of two cards, as the Java's bitstrings: drawing A and discarding B also bars drawing B and
  discarding A later);
- **knock** as soon as the hand left after that discard may knock (and holds at least one meld);
- **spread** (knocker) and own melds (defender): at random among the minimum-deadwood meld sets of its cards;
- **layoffs** (defender): those the Java *game* makes for every player (``GinRummyGame``): its unmelded cards in
  the Java's card order (clubs, hearts, spades, diamonds; ace to king), each onto the first of the knocker's melds
  it extends, repeated until none fits.

Differences forced by Knock's rules (also in ``docs/bots.md``):

1. Knock's knock limit is the rule set's (``knock_limit``; Oklahoma: the upcard's), not the Java's fixed 10.
2. In the EAAI game the layoffs are the game's, not the player's; in Knock the defender chooses them (LAY-5),
   so the bot makes the game's choice itself. The knocker's melds are taken in Knock's canonical order (the
   Java game takes them in the knocker's own list order), which can change which meld a card that fits two goes
   onto; the Java loop is otherwise followed exactly.
3. Rules the EAAI game does not have: under ``wall_pickup_to_knock`` (DEAD-2) the last discard is taken when it
   would be part of a meld and the pickup is legal (Knock lists it only when the seat can then knock); when the
   bot must knock (DEAD-2) it discards among the knock discards only; big gin (KNOCK-6) is never declared (the
   Java discards and goes gin with ten cards); under ``may_discard_taken_card`` it still keeps the card taken,
   as the Java does.
4. Knock tells a bot its cards, not which card it drew from the stock; the bot remembers its cards between its
   own decisions of a hand to know it (as the Java player is told the draw). A bot made in the middle of a
   hand does not know its earlier draws: it bars no pair it did not see.
5. Should every card be barred (Java: an exception, on states its game never reaches), the repeat rule is
   dropped for that discard.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

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
from engine.cards import Card, from_mask, to_mask
from engine.melds import Meld, arrangements, deadwood, melds_with, value
from engine.rules import NextDealer, RuleSet
from engine.showdown import Layoff
from engine.visibility import Observation

#: The EAAI challenge's game (``GinRummyGame``, ``GinRummyUtil``) from the standard rules' options: an undercut
#: earns 25, and the first player alternates after each hand with a winner and stays after a dead hand (MATCH-4,
#: MATCH-5); gin 25, to 100, a knock limit of 10, the dead hand at two cards left (DEAD-1), the card taken kept
#: (TURN-4) and a tie an undercut (SCORE-3) are the defaults. On the command line:
#: ``--set undercut_bonus=25 --set next_dealer=alternate``.
EAAI_OPTIONS: dict[str, object] = {"undercut_bonus": 25, "next_dealer": NextDealer.ALTERNATE.value}
EAAI_RULES = RuleSet.preset("standard", **EAAI_OPTIONS)

#: The Java's suit order (``Card.suitNames``: C H S D) as Knock's suit indices (c d h s): its card ids' order.
JAVA_SUITS = (0, 2, 3, 1)


def java_order(card: Card) -> int:
    """The card's id in the Java base code (``Card.getId``: suit-major in C H S D, ace to king)."""
    return JAVA_SUITS.index(int(card.suit)) * 13 + card.rank - 1


def would_meld(mask: int, card: Card) -> bool:
    """Whether ``card`` added to the cards of ``mask`` is part of some meld of them (``willDrawFaceUpCard``).
    Rules: MELD-1, MELD-2."""
    return melds_with(mask, card.index)


def discard_candidates(
    mask: int, drawn: Card | None, taken: Card | None, pairs: frozenset[int], allowed: int | None = None
) -> list[Card]:
    """The cards ``getDiscard`` chooses among, in card order: of the cards held (within ``allowed``, when the
    rules restrict the discards), those leaving the least deadwood, except the face-up card just taken
    (``taken``) and any card that with ``drawn`` makes a pair of ``pairs`` (two-card masks, or one card when it
    is the card drawn). Empty when every card is barred. Rule: MELD-4."""
    best: list[Card] = []
    low = 1 << 30
    for card in from_mask(mask if allowed is None else mask & allowed):
        if taken is not None and card == taken:
            continue
        if drawn is not None and (drawn.bit | card.bit) in pairs:
            continue
        dw = deadwood(mask ^ card.bit)
        if dw < low:
            low, best = dw, []
        if dw == low:
            best.append(card)
    return best


def best_meld_sets(mask: int) -> list[tuple[Meld, ...]]:
    """Every minimum-deadwood set of melds of the cards (``cardsToBestMeldSets``), in Knock's order; empty when
    the cards hold no meld, as the Java's. Rule: MELD-4."""
    low = deadwood(mask)
    sets = [a.melds for a in arrangements(mask, low) if a.deadwood == low]
    return [] if sets == [()] else sets


def game_layoffs(unmelded: int, targets: Sequence[Meld]) -> tuple[Layoff, ...]:
    """The layoffs the EAAI game makes for the defender (``GinRummyGame.play``): its unmelded cards in the Java's
    card order, each onto the first target meld it extends (targets grow as cards go onto them), until none fits.
    Rules: LAY-3, LAY-4."""
    extra: list[tuple[Card, ...]] = [() for _ in targets]  # the cards laid onto each target so far
    left = sorted(from_mask(unmelded), key=java_order)
    out: list[Layoff] = []
    laid = True
    while laid:
        laid = False
        for card in left:
            at = next((i for i, m in enumerate(targets) if m.fits((*extra[i], card))), None)
            if at is not None:
                out.append(Layoff(card, targets[at]))
                extra[at] += (card,)
                left.remove(card)
                laid = True
                break
    return tuple(out)


class SimpleBot:
    """The EAAI challenge's ``SimpleGinRummyPlayer``, ported (see the module's docstring for the differences).

    It keeps, per hand, its cards at its last decision and the draw/discard pairs it has made; its random
    choices come from its own ``random.Random(seed)``.
    """

    name = "simple"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)
        self._hand_key: tuple[object, ...] | None = None
        self._stock = 0
        self._before: int | None = None  #: its cards when it last chose a draw
        self._pairs: set[int] = set()

    def _pick(self, options: Sequence[Action]) -> Action:
        return options[int(self._rng.random() * len(options))]

    def _follow(self, obs: Observation) -> None:
        """Start a new hand's memory when the observation is of another hand than the last one seen."""
        key = (obs.seat, obs.dealer, obs.upcard, obs.knock_limit, obs.rules)
        if key != self._hand_key or obs.stock_size > self._stock:
            self._hand_key, self._before, self._pairs = key, None, set()
        self._stock = obs.stock_size

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        self._follow(obs)
        mask = to_mask(obs.hand)
        first = legal[0]
        if isinstance(first, Spread):
            low = min(value(mask & ~shown_mask(a)) for a in legal)
            return self._pick([a for a in legal if value(mask & ~shown_mask(a)) == low])
        if isinstance(first, LayOff):
            return self._defend(obs, mask, legal)
        takes = [a for a in legal if isinstance(a, TakeUpcard | DrawDiscard)]
        declines = [a for a in legal if isinstance(a, PassUpcard | DrawStock | DeclineWall)]
        if takes or declines:
            self._before = mask
            if takes and declines:
                return takes[0] if would_meld(mask, obs.discard_pile[-1]) else declines[0]
            return (takes or declines)[0]
        return self._discard(obs, mask, legal)

    def _discard(self, obs: Observation, mask: int, legal: Sequence[Action]) -> Action:
        """``getDiscard``, then ``getFinalMelds``: knock with the card when the hand it leaves may knock."""
        drawn = obs.taken
        if drawn is None and self._before is not None and (mask & ~self._before).bit_count() == 1:
            drawn = from_mask(mask & ~self._before)[0]
        knocks = {a.card: a for a in legal if isinstance(a, Knock)}
        discards = {a.card: a for a in legal if isinstance(a, Discard)}
        allowed = to_mask(knocks) | to_mask(discards)
        options = discard_candidates(mask, drawn, obs.taken, frozenset(self._pairs), allowed)
        if not options:  # difference 5: every card barred by the repeat rule
            options = discard_candidates(mask, None, obs.taken, frozenset(), allowed)
        if not options:  # only the card taken may go (DEAD-2's forced knock under may_discard_taken_card)
            options = discard_candidates(mask, None, None, frozenset(), allowed)
        card = options[int(self._rng.random() * len(options))]
        if drawn is not None:
            self._pairs.add(drawn.bit | card.bit)
        self._before = None
        rest = mask ^ card.bit
        if card in knocks and (deadwood(rest) < value(rest) or card not in discards):  # a meld to spread
            return knocks[card]
        return discards[card]

    def _defend(self, obs: Observation, mask: int, legal: Sequence[Action]) -> Action:
        """The defender's ``getFinalMelds`` (a random minimum-deadwood meld set of its own cards), then the
        EAAI game's layoffs onto the spread (none after gin). Rules: LAY-1, LAY-2, LAY-5."""
        assert obs.spread is not None
        sets = best_meld_sets(mask) or [()]
        melds = sets[int(self._rng.random() * len(sets))]
        melded = 0
        for m in melds:
            melded |= m.mask
        gin = deadwood_of_spread(obs) == 0
        layoffs = () if gin else game_layoffs(mask & ~melded, obs.spread.melds)
        answer = LayOff(obs.seat, melds, layoffs)
        assert answer in legal, f"the EAAI game's answer {answer} is not legal here"
        return answer


def deadwood_of_spread(obs: Observation) -> int:
    """The knocker's deadwood as the spread shows it (the cards it leaves unmelded). Rule: KNOCK-5."""
    assert obs.spread is not None
    return obs.spread.deadwood
