"""The table's layout from a phone to a wide screen, in a real headless Chromium against a real ``knock serve``.

One game between two people is played through every state a player meets — the lobby, the upcard offer, a
draw, a discard, a knock, the defender's answer, the pause at the showdown, game over (and its rematch) — and
watched by a spectator and replayed, on the server and in a ``knock view`` file. In each state the page is
checked at 390×844 (Chromium's mobile emulation) and at 1280×800, in the one browser session resized between
them: nothing is wider than the screen
(``document.documentElement.scrollWidth`` ≤ its width), every control the state needs is on the page where a
person can reach it (within the screen's width, and on screen once scrolled to vertically: the page scrolls
down, never sideways), no meld or layoff is written in the engine's notation (``3d>4d-5d-6d``: plain words
and the suits' symbols instead), axe-core finds no serious or critical violation, and a screenshot is saved
(``out/screenshots/layout-STATE-SIZE.png``). Seat p0 plays in the page; p1 plays over the wire until it must
answer the knock, and then in the page. At the draw, p0 arranges its hand by dragging a card (pointer events)
and by keyboard. At every move of p0 the page's list of the hand's discards is the view's (PROTO-34), picked-up
cards marked; a page opened mid-turn (the spectator's, then p0's reloaded) shows the turn's time left by the
server's clock (PROTO-33), not the whole timeout.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from knock.web.client import Client, ServerProcess, choose
from knock.web.protocol import TABLE_BOTS
from tests.web.browser import PHONE, SMALL_PHONE, WIDE, Browser

#: The table: two people, seed 11, a game to 1 (its first scored hand ends it), a turn timer long enough never
#: to fire while the test looks at a state (it is shown, counted down from the server's figure, not waited for).
TIMEOUT = 900
TABLE = {"options": {"target": 1}, "seed": 11, "bot_delay": 0, "turn_timeout": TIMEOUT,
         "seats": [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}]}  # fmt: skip

#: Whether a control is where a person can use it: scrolled to (vertically), it lies within the screen and is
#: what a tap at its centre would hit.
REACHABLE = """
const [el, width] = arguments;
el.scrollIntoView({block: "center", inline: "nearest"});
const r = el.getBoundingClientRect();
if (r.width < 1 || r.height < 1) return "has no size";
if (r.left < 0 || r.right > width + 0.5) return `is outside the screen's width (${r.left}..${r.right} of ${width})`;
if (r.top < 0 || r.bottom > window.innerHeight + 0.5) return `is taller than the screen (${r.top}..${r.bottom})`;
const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
if (!hit || !(el === hit || el.contains(hit))) return `is covered by ${hit ? hit.outerHTML.slice(0, 80) : "nothing"}`;
return "";
"""

#: The controls a touch can miss: every visible button, link, field and disclosure smaller than 44 px either way
#: (Apple's and Google's guideline), but the cards (a hand's and the discards', tapped as cards) and the radios and
#: check boxes (whose labels are the target).
SMALL = """
const out = [];
for (const el of document.querySelectorAll("button, a[href], input, select, summary")) {
  if (el.closest(".hand, .discard-list") || ["radio", "checkbox", "hidden"].includes(el.type)) continue;
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) continue;
  const size = `${r.width.toFixed(0)}x${r.height.toFixed(0)}`;
  if (r.width < 43.5 || r.height < 43.5) out.push(`${el.outerHTML.slice(0, 60)} ${size}`);
}
return out;
"""

#: Whether the seat's stock and pile, its hand and its moves are on the screen together, as the page left it (no
#: scrolling by the test): "" if so, else what is off it (#64: one screen on your turn).
TURN_FITS = """
const parts = [...document.querySelectorAll(".board .centre .pile, .board .hands.mine .hand, .play .actions")];
if (parts.length < 4) return `only ${parts.length} of the stock, the pile, the hand and the moves`;
const boxes = parts.map((e) => e.getBoundingClientRect());
const span = Math.max(...boxes.map((r) => r.bottom)) - Math.min(...boxes.map((r) => r.top));
const off = parts.map((e, i) => [e, boxes[i]]).filter(([, r]) => r.top < -0.5 || r.bottom > window.innerHeight + 0.5)
  .map(([e, r]) => `${e.className} at ${Math.round(r.top)}..${Math.round(r.bottom)}`);
const screen = `the ${window.innerHeight} px screen`;
return off.length ? `${off.join("; ")}: off ${screen} (they span ${Math.round(span)} px)` : "";
"""

#: The deepest elements reaching past the screen's right edge (for the message of a failure).
WIDEST = """
const width = arguments[0];
const out = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > width + 0.5)
  .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > width + 0.5));
return out.slice(0, 6).map((e) =>
  `${e.tagName.toLowerCase()}.${e.className.baseVal ?? e.className} ${Math.round(e.getBoundingClientRect().right)}`);
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("layout-serve"), "--bot-delay", "0") as running:
        yield running


def made_table(server: ServerProcess) -> dict[str, Any]:
    request = urllib.request.Request(f"{server.url}/api/tables", json.dumps(TABLE).encode(), method="POST",
                                     headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        made: dict[str, Any] = json.loads(response.read())
    return made


def turn_fits(b: Browser, where: str) -> None:
    """Wait for the page to bring the turn's stock, pile, hand and moves on screen together (TURN_FITS); fail
    saying what is off the screen."""
    problem: list[str] = []

    def fits() -> bool:
        problem.append(b.js(TURN_FITS))
        return not problem[-1]

    try:
        b.wait(fits, message="one screen")
    except AssertionError:
        raise AssertionError(f"{where}: {problem[-1]}") from None


def check_state(
    b: Browser,
    state: str,
    controls: list[str],
    sizes: tuple[tuple[str, int, int, bool], ...] = (PHONE, WIDE),
    *,
    turn: bool = False,
) -> None:
    """The state at each size: no overflow, its controls reachable, axe-core clean, a screenshot each; on the
    seat's ``turn``, its stock, pile, hand and moves on screen together, where the page scrolled to by itself."""
    for size in sizes:
        b.resize(size)
        name, width = size[0], size[1]
        if turn:  # the page fits its turn to the screen when the screen changes size: the test does not scroll
            turn_fits(b, f"{state} at {name}")
            b.screen(f"layout-{state}-{name}-turn")
        # On a phone a page too wide widens window.innerWidth: the emulated screen's width is the phone's.
        assert b.js("return screen.width" if size[3] else "return window.innerWidth") == width
        wide = b.js("return document.documentElement.scrollWidth")
        if wide > width:
            b.shot(f"layout-{state}-{name}-too-wide")
            assert wide <= width, (
                f"{state} at {name}: the page is {wide} px wide on a {width} px screen: {b.js(WIDEST, width)}"
            )
        for css in controls:
            found = b.find(css)
            assert found, f"{state} at {name}: no {css}"
            problem = b.js(REACHABLE, found[0], width)
            assert not problem, f"{state} at {name}: {css} {problem}"
        if size[3]:  # a phone: every control a touch can hit (#64)
            small = b.js(SMALL)
            assert not small, f"{state} at {name}: controls under 44 px: {small[:4]}"
        notation = b.js("return document.body.innerText.match(/[A2-9TJQK][cdhs][->][A2-9TJQK][cdhs]/g)")
        assert not notation, f"{state} at {name}: the engine's notation on the page: {notation[:3]}"
        b.axe(f"{state} at {name}")
        b.shot(f"layout-{state}-{name}")
    b.js("window.scrollTo(0, 0)")


class Wire:
    """Seat p1 over the wire: it plays as ``knock.web.client.choose`` does, but never knocks, and stops when it
    must answer a knock."""

    def __init__(self, server: ServerProcess, table: str, token: str) -> None:
        self.client = Client(server.ws)
        self.client.hello(table, token)
        self.last: dict[str, Any] = {}

    def settle(self, since: int = 0) -> dict[str, Any]:
        """Play p1's turns until it is p0's (or p1 must answer the knock), from the view of record ``since`` on;
        the last view."""
        while True:
            frame = self.client.recv()
            if frame["type"] != "view" or frame["record"] < since:
                continue
            self.last = frame
            legal = frame["legal"]
            if not legal:
                if frame["view"]["to_act"] != 1:
                    return frame
                continue
            if any(a.startswith("layoff") for a in legal):
                return frame
            plain = [a for a in legal if not a.startswith(("knock", "big-gin"))]
            action = choose({**frame, "legal": plain})
            self.client.send({"type": "act", "action": action, "record": frame["record"]})


def goto(b: Browser, url: str) -> None:
    """Load ``url`` afresh (not a change of the address's fragment): its frames are its own."""
    b.open("about:blank")
    b.open(url)


def view_of(b: Browser) -> dict[str, Any]:
    frame: dict[str, Any] = b.js("return (window.knockFrames || []).filter(f => f.type === 'view').at(-1)")
    return frame


def click_action(b: Browser, action: str) -> int:
    """Make ``action`` with the page's own controls: its button (a card's for a discard or a knock); the record
    number after it."""
    count = b.js("return window.knockFrames.length")
    if action.startswith("knock "):
        toggle = b.one(".actions button.toggle")
        if toggle.get_attribute("aria-pressed") != "true":
            toggle.click()
    b.one(f'.play button[data-action="{action}"]:not([disabled])').click()
    acked = "return window.knockFrames.slice(arguments[0]).find(f => f.type === 'ack')"
    ack: dict[str, Any] = b.wait(lambda: b.js(acked,
                                              count), message=f"the answer to {action}")  # fmt: skip
    return int(ack["next"])


def hand_order(b: Browser) -> list[str]:
    order: list[str] = b.js(
        "return [...document.querySelectorAll('#your-hand-title ~ .hand-groups li')].map(li => li.dataset.card)"
    )
    return order


def arrange_the_hand(b: Browser) -> None:
    """The player arranges his hand: drags its first card onto its third (pointer events: Selenium's actions
    are W3C pointer input), moves a card with Alt+Right, and groups it by melds again."""
    before = hand_order(b)
    assert len(before) == 10 and all(before), before
    cards = b.find("#your-hand-title ~ .hand-groups li")
    ActionChains(b.driver).click_and_hold(cards[0]).move_to_element(cards[2]).release().perform()
    b.wait(lambda: b.find(".card-row.arranged"), message="the hand in the player's order")
    assert hand_order(b) == [before[1], before[2], before[0], *before[3:]]
    b.js("arguments[0].focus()", b.one(f'.card-row.arranged li[data-card="{before[1]}"] svg[tabindex]'))
    ActionChains(b.driver).key_down(Keys.ALT).send_keys(Keys.ARROW_RIGHT).key_up(Keys.ALT).perform()
    b.wait(lambda: hand_order(b)[:3] == [before[2], before[1], before[0]], message="the card moved by keyboard")
    assert b.js("return document.activeElement.closest('li').dataset.card") == before[1]  # it keeps the focus
    b.one("button.regroup").click()
    assert hand_order(b) == before and not b.find(".card-row.arranged")


def check_discards(b: Browser) -> int:
    """The page's list of the hand's discards is the last view's ``discards`` (PROTO-34), oldest first, each
    picked-up card marked with the seat that took it; how many are marked."""
    discards = view_of(b)["discards"]
    shown = b.js("return [...document.querySelectorAll('.discards .discard-list li')].map(li => [li.dataset.card, "
                 "li.dataset.taken, li.querySelector('.taken-mark')?.textContent ?? null])")  # fmt: skip
    want = [[d["card"], "" if d["taken"] is None else str(d["taken"]),
             None if d["taken"] is None else f"→ p{d['taken']}"] for d in discards]  # fmt: skip
    assert shown == want, (shown, want)
    return sum(d["taken"] is not None for d in discards)


def check_timer(b: Browser, most: float) -> None:
    """The page's turn timer counts down from the last view's ``turn_left`` (PROTO-33), which is at most ``most``
    and less than the table's timeout."""
    left = view_of(b)["turn_left"]
    assert left is not None and left <= most and left < TIMEOUT, (left, most)
    shown = b.text(".turn-timer .timer-left")
    n = int(shown.split(" s left")[0])
    assert math.ceil(left) - 3 <= n <= math.ceil(left) and shown.endswith(f"of {TIMEOUT} s"), shown


def p0_state(legal: list[str]) -> str:
    if "pass" in legal or "take" in legal:
        return "upcard-offer"
    if "draw" in legal:
        return "draw"
    if any(a.startswith("knock ") for a in legal):
        return "knock"
    return "discard"


@pytest.mark.rule("PROTO-5", "PROTO-6", "PROTO-10")
def test_every_state_fits_a_phone_and_a_wide_screen(server: ServerProcess, browser: Browser, tmp_path: Path) -> None:
    b = browser
    b.open(f"{server.url}/")
    b.one("form.new-table")
    check_state(b, "lobby", ["form.new-table button[type=submit]", "#preset", "a[href='#replay']"])
    bots = b.js("return [...document.querySelectorAll('#seat-1-bot option')].map(o => o.value)")
    assert bots == list(TABLE_BOTS)  # every level the server seats (knock.bots.BOT_NAMES but simple)
    shown = b.js("return [...document.querySelectorAll('#seat-1-bot option')].map(o => o.textContent)")
    assert all(": " in text and text.startswith(f"{bot}: ") for bot, text in zip(bots, shown, strict=True)), shown

    made = made_table(server)
    table = made["table"]
    links = {s["seat"]: f"{server.url}{s['link']}" for s in made["seats"]}
    p1 = Wire(server, table, made["seats"][1]["token"])
    goto(b, links[0])
    b.wait(lambda: b.js("return (window.knockFrames || []).some(f => f.type === 'view')"), message="p0's first view")
    p1.settle()

    seen: set[str] = set()
    marked = 0
    for _ in range(120):
        b.wait(lambda: view_of(b)["legal"] and b.find(".play button:not([disabled])"), message="p0's move")
        frame = view_of(b)
        legal = frame["legal"]
        if legal[0].startswith("spread"):
            action = choose(frame)
            assert action is not None
            after = click_action(b, action)
            break
        state = p0_state(legal)
        if state not in seen:
            seen.add(state)
            # Every offered action's control: a button, or for a discard or a knock a card of the hand.
            needed = [f'.play button[data-action="{a}"]' for a in legal if not a.startswith(("discard", "knock"))]
            needed += [".hand .card-button"] if state in ("discard", "knock") else []
            needed += [".actions button.toggle"] if state == "knock" else []
            check_state(b, state, [*needed, ".turn-timer", ".discards"], (SMALL_PHONE, PHONE, WIDE), turn=True)
            marked = max(marked, check_discards(b))
            if state == "draw":
                arrange_the_hand(b)
            if state == "discard" and "spectator" not in seen:
                seen.add("spectator")  # the spectator watches the same moment, opened mid-turn
                before, since = view_of(b)["turn_left"], time.monotonic()
                # p0's frame was built before ``since`` and each new page's after its ``goto``: the time between
                # them is at least ``opened - since`` (timed after the checks, it would be overstated).
                opened = time.monotonic()
                goto(b, f"{server.url}{made['spectate']}")
                b.wait(lambda: view_of(b), message="the spectator's view")
                check_state(b, "spectator", [".board .centre", "ol.events", ".turn-timer", ".discards"])
                check_discards(b)
                check_timer(b, before - (opened - since) + 0.5)
                opened = time.monotonic()
                goto(b, links[0])  # p0 reloads its page mid-turn: the time left, not the whole timeout
                b.wait(lambda: view_of(b) and view_of(b)["legal"], message="p0's view again")
                check_timer(b, before - (opened - since) + 0.5)
        elif frame["discards"] and b.find(".discards"):
            marked = max(marked, check_discards(b))
        action = choose(frame) if state != "upcard-offer" else "pass"
        assert action is not None
        after = click_action(b, action)
        if action in ("draw", "take", "pickup"):
            continue  # p0 discards next
        p1.settle(after)
    else:
        raise AssertionError("p0 never knocked")
    assert seen >= {"upcard-offer", "draw", "discard", "knock", "spectator"}, seen
    assert marked, "no discard was picked up in the game: the marks are untested"

    # p1 answers the knock in the page: its defences ranked by the deadwood each leaves, the least first and
    # preselected.
    answer = p1.settle(after)
    p1.client.close()
    goto(b, links[1])
    b.wait(lambda: b.find(".defences input[type=radio]"), message="p1's defences")
    check_state(b, "defence", [".defences input[type=radio]", ".defences button[type=submit]"])
    ranked = b.js(
        "return [...document.querySelectorAll('.defences input[type=radio]')]"
        ".map(r => [r.value, r.checked, Number(r.dataset.deadwood)])"
    )
    offered = [a for a in answer["legal"] if a.startswith("layoff")]
    assert sorted(a for a, _, _ in ranked) == sorted(offered)
    deadwoods = [d for _, _, d in ranked]
    assert deadwoods == sorted(deadwoods) and ranked[0][1] and not any(c for _, c, _ in ranked[1:])
    count = b.js("return window.knockFrames.length")
    b.one(".defences button[type=submit]").click()
    b.wait(lambda: b.js("return window.knockFrames.slice(arguments[0]).some(f => f.type === 'hand_result')", count),
           message="the hand's result")  # fmt: skip

    # The pause: both hands face up, melds, layoffs and points, until the player goes on.
    pause = b.one(".pause")
    check_state(
        b, "showdown-pause", [".pause button.continue", ".pause .showdown .spread", ".pause .showdown .defence"]
    )
    assert "points" in pause.text.lower() or "scores" in pause.text.lower()
    # The result in the page's words is the server's narration of it to this seat (#64: "you", names, one voice)
    scored = b.js("return window.knockFrames.filter(f => f.type === 'view').flatMap(f => f.events)"
                  ".filter(e => e.kind === 'hand_scored').at(-1).text")  # fmt: skip
    assert scored.startswith("you ") or " your " in scored, scored
    said = "You" + scored[3:] if scored.startswith("you ") else scored  # a name begins it as its player wrote it
    assert b.text(".pause .showdown .result") == f"{said}.", scored
    gin = view_of(b)["view"]["result"]["kind"] in ("gin", "big_gin")
    assert bool(b.find(".pause .moment.gin")) == gin  # the moment of a gin, for a gin only
    b.one(".pause button.continue").click()
    b.wait(lambda: not b.find(".pause"), message="the pause ended")
    b.wait(lambda: b.find(".play .winner"), message="game over")
    check_state(b, "game-over", [".play .winner", ".sheet", ".rematch button.ask-rematch"])
    won = view_of(b)["view"]["winner"] == 1  # this page is p1's
    assert bool(b.find(".play .moment.won")) == won and ("you win" in b.text(".game-end")) == won, b.text(".game-end")

    # Rematch (protocol 1.2): the page goes on to the series' next table, the running totals above it.
    scores = view_of(b)["view"]["scores"]
    b.one(".rematch button.ask-rematch").click()
    b.wait(lambda: "Game 2 of the series" in b.text(".series"), message="the rematch's table")
    names = ("ann", "bob")
    assert all(f"{n} {points}" in b.text(".series") for n, points in zip(names, scores, strict=True)), b.text(".series")
    # The rematch's address names its table and seat; the token is kept by the page, not in the address bar
    url = b.driver.current_url
    assert table not in url and "seat=1" in url and made["seats"][1]["token"] not in url

    # The lobby with tables listed (this one over, its rematch playing): each a card of labelled lines on a phone,
    # never wider than the screen, at 360 px too (#64).
    goto(b, f"{server.url}/")
    b.wait(lambda: b.find("table.tables tbody tr"), message="the lobby's list of tables")
    check_state(b, "lobby-listed", ["table.tables a", "form.new-table button[type=submit]"], (SMALL_PHONE, PHONE, WIDE))

    goto(b, f"{server.url}/#replay={table}")
    b.wait(lambda: b.find(".verdict"), timeout=30, message="the replay's verdict")
    check_state(b, "replay", ["#step", "#perspective", ".stepper button"])

    # ``knock view``'s file: the same page, the same look, from disk.
    status, log = server.get(f"/api/tables/{table}/log")
    assert status == 200
    (tmp_path / "game.knock").write_bytes(log)
    done = subprocess.run([sys.executable, "-m", "knock.cli", "view", str(tmp_path / "game.knock"), "-o",
                           str(tmp_path / "game.html")], capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    goto(b, (tmp_path / "game.html").as_uri())
    b.wait(lambda: b.find(".verdict"), message="the file's verdict")
    check_state(b, "knock-view", ["#step", "#perspective", ".stepper button"])
    assert not b.errors()
