"""Renamed ``knock.envs.episode``. This old name is importable for one more release, with a DeprecationWarning."""

import warnings

from knock.envs.episode import *  # noqa: F403 -- the old name's whole face
from knock.envs.episode import Episode
from knock.envs.episode import __all__ as __all__

Table = Episode  #: the old name of the class

warnings.warn("knock.envs.table is now knock.envs.episode", DeprecationWarning, stacklevel=2)
