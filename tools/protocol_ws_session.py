#!/usr/bin/env python3
"""Record the WebSocket session of spec/protocol.md (PROTO-27): spec/protocol-session-ws.txt, and its shipped copy.

    .venv/bin/python tools/protocol_ws_session.py      # play the session against a fresh knock serve, write the files

The session is played step by step against ``knock serve`` in a process of its own (two people at a seeded table,
a spectator, a person against a bot to the game's end, a fair table gathering its seeds, and connections that break
the rules), and every frame each connection receives is written, normalized (``knock.conformance.sessions``): the
values a server chooses afresh each time become ``"*"``. The suite replays the file (``tests/web/test_ws_session.py``)
and ``knock conform sessions --url`` replays it against any server. Write it again when the server's words change.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from knock.conformance.sessions import normalize  # noqa: E402
from knock.web.client import ServerProcess  # noqa: E402

TARGETS = (
    ROOT / "spec" / "protocol-session-ws.txt",
    ROOT / "knock" / "conformance" / "suite" / "protocol-session-ws.txt",
)
HEAD = """\
# A WebSocket session of knock serve, frame by frame (spec/protocol.md, PROTO-27; knock.conformance.sessions reads it).
# "+ NAME {body}" makes a table (POST /api/tables): $NAME is then its id, $NAME.N seat N's token. "X> " is a frame
# connection X sends (X>b: a binary frame, hex; X>n: a text frame of N spaces), "X< " the next frame X receives,
# "X! CODE" its close by the server; "#" lines are comments (a refusal's names its row of the refusal table).
# Frames compare after normalizing: the values a server chooses afresh (ids, tokens, commitments, seeds, times,
# digests, its name) are "*". tools/protocol_ws_session.py wrote it; tests/web/test_ws_session.py replays it.
"""
QUIET = 0.8  #: seconds with no frame on any connection that end a step's answers while recording


class Recorder:
    """Plays the session's steps against a server and writes down each step and every answer."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.conns: dict[str, Any] = {}
        self.names: dict[str, str] = {}
        self.lines: list[str] = [HEAD]

    def comment(self, text: str) -> None:
        self.lines.append(f"# {text}\n")

    def view(self, letter: str) -> dict[str, Any]:
        """The last view connection ``letter`` was sent (its record and legal actions pick the next acts)."""
        prefix = f"{letter}< "
        for line in reversed(self.lines):
            if line.startswith(prefix):
                frame = json.loads(line[len(prefix) :])
                if frame.get("type") == "view":
                    return dict(frame)
        raise AssertionError(f"connection {letter} has been sent no view")

    def table(self, name: str, body: dict[str, Any]) -> None:
        made = self.server.table(body)
        self.names[name] = made["table"]
        for i, seat in enumerate(made["seats"]):
            if seat.get("token"):
                self.names[f"{name}.{i}"] = seat["token"]
        self.lines.append(f"+ {name} {json.dumps(body, separators=(',', ':'))}\n")

    def _conn(self, letter: str) -> Any:
        from websockets.sync.client import connect

        if letter not in self.conns:
            self.conns[letter] = connect(self.server.ws, open_timeout=10, max_size=None).__enter__()
        return self.conns[letter]

    def _unbind(self, text: str) -> str:
        for name, value in sorted(self.names.items(), key=lambda kv: -len(kv[0])):
            text = text.replace(value, f"${name}")
        return text

    def _bind(self, text: str) -> str:
        for name in sorted(self.names, key=len, reverse=True):
            text = text.replace(f"${name}", self.names[name])
        return text

    def send(self, letter: str, message: dict[str, Any] | str) -> None:
        text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"))
        self.lines.append(f"{letter}> {text}\n")
        self._conn(letter).send(self._bind(text))
        self.collect()

    def binary(self, letter: str, data: bytes) -> None:
        self.lines.append(f"{letter}>b {data.hex()}\n")
        self._conn(letter).send(data)
        self.collect()

    def big(self, letter: str, size: int) -> None:
        self.lines.append(f"{letter}>n {size}\n")
        self._conn(letter).send(" " * size)
        self.collect()

    def collect(self) -> None:
        """Every frame the open connections receive until none has for ``QUIET`` seconds; closes too."""
        from websockets.exceptions import ConnectionClosed

        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < QUIET:
            got = False
            for letter, c in list(self.conns.items()):
                try:
                    raw = c.recv(timeout=0.05)
                except TimeoutError:
                    continue
                except ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd is not None else None
                    self.lines.append(f"{letter}! {code}\n")
                    del self.conns[letter]
                    got = True
                    continue
                frame = normalize(json.loads(raw))
                self.lines.append(f"{letter}< {json.dumps(frame, separators=(',', ':'), ensure_ascii=False)}\n")
                got = True
            if got:
                quiet_since = time.monotonic()


def script(r: Recorder) -> None:
    """The session's steps."""
    hello = {"type": "hello", "protocol": [1, 4]}
    two = [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}]
    r.comment("A table for two people, seeded (PROTO-2); nothing is sent before a connection's hello.")
    r.table("t", {"seed": 7, "seats": two, "options": {"target": 25}})
    r.comment("A frame before hello (row `sender.hello`, PROTO-3).")
    r.send("A", {"type": "view"})
    r.comment("Text that is not JSON (row `message.json`, PROTO-11).")
    r.send("A", "hello?")
    r.comment("A message of knock engine's (row `message.type`, PROTO-11).")
    r.send("A", {"type": "new", "protocol": [1, 4], "seats": two})
    r.comment("A hello of another major version: refused and closed (row `message.version`, PROTO-20).")
    r.send("A", {**hello, "protocol": [2, 0], "table": "$t", "token": "$t.0"})
    r.comment("A hello for a table the server does not have (row `hello.table`, PROTO-3).")
    r.send("C", {**hello, "table": "no-such-table", "spectate": True})
    r.comment("A hello with a token of no seat (row `hello.token`, PROTO-3).")
    r.send("D", {**hello, "table": "$t", "token": "not-a-token"})
    r.comment("ann says hello: welcome, then her view (PROTO-3, PROTO-5); hello again is refused (row `sender.again`).")
    r.send("A", {**hello, "table": "$t", "token": "$t.0"})
    r.send("A", {**hello, "table": "$t", "token": "$t.0"})
    r.comment("A field of the wrong kind (row `message.field`, PROTO-25).")
    r.send("A", {"type": "act", "action": "pass", "record": "three"})
    r.comment("A spectator: welcome and a view with no seat's cards (PROTO-6); it cannot act (row `act.seat`).")
    r.send("S", {**hello, "table": "$t", "spectate": True})
    record = r.view("A")["record"]  # every act below is at the game's record: it reaches the row it is for
    r.send("S", {"type": "act", "action": "pass", "record": record})
    r.comment("An act for another seat than the connection's (row `act.seat`, PROTO-3).")
    r.send("A", {"type": "act", "seat": 1, "action": "pass", "record": record})
    r.comment("Text that is no action (row `act.text`), an action naming another seat (row `act.own`), a claim "
              "written as an action's text (row `act.ending`), an action the rules forbid now (row `act.rules`): each "
              "refused, nothing changed (PROTO-8).")  # fmt: skip
    for action in ("fly away", "p1 pass", "claim p1 at 100", "knock Kh"):
        r.send("A", {"type": "act", "action": action, "record": record})
    r.comment("A seed at a table that deals no fair hands (row `seed.text` … `seed.first`, PROTO-38: not gathering).")
    r.send("A", {"type": "seed", "hand": 1, "seed": "00" * 32})
    r.comment("bob says hello; then a second connection of bob's takes his seat over (row `hello.replaced`, PROTO-3).")
    r.send("B", {**hello, "table": "$t", "token": "$t.1"})
    r.send("E", {**hello, "table": "$t", "token": "$t.1"})
    r.comment("The seat to act (bob, on his new connection) makes its first legal action, acknowledged; every "
              "connection is sent its view (PROTO-7, PROTO-28).")  # fmt: skip
    seen = r.view("E")
    assert seen["view"]["to_act"] == 1 and seen["legal"], seen
    first = {"type": "act", "action": seen["legal"][0], "record": seen["record"]}
    r.send("E", first)
    r.comment("The same act again: a duplicate, acknowledged again (row `act.record`, PROTO-7); a stale one refused.")
    r.send("E", first)
    r.send("E", {**first, "record": seen["record"] - 1})
    r.comment("A binary frame (row `frame.binary`, PROTO-11).")
    r.binary("F", b"\x00\x01")
    r.comment("A frame over 65,536 bytes: closed with no frame (row `frame.size`, PROTO-11).")
    r.big("G", 65_537)
    r.comment("Ten errors on one connection: the tenth closes it (row `errors.tenth`, PROTO-11).")
    for _ in range(10):
        r.send("H", "{")
    r.comment("A person against a bot, to 1 point: ann plays her first legal action until the game is over; the "
              "hand's and the game's results and the log's offer follow (PROTO-10, PROTO-28).")  # fmt: skip
    gus = {"player": "bot", "bot": "greedy", "name": "gus"}
    r.table("g", {"seed": 12, "bot_delay": 0, "options": {"target": 1}, "seats": [two[0], gus]})
    r.send("P", {**hello, "table": "$g", "token": "$g.0"})
    for _ in range(60):
        view = last_view(r, "P")
        if view is None or view.get("over"):
            break
        if view["legal"]:
            r.send("P", {"type": "act", "action": view["legal"][0], "record": view["record"]})
        else:
            r.collect()
    r.comment("An act once the game is over (row `act.over`, MATCH-1).")
    r.send("P", {"type": "act", "action": "pass", "record": 0})
    r.comment("Three people at three-handed Gin in the box, the sitter not seeing the captain's cards (THREE-8): the "
              "sitter (p1 here) advises a discard, which names a card (row `act.blind`).")  # fmt: skip
    three = [{"player": "human", "name": n} for n in ("ann", "bob", "cid")]
    r.table("b", {"seed": 3, "preset": "three_handed", "options": {"sitter_sees_captain_hand": False},
                  "seats": three})  # fmt: skip
    r.send("R", {**hello, "table": "$b", "token": "$b.1"})
    sitter = last_view(r, "R")
    assert sitter is not None
    r.send("R", {"type": "act", "action": "advise p0 discard Kh", "record": sitter["record"]})
    r.comment("A fair table for two people (PROTO-35): after hello, the server's commitment (PROTO-36); an act is "
              "refused while the seeds are gathered (row `act.seeds`).")  # fmt: skip
    r.table("f", {"seed": 3, "fair": True, "seed_timeout": 300, "seats": two})
    r.send("Q", {**hello, "table": "$f", "token": "$f.0"})
    r.send("Q", {"type": "act", "action": "pass", "record": 0})
    r.comment("A seed before every party has committed (row `seed.set`, PROTO-45); commitments the table does not "
              "take (row `commit.text` … `commit.first`, PROTO-38), then ann's, taken, and another of hers refused "
              "(DEAL-11: a commitment does not change).")  # fmt: skip
    r.send("Q", {"type": "seed", "hand": 1, "seed": "11" * 32})
    r.send("Q", {"type": "commit", "hand": 1, "commitment": 7})  # of the wrong kind: the message's (`message.field`)
    r.send("Q", {"type": "commit", "hand": 1, "commitment": "zz" * 32})
    r.send("Q", {"type": "commit", "hand": 2, "commitment": "11" * 32})
    r.send("T", {**hello, "table": "$f", "spectate": True})
    r.send("T", {"type": "commit", "hand": 1, "commitment": "11" * 32})
    r.send("Q", {"type": "commit", "hand": 1, "commitment": "11" * 32})
    r.send("Q", {"type": "commit", "hand": 1, "commitment": "22" * 32})
    r.comment("bob commits to no seed of his own (null: the server supplies it, DEAL-9): the set closes and every "
              "connection is sent it (PROTO-45); a seed revealed with another set's hash is refused (row "
              "`seed.set`).")  # fmt: skip
    r.send("U", {**hello, "table": "$f", "token": "$f.1"})
    r.send("U", {"type": "commit", "hand": 1, "commitment": None})
    r.send("Q", {"type": "seed", "hand": 1, "seed": "00" * 32, "set": "00" * 32})


def last_view(r: Recorder, letter: str) -> dict[str, Any] | None:
    """The newest view recorded for connection ``letter`` (read back from the lines written), as its fields."""
    for line in reversed(r.lines):
        if line.startswith(f"{letter}< ") and '"type":"view"' in line:
            frame: dict[str, Any] = json.loads(line[3:])
            return {"legal": frame["legal"], "record": frame["record"], "over": frame["view"]["over"]}
        if line.startswith(f"{letter}< ") and '"type":"log_offered"' in line:
            return {"over": True}
    return None


def main(argv: list[str]) -> int:
    with (
        tempfile.TemporaryDirectory() as data,
        ServerProcess(data, "--bot-delay", "0", "--table-rate", "0", "--address-tables", "0") as server,
    ):
        r = Recorder(server)
        script(r)
        for c in r.conns.values():
            c.close()
    text = "".join(r.lines)
    for target in TARGETS:
        target.write_text(text, encoding="utf-8")
        print(f"wrote {target.relative_to(ROOT)} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
