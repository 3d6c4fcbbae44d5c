"""The recorded WebSocket session (spec/protocol-session-ws.txt, PROTO-27) replayed against a fresh ``knock serve``:
every frame as recorded, every refusal the table protocol names over a WebSocket recorded (but the flood, a table
failed at a restart and the server's own failure), and the shipped copy the spec's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from knock.conformance.sessions import default_session, parse, replay
from knock.web.client import ServerProcess
from tests.cli.support import run as knock

ROOT = Path(__file__).resolve().parents[2]
SESSION = ROOT / "spec" / "protocol-session-ws.txt"
#: WebSocket rows a recorded session does not hold, and where the suite exercises them instead.
ELSEWHERE = {
    "frame.flood": "a hundred frames a second (tests/web/test_hostile.py)",
    "hello.failed": "a table that failed at a restart (tests/web/test_restart.py)",
    "internal": "a failure of the server itself",
    "hello.fair": "a client older than 1.4 at a fair table (tests/web/test_fair_house.py)",
    "seed.commitment": "a seed that is not the one committed to, with the set's hash (tests/web/test_fair_table.py)",
    "seed.statement": "a reveal whose statement is missing, false or not asked for (tests/web/test_fair_house.py)",
}


@pytest.mark.rule("PROTO-27", "PROTO-11", "PROTO-3", "PROTO-38", "PROTO-36", "PROTO-20")
def test_knock_serve_answers_the_recorded_session_frame_by_frame(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "data", "--bot-delay", "0", "--table-rate", "0", "--address-tables", "0") as server:
        problems = replay(SESSION.read_text("utf-8"), server.url)
        assert not problems, problems
        done = knock("conform", "sessions", "--url", server.url)  # the same through the command, any server's URL
        assert done.returncode == 0 and "as recorded" in done.stdout, done.stdout + done.stderr


@pytest.mark.rule("PROTO-27", "PROTO-22")
def test_the_session_records_every_websocket_refusal_and_is_shipped() -> None:
    assert default_session().read_text("utf-8") == SESSION.read_text("utf-8")
    spec = (ROOT / "spec" / "protocol.md").read_text("utf-8")
    block = spec.split("*The refusals as a table* (1.4).")[1].split("- **PROTO-9**")[0]
    rows = re.findall(r"^\| `([a-z.]+)`(?: … `[a-z.]+`)? \| (WS|engine|both) \|", block, re.MULTILINE)
    ws_rows = {row for row, where in rows if where != "engine"}
    recorded = {m for s in parse(SESSION.read_text("utf-8")) if s.kind == "comment"
                for m in re.findall(r"row `([a-z.]+)`", s.text)}  # fmt: skip
    missing = ws_rows - recorded - set(ELSEWHERE)
    assert not missing, sorted(missing)
    assert recorded <= {row for row, _ in rows}, sorted(recorded - {row for row, _ in rows})
    kinds = {m for s in parse(SESSION.read_text("utf-8")) if s.kind == "expect"
             for m in re.findall(r'^\{"type":"([a-z_]+)"', s.text)}  # fmt: skip
    assert {"welcome", "view", "ack", "refusal", "error", "hand_result", "game_result", "log_offered",
            "fair_commit", "commit_taken", "fair_set"} <= kinds, kinds  # fmt: skip


def _blocks(text: str) -> list[tuple[str, list[dict[str, object]]]]:
    """A recorded session's comments, each with the frames the server sends after it (either session's form:
    ``X< {…}`` on a WebSocket, ``< {…}`` on ``knock engine``)."""
    out: list[tuple[str, list[dict[str, object]]]] = []
    for line in text.splitlines():
        if line.startswith("# "):
            out.append((line[2:], []))
        elif out and re.match(r"^[A-Z]?< \{", line):
            out[-1][1].append(json.loads(line.split("< ", 1)[1]))
    return out


@pytest.mark.rule("PROTO-27", "PROTO-7", "PROTO-22")
@pytest.mark.parametrize("session", [SESSION, ROOT / "spec" / "protocol-session.txt"], ids=["ws", "engine"])
def test_each_recorded_exchange_shows_what_its_comment_says(session: Path) -> None:
    """A recorded session stays true to its words: a refusal for a stale record (PROTO-7) follows only a comment
    about the record (row `act.record`), so a row a comment names is the refusal it shows and not a stale record
    standing in for it; a comment that says an act is acknowledged is followed by an ack."""
    blocks = _blocks(session.read_text("utf-8"))
    assert blocks
    for comment, frames in blocks:
        rows = re.findall(r"row `([a-z.]+)`", comment)
        stale = [f for f in frames if f.get("type") == "refusal" and f.get("rule") == "PROTO-7"]
        assert not stale or "act.record" in rows, (comment, stale[0])
        if re.search(r"\backnowledged\b", comment):
            assert any(f.get("type") == "ack" for f in frames), comment
