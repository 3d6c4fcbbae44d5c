"""Opponents you plug in and self-play (spec/environments.md, ENV-15 .. ENV-18): bots, policies, checkpoints and
pools in any seat; seeded resets reproduce; every episode's log verifies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.errors import IllegalAction
from knock.bots import BOT_NAMES
from knock.envs import KnockGym, gym_env, self_play_env
from knock.envs import spaces as T
from knock.envs.opponents import OpponentPool, PolicyOpponent, opponent
from replay.audit import verify
from tests.envs.support import LinearPolicy, checkpoints


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return checkpoints(tmp_path_factory.mktemp("checkpoints"))


def kinds(saved: dict[str, Path]) -> dict[str, Any]:
    """One opponent spec of every kind."""
    return {
        **{f"bot-{name}": name for name in BOT_NAMES},
        "policy": LinearPolicy(1),
        "checkpoint-pt": saved["pt"],
        "checkpoint-zip": str(saved["zip"]),
        "pool": OpponentPool(["random", LinearPolicy(2), saved["pt"]]),
    }


def play(env: KnockGym, seed: int) -> tuple[list[Any], bytes]:
    """One seeded episode with a seeded random learner: its trace and its log."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[Any] = [env.seat, info["redeals"], obs["observation"].tobytes()]
    done = False
    while not done:
        ids = np.flatnonzero(obs["action_mask"])
        knocks = ids[(ids >= T.KNOCK) & (ids < T.KNOCK + 52)]  # knocks when it may: the games end sooner
        action = int(rng.choice(knocks if len(knocks) else ids))
        obs, reward, terminated, truncated, _ = env.step(action)
        trace += [action, float(reward)]
        done = terminated or truncated
    return trace, env.knock_log()


@pytest.mark.rule("ENV-15", "ENV-16", "ENV-17", "ENV-7", "ENV-8")
@pytest.mark.parametrize("preset", ["standard", "three_handed"])
def test_every_opponent_kind_reproduces_and_its_logs_verify(saved: dict[str, Path], preset: str) -> None:
    for name, spec in kinds(saved).items():
        env = gym_env(preset, seat="random", opponent=spec, max_consecutive_discard_pickups=4)
        twin = gym_env(preset, seat="random", opponent=spec, max_consecutive_discard_pickups=4)
        for seed in (3, 4):
            assert play(env, seed) == play(twin, seed), name  # ENV-7: the same seed, the same episode
        game = gym_env(
            preset, seat="random", opponent=spec, episode="game", target=10, max_consecutive_discard_pickups=2
        )
        _trace, log = play(game, 5)
        report = verify(log)
        assert report.ok and game.episode.game.winner is not None, (name, report)


@pytest.mark.rule("ENV-15")
def test_one_opponent_per_seat_and_each_plays_its_own() -> None:
    def policy(tag: str) -> Any:
        def choose(obs: np.ndarray, mask: np.ndarray) -> int:
            return int(np.flatnonzero(mask)[0])

        return PolicyOpponent(choose, name=tag)

    a, b = policy("a"), policy("b")
    env = gym_env("three_handed", seat=1, opponent=[a, b], sitter="skip")
    env.reset(seed=2)
    assert env.opponent_at(2) is a and env.opponent_at(0) is b  # from the learner's left: seat + 1, seat + 2
    obs, _ = env.reset(seed=2)
    assert env.seat == 1 and obs["action_mask"].any()
    with pytest.raises(ValueError, match="ENV-15"):
        gym_env("standard", opponent=["random", "greedy"])
    with pytest.raises(ValueError, match="ENV-15"):
        gym_env("standard", opponent="grandmaster")
    with pytest.raises(ValueError, match="ENV-15"):
        gym_env("standard", opponent=42)


@pytest.mark.rule("ENV-15", "ENV-2")
def test_a_policy_outside_its_mask_is_refused_and_changes_nothing() -> None:
    def cheat(obs: np.ndarray, mask: np.ndarray) -> int:
        return int(np.flatnonzero(mask == 0)[0])

    env = gym_env("standard", seat=1, opponent=cheat)
    with pytest.raises(IllegalAction, match=r"ENV-2|TURN-"):
        env.reset(seed=1)
    events = list(env.episode.game.events)
    with pytest.raises(IllegalAction):
        env._bots_play()
    assert list(env.episode.game.events) == events


@pytest.mark.rule("ENV-16")
def test_a_checkpoint_plays_as_the_net_it_was_saved_from(saved: dict[str, Path], tmp_path: Path) -> None:
    from knock.envs.policy import NetPolicy, load_net

    net = load_net(saved["pt"])
    loaded, direct = opponent(saved["pt"]), PolicyOpponent(NetPolicy(net))
    for seed in range(3):
        a, b = gym_env(opponent=loaded), gym_env(opponent=direct)
        assert play(a, seed) == play(b, seed)
    other = tmp_path / "other.pt"
    import torch

    torch.save({"weights": torch.zeros(3)}, other)
    with pytest.raises(ValueError, match="ENV-16"):
        opponent(other)
    with pytest.raises(ValueError, match="ENV-15"):
        opponent(tmp_path / "net.onnx")


@pytest.mark.rule("ENV-17")
def test_a_pool_draws_a_member_per_episode_and_takes_snapshots() -> None:
    pool = OpponentPool()
    env = self_play_env("standard", pool)
    with pytest.raises(ValueError, match="ENV-17"):
        env.reset(seed=1)
    pool.add("random")
    snapshot = pool.add(LinearPolicy(3))
    drawn = set()
    for seed in range(40):
        env.reset(seed=seed)
        drawn.add(pool.current)
    assert drawn == set(pool.members) and len(pool) == 2 and snapshot in drawn
    default = self_play_env().pool
    assert default is not None and [o.name for o in default.members] == ["random"]


@pytest.mark.rule("ENV-18", "ENV-7")
def test_the_learning_seat_is_drawn_per_episode() -> None:
    def seats(env: KnockGym) -> list[int]:
        out = []
        for s in range(30):
            env.reset(seed=s)
            out.append(env.seat)
        return out

    drawn = seats(gym_env("three_handed", seat="random"))
    assert set(drawn) == {0, 1, 2}
    again = gym_env("three_handed", seat="random")
    assert seats(again) == drawn
    for s in range(10):
        obs, _ = again.reset(seed=s)
        assert again.episode.seat_to_act() == again.seat and obs["action_mask"].any()
    with pytest.raises(ValueError, match="ENV-9"):
        gym_env("standard", seat="left")
