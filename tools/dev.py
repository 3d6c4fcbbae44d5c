#!/usr/bin/env python3
"""Set up Knock's virtual environment and run its main job or its whole test suite.

    python3 tools/dev.py demo    # install what the demo needs (the cli extra), then play a seeded three-handed
                                 # game between bots, log and verify it
    python3 tools/dev.py test    # install everything (the dev extra), then ruff, mypy --strict, import-linter, the
                                 # API reference (pdoc, build/api) and pytest; non-zero on any failure
    python3 tools/dev.py setup   # install everything (the Node packages of the tests too), run nothing

Standard library only: it runs on a fresh machine with nothing but Python 3.11.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".knock-installed"


def run(*cmd: str | Path) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT)


#: What each job installs: the demo only the command line (typer, rich, cryptography), the rest everything (``dev``).
EXTRAS = {"demo": "cli", "test": "dev", "setup": "dev"}


def setup(extras: str = "dev") -> None:
    """Create .venv and install Knock with ``extras`` (again only when pyproject.toml changes, or when more extras
    are wanted than are installed: ``dev`` holds every other)."""
    if sys.version_info < (3, 11):  # noqa: UP036 -- this script may be started by any python3
        sys.exit(f"Knock needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if not PY.exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    have = STAMP.read_text().split() if STAMP.exists() else []
    if have[:1] == [digest] and (extras in have[1:] or "dev" in have[1:]):
        return
    pip: list[str | Path] = [PY, "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    if run(*pip, "-e", f".[{extras}]") != 0:
        sys.exit("installing Knock's dependencies failed (see above)")
    kept = have[1:] if have[:1] == [digest] else []
    STAMP.write_text(" ".join([digest, *sorted({*kept, extras})]))


#: The browser the browser tests drive (tests/web/browser.py): Debian's chromium and its driver.
BROWSER = (Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver"))


def ensure_browser() -> None:
    """Install Debian's chromium and chromium-driver when either is missing (as root, with apt-get): the
    browser tests never skip for want of a browser."""
    missing = [str(p) for p in BROWSER if not p.exists()]
    if not missing:
        return
    print(f"the browser tests need {', '.join(missing)}: installing Debian's chromium and chromium-driver", flush=True)
    if os.name != "posix" or os.geteuid() != 0:
        sys.exit(
            "installing chromium needs root: run as root, or first: sudo apt-get install -y chromium chromium-driver"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium", "chromium-driver"]):
        print("+", " ".join(cmd), flush=True)
        if subprocess.call(cmd, env=env) != 0:
            sys.exit(f"{' '.join(cmd)} failed: the browser tests cannot run without chromium")
    still = [str(p) for p in BROWSER if not p.exists()]
    if still:
        sys.exit(f"chromium was installed but {', '.join(still)} is still missing")


#: The Node packages the tests run (each a folder with package.json and package-lock.json): Ajv, which compiles
#: the protocol's schema in strict mode (tests/protocol).
#: The Node packages the tests run: the schema's Ajv check, and the second client written from the spec (#28).
NODE_PACKAGES = (
    ROOT / "tests" / "protocol" / "js",
    ROOT / "tests" / "protocol" / "client",
    ROOT / "tests" / "web" / "axe",
)


def ensure_node() -> None:
    """Install each Node package's locked dependencies with ``npm ci`` (again only when its lock file changes):
    the tests that run Node never skip for want of them."""
    for folder in NODE_PACKAGES:
        lock = folder / "package-lock.json"
        stamp = folder / "node_modules" / ".knock-lock"
        digest = hashlib.sha256(lock.read_bytes()).hexdigest()
        if stamp.exists() and stamp.read_text() == digest:
            continue
        if run("npm", "ci", "--no-audit", "--no-fund", "--prefix", folder) != 0:
            sys.exit(f"npm ci failed in {folder.relative_to(ROOT)}: the tests need Node 20 and npm")
        stamp.write_text(digest)


#: The packages the API reference documents (``build/api/index.html``): the two libraries and the bots.
REFERENCE = ("engine", "replay", "knock.bots")


def workers() -> int:
    """pytest's worker processes (pytest-xdist): one a core this process may use, at most four (each holds the
    whole suite's imports; the suite's own subprocesses, servers and clusters want cores too)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return max(1, min(4, cores))


def label(step: list[str | Path]) -> str:
    """A step's name for the summary: the module after ``-m`` (and its first argument), else the program."""
    words = [str(w) for w in step]
    if "-m" in words:
        at = words.index("-m")
        return " ".join(words[at + 1 : at + 3])
    return Path(words[0]).name


def test(extra: list[str]) -> int:
    ensure_browser()
    ensure_node()
    steps: list[list[str | Path]] = [
        [PY, "-m", "ruff", "check", "engine", "replay", "knock", "tools", "tests"],
        [PY, "-m", "ruff", "format", "--check", "engine", "replay", "knock", "tools", "tests"],
        [PY, "-m", "mypy"],
        [BIN / "lint-imports", "--no-cache"],  # the layering contracts of pyproject.toml
        # the API reference, generated from the docstrings of the documented surface; any warning fails it
        [PY, "-W", "error", "-m", "pdoc", "--docformat", "restructuredtext", "-o", ROOT / "build" / "api", *REFERENCE],
        [PY, "-m", "pytest", "-n", str(workers()), "--dist", "loadgroup", *extra],  # a page's snippets on one worker
    ]
    failed = [label(s) for s in steps if run(*s) != 0]
    if failed:
        print(f"FAILED: {', '.join(failed)}", flush=True)
        return 1
    print("all checks passed", flush=True)
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("demo", "test", "setup"):
        print(__doc__)
        return 2
    setup(EXTRAS[argv[0]])
    if argv[0] == "setup":
        ensure_node()
        return 0
    if argv[0] == "test":
        return test(argv[1:])
    return run(BIN / "knock", "demo", "--preset", "three_handed", *argv[1:])  # a later --preset overrides it


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
