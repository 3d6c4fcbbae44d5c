"""Many seeded bot games, in batches over local processes or a Dask cluster: the engine behind ``knock simulate``.

Game i of a run is seeded ``seed + i`` and seats the bots rotated by i, so a game's log depends only on
the rule set, the bots and its seed: the same seed gives the same bytes however many workers play.
With ``logs``, each game is written atomically as ``game-SEED.knock`` and each finished batch adds a
part to the run's manifest (``_manifest/``): every game's log name, size, SHA-256 and result. A run
started again into the same place skips the games the manifest lists whose logs are still there.
Games run on the engine's compiled executor, its performance mode (``engine.fsm``).
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from engine.chance import SeededChance
from engine.fairdeal import FairChance, demo_chance
from engine.match import Match
from engine.rules import RuleSet
from engine.scoring import ResultKind
from knock.bots import make_bot, play_match
from knock.cluster.runner import Runner, stopped
from knock.cluster.storage import MANIFEST as MANIFEST  # a run's manifest folder: where it is named
from knock.cluster.storage import Store, check_output, read_many
from replay.log import write_log
from replay.signing import SigningKey

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
    """Games played by one task; with ``logs``, their logs and a manifest part are written there. The games are
    a ``Jobs`` range (its bounds only: planning costs the client the same for 10 games a batch as for 250) or a
    tuple. ``done``: the manifest parts that may list some of them as finished (a run started again), read and
    checked on the worker."""

    jobs: Sequence[Job]
    logs: str | None = None
    tag: str = ""  #: the run's id, in temporary file names
    sign: bytes | None = None  #: the secret key (seed) that signs the logs (LOG-17), or None
    done: tuple[str, ...] = ()


def play_batch(batch: Batch) -> Tally:
    """Play a batch of games (in a worker) and fold their results there: the client receives one tally a batch,
    not a summary a game. A game the batch's manifest parts list, whose log is there as recorded, is counted as
    skipped, not played. The manifest part is written once every log of the batch is."""
    store = Store(batch.logs) if batch.logs is not None else None
    done = finished_among(store, batch.done, {job.log_name for job in batch.jobs}) if store and batch.done else {}
    tally = Tally()
    out: list[GameSummary] = []
    for job in batch.jobs:
        if stopped():  # the run was stopped on the client: the games finished are kept, in a part of their own
            break
        if (summary := done.get(job.key)) is not None:
            tally.add(summary, skipped=True)
            continue
        out.append(play_one(job, store, batch.tag, batch.sign))
        tally.add(out[-1])
    if store is not None and out:
        digest = hashlib.sha256("".join(s.key for s in out).encode()).hexdigest()[:12]
        part = json.dumps({"games": [s.to_json() for s in out]}, separators=(",", ":")).encode()
        seeds = [s.seed for s in out]
        store.write(f"{MANIFEST}/{min(seeds)}-{max(seeds)}-{len(out)}-{digest}.json", part, batch.tag)
    return tally


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
        self.first = 0  #: the run's index of this sequence's first game (``part``)

    def part(self, start: int, stop: int) -> Jobs:
        """Games ``start`` to ``stop - 1`` of this sequence, as a sequence of their own holding only its bounds."""
        start, stop, _ = slice(start, stop).indices(self.games)
        sub = copy.copy(self)  # every attribute (a later one too), then the bounds
        sub.first, sub.games = self.first + start, max(0, stop - start)
        return sub

    @property
    def seeds(self) -> tuple[int, int]:
        """The first and the last seed (the seeds of a ``Jobs`` are consecutive)."""
        return self.seed + self.first, self.seed + self.first + self.games - 1

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
        i = i % self.games + self.first
        n = len(self.seats)
        return Job(self.wire, tuple(self.seats[(k + i) % n] for k in range(n)), self.seed + i, self.fair)

    def __iter__(self) -> Iterator[Job]:
        return (self[i] for i in range(self.games))


def jobs(rules: RuleSet, bots: Sequence[str], games: int, seed: int) -> list[Job]:
    """The games of a small run as a list (``Jobs`` made whole); ``knock simulate`` keeps ``Jobs`` lazy."""
    return list(Jobs(rules, bots, games, seed))


def manifest_parts(store: Store) -> list[str]:
    """The names of a store's manifest parts (only the manifest's folder is listed, not the logs)."""
    return sorted(n for n in store.sizes(MANIFEST) if n.endswith(".json"))


def part_bounds(name: str) -> tuple[int, int, int] | None:
    """A manifest part's lowest and highest seed and its number of games, from its name
    (``_manifest/LOW-HIGH-GAMES-DIGEST.json``); None for a name of an earlier release (``FIRST-GAMES-DIGEST``), whose
    seeds it does not bound."""
    fields = name.rpartition("/")[2].removesuffix(".json").split("-")
    if len(fields) == 4 and all(f.isdigit() for f in fields[:3]):
        return int(fields[0]), int(fields[1]), int(fields[2])
    return None


def manifest_entries(store: Store, parts: Sequence[str]) -> Iterator[GameSummary]:
    """Every entry of the parts named, read many at once."""
    for data in read_many(store, parts):
        yield from (GameSummary.from_json(entry) for entry in json.loads(data)["games"])


def finished_among(store: Store, parts: Sequence[str], logs: set[str] | None = None) -> dict[str, GameSummary]:
    """The games the manifest parts named list whose logs are there as recorded (of ``logs`` only, if given), by
    job key. A log is taken to be as recorded when its size matches; when several games have written the same log
    (other bots on the same seeds), when its SHA-256 matches."""
    by_log: dict[str, dict[str, GameSummary]] = {}
    for summary in manifest_entries(store, parts):
        if summary.log is not None and (logs is None or summary.log in logs):
            by_log.setdefault(summary.log, {})[summary.key] = summary
    done: dict[str, GameSummary] = {}
    for log, entries in by_log.items():
        size = store.size(log)
        entries = {k: s for k, s in entries.items() if s.size == size}
        if len(entries) > 1:
            digest = hashlib.sha256(store.read(log)).hexdigest()
            entries = {k: s for k, s in entries.items() if s.sha256 == digest}
        done.update(entries)
    return done


def finished(store: Store) -> dict[str, GameSummary]:
    """Every game a store's manifest lists whose log is there as recorded, by job key (``finished_among``)."""
    return finished_among(store, manifest_parts(store))


class PartIndex:
    """A manifest's parts by the seeds they hold: which a batch of a run started again must read. Asked for
    batches in the order of their seeds (as a run makes them) it sweeps the parts once."""

    def __init__(self, names: Sequence[str]) -> None:
        bounded: list[tuple[int, int, str]] = []
        self.unbounded: tuple[str, ...] = ()
        self.games = 0  #: the games the parts list (from their names; an earlier release's names count too)
        for name in names:
            bounds = part_bounds(name)
            if bounds is None:
                self.unbounded += (name,)
                fields = name.rpartition("/")[2].split("-")
                self.games += int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else 0
            else:
                bounded.append((bounds[0], bounds[1], name))
                self.games += bounds[2]
        self.parts = sorted(bounded)
        self._next, self._active, self._low = 0, list[tuple[int, int, str]](), -1

    def __bool__(self) -> bool:
        return bool(self.parts or self.unbounded)

    def among(self, low: int, high: int) -> tuple[str, ...]:
        """The parts that may list a game of a seed from ``low`` to ``high``."""
        if low < self._low:  # out of order: sweep again from the start
            self._next, self._active = 0, []
        self._low = low
        while self._next < len(self.parts) and self.parts[self._next][0] <= high:
            self._active.append(self.parts[self._next])
            self._next += 1
        self._active = [p for p in self._active if p[1] >= low]
        return tuple(name for first, _, name in self._active if first <= high) + self.unbounded


def batches(todo: Sequence[Job], size: int, logs: str | None, tag: str, sign: bytes | None = None,
            index: PartIndex | None = None) -> Iterator[Batch]:  # fmt: skip
    """The jobs in batches of ``size``, made one at a time as the runner asks for them: of a ``Jobs``, ranges
    (their bounds only); with ``index``, each with the manifest parts that may list some of its games."""
    for start in range(0, len(todo), size):
        chunk: Sequence[Job] = (todo.part(start, start + size) if isinstance(todo, Jobs)
                                else tuple(todo[start : start + size]))  # fmt: skip
        done: tuple[str, ...] = ()
        if index:
            low, high = chunk.seeds if isinstance(chunk, Jobs) else (min(j.seed for j in chunk),
                                                                     max(j.seed for j in chunk))  # fmt: skip
            done = index.among(low, high)
        yield Batch(chunk, logs, tag, sign, done)


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
    grow with the number of games (``Jobs`` of 10⁹ games runs until stopped in the memory of a few batches); a
    ``Jobs`` travels as ranges, so planning costs the client per batch, not per game. Started again, the client
    lists only the manifest's folder (its parts' names bound their seeds); each batch reads the parts that may
    list its games and checks their logs on its worker.
    """
    tally = tally if tally is not None else Tally()
    games, skipped = tally.games, tally.skipped
    store: Store | None = None
    index: PartIndex | None = None
    if logs is not None:  # resolved and checked here, on the client: workers see it as named
        logs = check_output(logs)
        store = Store(logs)
        if not store.object_store:
            store.makedirs()
        runner.reaches(logs)
        store.remove_leftovers()  # what earlier runs stopped or killed left (one run writes into a folder at a time)
        index = PartIndex(manifest_parts(store))  # the logs are not listed: each batch checks its own on its worker
    # the batch size from the games left (the manifest's entries are taken to be of this run's games)
    left = max(0, len(todo) - (index.games if index else 0))
    work = batches(todo, size or batch_size(left, runner.workers), logs, runner.run_id, sign, index)
    count = 0
    for part in runner.map(play, work):
        count += 1
        tally.merge(part)
        if tick:
            tick(part.games)
    if store is not None:
        store.remove_leftovers(runner.run_id)
    skipped = tally.skipped - skipped
    return Report(tally, tally.games - games - skipped, skipped, runner.retried, count)
