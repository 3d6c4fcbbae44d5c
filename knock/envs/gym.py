"""Knock as a Gymnasium environment: one seat learns, the other seats are played by opponents you plug in.

Rules: ENV-9, ENV-10, ENV-13, ENV-14, ENV-15, ENV-17, ENV-18. Registered as ``knock/Gin-v0``,
``knock/Oklahoma-v0``, ``knock/ThreeHanded-v0`` (the learner advises when he sits out) and
``knock/ThreeHanded-v1`` (he skips those hands).

The opponent is ``knock.bots.HeuristicBot`` by default: the strongest built-in bot that does not search (it
beats ``random`` in every one of 200 seeded games), deterministic (no generator of its own, so a seeded reset
reproduces the episode exactly), and it sees only its own seat's observation (VIS-2). ``opponent=`` takes any
bot name of ``knock.bots.BOT_NAMES`` (``"expert"``: the search bot's strongest level), a policy callable, a
checkpoint file or an ``OpponentPool`` (``knock.envs.opponents``, ENV-15 .. ENV-17), one for every other seat or
one per other seat; a bot in the sitter's seat never advises.
``seat="random"`` draws the learner's seat at each reset (ENV-18); ``self_play_env`` is both, over a pool.

A reset never returns a finished episode (ENV-13): when the bots end the hand (or the game) before the learner's
first decision, the reset deals again from its generator; ``info["redeals"]`` counts the deals so passed over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from engine.errors import IllegalAction
from knock.envs import encoding
from knock.envs import spaces as T
from knock.envs.aec import ObsDict
from knock.envs.episode import Episode, max_hand_points, split_options
from knock.envs.opponents import Opponent, OpponentPool, OpponentSpec
from knock.envs.opponents import opponent as opponent_of

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
        seat: int | str = 0,
        opponent: OpponentSpec | Sequence[OpponentSpec] = "heuristic",
        sitter: str = "advise",
        **options: Any,
    ):
        rules, env_opts = split_options(preset, options)
        if seat != "random" and not (isinstance(seat, int) and 0 <= seat < rules.players):
            raise ValueError(f"ENV-9: seat must be 0..{rules.players - 1} or 'random' (ENV-18), got {seat!r}")
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
        self.seats = seat  #: the learner's seat, or "random": drawn at each reset (ENV-18)
        self.seat = 0 if seat == "random" else int(seat)  #: the learner's seat in this episode
        self.sitter = sitter
        self.opponent = opponent
        #: the opponents, one shared by every other seat or one per other seat in seat order (ENV-15)
        self.opponents: list[Opponent] = (
            [opponent_of(o) for o in opponent] if isinstance(opponent, list | tuple) else [opponent_of(opponent)]  # type: ignore[arg-type]
        )
        self.pool: OpponentPool | None = opponent if isinstance(opponent, OpponentPool) else None
        if len(self.opponents) not in (1, rules.players - 1):
            raise ValueError(f"ENV-15: give one opponent or {rules.players - 1}, got {len(self.opponents)}")
        self.observation_space: spaces.Space[ObsDict] = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (T.OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (T.ACTIONS,), np.int8),
            }
        )
        self.action_space: spaces.Space[np.int64] = spaces.Discrete(T.ACTIONS)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """A new episode from ``np_random`` (seeded by ``seed``), played by the bots up to the learner's first
        decision; dealt again while the bots end it first, or (``sitter="skip"``) while the learner sits out a
        one-hand episode. ``info["redeals"]`` counts the deals passed over. Rules: ENV-7, ENV-13, ENV-14.
        """
        super().reset(seed=seed)
        table = self.episode
        if self.seats == "random":  # drawn first, so a fixed seat's episodes are those of before (ENV-18)
            self.seat = int(self.np_random.integers(self.episode.players))
        table.deal(int(self.np_random.integers(2**63)))
        bot_seed = int(self.np_random.integers(2**31))  # a random bot is seeded too
        for i, o in enumerate(self.opponents):
            o.reset(bot_seed + i)
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

        A masked-out action changes nothing in the game and ends the episode as the learner's forfeit, with the
        worst reward a hand can give (``-max_hand_points``, -1 when normalised); ``info["illegal"]`` says why and
        ``info["rule"]`` names the rule. Every step that ends the episode says how in ``info["ending"]``: ``hand``,
        ``game`` or ``forfeit``. Rule: ENV-10.
        """
        try:
            reward = self.episode.step(int(action))[self.seat]
        except IllegalAction as err:
            worst = -max_hand_points(self.episode.rules) / self.episode.unit
            return self._obs(), worst, True, False, {"illegal": str(err), "rule": err.rule, "ending": "forfeit"}
        reward += self._bots_play()
        over = self.episode.over
        info = {"ending": "game" if self.episode.whole_game else "hand"} if over else {}
        return self._obs(), reward, over, False, info

    def action_masks(self) -> encoding.Mask:
        """The learner's action mask (the convention of sb3-contrib's MaskablePPO)."""
        return self.episode.mask(self.seat)

    def _obs(self) -> ObsDict:
        return {"observation": self.episode.observe(self.seat), "action_mask": self.episode.mask(self.seat)}

    def _bots_play(self) -> float:
        """The other seats' moves up to the learner's next decision; the learner's reward meanwhile."""
        table = self.episode
        reward = 0.0
        while (seat := table.seat_to_act()) is not None and seat != self.seat:
            reward += table.step(self.opponent_at(seat).choose(table, seat))[self.seat]
        return reward

    def opponent_at(self, seat: int) -> Opponent:
        """The opponent playing ``seat`` (not the learner's) in this episode. Rule: ENV-15."""
        if len(self.opponents) == 1:
            return self.opponents[0]
        return self.opponents[(seat - self.seat) % self.episode.players - 1]

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


def self_play_env(
    preset: str = "standard", pool: OpponentPool | None = None, *, seat: int | str = "random", **options: Any
) -> KnockGym:
    """Self-play for a single-agent learner: the learner at a seat drawn each episode against a member of
    ``pool`` drawn each episode (``random`` alone when none is given); add frozen snapshots of the learner to
    ``env.pool`` while training. Rules: ENV-17, ENV-18."""
    pool = pool if pool is not None else OpponentPool(["random"])
    env = KnockGym(preset, seat=seat, opponent=pool, **options)
    env.pool = pool
    return env
