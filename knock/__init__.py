"""Knock, the application: the ``knock`` command and what it is made of, for embedders too.

It imports the two libraries, ``engine`` (the rules) and ``replay`` (the log); they never import it. Its parts,
each imported only when first used (several need an optional extra, named in brackets):

- ``knock.cli``: the ``knock`` command (``[cli]``).
- ``knock.play``: terminal play — a session, its log as its save file, undo (``[cli]``), the board (``[board]``).
- ``knock.simulate``: many seeded games between bots, over processes or a cluster.
- ``knock.bulk_verify``: a verdict for each of many logs, wherever they are (``knock verify``).
- ``knock.export``: logs as a Parquet dataset (``[cluster]``).
- ``knock.conformance``: the conformance suite — cases, answers, the runner, coverage.
- ``knock.envs``: PettingZoo, Gymnasium and OpenSpiel environments (``[rl]``).
- ``knock.web``: the table protocol, ``knock serve``, ``knock engine`` and a wire client (``[web]``).
- ``knock.cluster``: the Dask runner and fsspec storage (``[cluster]``).
- ``knock.bots``: the bots, from a uniform random player to the search levels.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from engine import __version__

#: The parts of the application, importable as ``knock.NAME`` (each loaded on first use).
PARTS = ("cli", "play", "simulate", "bulk_verify", "export", "conformance", "envs", "web", "cluster", "bots")

#: Not the parts themselves: ``from knock import *`` must not import every extra.
__all__ = ["PARTS", "__version__"]


def __getattr__(name: str) -> ModuleType:
    """``knock.NAME`` for a part of the application: the module, imported now."""
    if name in PARTS:
        return importlib.import_module(f"knock.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
