"""The peers' tests import the adapters' own module, ``tools/adapters/openspiel_map.py`` (not shipped in the wheel:
only the adapters, the tools and these tests use it)."""

import sys
from pathlib import Path

ADAPTERS = Path(__file__).resolve().parents[2] / "tools" / "adapters"
if str(ADAPTERS) not in sys.path:
    sys.path.insert(0, str(ADAPTERS))
