"""Every rule under which the engine or the replayer refuses input has a reject case in the conformance suite
(CONF-8): the rules are read from the refusals the source code cites."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from knock.conformance import default_suite, load_cases, rule_coverage, rule_ids

ROOT = Path(__file__).resolve().parents[2]
#: Refusals of API calls, not of game input: asking for the view of a seat not dealt in (CONF-8), and the
#: kernel's answer to a person's word "gin" when no discard leaves all ten melded (KNOCK-5: no action is refused,
#: the terminal asks it, ``knock.play.words``).
NOT_INPUT = {"VIS-1", "KNOCK-5"}
#: A refusal in the source: an error raised (or a refusal helper called) with a rule id as its first argument.
REFUSAL = re.compile(
    r"\b(?:Refused|InvalidDeal|InvalidRules|InvalidMeld|InvalidSeat|IllegalAction|LogError|LogTruncated|"
    r"LogTampered|ReplayError|refuse|_refuse|fail)\(\s*\"([A-Z]+-\d+)\""
)


def refusing_rules() -> set[str]:
    """The rule ids cited in a refusal of input in ``engine/`` or ``replay/``."""
    found: set[str] = set()
    for package in ("engine", "replay"):
        for p in (ROOT / package).rglob("*.py"):
            found |= set(REFUSAL.findall(p.read_text(encoding="utf-8")))
    return found - NOT_INPUT


@pytest.mark.rule("CONF-8")
def test_the_scan_finds_the_refusals() -> None:
    """The scan sees refusals of the game, the deal, the rule set and the log, all under spec rule ids."""
    found = refusing_rules()
    assert {"TURN-3", "KNOCK-2", "DEAL-4", "RULES-1", "LOG-7"} <= found
    assert found <= set(rule_ids()), sorted(found - set(rule_ids()))


@pytest.mark.rule("CONF-8")
def test_every_refusing_rule_has_a_reject_case() -> None:
    cov = rule_coverage(load_cases([default_suite()]))
    missing = sorted(r for r in refusing_rules() if not cov.reject[r])
    assert not missing, f"rules the code refuses input under with no reject case in the suite: {missing}"
