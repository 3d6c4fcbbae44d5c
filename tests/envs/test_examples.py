"""The training loops of docs/environments.md, in depth and at a glance, run as written (ENV-1, ENV-9, ENV-12)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from replay.log import LogTruncated
from replay.replayer import iter_states

DOC = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text(encoding="utf-8")
GLANCE, DEPTH = DOC.split("\n## In depth\n")
CODE = re.findall(r"```python\n(.*?)```", DEPTH, re.DOTALL)
BLOCKS = dict(zip(("gymnasium", "pettingzoo", "openspiel"), CODE[:3], strict=True))  # the three loops come first


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


# --- the ten-line loops at a glance, found by their markers -------------------------------------------------

GLANCE_BLOCKS = dict(re.findall(r"<!-- example: (\w+) -->\n```python\n(.*?)```", GLANCE, re.DOTALL))


def run_glance(name: str) -> dict[str, object]:
    namespace: dict[str, object] = {}
    exec(compile(GLANCE_BLOCKS[name], f"docs/environments.md, at a glance ({name})", "exec"), namespace)
    return namespace


def test_at_a_glance_the_has_a_loop_per_framework() -> None:
    assert sorted(GLANCE_BLOCKS) == ["gymnasium", "openspiel", "pettingzoo"]


@pytest.mark.rule("ENV-9", "ENV-4")
def test_at_a_glance_the_gymnasium_loop_trains() -> None:
    weights = run_glance("gymnasium")["W"]
    assert isinstance(weights, np.ndarray) and np.abs(weights).sum() > 0  # rewards reached the policy


@pytest.mark.rule("ENV-1", "ENV-4", "ENV-8")
def test_at_a_glance_the_pettingzoo_loop_plays_every_seat_and_logs() -> None:
    ns = run_glance("pettingzoo")
    grads = ns["grads"]
    assert isinstance(grads, dict) and sorted(grads) == ["player_0", "player_1"]
    assert all(np.abs(g).sum() > 0 for g in grads.values())  # every seat chose with the policy
    log = ns["log"]
    assert isinstance(log, bytes)
    with pytest.raises(LogTruncated) as cut:  # one hand of a game: the log replays to its clean end (LOG-7)
        for _ in iter_states(log):
            pass
    assert cut.value.clean


@pytest.mark.rule("ENV-12")
def test_at_a_glance_the_openspiel_loop_learns_q_values() -> None:
    agents = run_glance("openspiel")["agents"]
    assert isinstance(agents, list) and all(agent._q_values for agent in agents)
