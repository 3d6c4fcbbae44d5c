"""Knock for reinforcement learning: PettingZoo and Gymnasium environments and an OpenSpiel game.

An optional part (``pip install 'knock-gin[rl]'``); see ``spec/environments.md``. Importing this package
registers the Gymnasium ids ``knock/Gin-v0``, ``knock/Oklahoma-v0`` and ``knock/ThreeHanded-v0``;
``import knock.envs.openspiel`` (it needs OpenSpiel, the ``peers`` extra) registers the OpenSpiel game
``python_knock_gin``. Rule: ENV-1.
"""

from __future__ import annotations

from knock.envs.aec import KnockAEC, aec_env
from knock.envs.gym import KnockGym, gym_env, register, self_play_env

register()

__all__ = ["KnockAEC", "KnockGym", "aec_env", "gym_env", "self_play_env"]
