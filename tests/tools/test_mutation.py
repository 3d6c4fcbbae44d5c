"""``tools/mutation.py`` (issue #60's mutation run): a smoke of the real thing, mutmut on the kernel's spread limit
against the hand's knock tests, and its arithmetic on a known tally. The whole run (every mutant of the kernel
and the legal fast paths) is the tool's, not the suite's: ``python tools/mutation.py``."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import mutation  # noqa: E402 -- tools/ is not a package


@pytest.mark.rule("KNOCK-4", "KNOCK-6")
def test_mutmut_runs_on_the_kernel_and_the_knock_tests_kill_the_spread_limits_mutants(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "mutation.py"), "--workdir", str(tmp_path / "work"),
         "--only", "engine.kernel.x_spread_limit*", "--tests", "tests/engine/test_hand_knock.py",
         "--children", "1", "--json", str(out)],
        capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = json.loads(out.read_text())
    # mutmut made the spread limit's mutants (0 -> 1 after big gin among them) and the knock tests caught each
    assert figures["killed"] >= 3 and figures["survived"] == 0, figures
    assert figures["kill_rate"] == 1.0
    assert "kill rate 100.0%" in done.stdout
    assert not (ROOT / "mutants").exists()  # the run is made in the copy, never here


def test_the_kill_rate_counts_timeouts_as_killed_and_leaves_untested_mutants_out() -> None:
    by = {"killed": ["a", "b", "c"], "timeout": ["d"], "survived": ["e"], "no tests": ["f", "g"]}
    figures = mutation.report(by, 12.0)
    assert (figures["killed"], figures["survived"], figures["kill_rate"]) == (4, 1, 0.8)
    assert figures["survivors"] == ["e"] and figures["statuses"] == {"killed": 3, "no tests": 2, "survived": 1,
                                                                      "timeout": 1}  # fmt: skip


def test_the_copy_gets_mutmuts_table() -> None:
    table = mutation.config(("engine/kernel.py",), ("tests/engine/test_kernel.py",))
    assert 'source_paths = ["engine/kernel.py"]' in table
    assert 'pytest_add_cli_args_test_selection = ["tests/engine/test_kernel.py"]' in table


def test_a_mutant_that_changes_only_a_refusals_words_is_a_message_mutant() -> None:
    def fn(source: str) -> ast.FunctionDef:
        node = ast.parse(source).body[0]
        assert isinstance(node, ast.FunctionDef)
        return node

    original = fn('def f(x):\n    if x > 1:\n        raise Refused("TURN-1", f"no card {x}")\n    return x\n')
    words = fn('def f(x):\n    if x > 1:\n        raise Refused("TURN-1", None)\n    return x\n')
    test = fn('def f(x):\n    if x >= 1:\n        raise Refused("TURN-1", f"no card {x}")\n    return x\n')
    rule = fn('def f(x):\n    if x > 1:\n        raise Refused("XXTURN-1XX", f"no card {x}")\n    return x\n')
    assert mutation._kind(original, words) == "message"
    assert mutation._kind(original, test) == "logic"
    assert mutation._kind(original, rule) == "logic"  # the rule id is what the tests check
