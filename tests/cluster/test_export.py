"""``knock export``: the Parquet dataset read back and checked against the logs it came from, row groups
written as it goes, logs that fail left out, and the README's DuckDB queries run over a simulated corpus.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from pathlib import Path
from typing import Any

import duckdb
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from engine import __version__
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

SQL = re.compile(r"^```sql\n(.*?)^```", re.DOTALL | re.MULTILINE)


def doc_queries() -> list[str]:
    """The DuckDB statements of docs/cluster.md, as written there (split at each ``;``: none in a comment)."""
    return [q.strip() for block in SQL.findall(DOC.read_text(encoding="utf-8")) for q in block.split(";") if q.strip()]


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
def test_every_golden_game_seat_hand_and_action_is_a_row_that_agrees_with_the_log(tmp_path: Path) -> None:
    files = find_logs([str(GOLDEN)])
    with Runner(None, 1) as runner:
        result = export.run(files, [str(GOLDEN)], str(tmp_path), runner, actions=True, size=20)
    assert result.logs == len(files) == len(list(GOLDEN.glob("*.knock"))) and not result.failed
    parts = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.parquet"))
    assert all(re.fullmatch(r"(games|seats|hands|actions)/preset=\w+/part-\d{5}\.parquet", p) for p in parts)
    assert len(parts) == sum(result.parts.values()) and result.parts["games"] >= math.ceil(len(files) / 20)
    for part in parts:
        meta = pq.read_schema(tmp_path / part).metadata
        assert meta[b"knock_version"] == __version__.encode() and meta[b"knock_dataset_version"] == b"2"
    success = json.loads((tmp_path / export.SUCCESS).read_text())
    assert success["rows"] == result.rows and success["dataset_version"] == export.DATASET_VERSION
    tables = {t: ds.dataset(tmp_path / t, partitioning="hive").to_table().to_pylist() for t in export.TABLES}
    assert {t: len(rows) for t, rows in tables.items()} == result.rows
    assert len({g["game"] for g in tables["games"]}) == len(files)  # one key a game
    for path in files:
        data = Path(path).read_bytes()
        report, (checkpoints, trailer) = verify(data), seals(data)
        header = LogReader(data).header
        (game,) = [g for g in tables["games"] if g["game"] == trailer]
        assert (game["log"], game["preset"], game["options"]) == (Path(path).stem, header.rules["name"],
                                                                 export.options_hash(report.rules))  # fmt: skip
        assert (game["winner"], game["hands"], game["players"]) == (report.winner, len(report.hands),
                                                                     len(header.players))  # fmt: skip
        seats = sorted((s for s in tables["seats"] if s["game"] == trailer), key=lambda s: s["seat"])
        assert [(s["seat"], s["player"], s["bot"]) for s in seats] == [
            (i, name, export.bot_name(name)) for i, name in enumerate(header.players)]  # fmt: skip
        assert [s["score"] for s in seats] == list(report.totals)
        assert [s["won"] for s in seats] == [i == report.winner for i in range(len(seats))]
        assert game["winner_bot"] == seats[report.winner]["bot"]  # type: ignore[index]
        rows = sorted((h for h in tables["hands"] if h["game"] == trailer), key=lambda h: h["hand"])
        assert [r["hand"] for r in rows] == [h.number for h in report.hands]
        assert [r["checkpoint"] for r in rows] == checkpoints
        assert game["actions"] == sum(r["actions"] for r in rows)
        assert game["dead_hands"] == sum(r["outcome"] == "dead" for r in rows)
        for row, hand in zip(rows, report.hands, strict=True):
            assert (row["dealer"], tuple(row["seats"]), row["sitter"]) == (hand.dealer, hand.seats, hand.sitter)
            assert (row["upcard"], row["knock_limit"], tuple(row["scores"])) == (hand.upcard, hand.knock_limit,
                                                                                 hand.scores)  # fmt: skip
            assert row["preset"] == header.rules["name"]
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
            steps = sorted((a for a in tables["actions"] if a["game"] == trailer and a["hand"] == hand.number),
                           key=lambda a: a["step"])  # fmt: skip
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
    part = pq.ParquetFile(tmp_path / "out" / "hands" / "preset=standard" / "part-00000.parquet")
    assert part.metadata.num_rows == result.hands and part.metadata.num_row_groups == math.ceil(result.hands / 16)
    actions = tmp_path / "out" / "actions" / "preset=standard" / "part-00000.parquet"
    assert pq.ParquetFile(actions).metadata.num_row_groups > 10
    assert not [p for p in (tmp_path / "out").rglob("*") if ".tmp-" in p.name]
    assert export.existing_parts(str(tmp_path / "out")) == [f"{t}/preset=standard/part-00000.parquet"
                                                           for t in sorted(export.TABLES)]  # fmt: skip
    assert result.parts == dict.fromkeys(export.TABLES, 1)  # no _SUCCESS: a batch is not an export


def test_the_docs_queries_run_as_written_over_an_export_of_two_run_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    runs = {"out/c": sim.jobs(RuleSet.preset("oklahoma"), ["heuristic", "greedy"], 6, 1),
            "out/d": sim.jobs(RuleSet.preset("standard"), ["greedy", "random"], 4, 1)}  # fmt: skip
    with Runner(None, 1) as runner:
        tallies = {folder: sim.run(todo, runner, folder).tally for folder, todo in runs.items()}
        result = export.run(find_logs(list(runs)), list(runs), "out/data", runner, actions=True)
    assert result.games == 10 and not result.failed  # both folders have a game-1 .. game-4: ten keys
    logs = {folder: [Path(folder, job.log_name).read_bytes() for job in todo] for folder, todo in runs.items()}
    reports = {folder: [verify(data) for data in found] for folder, found in logs.items()}
    db = duckdb.connect()
    answers: dict[str, list[Any]] = {}
    for query in doc_queries():
        found = db.sql(query)  # None for a statement that returns no rows (CREATE VIEW)
        answers[query.splitlines()[0]] = found.fetchall() if found is not None else []
    assert len(answers) == 10, list(answers)  # the views, the glance and five queries

    def answer(title: str) -> list[Any]:
        (key,) = [k for k in answers if k.startswith(f"-- {title}")]
        return answers[key]

    def per_game(folder: str) -> float:
        return round(tallies[folder].hands / tallies[folder].games, 2)

    assert answer("games and hands per game") == [("oklahoma", 6, per_game("out/c")),
                                                                  ("standard", 4, per_game("out/d"))]  # fmt: skip
    glance = answer("knock export out/c out/d")
    for (_, games, hands, knock_rate), folder in zip(glance, runs, strict=True):
        all_hands = [h for r in reports[folder] for h in r.hands]
        alive = sum(not h.result.startswith("dead") for h in all_hands)
        assert (games, hands, knock_rate) == (len(runs[folder]), per_game(folder), round(alive / len(all_hands), 3))
    wins = {bot: sum(t.wins.get(bot, 0) for t in tallies.values()) for bot in ("greedy", "heuristic", "random")}
    seats = {bot: sum(t.seats.get(bot, 0) for t in tallies.values()) for bot in wins}
    rates = answer("each bot's share")
    assert [(bot, n) for bot, n, *_ in rates] == [(bot, seats[bot]) for bot in sorted(wins)] == [
        ("greedy", 10), ("heuristic", 6), ("random", 4)]  # fmt: skip
    for bot, n, rate, low, high in rates:
        p = wins[bot] / n
        half = 1.96 * math.sqrt(p * (1 - p) / n)
        assert (rate, low, high) == (round(p, 3), round(p - half, 3), round(p + half, 3))
    oklahoma = [h for r in reports["out/c"] for h in r.hands]
    by_limit = answer("the knock rate and the gin rate")
    assert sum(n for _, n, _, _ in by_limit) == len(oklahoma) == tallies["out/c"].hands
    for limit, n, knock_rate, gin_rate in by_limit:
        at = [h for h in oklahoma if h.knock_limit == limit]
        assert n == len(at)
        assert knock_rate == round(sum(not h.result.startswith("dead") for h in at) / n, 3)
        assert gin_rate == round(sum(h.result.startswith(("gin", "big gin")) for h in at) / n, 3)
    won: dict[str, list[int]] = {}
    discards: Counter[str] = Counter()
    for folder, written in logs.items():
        for data, report in zip(written, reports[folder], strict=True):
            bots = [export.bot_name(name) for name in LogReader(data).header.players]
            for hand in report.hands:
                if m := re.search(r"p(\d) scores (\d+)", hand.result):
                    won.setdefault(bots[int(m.group(1))], []).append(int(m.group(2)))
                discards.update(a.rsplit(" ", 1)[1] for a in hand.actions if " discards " in a)
    joined = answer("the hands each bot won")
    assert joined == [(bot, len(won[bot]), round(sum(won[bot]) / len(won[bot]), 1)) for bot in sorted(won)]
    top = sorted(discards.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    assert answer("the cards discarded") == top


def test_the_docs_list_every_column_as_the_code_defines_it() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name, kind, what in [c for columns in export.COLUMNS.values() for c in columns]:
        shown = str(kind).replace("list<item: ", "list<")
        assert f"| `{name}` | {shown} | {what} |" in text, name
    assert f"schema\nversion: {export.DATASET_VERSION}," in text or f"version: {export.DATASET_VERSION}," in text
