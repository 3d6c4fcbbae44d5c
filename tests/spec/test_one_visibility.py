"""What a seat may see has one answer, in ``engine.visibility``: no consumer works it out for itself.

The behavioural side — each seat's observation is what its redacted log replays to, record by record — is in
``tests/replay/test_redact.py``; here the source of ``engine``, ``replay`` and ``knock`` is read.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HOME = ROOT / "engine" / "visibility.py"
#: Values that are a seat's view, or its hidden parts: only the visibility module makes them.
VIEW_TYPES = {"Observation", "MatchObservation", "Sight", "HiddenDraw", "HiddenKnock", "HiddenAdvice"}
#: The option that decides what a sitter sees (THREE-8): read only where it is decided (and defined).
OPTION = "sitter_sees_captain_hand"
#: Fields a consumer would blank to hide cards from a seat.
HIDDEN_FIELDS = {"hands", "stock", "hand", "taken", "knock_discard", "card", "suggestion"}
#: The consumers that show a seat its view, and the visibility entry points each must call.
CONSUMERS = {
    "engine/hand.py": {"observe_hand"},
    "engine/match.py": {"observe_match"},
    "replay/redact.py": {"SeatLens", "shown_meta"},
    "knock/play/table.py": {"SeatLens"},
    "knock/cli/logs.py": {"SeatLens"},
    "knock/web/game.py": {"SeatLens", "observe_spectator", "advice_shown", "blind_advice"},
    "knock/envs/episode.py": {"advice_shown", "blind_advice"},
    "knock/envs/openspiel.py": {"SeatLens"},
}


def name_of(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def reads_option(node: ast.AST) -> bool:
    """``rules.sitter_sees_captain_hand``, ``rules["sitter_sees_captain_hand"]`` or ``rules.get("...")``."""
    if isinstance(node, ast.Attribute):
        return node.attr == OPTION
    key: ast.expr | None = None
    if isinstance(node, ast.Subscript):
        key = node.slice
    elif isinstance(node, ast.Call) and name_of(node.func) == "get" and node.args:
        key = node.args[0]
    return isinstance(key, ast.Constant) and key.value == OPTION


def decisions(source: str) -> list[str]:
    """Where a module decides by itself what a seat may see (line numbers and what)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call) and name_of(node.func) in VIEW_TYPES:
            found.append(f"{line}: makes a {name_of(node.func)}")
        if isinstance(node, ast.Call) and name_of(node.func) == "replace":
            blanked = {k.arg or "" for k in node.keywords} & HIDDEN_FIELDS
            if blanked:
                found.append(f"{line}: blanks {sorted(blanked)}")
        if reads_option(node):
            found.append(f"{line}: reads {OPTION}")
        if isinstance(node, ast.Assign):
            for target in node.targets:
                key = target.slice if isinstance(target, ast.Subscript) else None
                shown = isinstance(node.value, ast.Call) and name_of(node.value.func) == "shown_meta"
                if isinstance(key, ast.Constant) and key.value == "meta" and not shown:
                    found.append(f"{line}: writes a header's meta")
    return found


def sources() -> list[Path]:
    return sorted(p for d in ("engine", "replay", "knock") for p in (ROOT / d).rglob("*.py") if p != HOME)


@pytest.mark.rule("VIS-1", "THREE-8", "LOG-11")
def test_no_consumer_decides_what_a_seat_sees() -> None:
    found = {}
    for path in sources():
        text = path.read_text(encoding="utf-8")
        here = [d for d in decisions(text) if not (path.name == "rules.py" and OPTION in d)]  # its definition
        if here:
            found[str(path.relative_to(ROOT))] = here
    assert not found, f"visibility decided outside engine/visibility.py: {found}"


@pytest.mark.rule("VIS-1", "THREE-8", "LOG-11")
def test_the_checker_finds_a_decision_made_elsewhere() -> None:
    made_here = """
import dataclasses
def view(match, seat, e, wire):
    if not match.rules.sitter_sees_captain_hand:
        e = dataclasses.replace(e, hands=((), ()), stock=())
    wire["meta"] = {}
    return Observation(seat=seat)
"""
    assert len(decisions(made_here)) == 4
    read = "sees = header.rules.get('sitter_sees_captain_hand', True) or r['sitter_sees_captain_hand']"
    assert len(decisions(read)) == 2
    ok = "wire['meta'] = shown_meta(header.meta)\nrules.replace(target=50)\nALIASES = {'sitter_sees_captain_hand': ()}"
    assert decisions(ok) == []


@pytest.mark.rule("VIS-1", "THREE-8", "LOG-11")
@pytest.mark.parametrize(("path", "calls"), sorted(CONSUMERS.items()))
def test_every_consumer_asks_the_visibility_module(path: str, calls: set[str]) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module == "engine.visibility"
                for a in n.names}  # fmt: skip
    used = {name_of(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert calls <= imported & used, f"{path} must call {sorted(calls - (imported & used))} of engine.visibility"


@pytest.mark.rule("VIS-1", "THREE-8")
@pytest.mark.parametrize(("path", "call"), [("engine/hand.py", "observe_hand"), ("engine/match.py", "observe_match")])
def test_observation_is_the_visibility_modules_answer(path: str, call: str) -> None:
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    method = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "observation")
    body = [s for s in method.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]
    assert len(body) == 1 and isinstance(body[0], ast.Return), "observation() only returns the module's answer"
    value = body[0].value
    assert isinstance(value, ast.Call) and name_of(value.func) == call
