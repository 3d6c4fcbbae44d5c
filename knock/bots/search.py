"""``SearchBot``: determinized Monte-Carlo search over worlds sampled from the seat's view. Rule: VIS-2.

At each draw and discard decision the bot reads what it may infer of the hidden cards (``knock.bots.inference``),
samples worlds (the opponent's cards and the stock's order) and, in each world, plays every candidate action
out to the end of the hand with fast policies over bitmasks (``knock.bots.rollout.Rollout``): the seat's own as its
first choices are made (the heuristic bot's measures: partial melds kept, holding on for gin when close early),
the opponent's modelled on the public baseline (a discard taken when it melds, knock as soon as one may). The
same worlds serve every candidate (common random numbers), so candidates are compared on the same luck. The
candidate with the best mean outcome is played.

- **Candidates**: at a draw, taking the card against the stock; at a discard, the ``width`` discards the
  heuristic ranks best (deadwood less its partial melds that live cards could complete) and every knock, with
  the plain discard of the best knock card (holding on for gin, or for a better knock, is then a candidate).
- **Outcome**: the hand's points from the bot's side (won positive, lost negative): gin and undercut bonuses,
  the defender's best layoffs onto the knocker's spread (``engine.showdown.best_defence``), so a knock's
  undercut risk is weighed over the worlds; a dead hand is 0. In a two-player game (the observation carries
  its scores, ``Match.observation``) the points are weighed by what they do to the chance of winning the game
  (``knock.bots.winprob.PointsValue``, in points of the current standing): near the end a knock that reaches the
  target is worth more than its points, and a loss when the opponent needs only a few points costs the game
  whatever its size.
- **Budget**: ``budget`` rollouts a decision (worlds = budget / candidates, at least one); a budget of 0
  searches nothing and plays the heuristic bot's moves (the ``hard`` level). The generator is seeded from the
  bot's seed and the observation (``zlib.crc32`` of its cards and counts: never the time nor ``hash()``), so a
  seed gives the same moves in every process. ``time_limit`` (seconds, off by default) is only a safety cap:
  it stops sampling early, and then the move depends on the machine's speed.

Showdown decisions (spread, layoffs) are the heuristic's exact ones (``showdown_choice``); the last discard
under the 50th-card rule (DEAD-2) is the heuristic's.
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import (
    Action,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    PassUpcard,
    Spread,
    TakeUpcard,
)
from engine.cards import to_mask
from engine.fsm import Phase
from engine.melds import deadwood
from engine.visibility import Observation
from knock.bots.heuristic import HeuristicBot, potential, showdown_choice
from knock.bots.inference import Reading, read, sample_worlds
from knock.bots.rollout import BITS, Rollout, holds_for_gin
from knock.bots.winprob import PointsValue


@dataclass(frozen=True)
class Level:
    """A search level's fixed budget: ``budget`` rollouts a decision over ``width`` discard candidates;
    ``margin``, the points a hand (on the mean over the worlds) by which a candidate must beat the heuristic's
    choice to replace it. With few worlds and no margin the bot follows the noise of its rollouts, which is what
    makes the low levels weak. A budget of 0 searches nothing: the heuristic bot's own moves."""

    budget: int
    width: int
    margin: float


#: The levels, weakest first (docs/bots.md: ``easy`` < ``medium`` < ``hard`` measured; ``hard`` < ``expert`` is
#: the acceptance run against the heuristic bot): ``easy`` and ``medium`` follow the luck of a few worlds,
#: ``hard`` is the heuristic bot's play (no search), ``expert`` searches.
LEVELS: dict[str, Level] = {
    "easy": Level(12, 4, 0.0),
    "medium": Level(40, 3, 1.0),
    "hard": Level(0, 1, 0.0),
    "expert": Level(240, 5, 3.0),
}


#: The time a draw's observation comes up again in a hand when the bot draws from the stock to end a cycle of
#: trades through the discard pile (``SearchBot._repeats``).
CYCLE_REPEATS = 3


class SearchBot:
    """Determinized Monte-Carlo search (see the module's docstring): ``budget`` rollouts a decision over
    ``width`` discard candidates; a budget of 0 plays the heuristic bot's moves. Seeded; the same seed and
    observations give the same moves."""

    def __init__(
        self,
        budget: int = 240,
        width: int = 5,
        seed: int = 0,
        *,
        name: str = "search",
        margin: float = 3.0,
        time_limit: float | None = None,
    ) -> None:
        self.name = name
        self.budget = max(0, budget)
        self.width = max(1, width)
        self.seed = seed
        self.time_limit = time_limit
        self.margin = margin
        #: How often each draw's observation has come up in this hand (``_repeats``), and the stock's size then.
        self._seen: dict[tuple[object, ...], int] = {}
        self._stock = 0
        #: The last search's first candidate, its best one and the best one's lead over the first (points a
        #: world), for measuring the search (``tools/research/search_parts.py --deviations``); None when the last move
        #: was not searched.
        self.last_search: tuple[Action, Action, float] | None = None

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        self.last_search = None
        if not self.budget:
            return HeuristicBot().choose(obs, legal)
        first = legal[0]
        if len(legal) == 1:
            return first
        if isinstance(first, Spread | LayOff):
            return showdown_choice(obs, legal)
        big = [a for a in legal if isinstance(a, BigGin)]
        if big:
            return big[0]
        if obs.phase is Phase.WALL or obs.must_knock or any(isinstance(a, DeclineWall) for a in legal):
            return HeuristicBot().choose(obs, legal)
        if isinstance(first, DrawStock) and self._repeats(obs) >= CYCLE_REPEATS:
            return first  # the same cards traded through the discard pile again and again: the stock (DEAD-3)
        if isinstance(first, PassUpcard | DrawStock | TakeUpcard | DrawDiscard):
            usual = HeuristicBot().choose(obs, legal)
            return self._search(obs, legal, [usual, *(a for a in legal if a != usual)])
        return self._search(obs, legal, self._discard_candidates(obs, legal))

    def _repeats(self, obs: Observation) -> int:
        """How many times this draw's observation has now come up in the hand. Two seats that both take each
        other's discards can trade the same cards for ever, the stock never drawn (DEAD-3 without a cap); the
        observation then comes back unchanged, and a bot that is a function of it would repeat its moves: at
        the ``CYCLE_REPEATS``-th time the bot draws from the stock instead. (A bot made afresh for each move, as
        at the web tables, remembers nothing; only the opponent's taking can then end such a trade.)"""
        if obs.stock_size > self._stock or len(self._seen) > 256:  # a new hand, or a long one
            self._seen.clear()
        self._stock = obs.stock_size
        key = (obs.seat, obs.hand, obs.discard_pile, obs.opponent_known, obs.stock_size)
        self._seen[key] = self._seen.get(key, 0) + 1
        return self._seen[key]

    def _discard_candidates(self, obs: Observation, legal: Sequence[Action]) -> list[Action]:
        """A knock (the least deadwood) against holding on with the same discard, the heuristic's choice first
        (it holds on for gin with 1 to 3 deadwood early in the hand); else the ``width`` discards the
        heuristic's measure ranks best (deadwood less its partial melds that live cards could complete), the
        best first."""
        mask = to_mask(obs.hand)
        discards = [a for a in legal if isinstance(a, Discard)]
        knocks = [a for a in legal if isinstance(a, Knock)]
        if knocks:
            best = min(knocks, key=lambda a: (deadwood(mask ^ a.card.bit), -a.card.value, a.card.index))
            hold = next((d for d in discards if d.card == best.card), None)
            if hold is None:
                return [best]
            chase_gin = holds_for_gin(deadwood(mask ^ best.card.bit), obs.stock_size, obs.knock_limit)
            return [hold, best] if chase_gin else [best, hold]
        dead = to_mask(obs.discard_pile) | to_mask(obs.opponent_known)

        def key(a: Discard) -> tuple[float, int, int]:
            rest = mask ^ a.card.bit
            return (deadwood(rest) - 1.5 * potential(rest, dead), -a.card.value, a.card.index)

        return list(sorted(discards, key=key)[: self.width]) or list(legal)

    def _search(self, obs: Observation, legal: Sequence[Action], cands: list[Action]) -> Action:
        if len(cands) == 1:
            return cands[0]
        reading = read(obs)
        rng = random.Random(self._seed_for(obs))
        worlds = max(1, self.budget // len(cands))
        totals = [0.0] * len(cands)
        value = _standing_value(obs)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        hand = to_mask(obs.hand)
        pile = [c.index for c in obs.discard_pile]
        played = 0
        for opp, stock in self._worlds(rng, reading, worlds):
            for n, action in enumerate(cands):
                out = self._rollout(obs, action, hand, opp, pile, stock)
                totals[n] += out if value is None else value(out)
            played += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = max(range(len(cands)), key=lambda n: (totals[n], -n))
        self.last_search = (cands[0], cands[best], (totals[best] - totals[0]) / played)
        # The first candidate is the heuristic's: another replaces it only by a clear margin a world (noise guard),
        # over the worlds played (fewer than planned when the time cap stopped the sampling).
        return cands[best] if totals[best] - totals[0] > self.margin * played else cands[0]

    def _worlds(self, rng: random.Random, reading: Reading, count: int) -> list[tuple[int, list[int]]]:
        """``count`` worlds of the reading: the opponent's cards and the stock (``inference.sample_worlds``)."""
        return sample_worlds(rng, reading, count)

    def _rollout(self, obs: Observation, action: Action, hand: int, opp: int, pile: list[int], stock: list[int]) -> int:
        """One candidate played out in one world: its outcome for this seat."""
        r = Rollout(obs.rules, obs.knock_limit, [hand, opp], list(pile), list(stock))
        match action:
            case Discard(card=card) | Knock(card=card):
                out = r.put(0, card.index, isinstance(action, Knock))
                return out if out is not None else r.play(1)
            case TakeUpcard() | DrawDiscard():
                taken = r.pile.pop()
                r.hands[0] |= BITS[taken]
                out = r.after_draw(0, taken)
                return out if out is not None else r.play(1)
            case DrawStock():
                out = r.turn(0, stock_only=True)
                return out if out is not None else r.play(1)
            case PassUpcard():
                if obs.seat == obs.dealer:  # both passed: the non-dealer draws from the stock (OFFER-4)
                    out = r.turn(1, stock_only=True)
                    return out if out is not None else r.play(0)
                if r.takes(1):  # the dealer is offered the upcard; if he passes too, this seat draws from the stock
                    out = r.turn(1)
                    return out if out is not None else r.play(0)
                out = r.turn(0, stock_only=True)
                return out if out is not None else r.play(1)
            case _:
                return 0

    def _seed_for(self, obs: Observation) -> int:
        """The decision's generator seed: the bot's seed and the observation's cards and counts (VIS-2)."""
        text = "|".join(
            (
                str(self.seed),
                obs.phase.value,
                " ".join(str(c) for c in obs.hand),
                " ".join(str(c) for c in obs.discard_pile),
                " ".join(str(c) for c in obs.opponent_known),
                str(obs.stock_size),
                str(obs.seat),
                str(obs.dealer),
            )
        )
        return zlib.crc32(text.encode())


def _standing_value(obs: Observation) -> PointsValue | None:
    """How the seat weighs a hand's points at its game's score (``knock.bots.winprob``), or None (points as they
    are) when the hand is not seen as part of a two-player game. Rule: MATCH-1."""
    if len(obs.scores) != 2 or obs.rules.players != 2:
        return None
    target = obs.rules.target
    return PointsValue(target - obs.scores[obs.seat], target - obs.scores[1 - obs.seat], target)


def make_level(name: str, seed: int = 0) -> SearchBot:
    """The search bot of a level (``LEVELS``): its fixed budget, width and margin."""
    level = LEVELS[name]
    return SearchBot(level.budget, level.width, seed, name=name, margin=level.margin)
