"""The peers' conformance adapters (tools/adapters, CONF-6): a case a peer cannot express is reported as such,
neither passed nor failed; RLCard's answers on a few cases of the suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from knock.conformance import default_suite, load_case, load_cases, run_case

ROOT = Path(__file__).resolve().parents[2]
RLCARD = f"{sys.executable} {ROOT / 'tools' / 'adapters' / 'rlcard_gin.py'}"
CASES = default_suite()


def case(name: str) -> Path:
    return CASES / f"{name}.toml"


@pytest.mark.rule("CONF-6")
def test_an_unsupported_answer_is_neither_a_pass_nor_a_failure(tmp_path: Path) -> None:
    script = tmp_path / "shrug.py"
    script.write_text('import json; print(json.dumps({"outcome": "unsupported", "reason": "no upcard here"}))\n')
    result = run_case(load_case(case("offer/OFFER-1-non-dealer-takes")), f"{sys.executable} {script}", tmp_path)
    assert result.passed and result.unsupported == "no upcard here" and result.modes == {"adapter": "unsupported"}
    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe
    done = subprocess.run(
        [exe, "conform", "run", str(case("offer/OFFER-1-non-dealer-takes")), "--adapter", f"{sys.executable} {script}"],
        capture_output=True, text=True, env={"COLUMNS": "200", "PATH": ""}, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and "0 of 1 cases pass (1 not expressible" in done.stdout, done.stdout


@pytest.mark.rule("CONF-6", "OFFER-3", "TURN-1")
def test_rlcard_passes_what_it_shares_with_knock(tmp_path: Path) -> None:
    result = run_case(load_case(case("offer/OFFER-3-taker-must-discard")), RLCARD, tmp_path)
    assert result.passed and not result.unsupported, result.problems


@pytest.mark.rule("CONF-6", "OFFER-1")
def test_rlcard_fails_where_its_rules_differ(tmp_path: Path) -> None:
    result = run_case(load_case(case("offer/OFFER-1-non-dealer-takes")), RLCARD, tmp_path)
    assert not result.passed and "RLCARD-GIN" in " ".join(result.problems)  # RLCard forces gin


@pytest.mark.rule("CONF-6", "THREE-1")
def test_rlcard_cannot_express_three_handed_play(tmp_path: Path) -> None:
    three = next(c for c in load_cases([CASES]) if c.preset == "three_handed" and c.tamper is None)
    result = run_case(three, RLCARD, tmp_path)
    assert result.passed and "three-handed" in result.unsupported
