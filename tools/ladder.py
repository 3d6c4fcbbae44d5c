#!/usr/bin/env python3
"""The bots' ladder in ``docs/bots.md``: made by ``knock arena``, recorded in ``docs/ladder.json``, rendered.

    .venv/bin/python tools/ladder.py run --games 1000 --jobs 2   # knock arena over every bot (resumable:
                                                                 # out/ladder.jsonl), then record and render
    .venv/bin/python tools/ladder.py record out/ladder.json --command "knock arena ..."   # an arena --json
                                                                 # document recorded with its command and machine
    .venv/bin/python tools/ladder.py --render                    # docs/bots.md's ladder from the record
    .venv/bin/python tools/ladder.py --check                     # exit 1 unless docs/bots.md shows the record

The record is the arena's ``--json`` document with the command that made it, the machine (processor, cores,
Python) and the commit; the page's section between ``<!-- ladder -->`` and ``<!-- /ladder -->`` is its rendering,
which the test suite checks.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import measuring

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "bots.md"
RECORD = ROOT / "docs" / "ladder.json"
BEGIN, END = "<!-- ladder -->", "<!-- /ladder -->"


def _processor() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def record(document: dict[str, Any], command: str, commit: str | None = None) -> dict[str, Any]:
    """The arena's document with the command, the machine and the commit the run was made at (HEAD unless
    given)."""
    return {
        **document,
        "command": command,
        "machine": {"processor": _processor(), "cores": os.cpu_count(), "python": platform.python_version(),
                    "system": platform.system()},
        "commit": commit or measuring.commit(),
    }  # fmt: skip


def render(doc: dict[str, Any]) -> str:
    """The page's ladder section from a record."""
    unit = "game" if doc["mode"] == "games" else "hand"
    m = doc["machine"]
    lines = [
        BEGIN,
        f"`{doc['command']}` — {doc['pairs']:,} seed pairs per pairing "
        f"(seeds {doc['seeds'][0]:,}..{doc['seeds'][1]:,}, "
        f"each played twice with the seats swapped), {doc['units']:,} {unit}s of {doc['preset']} Gin"
        + (f" to {doc['target']}" if unit == "game" else "")
        + f", in {doc['seconds'] / 60:.0f} minutes on {m['cores']} cores ({m['processor']}, Python {m['python']}, "
        f"shared with other work) at {doc['commit']}.",
        "",
        "| rank | bot | Elo | 95% interval | score |",
        "|---:|---|---:|---|---:|",
    ]
    for i, line in enumerate(doc["ladder"], 1):
        lines.append(f"| {i} | {line['bot']} | {line['elo']:.0f} | {line['low']:.0f}–{line['high']:.0f} "
                     f"| {100 * line['score']:.1f}% |")  # fmt: skip
    lines += ["", f"| bot | against | win rate | 95% interval | margin a {unit} | 95% interval |",
              "|---|---|---:|---|---:|---|"]  # fmt: skip
    for p in doc["pairings"]:
        w, g = p["win_rate"], p["margin"]
        lines.append(f"| {p['bot']} | {p['against']} | {100 * w['mean']:.1f}% "
                     f"| {100 * w['low']:.1f}–{100 * w['high']:.1f} "
                     f"| {g['mean']:+.1f} | {g['low']:+.1f}–{g['high']:+.1f} |")  # fmt: skip
    lines += ["", "| bot | hands | won | points a hand won | knocks | gins | undercut (of its knocks) | dead |",
              "|---|---:|---:|---:|---:|---:|---:|---:|"]  # fmt: skip
    for bot, h in doc["hands"].items():
        lines.append(f"| {bot} | {int(h['hands']):,} | {100 * h['won_rate']:.1f}% | {h['points_per_hand_won']:.1f} "
                     f"| {100 * h['knock_rate']:.1f}% | {100 * h['gin_rate']:.1f}% | {100 * h['undercut_rate']:.1f}% "
                     f"| {100 * h['dead_rate']:.1f}% |")  # fmt: skip
    lines.append(END)
    return "\n".join(lines)


def page_with(doc: dict[str, Any], page: str) -> str:
    head, sep, rest = page.partition(BEGIN)
    if not sep or END not in rest:
        raise SystemExit(f"{PAGE} has no {BEGIN} ... {END} section")
    return head + render(doc) + rest.split(END, 1)[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--render", action="store_true", help="write docs/bots.md's ladder from the record")
    parser.add_argument("--check", action="store_true", help="exit 1 unless docs/bots.md shows the record")
    sub = parser.add_subparsers(dest="what")
    run = sub.add_parser("run", help="play the ladder with knock arena, record and render it")
    run.add_argument("--games", type=int, default=1000)
    run.add_argument("--jobs", type=int, default=0)
    run.add_argument("--bots", default="heuristic,simple,greedy,random")
    run.add_argument("--preset", default="standard")
    rec = sub.add_parser("record", help="record an arena --json document")
    rec.add_argument("document", type=Path)
    rec.add_argument("--command", required=True)
    rec.add_argument("--commit", help="the commit the run was made at (default: HEAD)")
    args = parser.parse_args(argv)
    if args.what == "run":
        argv_arena = ["knock", "arena", "--bots", args.bots, "--games", str(args.games), "--preset", args.preset,
                      "--jobs", str(args.jobs), "-q", "--results", "out/ladder.jsonl",
                      "--json=out/ladder.json"]  # fmt: skip
        results = ROOT / "out" / "ladder.jsonl"
        resume = ["--resume"] if results.exists() else []
        at = measuring.commit()
        subprocess.run([str(ROOT / ".venv" / "bin" / "knock"), *argv_arena[1:], *resume], cwd=ROOT, check=True)
        doc = record(json.loads((ROOT / "out" / "ladder.json").read_text()), shlex.join(argv_arena), at)
        RECORD.write_text(json.dumps(doc, indent=1) + "\n")
    elif args.what == "record":
        doc = record(json.loads(args.document.read_text()), args.command, args.commit)
        RECORD.write_text(json.dumps(doc, indent=1) + "\n")
    doc = json.loads(RECORD.read_text())
    page = PAGE.read_text()
    wanted = page_with(doc, page)
    if args.check:
        if wanted != page:
            print(f"{PAGE} does not show {RECORD}: run tools/ladder.py --render", file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main())
