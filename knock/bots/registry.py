"""Every bot by name: ``make_bot`` and ``BOT_NAMES`` (what ``--bots``, the web lobby and the environments offer)."""

from __future__ import annotations

from knock.bots.base import Bot, RandomBot
from knock.bots.external import is_reference, make_external
from knock.bots.heuristic import GreedyBot, HeuristicBot
from knock.bots.search import LEVELS, make_level
from knock.bots.simple import SimpleBot

__all__ = ["BOT_NAMES", "make_bot"]


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name: ``heuristic``, ``greedy``, ``random`` (seeded), ``simple`` (seeded: the EAAI baseline) or a
    search level (seeded: ``easy``, ``medium``, ``hard``, ``expert``, ``knock.bots.search.LEVELS``); or a bot
    outside this list by reference (``package.module:Class``, ``file.py:Class``, an entry point of the group
    ``knock.bots``: ``knock.bots.external``)."""
    if name == "random":
        return RandomBot(seed)
    if name == "greedy":
        return GreedyBot()
    if name == "heuristic":
        return HeuristicBot()
    if name == "simple":
        return SimpleBot(seed)
    if name in LEVELS:
        return make_level(name, seed)
    if is_reference(name):  # a bot outside the list: MODULE:NAME, FILE.py:NAME or an entry point (external.py)
        return make_external(name, seed)
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}, or MODULE:NAME / FILE.py:NAME")


BOT_NAMES = ("heuristic", "greedy", "random", "simple", *LEVELS)
