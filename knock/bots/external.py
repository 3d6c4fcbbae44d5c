"""Bots from outside the project's list, for ``knock arena`` and ``make_bot``: a new, trained or external bot named
by where its code is.

A *bot reference* is one of

- ``package.module:Name`` — ``Name`` in an importable module (installed, or on ``PYTHONPATH``);
- ``path/to/file.py:Name`` — ``Name`` in a Python file (a path relative to the working folder, or absolute);
- a name registered as an entry point of the group ``knock.bots`` by an installed package (its value is
  ``package.module:Name``).

``Name`` is a class or a function; it is called with the bot's seed (``Name(seed)``) when it takes a parameter,
else with none. What it returns must have a ``name`` and a ``choose(obs, legal)``: the ``knock.bots.Bot``
protocol. Such a bot sees only what the engine gives any bot, its seat's observation (VIS-2). A bad reference is
refused with ``ValueError`` saying why (the module or file missing, the name missing, not a bot).

>>> bot = make_external("knock.bots.base:RandomBot", 3)
>>> bot.name, is_reference("knock.bots.base:RandomBot"), is_reference("expert")
('random', True, False)
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from knock.bots.base import Bot

__all__ = ["ENTRY_POINTS", "is_reference", "make_external"]

#: The entry-point group an installed package registers its bots under.
ENTRY_POINTS = "knock.bots"


@functools.cache  # the installed packages do not change during a run
def _registered() -> dict[str, str]:
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINTS)}


def is_reference(name: str) -> bool:
    """Whether ``name`` names a bot outside the project's list: ``where:Name`` or a registered entry point."""
    return ":" in name or name in _registered()


def _module(where: str) -> Any:
    """The module ``where`` names: a file (``….py``, or a path with a separator) or an importable module."""
    if where.endswith(".py") or "/" in where or "\\" in where:
        path = Path(where).expanduser().resolve()
        if not path.is_file():
            raise ValueError(f"no file {where!r}")
        tag = hashlib.sha256(str(path).encode()).hexdigest()[:12]
        spec = importlib.util.spec_from_file_location(f"knock_external_{path.stem}_{tag}", path)
        if spec is None or spec.loader is None:
            raise ValueError(f"{where!r} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # as an import does: a dataclass of the file looks its module up there
        try:
            spec.loader.exec_module(module)
        except Exception as err:
            del sys.modules[spec.name]
            raise ValueError(f"{where!r} failed to load: {type(err).__name__}: {err}") from err
        return module
    try:
        return importlib.import_module(where)
    except ImportError as err:
        raise ValueError(f"cannot import {where!r}: {err}") from None


@functools.cache  # loaded once a process: a run makes the bot for every game, a file bot is read once
def _factory(reference: str) -> Callable[..., Any]:
    value = _registered().get(reference, reference)
    where, sep, attr = value.rpartition(":")
    if not sep or not where or not attr:
        raise ValueError(f"{reference!r} is not MODULE:NAME, FILE.py:NAME or a registered bot")
    module = _module(where)
    if not hasattr(module, attr):
        raise ValueError(f"{where!r} has no {attr!r}")
    made = getattr(module, attr)
    if not callable(made):
        raise ValueError(f"{reference!r} is not a class or a function")
    return made  # type: ignore[no-any-return]


def make_external(reference: str, seed: int = 0) -> Bot:
    """The bot ``reference`` names (see the module's docstring), seeded with ``seed`` when it takes one."""
    factory = _factory(reference)
    try:
        takes = bool(inspect.signature(factory).parameters)
    except (TypeError, ValueError):  # a builtin without a signature: called with none
        takes = False
    try:
        bot = factory(seed) if takes else factory()
    except Exception as err:  # the bot's own code: its failure, said as the reference's
        raise ValueError(f"{reference!r} could not be made: {type(err).__name__}: {err}") from err
    if not callable(getattr(bot, "choose", None)) or not isinstance(getattr(bot, "name", None), str):
        raise ValueError(f"{reference!r} made {type(bot).__name__}, not a bot (a name and choose(obs, legal))")
    return bot  # type: ignore[no-any-return]
