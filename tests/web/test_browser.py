"""The web client in a real headless Chromium against a real ``knock serve`` (spec/protocol.md).

A person makes a table in the lobby and plays a whole hand against a bot (a part of it by keyboard, the rest by
clicking); two people play three-handed, the sitter advising the captain, with a spectator watching; the stored
game is replayed in replay mode and in a ``knock view`` file opened from disk. Every page is checked by
axe-core, every frame the pages received is validated against the protocol's schema, and screenshots are saved
in ``out/screenshots/``. One browser session and one server serve the whole module.
"""

from __future__ import annotations

import http.server
import json
import random
import re
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webelement import WebElement

from knock.web.client import Client, ServerProcess, play_seat
from replay.verdict import Verdict, judge
from tests.support.long_logs import build
from tests.web.browser import Browser

#: What the tests learn as they go (they run in order, on one server and one browser).
GAME: dict[str, Any] = {}

#: The enabled controls of the table page, for the player to choose from (read in one round trip).
CONTROLS = """
const out = [];
for (const b of document.querySelectorAll('.play button:not([disabled])')) {
  const card = b.classList.contains('card-button');
  out.push({el: b, card, toggle: b.classList.contains('toggle'), pressed: b.getAttribute('aria-pressed') === 'true',
            action: b.dataset.action || null, label: b.getAttribute('aria-label') || b.textContent,
            deadwood: card && !!b.closest('.group.deadwood')});
}
return out;
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("browser-serve"), "--bot-delay", "0") as running:
        yield running


def post_table(server: ServerProcess, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{server.url}/api/tables", json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        made: dict[str, Any] = json.loads(response.read())
    return made


#: The lobby's table as its test makes it: a person and a bot, a game to 1 (its first scored hand ends it).
LOBBY_TABLE = {"options": {"target": 1}, "seed": 11, "bot_delay": 0,
               "seats": [{"player": "human", "name": "ann"}, {"player": "bot", "bot": "heuristic"}]}  # fmt: skip


@pytest.fixture
def lobby_game(server: ServerProcess) -> dict[str, Any]:
    """The table the lobby's test made; on a pytest-xdist worker that did not run that test, one made alike."""
    if "link" not in GAME:
        made = post_table(server, LOBBY_TABLE)
        GAME["link"], GAME["table"] = server.url + made["seats"][0]["link"], made["table"]
    return GAME


@pytest.fixture
def stored_game(server: ServerProcess) -> dict[str, Any]:
    """The game the person played (the tests run in order); on a pytest-xdist worker that did not run that test,
    one played alike over the wire, its log and digest as the page would have had them."""
    if "log" not in GAME:
        made = post_table(server, LOBBY_TABLE)
        seat = Client(server.ws)
        seat.hello(made["table"], made["seats"][0]["token"])
        offered = play_seat(seat, random.Random(11))[-1]
        seat.close()
        status, data = server.get(offered["url"])
        assert status == 200 and offered["type"] == "log_offered"
        GAME.update(table=made["table"], log=data, digest=offered["digest"])
    return GAME


def frames_of(b: Browser, kind: str) -> list[dict[str, Any]]:
    return [f for f in b.frames() if f["type"] == kind]


def count(b: Browser, kind: str) -> int:
    n: int = b.js("return (window.knockFrames || []).filter(f => f.type === arguments[0]).length", kind)
    return n


def answered(b: Browser, before: int) -> bool:
    """Whether the page has received the answer to its act: a refusal, or the ack and the view after the act (the
    server sends the table's new views, this seat's among them, before the ack)."""
    got: bool = b.js(
        """const f = (window.knockFrames || []).slice(arguments[0]);
           const has = (kind) => f.some(x => x.type === kind);
           return has('refusal') || (has('ack') && has('view'));""",
        before,
    )
    return got


def choose(controls: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A plain player's choice among the controls: spread or lay off as offered, knock when it can, draw from
    the stock, pass the upcard, discard its highest deadwood."""
    actions = [c for c in controls if c["action"]]
    for prefix in ("spread", "layoff", "big-gin"):
        for c in actions:
            if c["action"].startswith(prefix):
                return c
    for c in controls:  # the ranked defences (protocol 1.2): the best is chosen already
        if c["label"] == "Answer with the chosen defence":
            return c
    toggle = next((c for c in controls if c["toggle"]), None)
    cards = [c for c in controls if c["card"]]
    if toggle is not None and not toggle["pressed"]:
        return toggle
    if toggle is not None and cards:
        return cards[-1]
    for wanted in ("draw", "pass"):
        for c in actions:
            if c["action"] == wanted:
                return c
    if cards:
        deadwood = [c for c in cards if c["deadwood"]]
        return (deadwood or cards)[-1]
    return actions[0] if actions else None


def play_hand(b: Browser, *, moves: int = 200) -> list[str]:
    """Click through the seat's turns until the hand ends; returns the names of the controls clicked."""
    ended = count(b, "hand_result")
    clicked: list[str] = []
    for _ in range(moves):
        if count(b, "hand_result") > ended:
            return clicked
        controls: list[dict[str, Any]] = b.js(CONTROLS)
        pick = choose(controls)
        if pick is None:  # the other seat's turn (the typed-action form's Send is no move): wait for a move
            b.wait(lambda: choose(b.js(CONTROLS)) or count(b, "hand_result") > ended, message="a move or the end")
            continue
        before = len(b.js("return window.knockFrames"))
        el: WebElement = pick["el"]
        el.click()
        clicked.append(pick["label"])
        if not pick["toggle"]:
            b.wait(lambda at=before: answered(b, at), message=f"an answer to {pick['label']}")  # type: ignore[misc]
    raise AssertionError(f"the hand did not end in {moves} moves: {clicked[-10:]}")


def keyboard_move(b: Browser) -> str:
    """One move made with the keyboard alone: Tab to the move's control, then Enter."""
    b.wait(lambda: choose(b.js(CONTROLS)), message="a move to make")
    pick = choose(b.js(CONTROLS))
    assert pick is not None
    label: str = pick["label"]
    before = len(b.js("return window.knockFrames"))
    b.driver.find_element("css selector", "body").click()  # start from the page, as a person tabbing through it
    b.tab_to(lambda el: (el.get_attribute("aria-label") or el.text) == label)
    b.press(Keys.ENTER)
    if not pick["toggle"]:
        b.wait(lambda: answered(b, before), message=f"an answer to {label}")
    return label


def rule_of(text: str) -> str | None:
    m = re.search(r"\(([A-Z]+-\d+)\)", text)
    return m.group(1) if m else None


# --- the lobby ----------------------------------------------------------------------------------------


@pytest.mark.rule("PROTO-2")
def test_the_lobby_makes_a_table_and_gives_its_links(server: ServerProcess, browser: Browser) -> None:
    b = browser
    b.open(f"{server.url}/")
    b.one("form.new-table")
    b.axe("the lobby")
    b.shot("01-lobby")
    b.one("details.rule-options summary").click()
    target = b.one("#opt-target")
    target.clear()
    target.send_keys("1")  # the game ends with its first scored hand
    name = b.one("#seat-0-name")
    name.clear()
    name.send_keys("ann")
    b.one("details.table-options summary").click()
    b.one("#seed").send_keys("11")
    delay = b.one("#bot-delay")
    delay.clear()
    delay.send_keys("0")
    b.one("form.new-table button[type=submit]").click()
    link = b.one("a.seat-link")
    b.shot("02-lobby-table-made")
    GAME["link"] = link.get_attribute("href")
    GAME["table"] = re.search(r"table=([^&]+)", GAME["link"]).group(1)  # type: ignore[union-attr]
    assert "token=" in GAME["link"] and len(b.find("a.seat-link")) == 1  # one person, one capability link
    b.wait(lambda: GAME["table"] in b.text("table.tables"), message="the table in the list")
    assert not b.errors()


@pytest.mark.rule("PROTO-4")
def test_a_page_of_another_origin_can_neither_connect_nor_make_a_table(server: ServerProcess, browser: Browser) -> None:
    """The lobby's own page made a table and its table page connects (above and below); a page from another
    origin (another local port) is refused at the WebSocket's handshake, and its request to make a table makes none."""
    b = browser
    with urllib.request.urlopen(f"{server.url}/api/tables", timeout=10) as response:
        before = len(json.loads(response.read())["tables"])
    elsewhere = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
    threading.Thread(target=elsewhere.serve_forever, daemon=True).start()
    b.open(f"http://127.0.0.1:{elsewhere.server_address[1]}/")
    outcome = b.driver.execute_async_script(
        """const done = arguments[arguments.length - 1];
           const socket = new Promise((settle) => {
             const ws = new WebSocket(arguments[0]);
             ws.onopen = () => settle("open");
             ws.onclose = (e) => settle("closed " + e.code);
           });
           const made = fetch(arguments[1], {method: "POST", mode: "no-cors", headers: {"content-type": "text/plain"},
             body: JSON.stringify({preset: "standard", seats: [{player: "bot"}, {player: "bot"}]})})
             .then(() => "answered", () => "failed");
           Promise.all([socket, made]).then((r) => done(r.join(", ")));""",
        server.ws,
        f"{server.url}/api/tables",
    )
    elsewhere.shutdown()
    elsewhere.server_close()
    b.errors()  # the refused handshake is logged: drained here, so that later pages' checks see only their own
    assert outcome.startswith("closed") and outcome.endswith("answered"), outcome  # the handshake was refused
    with urllib.request.urlopen(f"{server.url}/api/tables", timeout=10) as response:
        assert len(json.loads(response.read())["tables"]) == before


class Elsewhere(http.server.BaseHTTPRequestHandler):
    """A page of another origin."""

    def do_GET(self) -> None:
        body = b"<!doctype html><html lang=en><title>elsewhere</title><p>elsewhere</p></html>"
        self.send_response(200)
        self.send_header("content-type", "text/html")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


# --- a hand against a bot -------------------------------------------------------------------------------


@pytest.mark.rule("PROTO-1", "PROTO-3", "PROTO-5", "PROTO-7", "PROTO-8", "PROTO-10", "PROTO-24")
def test_a_person_plays_a_whole_hand_by_keyboard_and_clicks(
    server: ServerProcess, browser: Browser, lobby_game: dict[str, Any]
) -> None:
    b = browser
    b.open(lobby_game["link"])
    b.wait(lambda: count(b, "view"), message="the first view")
    view = frames_of(b, "view")[-1]["view"]
    assert b.find(".hand .card-row"), "the hand is drawn"
    shown = {e.get_attribute("aria-label") for e in b.find(".hand svg.card[role=img]")}
    assert len(view["cards"]) == 10 and {c for c in shown if c} >= set(), shown
    # The hand is drawn grouped by the view's melds, with the view's deadwood.
    assert f"Deadwood: {view['deadwood']}" in b.text(".hand .deadwood-count")
    assert len(b.find(".hand .group.meld")) == len(view["melds"])

    moves = [keyboard_move(b) for _ in range(3)]  # the start of the hand with the keyboard alone
    assert all(moves), moves
    b.wait(lambda: frames_of(b, "view")[-1]["legal"], message="the seat's next move")  # the bot has moved

    # The connection drops: the page reconnects with the token and is sent the seat's current view (PROTO-3).
    welcomes, record = count(b, "welcome"), frames_of(b, "view")[-1]["record"]
    events = "return [...document.querySelectorAll('ol.events li')].map((li) => li.textContent)"
    shown = b.js(events)
    b.js("window.knockSeat.ws.close(4000)")
    b.wait(lambda: count(b, "welcome") > welcomes and "connected" in b.text(".status"), message="the reconnection")
    assert frames_of(b, "view")[-1]["record"] == record
    # The view sent on reconnecting holds the hand's events from its deal: shown in place of those shown, not
    # after them (PROTO-24).
    assert shown and b.js(events) == shown
    b.wait(lambda: b.find(".play button:not([disabled])"), message="the seat's move after reconnecting")
    b.axe("the table mid-hand")
    b.shot("03-table-mid-hand")

    # An action the rules forbid: its rule id and reason are shown, and nothing changes (PROTO-8).
    refusals = count(b, "refusal")
    held = frames_of(b, "view")[-1]["view"]["cards"]
    b.one(".typed-box summary").click()  # the notation box opens on demand, and stays open
    typed = b.one("#typed-action")
    typed.send_keys(f"knock {held[0]}" if held else "knock Kh")
    typed.send_keys(Keys.ENTER)
    b.wait(lambda: count(b, "refusal") > refusals, message="a refusal")
    refusal = frames_of(b, "refusal")[-1]
    box = b.one(".refusal").text
    assert rule_of(box) == refusal["rule"] and refusal["reason"] in box, box
    b.shot("04-table-refusal")

    clicked = play_hand(b)
    assert clicked, "the hand needed the person's moves"
    b.wait(lambda: count(b, "log_offered"), message="the log offered at the game's end")
    result = frames_of(b, "hand_result")[-1]
    b.wait(lambda: b.find(".play .showdown"), message="the showdown drawn")  # the game's last view holds it
    assert b.one(".last-hand").get_attribute("hidden") is not None  # and it is not drawn twice
    showdown = b.text(".play .showdown")
    if result["spread"] is not None:
        spreader = "You spread" if result["spread"]["seat"] == 0 else "spreads"  # this page is seat 0's
        assert spreader in showdown and f"Deadwood: {result['spread']['deadwood']}" in showdown
    b.wait(lambda: b.find("a.download"), message="the log's download link")
    b.axe("the showdown")
    b.shot("05-table-showdown-and-log")

    # Every act carried the record of the view it was made from: each acknowledged once, never as a duplicate.
    acks = frames_of(b, "ack")
    assert acks and all(not a["duplicate"] for a in acks)
    views_at = {f["record"] for f in frames_of(b, "view")}
    assert all(a["record"] in views_at for a in acks)
    offered = frames_of(b, "log_offered")[-1]
    href = b.one("a.download").get_attribute("href")
    assert href is not None
    with urllib.request.urlopen(href, timeout=10) as response:
        data = response.read()
    verdict = judge(data)
    assert verdict.kind == "pass" and verdict.digest is not None and verdict.digest.hex() == offered["digest"]
    assert offered["digest"] in b.text(".log-offer")
    GAME["log"], GAME["digest"] = data, offered["digest"]
    assert not b.errors()


# --- three-handed: the sitter advises the captain -------------------------------------------------------------


@pytest.mark.rule("THREE-7", "PROTO-6")
def test_three_handed_the_sitter_advises_and_a_spectator_sees_no_cards(server: ServerProcess, browser: Browser) -> None:
    b = browser
    # Seed 3 draws p2 to the box, p0 captain, p1 sitter: two people and a bot.
    made = post_table(server, {
        "preset": "three_handed", "options": {"target": 1}, "seed": 3, "bot_delay": 0,
        "seats": [{"player": "human", "name": "cap"}, {"player": "human", "name": "sid"}, {"player": "bot"}],
    })  # fmt: skip
    links = {s["seat"]: f"{server.url}{s['link']}" for s in made["seats"] if s["link"]}
    first = b.driver.current_window_handle
    b.open(links[0])
    b.wait(lambda: count(b, "view"), message="the captain's view")
    b.driver.switch_to.new_window("window")
    sitter = b.driver.current_window_handle
    b.open(links[1])
    advice = b.wait(lambda: b.find(".advice-list button:not([disabled])"), message="the sitter's advice controls")
    b.shot("06-three-handed-sitter")
    b.axe("the sitter's table")
    advice[0].click()
    b.wait(lambda: count(b, "ack"), message="the advice acknowledged")
    sitter_frames = b.frames()

    b.driver.switch_to.window(first)
    b.wait(lambda: "advises" in b.text(".advice"), message="the advice shown to the captain")
    b.shot("07-three-handed-captain-hears-advice")
    play_hand(b)
    b.wait(lambda: b.find(".play .showdown"), message="the three-handed showdown")
    b.shot("08-three-handed-showdown")
    captain_frames = b.frames()

    b.driver.switch_to.new_window("window")
    b.open(f"{server.url}{made['spectate']}")
    b.wait(lambda: count(b, "view"), message="the spectator's view")
    watching = frames_of(b, "view")
    assert all(f["view"]["cards"] == [] and f["view"]["advice"] is None for f in watching)
    assert not b.find(".card-button") and "spectator" in b.text(".who")
    b.shot("09-spectator")
    b.driver.close()
    b.driver.switch_to.window(sitter)
    b.driver.close()
    b.driver.switch_to.window(first)
    assert any(f["type"] == "view" and f["view"]["role"] == "sitter" for f in sitter_frames)
    assert any(f["type"] == "view" and (f["view"]["advice"] or {}).get("action") for f in captain_frames)


# --- replay mode -------------------------------------------------------------------------------------------


def step_text(b: Browser) -> str:
    return b.one("#step-where").text


def damaged(log: bytes) -> tuple[bytes, Verdict]:
    """The log with one byte changed in its play (past the header and the first deal), and its verdict."""
    for at in range(len(log) * 3 // 4, len(log)):
        data = bytearray(log)
        data[at] ^= 0x01
        verdict = judge(bytes(data))
        if verdict.kind == "fail" and (verdict.record or 0) > 5:
            return bytes(data), verdict
    raise AssertionError("no byte to damage")


@pytest.mark.rule("LOG-13", "LOG-6")
def test_replay_mode_steps_through_the_stored_game(
    server: ServerProcess, browser: Browser, tmp_path: Path, stored_game: dict[str, Any]
) -> None:
    b = browser
    b.open(f"{server.url}/#replay={GAME['table']}")
    b.wait(lambda: b.find(".verdict"), timeout=30, message="the verdict")
    assert "Pass" in b.text(".verdict") and GAME["digest"] in b.text(".replay-facts")
    slider = b.one("#step")
    last = int(slider.get_attribute("max") or 0)
    assert f"({last + 1} of {last + 1})" in step_text(b)  # it opens at the end

    slider.send_keys(Keys.HOME)  # the slider's own keys
    assert "(1 of" in step_text(b)
    for _ in range(4):
        slider.send_keys(Keys.ARROW_RIGHT)
    assert "(5 of" in step_text(b)
    b.driver.find_element("css selector", "h2").click()  # the page's keys, away from any control
    b.press(Keys.END)
    assert f"({last + 1} of" in step_text(b)
    b.press(Keys.HOME)
    for _ in range(6):
        b.press(Keys.ARROW_RIGHT)
    b.press(Keys.ARROW_LEFT)
    assert "(6 of" in step_text(b)

    perspective = b.one("#perspective")
    keys = [o.get_attribute("value") for o in perspective.find_elements("css selector", "option")]
    assert keys == ["full", "0", "1", "spectator"]
    perspective.send_keys("spectator")
    b.wait(lambda: b.find(".replay-board .board"), timeout=30, message="the spectator's view")
    assert not b.find(".hand .card-row.meld, .hand .card-row.deadwood")  # a spectator sees no hand
    perspective.send_keys("full")
    b.wait(lambda: len(b.find(".hands > .hand")) == 2, timeout=30, message="the full view: both hands")

    # Back from the end to the hand's showdown, with the keys.
    b.driver.find_element("css selector", "h2").click()
    b.press(Keys.END)
    for _ in range(10):
        if b.find(".replay-board .showdown .spread"):
            break
        b.press(Keys.ARROW_LEFT)
    assert b.find(".replay-board .showdown"), step_text(b)
    b.axe("replay mode")
    b.shot("10-replay-showdown")

    # A damaged log, opened with the file input: the verdict names the record and the rule.
    data, verdict = damaged(GAME["log"])
    bad = tmp_path / "damaged.knock"
    bad.write_bytes(data)
    b.open(f"{server.url}/#replay")
    b.one("#log-file").send_keys(str(bad))
    b.wait(lambda: b.find(".verdict"), timeout=30, message="the damaged log's verdict")
    text = b.text(".verdict")
    assert "Fail" in text and f"record {verdict.record}" in text and verdict.rule in text, text
    b.shot("11-replay-damaged-log")
    assert not b.errors()

    # A long log comes in pages (PROTO-18): its last records first, the others fetched as they are reached.
    long = tmp_path / "long.knock"
    long.write_bytes(build("dead", 1))
    b.open(f"{server.url}/#replay")
    b.one("#log-file").send_keys(str(long))
    b.wait(lambda: b.text(".replay-loader .status").startswith("long.knock: pass"), timeout=30,
           message="the long log's verdict")  # fmt: skip
    total = int(b.one("#step").get_attribute("max") or 0) + 1
    assert total > 400 and f"({total} of {total})" in step_text(b) and "trailer" in step_text(b)
    b.driver.find_element("css selector", "h2").click()
    b.press(Keys.HOME)
    b.wait(lambda: "Record 1 (1 of" in step_text(b), timeout=30, message="the first page fetched")
    b.one("#perspective").send_keys("spectator")
    b.wait(lambda: "Record 1 (1 of" in step_text(b), timeout=30, message="the spectator's first page")
    b.driver.find_element("css selector", "h2").click()
    for _ in range(5):
        b.press(Keys.ARROW_RIGHT)
    b.wait(lambda: b.find(".replay-board .board"), timeout=30, message="a dealt hand from the spectator's seat")
    assert "(6 of" in step_text(b) and not b.find(".hand .card-row.meld")
    assert not b.errors()


@pytest.mark.rule("LOG-13", "LOG-6")
def test_knock_view_file_replays_from_disk_without_a_network(
    browser: Browser, tmp_path: Path, stored_game: dict[str, Any]
) -> None:
    b = browser
    log = tmp_path / "game.knock"
    log.write_bytes(GAME["log"])
    page = tmp_path / "game.html"
    done = subprocess.run([sys.executable, "-m", "knock.cli", "view", str(log), "-o", str(page)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    b.open(page.as_uri())
    b.wait(lambda: b.find(".verdict"), message="the embedded verdict")
    assert "Pass" in b.text(".verdict") and GAME["digest"] in b.text(".replay-facts")
    b.driver.find_element("css selector", "h2").click()
    b.press(Keys.HOME)
    b.press(Keys.ARROW_RIGHT)
    b.press(Keys.ARROW_RIGHT)
    assert "(3 of" in step_text(b)
    slider = b.one("#step")
    slider.send_keys(Keys.END)
    assert "trailer" in step_text(b)
    fetched = b.js("return performance.getEntriesByType('resource').map(e => e.name)")
    assert fetched == [], fetched  # the file reads nothing but itself
    b.one("#perspective").send_keys("p0")
    b.axe("a knock view file")
    b.shot("12-knock-view-file")
    assert not b.errors()
