"""Many seeded bot games, in batches over local processes or a Dask cluster: the engine behind ``knock simulate``.

Game i of a run is seeded ``seed + i`` and seats the bots rotated by i, so a game's log depends only on
the rule set, the bots and its seed: the same seed gives the same bytes however many workers play.
With ``logs``, each game is written atomically as ``game-SEED.knock`` and each finished batch adds a
part to the run's manifest (``_manifest/``): every game's log name, size, SHA-256 and result. A run
started again into the same place skips the games the manifest lists whose logs are still there.
Games run on the engine's compiled executor, its performance mode (``engine.fsm``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, overload

from engine.bots import make_bot, play_match
from engine.fairdeal import FairChance, demo_chance
from engine.match import Match, SeededChance
from engine.rules import RuleSet
from engine.scoring import ResultKind
from knock.cluster.runner import Runner, stopped
from knock.cluster.storage import TEMP_MARK, Store, check_output
from replay.log import write_log
from replay.signing import SigningKey

MANIFEST = "_manifest"
READERS = 16  #: manifest parts read at once when a run starts again
#: A game of more hands than this is reported as very long: bots that seldom knock (random against random,
#: about 100 hands a game) play many dead hands; well-matched bots play 2 to 20.
LONG_GAME = 50


@dataclass(frozen=True, slots=True)
class Job:
    """One game to play: its rule set, the bot at each seat, its seed, and whether it is dealt fairly (DEAL-5)."""

    rules: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    fair: bool = False

    @property
    def log_name(self) -> str:
        return f"game-{self.seed}.knock"

    @property
    def key(self) -> str:
        """What the game is, as a digest: a manifest entry stands for this job only if its key matches."""
        what: list[Any] = [self.rules, list(self.bots), self.seed] + (["fair"] if self.fair else [])
        text = json.dumps(what, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:24]


@dataclass(frozen=True, slots=True)
class GameSummary:
    seed: int
    bots: tuple[str, ...]  #: the bot at each seat
    winner: int
    totals: tuple[int, ...]
    hands: int
    dead_hands: int
    log: str | None = None  #: the log's name in the logs folder
    size: int = 0  #: the log's size in bytes
    sha256: str = ""  #: the digest of the log's bytes
    key: str = ""  #: the job's key

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "bots": list(self.bots), "winner": self.winner, "totals": list(self.totals),
                "hands": self.hands, "dead_hands": self.dead_hands, "log": self.log, "size": self.size,
                "sha256": self.sha256, "key": self.key}  # fmt: skip

    @staticmethod
    def from_json(d: dict[str, Any]) -> GameSummary:
        return GameSummary(int(d["seed"]), tuple(d["bots"]), int(d["winner"]), tuple(d["totals"]), int(d["hands"]),
                           int(d["dead_hands"]), d["log"], int(d["size"]), str(d["sha256"]), str(d["key"]))  # fmt: skip


def play_one(job: Job, store: Store | None = None, tag: str = "", sign: bytes | None = None) -> GameSummary:
    """One game: bots seated by the job, seeded; with a store, its log written there atomically (signed with the
    secret key ``sign``, a 32-byte seed, LOG-17)."""
    rules = RuleSet.from_dict(job.rules)
    bots = [make_bot(name, job.seed * 7 + seat) for seat, name in enumerate(job.bots)]
    chance = demo_chance(rules.players, job.seed) if job.fair else SeededChance(job.seed)
    match = play_match(Match(rules, chance, executor="compiled"), bots)
    st = match.standings()
    assert st.winner is not None
    dead = sum(1 for r in match.results if r.kind is ResultKind.DEAD)
    summary = GameSummary(job.seed, job.bots, st.winner, st.totals, match.number, dead, key=job.key)
    if store is None:
        return summary
    names = [f"{name}#{seat}" for seat, name in enumerate(job.bots)]
    key = SigningKey(sign) if sign is not None else None
    fair = chance if isinstance(chance, FairChance) else None
    data = write_log(match, players=names, meta={"seed": job.seed, "tool": "knock simulate"}, key=key, fair=fair)
    store.write(job.log_name, data, tag)
    digest = hashlib.sha256(data).hexdigest()
    return GameSummary(job.seed, job.bots, st.winner, st.totals, match.number, dead, job.log_name, len(data), digest,
                       job.key)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Batch:
    """Games played by one task; with ``logs``, their logs and a manifest part are written there."""

    jobs: tuple[Job, ...]
    logs: str | None = None
    tag: str = ""  #: the run's id, in temporary file names
    sign: bytes | None = None  #: the secret key (seed) that signs the logs (LOG-17), or None


def play_batch(batch: Batch) -> Tally:
    """Play a batch of games (in a worker) and fold their results there: the client receives one tally a batch,
    not a summary a game. The manifest part is written once every log of the batch is."""
    store = Store(batch.logs) if batch.logs is not None else None
    out: list[GameSummary] = []
    for job in batch.jobs:
        if stopped():  # the run was stopped on the client: the games finished are kept, in a part of their own
            break
        out.append(play_one(job, store, batch.tag, batch.sign))
    if store is not None and out:
        digest = hashlib.sha256("".join(s.key for s in out).encode()).hexdigest()[:12]
        part = json.dumps({"games": [s.to_json() for s in out]}, separators=(",", ":")).encode()
        store.write(f"{MANIFEST}/{out[0].seed}-{len(out)}-{digest}.json", part, batch.tag)
    return Tally.of(out)


class Jobs(Sequence[Job]):
    """The games of a run, made as they are asked for: game i is seeded ``seed + i`` and rotates the bots one
    seat, so each bot plays every seat in turn. Like ``range``, it holds only its bounds: a run of 10⁹ games
    is planned in the same memory as one of ten.
    """

    def __init__(self, rules: RuleSet, bots: Sequence[str], games: int, seed: int, fair: bool = False) -> None:
        n = rules.players
        self.fair = fair
        self.seats = tuple(bots[i % len(bots)] for i in range(n))
        self.wire = rules.to_dict()
        self.games, self.seed = games, seed

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, i: int) -> Job: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Job]: ...
    def __getitem__(self, i: int | slice) -> Job | Sequence[Job]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(self.games))]
        if not -self.games <= i < self.games:
            raise IndexError(i)
        i %= self.games
        n = len(self.seats)
        return Job(self.wire, tuple(self.seats[(k + i) % n] for k in range(n)), self.seed + i, self.fair)

    def __iter__(self) -> Iterator[Job]:
        return (self[i] for i in range(self.games))


def jobs(rules: RuleSet, bots: Sequence[str], games: int, seed: int) -> list[Job]:
    """The games of a small run as a list (``Jobs`` made whole); ``knock simulate`` keeps ``Jobs`` lazy."""
    return list(Jobs(rules, bots, games, seed))


def finished(store: Store, sizes: dict[str, int] | None = None) -> dict[str, GameSummary]:
    """The games a store's manifest lists whose logs are there as recorded, by job key. A log is taken to
    be as recorded when its size matches; when several games have written the same log (other bots on the
    same seeds), when its SHA-256 matches. ``sizes``: the store's listing, if made already.
    """
    sizes = store.sizes() if sizes is None else sizes
    by_log: dict[str, dict[str, GameSummary]] = {}
    parts = sorted(n for n in sizes if n.startswith(f"{MANIFEST}/") and n.endswith(".json"))
    with ThreadPoolExecutor(max_workers=READERS) as pool:  # an object store answers many reads at once
        for start in range(0, len(parts), 4 * READERS):
            for data in pool.map(store.read, parts[start : start + 4 * READERS]):
                for entry in json.loads(data)["games"]:
                    summary = GameSummary.from_json(entry)
                    if summary.log is not None and sizes.get(summary.log) == summary.size:
                        by_log.setdefault(summary.log, {})[summary.key] = summary
    done: dict[str, GameSummary] = {}
    for log, entries in by_log.items():
        if len(entries) > 1:
            digest = hashlib.sha256(store.read(log)).hexdigest()
            entries = {k: s for k, s in entries.items() if s.sha256 == digest}
        done.update(entries)
    return done


def batches(todo: Iterable[Job], size: int, logs: str | None, tag: str, sign: bytes | None = None) -> Iterator[Batch]:
    """The jobs in batches of ``size``, made one at a time as the runner asks for them."""
    it = iter(todo)
    while chunk := tuple(itertools.islice(it, size)):
        yield Batch(chunk, logs, tag, sign)


def batch_size(games: int, workers: int) -> int:
    """About four batches per worker, so that a slow one does not hold up the end, and at most 250 games."""
    return max(1, min(250, math.ceil(games / (4 * workers))))


@dataclass
class Tally:
    """A run's results folded as they arrive (constant memory): per bot, seats played, wins, total points."""

    games: int = 0
    hands: int = 0
    dead_hands: int = 0
    seats: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    skipped: int = 0  #: games a run found already written (in the manifest), not played again
    skipped_hands: int = 0
    long_games: int = 0  #: games of more than LONG_GAME hands
    longest: tuple[int, int] = (0, 0)  #: the most hands a game took, and that game's seed

    def add(self, r: GameSummary, *, skipped: bool = False) -> None:
        self.games += 1
        self.hands += r.hands
        self.dead_hands += r.dead_hands
        if skipped:
            self.skipped += 1
            self.skipped_hands += r.hands
        self.long_games += r.hands > LONG_GAME
        if r.hands > self.longest[0]:
            self.longest = (r.hands, r.seed)
        for seat, bot in enumerate(r.bots):
            self.seats[bot] = self.seats.get(bot, 0) + 1
            self.wins[bot] = self.wins.get(bot, 0) + (r.winner == seat)
            self.points[bot] = self.points.get(bot, 0) + r.totals[seat]

    @staticmethod
    def of(results: Iterable[GameSummary]) -> Tally:
        tally = Tally()
        for r in results:
            tally.add(r)
        return tally

    def merge(self, other: Tally) -> None:
        """Fold another tally in (a batch's, folded on its worker)."""
        self.games += other.games
        self.hands += other.hands
        self.dead_hands += other.dead_hands
        self.skipped += other.skipped
        self.skipped_hands += other.skipped_hands
        self.long_games += other.long_games
        if other.longest[0] > self.longest[0]:
            self.longest = other.longest
        for mine, theirs in ((self.seats, other.seats), (self.wins, other.wins), (self.points, other.points)):
            for bot, n in theirs.items():
                mine[bot] = mine.get(bot, 0) + n


@dataclass(frozen=True, slots=True)
class BotLine:
    bot: str
    seats_played: int
    wins: int
    average_total: float


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % for the default ``z``): sound near 0 and 1 and for few games.

    >>> tuple(round(x, 3) for x in wilson(60, 100))
    (0.502, 0.691)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(results: Tally | Iterable[GameSummary]) -> Iterator[BotLine]:
    """Per bot: seats played, games won, average final total."""
    tally = results if isinstance(results, Tally) else Tally()
    if not isinstance(results, Tally):
        for r in results:
            tally.add(r)
    for name in sorted(tally.seats):
        seats = tally.seats[name]
        yield BotLine(name, seats, tally.wins[name], tally.points[name] / seats if seats else 0.0)


@dataclass(frozen=True, slots=True)
class Report:
    tally: Tally
    played: int  #: games played by this run
    skipped: int  #: games the manifest showed finished by an earlier run
    retried: int  #: batches that started more than once (a worker was lost while it ran them)
    batches: int


def run(
    todo: Sequence[Job],
    runner: Runner,
    logs: str | None = None,
    size: int = 0,
    tick: Callable[[int], None] | None = None,
    tally: Tally | None = None,
    play: Callable[[Batch], Tally] = play_batch,
    sign: bytes | None = None,
) -> Report:
    """Play every job not already finished in ``logs`` (per its manifest), in batches of ``size`` games
    (0: about four batches per worker) on the runner; ``tick(n)`` after each batch of n games. Results fold
    into ``tally`` as they arrive, so a run cut short (Ctrl-C) leaves the tally of the games finished. ``play``
    runs a batch (``tools/bench_cluster.py`` gives a stand-in that plays nothing, to time the client alone).

    The jobs are read lazily and the runner holds a bounded number of batches in flight, so memory does not
    grow with the number of games (``Jobs`` of 10⁹ games runs until stopped in the memory of a few batches).
    """
    tally = tally if tally is not None else Tally()
    store: Store | None = None
    done: dict[str, GameSummary] = {}
    if logs is not None:  # resolved and checked here, on the client: workers see it as named
        logs = check_output(logs)
        store = Store(logs)
        if not store.object_store:
            store.makedirs()
        runner.reaches(logs)
        sizes = store.sizes()
        # what earlier runs stopped or killed left behind (one run writes into a folder at a time)
        store.remove([name for name in sizes if TEMP_MARK in name])
        done = finished(store, sizes)
    skipped = 0
    planned = 0

    def remaining() -> Iterator[Job]:
        nonlocal skipped, planned
        for job in todo:
            summary = done.get(job.key) if done else None  # a key is a digest: made only when needed
            if summary is None:
                planned += 1
                yield job
                continue
            tally.add(summary, skipped=True)
            skipped += 1
            if tick:
                tick(1)

    # the batch size from the games left (the manifest's entries are taken to be of this run's games)
    left = max(0, len(todo) - len(done))
    work = batches(remaining(), size or batch_size(left, runner.workers), logs, runner.run_id, sign)
    count = 0
    for part in runner.map(play, work):
        count += 1
        tally.merge(part)
        if tick:
            tick(part.games)
    if store is not None:
        store.remove_leftovers(runner.run_id)
    return Report(tally, planned, skipped, runner.retried, count)
