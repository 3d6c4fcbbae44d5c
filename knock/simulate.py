"""Many seeded bot games, spread over processes: the engine behind ``knock simulate``."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.bots import make_bot, play_match
from engine.match import Match
from engine.rules import RuleSet
from engine.scoring import ResultKind
from replay.log import write_log


@dataclass(frozen=True, slots=True)
class GameSummary:
    seed: int
    bots: tuple[str, ...]  #: the bot at each seat
    winner: int
    totals: tuple[int, ...]
    hands: int
    dead_hands: int
    log: str | None


@dataclass(frozen=True, slots=True)
class Job:
    rules: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    log_dir: str | None


def play_one(job: Job) -> GameSummary:
    """One game: bots seated by the job, seeded, optionally logged (one file per game)."""
    rules = RuleSet.from_dict(job.rules)
    bots = [make_bot(name, job.seed * 7 + seat) for seat, name in enumerate(job.bots)]
    match = play_match(Match.new(rules, seed=job.seed), bots)
    path = None
    if job.log_dir is not None:
        path = str(Path(job.log_dir) / f"game-{job.seed}.knock")
        names = [f"{name}#{seat}" for seat, name in enumerate(job.bots)]
        Path(path).write_bytes(write_log(match, players=names, meta={"seed": job.seed, "tool": "knock simulate"}))
    st = match.standings()
    assert st.winner is not None
    dead = sum(1 for r in match.results if r.kind is ResultKind.DEAD)
    return GameSummary(job.seed, job.bots, st.winner, st.totals, match.number, dead, path)


def jobs(rules: RuleSet, bots: list[str], games: int, seed: int, log_dir: Path | None) -> list[Job]:
    """Game i is seeded ``seed + i`` and rotates the bots one seat, so each bot plays every seat in turn."""
    n = rules.players
    seats = [bots[i % len(bots)] for i in range(n)]
    out = []
    for i in range(games):
        rotated = tuple(seats[(k + i) % n] for k in range(n))
        out.append(Job(rules.to_dict(), rotated, seed + i, str(log_dir) if log_dir else None))
    return out


def run(all_jobs: list[Job], workers: int | None = None, tick: Callable[[], None] | None = None) -> list[GameSummary]:
    """Play every job, in parallel over ``workers`` processes (default: the machine's cores); in seed order."""
    workers = workers or os.cpu_count() or 1
    results: list[GameSummary] = []
    if workers == 1:
        for job in all_jobs:
            results.append(play_one(job))
            if tick:
                tick()
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for future in as_completed([pool.submit(play_one, job) for job in all_jobs]):
                results.append(future.result())
                if tick:
                    tick()
    return sorted(results, key=lambda r: r.seed)


@dataclass(frozen=True, slots=True)
class BotLine:
    bot: str
    seats_played: int
    wins: int
    average_total: float


def summarise(results: list[GameSummary]) -> Iterator[BotLine]:
    """Per bot: seats played, games won, average final total."""
    names = sorted({b for r in results for b in r.bots})
    for name in names:
        seats = [(r, s) for r in results for s, b in enumerate(r.bots) if b == name]
        wins = sum(1 for r, s in seats if r.winner == s)
        avg = sum(r.totals[s] for r, s in seats) / len(seats) if seats else 0.0
        yield BotLine(name, len(seats), wins, avg)
