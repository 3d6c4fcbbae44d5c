"""Renamed ``knock.bulk_verify`` (judging many logs in batches), apart from ``replay.audit`` (one log's audit
report). This old name is importable for one more release, with a DeprecationWarning."""

import warnings

from knock.bulk_verify import *  # noqa: F403 -- the old name's whole face
from knock.bulk_verify import __all__ as __all__

warnings.warn("knock.audit is now knock.bulk_verify", DeprecationWarning, stacklevel=2)
