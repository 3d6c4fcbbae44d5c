"""Knock as an OpenSpiel game: ``import knock.envs.openspiel`` registers ``python_knock_gin``. Rule: ENV-12.

One hand of two-player Gin, like OpenSpiel's own ``gin_rummy``: the deal is a run of chance nodes (one
card each, in deal order: the hands, the upcard, then the stock), then the players act with the action ids
of ENV-2 until the hand is scored or dead; ``returns`` are the hand's points, zero-sum (ENV-4). Parameters:
``preset`` (``standard`` or ``oklahoma``); ``deck_ranks``, ``deck_suits`` and ``hand_size`` (a reduced deck,
RULES-3); ``options``, other RULES-2 options as ``key:value`` words (``"gin_bonus:20 spades_double:true"``);
``showdown`` (``auto`` or ``choice``, ENV-6); ``dealer`` (0 or 1, default 1: player 0 acts first) and
``normalise`` (ENV-4).

A hand must be bounded for OpenSpiel (``max_game_length``): unless ``options`` set
``max_consecutive_discard_pickups`` (DEAD-3), the game sets it to ``PICKUP_CAP``.

>>> import pyspiel, knock.envs.openspiel
>>> game = pyspiel.load_game("python_knock_gin", {"deck_ranks": 6, "deck_suits": 3, "hand_size": 4})
>>> game.num_distinct_actions(), game.observation_tensor_size(), game.max_chance_outcomes()
(175, 437, 52)
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pyspiel

from engine.actions import Action
from engine.cards import DECK, Card
from engine.events import HandStarted
from engine.fsm import Phase
from engine.hand import Hand
from engine.rules import RuleSet
from engine.visibility import SeatLens, Seen
from knock.envs import encoding
from knock.envs import spaces as T
from knock.envs.episode import max_hand_points

PICKUP_CAP = 10  #: the pickup cap (DEAD-3) the game sets when the options leave it open
_SHOWDOWN = (Phase.KNOCK, Phase.LAYOFF)
_PARAMS: dict[str, Any] = {
    "preset": "standard",
    "options": "",
    "deck_ranks": 13,
    "deck_suits": 4,
    "hand_size": 10,
    "showdown": "auto",
    "dealer": 1,
    "normalise": False,
}

GAME_TYPE = pyspiel.GameType(
    short_name="python_knock_gin",
    long_name="Knock Gin Rummy (one hand)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS,
)


def parse_options(text: str) -> dict[str, Any]:
    """Rule-set options written ``key:value`` separated by spaces (OpenSpiel's game strings forbid commas):
    ``"gin_bonus:20 spades_double:true oklahoma_ace:gin_only"``; a value is read as JSON, else as text."""
    out: dict[str, Any] = {}
    for word in text.split():
        key, sep, raw = word.partition(":")
        if not sep:
            raise ValueError(f"ENV-12: an option is written key:value, not {word!r}")
        try:
            out[key] = json.loads(raw)
        except ValueError:
            out[key] = raw
    return out


def rules_of(params: dict[str, Any]) -> RuleSet:
    """The rule set of the game's parameters (the pickup cap set when open). Rules: ENV-12, RULES-1, DEAD-3."""
    options = parse_options(params["options"])
    for name in ("deck_ranks", "deck_suits", "hand_size"):
        options.setdefault(name, int(params[name]))
    rules = RuleSet.preset(params["preset"], **options)
    if rules.players != 2:
        raise ValueError("ENV-12: the OpenSpiel game is two-player (standard or oklahoma)")
    if rules.max_consecutive_discard_pickups is None:
        rules = rules.replace(max_consecutive_discard_pickups=PICKUP_CAP)
    return rules


class KnockGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """One hand of Knock for OpenSpiel's algorithms."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        full = {**_PARAMS, **(params or {})}
        self.rules = rules_of(full)
        self.showdown = full["showdown"]
        if self.showdown not in ("auto", "choice"):
            raise ValueError(f"ENV-6: showdown must be auto or choice, got {self.showdown!r}")
        self.dealer = int(full["dealer"])
        if self.dealer not in (0, 1):
            raise ValueError(f"ENV-12: dealer must be 0 or 1, got {self.dealer}")
        self.unit = max_hand_points(self.rules) if full["normalise"] else 1
        most = max_hand_points(self.rules) / self.unit
        cap = self.rules.max_consecutive_discard_pickups
        assert cap is not None
        turns = (self.rules.stock_size + 1) * (cap + 1)  # each stock draw may follow up to `cap` pickups
        length = len(self.rules.deck) + 2 + 2 * turns + 4  # the deal, the offer, the turns, wall and showdown
        self.moves = length - len(self.rules.deck)  #: the most moves a player can see after the deal
        info = pyspiel.GameInfo(
            num_distinct_actions=T.ACTIONS,
            max_chance_outcomes=52,
            num_players=2,
            min_utility=-most,
            max_utility=most,
            utility_sum=0.0,
            max_game_length=length,
        )
        super().__init__(GAME_TYPE, info, full)

    def new_initial_state(self) -> KnockState:
        return KnockState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> KnockObserver:
        return KnockObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params, self.moves)


class Play:
    """The mutable part of a state, in one object so that OpenSpiel's clone (a deep copy of the state's
    attributes) copies the live hand with ``Hand.copy`` and shares the immutable values."""

    def __init__(self, rules: RuleSet, choices: bool, dealer: int, unit: int) -> None:
        self.rules = rules
        self.choices = choices
        self.dealer = dealer
        self.unit = unit
        self.dealt: list[int] = []  #: card indices dealt so far, in deal order
        self.hand: Hand | None = None
        self.lenses = (SeatLens(rules, 0), SeatLens(rules, 1))  #: each player's sight (fixed once the hand starts)
        self.seen: tuple[list[Seen], list[Seen]] = ([], [])  #: per player: the hand's events as he saw them
        self.legal: dict[int, Action] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        new = copy.copy(self)
        new.dealt = list(self.dealt)
        new.hand = None if self.hand is None else self.hand.copy()
        new.seen = (list(self.seen[0]), list(self.seen[1]))
        return new


class KnockState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt (chance nodes) or played; every player's view comes from ``Hand.observation``."""

    def __init__(self, game: KnockGame) -> None:
        super().__init__(game)
        self.play = Play(game.rules, game.showdown == "choice", game.dealer, game.unit)

    @property
    def hand(self) -> Hand | None:
        """The hand once the deal is complete."""
        return self.play.hand

    def current_player(self) -> int:
        hand = self.hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        seat = hand.to_act
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def legal(self) -> dict[int, Action]:
        """The legal ids of the player to act and the engine action each stands for. Rules: ENV-2, ENV-6."""
        if self.play.legal is None:
            hand = self.hand
            assert hand is not None
            actions = hand.legal_actions()
            showdown = hand.phase in _SHOWDOWN
            if showdown:
                actions = encoding.showdown_options(actions, hand.observation(hand.turn).hand)
            self.play.legal = encoding.legal_ids(actions, showdown)
        return self.play.legal

    def id_of(self, action: Action) -> int:
        """The id of an engine action legal now (a showdown action: its choice index)."""
        return next(i for i, a in self.legal().items() if a == action)

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        taken = set(self.play.dealt)
        left = [c.index for c in self.play.rules.deck if c.index not in taken]
        return [(i, 1.0 / len(left)) for i in left]

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            self.play.dealt.append(action)
            if len(self.play.dealt) == len(self.play.rules.deck):
                deck = [Card.from_index(i) for i in self.play.dealt]
                self.play.hand = Hand.from_deck(self.play.rules, deck, dealer=self.play.dealer, executor="compiled")
                for lens in self.play.lenses:
                    lens.see(HandStarted(1, self.play.dealer, (0, 1), None))
                self._remember(0)
            return
        hand = self.hand
        start = len(hand.events)
        hand.apply(self.legal()[action])
        while not self.play.choices and hand.phase in _SHOWDOWN:
            hand.apply(hand.auto_spread() if hand.phase is Phase.KNOCK else hand.auto_defence())
        self.play.legal = None
        self._remember(start)

    def _remember(self, start: int) -> None:
        """Add the hand's events from ``start`` on, as each player saw them (``SeatLens``), to his history: the
        information state, from his view only (ENV-12, VIS-1)."""
        assert self.hand is not None
        events = self.hand.events[start:]
        for lens, seen in zip(self.play.lenses, self.play.seen, strict=True):
            seen.extend(lens.see(e) for e in events)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {DECK[action]}"
        legal = self.legal() if self.hand is not None and not self.hand.is_over else {}
        return str(legal[action]) if action in legal else T.action_name(action)

    def is_terminal(self) -> bool:
        return self.hand is not None and self.hand.is_over

    def returns(self) -> list[float]:
        """The hand's points, zero-sum (ENV-4); 0 until the hand is over."""
        result = self.hand.result if self.hand is not None else None
        if result is None or result.winner is None:
            return [0.0, 0.0]
        out = [-result.points / self.play.unit] * 2
        out[result.winner] = result.points / self.play.unit
        return out

    def __str__(self) -> str:
        hand = self.hand
        if hand is None:
            return "dealing: " + " ".join(str(DECK[i]) for i in self.play.dealt)
        top = str(hand.discards[-1]) if hand.discards else "-"
        lines = [f"phase {hand.phase.value}, stock {len(hand.stock)}, discard {top}, limit {hand.knock_limit}"]
        lines += [f"p{s}: {' '.join(map(str, hand.cards_of(s)))}" for s in hand.seats]
        if hand.result is not None:
            lines.append(str(hand.result))
        return "\n".join(lines)


class KnockObserver:
    """Observation tensors (ENV-3) and information-state tensors (perfect recall: the observation, the spread's
    melds and every move the player saw, ``encoding.encode_history``), and their strings. Rule: ENV-12."""

    def __init__(self, iig_obs_type: Any, params: Any, moves: int) -> None:
        if params:
            raise ValueError(f"ENV-12: observation parameters are not supported: {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError("ENV-12: only the player's own observation (private and public) is offered")
        self.recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(encoding.history_size(moves) if self.recall else T.OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor[: T.OBS_SIZE]}
        if self.recall:
            self.dict["history"] = self.tensor[T.OBS_SIZE :]
        self._now = np.zeros(T.OBS_SIZE, np.float32)

    def set_from(self, state: KnockState, player: int) -> None:
        hand = state.hand
        view = hand.observation(player) if hand is not None else None
        to_act = state.current_player() == player
        if not self.recall:
            encoding.encode(view, to_act=to_act, out=self.tensor)
            return
        now = encoding.encode(view, to_act=to_act, out=self._now)
        encoding.encode_history(state.play.seen[player], player, now, self.tensor)

    def string_from(self, state: KnockState, player: int) -> str:
        hand = state.hand
        if hand is None:
            return f"p{player} dealing"
        if self.recall:
            return encoding.history_text(state.play.seen[player], player)
        view = hand.observation(player)
        top = str(view.discard_pile[-1]) if view.discard_pile else "-"
        text = (
            f"p{player} {view.phase.value} hand {' '.join(map(str, view.hand))} top {top} "
            f"pile {len(view.discard_pile)} stock {view.stock_size} limit {view.knock_limit} "
            f"known {' '.join(map(str, view.opponent_known))}"
        )
        if view.spread is not None:
            text += f" spread {' '.join(map(str, view.spread.melds))}"
        if view.result is not None:
            text += f" result {view.result}"
        return text


pyspiel.register_game(GAME_TYPE, KnockGame)
