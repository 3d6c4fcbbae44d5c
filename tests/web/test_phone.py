"""The table on a small phone (#64), in a real headless Chromium at 360×640 by mobile emulation (touch, a coarse
pointer) against a real ``knock serve``: a person at a seeded table plays against a bot by taps.

At the start of each of the person's turns the page brings the stock, the pile, the hand and the moves on the
screen together by itself (the test scrolls to the top before each turn and never scrolls for the page). A
discard on a touch screen is confirmed: a first tap on a card only chooses it (nothing is sent: the seat has no
action pending), Cancel forgets the choice, a second tap on the card or the confirmation's button makes the move.
The option (on by default for a touch screen) turned off makes one tap a discard again, and a reloaded page keeps
the player's choice.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from knock.web.client import ServerProcess
from tests.web.browser import SMALL_PHONE, Browser
from tests.web.test_layout import turn_fits

TABLE = {"options": {"target": 100}, "seed": 5, "bot_delay": 0,
         "seats": [{"player": "human", "name": "ann"}, {"player": "bot", "bot": "random"}]}  # fmt: skip

#: A stand-in for Web Audio's AudioContext that counts the tones the page plays (``window.tones``).
STAND_IN = """
window.tones = 0;
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    window.tones += 1;
    return { frequency: {}, connect: (node) => node, start() {}, stop() {} };
  }
  createGain() { return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect() {} }; }
};
"""

#: The person's move now: the last view's legal actions when it is the person's turn, else [].
MY_LEGAL = """
const v = (window.knockFrames || []).filter((f) => f.type === "view").at(-1);
return v && v.legal.length && v.view.to_act === 0 && window.knockSeat.pending === null ? v.legal : [];
"""


def table(server: ServerProcess) -> str:
    request = urllib.request.Request(f"{server.url}/api/tables", json.dumps(TABLE).encode(), method="POST",
                                     headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        made: dict[str, Any] = json.loads(response.read())
    return f"{server.url}{made['seats'][0]['link']}"


def my_turn(b: Browser) -> list[str]:
    """Wait for the person's turn (the page at the top of the page meanwhile); its legal actions, once the page
    has brought the turn on screen."""

    def turn() -> list[str]:
        pause = b.find(".pause button.continue")  # a hand ended (the bot knocked): the person goes on
        if pause:
            pause[0].click()
        legal: list[str] = b.js(MY_LEGAL)
        return legal

    legal = b.wait(turn, message="the person's turn")
    turn_fits(b, f"the person's turn ({', '.join(legal)})")
    return legal


def tap(b: Browser, css: str) -> None:
    """Tap the control ``css`` with the page scrolled to its top first and left there (a click by script: the
    test's tap does not scroll the page, so the next turn is on screen only if the page brought it there)."""
    b.js("window.scrollTo(0, 0); arguments[0].click()", b.one(css))


def acked(b: Browser, since: int) -> bool:
    return bool(b.js("return window.knockFrames.slice(arguments[0]).some((f) => f.type === 'ack')", since))


def to_discard(b: Browser) -> str:
    """Play the person's turn up to its discard (pass an upcard, draw from the stock); a card it may discard."""
    while True:
        legal = my_turn(b)
        discards = [a for a in legal if a.startswith("discard ")]
        if discards:
            return discards[0].split()[1]
        count = b.js("return window.knockFrames.length")
        if any(a.startswith("layoff") for a in legal):  # the bot knocked: the best defence
            tap(b, ".defences button[type=submit]")
        else:
            tap(b, f'.play button[data-action="{"pass" if "pass" in legal else "draw"}"]')
        b.wait(lambda n=count: acked(b, n), message="the person's move")  # type: ignore[misc]


def test_a_touch_discard_is_confirmed_and_each_turn_fits_a_small_phone(server: ServerProcess, browser: Browser) -> None:
    b = browser
    b.resize(SMALL_PHONE)
    b.open("about:blank")
    b.open(table(server))
    assert b.js("return matchMedia('(pointer: coarse)').matches")

    # A first tap chooses the card only; Cancel forgets it.
    card = to_discard(b)
    b.one(f'.hand .card-button[data-card="{card}"]').click()
    b.one(f'.hand .card-button[data-card="{card}"][aria-pressed="true"]')
    assert b.js("return window.knockSeat.pending") is None  # nothing was sent
    assert b.one(".actions button.confirm").get_attribute("data-confirm") == f"discard {card}"
    b.screen("phone-chosen-small-phone")
    b.one(".actions button.cancel").click()
    assert not b.find(".hand .card-button.chosen") and not b.find(".actions button.confirm")
    assert b.js("return window.knockSeat.pending") is None

    # A second tap on the chosen card discards it.
    b.one(f'.hand .card-button[data-card="{card}"]').click()
    b.one(f'.hand .card-button[data-card="{card}"][aria-pressed="true"]')
    count = b.js("return window.knockFrames.length")
    tap(b, f'.hand .card-button[data-card="{card}"][aria-pressed="true"]')
    b.wait(lambda: acked(b, count), message="the discard by a second tap")

    # The next turn: a tap, then the confirmation's button.
    card = to_discard(b)
    b.one(f'.hand .card-button[data-card="{card}"]').click()
    count = b.js("return window.knockFrames.length")
    tap(b, ".actions button.confirm")
    b.wait(lambda: acked(b, count), message="the discard by its confirmation")

    # The option off: one tap discards; the page reloaded keeps the choice.
    card = to_discard(b)
    b.one("#confirm-discards").click()
    b.wait(lambda: not b.one("#confirm-discards").is_selected(), message="the option off")
    count = b.js("return window.knockFrames.length")
    tap(b, f'.hand .card-button[data-card="{card}"]')
    b.wait(lambda: acked(b, count), message="the discard by one tap")
    b.driver.refresh()  # reloaded at the top of the page, on a turn that fits by the page's own scroll
    to_discard(b)
    assert not b.one("#confirm-discards").is_selected()
    b.screen("phone-turn-small-phone")

    # The turn cue: off until asked for; on, a tone at the start of each of the seat's turns (Web Audio, recorded
    # here by a stand-in for the browser's AudioContext: a headless browser has no speaker).
    b.js(STAND_IN)
    toggle = b.one("button.sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false" and b.js("return window.tones") == 0
    card = to_discard(b)  # the turn the reloaded page was on
    toggle.click()  # the tap that turns it on plays it once: what it sounds like
    b.wait(lambda: b.one("button.sound-toggle").get_attribute("aria-pressed") == "true", message="the sound on")
    assert b.js("return window.tones") == 2
    count = b.js("return window.knockFrames.length")
    tap(b, f'.hand .card-button[data-card="{card}"]')  # confirmation off: one tap
    b.wait(lambda: acked(b, count), message="the discard")
    my_turn(b)
    b.wait(lambda: b.js("return window.tones") >= 4, message="the tone of the next turn")
    assert b.js("return localStorage.getItem('knock.turnSound')") == "1"
    b.screen("phone-next-turn-small-phone")
    to_discard(b)
    b.one("#confirm-discards").click()  # discards confirmed, and the sound off: the storage as the test found it
    b.one("button.sound-toggle").click()
    b.wait(lambda: b.js("return localStorage.getItem('knock.confirmDiscards')") == "1", message="the option on")
    assert not b.errors()
