"""The layering: ``knock`` -> ``replay`` -> ``engine``, one way; only ``replay.codec`` imports msgpack; the two
libraries import nothing but the standard library, each other (``replay`` the engine) and their declared runtime
dependencies. The contracts live in pyproject.toml (``[tool.importlinter]``); ``tools/dev.py test`` runs them too."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def test_the_import_contracts_of_pyproject_hold() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert exe, "import-linter (the test extra) is installed beside this Python"
    done = subprocess.run([exe, "--no-cache"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    contracts = len(PYPROJECT["tool"]["importlinter"]["contracts"])
    assert f"Contracts: {contracts} kept, 0 broken." in done.stdout


def runtime_dependencies() -> set[str]:
    """The import names of ``[project] dependencies`` (each distribution's name is its module's here)."""
    return {re.split(r"[<>=!~ \[;]", d, maxsplit=1)[0].replace("-", "_") for d in PYPROJECT["project"]["dependencies"]}


def test_the_libraries_import_only_the_standard_library_and_their_runtime_dependencies() -> None:
    """An allow-list, where the contracts hold a deny-list: a new optional extra (a web framework, an RL library)
    imported by the engine or the log fails here even before anyone adds it to the contracts."""
    graph = grimp.build_graph("engine", "replay", "knock", include_external_packages=True)
    allowed = {
        "engine": {"engine"} | runtime_dependencies() - {"msgpack"},
        "replay": {"engine", "replay"} | runtime_dependencies(),
    }
    #: the one optional import of the libraries: the ``sign`` extra's faster Ed25519, with a pure-Python fallback
    #: that gives the same verdicts (tests/replay/test_signed.py runs a reader with the extra blocked)
    optional = {("replay.ed25519_verify", "cryptography"), ("replay.signing", "cryptography")}
    stray = {
        f"{module} imports {imported}"
        for package, ok in allowed.items()
        for module in graph.find_descendants(package) | {package}
        for imported in graph.find_modules_directly_imported_by(module)
        if (top := imported.split(".")[0]) not in ok
        and top not in sys.stdlib_module_names
        and (module, top) not in optional
    }
    assert not stray, sorted(stray)
    assert runtime_dependencies() == {"transitions", "msgpack"}
