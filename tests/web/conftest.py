"""A ``knock serve`` on a free local port for the web tests (a real process, real sockets)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from knock.web import client
from knock.web.client import ServerProcess
from tests.web.browser import Browser
from tests.web.support import valid_body


@pytest.fixture(autouse=True)
def _http_bodies_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every HTTP answer a web test receives through ``knock.web.client.http`` is validated against the schema
    (PROTO-23)."""
    original = client.http

    def checked(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        status, body = original(url, data, headers)
        valid_body("POST" if data is not None else "GET", url, status, body, data)
        return status, body

    monkeypatch.setattr(client, "http", checked)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    data: Path = tmp_path_factory.mktemp("serve")
    # The suite makes many tables from one address in a few seconds: the limit on tables made a minute is lifted
    # here (test_hostile.py checks it, at its default).
    args = ("--bot-delay", "0", "--allow-origin", "http://friends.test", "--table-rate", "0", "--address-tables", "0")
    with ServerProcess(data, *args) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless Chromium for a module's browser tests (tests/web/browser.py)."""
    b = Browser()
    yield b
    b.quit()
