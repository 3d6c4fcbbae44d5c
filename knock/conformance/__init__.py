"""The conformance suite's runner (spec/conformance.md)."""

from knock.conformance.runner import *  # noqa: F403
