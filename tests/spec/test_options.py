"""The options `knock rules` lists (``engine.rules.options``) are the ones RULES-2 states, with its ranges."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.rules import RANGES, options

RULES = (Path(__file__).resolve().parents[2] / "spec" / "rules.md").read_text(encoding="utf-8")


def rules_2() -> str:
    match = re.search(r"^- \*\*RULES-2\*\* — (.*)$", RULES, re.MULTILINE)
    assert match
    return match.group(1)


@pytest.mark.rule("RULES-2")
def test_every_option_and_range_is_the_one_the_spec_states() -> None:
    text = rules_2().replace(",", "")
    for option in options():
        if option.name == "name":
            continue
        found = re.search(rf"`{option.name}` \(([^)]*)\)", text)
        assert found, option.name
        stated = found.group(1).replace("`", "")
        if option.name in RANGES:
            low, high = RANGES[option.name]
            spelled = f"{low}–{high}" if high - low > 1 else f"{low} or {high}"
            assert spelled in stated, (option.name, stated)
        elif " | " in option.values and option.values != "true | false":
            assert stated.startswith(option.values), (option.name, stated)
        assert f"default {option.default_text}" in stated, (option.name, stated)


@pytest.mark.rule("RULES-2")
def test_every_option_names_a_rule_of_the_spec() -> None:
    ids = set(re.findall(r"^- \*\*([A-Z]+-\d+)\*\*", RULES, re.MULTILINE))
    for option in options():
        assert option.rule in ids and option.summary, option.name
