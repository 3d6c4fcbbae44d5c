"""Renamed modules and moved names keep their old import path for one release, each with a DeprecationWarning
naming the new home (the rename policy of CHANGELOG.md), and the new names are what the code imports."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

#: (old module, new module): a module renamed, its old name a warning alias for one release.
RENAMED_MODULES = [
    ("knock.audit", "knock.bulk_verify"),
    ("knock.conformance.notation", "knock.conformance.aliases"),
    ("knock.envs.table", "knock.envs.episode"),
    ("knock.envs.tables", "knock.envs.spaces"),
]
#: (module, name, new module, new name): a name that moved or was renamed, importable from its old module with a
#: warning.
MOVED_NAMES = [("engine.hand", "Observation", "engine.visibility", "Observation"),
               ("engine.match", "MatchObservation", "engine.visibility", "MatchObservation"),
               ("knock.play.table", "Table", "knock.play.table", "TerminalTable"),
               ("knock.play", "Table", "knock.play", "TerminalTable"),
               ("knock.web.tables", "Table", "knock.web.tables", "ServerTable")]  # fmt: skip


@pytest.mark.parametrize(("module", "name", "home", "new"), MOVED_NAMES)
def test_a_moved_name_warns_and_is_the_same_object(module: str, name: str, home: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=f"{module}.{name} is now {home}.{new}"):
        found = getattr(importlib.import_module(module), name)
    assert found is getattr(importlib.import_module(home), new)
    assert not hasattr(importlib.import_module(module), "NoSuchName")


def test_knocks_face_names_its_parts_and_a_star_import_loads_none() -> None:
    import knock

    assert all(getattr(knock, part).__name__ == f"knock.{part}" for part in knock.PARTS)
    code = "import sys; from knock import *; print(sorted(m for m in sys.modules if m.startswith('knock.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_environments_old_table_names_warn() -> None:
    import knock.envs

    env = knock.envs.aec_env("standard")
    with pytest.warns(DeprecationWarning, match="env.table is now env.episode"):
        assert env.table is env.episode
    with pytest.warns(DeprecationWarning):
        sys.modules.pop("knock.envs.table", None)
        old = importlib.import_module("knock.envs.table")
    assert old.Table is importlib.import_module("knock.envs.episode").Episode
