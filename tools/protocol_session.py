#!/usr/bin/env python3
"""Write the worked ``knock engine`` session of spec/protocol.md (PROTO-27): spec/protocol-session.txt.

    .venv/bin/python tools/protocol_session.py           # play the session against knock engine, write the file
    .venv/bin/python tools/protocol_session.py --check   # fail if the file is not what this writes

The session is played here step by step (each line chosen from the answers before it: the record numbers and
legal actions of the views), against ``knock engine`` in a subprocess; the suite replays the file itself
(``tests/web/test_session.py``), so the file is what a stranger reads and what the engine must answer.
Write it again when the engine's words (an event's text, an error's message) or its version change.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "spec" / "protocol-session.txt"

HEAD = """\
# A knock engine session, byte for byte (spec/protocol.md, PROTO-27).
# Each "> " line is a line the controller sends (">" alone: an empty line), each "< " line a
# line knock engine writes, in order; "#" lines are comments. Fed the "> " lines, knock engine writes exactly
# the "< " lines: the suite replays this file (tests/web/test_session.py); tools/protocol_session.py wrote it.
"""

Frames = list[dict[str, Any]]


def compact(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def steps() -> list[tuple[str, Callable[[Frames], str]]]:
    """The session: a comment and the line to send for each step, from every frame written so far."""

    def view_of(frames: Frames, seat: int) -> dict[str, Any]:
        return next(f for f in reversed(frames) if f["type"] == "view" and f["seat"] == seat)

    def act(
        seat: int, action: Callable[[dict[str, Any]], str], record: Callable[[int], int] = lambda r: r
    ) -> Callable[[Frames], str]:
        def line(frames: Frames) -> str:
            v = view_of(frames, seat)
            return compact({"type": "act", "seat": seat, "action": action(v), "record": record(v["record"])})

        return line

    first = lambda v: v["legal"][0]  # noqa: E731
    ann, hal = {"player": "human", "name": "ann"}, {"player": "bot", "bot": "heuristic", "name": "hal"}
    new = {"type": "new", "protocol": [1, 1], "preset": "standard", "options": {"target": 25}, "seed": 11,
           "seats": [ann, hal]}  # fmt: skip
    bots = {
        "type": "new",
        "protocol": [1, 0],
        "seed": 5,
        "options": {"target": 10},
        "seats": [hal, {"player": "bot", "bot": "greedy", "name": "gus"}],
    }  # a client of protocol 1.0: accepted (PROTO-20)
    return [
        ("Before new, there is no game (PROTO-15).", lambda f: compact({"type": "view"})),
        (
            "A game: ann (seat 0, a person) against hal (seat 1, the heuristic bot). The answer: started, then"
            " ann's view, whose legal actions are what she may send (PROTO-5, PROTO-26).",
            lambda f: compact(new),
        ),
        ("An empty line is answered too (PROTO-11, PROTO-15).", lambda f: ""),
        ("Text that is not JSON.", lambda f: "hello?"),
        ("An act that expects an earlier record: stale (PROTO-7).", act(0, first, lambda r: r - 1)),
        ("Text that is no action (PROTO-22, notation.md).", act(0, lambda v: "fly away")),
        ("An action the rules forbid now.", act(0, lambda v: "knock Kh")),
        (
            "ann acts for hal, a bot: refused under PROTO-3.",
            lambda f: compact({"type": "act", "seat": 1, "action": "pass", "record": view_of(f, 0)["record"]}),
        ),
        (
            "ann's first legal action: acknowledged, then hal moves and ann is sent her view (PROTO-7, PROTO-15).",
            act(0, first),
        ),
        (
            "The same act again: acknowledged as a duplicate, not applied twice (PROTO-7).",
            lambda f: next(line for line in reversed(SENT) if '"type":"act"' in line and '"seat":0' in line),
        ),
        (
            "hello belongs to knock serve (PROTO-21).",
            lambda f: compact({"type": "hello", "protocol": [1, 1], "table": "engine", "spectate": True}),
        ),
        ("A spectator's view: no seat's cards (PROTO-6).", lambda f: compact({"type": "view"})),
        (
            "A new game in place of the first: two bots, who play it to its end inside new; no seat is human, so"
            " the answer is started and the log offered (PROTO-10, PROTO-15).",
            lambda f: compact(bots),
        ),
        ("The log so far, base64, with its verdict (PROTO-15; LOG-6's digest).", lambda f: compact({"type": "log"})),
        ("quit: answered by its done, then the end (PROTO-15).", lambda f: compact({"type": "quit"})),
    ]


SENT: list[str] = []  #: the lines sent so far (a resend repeats one)


def play() -> str:
    """The session's text, played against ``knock engine``."""
    SENT.clear()
    proc = subprocess.Popen([sys.executable, "-m", "knock.cli", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    out = [HEAD]
    frames: Frames = []
    for comment, make in steps():
        line = make(frames)
        SENT.append(line)
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        out.append(f"# {comment}\n" + (f"> {line}\n" if line else ">\n"))
        while True:
            answer = proc.stdout.readline()
            assert answer, "knock engine ended early"
            out.append(f"< {answer}")
            frame = json.loads(answer)
            frames.append(frame)
            if frame["type"] == "done":
                break
    proc.stdin.close()
    assert proc.stdout.read() == "" and proc.wait(timeout=30) == 0
    return "".join(out)


def main(argv: list[str]) -> int:
    text = play()
    if argv[:1] == ["--check"]:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"out of date: {TARGET.relative_to(ROOT)} (run tools/protocol_session.py)")
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
