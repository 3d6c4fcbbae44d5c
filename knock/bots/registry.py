"""Every bot by name: ``make_bot`` and ``BOT_NAMES`` (what ``--bots``, the web lobby and the environments offer)."""

from __future__ import annotations

from knock.bots.base import Bot, RandomBot
from knock.bots.heuristic import GreedyBot, HeuristicBot
from knock.bots.search import LEVELS, make_level
from knock.bots.simple import SimpleBot

__all__ = ["BOT_NAMES", "make_bot"]


def make_bot(name: str, seed: int = 0) -> Bot:
    """A bot by name: ``heuristic``, ``greedy``, ``random`` (seeded), ``simple`` (seeded: the EAAI baseline) or a
    search level (seeded: ``easy``, ``medium``, ``hard``, ``expert``, ``knock.bots.search.LEVELS``)."""
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
    raise ValueError(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}")


BOT_NAMES = ("heuristic", "greedy", "random", "simple", *LEVELS)
