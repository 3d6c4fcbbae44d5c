"""Simulated runs in batches: the same bytes from any number of processes, atomic writes, the manifest of
finished games, and a run started again that skips what is already written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.rules import RuleSet
from knock import simulate as sim
from knock.cluster.runner import Runner
from knock.cluster.storage import Store, find_logs, relative_name
from tests.cluster.conftest import reference_jobs, same_logs


@pytest.mark.rule("LOG-5")
def test_a_pool_of_processes_writes_the_bytes_of_one_process(reference: Path, tmp_path: Path) -> None:
    with Runner(None, 2) as runner:
        report = sim.run(reference_jobs(12), runner, str(tmp_path), size=5)
    assert (report.played, report.batches, report.skipped, report.retried) == (12, 3, 0, 0)
    same_logs(tmp_path, reference, range(1, 13))
    manifest = sim.finished(Store(str(tmp_path)))
    assert sorted(s.seed for s in manifest.values()) == list(range(1, 13))
    for summary in manifest.values():
        assert summary.size == (tmp_path / f"game-{summary.seed}.knock").stat().st_size
        assert summary.key == sim.Job(RuleSet.preset("standard").to_dict(), summary.bots, summary.seed).key


@pytest.mark.rule("LOG-5")
def test_a_run_started_again_skips_the_games_its_manifest_lists(reference: Path, tmp_path: Path) -> None:
    logs = f"file://{tmp_path}"
    with Runner(None, 1) as runner:
        first = sim.run(reference_jobs(10), runner, logs, size=4)
        again = sim.run(reference_jobs(16), runner, logs, size=4)
        assert (first.played, again.played, again.skipped) == (10, 6, 10)
        assert again.tally.games == 16 and again.tally.hands == first.tally.hands + sum(
            s.hands for s in sim.finished(Store(logs)).values() if s.seed > 10
        )
        (tmp_path / "game-3.knock").unlink()  # lost: played again
        (tmp_path / "game-5.knock").write_bytes(b"something else")  # not what the manifest says: played again
        third = sim.run(reference_jobs(16), runner, logs)
        assert (third.played, third.skipped) == (2, 14)
        other = sim.run(sim.jobs(RuleSet.preset("standard"), ["random", "greedy"], 2, 1), runner, logs)
        assert (other.played, other.skipped) == (2, 0)  # the same seeds with other bots are other games
        back = sim.run(reference_jobs(3), runner, logs)
        assert (back.played, back.skipped) == (2, 1)  # games 1 and 2 were overwritten; 3 is as it was
    same_logs(tmp_path, reference, range(1, 17))
    assert not [p for p in tmp_path.rglob("*") if ".tmp-" in p.name]
    parts = sorted((tmp_path / sim.MANIFEST).glob("*.json"))
    assert all(json.loads(p.read_text())["games"] for p in parts)


def test_stores_write_atomically_and_find_logs_by_folder_glob_or_url(tmp_path: Path) -> None:
    for location in (str(tmp_path / "plain"), f"file://{tmp_path}/url"):
        store = Store(location)
        store.write("a/game-1.knock", b"one", "run1")
        with store.writing("b/part.parquet", "run1") as stream:
            stream.write(b"two")
            assert "b/part.parquet" not in store.sizes()  # not there until complete
        assert store.sizes() == {"a/game-1.knock": 3, "b/part.parquet": 3}
        store.write("c.json", b"x", "run1")
        assert store.read("a/game-1.knock") == b"one" and store.sizes("a") == {"a/game-1.knock": 3}
    (tmp_path / "plain" / "a" / "game-2.knock.tmp-run2-0a1b2c3d").write_bytes(b"left by a lost attempt")
    (tmp_path / "plain" / "a" / "game-3.knock.tmp-run3-0a1b2c3d").write_bytes(b"another run's")
    assert Store(str(tmp_path / "plain")).remove_leftovers("run2") == 1
    left = sorted(p.name for p in (tmp_path / "plain" / "a").iterdir())
    assert left == ["game-1.knock", "game-3.knock.tmp-run3-0a1b2c3d"]
    url = f"file://{tmp_path}/url"
    assert find_logs([url]) == [f"{url}/a/game-1.knock"]
    assert find_logs([str(tmp_path / "plain" / "*" / "*.knock")]) == [str(tmp_path / "plain" / "a" / "game-1.knock")]
    assert find_logs([str(tmp_path / "missing.knock")]) == [str(tmp_path / "missing.knock")]
    assert relative_name(f"{url}/a/game-1.knock", [url]) == "a/game-1"
    assert relative_name("/elsewhere/game-9.knock", [url]) == "game-9"
