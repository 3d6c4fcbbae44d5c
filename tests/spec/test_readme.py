"""The README's Python examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

from engine.bots import GreedyBot, RandomBot, play_match
from engine.match import Match
from engine.rules import RuleSet

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def test_readme_python_examples_run() -> None:
    assert len(BLOCKS) >= 2
    match = play_match(Match.new(RuleSet.preset("three_handed"), seed=2), [GreedyBot(), RandomBot(1), GreedyBot()])
    for block in BLOCKS:
        namespace: dict[str, object] = {"match": match}
        exec(compile(block, "README.md", "exec"), namespace)
