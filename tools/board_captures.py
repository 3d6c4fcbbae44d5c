"""Text captures of ``knock play``'s board in a real terminal (tmux ``capture-pane -p``), for docs/board.md.

    python3 tools/board_captures.py          # writes docs/captures/board-80x24.txt and board-120x40.txt

Each capture is a seeded game against greedy bots, a few moves typed, then the screen as text; the game is
stopped with q afterwards and its log left in a temporary folder. Needs tmux and the board extra in .venv.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KNOCK = ROOT / ".venv" / "bin" / "knock"
OUT = ROOT / "docs" / "captures"

#: (columns, rows, the command's arguments, the lines typed)
SCENES = [
    (80, 24, ["--seed", "5", "--bots", "greedy"], ["1", "1", "1"]),
    (120, 40, ["--preset", "three_handed", "--seat", "1", "--seed", "5", "--bots", "greedy"], ["1", "1", "hint"]),
]


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def capture(columns: int, rows: int, args: list[str], lines: list[str], folder: Path) -> str:
    name = f"knock-board-{columns}x{rows}"
    command = " ".join([str(KNOCK), "play", *args, "-o", str(folder / f"{name}.knock")])
    tmux("new-session", "-d", "-s", name, "-x", str(columns), "-y", str(rows), f"cd {folder} && {command}")
    try:
        time.sleep(3)
        for line in lines:
            tmux("send-keys", "-t", name, line, "Enter")
            time.sleep(1.5)
        text = tmux("capture-pane", "-p", "-t", name)
        tmux("send-keys", "-t", name, "q", "Enter")
        time.sleep(1)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
    return "\n".join(line.rstrip() for line in text.splitlines()).rstrip() + "\n"


def main() -> int:
    if shutil.which("tmux") is None or not KNOCK.exists():
        print("needs tmux and .venv/bin/knock (python3 tools/dev.py setup)", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for columns, rows, args, lines in SCENES:
            path = OUT / f"board-{columns}x{rows}.txt"
            path.write_text(capture(columns, rows, args, lines, Path(tmp)), encoding="utf-8")
            print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
