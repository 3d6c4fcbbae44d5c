"""Tables never crop a figure (issue #66): at 60 and 80 columns every cell a command's table holds — the same
cells it writes one record a line when piped — appears whole in what it prints on a terminal (a table too wide to
fit is written one record a paragraph)."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import pytest

from knock.cli.common import console
from tests.cli.support import run as knock

#: Commands that print tables, small enough for the suite.
COMMANDS = {
    "arena": ("arena", "--bots", "random,greedy,heuristic", "--games", "4", "--jobs", "1"),
    "simulate": ("simulate", "--games", "4", "--jobs", "1", "--bots", "heuristic,random"),
    "rules": ("rules", "--preset", "oklahoma"),
    "coverage": ("conform", "coverage"),
}


@contextlib.contextmanager
def terminal(width: int) -> Iterator[None]:
    """The command's console as a terminal ``width`` columns wide."""
    saved = console._force_terminal, console._width
    console._force_terminal, console._width = True, width
    try:
        yield
    finally:
        console._force_terminal, console._width = saved


def figures(piped: str) -> set[str]:
    """Every word with a digit in it (a figure, an interval, a rule id), of the tab-separated lines a command
    writes to a pipe."""
    words = {w for line in piped.splitlines() if "\t" in line for c in line.split("\t") for w in c.split()}
    return {w for w in words if re.search(r"\d", w)}


@pytest.mark.parametrize("name", sorted(COMMANDS))
@pytest.mark.parametrize("width", [60, 80])
def test_every_figure_of_a_table_is_whole_at_a_narrow_terminal(name: str, width: int) -> None:
    args = COMMANDS[name]
    piped = knock(*args)
    assert piped.returncode == 0, piped.stderr
    wanted = figures(piped.stdout)
    assert len(wanted) >= 4, piped.stdout
    with terminal(width):
        shown = knock(*args)
    assert shown.returncode == 0, shown.stderr
    words = set(shown.stdout.split())
    cut = sorted(f for f in wanted if f not in words and f not in shown.stdout)
    assert not cut, (cut, shown.stdout)


def test_every_command_says_its_exit_status_in_its_help() -> None:
    """Every command's -h, and every conform command's, ends its description with its exit statuses (issue #66)."""
    from knock.cli.common import app

    commands = [c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands]
    commands += [f"conform {c.name}" for g in app.registered_groups if g.name == "conform" and g.typer_instance
                 for c in g.typer_instance.registered_commands]  # fmt: skip
    assert len(commands) >= 18, commands
    missing = [c for c in commands if "Exit status" not in knock(*c.split(), "-h").stdout]
    assert not missing, missing
