"""Knock's bots: players that choose from a seat's observation and its legal actions only (VIS-2), above the engine
and beside the application (``engine`` and ``replay`` never import them: an import-linter contract).

- ``Bot``, ``play_hand`` and ``play_match``: what a bot is, and a hand or a game played with one bot a seat;
- ``RandomBot``, ``GreedyBot``, ``HeuristicBot``: a uniform bot and two heuristic ones;
- ``SimpleBot``: the EAAI challenge's public baseline, ported (``EAAI_RULES``: that challenge's options);
- ``SearchBot``, ``LEVELS`` and ``make_level``: the determinized Monte-Carlo search bots (``easy`` … ``expert``);
- ``make_bot`` and ``BOT_NAMES``: every bot by name.

The modules, from the top: ``registry``; ``search``; ``heuristic`` and ``inference`` (the reading of the hidden hand);
``simple`` and ``rollout`` (the playouts); ``winprob`` and ``base``. No module imports one above it.

>>> from engine import Match
>>> game = play_match(Match.new(seed=7), [HeuristicBot(), make_bot("random", 1)])
>>> game.is_over
True
"""

from knock.bots.base import Bot, RandomBot, play_hand, play_match
from knock.bots.heuristic import GreedyBot, HeuristicBot
from knock.bots.registry import BOT_NAMES, make_bot
from knock.bots.search import LEVELS, Level, SearchBot, make_level
from knock.bots.simple import EAAI_RULES, SimpleBot

__all__ = [
    "BOT_NAMES",
    "EAAI_RULES",
    "LEVELS",
    "Bot",
    "GreedyBot",
    "HeuristicBot",
    "Level",
    "RandomBot",
    "SearchBot",
    "SimpleBot",
    "make_bot",
    "make_level",
    "play_hand",
    "play_match",
]
