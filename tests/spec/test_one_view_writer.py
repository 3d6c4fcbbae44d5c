"""A table's view has one writer, ``knock.web.views.write``: a seat's and a spectator's view at a live table and
every perspective of replay mode (a full log's, a per-seat view's) are its keys in its order, so no surface can
show a key the others lack, or spell one its own way. Here the source of ``knock`` is read; that the views are
equal where they should be (a transcript's seat view and the live table's at the same record) is
``tests/web/test_transcript.py``'s.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOME = ("knock/web/views.py", "write")
#: Keys only a whole view has (not a summary, a result or a hand): a dict literal with one is a view being written.
VIEW_ONLY = {"discard_top", "stock_only", "must_knock"}
#: The writer's keyword arguments for a live game (``write(**_live(...), ...)``), in the writer's own module.
ARGUMENTS = "knock/web/views.py:_live"


def writers(source: str, module: str) -> list[str]:
    """Where ``source`` builds a dict literal with a view's own keys, as ``module:function``."""
    tree = ast.parse(source)
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef):
            continue
        for node in ast.walk(fn):
            if isinstance(node, ast.Dict):
                keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
                if keys & VIEW_ONLY:
                    found.append(f"{module}:{fn.name}")
    return sorted(set(found))


def test_the_scan_finds_a_view_written_by_hand() -> None:
    source = 'def my_view(st):\n    return {"hand": 1, "discard_top": None, "knock_limit": 10}\n'
    assert writers(source, "knock/web/elsewhere.py") == ["knock/web/elsewhere.py:my_view"]
    assert not writers('def f():\n    return {"discard": 1}\n', "knock/web/elsewhere.py")


@pytest.mark.rule("PROTO-5", "PROTO-6", "LOG-12")
def test_only_the_writer_writes_a_view() -> None:
    found = []
    for path in sorted((ROOT / "knock").rglob("*.py")):
        module = path.relative_to(ROOT).as_posix()
        found += writers(path.read_text(encoding="utf-8"), module)
    home = f"{HOME[0]}:{HOME[1]}"
    assert home in found, "the scan no longer sees the writer itself"
    assert [w for w in found if w not in (home, ARGUMENTS)] == []


@pytest.mark.rule("PROTO-5", "PROTO-6")
def test_the_writer_writes_the_schemas_view_keys_in_one_order() -> None:
    """Every key ``write`` writes, once each, is one the schema (spec/'s) requires of a view."""
    schema = json.loads((ROOT / "spec" / "protocol.schema.json").read_text(encoding="utf-8"))
    tree = ast.parse((ROOT / HOME[0]).read_text(encoding="utf-8"))
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == HOME[1])
    body = next(n for n in ast.walk(fn) if isinstance(n, ast.Dict))
    written = [str(k.value) for k in body.keys if isinstance(k, ast.Constant)]
    required = next(set(d["required"]) for d in _objects(schema) if "discard_top" in d.get("required", []))
    assert set(written) <= required, sorted(set(written) - required)
    assert len(written) == len(set(written))


def _objects(node: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(node, dict):
        out.append(node)
        for v in node.values():
            out += _objects(v)
    elif isinstance(node, list):
        for v in node:
            out += _objects(v)
    return out
