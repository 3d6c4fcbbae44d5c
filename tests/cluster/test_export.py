"""``knock export``: the Parquet dataset read back and checked against the logs it came from, row groups
written as it goes, logs that fail left out, and the README's DuckDB queries run over a simulated corpus.
"""

from __future__ import annotations

import math
from pathlib import Path

import duckdb
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from engine.rules import RuleSet
from knock import export
from knock import simulate as sim
from knock.cluster.runner import Runner
from knock.cluster.storage import find_logs
from replay.audit import verify
from replay.codec import T_CHECKPOINT, T_TRAILER
from replay.log import LogReader

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
DOC = Path(__file__).resolve().parents[2] / "docs" / "cluster.md"

#: The README's queries over ``knock export … -o out/hands`` (the test points them at its own dataset).
KNOCK_RATE = """
SELECT knock_limit, count(*) AS hands,
       round(avg((outcome <> 'dead')::INT), 3) AS knock_rate,
       round(avg((outcome IN ('gin', 'big_gin'))::INT), 3) AS gin_rate
FROM 'out/hands/hands/*.parquet'
WHERE preset = 'oklahoma'
GROUP BY knock_limit ORDER BY knock_limit
"""
WIN_RATE = """
WITH games AS (SELECT DISTINCT game, players[game_winner + 1] AS winner FROM 'out/hands/hands/*.parquet'),
     rate AS (SELECT count(*) AS n, avg((winner LIKE 'heuristic#%')::DOUBLE) AS p FROM games)
SELECT n AS games, round(p, 3) AS win_rate,
       round(p - 1.96 * sqrt(p * (1 - p) / n), 3) AS low_95,
       round(p + 1.96 * sqrt(p * (1 - p) / n), 3) AS high_95
FROM rate
"""


def seals(data: bytes) -> tuple[list[str], str]:
    """The checkpoint digests and the trailer's digest of a log, read straight from its records."""
    checkpoints, trailer = [], ""
    for entry in LogReader(data).entries():
        kind = entry.record[0] if isinstance(entry.record, list) else None  # an action is one int
        if kind == T_CHECKPOINT:
            checkpoints.append(entry.record[1].hex())
        elif kind == T_TRAILER:
            trailer = entry.record[2].hex()
    return checkpoints, trailer


@pytest.mark.rule("LOG-6", "LOG-8")
def test_every_golden_hand_and_action_is_a_row_that_agrees_with_the_log(tmp_path: Path) -> None:
    files = find_logs([str(GOLDEN)])
    with Runner(None, 1) as runner:
        result, parts = export.run(files, [str(GOLDEN)], str(tmp_path), runner, actions=True, size=20)
    assert result.logs == len(files) == len(list(GOLDEN.glob("*.knock"))) and not result.failed
    assert parts == math.ceil(len(files) / 20)
    hands = ds.dataset(tmp_path / "hands").to_table().to_pylist()
    actions = ds.dataset(tmp_path / "actions").to_table().to_pylist()
    assert len(hands) == result.hands and len(actions) == result.actions
    for path in files:
        data = Path(path).read_bytes()
        report, (checkpoints, trailer) = verify(data), seals(data)
        game = Path(path).stem
        rows = [h for h in hands if h["game"] == game]
        assert [r["hand"] for r in rows] == [h.number for h in report.hands]
        assert [r["checkpoint"] for r in rows] == checkpoints
        header = LogReader(data).header
        for row, hand in zip(rows, report.hands, strict=True):
            assert (row["dealer"], tuple(row["seats"]), row["sitter"]) == (hand.dealer, hand.seats, hand.sitter)
            assert (row["upcard"], row["knock_limit"], tuple(row["scores"])) == (hand.upcard, hand.knock_limit,
                                                                                 hand.scores)  # fmt: skip
            assert (row["game_digest"], row["game_winner"], row["players"]) == (trailer, report.winner,
                                                                                list(header.players))  # fmt: skip
            assert row["preset"] == header.rules["name"] and row["options"] == export.options_hash(report.rules)
            if row["outcome"] == "dead":
                assert hand.result.startswith("dead hand") and row["winner"] is None
                assert row["deadwood"] == [None] * len(header.players)
            else:
                assert hand.result.startswith(row["outcome"].replace("_", " ") + f" by p{row['knocker']}")
                for seat in hand.seats:
                    assert f"p{seat} {row['deadwood'][seat]}" in hand.result
                if row["winner"] is not None:
                    assert hand.result.endswith(f"p{row['winner']} scores {row['points']}" + (
                        f" x{row['multiplier']}" if row["multiplier"] != 1 else ""))  # fmt: skip
            steps = [a for a in actions if a["game"] == game and a["hand"] == hand.number]
            assert [a["text"] for a in steps] == [a for a in hand.actions if not a.startswith("game over")]
            assert [a["step"] for a in steps] == list(range(1, row["actions"] + 1))
            assert all(a["card"] is None or a["card"] in a["text"] for a in steps)


def test_parts_are_written_a_row_group_at_a_time_and_bad_logs_are_left_out(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for path in sorted(GOLDEN.glob("standard*.knock")):
        (logs / path.name).write_bytes(path.read_bytes())
    (logs / "cut.knock").write_bytes((GOLDEN / "standard-1.knock").read_bytes()[:200])
    batch = export.ExportBatch(0, tuple(find_logs([str(logs)])), (str(logs),), str(tmp_path / "out"), True, "t", 16)
    result = export.export_batch(batch)
    assert [Path(f).name for f, _ in result.failed] == ["cut.knock"] and "LOG-7" in result.failed[0][1]
    part = pq.ParquetFile(tmp_path / "out" / "hands" / "part-00000.parquet")
    assert part.metadata.num_rows == result.hands and part.metadata.num_row_groups == math.ceil(result.hands / 16)
    assert pq.ParquetFile(tmp_path / "out" / "actions" / "part-00000.parquet").metadata.num_row_groups > 10
    assert not [p for p in (tmp_path / "out").rglob("*") if ".tmp-" in p.name]
    assert export.existing_parts(str(tmp_path / "out")) == ["actions/part-00000.parquet", "hands/part-00000.parquet"]


def test_the_readme_queries_run_over_an_exported_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    todo = sim.jobs(RuleSet.preset("oklahoma"), ["heuristic", "greedy"], 6, 1)
    with Runner(None, 1) as runner:
        report = sim.run(todo, runner, str(tmp_path / "c"))
        export.run(find_logs([str(tmp_path / "c")]), [str(tmp_path / "c")], str(tmp_path / "out/hands"), runner)
    monkeypatch.chdir(tmp_path)
    db = duckdb.connect()
    rates = db.execute(KNOCK_RATE).fetchall()
    reports = [verify((tmp_path / "c" / f"game-{job.seed}.knock").read_bytes()) for job in todo]
    hands = [h for r in reports for h in r.hands]
    assert sum(n for _, n, _, _ in rates) == len(hands) == report.tally.hands
    for limit, n, knock_rate, gin_rate in rates:
        at = [h for h in hands if h.knock_limit == limit]
        assert n == len(at)
        assert knock_rate == round(sum(not h.result.startswith("dead") for h in at) / n, 3)
        assert gin_rate == round(sum(h.result.startswith(("gin", "big gin")) for h in at) / n, 3)
    ((games, win_rate, low, high),) = db.execute(WIN_RATE).fetchall()
    p = report.tally.wins["heuristic"] / report.tally.games
    assert games == 6 and win_rate == round(p, 3)
    half = 1.96 * math.sqrt(p * (1 - p) / 6)
    assert (low, high) == (round(p - half, 3), round(p + half, 3))


def test_the_docs_list_every_column_as_the_code_defines_it() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name, kind, what in [*export.HAND_COLUMNS, *export.ACTION_COLUMNS]:
        shown = str(kind).replace("list<item: ", "list<")
        assert f"| `{name}` | {shown} | {what} |" in text, name
    assert KNOCK_RATE.strip().rstrip(";") in text and WIN_RATE.strip() in text  # the queries the test runs
