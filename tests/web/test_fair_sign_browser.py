"""The page's statements and the server's receipts in a real headless Chromium (DEAL-12, PROTO-47), against a server
forged here: the page is served as files and its WebSocket replaced, before its scripts run, by one that this test
answers, so it needs no ``knock serve`` (whose half of protocol 1.4's receipts may not have landed). The browser
path is the default one: the statement key is made by Chromium's Web Crypto and kept in its IndexedDB, named in the
page's ``hello`` and found again after a reload; the statement the page sends verifies with it (``cryptography``).
Once the server names another receipts key in a later ``welcome`` the hand's check fails, the action buttons go,
the page says why, and "Download the evidence" gives the frames, what the page sent and the reason.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from engine import fairdeal
from tests.web.browser import PHONE, WIDE, Browser
from tests.web.test_fair_page import (
    ANOTHER_KEY,
    RECEIPTS,
    TABLE,
    commit_receipt_message,
    public,
    seed,
    seed_receipt_message,
    statement_message,
)

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "knock" / "web" / "static"
SEAT = 1  # the page's seat: the non-dealer, to act first (the upcard offer)

#: The page's WebSocket, replaced before any of its scripts run: what it sends is kept in ``window.fakeSent``, and
#: ``window.fakeSocket.deliver(frame)`` hands it a frame as the server would.
FAKE_SOCKET = r"""
(() => {
  window.fakeSent = [];
  class FakeSocket extends EventTarget {
    constructor(url) {
      super();
      this.url = url;
      this.readyState = 0;
      window.fakeSocket = this;
      setTimeout(() => { this.readyState = 1; this.dispatchEvent(new Event("open")); }, 0);
    }
    send(text) { window.fakeSent.push(JSON.parse(text)); }
    close() { this.readyState = 3; }
    deliver(frame) { this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) })); }
  }
  FakeSocket.CONNECTING = 0;
  FakeSocket.OPEN = 1;
  FakeSocket.CLOSED = 3;
  window.WebSocket = FakeSocket;
  window.evidence = null; // what "Download the evidence" saves: its file name and its text
  const made = URL.createObjectURL.bind(URL);
  URL.createObjectURL = (blob) => { window.evidenceBlob = blob; return made(blob); };
  HTMLAnchorElement.prototype.click = function click() {
    if (!this.download) return;
    const name = this.download;
    window.evidenceBlob.text().then((text) => { window.evidence = { name, text }; });
  };
})();
"""


class _Files(http.server.SimpleHTTPRequestHandler):
    """The page's files as ``knock serve`` serves them: ``/`` the page, ``/static/…`` its files."""

    def translate_path(self, path: str) -> str:
        path = path.split("?", 1)[0].split("#", 1)[0]
        if path == "/":
            return str(STATIC / "index.html")
        if path.startswith("/static/"):
            return str(STATIC / path.removeprefix("/static/"))
        return str(STATIC / "missing")

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def files() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Files, directory=str(STATIC)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def engine_view(seat: int) -> dict[str, Any]:
    """A real view of a game's first hand for ``seat`` (``knock engine``, seed 7: seat 1 to act, pass or take)."""
    lines = [
        {"type": "new", "protocol": [1, 4], "preset": "standard", "seed": 7,
         "seats": [{"player": "human", "name": "bot"}, {"player": "human", "name": "you"}]},
        {"type": "view", "seat": seat}, {"type": "quit"},
    ]  # fmt: skip
    code = "import sys; sys.argv = ['knock', 'engine']; from knock.cli import main; main()"
    run = subprocess.run([sys.executable, "-c", code], input="\n".join(json.dumps(m) for m in lines) + "\n",
                         capture_output=True, text=True, timeout=60, cwd=ROOT)  # fmt: skip
    views = [json.loads(line) for line in run.stdout.splitlines() if '"type":"view"' in line.replace(" ", "")]
    view: dict[str, Any] = views[-1]
    assert view["seat"] == seat and view["legal"] == ["pass", "take"], view
    return view


def sent(b: Browser, count: int) -> list[dict[str, Any]]:
    """What the page has sent, once it has sent ``count`` messages."""

    def enough() -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = b.js("return window.fakeSent || []")
        return found if len(found) >= count else []

    return b.wait(enough, message=f"{count} messages from the page")


def deliver(b: Browser, frame: dict[str, Any]) -> None:
    b.js("window.fakeSocket.deliver(arguments[0])", frame)


def welcome(receipts: bytes) -> dict[str, Any]:
    return {"type": "welcome", "protocol": [1, 4], "server": "forged", "table": TABLE, "seat": SEAT,
            "players": ["bot", "you"], "seats": [{"seat": 0, "name": "bot", "player": "bot", "bot": "heuristic"},
                                                 {"seat": 1, "name": "you", "player": "human", "bot": None}],
            "rules": {"name": "standard", "target": 100}, "turn_timeout": None, "series": None, "fair": True,
            "receipts": receipts.hex()}  # fmt: skip


@pytest.mark.rule("DEAL-12", "PROTO-47")
def test_the_browser_signs_its_reveal_and_stops_at_a_changed_receipts_key(browser: Browser, files: str) -> None:
    b = browser
    b.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": FAKE_SOCKET})
    b.open(f"{files}/#table={TABLE}&seat={SEAT}&token=forged-token")
    hello = sent(b, 1)[0]
    assert hello["type"] == "hello" and hello["token"] == "forged-token"
    key = hello.get("key")
    assert isinstance(key, str) and re.fullmatch(r"[0-9a-f]{64}", key), ("Chromium's Ed25519 key in the hello", hello)

    server = seed("browser/server")
    committed = fairdeal.commitment(server)
    bot_seed = fairdeal.supplied_seed(server, 1, 0)
    deliver(b, welcome(public(RECEIPTS)))
    deliver(b, {"type": "fair_commit", "table": TABLE, "hand": 1, "commitment": committed.hex(), "timeout": 10,
                "left": 10})  # fmt: skip
    commit = sent(b, 2)[1]
    assert commit["type"] == "commit" and commit["hand"] == 1, commit
    mine = bytes.fromhex(commit["commitment"])
    receipt = RECEIPTS.sign(commit_receipt_message(committed, 1, SEAT, mine)).hex()
    deliver(b, {"type": "commit_taken", "hand": 1, "seat": SEAT, "commitment": mine.hex(), "receipt": receipt})
    commitments = [fairdeal.seat_commitment(committed, 1, 0, bot_seed), mine]
    set_hash = fairdeal.set_hash(1, committed, commitments)
    listed = [c.hex() for c in commitments]
    deliver(b, {"type": "fair_set", "table": TABLE, "hand": 1, "commitment": committed.hex(), "commitments": listed,
                "set": set_hash.hex(), "timeout": 10, "left": 10})  # fmt: skip
    reveal = sent(b, 3)[2]
    assert reveal["type"] == "seed" and reveal["set"] == set_hash.hex(), reveal
    page_seed = bytes.fromhex(reveal["seed"])
    assert fairdeal.seat_commitment(committed, 1, SEAT, page_seed) == mine
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(
        bytes.fromhex(reveal["statement"]), statement_message(set_hash, SEAT, page_seed)
    )  # the statement is the key's, of DEAL-12's message
    receipt = RECEIPTS.sign(seed_receipt_message(set_hash, SEAT, page_seed)).hex()
    deliver(b, {"type": "seed_taken", "hand": 1, "seat": SEAT, "seed": page_seed.hex(), "receipt": receipt})

    view = engine_view(SEAT)
    view["table"] = TABLE
    view["fair"] = {"hand": 1, "commitment": committed.hex(), "seeds": [bot_seed.hex(), page_seed.hex()],
                    "supplied": [0], "server": None, "commitments": [c.hex() for c in commitments]}  # fmt: skip
    deliver(b, view)
    b.one(".actions button[data-action='pass']")  # an honest hand so far: the page offers its moves
    assert not b.find(".fair-stop") and not b.find(".fair-check.failed")

    deliver(b, welcome(public(ANOTHER_KEY)))  # a reconnection's welcome names another receipts key
    b.wait(lambda: b.find(".fair-stop"), message="the notice that the page offers no moves")
    b.shot("fair-stop")
    b.resize(PHONE)  # as a player on a phone sees the notice
    b.shot("fair-stop-phone")
    b.resize(WIDE)
    b.axe("the table stopped by a failed fair check")
    assert not b.find(".actions button"), "no action buttons"
    assert not b.find(".endings button") and not b.find("#typed-action"), "no resign, claim or typed move either"
    notice = b.text(".fair-stop")
    assert "No moves at this table" in notice and "PROTO-47" in notice and "another key for its receipts" in notice
    assert "Download the evidence" in notice
    failed = b.text(".fair-check.failed")
    assert "Deal check FAILED, hand 1 (PROTO-47)" in failed, failed
    assert "Your browser signs each seed it reveals with its own key" in b.text(".fair-box")

    b.click("button.download-evidence")
    got = b.wait(lambda: b.js("return window.evidence"), message="the evidence file")
    assert got["name"] == f"knock-evidence-{TABLE}-p{SEAT}.json"
    evidence = json.loads(got["text"])
    assert (evidence["table"], evidence["seat"], evidence["key"]) == (TABLE, SEAT, key)
    assert evidence["receipts_key"] == public(RECEIPTS).hex()
    assert evidence["failed"]["rule"] == "PROTO-47" and evidence["failed"]["hand"] == 1
    assert "another key for its receipts" in evidence["failed"]["reason"]
    types = [f["type"] for f in evidence["received"]]
    assert types == ["welcome", "fair_commit", "commit_taken", "fair_set", "seed_taken", "view", "welcome"], types
    assert evidence["received"][5] == {"type": "view", "record": view["record"], "fair": view["fair"]}
    assert evidence["sent"]["messages"] == [commit, reveal]
    assert evidence["sent"]["statements"] == {"1": {"key": key, "statement": reveal["statement"]}}
    assert evidence["receipts"]["1"]["seed"]["receipt"] == receipt

    b.driver.refresh()  # the same browser profile: its key is found again in IndexedDB, not made anew
    again = b.wait(lambda: (s := b.js("return window.fakeSent || []")) and s[0], message="the hello after a reload")
    assert again["type"] == "hello" and again["key"] == key
    assert not b.errors(), b.errors()
