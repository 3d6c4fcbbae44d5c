"""A seat's token (its capability, PROTO-3) leaves the address bar once the page has it, and a reload still seats
the player: as an operator's page should, so that a shared screen, a screenshot or the browser's history does not
give the seat away."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from knock.web.client import ServerProcess
from tests.web.browser import Browser

PEOPLE = [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(
        tmp_path_factory.mktemp("token-serve"), "--bot-delay", "0", "--table-rate", "0", "--address-tables", "0"
    ) as running:
        yield running


def welcomes(b: Browser) -> list[dict[str, object]]:
    return [f for f in b.frames() if f["type"] == "welcome"]


@pytest.mark.rule("PROTO-3")
def test_the_token_leaves_the_address_bar_and_history_and_a_reload_keeps_the_seat(
    server: ServerProcess, browser: Browser
) -> None:
    b = browser
    made = server.table({"seed": 31, "seats": PEOPLE})
    token = made["seats"][1]["token"]
    b.open(server.url + made["seats"][1]["link"])
    b.driver.refresh()  # a fresh document (the link may differ from the last page's only after its '#')
    b.wait(lambda: welcomes(b), message="the seat's welcome")
    url = b.driver.current_url
    assert token not in url and f"table={made['table']}" in url and "seat=1" in url
    assert b.js("return history.length") >= 1 and token not in b.js("return location.href")
    b.driver.refresh()  # the same address, without the token: still the seat's page
    seated = b.wait(lambda: welcomes(b), message="the seat's welcome after a reload")
    assert seated[-1]["seat"] == 1
    assert "You play bob" in b.text(".who")
    b.js("localStorage.clear()")
    b.driver.refresh()  # a browser that does not have the token: it watches, and cannot take the seat
    watching = b.wait(lambda: welcomes(b), message="the page without a token")
    assert watching[-1]["seat"] is None and "watching" in b.text(".who")
