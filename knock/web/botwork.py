"""Where a server's bots think: one interface, in a worker thread of the server's process or in other processes.

A table asks its bot for a move as a ``BotMove`` (the bot's name, its seed, the seat's observation and its legal
actions: VIS-2, nothing else) and gets the move's text back. ``choose`` answers one in the calling process; a
runner answers them off the event loop: ``ThreadBots`` in a worker thread (the default: a bot's search holds the
interpreter's lock, so the loop answers between its steps), ``ProcessBots`` in a pool of other processes (the
server's loop never waits on a bot's search; the operator bounds the pool). Both give the same move for the same
``BotMove``: a bot is made afresh for every move and is a function of its seed and what it is shown (PROTO-14).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Protocol

from engine.actions import Action
from engine.visibility import Observation
from knock.bots import RandomBot, make_bot
from knock.bots.search import LEVELS


@dataclass(frozen=True, slots=True)
class BotMove:
    """One move asked of a bot: which bot, the seed of the random bot's choice (PROTO-14), the seat's own
    observation and its legal actions."""

    bot: str
    seed: int
    observation: Observation
    legal: tuple[Action, ...]


def choose(move: BotMove) -> str:
    """The move's answer, as the action's text: the bot made afresh, shown the seat's observation only."""
    bot = RandomBot(move.seed) if move.bot == "random" else make_bot(move.bot)
    return str(bot.choose(move.observation, list(move.legal)))


class BotRunner(Protocol):
    """Answers bots' moves off the event loop."""

    async def choose(self, move: BotMove) -> str:
        """The move's answer (``choose``)."""
        ...

    def close(self) -> None:
        """Stop its workers (the server is stopping)."""
        ...


class ThreadBots:
    """Each move in a worker thread of this process."""

    async def choose(self, move: BotMove) -> str:
        return await asyncio.to_thread(choose, move)

    def close(self) -> None:
        pass


class ProcessBots:
    """Each move in one of ``workers`` other processes (started with ``spawn``: nothing of the server's state,
    sockets or locks goes with them)."""

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"a pool of bots needs at least one process, not {workers}")
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_orphan_watch, initargs=(os.getpid(),))  # fmt: skip

    async def choose(self, move: BotMove) -> str:
        return await asyncio.get_running_loop().run_in_executor(self.pool, choose, move)

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)  # its workers joined: nothing of theirs left behind


def _orphan_watch(parent: int) -> None:
    """In a bot worker: end it once the server that started it is gone (killed, it cannot shut its pool down; its
    workers would wait on their queue for ever)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="orphan-watch", daemon=True).start()


#: The bots that search (the levels of ``knock.bots.search.LEVELS`` with a budget: ``hard``'s is 0, the heuristic's
#: moves): a move of theirs takes tens of milliseconds of CPU.
SEARCHING = frozenset(name for name, level in LEVELS.items() if level.budget > 0)


class Bounded:
    """A runner whose moves in flight are counted: ``busy`` once ``bound`` of them are asked and not yet answered
    (the workers' and those queued for them). Every move asked is still answered — a table's bot must move —
    but a server refuses new tables against the searching bots while it is busy. Rule: PROTO-17."""

    def __init__(self, runner: BotRunner, bound: int) -> None:
        self.runner = runner
        self.bound = bound
        self.in_flight = 0

    @property
    def busy(self) -> bool:
        return self.bound > 0 and self.in_flight >= self.bound

    async def choose(self, move: BotMove) -> str:
        self.in_flight += 1
        try:
            return await self.runner.choose(move)
        finally:
            self.in_flight -= 1

    def close(self) -> None:
        self.runner.close()
