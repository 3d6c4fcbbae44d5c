"""spec/environments.md holds exactly the tables the code uses (ENV-2, ENV-3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from knock.envs import spaces as T

SPEC = (Path(__file__).resolve().parents[2] / "spec" / "environments.md").read_text(encoding="utf-8")


@pytest.mark.rule("ENV-2")
def test_the_spec_has_the_action_table_of_the_code() -> None:
    assert T.action_table_markdown() in SPEC
    assert f"`Discrete({T.ACTIONS})`" in SPEC


@pytest.mark.rule("ENV-3")
def test_the_spec_has_the_observation_table_of_the_code() -> None:
    assert T.observation_table_markdown() in SPEC
    assert f"float32[{T.OBS_SIZE}]" in SPEC and f"int8[{T.ACTIONS}]" in SPEC
    ends = [f.offset + f.size for f in T.LAYOUT]
    assert [f.offset for f in T.LAYOUT[1:]] == ends[:-1] and ends[-1] == T.OBS_SIZE
