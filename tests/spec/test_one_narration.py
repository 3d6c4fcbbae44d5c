"""One narration: no surface words an event on its own; every one asks ``replay.narration``.

The scan reads the syntax tree of every module of ``replay`` and ``knock`` and fails, outside
``replay/narration.py``, on a sentence that tells what a player did: an f-string with a seat put before a deed in
narration's words (``f"p{s} discards {c}"``, ``f"{who} lays off …"``), or a string to be put after one
(``who + " takes the upcard"``), or a deed conjugated for a seat (``names.does(s, "discard")``). Not read:
docstrings (prose), error messages (a raise's: verdicts and refusals are kept byte for byte), an event's
``__str__`` (the value's own compact text, kept in golden transcripts and JSON outputs), the view's note of the
sitter's advice (a value ``replay.audit`` builds for ``narrate`` to tell) and the records' machine form
(``replay.notation``). A second check asks each surface for the module.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NARRATION = "replay/narration.py"
#: A player's deed in narration's words, after a seat (``{}`` stands for an f-string's value).
_DEED = (r"(passes the upcard|takes the upcard|draws (\S+ )?from the stock|picks up|discards|knocks|lays off|"
         r"spreads|declares big gin|leaves the last discard|advises|answers)\b")  # fmt: skip
AFTER_SEAT = re.compile(r"\{\} +" + _DEED)
AFTER_NAME = re.compile(r"^ +" + _DEED)
#: The deeds' verbs, as ``Voice.does`` conjugates them for a seat.
VERBS = {"pass", "take", "draw", "pick", "discard", "knock", "declare", "leave", "spread", "answer", "advise", "lay",
         "show", "deal", "go", "undercut", "win"}  # fmt: skip
#: Values' own text and the machine form, not narration: (module, function).
VALUES = {("replay/audit.py", "__str__"), ("replay/audit.py", "_view_event"), ("replay/notation.py", "_text")}
#: The surfaces that tell events to people, and so must import the narration.
SURFACES = (
    "knock/play/table.py", "knock/cli/common.py", "knock/cli/stepper.py", "knock/web/views.py",
    "knock/web/replaying.py",
)  # fmt: skip


def _docstrings(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def deeds_worded(source: str, module: str) -> list[str]:
    """The strings of ``source`` that word a player's deed, each as ``module:line: text``, outside the functions
    ``VALUES`` exempts."""
    tree = ast.parse(source)
    exempt = _docstrings(tree)
    for node in ast.walk(tree):
        if (isinstance(node, ast.FunctionDef) and (module, node.name) in VALUES) or isinstance(node, ast.Raise):
            exempt.update(id(sub) for sub in ast.walk(node))
        elif isinstance(node, ast.JoinedStr):
            exempt.update(id(v) for v in node.values)  # its parts are read with it
    found = []
    for node in ast.walk(tree):
        if id(node) in exempt:
            continue
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "{}"
                           for v in node.values)  # fmt: skip
            if AFTER_SEAT.search(text):
                found.append(f"{module}:{node.lineno}: {text!r}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and AFTER_NAME.search(node.value):
            found.append(f"{module}:{node.lineno}: {node.value!r}")
        elif isinstance(node, ast.Call) and _name(node.func) == "does":
            verb = node.args[1] if len(node.args) > 1 else None
            if isinstance(verb, ast.Constant) and verb.value in VERBS:
                found.append(f"{module}:{node.lineno}: does(…, {verb.value!r})")
    return found


def _name(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _modules() -> list[Path]:
    return sorted(p for pkg in ("replay", "knock") for p in (ROOT / pkg).rglob("*.py"))


def test_no_surface_words_an_event_on_its_own() -> None:
    found = []
    for path in _modules():
        module = path.relative_to(ROOT).as_posix()
        if module != NARRATION:
            found += deeds_worded(path.read_text(encoding="utf-8"), module)
    assert not found, "events worded outside replay/narration.py:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "source",
    [
        'def f(s, c):\n    return f"p{s} discards {c}"\n',
        'def g(s):\n    return f"p{s} lays off nothing"\n',
        'def g(s):\n    raise_it = f"{s} draws Kh from the stock"\n',
        'def g(who):\n    return who + " takes the upcard"\n',
        'def h(s):\n    return f"{s} knocks"\n',
        "def i(names, s):\n    return f\"{names.does(s, 'discard')} Kh\"\n",
    ],
)
def test_the_scan_finds_an_event_worded_again(source: str) -> None:
    assert deeds_worded(source, "knock/web/somewhere.py")


def test_the_scan_reads_neither_docstrings_nor_a_values_own_text() -> None:
    source = '"""p0 discards Kh."""\nclass E:\n    def __str__(self):\n        return f"p{self.seat} discards"\n'
    assert not deeds_worded(source, "replay/audit.py")
    assert deeds_worded(source, "knock/cli/other.py")  # the exemption is the value's module only


@pytest.mark.parametrize("module", SURFACES)
def test_every_surface_asks_the_narration(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert "replay.narration" in imported, f"{module} tells events without replay.narration"
