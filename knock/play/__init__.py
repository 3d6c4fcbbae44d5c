"""Terminal play: a person against bots, the engine behind ``knock play``. Rules: VIS-1, THREE-7, THREE-8, LOG-5.

- ``words`` reads what the person types (cards in any notation the screen shows, moves, the table's words);
- ``screen`` writes what the table shows (events in plain words, the status line, options, the score sheet);
- ``coach`` gives the ``hint``;
- ``session`` holds a game: its setup, the match, the bots and every move;
- ``saves`` keeps the game's log, the save file: new names, resuming, and branching on ``undo`` (one save per
  game: the log, and ``NAME.branches/`` for the logs undo leaves behind);
- ``table`` runs the prompts (``TerminalTable``: one person at one game), line by line;
- ``board`` gathers what the board shows; ``tui`` draws it in place on a terminal (Textual, the ``board`` extra:
  imported only there).
"""

from __future__ import annotations

from knock.play.saves import FOLDER, Save, fresh_path, resume
from knock.play.session import BOT_CHOICES, TOOL, PlayError, Session, Setup
from knock.play.table import Quit, TerminalTable

__all__ = ["BOT_CHOICES", "FOLDER", "TOOL", "PlayError", "Quit", "Save", "Session", "Setup", "TerminalTable",
           "fresh_path", "resume"]  # fmt: skip
