"""A ``knock serve`` on a free local port for the web tests (a real process, real sockets)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from knock.web.client import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    data: Path = tmp_path_factory.mktemp("serve")
    # The suite makes many tables from one address in a few seconds: the limit on tables made a minute is lifted
    # here (test_hostile.py checks it, at its default).
    args = ("--bot-delay", "0", "--allow-origin", "http://friends.test", "--table-rate", "0")
    with ServerProcess(data, *args) as running:
        yield running
