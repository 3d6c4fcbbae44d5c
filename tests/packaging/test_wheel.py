"""The distribution: the wheel holds every package and data file of the source tree, and installed alone into a
fresh virtual environment, outside the checkout, it runs the ``knock`` command."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

import engine
import knock

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "replay", "knock")
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]


def source_files() -> set[str]:
    """Every file of the shipped packages in the source tree (compiled files left out), as wheel paths."""
    return {
        p.relative_to(ROOT).as_posix()
        for package in PACKAGES
        for p in (ROOT / package).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def run(*cmd: str | Path, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, cwd=cwd, env=env, check=False)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))}\n{done.stdout}{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel, built from a copy of the packages and pyproject.toml (so no build files land in the checkout)
    with the setuptools of this environment (the test extra), offline."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    pip = (sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation")
    run(*pip, "-w", tmp / "dist", src, cwd=tmp)
    (built,) = (tmp / "dist").glob("knock_gin-*.whl")
    return built


def test_the_version_is_one() -> None:
    assert engine.__version__ == knock.__version__ == VERSION


@pytest.mark.wheel
def test_the_wheel_holds_every_package_and_data_file_of_the_source_tree(wheel: Path) -> None:
    """A subpackage or a data file missing from pyproject.toml's package discovery or package data fails here."""
    assert wheel.name.startswith(f"knock_gin-{VERSION}-")
    with zipfile.ZipFile(wheel) as zf:
        shipped = {n for n in zf.namelist() if n.split("/")[0] in PACKAGES}
        tops = {n.split("/")[0] for n in zf.namelist() if ".dist-info/" not in n}
    assert shipped == source_files()
    assert tops == set(PACKAGES), "the wheel holds only the three packages (no tests, tools or explorer)"


@pytest.mark.wheel
@pytest.mark.rule("LOG-17", "CONF-15")
def test_the_installed_wheel_runs_knock_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    env = tmp_path / "venv"
    venv.create(env, with_pip=False)  # the pip of this environment installs into it (--python)
    bin_dir = env / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-compile", f"{wheel}[cli,web]",
        cwd=tmp_path)  # fmt: skip
    assert run(bin_dir / "knock", "--version", cwd=tmp_path) == f"knock {VERSION}\n"
    # README's way of serving signs through the vetted library, and says so (LOG-17)
    run(bin_dir / "knock", "keygen", "-o", tmp_path / "server", cwd=tmp_path)
    serve = [bin_dir / "knock", "serve", "--port", "0", "--data", tmp_path / "data", "--key", tmp_path / "server"]
    with subprocess.Popen([str(c) for c in serve], stdout=subprocess.PIPE, text=True, cwd=tmp_path) as server:
        assert server.stdout is not None
        banner = server.stdout.readline()
        server.terminate()
    assert "listening on http://" in banner and " through cryptography " in banner, banner
    log = tmp_path / "demo.knock"
    out = run(bin_dir / "knock", "demo", "--seed", "2", "--summary", "-o", log, cwd=tmp_path)
    assert "wins after" in out and "verified" in out and log.stat().st_size > 100
    out = run(bin_dir / "knock", "verify", log, cwd=tmp_path)
    assert out.startswith("pass ")
    out = run(bin_dir / "knock", "conform", "run", "-q", cwd=tmp_path)  # the suite is package data
    assert re.search(r"\b(\d+) of \1 cases pass", out), out
    assert " 0 gaps" in run(bin_dir / "knock", "conform", "coverage", cwd=tmp_path)
    out = run(bin_dir / "knock", "conform", "vectors", "-q", cwd=tmp_path)  # the verdict vectors are package data
    assert re.search(r"\b([\d,]+) of \1 vectors pass", out), out
    where = run(python, "-c", "import engine, knock, replay, importlib.util as u; print(engine.__file__, "
                "replay.__file__, knock.__file__, u.find_spec('tests'))", cwd=tmp_path)  # fmt: skip
    *files, tests = where.split()
    assert all(Path(f).is_relative_to(env) for f in files), where
    assert tests == "None", "the tests (oracles, explorer) are not installed"
