"""The application's face: its parts by name, and a star import that loads none of them. (Renamed modules and
moved names keep no old import path: before 1.0 a rename is a break, listed in CHANGELOG.md with the new name.)"""

from __future__ import annotations

import subprocess
import sys


def test_knocks_face_names_its_parts_and_a_star_import_loads_none() -> None:
    import knock

    assert all(getattr(knock, part).__name__ == f"knock.{part}" for part in knock.PARTS)
    code = "import sys; from knock import *; print(sorted(m for m in sys.modules if m.startswith('knock.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
