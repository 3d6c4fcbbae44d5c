"""The training loops of docs/environments.md run as written (ENV-1, ENV-9, ENV-12)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

DOC = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text(encoding="utf-8")
CODE = re.findall(r"```python\n(.*?)```", DOC, re.DOTALL)
BLOCKS = dict(zip(("gymnasium", "pettingzoo", "openspiel"), CODE, strict=True))


def run(name: str) -> dict[str, object]:
    namespace: dict[str, object] = {}
    exec(compile(BLOCKS[name], f"docs/environments.md ({name})", "exec"), namespace)
    return namespace


@pytest.mark.rule("ENV-9", "ENV-4")
def test_the_gymnasium_loop_trains() -> None:
    weights = run("gymnasium")["W"]
    assert isinstance(weights, np.ndarray) and np.abs(weights).sum() > 0  # rewards reached the policy


@pytest.mark.rule("ENV-1", "ENV-8")
def test_the_pettingzoo_loop_plays_every_seat() -> None:
    ns = run("pettingzoo")
    assert isinstance(ns["log"], bytes) and ns["log"]


@pytest.mark.rule("ENV-12")
def test_the_openspiel_loop_learns_q_values() -> None:
    ns = run("openspiel")
    agents = ns["agents"]
    assert isinstance(agents, list) and all(agent._q_values for agent in agents)
