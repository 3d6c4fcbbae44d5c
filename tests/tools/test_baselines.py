"""tools/research/baselines.py --quick (the published baselines' run on a tiny budget): it trains every method,
evaluates
against every reference opponent on paired hands and games, and writes its learning curves and its table."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("baselines_tool", ROOT / "tools" / "research" / "baselines.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["baselines_tool"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.rule("ENV-16", "ENV-17")
def test_quick_baselines_write_plots_and_a_table(tmp_path: Path) -> None:
    baselines = tool()
    doc = tmp_path / "baselines.md"
    # Two units at once, each in its own (spawned) process: the script itself, as a person runs it.
    tool_path = ROOT / "tools" / "research" / "baselines.py"
    run = [sys.executable, str(tool_path), "--quick", "--out", str(tmp_path), "--doc", str(doc)]
    done = subprocess.run([*run, "--jobs", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    for name in (*baselines.METHODS, "mccfr"):
        png = tmp_path / f"{name}.png"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 5000, name
    text = doc.read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| ") and "%" in line and "| method |" not in line]
    assert len(rows) == len(baselines.METHODS) * len(baselines.OPPONENTS)
    for method in baselines.METHODS:
        for bot in baselines.OPPONENTS:
            assert any(r.startswith(f"| {method} | {bot} |") for r in rows), (method, bot)
    assert "tools/research/baselines.py --quick" in text and "NashConv" in text

    # --resume: the units found are read back, a missing one is run again.
    units = sorted((tmp_path / "units").glob("*.json"))
    assert [u.stem for u in units] == sorted(f"{m}-1" for m in baselines.METHODS)
    kept, redone = units
    stamp = kept.stat().st_mtime_ns
    redone.unlink()
    again = tmp_path / "again.md"
    assert baselines.main(["--quick", "--resume", "--out", str(tmp_path), "--doc", str(again)]) == 0
    assert kept.stat().st_mtime_ns == stamp and redone.exists()
    table = [line for line in text.splitlines() if line.startswith(f"| {kept.stem[:-2]} |")]
    assert table and all(line in again.read_text(encoding="utf-8") for line in table)
