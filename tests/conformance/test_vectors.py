"""The verdict vectors (spec/conformance.md, CONF-15): the manifest is what tools/vectors.py writes, every vector
cites a row of spec/log-format.md's precedence table, every row and every rule a reader refuses under has its
vectors, and Knock's reader — in process and through the adapter contract, as ``knock verify --json`` — gives each
vector's answer."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from knock.conformance.vectors import load_vectors, run_vector
from tests.cli.support import run as knock
from tests.spec.test_refusals import refusing_rules

ROOT = Path(__file__).resolve().parents[2]
FOLDER, VECTORS = load_vectors()
#: Rules a reader of logs cannot be asked to name: a log has no form for their faults (CONF-4).
NO_LOG_FORM = {
    "THREE-1": "records carry no seat: an action by a seat not to act, or of no seat, cannot be written",
    "DEAL-1": "a hand record names its dealer among the seats dealt in; a dealer not dealt in cannot be written",
}


def precedence_rows() -> list[str]:
    text = (ROOT / "spec" / "log-format.md").read_text("utf-8")
    block = text.split("*The precedence table* (LOG-13).")[1].split("- **LOG-15**")[0]
    return re.findall(r"^\| `([a-z.]+)` \|", block, re.MULTILINE)


@pytest.mark.rule("CONF-15")
def test_the_manifest_is_what_the_tool_writes() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "vectors.py"), "--check"], capture_output=True,
                          text=True, cwd=ROOT, check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.rule("CONF-15", "LOG-13")
def test_every_vector_cites_a_row_and_every_row_has_failing_and_other_vectors() -> None:
    rows = precedence_rows()
    assert len(rows) == len(set(rows)) >= 30 and {"bytes.empty", "place", "verdict.pass"} <= set(rows)
    assert {v.row for v in VECTORS} <= set(rows), {v.row for v in VECTORS} - set(rows)
    for row in rows:
        failing = [v for v in VECTORS if v.row == row and v.verdict == "fail"]
        other = [v for v in VECTORS if v.row == row and v.verdict != "fail"]
        assert other, f"no vector of row {row} that passes or is unfinished"
        assert failing or row.startswith("verdict."), f"no vector that fails under row {row}"
    for v in VECTORS:
        assert v.name.startswith({"pass": "y_", "unfinished": "i_", "fail": "n_"}[v.verdict]), v.name
        assert (v.rule == "") == (v.verdict != "fail"), v.name
        assert (FOLDER / v.file).is_file(), v.file


@pytest.mark.rule("CONF-15", "LOG-13")
def test_every_rule_a_reader_refuses_under_has_a_failing_vector() -> None:
    named = {v.rule for v in VECTORS if v.verdict == "fail"}
    missing = sorted(refusing_rules() - named - set(NO_LOG_FORM))
    assert not missing, f"rules a reader refuses input under, with no vector: {missing}"
    assert not set(NO_LOG_FORM) & named


@pytest.mark.rule("CONF-15", "LOG-13", "LOG-7", "LOG-11", "LOG-12", "LOG-20", "DEAL-5", "LAY-2", "MATCH-1")
def test_knocks_reader_gives_every_vector_its_answer() -> None:
    failed = [(r.vector.name, r.problems) for r in (run_vector(v, FOLDER) for v in VECTORS) if not r.passed]
    assert not failed, failed[:10]


@pytest.mark.rule("CONF-15")
def test_knock_verify_json_is_an_adapter_and_the_runner_reports() -> None:
    sample = [v for v in VECTORS if v.name in ("n_empty", "i_signed-tail", "y_named-view", "n_unsigned-key-required")]
    assert len(sample) == 4
    adapter = f"{sys.executable} -m knock.cli verify --json"
    for v in sample:
        result = run_vector(v, FOLDER, adapter)
        assert result.passed, (v.name, result.problems, result.answer)
    done = knock("conform", "vectors", "-q")
    assert done.returncode == 0 and f"{len(VECTORS):,} of {len(VECTORS):,} vectors pass" in done.stdout
