"""tools/baselines.py --quick (the published baselines' run on a tiny budget): it trains every method, evaluates
against every reference opponent on paired hands and games, and writes its learning curves and its table."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("baselines_tool", ROOT / "tools" / "baselines.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["baselines_tool"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.rule("ENV-16", "ENV-17")
def test_quick_baselines_write_plots_and_a_table(tmp_path: Path) -> None:
    baselines = tool()
    doc = tmp_path / "baselines.md"
    assert baselines.main(["--quick", "--out", str(tmp_path), "--doc", str(doc)]) == 0
    for name in (*baselines.METHODS, "mccfr"):
        png = tmp_path / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000, name
    text = doc.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "%" in line and "| method |" not in line]
    assert len(rows) == len(baselines.METHODS) * len(baselines.OPPONENTS)
    for method in baselines.METHODS:
        for bot in baselines.OPPONENTS:
            assert any(r.startswith(f"| {method} | {bot} |") for r in rows), (method, bot)
    assert "tools/baselines.py --quick" in text and "NashConv" in text
