"""Helpers for the environment tests: random legal play through an AEC environment, scripted tables."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from engine.match import Match
from engine.rules import RuleSet
from knock.envs import spaces as T
from knock.envs.episode import Episode
from tests.engine.match_support import deck


def random_episode(env: Any, seed: int, rng_seed: int = 0, *, eager: bool = False) -> list[tuple[str, int, float]]:
    """Play one episode of an AEC environment with random legal actions: (agent, action, reward) per step.

    ``eager`` knocks whenever a knock is legal (random play rarely does, and its games take long).
    """
    rng = random.Random(rng_seed)
    env.reset(seed=seed)
    trace: list[tuple[str, int, float]] = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            trace.append((agent, -1, float(reward)))
            env.step(None)
            continue
        ids = np.flatnonzero(obs["action_mask"])
        knocks = ids[(ids >= T.KNOCK) & (ids < T.KNOCK + 52)]
        if eager and len(knocks):
            ids = knocks
        action = int(ids[int(rng.random() * len(ids))])
        trace.append((agent, action, float(reward)))
        env.step(action)
    return trace


def scripted_table(
    non_dealer: str, dealer: str, upcard: str, stock: str = "", *, rules: RuleSet | None = None, **opts: Any
) -> Episode:
    """A one-hand table whose first deal is prearranged: p0 deals (the draw gives him the king)."""
    rules = rules or RuleSet()
    table = Episode(rules, **opts)
    table.match = Match.scripted(
        rules, cuts=[cards_of("Ks 2c")], decks=[deck(non_dealer, dealer, upcard, stock)], executor="compiled"
    )
    table._auto()
    return table


def cards_of(text: str) -> tuple[Any, ...]:
    from engine.cards import cards

    return cards(text)


class LinearPolicy:
    """A policy callable (ENV-15): a fixed random linear score over the observation, masked arg-max."""

    def __init__(self, seed: int = 0) -> None:
        self.w = np.random.default_rng(seed).normal(size=(T.ACTIONS, T.OBS_SIZE)).astype(np.float32)

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> int:
        scores = self.w @ obs
        scores[mask == 0] = -np.inf
        return int(scores.argmax())


def checkpoints(folder: Any) -> dict[str, Any]:
    """A Knock checkpoint (``.pt``, an untrained ``PolicyNet``) and an SB3 MaskablePPO zip (untrained), in
    ``folder``: their paths by kind (ENV-16)."""
    import torch
    from sb3_contrib import MaskablePPO

    from knock.envs import gym_env
    from knock.envs.policy import PolicyNet, save_policy

    torch.manual_seed(0)
    pt = folder / "net.pt"
    save_policy(PolicyNet((T.OBS_SIZE, 32, T.ACTIONS)), pt)
    zipped = folder / "ppo.zip"
    model = MaskablePPO("MultiInputPolicy", gym_env(), n_steps=32, batch_size=32, seed=0, device="cpu",
                        policy_kwargs={"net_arch": [32]})  # fmt: skip
    model.save(zipped)
    return {"pt": pt, "zip": zipped}
