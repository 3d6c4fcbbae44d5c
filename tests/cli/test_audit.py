"""``knock verify``'s engine (knock.bulk_verify): one verdict per file whatever happens to the others (LOG-13)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from knock import bulk_verify as audit
from knock.cluster.runner import Runner
from replay.verdict import Verdict

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.knock"))[:5]


def copies(tmp_path: Path) -> list[str]:
    for path in GOLDEN:
        shutil.copy(path, tmp_path / path.name)
    return [str(tmp_path / path.name) for path in GOLDEN]


@pytest.mark.rule("LOG-13")
def test_a_log_that_kills_its_worker_gets_a_failed_verdict_and_the_others_theirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = copies(tmp_path)
    killer = files[2]
    judge = audit.judge_location

    def deadly(location: str, required: audit.Required = audit.NOTHING) -> Verdict:
        if location == killer:
            os._exit(9)  # as a crash of the interpreter would: no exception, the process is gone
        return judge(location, required)

    monkeypatch.setattr(audit, "judge_location", deadly)  # inherited by the forked workers
    with Runner(None, 2) as runner:
        verdicts = audit.run(files, runner, size=1)
    assert [v.kind for v in verdicts] == ["pass", "pass", "fail", "pass", "pass"], [v.message for v in verdicts]
    assert verdicts[2].internal and "process died" in verdicts[2].message


@pytest.mark.rule("LOG-13")
def test_a_runner_that_breaks_leaves_no_file_without_a_verdict(tmp_path: Path) -> None:
    files = copies(tmp_path)

    class Breaking(Runner):
        def map(self, fn, items):  # type: ignore[no-untyped-def]
            yield fn(items[0])
            raise RuntimeError("the cluster went away")

    with Breaking(None, 1) as runner:
        verdicts = audit.run(files, runner, size=2)
    assert [v.kind for v in verdicts] == ["pass"] * len(files)
    missing = audit.run([str(tmp_path / "nothing.knock")], Runner(None, 1))
    assert missing[0].kind == "fail" and "cannot read" in missing[0].message and missing[0].record is None
