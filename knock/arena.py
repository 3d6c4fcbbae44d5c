"""Bots measured against each other: paired seeds with seats swapped, the engine behind ``knock arena``.

Every pairing of two different bots plays each seed twice, the second time with the seats swapped (the same
deal, the same cut for the deal: each bot holds in one game the cards the other held in the other), so luck of
the cards cancels within a *seed pair*. A unit is a whole game (``mode = "games"``, to the rule set's target)
or a single hand (``mode = "hands"``, dealt by the seed's parity). A bot's score in a seed pair is its wins
(a dead or drawn hand counting a half) over the two, and everything is summarised over seed pairs: the win
rate with a 95% interval over the pairs (normal, from the pairs' spread), points per unit, hand statistics,
and an Elo ladder fitted to every pairing (Bradley-Terry, by maximum likelihood) with 95% intervals from a
bootstrap over the seed numbers (a resampled seed keeps every pairing's pair of it, so pairings stay matched).

Seeds count up from ``seed`` (``ACCEPTANCE_SEED`` by default: 10⁹ and up, seeds never used while tuning a bot).
The results are plain values, one ``PairResult`` per pairing and seed, that a results file holds a JSON line
each (``--resume`` continues one); the summary of a set of them does not depend on the order they came in,
so any number of workers gives the same figures.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import Action
from engine.hand import Hand
from engine.match import Match
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind
from engine.visibility import Observation
from knock.bots import Bot, make_bot, play_hand, play_match

#: The first acceptance seed: bots are tuned on seeds below it, measured from it up.
ACCEPTANCE_SEED = 10**9
MODES = ("games", "hands")
#: The games a bot plays against itself for its fingerprint (``bot_print``): their seeds and target.
PRINT_SEEDS = (0, 1)
PRINT_TARGET = 25
#: The outcomes a hand's statistics count, per bot (as knocker, or as the defender for ``undercut_by``).
HAND_STATS = ("hands", "won", "points", "knocks", "gins", "big_gins", "undercut", "undercut_by", "dead")


@dataclass(frozen=True, slots=True)
class Config:
    """What an arena run plays: the rule set, the bots, the mode and the seeds' start. A results file's first
    line; a run resumed must be the same."""

    rules: dict[str, Any]
    bots: tuple[str, ...]
    mode: str = "games"
    seed: int = ACCEPTANCE_SEED

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {self.mode!r}")
        if len(set(self.bots)) != len(self.bots) or len(self.bots) < 2:
            raise ValueError("give two or more different bots")
        if RuleSet.from_dict(self.rules).players != 2:
            raise ValueError("the arena plays two-player rule sets (three-handed Gin is not paired)")

    @property
    def pairings(self) -> list[tuple[str, str]]:
        """Every two bots, in the order given."""
        return list(itertools.combinations(self.bots, 2))

    def to_json(self) -> dict[str, Any]:
        return {"arena": 1, "rules": self.rules, "bots": list(self.bots), "mode": self.mode, "seed": self.seed}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Config:
        return Config(dict(d["rules"]), tuple(d["bots"]), str(d["mode"]), int(d["seed"]))


@dataclass(frozen=True, slots=True)
class Unit:
    """One game or hand of a seed pair, from the first bot's side: its result, its points and the opponent's,
    and per bot its hand statistics (``HAND_STATS``, in order)."""

    score: float  #: 1 won, 0 lost, 0.5 neither (a dead or tied hand)
    points: int  #: the first bot's points (its final total in a game)
    against: int  #: the second bot's
    stats: tuple[tuple[int, ...], tuple[int, ...]]

    def to_json(self) -> list[Any]:
        return [self.score, self.points, self.against, [list(s) for s in self.stats]]

    @staticmethod
    def from_json(d: list[Any]) -> Unit:
        return Unit(float(d[0]), int(d[1]), int(d[2]), (tuple(d[3][0]), tuple(d[3][1])))


@dataclass(frozen=True, slots=True)
class PairResult:
    """A pairing's two units of one seed: the first bot in seat 0, then in seat 1."""

    a: str
    b: str
    seed: int
    units: tuple[Unit, Unit]

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.a, self.b, self.seed)

    @property
    def score(self) -> float:
        """The first bot's share of the pair (0 .. 1)."""
        return (self.units[0].score + self.units[1].score) / 2

    def to_json(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "seed": self.seed, "units": [u.to_json() for u in self.units]}

    @staticmethod
    def from_json(d: dict[str, Any]) -> PairResult:
        u = d["units"]
        return PairResult(str(d["a"]), str(d["b"]), int(d["seed"]), (Unit.from_json(u[0]), Unit.from_json(u[1])))


def _hand_stats(results: Iterable[HandResult], seat: int) -> tuple[int, ...]:
    """A seat's hand statistics over a game's results (``HAND_STATS``)."""
    n = won = points = knocks = gins = big = undercut = undercut_by = dead = 0
    for r in results:
        n += 1
        dead += r.kind is ResultKind.DEAD
        if r.winner == seat:
            won, points = won + 1, points + r.points
        if r.knocker == seat:
            knocks += 1
            gins += r.kind is ResultKind.GIN
            big += r.kind is ResultKind.BIG_GIN
            undercut_by += r.kind is ResultKind.UNDERCUT
        elif r.knocker is not None and r.kind is ResultKind.UNDERCUT:
            undercut += 1
    return (n, won, points, knocks, gins, big, undercut, undercut_by, dead)


#: The decisions a unit may take before the arena gives up on it: no game between bots that play to win comes
#: near (a game to 100 takes hundreds), but two bots that keep taking each other's discards never end a hand (the
#: stock does not shrink), and a bot of one's own (``knock.bots.external``) may.
MAX_MOVES = 200_000


class _Counted:
    """A bot whose decisions in a unit are counted: past ``MAX_MOVES`` the unit stops with an error naming it."""

    def __init__(self, bot: Bot, moves: list[int], bots: tuple[str, str], seed: int) -> None:
        self.bot, self.moves, self.bots, self.seed = bot, moves, bots, seed
        self.name = bot.name

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        self.moves[0] += 1
        if self.moves[0] > MAX_MOVES:
            raise RuntimeError(f"{' against '.join(self.bots)}, seed {self.seed}: no end after {MAX_MOVES:,} "
                               "decisions (bots that never draw from the stock never end a hand)")  # fmt: skip
        return self.bot.choose(obs, legal)


def play_unit(config: Config, bots: tuple[str, str], seed: int) -> tuple[float, tuple[int, int], list[HandResult]]:
    """One game or hand with ``bots`` in seats 0 and 1: seat 0's score, both seats' points, the hands' results.
    Each bot is seeded from the seed and its seat, so a unit depends only on the config, the seat order and
    the seed."""
    rules = RuleSet.from_dict(config.rules)
    moves = [0]
    players = [_Counted(make_bot(name, seed * 7 + seat), moves, bots, seed) for seat, name in enumerate(bots)]
    if config.mode == "games":
        match = play_match(Match.new(rules, seed=seed, executor="compiled"), players)
        totals = match.standings().totals
        score = 1.0 if match.winner == 0 else 0.0
        return score, (totals[0], totals[1]), list(match.results)
    hand = play_hand(Hand.deal(rules, seed=seed, dealer=seed % 2, executor="compiled"), players)
    result = hand.result
    assert result is not None
    pts = (result.points if result.winner == 0 else 0, result.points if result.winner == 1 else 0)
    return (0.5 if result.winner is None else float(result.winner == 0)), pts, [result]


def play_pair(config: Config, a: str, b: str, seed: int) -> PairResult:
    """A seed pair: ``a`` in seat 0 then in seat 1, each unit seen from ``a``'s side."""
    units: list[Unit] = []
    for a_seat in (0, 1):
        seats = (a, b) if a_seat == 0 else (b, a)
        score, pts, results = play_unit(config, seats, seed)
        b_seat = 1 - a_seat
        mine = score if a_seat == 0 else 1.0 - score
        stats = (_hand_stats(results, a_seat), _hand_stats(results, b_seat))
        units.append(Unit(mine, pts[a_seat], pts[b_seat], stats))
    return PairResult(a, b, seed, (units[0], units[1]))


@dataclass(frozen=True, slots=True)
class Task:
    """Seed pairs of one pairing, played by one worker."""

    config: Config
    a: str
    b: str
    seeds: tuple[int, ...]


def play_task(task: Task) -> list[PairResult]:
    return [play_pair(task.config, task.a, task.b, s) for s in task.seeds]


def plan(config: Config, pairs: int, done: Iterable[tuple[str, str, int]], batch: int = 10) -> Iterator[Task]:
    """The tasks still to play for ``pairs`` seed pairs of every pairing, those ``done`` left out, made as they are
    asked for (the same memory for any number of pairs): ``batch`` seeds at a time, every pairing's task for them
    in turn, so that a run stopped early has every pairing measured alike."""
    skip = set(done)
    for start in range(config.seed, config.seed + pairs, batch):
        chunk = range(start, min(start + batch, config.seed + pairs))
        for a, b in config.pairings:
            seeds = tuple(s for s in chunk if (a, b, s) not in skip)
            if seeds:
                yield Task(config, a, b, seeds)


def prefix_scores(
    config: Config, done: dict[tuple[str, str, int], PairResult], pairs: int, start: int = 0
) -> list[float]:
    """The first pairing's seed-pair scores from the run's first seed on (after the first ``start`` of them,
    already read), in seed order, up to the first pair not yet played (of ``pairs``): what a running score and a
    sequential test read, the same for any worker count."""
    a, b = config.pairings[0]
    out: list[float] = []
    for s in range(config.seed + start, config.seed + pairs):
        r = done.get((a, b, s))
        if r is None:
            break
        out.append(r.score)
    return out


# --- the summary ---------------------------------------------------------------------------------------------


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal, from the values' sample spread); one value: an interval of 0."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.959964 * sd / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass(frozen=True, slots=True)
class PairingLine:
    """A pairing summarised over its seed pairs, from the first bot's side."""

    a: str
    b: str
    pairs: int
    win: tuple[float, float, float]  #: the first bot's win rate, its 95% interval over seed pairs
    points: tuple[float, float, float]  #: the first bot's points per unit less the second's, its interval
    points_a: float  #: the first bot's points per unit
    points_b: float


@dataclass(frozen=True, slots=True)
class LadderLine:
    bot: str
    elo: float
    low: float
    high: float
    score: float  #: its share of every unit it played


@dataclass
class Summary:
    config: Config
    pairings: list[PairingLine]
    ladder: list[LadderLine]
    hands: dict[str, dict[str, float]]  #: per bot: its hand statistics, as totals and rates
    pairs: int  #: seed pairs per pairing (the fewest any pairing has)
    units: int
    bootstrap: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def summarise(config: Config, results: Iterable[PairResult], bootstrap: int = 200) -> Summary:
    """Every figure of a run, from its pair results in any order (sorted first: the same figures however they
    came)."""
    rows = sorted(results, key=lambda r: r.key)
    by_pairing: dict[tuple[str, str], list[PairResult]] = {p: [] for p in config.pairings}
    for r in rows:
        by_pairing.setdefault((r.a, r.b), []).append(r)
    lines = []
    for (a, b), rs in by_pairing.items():
        if not rs:
            continue
        mean, low, high = mean_interval([r.score for r in rs])
        win = (mean, max(low, 0.0), min(high, 1.0))  # a rate's interval stays within 0 .. 1
        margin = mean_interval([sum(u.points - u.against for u in r.units) / 2 for r in rs])
        pa = sum(u.points for r in rs for u in r.units) / (2 * len(rs))
        pb = sum(u.against for r in rs for u in r.units) / (2 * len(rs))
        lines.append(PairingLine(a, b, len(rs), win, margin, pa, pb))
    ladder = _ladder(config, by_pairing, bootstrap)
    hands = _hands(config, rows)
    counts = [len(rs) for rs in by_pairing.values()]
    return Summary(config, lines, ladder, hands, min(counts) if counts else 0, 2 * len(rows), bootstrap)


def _hands(config: Config, rows: Sequence[PairResult]) -> dict[str, dict[str, float]]:
    totals: dict[str, list[int]] = {bot: [0] * len(HAND_STATS) for bot in config.bots}
    for r in rows:
        for u in r.units:
            for bot, stats in zip((r.a, r.b), u.stats, strict=True):
                totals[bot] = [x + y for x, y in zip(totals[bot], stats, strict=True)]
    out: dict[str, dict[str, float]] = {}
    for bot, t in totals.items():
        d = dict(zip(HAND_STATS, t, strict=True))
        n = max(d["hands"], 1)
        out[bot] = {
            **{k: float(v) for k, v in d.items()},
            "won_rate": d["won"] / n,
            "points_per_hand_won": d["points"] / max(d["won"], 1),
            "knock_rate": d["knocks"] / n,
            "gin_rate": d["gins"] / n,
            "undercut_rate": d["undercut_by"] / max(d["knocks"], 1),  #: of its knocks, undercut
            "dead_rate": d["dead"] / n,
        }
    return out


def bradley_terry(bots: Sequence[str], games: dict[tuple[str, str], tuple[float, float]]) -> dict[str, float]:
    """Elo ratings (mean 1500) maximising the likelihood of the scores, ``games[(a, b)] = (a's score, units)``,
    with one drawn unit added to each pairing (so that a bot that won or lost everything has a finite rating)."""
    strength = dict.fromkeys(bots, 1.0)
    wins = dict.fromkeys(bots, 0.0)
    for (a, b), (score, n) in games.items():  # one drawn unit added to each pairing keeps every rating finite
        wins[a] += score + 0.5
        wins[b] += n - score + 0.5
    for _ in range(500):  # the MM iteration (Hunter 2004)
        new = {}
        for bot in bots:
            denom = 0.0
            for (a, b), (_, n) in games.items():
                if bot in (a, b):
                    other = b if bot == a else a
                    denom += (n + 1) / (strength[bot] + strength[other])
            new[bot] = wins[bot] / denom if denom else strength[bot]
        scale = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        change = max(abs(math.log(new[k] / scale / strength[k])) for k in bots)
        strength = {k: v / scale for k, v in new.items()}
        if change < 1e-10:
            break
    elo = {k: 400 * math.log10(v) for k, v in strength.items()}
    mean = sum(elo.values()) / len(elo)
    return {k: round(1500 + v - mean, 6) for k, v in elo.items()}


def _ladder(config: Config, by_pairing: dict[tuple[str, str], list[PairResult]], bootstrap: int) -> list[LadderLine]:
    def games(sample: Sequence[int] | None) -> dict[tuple[str, str], tuple[float, float]]:
        out = {}
        for p, rs in by_pairing.items():
            if not rs:
                continue
            index = {r.seed: r for r in rs}
            chosen = [index[s] for s in sample if s in index] if sample is not None else rs
            out[p] = (sum(2 * r.score for r in chosen), 2.0 * len(chosen))
        return out

    played = [b for b in config.bots if any(b in p and rs for p, rs in by_pairing.items())]
    if len(played) < 2:
        return []
    point = bradley_terry(played, games(None))
    seeds = sorted({r.seed for rs in by_pairing.values() for r in rs})
    rng = random.Random(0)
    draws: dict[str, list[float]] = {b: [] for b in played}
    for _ in range(bootstrap):
        sample = [seeds[int(rng.random() * len(seeds))] for _ in seeds]
        counts: dict[int, int] = {}
        for s in sample:
            counts[s] = counts.get(s, 0) + 1
        fit = bradley_terry(played, _weighted(by_pairing, counts))
        for b in played:
            draws[b].append(fit[b])
    lines = []
    for b in played:
        ds = sorted(draws[b])
        low, high = (ds[int(0.025 * len(ds))], ds[min(len(ds) - 1, int(0.975 * len(ds)))]) if ds else (point[b],) * 2
        units = [(r, i) for p, rs in by_pairing.items() if b in p for r in rs for i in range(2)]
        share = sum(r.units[i].score if r.a == b else 1 - r.units[i].score for r, i in units) / max(len(units), 1)
        lines.append(LadderLine(b, point[b], low, high, share))
    return sorted(lines, key=lambda line: -line.elo)


def _weighted(
    by_pairing: dict[tuple[str, str], list[PairResult]], counts: dict[int, int]
) -> dict[tuple[str, str], tuple[float, float]]:
    out = {}
    for p, rs in by_pairing.items():
        score = sum(2 * r.score * counts.get(r.seed, 0) for r in rs)
        n = sum(2.0 * counts.get(r.seed, 0) for r in rs)
        if n:
            out[p] = (score, n)
    return out


# --- the results file ------------------------------------------------------------------------------------------


def read_results(text: str) -> tuple[Config, list[PairResult]]:
    """A results file: its config line, then a pair result a line (a torn last line, from a run stopped while
    it wrote, is left out)."""
    lines = text.splitlines()
    if not lines:
        raise ValueError("an empty results file")
    config = Config.from_json(json.loads(lines[0]))
    out: dict[tuple[str, str, int], PairResult] = {}
    for i, line in enumerate(lines[1:], 2):
        try:
            r = PairResult.from_json(json.loads(line))
        except (ValueError, KeyError, IndexError, TypeError):
            if i == len(lines):
                break
            raise ValueError(f"line {i} of the results file is not a pair result") from None
        out[r.key] = r
    return config, list(out.values())


def result_line(result: PairResult) -> str:
    return json.dumps(result.to_json(), separators=(",", ":")) + "\n"


def config_line(config: Config, prints: dict[str, str] | None = None) -> str:
    """A results file's first line: the config, and the bots' fingerprints (``bot_print``) when given."""
    d = config.to_json() | ({"prints": dict(prints)} if prints else {})
    return json.dumps(d, separators=(",", ":"), sort_keys=True) + "\n"


def read_prints(text: str) -> dict[str, str] | None:
    """The bots' fingerprints a results file's first line records, or None (a file begun before 2026-12-06)."""
    first = json.loads(text.split("\n", 1)[0])
    prints = first.get("prints") if isinstance(first, dict) else None
    return {str(k): str(v) for k, v in prints.items()} if isinstance(prints, dict) else None


def bot_print(rules: dict[str, Any], name: str) -> str:
    """A bot's fingerprint under a rule set: a digest of its moves in short games against itself (to
    ``PRINT_TARGET`` points, the run's rules otherwise, dealt from ``PRINT_SEEDS``), so that the game's scores
    count as they do in a run. A bot whose code plays otherwise gets another, so that a results file begun by one
    bot is not continued by another of the same name (``knock arena --resume`` refuses it)."""
    digest = hashlib.sha256()
    short = RuleSet.from_dict(rules | {"target": PRINT_TARGET})
    for seed in PRINT_SEEDS:
        bots = [make_bot(name, seed * 7 + seat) for seat in (0, 1)]
        match = play_match(Match.new(short, seed=seed, executor="compiled"), bots)
        digest.update("".join(f"{event!r}\n" for event in match.events).encode() + b"|")
    return digest.hexdigest()[:16]
