"""spec/log-grammar.json read as an outside implementation would (LOG-4): a closed grammar whose rows are exactly the
ones Knock's readers run, and whose table in spec/log-format.md says the same."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from replay import grammar

SPEC = Path(__file__).resolve().parents[2] / "spec"
GRAMMAR = json.loads((SPEC / "log-grammar.json").read_text("utf-8"))


@pytest.mark.rule("LOG-4")
def test_the_published_grammar_is_closed() -> None:
    states = {s["state"] for s in GRAMMAR["states"]}
    kinds = {k["kind"] for k in GRAMMAR["kinds"]}
    assert GRAMMAR["start"] in states and GRAMMAR["end"] in states
    for row in GRAMMAR["rows"]:
        assert row["state"] in states and row["kind"] in kinds and row["next"], row
        assert set(row["next"]) <= states, row
    seen = [(r["state"], r["kind"]) for r in GRAMMAR["rows"]]
    assert len(seen) == len(set(seen)), "one row for each state and kind"
    assert not [r for r in GRAMMAR["rows"] if r["state"] == GRAMMAR["end"]], "nothing follows the trailer (LOG-7)"
    reachable, frontier = {GRAMMAR["start"]}, [GRAMMAR["start"]]
    while frontier:
        at = frontier.pop()
        for row in (r for r in GRAMMAR["rows"] if r["state"] == at):
            for n in row["next"]:
                if n not in reachable:
                    reachable.add(n)
                    frontier.append(n)
    assert reachable == states, states - reachable


@pytest.mark.rule("LOG-4", "LOG-11")
def test_the_readers_run_exactly_the_published_rows() -> None:
    published = {(r["state"], r["kind"]): tuple(r["next"]) for r in GRAMMAR["rows"]}
    running = {(at.value, kind.value): tuple(n.value for n in row.next)
               for at, row_of in grammar.ACCEPTS.items() for kind, row in row_of.items()}  # fmt: skip
    assert published == running
    views_only = {k["kind"] for k in GRAMMAR["kinds"] if k["views_only"]}
    assert views_only == {k.value for k in grammar.VIEW_ONLY} == {"seen draw", "hidden knock"}


@pytest.mark.rule("LOG-4")
def test_the_table_of_log_format_md_is_the_published_grammar() -> None:
    text = (SPEC / "log-format.md").read_text("utf-8")
    block = text.split("<!-- generated: grammar -->")[1].split("<!-- end generated: grammar -->")[0]
    rows = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 4 and cells[0].startswith("`"):
            kinds = re.findall(r"`([^`]+)`", cells[2])
            nexts = [re.findall(r"`([^`]+)`", part) for part in cells[3].split("<br>")] if kinds else []
            for kind, after in zip(kinds, nexts, strict=True):
                rows[(cells[0].strip("`"), kind)] = tuple(after)
    assert rows == {(r["state"], r["kind"]): tuple(r["next"]) for r in GRAMMAR["rows"]}
