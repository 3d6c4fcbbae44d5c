"""Knock as a Gymnasium environment: one seat learns, the other seats are played by a built-in bot.

Rules: ENV-9, ENV-10, ENV-13, ENV-14. Registered as ``knock/Gin-v0``, ``knock/Oklahoma-v0``,
``knock/ThreeHanded-v0`` (the learner advises when he sits out) and ``knock/ThreeHanded-v1`` (he skips those hands).

The opponent is ``engine.bots.HeuristicBot`` by default: the strongest built-in bot (it beats ``random`` in
every one of 200 seeded games), deterministic (no generator of its own, so a seeded reset reproduces the
episode exactly), and it sees only its own seat's observation (VIS-2). ``opponent="greedy"`` or
``"random"`` picks another; a bot in the sitter's seat never advises.

A reset never returns a finished episode (ENV-13): when the bots end the hand (or the game) before the learner's
first decision, the reset deals again from its generator; ``info["redeals"]`` counts the deals so passed over.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from engine.bots import Bot, make_bot
from engine.errors import IllegalAction
from engine.fsm import Phase
from knock.envs import encoding
from knock.envs import spaces as T
from knock.envs.aec import ObsDict
from knock.envs.episode import Episode, max_hand_points, split_options

GYM_IDS = {
    "knock/Gin-v0": "standard",
    "knock/Oklahoma-v0": "oklahoma",
    "knock/ThreeHanded-v0": "three_handed",
    "knock/ThreeHanded-v1": "three_handed",
}
GYM_OPTIONS: dict[str, dict[str, Any]] = {"knock/ThreeHanded-v1": {"sitter": "skip"}}  #: the ids' own options
SITTERS = ("advise", "skip")  #: what the learner does in a hand he sits out (ENV-14)
MAX_EPISODE_STEPS = 500  #: registered time limit of a one-hand episode: a hand need not end (DEAD-3)


class KnockGym(gymnasium.Env[ObsDict, np.int64]):
    """One seat (``seat``, default 0) against bots; observations and masks as in the AEC environment."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 -- gymnasium declares it so

    def __init__(
        self,
        preset: str = "standard",
        *,
        seat: int = 0,
        opponent: str = "heuristic",
        sitter: str = "advise",
        **options: Any,
    ):
        rules, env_opts = split_options(preset, options)
        if not 0 <= seat < rules.players:
            raise ValueError(f"ENV-9: seat must be 0..{rules.players - 1}, got {seat}")
        if sitter not in SITTERS:
            raise ValueError(f"ENV-14: sitter must be one of {SITTERS}, got {sitter!r}")
        self.render_mode: str | None = env_opts.get("render_mode")
        if self.render_mode not in (None, "ansi"):
            raise ValueError(f"ENV-8: render_mode must be None or 'ansi', got {self.render_mode!r}")
        self.episode = Episode(
            rules,
            episode=env_opts.get("episode", "hand"),
            showdown=env_opts.get("showdown", "auto"),
            normalise=bool(env_opts.get("normalise", False)),
            advice=sitter == "advise",
        )
        self.seat = seat
        self.sitter = sitter
        self.opponent = opponent
        self.bot: Bot = make_bot(opponent)
        self.observation_space: spaces.Space[ObsDict] = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (T.OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (T.ACTIONS,), np.int8),
            }
        )
        self.action_space: spaces.Space[np.int64] = spaces.Discrete(T.ACTIONS)

    @property
    def table(self) -> Episode:
        """The old name of ``episode``, for one more release (with a DeprecationWarning)."""
        import warnings

        warnings.warn("env.table is now env.episode", DeprecationWarning, stacklevel=2)
        return self.episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """A new episode from ``np_random`` (seeded by ``seed``), played by the bots up to the learner's first
        decision; dealt again while the bots end it first, or (``sitter="skip"``) while the learner sits out a
        one-hand episode. ``info["redeals"]`` counts the deals passed over. Rules: ENV-7, ENV-13, ENV-14.
        """
        super().reset(seed=seed)
        table = self.episode
        table.deal(int(self.np_random.integers(2**63)))
        self.bot = make_bot(self.opponent, int(self.np_random.integers(2**31)))  # a random bot is seeded too
        redeals = 0
        while not self._learner_plays():
            redeals += 1
            table.deal(int(self.np_random.integers(2**63)))
        assert table.seat_to_act() == self.seat
        return self._obs(), {"redeals": redeals}

    def _learner_plays(self) -> bool:
        """Play the bots' moves up to the learner's first decision of a fresh deal; whether he has one."""
        table, m = self.episode, self.episode.game
        if not table.whole_game and not table.advice and self.seat == m.sitter:
            return False  # ENV-14: he sits out the episode's only hand
        self._bots_play()
        return not table.over and not any(self.seat in r.seats for r in m.results)  # no hand of his is lost

    def step(self, action: np.int64 | int) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner's action, then the bots' until the learner is to act again or the episode ends.

        A masked-out action changes nothing in the game and ends the episode with the worst reward a hand
        can give (``-max_hand_points``, -1 when normalised); ``info["illegal"]`` names the rule. Rule: ENV-10.
        """
        try:
            reward = self.episode.step(int(action))[self.seat]
        except IllegalAction as err:
            worst = -max_hand_points(self.episode.rules) / self.episode.unit
            return self._obs(), worst, True, False, {"illegal": str(err)}
        reward += self._bots_play()
        return self._obs(), reward, self.episode.over, False, {}

    def action_masks(self) -> encoding.Mask:
        """The learner's action mask (the convention of sb3-contrib's MaskablePPO)."""
        return self.episode.mask(self.seat)

    def _obs(self) -> ObsDict:
        return {"observation": self.episode.observe(self.seat), "action_mask": self.episode.mask(self.seat)}

    def _bots_play(self) -> float:
        """The other seats' moves up to the learner's next decision; the learner's reward meanwhile."""
        table, m = self.episode, self.episode.game
        reward = 0.0
        while (seat := table.seat_to_act()) is not None and seat != self.seat:
            if seat == m.sitter:
                table.step(T.NO_ADVICE)
                continue
            hand = m.hand
            assert hand is not None
            legal = table.legal()
            choice = self.bot.choose(hand.observation(seat), m.legal_actions())
            if hand.phase in (Phase.KNOCK, Phase.LAYOFF) and choice not in legal.values():
                choice = next(iter(legal.values()))  # beyond the offered options: the one of least deadwood
            reward += table.play(choice)[self.seat]
        return reward

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``). Rule: ENV-8."""
        return None if self.render_mode is None else self.episode.render()

    def knock_log(self) -> bytes:
        """The episode's Knock log (replay.log format). Rule: ENV-8."""
        return self.episode.log()


def register() -> None:
    """Register the Gymnasium ids (once). Rules: ENV-9, ENV-14."""
    for env_id, preset in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="knock.envs.gym:KnockGym",
                kwargs={"preset": preset, **GYM_OPTIONS.get(env_id, {})},
                max_episode_steps=MAX_EPISODE_STEPS,
            )


def gym_env(preset: str = "standard", **options: Any) -> KnockGym:
    """Knock's Gymnasium environment: ``seat`` (default 0) against ``opponent`` bots. Rule: ENV-9."""
    return KnockGym(preset, **options)
