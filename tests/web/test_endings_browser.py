"""A game's end at the table page, in a real headless Chromium against a real ``knock serve`` (protocol 1.4,
PROTO-41 … PROTO-43): a person resigns (behind a confirmation) on a phone-sized screen, and a person claims the game
once the other has left and the countdown has run out. Every frame is checked against the schema, every log
verifies, and screenshots are saved in ``out/screenshots/``."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from knock.web.client import Client, ServerProcess
from replay.verdict import judge
from tests.web.browser import PHONE, WIDE, Browser
from tests.web.support import valid

PEOPLE = [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that records a seat away as soon as its last connection closes (no grace), so that the claim's
    countdown is the table's ``claim_after`` alone."""
    args = ("--bot-delay", "0", "--table-rate", "0", "--address-tables", "0", "--away-grace", "0")
    with ServerProcess(tmp_path_factory.mktemp("endings-serve"), *args) as running:
        yield running


def made(server: ServerProcess, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{server.url}/api/tables", json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def visit(b: Browser, url: str) -> None:
    """Open the table's link in a fresh document (a link differs from the last only after its ``#``)."""
    b.open(url)
    b.driver.refresh()


def frames(b: Browser) -> list[dict[str, Any]]:
    return [valid(f) for f in b.frames()]


def game_result(b: Browser) -> dict[str, Any]:
    """The game's result the page was sent ({} before it)."""
    return next((f for f in b.frames() if f["type"] == "game_result"), {})


def log_verifies(server: ServerProcess, table: str) -> None:
    with urllib.request.urlopen(f"{server.url}/api/tables/{table}/log", timeout=10) as response:
        data = response.read()
    assert judge(data).kind == "pass"


def join(server: ServerProcess, table: dict[str, Any], seat: int) -> Client:
    """The other person, at the table over a plain WebSocket."""
    client = Client(server.url.replace("http", "ws", 1) + "/ws")
    token = next(s["token"] for s in table["seats"] if s["seat"] == seat)
    assert client.hello(table["table"], token)["type"] == "welcome"
    return client


@pytest.mark.rule("PROTO-41", "PROTO-43", "END-1", "PROTO-5")
def test_a_person_resigns_on_a_phone_after_confirming(server: ServerProcess, browser: Browser) -> None:
    b = browser
    table = made(server, {"seed": 21, "seats": PEOPLE})
    bob = join(server, table, 1)
    b.resize(PHONE)
    try:
        visit(b, server.url + table["seats"][0]["link"])
        b.one(".endings button.resign")
        view = next(f for f in reversed(b.frames()) if f["type"] == "view")
        mine = view["view"]["to_act"] == 0 and bool(view["legal"])
        # the tab says whose move it is (#64): a person in another tab sees it there
        assert b.driver.title.startswith("● Your move") == mine, (b.driver.title, mine)
        b.one(".endings button.resign").click()
        assert not game_result(b)  # the first press only asks
        assert "Resign this game?" in b.text(".endings .confirm")
        b.shot("endings-01-resign-confirm-phone")
        b.one(".endings button.keep-playing").click()  # changed his mind: nothing sent
        b.one(".endings button.resign").click()
        b.one(".endings button.confirm-resign").click()
        result = b.wait(lambda: game_result(b), message="the game's result after resigning")
        assert result["winner"] == 1 and result["ending"]["kind"] == "resign" and result["ending"]["seat"] == 0
        assert "Game over: you resigned: bob wins." in b.wait(lambda: b.text(".game-end"), message="the end in words")
        assert not b.find(".endings")
        b.shot("endings-02-resigned-phone")
        acts = [f for f in frames(b) if f["type"] == "ack"]
        assert [a["action"] for a in acts] == ["resign"]
        assert bob.until("game_result")["ending"]["kind"] == "resign"
        log_verifies(server, table["table"])
        assert not b.errors()
    finally:
        bob.close()
        b.resize(WIDE)


@pytest.mark.rule("PROTO-42", "PROTO-43", "END-4")
def test_a_person_claims_the_game_once_the_other_has_gone_for_the_stated_time(
    server: ServerProcess, browser: Browser
) -> None:
    b = browser
    table = made(server, {"seed": 22, "seats": PEOPLE, "options": {"claim_after": 3}})
    bob = join(server, table, 1)
    visit(b, server.url + table["seats"][0]["link"])
    b.one(".endings button.resign")
    assert not b.find(".endings .away")
    bob.close()  # bob's tab closes: the server records him away
    countdown = b.wait(lambda: b.find(".claim-countdown"), message="the countdown to a claim")
    assert "You may claim victory in 0:0" in countdown[0].text
    assert "bob has left the table." in b.text(".endings .away")
    b.shot("endings-03-claim-countdown")
    b.click(".endings button.claim:not([disabled])", timeout=30, message="Claim victory")  # redrawn each second
    result = b.wait(lambda: game_result(b), message="the game's result after the claim")
    assert result["winner"] == 0 and result["ending"] == {"kind": "claim", "seat": 0, "against": 1, "reason": None}
    assert "claimed the game" in b.text(".game-end")
    b.shot("endings-04-claimed")
    sent = [f for f in frames(b) if f["type"] in ("ack", "refusal")]
    assert sent and sent[-1]["type"] == "ack" and sent[-1]["action"].startswith("claim p1 at ")
    log_verifies(server, table["table"])
    assert not b.errors()
