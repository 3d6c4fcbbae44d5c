"""Renamed ``knock.conformance.aliases`` (the case notation's other names), apart from ``replay.notation``
(records in words). This old name is importable for one more release, with a DeprecationWarning."""

import warnings

from knock.conformance.aliases import *  # noqa: F403 -- the old name's whole face
from knock.conformance.aliases import __all__ as __all__

warnings.warn("knock.conformance.notation is now knock.conformance.aliases", DeprecationWarning, stacklevel=2)
