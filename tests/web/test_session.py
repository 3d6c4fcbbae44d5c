"""The worked ``knock engine`` session of spec/protocol.md, replayed byte for byte (PROTO-27)."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys

import pytest

from knock.web.protocol import ProtocolError, decode
from replay.verdict import judge
from tests.web.support import CLIENT, ROOT, ajv, valid

SESSION = ROOT / "spec" / "protocol-session.txt"


def sides() -> tuple[list[str], list[str]]:
    """The lines the controller sends and the lines the engine writes, as the file has them."""
    sent: list[str] = []
    written: list[str] = []
    for line in SESSION.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        if line == ">" or line.startswith("> "):
            sent.append(line[2:])
        elif line.startswith("< "):
            written.append(line[2:])
        else:
            raise AssertionError(f"a session line is '> ', '< ' or '#': {line!r}")
    return sent, written


@pytest.mark.rule("PROTO-27", "PROTO-15", "PROTO-11")
def test_knock_engine_writes_the_worked_session_byte_for_byte() -> None:
    sent, written = sides()
    run = subprocess.run([sys.executable, "-m", "knock.cli", "engine"], input="".join(s + "\n" for s in sent),
                         capture_output=True, text=True, timeout=60, check=True, cwd=ROOT)  # fmt: skip
    assert run.stdout == "".join(w + "\n" for w in written)
    assert run.stderr == ""
    frames = [json.loads(w) for w in written]
    assert [f["line"] for f in frames if f["type"] == "done"] == list(range(1, len(sent) + 1))  # each line answered


@pytest.mark.rule("PROTO-27", "PROTO-1")
def test_the_sessions_messages_are_valid_under_both_validators() -> None:
    sent, written = sides()
    frames = [valid(json.loads(w)) for w in written]
    read = []
    for s in sent:
        try:
            decode(s)
        except ProtocolError:
            continue  # meant to be refused: an empty line, text that is not JSON
        read.append(json.loads(s))
        assert not list(CLIENT.iter_errors(read[-1])), s
    kinds = {f["type"] for f in frames}
    assert {"started", "view", "ack", "refusal", "error", "done", "log_offered", "log"} <= kinds
    log = next(f for f in frames if f["type"] == "log")
    verdict = judge(base64.b64decode(log["data"]))
    assert verdict.kind == log["verdict"] == "pass" and verdict.digest is not None
    assert verdict.digest.hex() == log["digest"]
    answers = ajv([("server_message", f) for f in frames] + [("client_message", m) for m in read])
    assert answers == ["ok"] * (len(frames) + len(read))


@pytest.mark.rule("PROTO-27", "PROTO-22", "PROTO-15")
def test_the_session_records_every_refusal_knock_engine_can_meet() -> None:
    """Every row of protocol.md's refusal table that ``knock engine`` can meet has a recorded exchange in the worked
    session, introduced by a comment naming it — but ``frame.line``, a line of more than 65,536 characters (sent by
    tests/web/test_engine.py), and ``internal``, a failure of the server itself."""
    spec = (ROOT / "spec" / "protocol.md").read_text("utf-8")
    block = spec.split("*The refusals as a table* (1.4).")[1].split("- **PROTO-9**")[0]
    rows = re.findall(r"^\| `([a-z.]+)`(?: … `[a-z.]+`)? \| (WS|engine|both) \|", block, re.MULTILINE)
    assert len(rows) >= 28
    engine_rows = {row for row, where in rows if where != "WS"} - {"frame.line", "internal"}
    session = (ROOT / "spec" / "protocol-session.txt").read_text("utf-8")
    recorded = set(re.findall(r"^# .*\(row `([a-z.]+)`", session, re.MULTILINE))
    assert engine_rows <= recorded, sorted(engine_rows - recorded)
    assert recorded <= {row for row, _ in rows}, sorted(recorded - {row for row, _ in rows})
