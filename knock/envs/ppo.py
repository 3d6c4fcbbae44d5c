"""A reference PPO in PyTorch over the PettingZoo AEC environment, in self-play: one network plays every seat.

Needs the ``train`` extra. Short on purpose (a reference for researchers, under 200 lines): rollouts of whole
hands (``aec_env(preset, normalise=True)``, ENV-1 .. ENV-7), each seat's transitions linked to its own next
decision, generalised advantage estimation over those links, the clipped surrogate with a value loss and an
entropy bonus, masked logits throughout. The same ``seed`` gives the same network, byte for byte, on the same
machine and thread count (the deals come from the environment's seeded generator, ENV-7; the actions and
minibatches from a torch generator). The result is a ``PolicyNet``: ``save_policy`` writes it as a checkpoint
that any Gymnasium environment takes as an opponent (ENV-16).

    net = train("standard", steps=20_000, seed=1)
    save_policy(net, "ppo.pt")                          # then gym_env(opponent="ppo.pt")
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from knock.envs import spaces as T
from knock.envs.aec import aec_env
from knock.envs.policy import HIDDEN, PolicyNet


@dataclass(frozen=True, slots=True)
class Config:
    """PPO's hyper-parameters (the usual ones; rewards are a hand's points over the largest score, ENV-4)."""

    rollout: int = 2048  #: decisions per update (whole hands: the last hand is played out)
    epochs: int = 4
    minibatch: int = 256
    lr: float = 3e-4
    gamma: float = 1.0  #: a hand is short and its reward comes at its end: no discount
    lam: float = 0.95
    clip: float = 0.2
    value_coef: float = 0.5
    entropy_coef: float = 0.01
    hidden: tuple[int, ...] = HIDDEN


@dataclass
class Rollout:
    """Decisions of every seat, in play order; ``nxt[i]``: the same seat's next decision in the hand (-1: none)."""

    obs: list[np.ndarray]
    mask: list[np.ndarray]
    act: list[int]
    logp: list[float]
    val: list[float]
    rew: list[float]
    nxt: list[int]


def collect(env: Any, net: PolicyNet, size: int, gen: torch.Generator) -> tuple[Rollout, list[float]]:
    """At least ``size`` decisions of whole hands; the rollout and the hands' returns of seat 0."""
    r = Rollout([], [], [], [], [], [], [])
    returns: list[float] = []
    while len(r.act) < size:
        env.reset()  # the next deal of the environment's seeded generator (ENV-7)
        last: dict[str, int] = {}
        total = 0.0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if agent in last:
                r.rew[last[agent]] += float(reward)
            if agent == "player_0":
                total += float(reward)
            if terminated or truncated:
                env.step(None)
                continue
            with torch.no_grad():
                logits, value = net(
                    torch.from_numpy(obs["observation"])[None], torch.from_numpy(obs["action_mask"])[None]
                )
            probs = torch.softmax(logits[0], -1)
            action = int(torch.multinomial(probs, 1, generator=gen))
            i = len(r.act)
            if agent in last:
                r.nxt[last[agent]] = i
            last[agent] = i
            r.obs.append(obs["observation"])
            r.mask.append(obs["action_mask"])
            r.act.append(action)
            r.logp.append(float(torch.log(probs[action])))
            r.val.append(float(value[0]))
            r.rew.append(0.0)
            r.nxt.append(-1)
            env.step(action)
        returns.append(total)
    return r, returns


def advantages(r: Rollout, cfg: Config) -> tuple[np.ndarray, np.ndarray]:
    """GAE along each seat's own decisions (a seat's next decision follows it: its index is larger)."""
    n = len(r.act)
    adv = np.zeros(n, np.float32)
    for i in reversed(range(n)):
        j = r.nxt[i]
        next_value, next_adv = (r.val[j], adv[j]) if j >= 0 else (0.0, 0.0)
        delta = r.rew[i] + cfg.gamma * next_value - r.val[i]
        adv[i] = delta + cfg.gamma * cfg.lam * next_adv
    return adv, adv + np.asarray(r.val, np.float32)


def update(net: PolicyNet, opt: torch.optim.Optimizer, r: Rollout, cfg: Config, gen: torch.Generator) -> float:
    """PPO's epochs over the rollout; the last minibatch's loss."""
    adv, ret = advantages(r, cfg)
    obs = torch.from_numpy(np.stack(r.obs))
    mask = torch.from_numpy(np.stack(r.mask))
    act = torch.tensor(r.act)
    old = torch.tensor(r.logp)
    adv_t, ret_t = torch.from_numpy(adv), torch.from_numpy(ret)
    adv_t = (adv_t - adv_t.mean()) / (adv_t.std() + 1e-8)
    loss = torch.zeros(())
    for _ in range(cfg.epochs):
        perm = torch.randperm(len(act), generator=gen)
        for start in range(0, len(act), cfg.minibatch):
            idx = perm[start : start + cfg.minibatch]
            logits, value = net(obs[idx], mask[idx])
            logp_all = torch.log_softmax(logits, -1)
            logp = logp_all.gather(1, act[idx, None]).squeeze(1)
            probs = logp_all.exp()
            entropy = -(probs * logp_all.masked_fill(mask[idx] == 0, 0.0)).sum(-1).mean()
            ratio = (logp - old[idx]).exp()
            a = adv_t[idx]
            surrogate = torch.min(ratio * a, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * a).mean()
            loss = -surrogate + cfg.value_coef * ((value - ret_t[idx]) ** 2).mean() - cfg.entropy_coef * entropy
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
    return float(loss.detach())


Callback = Callable[[int, PolicyNet, dict[str, float]], None]


def train(
    preset: str = "standard",
    *,
    steps: int = 20_000,
    seed: int = 0,
    config: Config | None = None,
    callback: Callback | None = None,
    seconds: float | None = None,
    **options: Any,
) -> PolicyNet:
    """Self-play PPO for about ``steps`` decisions (or until ``seconds`` of this process's CPU time have passed);
    ``callback(decisions, net, stats)`` after each update (stats: ``loss``, ``return``: seat 0's mean hand
    return in the rollout, normalised)."""
    cfg = config or Config()
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = PolicyNet((T.OBS_SIZE, *cfg.hidden, T.ACTIONS))
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    env = aec_env(preset, normalise=True, **options)
    env.reset(seed=seed)  # seeds the generator every later reset draws from
    done, start = 0, time.process_time()
    while done < steps and (seconds is None or time.process_time() - start < seconds):
        rollout, returns = collect(env, net, min(cfg.rollout, steps - done), gen)
        loss = update(net, opt, rollout, cfg, gen)
        done += len(rollout.act)
        if callback is not None:
            callback(done, net, {"loss": loss, "return": float(np.mean(returns))})
    return net.eval()


__all__ = ["Config", "Rollout", "advantages", "collect", "train", "update"]
