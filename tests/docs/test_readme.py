"""Every snippet of README.md and of the guides under docs/ runs as written: each ```python block in a fresh
interpreter, each ```sh block line by line in bash, in a scratch folder (one a page) that sees the repository's
``.venv``, ``tests``, ``tools`` and ``spec``.

A snippet is run unless the line before its fence is a marker, an HTML comment the rendered page does not show:

- ``<!-- test: skip: REASON -->`` — not run (and not collected); the reason is required (the quick start is this
  very suite).
- ``<!-- test: replace "OLD" "NEW" -->`` — run with OLD replaced by NEW first (smaller sizes: ``--games 1000``
  played as ``--games 16``); each replacement must match.
- ``<!-- example: NAME -->`` — a training loop that ``tests/envs/test_examples.py`` runs and checks (not run
  here too).

A Python line whose comment begins with an arrow, ``print(x)  # → TEXT (why)``, must print TEXT: the
comment up to `` (`` or the end is looked for in the snippet's output, the arrows in order, each after
the previous one's match.

Shell blocks run in the order of the page in one folder, so a later command reads what an earlier one wrote
(``knock demo`` writes ``out/demo-7.knock``, which ``knock redact`` reads). A command must exit 0.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md"))]
PYTHON, SHELL = ("python", "py"), ("sh", "bash", "shell")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\s*$", re.DOTALL | re.MULTILINE)
MARKER = re.compile(r"<!--\s*(?:test:\s*(.*?)|(example:\s*\w+))\s*-->\s*$")


@dataclass(frozen=True)
class Snippet:
    language: str
    code: str
    line: int  #: the fence's line in its page
    marker: str  #: the marker before it ("" for none)
    page: str = "README.md"  #: the page, relative to the repository

    @property
    def id(self) -> str:
        return f"{self.page}-{self.language}-line-{self.line}"

    @property
    def skip(self) -> str | None:
        """The stated reason not to run it, or None."""
        if self.marker.startswith("example:"):
            return "a training loop tests/envs/test_examples.py runs and checks"
        m = re.fullmatch(r"skip:\s*(.*)", self.marker)
        return m.group(1) if m else None

    def runnable(self) -> str:
        """The code with the marker's replacements made (each must match)."""
        code = self.code
        for old, new in re.findall(r'replace\s+"([^"]*)"\s+"([^"]*)"', self.marker):
            assert old in code, f"{self.page} line {self.line}: the replacement {old!r} matches nothing"
            code = code.replace(old, new)
        return code


def snippets(text: str, page: str = "README.md") -> list[Snippet]:
    out = []
    for m in FENCE.finditer(text):
        language = m.group(1).lower()
        if language not in PYTHON + SHELL:
            continue
        line = text.count("\n", 0, m.start()) + 1
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = MARKER.search(before)
        out.append(Snippet(language, m.group(2), line, (marker.group(1) or marker.group(2)) if marker else "", page))
    return out


SNIPPETS = [s for page in PAGES for s in snippets(page.read_text(encoding="utf-8"), str(page.relative_to(ROOT)))]
FOLDERS: dict[str, Path] = {}


@pytest.fixture
def scratch(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the snippets of a page: the repository's .venv, tests, tools and spec linked in, nothing
    else (a later block of the page reads what an earlier one wrote, when both run in this process)."""
    page = request.node.callspec.params["snippet"].page
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the group is what keeps a page's snippets on one worker, in order
        assert request.node.nodeid.endswith(f"@{page}"), (
            f"{request.node.nodeid}: no xdist group in its id, so pytest-xdist's --dist loadgroup is not grouping "
            "(pytest-xdist 3.8 cannot group under pytest 9: pyproject pins pytest below 9)"
        )
    if page not in FOLDERS:
        folder = FOLDERS[page] = tmp_path_factory.mktemp(Path(page).stem)
        for name in (".venv", "tests", "tools", "spec", "knock"):
            (folder / name).symlink_to(ROOT / name)
    return FOLDERS[page]


def env() -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "160",
            "PYTHONPATH": str(ROOT)}  # fmt: skip


def test_the_readme_has_runnable_snippets_and_every_skip_says_why() -> None:
    readme = [s for s in SNIPPETS if s.page == "README.md"]
    assert any(s.language in PYTHON and not s.skip for s in readme)
    assert any(s.language in SHELL and not s.skip for s in readme)
    assert {s.page for s in SNIPPETS} >= {"README.md", "docs/embedding.md", "docs/logs.md", "docs/cluster.md"}
    for s in SNIPPETS:
        assert s.skip is None or s.skip.strip(), f"{s.page} line {s.line}: a skip marker without a reason"
        assert not s.marker or s.skip is not None or s.marker.startswith("replace"), f"unknown marker {s.marker!r}"


def on_page(languages: tuple[str, ...]) -> list[Any]:
    """The runnable snippets in these languages, each in its page's xdist group: one worker runs a page's snippets,
    in the page's order, in the page's one folder (``tools/dev.py`` runs pytest with ``--dist loadgroup``)."""
    return [pytest.param(s, id=s.id, marks=pytest.mark.xdist_group(s.page))
            for s in SNIPPETS if s.language in languages and not s.skip]  # fmt: skip


@pytest.mark.parametrize("snippet", on_page(PYTHON))
def test_a_python_snippet_runs(snippet: Snippet, scratch: Path) -> None:
    done = subprocess.run([sys.executable, "-c", snippet.runnable()], cwd=scratch, env=env(), capture_output=True,
                          text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, f"{snippet.page} line {snippet.line}:\n{done.stderr[-3000:]}"
    at = 0
    for expected in promised_output(snippet.code):
        found = done.stdout.find(expected, at)
        assert found >= 0, f"{snippet.page} line {snippet.line}: promises {expected!r}; printed:\n{done.stdout[at:]}"
        at = found + len(expected)


ARROW = re.compile(r"#\s*→\s*(.*?)(?:\s+\(.*)?$")


def promised_output(code: str) -> list[str]:
    """What a snippet's ``# → TEXT`` comments say it prints, in order."""
    return [m.group(1).strip() for line in code.splitlines() if (m := ARROW.search(line))]


def shell_commands(code: str) -> list[str]:
    """A block's commands: its lines, without comments and blank lines (a trailing ``\\`` joins lines)."""
    joined = code.replace("\\\n", " ")
    out = []
    for line in joined.splitlines():
        words = shlex.split(line, comments=True)
        if words:
            out.append(shlex.join(words))
    return out


@pytest.mark.parametrize("snippet", on_page(SHELL))
def test_a_shell_snippet_runs(snippet: Snippet, scratch: Path) -> None:
    for command in shell_commands(snippet.runnable()):
        done = subprocess.run(["bash", "-c", command], cwd=scratch, env=env(), capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=300)  # fmt: skip
        said = (done.stdout + done.stderr)[-3000:]
        assert done.returncode == 0, f"{snippet.page} line {snippet.line}: {command}\n{said}"
        assert "Traceback" not in done.stderr, command


def test_an_arrow_comment_is_what_the_line_prints() -> None:
    code = "print(1)  # → 1 (one)\nprint([2])  # → [2]\nx = 3  # not an arrow\n"
    assert promised_output(code) == ["1", "[2]"]
    assert promised_output("print(x)   # → Verdict(kind='pass' (why)") == ["Verdict(kind='pass'"]


def test_the_snippet_reader_finds_markers_and_fences() -> None:
    text = "x\n<!-- test: skip: needs a person -->\n```sh\nknock play\n```\n\n```python\nprint(1)\n```\n"
    found = snippets(text)
    assert [(s.language, s.skip, s.line) for s in found] == [("sh", "needs a person", 3), ("python", None, 7)]
    assert shell_commands("a --x 1  # why\n\n# only a comment\nb \\\n  c\n") == ["a --x 1", "b c"]
