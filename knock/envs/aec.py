"""Knock as a PettingZoo AEC environment: one agent per seat, a fixed discrete action space with a mask.

Rules: ENV-1 .. ENV-8. ``knock.envs.aec_env(preset, **options)`` builds it in PettingZoo's ``OrderEnforcingWrapper``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from knock.envs import spaces as T
from knock.envs.episode import Episode, seat_names, split_options

ObsDict = dict[str, Any]  #: {"observation": float32 vector, "action_mask": int8 vector}


class KnockAEC(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """Gin for two or three agents (``player_0`` …), each seeing only its own seat's view (VIS-1)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "knock_gin_v0", "is_parallelizable": False}

    def __init__(self, preset: str = "standard", **options: Any) -> None:
        super().__init__()
        rules, env_opts = split_options(preset, options)
        self.render_mode: str | None = env_opts.get("render_mode")
        if self.render_mode not in (None, "ansi"):
            raise ValueError(f"ENV-8: render_mode must be None or 'ansi', got {self.render_mode!r}")
        self.episode = Episode(
            rules,
            episode=env_opts.get("episode", "hand"),
            showdown=env_opts.get("showdown", "auto"),
            normalise=bool(env_opts.get("normalise", False)),
        )
        self.possible_agents = list(seat_names(rules.players))
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (T.OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (T.ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(T.ACTIONS) for a in self.possible_agents}
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; the same seed gives the same episode, and the same sequence after it. Rule: ENV-7."""
        self.episode.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.episode.seat_to_act()
        if seat is None:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        return {"observation": self.episode.observe(seat), "action_mask": self.episode.mask(seat)}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the selected agent. Rules: ENV-2, ENV-4.

        Raises:
            IllegalAction: a masked-out action (naming the rule it breaks); nothing changed.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError("ENV-2: only a finished agent may step with None")
        rewards = self.episode.step(int(action))  # raises on an illegal id, before anything changes
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = rewards[self._seat[a]]
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``). Rule: ENV-8."""
        if self.render_mode is None:
            return None
        return self.episode.render()

    def knock_log(self) -> bytes:
        """The episode's Knock log (replay.log format). Rule: ENV-8."""
        return self.episode.log()

    def close(self) -> None:
        pass


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # PettingZoo ships no type information
    """PettingZoo's ``OrderEnforcingWrapper``, its checks unchanged, with the calls a learner's loop makes at
    every step — ``agent_iter``, ``last`` and ``step`` — reading the environment's attributes directly rather
    than through the wrapper's ``__getattr__`` (two Python calls an attribute, eight attributes a step)."""

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]  # refused as PettingZoo refuses it
        return self.env.last(observe)  # type: ignore[no-any-return]  # no check of the wrapper's left out

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # PettingZoo's error or warning

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's wrapper prints itself: the environment's name

    def agent_iter(self, max_iter: int = 2**63) -> Iterator[str]:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # type: ignore[no-any-return]  # PettingZoo's error
        return _AgentIterator(self, self.env, max_iter)


class _AgentIterator:
    """PettingZoo's ``AECOrderEnforcingIterator``: the agent to act while there are agents, at most ``max_iter``
    times, each after a ``step`` or ``reset``."""

    def __init__(self, wrapper: OrderEnforcing, env: KnockAEC, max_iter: int) -> None:
        self.wrapper, self.env, self.left = wrapper, env, max_iter

    def __iter__(self) -> _AgentIterator:
        return self

    def __next__(self) -> str:
        env = self.env
        if not env.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        assert self.wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.wrapper._has_updated = False
        return env.agent_selection


def aec_env(preset: str = "standard", **options: Any) -> Any:
    """Knock's PettingZoo AEC environment in PettingZoo's ``OrderEnforcingWrapper`` (``OrderEnforcing``, the
    same checks). Rule: ENV-1.

    (PettingZoo's ``AssertOutOfBoundsWrapper`` is left out: every id outside the mask is refused anyway, ENV-2.)

    ``preset`` is ``standard``, ``oklahoma`` or ``three_handed``; ``options`` are rule-set options (RULES-2)
    and the environment's: ``episode`` (``hand`` or ``game``), ``showdown`` (``auto`` or ``choice``),
    ``normalise`` (rewards / the largest hand score) and ``render_mode`` (``ansi``).
    """
    return OrderEnforcing(KnockAEC(preset, **options))
