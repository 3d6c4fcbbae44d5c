"""Shared pytest configuration: the Hypothesis profiles (``ci`` under CI, else ``dev``), and the ``ctrl_c``
fixture. The ``rule`` marker is declared in pyproject.toml and its ids checked by ``tests/spec/test_rule_ids.py``."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """Commands the test starts hear Ctrl-C (SIGINT) even when the suite runs in the background: a shell starts a
    background job with SIGINT ignored, a child inherits that, and Python then raises no KeyboardInterrupt."""
    before = signal.getsignal(signal.SIGINT)
    if before == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a handler: reset to the default in a child
    yield
    signal.signal(signal.SIGINT, before)
