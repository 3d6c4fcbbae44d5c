"""The Gymnasium environment (spec/environments.md, ENV-9, ENV-10): one seat against a built-in bot."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from engine.cards import Card
from knock.envs import KnockGym, gym_env
from knock.envs import spaces as T
from knock.envs.gym import GYM_IDS


@pytest.mark.rule("ENV-9")
@pytest.mark.parametrize("env_id", sorted(GYM_IDS))
def test_registered_ids_pass_gymnasiums_checker(env_id: str) -> None:
    env = gymnasium.make(env_id, render_mode="ansi")
    assert env.spec is not None and env.spec.max_episode_steps == 500
    check_env(env.unwrapped)
    obs, _ = env.reset(seed=3)
    assert obs["observation"].shape == (T.OBS_SIZE,) and obs["action_mask"].any()


@pytest.mark.rule("ENV-9", "ENV-7")
def test_a_vector_of_four_steps_and_reproduces() -> None:
    def run() -> tuple[np.ndarray, int]:
        vec = gymnasium.vector.SyncVectorEnv([lambda: gymnasium.make("knock/Gin-v0") for _ in range(4)])
        obs, _ = vec.reset(seed=1)
        rng = np.random.default_rng(0)
        total, ends = np.zeros(4), 0
        for _ in range(100):
            acts = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
            obs, reward, terminated, _truncated, _ = vec.step(np.array(acts))
            total += reward
            ends += int(terminated.sum())
        vec.close()
        return total, ends

    (total, ends), (again, _) = run(), run()
    assert ends >= 4 and np.array_equal(total, again) and total.sum() != 0


@pytest.mark.rule("ENV-9")
def test_the_learner_plays_its_seat_and_the_bot_the_others() -> None:
    env = gym_env("three_handed", seat=2, opponent="greedy", max_consecutive_discard_pickups=3)
    obs, _ = env.reset(seed=4)
    m = env.episode.game
    assert env.episode.seat_to_act() == 2 and obs["observation"][T.OFFSET["to_act"]] == 1
    rng = np.random.default_rng(1)
    done, reward = False, 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, r, done, _, _ = env.step(action)
        reward += float(r)
    assert m.results and reward == (m.results[-1].points if m.results[-1].winner == 2 else reward)
    with pytest.raises(ValueError, match="ENV-9"):
        gym_env("standard", seat=2)


@pytest.mark.rule("ENV-9", "ENV-7")
def test_a_seeded_reset_reproduces_the_episode_against_a_random_bot() -> None:
    def episode(env: KnockGym) -> list[float]:
        obs, _ = env.reset(seed=9)
        out: list[float] = []
        done = False
        while not done:
            action = int(np.flatnonzero(obs["action_mask"])[0])
            obs, reward, terminated, truncated, _ = env.step(action)
            out.append(float(reward))
            done = terminated or truncated
        return [*out, float(obs["observation"].sum())]

    env = gym_env("standard", opponent="random", max_consecutive_discard_pickups=3)
    first = episode(env)
    episode(env)  # the bot's generator moves on
    assert episode(env) == first


@pytest.mark.rule("ENV-10", "TURN-3")
def test_an_illegal_action_ends_the_episode_and_changes_nothing() -> None:
    env = gym_env("standard", normalise=True)
    env.reset(seed=2)
    hand = env.episode.game.hand
    assert hand is not None
    key = hand.state_key()
    _, reward, terminated, _, info = env.step(T.DISCARD + Card.parse("Ac").index)
    assert terminated and reward == -1.0 and info["illegal"] and hand.state_key() == key
    assert info["ending"] == "forfeit" and info["rule"] == "TURN-1"  # the upcard is offered: no discard now


@pytest.mark.rule("ENV-10", "ENV-5")
@pytest.mark.parametrize(("kind", "ending"), [("hand", "hand"), ("game", "game")])
def test_every_episode_says_how_it_ended(kind: str, ending: str) -> None:
    env = gym_env("standard", episode=kind, target=10)
    obs, _ = env.reset(seed=3)
    info: dict[str, object] = {}
    for _ in range(5_000):
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, _, terminated, _, info = env.step(action)
        if terminated:
            break
        assert "ending" not in info
    assert info["ending"] == ending


@pytest.mark.rule("ENV-8")
def test_the_gym_episode_has_a_log_and_renders() -> None:
    env = gym_env("oklahoma", render_mode="ansi")
    env.reset(seed=5)
    assert "knock limit" in str(env.render()) and env.knock_log()
