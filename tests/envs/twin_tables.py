"""The environments as tables for the twin-state check (``tests.support.twins``): what each gives a seat.

An AEC environment gives an agent its observation, mask, info, reward and termination, and answers a
masked-out id with an ``IllegalAction``; the Gymnasium environment gives the learner's observation and mask
and answers a masked-out id with a finished step and ``info["illegal"]``; the OpenSpiel game gives strings,
tensors and legal actions.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel

from engine.cards import Card
from engine.errors import IllegalAction
from engine.match import Match
from knock.bots import HeuristicBot
from knock.envs import KnockAEC, KnockGym
from knock.envs import spaces as T
from knock.envs.episode import Episode
from knock.envs.opponents import BotOpponent

ALL_IDS = range(T.ACTIONS)


_BOT = HeuristicBot()


def _hint(table: Episode) -> int | None:
    """The heuristic bot's choice for the seat to act, as an id (a sitter gives no advice)."""
    m = table.game
    seat = table.seat_to_act()
    if seat is None or m.hand is None:
        return None
    if seat == m.sitter:
        return T.NO_ADVICE
    choice = _BOT.choose(m.hand.observation(seat), m.legal_actions())
    return next((i for i, a in table.legal().items() if a == choice), None)


def _held(table: Episode, seat: int) -> set[Card]:
    hand = table.game.hand
    if hand is None:
        return set()
    return {c for s in hand.seats if s != seat for c in hand.cards_of(s)}


class AecTable:
    """A KnockAEC playing a scripted first deal (``cut``: the draw's cards, by seat)."""

    def __init__(self, preset: str, options: dict[str, Any], cut: Sequence[Card], deck: Sequence[Card]) -> None:
        self.env = KnockAEC(preset, **options)
        self.env.reset(seed=0)
        table = self.env.episode
        table.start(Match.scripted(table.rules, cuts=[cut], decks=[deck], executor="compiled"))
        self.env._select()

    def seat_to_act(self) -> int | None:
        return self.env.episode.seat_to_act()

    def legal_ids(self) -> Sequence[int]:
        return [int(i) for i in np.flatnonzero(self.env.observe(self.env.agent_selection)["action_mask"])]

    def act(self, action_id: int) -> None:
        self.env.step(action_id)

    def outputs(self, seat: int) -> tuple[Any, ...]:
        agent = f"player_{seat}"
        obs = self.env.observe(agent)
        env = self.env
        return (
            obs["observation"].tobytes(), obs["action_mask"].tobytes(), repr(env.infos[agent]),
            env.rewards[agent], env._cumulative_rewards[agent], env.terminations[agent], env.agent_selection,
        )  # fmt: skip

    def refusals(self, seat: int) -> tuple[str, ...]:
        legal = set(self.legal_ids())
        out = []
        for i in ALL_IDS:
            if i not in legal:
                try:
                    self.env.step(i)
                except IllegalAction as err:
                    out.append(str(err))
                else:
                    raise AssertionError(f"a masked-out id {i} was played")
        return tuple(out)

    def events(self) -> list[object]:
        return list(self.env.episode.game.events)

    def held(self, seat: int) -> set[Card]:
        return _held(self.env.episode, seat)

    def hint(self) -> int | None:
        return _hint(self.env.episode)


class GymTable:
    """A KnockGym's table playing a scripted first deal; every seat's moves are driven, the outputs are the
    learner's (whichever seat is asked)."""

    def __init__(self, preset: str, options: dict[str, Any], cut: Sequence[Card], deck: Sequence[Card]) -> None:
        self.gym = KnockGym(preset, **options)
        self.gym.reset(seed=0)
        table = self.gym.episode
        table.start(Match.scripted(table.rules, cuts=[cut], decks=[deck], executor="compiled"))

    def seat_to_act(self) -> int | None:
        return self.gym.episode.seat_to_act()

    def legal_ids(self) -> Sequence[int]:
        seat = self.gym.episode.seat_to_act()
        assert seat is not None
        return [int(i) for i in np.flatnonzero(self.gym.episode.mask(seat))]

    def act(self, action_id: int) -> None:
        self.gym.episode.step(action_id)

    def outputs(self, seat: int) -> tuple[Any, ...]:
        self.gym.seat = seat
        obs = self.gym._obs()
        return obs["observation"].tobytes(), obs["action_mask"].tobytes(), self.gym.action_masks().tobytes()

    def refusals(self, seat: int) -> tuple[str, ...]:
        self.gym.seat = seat
        legal = set(self.legal_ids())
        out = []
        for i in ALL_IDS:
            if i not in legal:
                _obs, reward, terminated, truncated, info = self.gym.step(i)
                out.append(repr((float(reward), terminated, truncated, info)))
        return tuple(out)

    def events(self) -> list[object]:
        return list(self.gym.episode.game.events)

    def held(self, seat: int) -> set[Card]:
        return _held(self.gym.episode, seat)

    def hint(self) -> int | None:
        return _hint(self.gym.episode)


class SpielTable:
    """A ``python_knock_gin`` state dealt ``deck`` (its chance outcomes, in deal order)."""

    def __init__(self, game: Any, deck: Sequence[Card]) -> None:
        self.state = game.new_initial_state()
        for c in deck:
            self.state.apply_action(c.index)

    def seat_to_act(self) -> int | None:
        return None if self.state.is_terminal() else int(self.state.current_player())

    def legal_ids(self) -> Sequence[int]:
        return list(self.state.legal_actions())

    def act(self, action_id: int) -> None:
        self.state.apply_action(action_id)

    def outputs(self, seat: int) -> tuple[Any, ...]:
        s = self.state
        mine = s.current_player() == seat
        return (
            s.observation_string(seat), np.asarray(s.observation_tensor(seat), np.float32).tobytes(),
            s.information_state_string(seat), np.asarray(s.information_state_tensor(seat), np.float32).tobytes(),
            tuple(s.legal_actions(seat)) if mine else (), s.is_terminal(),
        )  # fmt: skip

    def refusals(self, seat: int) -> tuple[str, ...]:
        return ()  # OpenSpiel's algorithms play only legal actions

    def events(self) -> list[object]:
        hand = self.state.hand
        return list(hand.events)

    def held(self, seat: int) -> set[Card]:
        hand = self.state.hand
        return set(hand.cards_of(1 - seat))

    def hint(self) -> int | None:
        s, hand = self.state, self.state.hand
        if s.is_terminal():
            return None
        choice = _BOT.choose(hand.observation(s.current_player()), hand.legal_actions())
        return next((i for i, a in s.legal().items() if a == choice), None)


def spiel_game(params: dict[str, Any]) -> Any:
    import knock.envs.openspiel  # noqa: F401 -- registers the game

    return pyspiel.load_game("python_knock_gin", params)


class OpponentTable(GymTable):
    """A KnockGym whose opponent is ``opponent``: what it gives a seat is that opponent's choice for the seat
    when the seat is to act (ENV-15: an opponent sees only its own seat's view)."""

    def __init__(self, opponent: Any, preset: str, options: dict[str, Any], cut: Sequence[Card],
                 deck: Sequence[Card]) -> None:  # fmt: skip
        self.gym = KnockGym(preset, opponent=opponent, **options)
        self.gym.reset(seed=0)
        table = self.gym.episode
        table.start(Match.scripted(table.rules, cuts=[cut], decks=[deck], executor="compiled"))

    def outputs(self, seat: int) -> tuple[Any, ...]:
        episode = self.gym.episode
        if episode.seat_to_act() != seat:
            return (None,)
        chooser = self.gym.opponents[0]
        if isinstance(chooser, BotOpponent):  # a copy chooses: a seeded bot's generator stays where reset left it
            chooser = copy.deepcopy(chooser)
        return (chooser.choose(episode, seat),)

    def refusals(self, seat: int) -> tuple[str, ...]:
        return ()  # an opponent plays; what the environment refuses is checked by GymTable
