"""Every module and name the README and docs/*.md cite resolves (their snippets are run by
``tests/docs/test_readme.py``)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: README and the guides under docs/, as one text: what they cite must resolve.
README = "\n".join(p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])
DOTTED = re.compile(r"\b(?:engine|replay|knock|tests)(?:\.[A-Za-z_]\w*)+")


def removed_names() -> set[str]:
    """The dotted names the newest release of CHANGELOG.md lists under "Removed" (moved without a re-export)."""
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    newest = re.split(r"^## ", text, flags=re.M)[1]
    removed = re.search(r"^### Removed\n(.*?)(?=^### |\Z)", newest, flags=re.M | re.S)
    spans = re.findall(r"`([^`]*)`", removed.group(1)) if removed else []
    return {name for span in spans for name in DOTTED.findall(span)}


def resolves(name: str) -> bool:
    """Whether ``a.b.c`` names a module, or an attribute of the longest importable module before it."""
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def test_every_module_and_name_the_readme_cites_resolves_or_is_listed_as_removed() -> None:
    """A module or name cited in the README text that moves keeps working for a release through a thin re-export
    with a DeprecationWarning, or is listed under "Removed" in CHANGELOG.md (the README is then due an edit)."""
    cited = {name for span in re.findall(r"`([^`\n]*)`", README) for name in DOTTED.findall(span)}
    assert len(cited) >= 4
    removed = {r for r in removed_names() if not resolves(r)}  # gone, not merely named beside what is gone
    broken = sorted(n for n in cited if not resolves(n) and not any(n == r or n.startswith(r + ".") for r in removed))
    assert not broken, f"the README cites {broken}: re-export them for a release, or list them under Removed"
