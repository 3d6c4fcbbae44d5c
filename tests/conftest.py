"""Shared pytest configuration: the Hypothesis profiles (``ci`` under CI, else ``dev``). The ``rule`` marker is
declared in pyproject.toml and its ids checked by ``tests/spec/test_rule_ids.py``."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
