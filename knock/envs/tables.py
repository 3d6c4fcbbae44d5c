"""Renamed ``knock.envs.spaces``. This old name is importable for one more release, with a DeprecationWarning."""

import warnings

from knock.envs.spaces import *  # noqa: F403 -- the old name's whole face
from knock.envs.spaces import __all__ as __all__

warnings.warn("knock.envs.tables is now knock.envs.spaces", DeprecationWarning, stacklevel=2)
