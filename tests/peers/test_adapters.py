"""The peers' conformance adapters (tools/adapters, CONF-6): a case a peer cannot express is reported as such,
neither passed nor failed; RLCard's and OpenSpiel's answers on a few cases of the suite; docs/peers.md is what
its record renders, and the record is today's."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from knock.conformance import default_suite, load_case, load_cases, run_case

ROOT = Path(__file__).resolve().parents[2]
RLCARD = f"{sys.executable} {ROOT / 'tools' / 'adapters' / 'rlcard_gin.py'}"
OPENSPIEL = f"{sys.executable} {ROOT / 'tools' / 'adapters' / 'openspiel_gin.py'}"
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


# --- OpenSpiel's gin_rummy ----------------------------------------------------------------------------------


@pytest.mark.rule("CONF-6", "LAY-4", "OFFER-4", "OKLA-1", "VIS-1", "DEAL-4", "DEAD-2")
@pytest.mark.parametrize(
    "name",
    [
        "lay/LAY-4-both-ends",  # a spread and a defence with layoffs at both ends of a run, scored
        "offer/OFFER-4-no-pickup-after-both-pass",  # refused, under the rule its cause matches
        "okla/OKLA-1-six-upcard-knock-seven-rejected",  # OpenSpiel's oklahoma parameter
        "vis/VIS-1-state-after-pickup",  # the state in play, from OpenSpiel's
        "deal/DEAL-4-card-twice",  # the deal forced through the chance nodes: a card dealt twice is refused
        "dead/DEAD-2-take-last-discard-and-knock",  # OpenSpiel's wall under the 50th-card rule
    ],
)
def test_openspiel_passes_what_it_shares_with_knock(name: str, tmp_path: Path) -> None:
    result = run_case(load_case(case(name)), OPENSPIEL, tmp_path)
    assert result.passed and not result.unsupported, result.problems


@pytest.mark.rule("CONF-6", "MELD-5", "LAY-4")
@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("meld/MELD-5-eleven-card-knock", "with KNOCK-2: OpenSpiel does not offer the knock"),  # its 11-card shortcut
        ("lay/LAY-4-three-chained-at-one-end", "with LAY-4: OpenSpiel does not offer laying off Ts"),
    ],
)
def test_openspiel_fails_its_two_known_differences(name: str, refusal: str, tmp_path: Path) -> None:
    result = run_case(load_case(case(name)), OPENSPIEL, tmp_path)
    assert not result.passed and not result.unsupported
    assert refusal in " ".join(result.problems), result.problems


@pytest.mark.rule("CONF-6", "TURN-4", "SCORE-3", "THREE-1")
@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("turn/TURN-4-discard-first-upcard", "OpenSpiel lets a player discard the card he has just taken"),
        ("score/SCORE-3-tie-is-undercut", "OpenSpiel scores nothing on equal deadwood"),
        ("three/THREE-3-captain-takes-the-upcard", "OpenSpiel plays two players"),
    ],
)
def test_openspiel_cannot_express_what_it_plays_otherwise(name: str, reason: str, tmp_path: Path) -> None:
    result = run_case(load_case(case(name)), OPENSPIEL, tmp_path)
    assert result.passed and result.unsupported.startswith(reason), result.unsupported


# --- docs/peers.md --------------------------------------------------------------------------------------------


@pytest.mark.rule("CONF-6")
def test_docs_peers_md_is_its_records_rendering_and_the_record_is_todays() -> None:
    """tools/peers.py --check: the report renders from docs/peers.json, whose case, adapter and version digests
    are today's, and whose failures (with one pass and one n/a per peer) replay as recorded."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "peers.py"), "--check"], capture_output=True,
                          text=True, cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
