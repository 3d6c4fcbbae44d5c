"""The conformance suite (spec/conformance.md): every case passes in case and log mode, the compiled logs
are up to date, every rule id is covered, and the runner itself catches wrong answers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.fsm import EXECUTOR_NAMES, ExecutorName
from knock.conformance import (
    Case,
    CaseError,
    answer_case,
    answer_log,
    compare,
    compile_case,
    default_logs,
    default_suite,
    load_case,
    load_cases,
    rule_coverage,
    run_case,
)
from tests.helpers import tool_check

ROOT = Path(__file__).resolve().parents[2]
CASES = default_suite()
LOGS = default_logs()
SUITE = load_cases([CASES])


@pytest.mark.rule("CONF-1", "CONF-3", "CONF-5")
@pytest.mark.parametrize("executor", EXECUTOR_NAMES)
@pytest.mark.parametrize("case", SUITE, ids=[c.name for c in SUITE])
def test_case_passes(case: Case, executor: ExecutorName) -> None:
    """Every case passes in both modes with either executor running every game (and every replay) of it."""
    result = run_case(case, executor=executor)
    assert result.passed, "\n".join(result.problems)


@pytest.mark.rule("CONF-4", "CONF-5")
def test_both_executors_give_identical_answers_and_log_bytes() -> None:
    """The library and the compiled executor play every case to the same answer and write the same log."""
    from knock.conformance import answer_log

    for case in SUITE:
        by = {x: compile_case(case, executor=x) for x in EXECUTOR_NAMES}
        assert by["library"] == by["compiled"], case.name
        if case.tamper is None:
            answers = [answer_case(case, executor=x) for x in EXECUTOR_NAMES]
            assert answers[0] == answers[1], case.name
        data = by["compiled"].data
        if data is not None:
            assert answer_log(data, executor="library") == answer_log(data, executor="compiled"), case.name


@pytest.mark.rule("CONF-4")
def test_compiled_logs_are_up_to_date() -> None:
    """The suite's logs and rule ids are what tools/conform.py makes of the cases and the spec (regenerate
    them on purpose)."""
    tool_check("conform.py")


@pytest.mark.rule("CONF-4", "CONF-6")
def test_committed_logs_give_their_expected_answers() -> None:
    """A third party without the cases can check its reader against NAME.knock and NAME.json alone."""
    logs = sorted(LOGS.rglob("*.knock"))
    assert len(logs) >= len(SUITE) - len((LOGS / "case-only.txt").read_text().splitlines())
    for log in logs:
        want = json.loads(log.with_suffix(".json").read_text())
        got = answer_log(log.read_bytes(), verify=want.pop("verify", None))
        assert got["outcome"] == want["outcome"], log
        if isinstance(want.get("rule"), list):  # one of these rules (CONF-9)
            assert got["rule"] in want.pop("rule"), log
        for key in ("rule", "record", "scores", "game_over", "winner", "totals"):
            if key in want:
                assert got.get(key) == want[key], (log, key)
        for i, hand in enumerate(want.get("hands", []) if "view" not in got else []):
            for key, value in hand.items():
                assert got["hands"][i].get(key) == value, (log, i, key)
        for key, value in want.get("state", {}).items():
            if key == "holding":
                assert all(got["state"]["holding"][seat] == held for seat, held in value.items()), log
            else:
                assert got["state"].get(key) == value, (log, key)


ECHO = """
import json, sys
from pathlib import Path
cases, logs, case, log = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
rel = case.resolve().relative_to(cases.resolve()).with_suffix(".json")
print((logs / rel).read_text() if log != "-" else json.dumps({"outcome": "none"}))
"""


@pytest.mark.rule("CONF-5", "CONF-6")
def test_the_committed_answers_pass_the_runner(tmp_path: Path) -> None:
    """NAME.json is a passing answer: an adapter that only echoes it passes every case that has a log form."""
    script = tmp_path / "echo.py"
    script.write_text(ECHO)
    command = f"{sys.executable} {script} {CASES} {LOGS}"
    case_only = {line.split(":")[0] for line in (LOGS / "case-only.txt").read_text().splitlines()}
    several = [c.name for c in SUITE if len(c.reject_rules or ()) > 1]  # NAME.json lists them: no answer's rule
    sample = [c for c in SUITE if c.name not in case_only and c.name not in several][::7]
    for case in sample:
        result = run_case(case, adapter=command, workdir=tmp_path)
        assert result.passed, (case.name, result.problems)


@pytest.mark.rule("CONF-8")
def test_every_rule_is_covered() -> None:
    cov = rule_coverage(SUITE)
    assert not cov.missing(), "\n".join(cov.missing())


@pytest.mark.rule("CONF-6")
def test_knock_passes_as_its_own_adapter(tmp_path: Path) -> None:
    """The adapter path (CONF-6) with Knock's own answer command, on a sample of the suite."""
    sample = [c for c in SUITE if c.name.startswith(("knock/", "log/", "turn/"))][:6]
    assert sample
    command = f"{sys.executable} -m knock.cli conform answer"
    for case in sample:
        result = run_case(case, adapter=command, workdir=tmp_path)
        assert result.passed, (case.name, result.problems)


# --- the runner catches what it must --------------------------------------------------------------

GIN = """
title = "gin"
rules = ["KNOCK-5"]
[[hand]]
p0 = "As 2s 3s 4s 5h 6h 7h 9c 9d 9h"
p1 = "2c 3d 4c 6d 8s Tc Jd Qs Kh Ks"
upcard = "Qh"
stock = "Kc ..."
actions = ["p0 pass", "p1 pass", "p0 draw", "p0 knock Kc", "p0 spread As-2s-3s-4s 5h-6h-7h 9c-9d-9h"]
[hand.expect]
points = POINTS
[expect]
outcome = "OUTCOME"
"""


def write(tmp_path: Path, text: str, name: str = "case.toml") -> Case:
    path = tmp_path / name
    path.write_text(text)
    return load_case(path)


@pytest.mark.rule("CONF-5", "KNOCK-5")
def test_a_wrong_expectation_fails_in_both_modes(tmp_path: Path) -> None:
    right = write(tmp_path, GIN.replace("POINTS", "98").replace("OUTCOME", "accept"))
    assert run_case(right).passed
    wrong = write(tmp_path, GIN.replace("POINTS", "97").replace("OUTCOME", "accept"))
    result = run_case(wrong)
    assert not result.passed and result.modes == {"case": "fail", "log": "fail"}
    assert any("hand 1 points: expected 97, got 98" in p for p in result.problems)


@pytest.mark.rule("CONF-3")
def test_a_reject_expected_where_the_engine_accepts_fails(tmp_path: Path) -> None:
    case = write(tmp_path, GIN.replace("POINTS", "98").replace("OUTCOME", "reject").replace(
        "[expect]", '[expect]\nrule = "KNOCK-2"'))  # fmt: skip
    assert not run_case(case).passed


@pytest.mark.rule("CONF-3")
def test_a_rejection_at_the_wrong_action_fails(tmp_path: Path) -> None:
    text = GIN.replace('"p0 draw", ', '"p0 discard Kc", "p0 draw", ').replace("POINTS", "98").replace(
        "OUTCOME", "reject").replace("[expect]", '[expect]\nrule = "TURN-1"')  # fmt: skip
    case = write(tmp_path, text)
    answer = answer_case(case)
    assert (answer["outcome"], answer["rule"], answer["hand"], answer["action"]) == ("reject", "TURN-1", 1, 3)
    assert compare(case, answer, log=False) == ["position (hand, action): expected [1, 6], got [1, 3]"]


@pytest.mark.rule("CONF-2")
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('rules = ["KNOCK-5"]\n[expect]\noutcome = "accept"', "at least one [[hand]]"),
        ('rules = []\n[expect]\noutcome = "accept"', "'rules' lists"),
        ('rules = ["X-1"]\ncolour = 1\n[expect]\noutcome = "accept"', "unknown key(s) colour"),
        ('rules = ["X-1"]\n[expect]\noutcome = "maybe"', "outcome = 'accept' or 'reject'"),
        ('rules = ["X-1"]\n[expect]\noutcome = "reject"\nrule = 3', "a rule id, a list of them, or absent"),
        ('rules = ["X-1"]\n[expect]\noutcome = "accept"\nrule = "X-1"', "only a reject case names a rule"),
        ('rules = ["X-1"]\n[[hand]]\np0 = "As"\nupcard = "2c"\n[expect]\noutcome = "accept"', "exactly the two"),
        ('rules = ["X-1"]\n[[hand]]\np0 = "As"\np1 = "Zz"\nupcard = "2c"\n[expect]\noutcome = "accept"', "p1"),
        ("rules = [", "not a readable TOML file"),
    ],
)
def test_malformed_cases_are_reported_as_case_errors(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(CaseError, match="CONF-2") as err:
        write(tmp_path, text)
    assert message in err.value.reason


@pytest.mark.rule("CONF-7", "LOG-7")
def test_tampering_is_applied_to_the_log_form(tmp_path: Path) -> None:
    text = GIN.replace("POINTS", "98").replace("OUTCOME", "reject").replace(
        "[expect]", '[tamper]\ntruncate = 3\n[expect]\nrule = "LOG-7"\nrecord = 10')  # fmt: skip
    text = text.replace('rules = ["KNOCK-5"]', 'rules = ["LOG-7"]')
    case = write(tmp_path, text)
    compiled = compile_case(case)
    (tmp_path / "b").mkdir()
    plain = GIN.replace("POINTS", "98").replace("OUTCOME", "accept")
    untampered = compile_case(write(tmp_path / "b", plain))
    assert compiled.data is not None and untampered.data is not None
    assert compiled.data == untampered.data[:-3]
    result = run_case(case)
    assert result.passed, result.problems
    assert result.modes["case"] == "skip"


@pytest.mark.rule("CONF-2", "TURN-3")
def test_the_readme_example_case_passes(tmp_path: Path) -> None:
    import re

    blocks = re.findall(r"```toml\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.DOTALL)
    assert blocks, "README.md shows no case"
    for block in blocks:
        result = run_case(write(tmp_path, block))
        assert result.passed, result.problems


@pytest.mark.rule("CONF-2", "CONF-6")
def test_the_command_reports_invalid_cases_one_by_one(tmp_path: Path) -> None:
    """An invalid case (an unknown key, an unknown rule id) fails on its own; the other cases still run."""
    good = GIN.replace("POINTS", "98").replace("OUTCOME", "accept")
    (tmp_path / "good.toml").write_text(good)
    (tmp_path / "unknown-rule.toml").write_text(good.replace('rules = ["KNOCK-5"]', 'rules = ["KNOCK-99"]'))
    (tmp_path / "unknown-key.toml").write_text(good.replace('title = "gin"', 'title = "gin"\ncolour = 1'))
    done = subprocess.run([sys.executable, "-m", "knock.cli", "conform", "run", str(tmp_path)], capture_output=True,
                          text=True, env={"COLUMNS": "200", "PATH": ""}, check=False)  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "1 of 3 cases pass" in done.stdout
    assert "KNOCK-99" in done.stdout and "unknown key(s) colour" in done.stdout


@pytest.mark.rule("CONF-8")
def test_coverage_counts_the_cases_of_each_rule(tmp_path: Path) -> None:
    """A reject case counts for the rule it breaks, its other rules as accepted; ids outside the list fail."""
    accept = write(tmp_path, GIN.replace("POINTS", "98").replace("OUTCOME", "accept"), "a.toml")
    reject = write(tmp_path, GIN.replace("POINTS", "98").replace("OUTCOME", "reject").replace(
        'rules = ["KNOCK-5"]', 'rules = ["KNOCK-5", "KNOCK-2"]').replace("[expect]", '[expect]\nrule = "KNOCK-2"'),
        "r.toml")  # fmt: skip
    cov = rule_coverage([accept, reject], ["KNOCK-2", "KNOCK-5", "LAY-4"])
    assert list(cov.rows()) == [("KNOCK-2", 0, 1), ("KNOCK-5", 2, 0), ("LAY-4", 0, 0)]
    assert cov.missing() == ["KNOCK-2: no accept case", "LAY-4: no accept case"]
    with pytest.raises(CaseError, match="KNOCK-5, which the spec does not define"):
        rule_coverage([accept], ["KNOCK-2"])
