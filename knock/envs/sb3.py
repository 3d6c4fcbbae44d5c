"""Stable-Baselines3 with Knock: sb3-contrib's MaskablePPO on the Gymnasium environment, in self-play against a
pool of its own frozen snapshots. Needs the ``train`` extra. Rules: ENV-15, ENV-17.

    pool = OpponentPool(["random"])
    env = self_play_env("standard", pool, normalise=True)
    model = maskable_ppo(env, seed=1)
    model.learn(20_000, callback=Snapshots(pool, every=5_000))  # the pool grows by a snapshot every 5,000 steps
"""

from __future__ import annotations

import copy
from typing import Any

from sb3_contrib import MaskablePPO
from stable_baselines3.common.base_class import BaseAlgorithm
from stable_baselines3.common.callbacks import BaseCallback

from knock.envs.opponents import OpponentPool, PolicyOpponent
from knock.envs.policy import SB3Policy


def maskable_ppo(env: Any, seed: int = 0, **kwargs: Any) -> MaskablePPO:
    """A MaskablePPO for a Knock Gymnasium environment (its ``action_masks`` give the mask), on the CPU.

    The defaults are those of the reference PPO (``knock.envs.ppo.Config``) where SB3's differ, for a reward
    that comes once a hand and is rare early on (under random play about one hand in thirty is scored, the
    rest die): 4 epochs over 2,048 steps, no discount (``gamma=1``), no entropy bonus, advantages not
    normalised per minibatch. Against ``random`` from ``self_play_env`` (one env, seed 1, 115 CPU s, 120 paired
    hands from 10**9 + 10**6): these win 75.6%; SB3's 10 epochs over 1,024 steps with gamma 0.99 and
    normalised advantages 54.0%; these with 10 epochs 52.9%; with 4 epochs but gamma 0.99 and normalised
    advantages together 55.4%, with only one of the two 75.2% (single training seeds).
    """
    options: dict[str, Any] = {
        "n_steps": 2048,
        "batch_size": 256,
        "n_epochs": 4,
        "gamma": 1.0,
        "ent_coef": 0.0,
        "normalize_advantage": False,
        "policy_kwargs": {"net_arch": [128, 128]},
    }
    return MaskablePPO("MultiInputPolicy", env, seed=seed, device="cpu", verbose=0, **{**options, **kwargs})


def snapshot(model: BaseAlgorithm, name: str = "snapshot") -> PolicyOpponent:
    """A frozen copy of the model's current policy, as an opponent (ENV-15)."""
    return PolicyOpponent(SB3Policy(copy.deepcopy(model.policy).eval()), name=name)


class Snapshots(BaseCallback):
    """Adds a frozen snapshot of the learner to ``pool`` every ``every`` steps (ENV-17)."""

    def __init__(self, pool: OpponentPool, every: int) -> None:
        super().__init__()
        self.pool, self.every, self.taken = pool, every, 0

    def _on_step(self) -> bool:
        if self.num_timesteps // self.every > self.taken:
            self.taken += 1
            self.pool.add(snapshot(self.model, f"snapshot-{self.num_timesteps}"))
        return True


__all__ = ["Snapshots", "maskable_ppo", "snapshot"]
