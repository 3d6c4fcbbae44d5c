"""``knock serve`` attacked over HTTP as an attacker would: every malformed body a 4xx naming its rule, every body
refused at its limit while it is read, the replay endpoint's work bounded, the limits on tables, the headers.

One attack a test, each against a real server process: its own here, at the default limits but for the number of
tables at once (small, to reach it), or the suite's for the WebSocket.
"""

from __future__ import annotations

import http.client
import json
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from knock.web import replay_api, replaying, transcript
from knock.web.client import ServerProcess
from knock.web.guard import CSP
from knock.web.protocol import parse_json
from knock.web.tablespec import table_spec
from replay import verdict as verdict_module
from replay.replayer import Replayer
from tests.support.long_logs import build
from tests.web.support import Seat, valid_body

TWO = [{"player": "human"}, {"player": "human"}]
BOTS = [{"player": "bot", "bot": "random"}, {"player": "bot", "bot": "random"}]


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server at the default limits (tables made a minute, replays a minute), with room for few tables."""
    with ServerProcess(tmp_path_factory.mktemp("hostile"), "--max-tables", "12", "--max-bot-tables", "2") as running:
        yield running


@pytest.fixture(scope="module")
def long_log() -> bytes:
    """The log that took 17.3 s and 13.8 MB of JSON to draw whole: 600 dead hands, 108 KB (DEAD-1, MATCH-5)."""
    return build("dead", 600)


def request(
    server: ServerProcess, method: str, path: str, body: bytes | None = None, *, ctype: str = "application/json",
    source: str = "127.0.0.1",
) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    host, port = server.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60, source_address=(source, 0))
    conn.request(method, path, body, {"content-type": ctype} if body is not None else {})
    answer = conn.getresponse()
    data = answer.read()
    conn.close()
    valid_body(method, path, answer.status, data)  # every answer of the API is a body of the schema (PROTO-23)
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data


def refused(status: int, data: bytes) -> dict[str, Any]:
    """The error of a refusal: a 4xx and a JSON error naming a rule (never a 5xx, never a page)."""
    assert 400 <= status < 500, (status, data[:200])
    error: dict[str, Any] = json.loads(data)["error"]
    assert error["rule"].startswith(("PROTO-", "RULES-")) and error["code"] and error["message"], error
    return error


def rss_mib(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1]) / 1024


# --- request bodies (PROTO-16) ----------------------------------------------------------------------------


@pytest.mark.rule("PROTO-16")
def test_a_body_nested_60000_deep_is_a_400_not_a_500(hostile: ServerProcess) -> None:
    for body in (b"[" * 60_000, b'{"seats":' * 7_000, b"[" * 30_000 + b"]" * 30_000):
        error = refused(*request(hostile, "POST", "/api/tables", body)[::2])
        assert error["code"] == "bad_json" and error["rule"] == "PROTO-16" and "nested" in error["message"]
    assert request(hostile, "GET", "/api")[0] == 200  # still serving


@pytest.mark.rule("PROTO-16", "PROTO-2")
@pytest.mark.parametrize(
    ("body", "ctype", "status", "rule"),
    [
        (b'{"seats": [{"player": "human"}, {"player": "human"}], "seed": NaN}', "application/json", 400, "PROTO-16"),
        (b'{"seats": [{"player": "human"}, {"player": "human"}], "seed": Infinity}', "application/json", 400,
         "PROTO-16"),
        (b'{"seats": [], "turn_timeout": -Infinity}', "application/json", 400, "PROTO-16"),
        (b'{"seats": [], "turn_timeout": 1e999}', "application/json", 400, "PROTO-16"),
        (b'{"seats": [{"player": "human", "name": "\xff\xfe"}, {"player": "human"}]}', "application/json", 400,
         "PROTO-16"),
        (b'{"seats": [{"player": "human"}, {"player": "human"}]}', "text/plain", 415, "PROTO-16"),
        (b'{"seats": [{"player": "human"}, {"player": "human"}]}', "application/x-www-form-urlencoded", 415,
         "PROTO-16"),
        (b"", "application/json", 400, "PROTO-16"),
        (b'{"seats": 7}', "application/json", 400, "PROTO-2"),
        (b'{"seats": [1, 2]}', "application/json", 400, "PROTO-2"),
        (b'{"seats": [{"player": "human"}, {"player": "human"}], "seed": 1.5}', "application/json", 400, "PROTO-2"),
        (b'{"seats": [{"player": "human"}, {"player": "human"}], "seed": true}', "application/json", 400, "PROTO-2"),
        (b'{"options": [], "seats": []}', "application/json", 400, "PROTO-2"),
        (b'{"options": {"target": "x"}, "seats": []}', "application/json", 400, "RULES-2"),
        (b'{"seats": [{"player": "human"}, {"player": "human"}], "seed": 1' + b"0" * 5000 + b"}", "application/json",
         400, "PROTO-16"),
        (b"[1, 2]", "application/json", 400, "PROTO-2"),
    ],
)  # fmt: skip
def test_every_malformed_body_is_a_4xx_naming_its_rule(
    hostile: ServerProcess, body: bytes, ctype: str, status: int, rule: str
) -> None:
    got, _, data = request(hostile, "POST", "/api/tables", body, ctype=ctype)
    error = refused(got, data)
    assert got == status and error["rule"] == rule, error


@pytest.mark.rule("PROTO-16")
def test_mutated_requests_raise_only_the_errors_that_name_a_rule() -> None:
    """A table's request with its bytes changed at random, 3,000 times: the parse and the check raise only
    ValueErrors (each a 400 naming a rule), never anything that would be a 500."""
    rng = random.Random(24)
    good = json.dumps({"preset": "oklahoma", "options": {"target": 150, "gin_bonus": 20}, "seed": 5,
                       "seats": [{"player": "human", "name": "ann"}, {"player": "bot", "bot": "greedy"}],
                       "turn_timeout": 30, "bot_delay": 0.5, "commitments": True}).encode()  # fmt: skip
    alphabet = b'[]{}",:0123456789.eE+-truefalsnNaIiy\\\xff '
    refused_count = 0
    for _ in range(3000):
        data = bytearray(good)
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(len(data))
            data[at : at + rng.randint(0, 3)] = bytes(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
        try:
            table_spec(parse_json(bytes(data)))
        except ValueError:
            refused_count += 1
    assert refused_count > 1000  # the mutations mostly break the request, and every break is a ValueError


@pytest.mark.rule("PROTO-16")
def test_a_body_is_refused_while_it_is_read(hostile: ServerProcess) -> None:
    """50 MB announced: refused before a byte is read; 50 MB streamed without a length: refused at the limit, the
    server's memory the same."""
    host, port = hostile.url.removeprefix("http://").split(":")
    before = rss_mib(hostile.pid)
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.putrequest("POST", "/api/tables")
    conn.putheader("content-type", "application/json")
    conn.putheader("content-length", str(50 << 20))
    conn.endheaders()
    answer = conn.getresponse()
    assert answer.status == 413 and json.loads(answer.read())["error"]["rule"] == "PROTO-16"
    conn.close()
    for path, ctype in (("/api/tables", "application/json"), ("/api/replay", "application/x-knock-log")):
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(f"POST {path} HTTP/1.1\r\nhost: {host}\r\ncontent-type: {ctype}\r\n"
                     "transfer-encoding: chunked\r\n\r\n".encode())  # fmt: skip
        chunk = b"%x\r\n%s\r\n" % (1 << 16, b"[" * (1 << 16))
        sent = 0
        try:
            while sent < 50 << 20:
                sock.sendall(chunk)
                sent += 1 << 16
        except OSError:
            pass  # the server answered and closed: the rest was never read
        reply_bytes = b""
        try:  # the head and the body come in separate packets: read until the body or the close
            while b"\r\n\r\n{" not in reply_bytes and (part := sock.recv(65536)):
                reply_bytes += part
        except OSError:
            pass  # the server closed with our unread bytes in its buffer: its kernel resets, and may drop the body
        reply = reply_bytes.decode("latin-1")
        sock.close()
        assert reply.startswith("HTTP/1.1 413") and "content-type: application/json" in reply, reply[:300]
        assert "\r\n\r\n{" not in reply or '"too_big"' in reply, reply  # the body, when it arrives, says why
        assert sent < 40 << 20  # it stopped reading long before the end
    assert rss_mib(hostile.pid) - before < 10  # nothing of it kept
    assert request(hostile, "GET", "/api")[0] == 200


@pytest.mark.rule("PROTO-16")
def test_a_client_that_sends_its_whole_oversized_body_first_gets_the_whole_answer(hostile: ServerProcess) -> None:
    """A 413 is answered after the server has read and dropped the rest of a body of a moderate size (up to 1 MiB):
    a client that writes its whole body before reading (as Node's http does) gets the answer's body, every time,
    where an unread socket closed under it would reset the connection and lose it (issue #59)."""
    host, port = hostile.url.removeprefix("http://").split(":")
    body = b'{"seats": "' + b"x" * 300_000 + b'"}'
    for _ in range(6):
        sock = socket.create_connection((host, int(port)), timeout=10)
        sock.sendall(f"POST /api/tables HTTP/1.1\r\nhost: {host}\r\ncontent-type: application/json\r\n"
                     f"content-length: {len(body)}\r\n\r\n".encode() + body)  # fmt: skip
        reply = b""
        while part := sock.recv(65536):
            reply += part
        sock.close()
        head, _, payload = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 413") and json.loads(payload)["error"]["code"] == "too_big", reply[:300]


# --- the replay endpoint (PROTO-18) -----------------------------------------------------------------------


class Counted:
    """How many views a transcript built, and how many replays it ran."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.views = 0
        self.replays = 0
        monkeypatch.setattr(replaying, "_shown", self.counting(replaying._shown, "views"))
        counted = self.counting(Replayer, "replays")
        monkeypatch.setattr(replaying, "Replayer", counted)  # a page's drawing on its own
        monkeypatch.setattr(verdict_module, "Replayer", counted)  # the verdict's, which draws a full log's page

    def counting(self, f: Any, what: str) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            setattr(self, what, getattr(self, what) + 1)
            return f(*args, **kwargs)

        return wrapped


@pytest.mark.rule("PROTO-18", "LOG-13")
def test_a_page_of_the_long_log_is_bounded_work(long_log: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """The costliest page, the last (the one replay mode asks for first): one replay — the verdict's, which draws the
    page too (there were two, 2.0 s of CPU on this machine; one and the shared score sheet: 0.8 s) — at most a page
    of views from one perspective, a bounded answer (the whole transcript was 4,000 steps from 4 perspectives,
    15.6 MB)."""
    count = Counted(monkeypatch)
    t = transcript.transcript(long_log, perspective=transcript.FIRST, start=None, count=replay_api.PAGE)
    text = json.dumps(t)
    expected = t["verdict"]["record"]  # a pass: every record drawn, the last the trailer
    assert t["verdict"]["verdict"] == "pass" and t["total"] == expected > 38_000
    assert len(t["steps"]) == replay_api.PAGE and t["problem"] is None and t["steps"][-1]["label"] == "trailer"
    assert t["start"] == expected - replay_api.PAGE and t["perspective"] == "full"
    assert count.replays == 1 and count.views <= replay_api.PAGE  # one replay, a page of views
    assert all(set(s["views"]) == {t["perspective"]} for s in t["steps"])  # from one perspective
    assert len(text) < 2_000_000


_CHILD = """
import gc, json, sys
from pathlib import Path
from knock.web.transcript import transcript

def kib(key):
    return int(next(x for x in Path("/proc/self/status").read_text().splitlines() if x.startswith(key)).split()[1])

data = Path(sys.argv[1]).read_bytes()
transcript(data[:3000], perspective="", start=None, count=200)  # the imports and the caches: not the page's
gc.collect()
Path("/proc/self/clear_refs").write_text("5")  # the peak from here on
before = kib("VmRSS:")
text = json.dumps(transcript(data, perspective="", start=None, count=200))
peak = kib("VmHWM:") - before
del text
gc.collect()
print(json.dumps({"peak": peak, "left": kib("VmRSS:") - before}))
"""


@pytest.mark.rule("PROTO-18")
def test_the_long_logs_last_page_takes_little_memory_and_gives_it_back(long_log: bytes, tmp_path: Path) -> None:
    """The resident memory of a process drawing the long log's last page (the costliest): at most 50 MB more at
    its peak, and back where it was afterwards (the whole transcript took 75 to 183 MB, and kept it)."""
    log = tmp_path / "dead.knock"
    log.write_bytes(long_log)
    done = subprocess.run([sys.executable, "-c", _CHILD, str(log)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["peak"] < 50 << 10 and figures["left"] < 8 << 10, figures


@pytest.mark.rule("PROTO-18", "LOG-13")
def test_the_pages_are_the_whole_transcripts_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages from every perspective and start, joined, are the steps of the whole transcript (knock view's)."""
    data = build("dead", 1)
    whole = transcript.transcript(data)
    keys = [p["key"] for p in whole["perspectives"]]
    assert not whole["truncated"] and whole["total"] == len(whole["steps"])
    for key in keys:
        drawn = []
        for start in range(0, whole["total"], 250):
            page = transcript.transcript(data, perspective=key, start=start, count=250)
            assert page["total"] == whole["total"] and page["start"] == start
            drawn += list(transcript.steps_of(page, key))
        assert [(s["record"], s["label"], s["events"][key], v) for s, v in drawn] == [
            (s["record"], s["label"], s["events"][key], v) for s, v in transcript.steps_of(whole, key)
        ]
    page = transcript.transcript(data, perspective="north", start=0, count=5)
    assert page["steps"] == [] and "north" in page["problem"]


@pytest.mark.rule("PROTO-18", "PROTO-17", "PROTO-16")
def test_the_replay_endpoint_answers_the_long_log_in_pages(hostile: ServerProcess, long_log: bytes) -> None:
    before = rss_mib(hostile.pid)
    status, _, data = request(hostile, "POST", "/api/replay?name=dead.knock", long_log, ctype="application/x-knock-log")
    page = json.loads(data)
    assert status == 200 and page["perspective"] == "full" and len(page["steps"]) == replay_api.PAGE
    assert page["start"] + replay_api.PAGE == page["total"] and page["steps"][-1]["label"] == "trailer"
    status, _, data = request(hostile, "POST", "/api/replay?perspective=1&start=1000&count=500", long_log,
                              ctype="application/x-knock-log")  # fmt: skip
    assert status == 200 and [s["record"] for s in json.loads(data)["steps"]][::499] == [1001, 1500]
    assert rss_mib(hostile.pid) - before < 50
    for query, ctype, code in (("?count=501", "application/x-knock-log", "bad_query"),
                               ("?start=-1", "application/x-knock-log", "bad_query"),
                               ("", "application/json", "bad_content_type")):  # fmt: skip
        status, _, data = request(hostile, "POST", f"/api/replay{query}", long_log, ctype=ctype)
        assert refused(status, data)["code"] == code
    over = long_log + bytes(replay_api.MAX_LOG)
    status, _, data = request(hostile, "POST", "/api/replay", over, ctype="application/x-knock-log")
    assert status == 413 and refused(status, data)["rule"] == "PROTO-16"


# --- limits (PROTO-17) -----------------------------------------------------------------------------------


@pytest.mark.rule("PROTO-17", "PROTO-2")
def test_tables_are_limited_by_address_by_number_and_bots(hostile: ServerProcess) -> None:
    def make(seats: list[dict[str, str]], source: str) -> tuple[int, dict[str, str], bytes]:
        return request(hostile, "POST", "/api/tables", json.dumps({"seats": seats}).encode(), source=source)

    assert [make(BOTS, "127.0.0.2")[0] for _ in range(2)] == [201, 201]
    status, _, data = make(BOTS, "127.0.0.2")
    assert refused(status, data)["code"] == "too_many_bot_tables"  # 20 by default; 2 on this server
    assert [make(TWO, "127.0.0.2")[0] for _ in range(8)] == [201] * 8  # ten a minute from one address
    status, headers, data = make(TWO, "127.0.0.2")
    assert status == 429 and refused(status, data)["code"] == "rate_limited" and int(headers["retry-after"]) >= 1
    assert [make(TWO, "127.0.0.3")[0] for _ in range(2)] == [201, 201]  # another address is not refused
    status, _, data = make(TWO, "127.0.0.3")
    assert status == 429 and refused(status, data)["code"] == "too_many_tables"  # 200 by default; 12 here

    status, _, data = request(hostile, "GET", "/api/tables?count=5")
    listing = json.loads(data)
    assert status == 200 and listing["total"] == 12 and len(listing["tables"]) == 5 and listing["next"] == 5
    rest = json.loads(request(hostile, "GET", "/api/tables?start=5&count=200")[2])
    assert len(rest["tables"]) == 7 and rest["next"] is None
    assert len({t["table"] for t in listing["tables"] + rest["tables"]}) == 12
    assert listing["tables"][0]["seats"][0]["player"] == "human" and rest["tables"][-1]["seats"][0]["player"] == "bot"
    for query in ("?count=201", "?count=0", "?start=x"):
        assert refused(*request(hostile, "GET", f"/api/tables{query}")[::2])["code"] == "bad_query"


@pytest.mark.rule("PROTO-17")
def test_replays_are_limited_by_address(hostile: ServerProcess) -> None:
    answers = [request(hostile, "POST", "/api/replay", b"\x00" * 8, ctype="application/x-knock-log", source="127.0.0.4")
               for _ in range(21)]  # fmt: skip
    assert [a[0] for a in answers[:20]] == [200] * 20  # garbage gets its verdict
    status, headers, data = answers[20]
    assert status == 429 and refused(status, data)["code"] == "rate_limited" and "retry-after" in headers


@pytest.mark.rule("PROTO-17")
def test_one_address_cannot_hold_the_replay_slots(hostile: ServerProcess) -> None:
    """Replays whose bodies trickle in hold their places in the queue: one address holds two at most, and another
    address is still served."""
    host, port = hostile.url.removeprefix("http://").split(":")
    head = (f"POST /api/replay HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/x-knock-log\r\n"
            "Content-Length: 100\r\n\r\n").encode()  # fmt: skip
    holders = []
    for _ in range(2):
        slow = socket.create_connection((host, int(port)), timeout=30, source_address=("127.0.0.5", 0))
        slow.sendall(head + b"\x00")  # and the rest of its body never comes (until the body's deadline)
        holders.append(slow)
    try:
        deadline = time.monotonic() + 30  # the server takes the two holders' places as it reads their headers
        while True:
            status, _, data = request(hostile, "POST", "/api/replay", b"\x00" * 8, ctype="application/x-knock-log",
                                      source="127.0.0.5")  # fmt: skip
            if status == 429:
                break
            assert status == 200 and time.monotonic() < deadline, "the holders' places were never taken"
        assert refused(status, data)["code"] == "busy" and b"one address" in data
        status, _, _ = request(hostile, "POST", "/api/replay", b"\x00" * 8, ctype="application/x-knock-log",
                               source="127.0.0.6")  # fmt: skip
        assert status == 200  # another address is served
    finally:
        for slow in holders:
            slow.close()


# --- headers (PROTO-19) ----------------------------------------------------------------------------------


@pytest.mark.rule("PROTO-19")
def test_every_response_carries_the_security_headers(hostile: ServerProcess) -> None:
    for method, path, body in (("GET", "/", None), ("GET", "/static/js/app.js", None), ("GET", "/api", None),
                               ("GET", "/api/tables/nope", None), ("GET", "/no/such/file", None),
                               ("POST", "/api/tables", b"[" * 100)):  # fmt: skip
        _, headers, _ = request(hostile, method, path, body)
        assert headers["content-security-policy"] == CSP and "frame-ancestors 'none'" in CSP, path
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer", path


# --- the WebSocket (PROTO-11) ----------------------------------------------------------------------------


@pytest.mark.rule("PROTO-11", "PROTO-16")
def test_non_finite_numbers_inside_a_message_are_refused(server: ServerProcess) -> None:
    made = server.table({"seats": TWO})
    seat = Seat(server.ws)
    assert seat.hello(made["table"], made["seats"][0]["token"])["type"] == "welcome"
    view = seat.view()
    for bad in ("NaN", "Infinity", "-Infinity", "1e999"):
        seat.send(f'{{"type": "act", "action": "pass", "record": {bad}}}')
        error = seat.until("error")
        assert error["code"] == "bad_json" and not error["close"], error
    seat.send({"type": "view"})
    assert seat.view()["record"] == view["record"]  # still open, nothing changed
    seat.send('{"type": "hello", "protocol": [' + "[" * 5000 + "]" * 5000 + "]}")
    assert seat.until("error")["code"] == "bad_json"
    seat.close()


@pytest.mark.rule("PROTO-11", "PROTO-16")
def test_a_client_that_goes_away_mid_body_leaves_no_traceback(tmp_path: Path) -> None:
    """Requests cut off inside their body (a table's, a replay's): the server answers the next one as ever, and its
    log holds no traceback (an operator's log is for what went wrong with the server)."""
    errors = tmp_path / "stderr.txt"
    with ServerProcess(tmp_path / "data", stderr=errors) as server:
        host, port = server.url.split("//")[1].rsplit(":", 1)
        for path, kind in (("/api/tables", "application/json"), ("/api/replay", "application/octet-stream")):
            with socket.create_connection((host, int(port)), timeout=10) as cut:
                head = f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: {kind}\r\n"
                cut.sendall(head.encode() + b"Content-Length: 1000\r\n\r\n" + b'{"seats": [')
                cut.shutdown(socket.SHUT_WR)
                cut.recv(1)  # the server has read what there was, and closes
        status, _ = server.get("/api")
        assert status == 200
    log = errors.read_text()
    assert "Traceback" not in log and "ClientDisconnect" not in log, log
