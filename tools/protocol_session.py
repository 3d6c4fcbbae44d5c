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
from collections.abc import Callable, Iterator
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


def steps(frames: Frames) -> Iterator[tuple[str, Callable[[Frames], str]]]:
    """The session: a comment and the line to send for each step, from every frame written so far (``frames``
    grows as the session is played: a step may look at the answers before it). A refusal's comment names its row
    of protocol.md's refusal table (``row `act.record```)."""

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
    yield "Before new, there is no game (row `sender.game`, PROTO-15).", lambda f: compact({"type": "view"})
    yield (
        "A game: ann (seat 0, a person) against hal (seat 1, the heuristic bot). The answer: started, then"
        " ann's view, whose legal actions are what she may send (PROTO-5, PROTO-26).",
        lambda f: compact(new),
    )
    yield "An empty line is answered too (row `message.empty`, PROTO-11, PROTO-15).", lambda f: ""
    yield "Text that is not JSON (row `message.json`).", lambda f: "hello?"
    yield (
        "A field of the wrong kind: a record number that is text (row `message.field`, PROTO-25).",
        lambda f: compact({"type": "act", "seat": 0, "action": "pass", "record": "three"}),
    )
    yield (
        "An act without the seat it acts for (row `sender.seat`, PROTO-15).",
        lambda f: compact({"type": "act", "action": "pass", "record": view_of(f, 0)["record"]}),
    )
    yield "An act that expects an earlier record: stale (row `act.record`, PROTO-7).", act(0, first, lambda r: r - 1)
    yield "Text that is no action (row `act.text`, PROTO-22, notation.md).", act(0, lambda v: "fly away")
    yield "An action naming another seat than the one acting (row `act.own`, PROTO-3).", act(0, lambda v: "p1 pass")
    yield (
        "A claim written as an action's text, whose time is the host's (row `act.ending`, PROTO-41).",
        act(0, lambda v: "claim p1 at 100"),
    )
    yield "An action the rules forbid now (row `act.rules`).", act(0, lambda v: "knock Kh")
    yield (
        "ann acts for hal, a bot: refused under PROTO-3 (row `act.seat`).",
        lambda f: compact({"type": "act", "seat": 1, "action": "pass", "record": view_of(f, 0)["record"]}),
    )
    yield (
        "ann's first legal action: acknowledged, then hal moves and ann is sent her view (PROTO-7, PROTO-15).",
        act(0, first),
    )
    yield (
        "The same act again: acknowledged as a duplicate, not applied twice (row `act.record`, PROTO-7).",
        lambda f: next(line for line in reversed(SENT) if '"type":"act"' in line and '"seat":0' in line),
    )
    yield (
        "hello belongs to knock serve (row `message.type`, PROTO-21).",
        lambda f: compact({"type": "hello", "protocol": [1, 1], "table": "engine", "spectate": True}),
    )
    yield "A spectator's view: no seat's cards (PROTO-6).", lambda f: compact({"type": "view"})
    yield (
        "The view of a seat that is not a human one (row `sender.seat`).",
        lambda f: compact({"type": "view", "seat": 1}),
    )
    yield (
        "A new game of another major version: refused, the game as it was (row `message.version`, PROTO-20).",
        lambda f: compact({**new, "protocol": [2, 0]}),
    )
    yield (
        "A new game whose rules cannot be: refused naming the rule (row `new.table`, RULES-2).",
        lambda f: compact({**new, "options": {"target": 0}}),
    )
    yield (
        "A fair game: knock engine deals none (row `new.fair`, PROTO-35).",
        lambda f: compact({**new, "protocol": [1, 4], "fair": True}),
    )
    blind = {"type": "new", "protocol": [1, 4], "preset": "three_handed", "seed": 3,
             "options": {"sitter_sees_captain_hand": False, "target": 25},
             "seats": [{"player": "human"}, {"player": "human"}, {"player": "human"}]}  # fmt: skip
    yield (
        "Three people at three-handed Gin in the box; the sitter (here p1) does not see the captain's cards"
        " (THREE-8): every human seat's view follows started.",
        lambda f: compact(blind),
    )
    yield (
        "The blind sitter advises a discard, which names a card he cannot see (row `act.blind`, THREE-8).",
        act(1, lambda v: "advise p0 discard Kh"),
    )
    short = {**new, "protocol": [1, 4], "options": {"target": 1}, "seed": 12}
    yield "A game to 1 point: the first hand that scores ends it.", lambda f: compact(short)
    while not any(fr["type"] == "game_result" for fr in frames[frames_at(frames, "started") :]):
        yield "ann plays her first legal action.", act(0, first)
    yield (
        "An act once the game is over: refused (row `act.over`, MATCH-1).",
        lambda f: compact({"type": "act", "seat": 0, "action": "pass", "record": view_of(f, 0)["record"]}),
    )
    yield (
        "A new game in place of the first: two bots, who play it to its end inside new; no seat is human, so"
        " the answer is started and the log offered (PROTO-10, PROTO-15).",
        lambda f: compact(bots),
    )
    yield "The log so far, base64, with its verdict (PROTO-15; LOG-6's digest).", lambda f: compact({"type": "log"})
    yield "quit: answered by its done, then the end (PROTO-15).", lambda f: compact({"type": "quit"})


def frames_at(frames: Frames, kind: str) -> int:
    """Where the last frame of ``kind`` is among ``frames`` (0 when there is none)."""
    return max((i for i, f in enumerate(frames) if f["type"] == kind), default=0)


SENT: list[str] = []  #: the lines sent so far (a resend repeats one)


def play() -> str:
    """The session's text, played against ``knock engine``."""
    SENT.clear()
    proc = subprocess.Popen([sys.executable, "-m", "knock.cli", "engine"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    out = [HEAD]
    frames: Frames = []
    for comment, make in steps(frames):
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
