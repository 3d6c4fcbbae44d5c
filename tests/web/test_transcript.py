"""Replay mode's transcripts (knock.web.transcript), knock view's page and POST /api/replay.

A transcript's seat views are the protocol's views: schema-valid, and equal to what a live table sends the seat
at the same record; the spectator's show no seat's cards; every verdict is judge's; any bytes end in a transcript.
"""

from __future__ import annotations

import http.client
import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from engine.match import Match
from engine.rules import RuleSet
from knock.bots import HeuristicBot, play_match
from knock.web import page, transcript
from knock.web.client import ServerProcess
from knock.web.game import Game
from knock.web.protocol import SeatSpec, schema
from knock.web.tablespec import TableSpec
from replay.log import write_log
from replay.redact import redact
from replay.verdict import judge
from tests.web.support import valid_body

_SCHEMA = schema()
VIEW = Draft202012Validator({**{k: v for k, v in _SCHEMA.items() if k != "anyOf"}, "$ref": "#/$defs/view"})
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def game(preset: str = "standard", seed: int = 2) -> bytes:
    rules = RuleSet.preset(preset)
    return write_log(play_match(Match.new(rules, seed=seed), [HeuristicBot()] * rules.players))


def views(t: dict[str, Any], key: str) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for step, body in transcript.steps_of(t, key):
        if body is not None:
            yield step, body


def some(t: dict[str, Any], key: str, every: int = 9) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    """Every ``every``-th view, and every view with a showdown (the schema's check is slow; these cover each kind)."""
    for i, (step, body) in enumerate(views(t, key)):
        if i % every == 0 or body["spread"] is not None or body["result"] is not None:
            yield step, body


@pytest.mark.rule("LOG-13", "LOG-6", "PROTO-5", "PROTO-6")
@pytest.mark.parametrize("preset", ["standard", "oklahoma", "three_handed"])
def test_a_full_log_is_drawn_from_every_perspective(preset: str) -> None:
    data = game(preset)
    t = transcript.transcript(data, name="g.knock")
    verdict = judge(data)
    fields = verdict.to_json()  # protocol 1.4: every key of LOG-13's verdict, how far it is signed included
    assert t["verdict"] == {**fields, "summary": t["verdict"]["summary"]}
    assert t["digest"] == verdict.digest.hex() if verdict.digest else False
    players = RuleSet.preset(preset).players
    assert [p["key"] for p in t["perspectives"]] == ["full", *map(str, range(players)), "spectator"]
    assert verdict.record is not None
    assert [s["record"] for s in t["steps"]] == list(range(1, verdict.record + 1))  # every record, in order
    assert t["steps"][-1]["label"] == "trailer" and not t["truncated"]
    for seat in range(players):
        for _, body in some(t, str(seat)):
            errors = list(VIEW.iter_errors(body))
            assert not errors, errors[0].message  # the protocol's own view (PROTO-5)
            assert body["you"] == seat
    for _, body in views(t, "spectator"):
        assert body["cards"] == [] and body["advice"] is None and body["knock_discard"] is None  # PROTO-6
    for _, body in views(t, "full"):
        dealt = [c for h in body["hands"] for c in h["cards"]]
        shown = dealt + body["stock_cards"] + body["discard_pile"]
        assert len(shown) == len(set(shown))
        assert len(shown) + (body["knock_discard"] is not None) == 52 or body["spread"] is not None


@pytest.mark.rule("PROTO-5")
def test_a_seats_view_in_replay_is_what_the_live_table_sent_it() -> None:
    """The transcript and the table protocol write a seat's view with the same visibility: at every record in a
    hand, the views are equal (one visibility function, PROTO-5)."""
    rules = RuleSet.preset("three_handed")
    spec = TableSpec("three_handed", {}, tuple(SeatSpec("human", f"p{i}") for i in range(3)), seed=7)
    table, data = Game.new("t", spec)
    sent: dict[tuple[int, int], dict[str, Any]] = {}
    while not table.over:
        seat = table.match.to_act
        assert seat is not None
        out = table.act(seat, table.bot_action(seat), table.record)
        assert out.applied is not None
        data += out.chunk
        table.advance()
        if table.match.hand is not None and table.match.hand.result is None:  # mid-hand: no deal ahead of the log
            for s in range(rules.players):
                sent[(table.record, s)] = table.view(s, [])["view"]
    t = transcript.transcript(data)
    assert t["verdict"]["verdict"] == "pass"
    drawn = {(step["record"], s): body for s in range(3) for step, body in views(t, str(s))}
    for key, body in sent.items():
        assert drawn[key] == body, key
    assert len(sent) > 100


@pytest.mark.rule("LOG-12", "LOG-11")
def test_a_per_seat_view_is_drawn_from_its_seat_alone() -> None:
    data = game("three_handed", seed=4)
    full = transcript.transcript(data)
    for seat in range(3):
        view = redact(data, seat)
        t = transcript.transcript(view)
        assert t["verdict"]["verdict"] == "pass" and t["header"]["view"] == seat, t["problem"]
        assert [p["key"] for p in t["perspectives"]] == [str(seat)] and t["problem"] is None
        assert len(t["steps"]) == len(full["steps"])
        own = dict(((s["record"], json.dumps(b["cards"])) for s, b in views(full, str(seat))))
        for step, body in views(t, str(seat)):
            if step["record"] in own and not step["label"].startswith("hand "):  # a hand's cards come with its deal
                assert json.dumps(body["cards"]) == own[step["record"]], step


@pytest.mark.rule("LOG-13")
@pytest.mark.parametrize("cut", [0, 1, 40, 300, -1])
def test_any_bytes_end_in_a_transcript_with_the_verdict(cut: int) -> None:
    data = game()
    broken = data[:cut] if cut >= 0 else data[:-30] + bytes(b ^ 0x5A for b in data[-30:])
    t = transcript.transcript(broken)
    v = judge(broken)
    assert t["verdict"]["verdict"] == v.kind and t["verdict"]["record"] == v.record and t["problem"] is None
    if v.kind == "fail" and v.record is not None:
        assert f"record {v.record}" in t["verdict"]["summary"] and v.rule in t["verdict"]["summary"]
        assert all(s["record"] < v.record for s in t["steps"])  # drawn up to the fault, not past it
    json.dumps(t)


@pytest.mark.rule("LOG-13")
def test_a_long_log_is_judged_whole_and_drawn_up_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transcript, "MAX_STEPS", 50)
    t = transcript.transcript(game())
    assert t["truncated"] and len(t["steps"]) == 50 and t["verdict"]["verdict"] == "pass"


@pytest.mark.rule("LOG-6")
def test_golden_logs_draw_with_their_digests() -> None:
    for path in sorted(GOLDEN.glob("*.knock"))[:6]:
        data = path.read_bytes()
        t = transcript.transcript(data, name=path.name)
        v = judge(data)
        assert t["verdict"]["verdict"] == v.kind and t["digest"] == (v.digest.hex() if v.digest else None)


# --- knock view ---------------------------------------------------------------------------------------


def test_the_page_inlines_every_module_and_fetches_nothing() -> None:
    t = transcript.transcript(game(seed=9))
    html = page.replay_page(t)
    assert "default-src 'none'" in html
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", html)  # no address to fetch
    assert not re.search(r"^\s*import\b", html, re.M) and 'from "./' not in html
    embedded = re.search(r'<script type="application/json" id="knock-transcript">(.*?)</script>', html, re.S)
    assert embedded is not None and json.loads(embedded.group(1)) == json.loads(json.dumps(t))
    assert page.embed_json({"x": "</script><b>"}).count("<") == 0


def test_the_bundler_refuses_what_it_cannot_join(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = {
        "js/a.js": 'import { nope } from "./b.js";\nexport function a() {}\n',
        "js/b.js": "export function b() {}\n",
        "js/c.js": 'import * as b from "./b.js";\n',
    }
    monkeypatch.setattr(page, "static_text", lambda path: texts[path])
    with pytest.raises(page.BundleError, match="nope"):
        page.bundle("a.js")
    with pytest.raises(page.BundleError, match="does not read"):
        page.bundle("c.js")


@pytest.mark.rule("LOG-13")
def test_knock_view_writes_the_page_and_exits_with_the_verdict(tmp_path: Path) -> None:
    log = tmp_path / "g.knock"
    data = game()
    for body, code in ((data, 0), (data[: len(data) // 3], None), (b"not a log", 1)):
        log.write_bytes(body)
        page = ["-o", str(tmp_path / "g.html"), "--force"]  # the same page each time: written over (--force)
        done = subprocess.run([sys.executable, "-m", "knock.cli", "view", str(log), *page],
                              capture_output=True, text=True, timeout=120)  # fmt: skip
        verdict = judge(body)
        assert done.returncode == {"pass": 0, "fail": 1, "unfinished": 3}[verdict.kind], done.stderr
        assert code is None or done.returncode == code
        assert verdict.kind in done.stdout and (tmp_path / "g.html").stat().st_size > 10_000


# --- POST /api/replay -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("replay-serve"), "--bot-delay", "0", "--replay-rate", "0") as running:
        yield running


def post(url: str, body: bytes) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, body, method="POST", headers={"content-type": "application/x-knock-log"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            status, data = response.status, response.read()
    except urllib.error.HTTPError as err:
        status, data = err.code, err.read()
    valid_body("POST", url, status, data)  # an http_replay, or an http_error (PROTO-23)
    return status, json.loads(data)


@pytest.mark.rule("LOG-13", "PROTO-11")
def test_the_replay_endpoint_answers_a_transcript_for_any_bytes(served: ServerProcess) -> None:
    data = game()
    status, t = post(f"{served.url}/api/replay?name=g.knock", data)
    assert status == 200 and t["verdict"]["verdict"] == "pass" and t["name"] == "g.knock"
    page = transcript.transcript(data, name="g.knock", perspective=transcript.FIRST, start=None, count=200)
    assert t == json.loads(json.dumps(page)) and t["perspective"] == "full"  # the last page, from the first view
    status, t = post(f"{served.url}/api/replay", b"\x00" * 100)
    assert status == 200 and t["verdict"]["verdict"] == "fail" and t["steps"] == []
    host, port = served.url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.putrequest("POST", "/api/replay")
    conn.putheader("content-type", "application/x-knock-log")
    conn.putheader("content-length", str(2 << 20))  # announced: refused before a byte of it is read
    conn.endheaders()
    answer = conn.getresponse()
    assert answer.status == 413 and json.loads(answer.read())["error"]["code"] == "too_big"
    conn.close()
