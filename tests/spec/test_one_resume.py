"""One resume: a game goes on from its log only through ``replay.resume`` (issue 27). Rules: LOG-5, MATCH-7.

Outside ``replay`` no code may set a log writer's stream or a game's chance from outside the object (``writer.stream
= ...``, ``match.chance = ...``: an object's own ``self.x = ...`` is its business), name the web store's old
private sink (``_Sink``), or import a private name of ``replay``. The scan reads the syntax tree of every module
of ``engine``, ``knock`` and ``tools``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "knock", "tools")
#: Attributes only their own object (or ``replay``) may set.
GUARDED = {"stream", "chance"}


def _sets_by_name(node: ast.Call) -> bool:
    """``setattr(obj, "stream" | "chance", ...)``."""
    if not (isinstance(node.func, ast.Name) and node.func.id == "setattr"):
        return False
    return len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and node.args[1].value in GUARDED


def patches(source: str) -> list[tuple[int, str]]:
    """The (line, what) of every resume done by hand in ``source``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Call) and _sets_by_name(node):
            found.append((node.lineno, "setattr(...)"))
        for t in targets:
            own = isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
            if isinstance(t, ast.Attribute) and t.attr in GUARDED and not own:
                found.append((t.lineno, f"{ast.unparse(t)} ="))
        if (isinstance(node, ast.Name) and node.id == "_Sink") or (
            isinstance(node, ast.Attribute) and node.attr == "_Sink"
        ):
            found.append((node.lineno, "_Sink"))
        if isinstance(node, ast.ImportFrom):
            private = (node.module or "").split(".")[0] == "replay"
            found += [(node.lineno, f"from {node.module} import {a.name}") for a in node.names
                      if a.name == "_Sink" or (private and a.name[0] == "_")]  # fmt: skip
    return sorted(found)


@pytest.mark.rule("LOG-5", "MATCH-7")
def test_no_game_is_resumed_by_hand_outside_replay() -> None:
    faults = []
    for package in PACKAGES:
        for p in sorted((ROOT / package).rglob("*.py")):
            faults += [f"{p.relative_to(ROOT)}:{line}: {what}" for line, what in patches(p.read_text())]
    assert not faults, "resume a game with replay.resume, not by hand:\n" + "\n".join(faults)


@pytest.mark.rule("LOG-5")
def test_the_scan_sees_every_form() -> None:
    source = """
from replay.log import LogWriter, _hidden
from knock.web.game import _Sink
writer.stream = stream
game.match.chance = chance
match.chance: Chance = chance
setattr(writer, "stream", s)
sink = tables._Sink()
self.stream = stream
self.chance = chance
"""
    assert [line for line, _ in patches(source)] == [2, 3, 4, 5, 6, 7, 8]
