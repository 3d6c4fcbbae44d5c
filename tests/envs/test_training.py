"""The libraries people train with, on short runs (the ``train`` extra): sb3-contrib's MaskablePPO on the Gymnasium
environment in self-play against a growing pool of its snapshots, the reference PPO (``knock.envs.ppo``) over the
AEC environment in self-play, and OpenSpiel's external-sampling MCCFR on a reduced deck of ``python_knock_gin``
(perfect recall: ENV-12). Each well under 20 s; the long runs are ``tools/research/baselines.py``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

from knock.envs import gym_env, self_play_env
from knock.envs.opponents import OpponentPool, opponent
from knock.envs.policy import load_net, save_policy
from replay.audit import verify

FAST: dict[str, Any] = {"max_consecutive_discard_pickups": 4}


def play_out(spec: object, seed: int) -> bytes:
    """A whole short game of a random learner against ``spec``; its log."""
    env = gym_env(opponent=spec, episode="game", target=10, **FAST)
    obs, _ = env.reset(seed=seed)
    rng, done = np.random.default_rng(seed), False
    while not done:
        obs, _r, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = terminated or truncated
    return env.knock_log()


@pytest.mark.rule("ENV-17", "ENV-16", "ENV-18")
def test_maskable_ppo_learns_in_self_play_against_its_snapshots(tmp_path: Path) -> None:
    from knock.envs.sb3 import Snapshots, maskable_ppo

    torch.set_num_threads(1)
    pool = OpponentPool(["random"])
    env = self_play_env("standard", pool, normalise=True, **FAST)
    model = maskable_ppo(env, seed=1, n_steps=256, batch_size=64, n_epochs=2, policy_kwargs={"net_arch": [32]})
    before = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(768, callback=Snapshots(pool, every=256))
    assert len(pool) == 4 and [m.name for m in pool.members][1:] == ["snapshot-256", "snapshot-512", "snapshot-768"]
    assert any(not torch.equal(a, b) for a, b in zip(before, model.policy.parameters(), strict=True))
    seats = set()
    for seed in range(12):  # the learner's seat and its opponent are drawn per episode
        env.reset(seed=seed)
        seats.add(env.seat)
    assert seats == {0, 1}
    model.save(tmp_path / "maskable.zip")
    assert verify(play_out(tmp_path / "maskable.zip", seed=2)).ok  # the saved model is an opponent (ENV-16)


@pytest.mark.rule("ENV-4", "ENV-17")
def test_maskable_ppo_defaults_suit_a_reward_once_a_hand() -> None:
    """A hand's reward comes at its end and is rare under random play (most hands die): SB3's defaults
    (10 epochs over 1,024 steps, gamma 0.99, advantages normalised per minibatch) left MaskablePPO near 50% of
    paired hands against ``random`` after 64k-115k steps; ``maskable_ppo`` takes the reference PPO's."""
    from knock.envs.ppo import Config
    from knock.envs.sb3 import maskable_ppo

    model = maskable_ppo(self_play_env("standard", normalise=True), seed=1)
    ref = Config()
    assert model.gamma == ref.gamma == 1.0 and model.n_epochs == ref.epochs and model.n_steps == ref.rollout
    assert model.normalize_advantage is False and model.ent_coef == 0.0 and model.batch_size == 256
    assert maskable_ppo(self_play_env("standard", normalise=True), gamma=0.99, n_steps=64).gamma == 0.99


@pytest.mark.rule("ENV-16", "ENV-7")
def test_the_reference_ppo_trains_reproducibly_in_self_play(tmp_path: Path) -> None:
    from knock.envs.ppo import Config, train

    torch.set_num_threads(1)
    cfg = Config(rollout=400, minibatch=100, hidden=(32,))
    stats: list[tuple[int, dict[str, float]]] = []
    a = train("standard", steps=800, seed=3, config=cfg, callback=lambda n, _net, s: stats.append((n, s)), **FAST)
    b = train("standard", steps=800, seed=3, config=cfg, **FAST)
    c = train("standard", steps=400, seed=4, config=cfg, **FAST)
    same = [torch.equal(x, y) for x, y in zip(a.state_dict().values(), b.state_dict().values(), strict=True)]
    assert all(same) and not torch.equal(a.pi.weight, c.pi.weight)
    assert len(stats) == 2 and stats[-1][0] >= 800 and all(np.isfinite(s["loss"]) for _, s in stats)
    untrained = load_net(_saved(train("standard", steps=0, seed=3, config=cfg, **FAST), tmp_path / "init.pt"))
    assert not torch.equal(untrained.pi.weight, a.pi.weight)  # the updates moved it
    path = _saved(a, tmp_path / "ppo.pt")
    assert verify(play_out(path, seed=1)).ok
    assert play_out(opponent(path), seed=1) == play_out(path, seed=1)


def _saved(net: torch.nn.Module, path: Path) -> Path:
    save_policy(net, path)  # type: ignore[arg-type]
    return path


@pytest.mark.rule("ENV-12")
def test_openspiels_mccfr_lowers_exploitability_on_a_reduced_deck() -> None:
    """External-sampling MCCFR over ``python_knock_gin``'s perfect-recall information states (a 3 x 2 deck,
    hands of one card, one pickup in a row: 270 information states) beats the uniform policy's NashConv."""
    import pyspiel
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability
    from open_spiel.python.algorithms import external_sampling_mccfr as es

    import knock.envs.openspiel  # noqa: F401 -- registers the game

    params = {"deck_ranks": 3, "deck_suits": 2, "hand_size": 1, "options": "max_consecutive_discard_pickups:1"}
    game = pyspiel.load_game("python_knock_gin", params)
    uniform = exploitability.nash_conv(game, policy.UniformRandomPolicy(game))
    np.random.seed(0)  # external sampling draws from numpy's global generator
    solver = es.ExternalSamplingSolver(game, es.AverageType.SIMPLE)
    for _ in range(60):
        solver.iteration()
    learned = exploitability.nash_conv(game, solver.average_policy())
    assert learned < 0.85 * uniform, (learned, uniform)
