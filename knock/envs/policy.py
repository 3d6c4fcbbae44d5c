"""Policies in PyTorch for the environments, and the checkpoint format opponents load. Rule: ENV-16.

Needs the ``train`` extra (``pip install 'knock-gin[train]'``: PyTorch 2.13.0, Stable-Baselines3, sb3-contrib).

A Knock checkpoint (``.pt``) is a file written by ``torch.save`` holding a plain dict: ``format`` (``"knock-
policy/1"``), ``sizes`` (the layer widths, ``[437, …, 175]``) and ``state_dict`` (a ``PolicyNet``'s, tensors
only), read back with ``torch.load(weights_only=True)``, so loading one runs no code. A Stable-Baselines3 zip is
read by sb3-contrib's ``MaskablePPO.load``. Either plays the masked arg-max: deterministic, so a seeded reset
reproduces the opponent's play exactly (ENV-7).
"""

from __future__ import annotations

import itertools
import os
from typing import Any

import numpy as np
import torch
from torch import nn

from knock.envs import encoding
from knock.envs import spaces as T

FORMAT = "knock-policy/1"
HIDDEN = (128, 128)  #: the default hidden layers


class PolicyNet(nn.Module):
    """An actor-critic MLP over the ENV-3 vector: action logits (masked by the caller) and a value."""

    def __init__(self, sizes: tuple[int, ...] = (T.OBS_SIZE, *HIDDEN, T.ACTIONS)) -> None:
        super().__init__()
        if sizes[0] != T.OBS_SIZE or sizes[-1] != T.ACTIONS:
            raise ValueError(f"ENV-16: a policy maps {T.OBS_SIZE} values to {T.ACTIONS} actions, not {sizes}")
        self.sizes = tuple(sizes)
        layers: list[nn.Module] = []
        for a, b in itertools.pairwise(sizes[:-1]):
            layers += [nn.Linear(a, b), nn.Tanh()]
        self.body = nn.Sequential(*layers)
        self.pi = nn.Linear(sizes[-2], sizes[-1])
        self.v = nn.Linear(sizes[-2], 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked logits (-inf outside the mask) and values, for a batch."""
        h = self.body(obs)
        logits = self.pi(h).masked_fill(mask == 0, -torch.inf)
        return logits, self.v(h).squeeze(-1)


class NetPolicy:
    """A ``PolicyNet`` as a policy callable (ENV-15): the masked arg-max, without gradients."""

    def __init__(self, net: PolicyNet) -> None:
        self.net = net.eval()

    def __call__(self, obs: encoding.Vector, mask: encoding.Mask) -> int:
        with torch.no_grad():
            logits, _ = self.net(torch.from_numpy(obs)[None], torch.from_numpy(mask)[None])
        return int(logits[0].argmax())


def save_policy(net: PolicyNet, path: str | os.PathLike[str]) -> None:
    """Write ``net`` as a Knock checkpoint. Rule: ENV-16."""
    state = {k: v.detach().clone() for k, v in net.state_dict().items()}
    torch.save({"format": FORMAT, "sizes": list(net.sizes), "state_dict": state}, os.fspath(path))


def load_net(path: str | os.PathLike[str]) -> PolicyNet:
    """The ``PolicyNet`` of a Knock checkpoint. Rule: ENV-16.

    Raises:
        ValueError: (ENV-16) not a Knock checkpoint.
    """
    data: Any = torch.load(os.fspath(path), weights_only=True)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"ENV-16: {os.fspath(path)} is not a Knock checkpoint ({FORMAT})")
    net = PolicyNet(tuple(int(s) for s in data["sizes"]))
    net.load_state_dict(data["state_dict"])
    return net


def load_policy(path: str | os.PathLike[str]) -> NetPolicy:
    """A Knock checkpoint as a policy callable. Rule: ENV-16."""
    return NetPolicy(load_net(path))


class SB3Policy:
    """A Stable-Baselines3 maskable policy (a saved MaskablePPO, or a model's ``policy`` frozen by a copy) as a
    policy callable: its deterministic prediction under the mask."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy

    def __call__(self, obs: encoding.Vector, mask: encoding.Mask) -> int:
        action, _ = self.policy.predict(
            {"observation": obs, "action_mask": mask}, action_masks=mask.astype(bool), deterministic=True
        )
        return int(np.asarray(action).reshape(()))


def sb3_policy(path: str | os.PathLike[str]) -> SB3Policy:
    """A MaskablePPO zip (sb3-contrib) as a policy callable. Rule: ENV-16."""
    from sb3_contrib import MaskablePPO

    return SB3Policy(MaskablePPO.load(os.fspath(path), device="cpu").policy)


__all__ = ["FORMAT", "NetPolicy", "PolicyNet", "SB3Policy", "load_net", "load_policy", "save_policy", "sb3_policy"]
