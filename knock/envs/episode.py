"""One episode of Knock for the environments: a game driven by agent ids, with its rewards and log.

Rules: ENV-1, ENV-4, ENV-5, ENV-6, ENV-7, ENV-8, ENV-11.

The PettingZoo and Gymnasium environments are thin shells around ``Episode``: it plays a ``Match`` (so every
episode has a Knock log, LOG-1), asks the sitter for advice before each of the captain's decisions in
three-handed play (THREE-7; only the advice ``engine.visibility`` lets him give, THREE-8), plays the showdown
by the engine's optimiser or offers it as indexed choices, and turns each hand's result into rewards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from engine import kernel, visibility
from engine.actions import Action, Advise
from engine.cards import Card
from engine.chance import SeededChance
from engine.fsm import Phase
from engine.match import Match
from engine.rules import RuleSet
from engine.visibility import advice_shown, blind_advice, sight
from knock.envs import encoding
from knock.envs import spaces as T
from replay.log import write_log

EPISODES = ("hand", "game")
SHOWDOWNS = ("auto", "choice")
_SHOWDOWN_PHASES = (Phase.KNOCK, Phase.LAYOFF)


class OneDeal:
    """A game's chance cut short: the draw and the first deal of ``SeededChance(seed)``, then no more deals,
    so a one-hand episode's game stops at the hand's end (its log ends there too)."""

    def __init__(self, seed: int) -> None:
        self._chance = SeededChance(seed)
        self._dealt = False

    def cut(self, count: int) -> tuple[Card, ...]:
        return self._chance.cut(count)

    def deck(self) -> tuple[Card, ...] | None:
        if self._dealt:
            return None
        self._dealt = True
        return self._chance.deck()


def split_options(preset: str, options: dict[str, Any]) -> tuple[RuleSet, dict[str, Any]]:
    """The rule set (the preset with the rule-set options) and the environment's own options. Rule: ENV-1."""
    env_keys = {"episode", "showdown", "normalise", "render_mode"}
    env_opts = {k: v for k, v in options.items() if k in env_keys}
    rules = RuleSet.preset(preset, **{k: v for k, v in options.items() if k not in env_keys})
    episode = env_opts.get("episode", "hand")
    if episode not in EPISODES:
        raise ValueError(f"ENV-5: episode must be one of {EPISODES}, got {episode!r}")
    showdown = env_opts.get("showdown", "auto")
    if showdown not in SHOWDOWNS:
        raise ValueError(f"ENV-6: showdown must be one of {SHOWDOWNS}, got {showdown!r}")
    return rules, env_opts


def max_hand_points(rules: RuleSet) -> int:
    """The most a hand can score under ``rules``: gin (or big gin) against 98 deadwood, doubled if spades
    double. The scale of normalised rewards (ENV-4)."""
    bonus = max(rules.gin_bonus, rules.big_gin_bonus or 0, rules.undercut_bonus + 10)
    return (2 if rules.spades_double else 1) * (bonus + 98)


class Episode:
    """A game played by seat numbers: who acts, the legal ids, observations, steps and rewards."""

    def __init__(
        self,
        rules: RuleSet,
        *,
        episode: str = "hand",
        showdown: str = "auto",
        normalise: bool = False,
        advice: bool = True,
    ):
        self.rules = rules
        self.advice = advice  #: the sitter is asked for advice before each captain decision (ENV-11)
        self.players = rules.players
        self.whole_game = episode == "game"
        self.auto_showdown = showdown == "auto"
        self.unit = max_hand_points(rules) if normalise else 1  #: rewards are points / unit (ENV-4)
        self.match: Match | None = None
        self._rng = random.Random()
        self._advised = False
        self._seat: int | None = None
        self._legal: dict[int, Action] | None = None
        self._advice: tuple[int, list[int]] | None = None  #: the sitter and his advice ids (cached until a step)
        #: each seat's running scores / target from its seat on (ENV-3), cached until a hand ends
        self._scores: dict[int, list[float]] = {}

    # --- episode ------------------------------------------------------------------------------

    def reset(self, seed: int | None) -> None:
        """A new episode: seeded, or the next seed of the generator the last seeded reset started. Rule: ENV-7."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.deal(self._rng.getrandbits(63))

    def deal(self, game_seed: int) -> None:
        """A new episode whose game's draws and deals all come from ``game_seed`` (MATCH-7)."""
        chance = SeededChance(game_seed) if self.whole_game else OneDeal(game_seed)
        self.start(Match(self.rules, chance, executor="compiled"))  # the engine's performance mode

    def start(self, match: Match) -> None:
        """A new episode playing ``match`` (a seeded game, or a scripted one in tests)."""
        self.match = match
        self._advised = False
        self._legal = None
        self._advice = None
        self._scores = {}
        self._auto()

    @property
    def over(self) -> bool:
        m = self.game
        return m.to_act is None

    @property
    def game(self) -> Match:
        assert self.match is not None, "reset() first"
        return self.match

    def seat_to_act(self) -> int | None:
        """The seat to act now: the sitter first when the captain is to act (he may advise), then the captain.

        Rule: ENV-11.
        """
        assert self.match is not None, "reset() first"
        return self._seat

    def _next_seat(self) -> None:
        m = self.game
        seat = m.to_act
        if self.advice and seat is not None and m.sitter is not None and not self._advised and seat == m.captain:
            seat = m.sitter
        self._seat = seat

    def legal(self) -> dict[int, Action]:
        """The legal ids of the seat to act and the action each stands for (cached until the next step)."""
        if self._legal is None:
            m = self.game
            assert m.hand is not None
            showdown = m.hand.phase in _SHOWDOWN_PHASES
            actions = m.legal_actions()
            if showdown:
                actions = encoding.showdown_options(actions, m.hand.observation(m.hand.turn).hand)
            self._legal = encoding.legal_ids(actions, showdown)
        return self._legal

    def mask(self, seat: int) -> encoding.Mask:
        """The action mask of ``seat``: its legal ids when it is to act, else all zero. Rules: ENV-2, ENV-11."""
        if seat != self.seat_to_act():
            return np.zeros(T.ACTIONS, np.int8)
        m = self.game
        if m.sitter == seat:
            return encoding.mask_of(self.advice_ids(seat), (T.NO_ADVICE,))
        return encoding.mask_of(self.legal())

    def advice_ids(self, sitter: int) -> list[int]:
        """The ids of the advice the sitter may give now: the captain's legal ids that ``advice_shown`` offers
        him (all of them when he sees the captain's cards; else those whose legality his view decides).
        Rules: ENV-11, THREE-7, THREE-8."""
        if self._advice is None or self._advice[0] != sitter:  # cached until the next step, like ``legal``
            shown = {a.suggestion for a in advice_shown(self.game, sitter)}
            self._advice = sitter, [i for i, a in self.legal().items() if a in shown]
        return list(self._advice[1])

    def observe(self, seat: int) -> encoding.Vector:
        """``seat``'s observation vector, from its own view only: the hand's view of a seat dealt in (what
        ``Match.observation`` holds for it, without the game's wrapping), the game's view of the sitter.

        Rules: ENV-3, VIS-1, THREE-8.
        """
        m = self.game
        to_act = seat == self.seat_to_act()
        hand = m.hand
        if hand is not None and seat in hand.seats:
            scores = self._scores.get(seat)
            if scores is None:
                scores = self._scores[seat] = encoding.relative(m.scores, seat, self.rules.target)
            # Hand.observation's view with its cards as bitmasks: the same vector (tests/envs/test_encoding.py)
            return encoding.encode_bits(visibility.observe_bits(hand, seat), to_act=to_act, scores=scores)
        return encoding.encode_match(m.observation(seat), to_act=to_act, target=self.rules.target)

    def step(self, action_id: int) -> list[float]:
        """Play one id for the seat to act; returns every seat's reward for this step. Rules: ENV-2, ENV-4.

        Raises:
            IllegalAction: the id is not legal now (naming the engine's rule, or ENV-2); nothing changed.
        """
        m = self.game
        seat = self.seat_to_act()
        assert seat is not None, "the episode is over"
        legal = self.legal()
        if m.sitter == seat and seat is not None and m.sitter is not None:
            if action_id != T.NO_ADVICE:
                m.apply(self._advice_for(int(action_id), seat, legal))
            self._advised = True
            self._advice = None
            self._next_seat()
            return [0.0] * self.players
        return self.play(self._chosen(action_id, seat, legal))

    def play(self, action: Action) -> list[float]:
        """Play an engine action for the seat to act (a bot's), then the automatic steps; the rewards."""
        m = self.game
        results = len(m.results)
        m.apply(action)
        self._advised = False
        self._legal = None
        self._advice = None
        self._auto()
        rewards = [0.0] * self.players
        if len(m.results) > results:
            self._scores = {}
            result = m.results[-1]
            if result.winner is not None:
                loser = result.seats[0] + result.seats[1] - result.winner
                rewards[result.winner] = result.points / self.unit
                rewards[loser] = -result.points / self.unit
        return rewards

    def _advice_for(self, action_id: int, sitter: int, legal: dict[int, Action]) -> Advise:
        """The sitter's advice an id stands for. Rules: ENV-11, THREE-7, THREE-8.

        Raises:
            IllegalAction: not advice he may give: THREE-8 (without a word on whether the captain could make it)
                when it is blind advice (``blind_advice``), else the rule the suggestion breaks, or ENV-2.
        """
        m = self.game
        if action_id in self.advice_ids(sitter):
            return Advise(sitter, legal[action_id])
        candidate = legal.get(action_id) or encoding.card_action(action_id, m.captain)
        choice = T.CHOICE <= action_id < T.NO_ADVICE  # how many choices the captain has is his cards' business
        blind = sight(m.rules, sitter, m.seats, m.dealer).viewer is None
        if blind and (choice or (candidate is not None and blind_advice(m, Advise(sitter, candidate)))):
            phase = m.hand.phase.value if m.hand is not None else m.phase.value
            raise kernel.illegal(
                "THREE-8",
                "the sitter is not shown the captain's cards: advice that depends on them is refused",
                phase=phase,
                action=f"p{sitter} action {action_id}",
            )
        return Advise(sitter, self._chosen(action_id, m.captain, legal))

    def _chosen(self, action_id: int, seat: int, legal: dict[int, Action]) -> Action:
        action = legal.get(action_id)
        if action is not None:
            return action
        m = self.game
        phase = m.hand.phase.value if m.hand is not None else m.phase.value
        candidate = encoding.card_action(int(action_id), seat)
        if candidate is not None:
            m.check(candidate)  # the engine names the rule the action breaks
        raise encoding.refuse(int(action_id), seat, phase, "not a legal action id now (see the action mask)")

    def _auto(self) -> None:
        """The automatic showdown (the engine's optimiser for the seat that chooses), and a finished
        one-hand episode's stop. Rule: ENV-6."""
        m = self.game
        hand = m.hand
        while self.auto_showdown and hand is not None and hand.phase in _SHOWDOWN_PHASES and m.to_act is not None:
            m.apply(hand.auto_spread() if hand.phase is Phase.KNOCK else hand.auto_defence())
            hand = m.hand
        self._next_seat()

    # --- output ---------------------------------------------------------------------------------

    def log(self) -> bytes:
        """The Knock log of the episode's game so far (LOG-1): complete with its trailer after a whole game."""
        return write_log(self.game)

    def render(self) -> str:
        """A referee's text view of the table: every seat's cards, the pile, the stock and the scores."""
        m = self.game
        hand = m.hand
        lines = [f"hand {m.number}, dealer p{m.dealer}, scores {' '.join(map(str, m.scores))}"]
        if hand is not None:
            top = str(hand.discards[-1]) if hand.discards else "-"
            to_act = self.seat_to_act()
            lines.append(f"phase {hand.phase.value}, to act {'-' if to_act is None else f'p{to_act}'}, "
                         f"stock {len(hand.stock)}, discard {top}, knock limit {hand.knock_limit}")  # fmt: skip
            for seat in hand.seats:
                lines.append(f"p{seat}: {' '.join(map(str, hand.cards_of(seat)))}")
            if hand.result is not None:
                lines.append(str(hand.result))
        return "\n".join(lines) + "\n"


def seat_names(players: int) -> Sequence[str]:
    return [f"player_{i}" for i in range(players)]


__all__ = ["EPISODES", "SHOWDOWNS", "Episode", "OneDeal", "max_hand_points", "seat_names", "split_options"]
