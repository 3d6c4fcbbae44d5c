#!/usr/bin/env python3
"""What each part of the search bot gains: single hands, paired seeds, against a bot (a development proxy).

    .venv/bin/python tools/research/search_parts.py --budget 120 --width 4 --margin 3                # every decision
    .venv/bin/python tools/research/search_parts.py --budget 40 --width 3 --margin 1 --only knock     # knocks only
    # the heuristic's choices:
    .venv/bin/python tools/research/search_parts.py --budget 2 --margin 1e9

Each seed from ``--seed`` (tuning seeds: below 10^9) deals one hand (dealer by the seed's parity) that is
played twice, seats swapped, by ``SearchBot(budget, width, margin)`` against ``--against`` (the compiled
executor). ``--only`` restricts the search to some decisions (``draw``, ``knock``, ``discard``, comma
separated): at the others the bot plays its first candidate, the heuristic's choice. It prints the bot's share
of the hands (a dead hand a half) with a 95% interval over the seed pairs, and its points a hand less the
opponent's. ``knock arena --hands`` measures the levels themselves; this isolates the parts.

``--deviations`` measures each move of the search that differs from its first candidate (the heuristic's
choice): played by ``SearchBot(budget, width, margin)`` against ``--against`` over ``--pairs`` seed pairs, at
each such move the hand is played on from the true state twice -- once after the search's move, once after the
first candidate -- with the stock reshuffled ``--reshuffles`` times (the same stock for both), the searching
seat continuing as the heuristic bot and the opponent as himself. It prints, by kind of decision (draw, knock,
discard) and by the search's own estimate of its lead (points a world), the lead the moves really had, with a
95% interval over the moves: where the estimate says more than the play does, the search follows noise or a
wrong model. ``--margin 0`` shows every lead:

    .venv/bin/python tools/research/search_parts.py --deviations --budget 240 --width 5 --margin 0 --pairs 40 \
        --seed 8620

``--oracle`` gives the search the opponent's true cards in every world (the stock still shuffled): a bound on
what reading his hand better could gain, not a bot.

``--calibration N`` asks how well the worlds read the opponent's hand: the heuristic bot (seat 0) plays N hands
against ``--against`` (seeds from ``--seed``) and, at each of its decisions, 400 worlds of the reading are drawn;
it prints, by the stock's size, the opponent's true deadwood against the worlds' mean, and at each decision where
seat 0 may knock with some deadwood, the share of the worlds in which the knock would be undercut against how
often it would be (his true cards). ``--tilts`` weighs the worlds also by ``exp(-t × draws × deadwood)`` (draws:
the cards drawn from the stock so far), a tilt towards the better-built hands a player who has drawn that often
holds -- a measure of what such a prior would do, not the bot's reading:

    .venv/bin/python tools/research/search_parts.py --calibration 300 --against heuristic --seed 9000 --tilts \
        0,0.005,0.01

``--awareness N`` weighs the score awareness (``knock.bots.winprob``) in games to 100: over N seed pairs from
``--seed`` (each game played twice, seats swapped, as ``knock arena`` plays them, the bots seeded alike),
``SearchBot(budget, width, margin)`` against ``--against`` with the game's scores and without them (its rollouts'
points taken as they are); it prints both win rates and their paired difference:

    .venv/bin/python tools/research/search_parts.py --awareness 300 --budget 240 --width 5 --margin 3 --against \
        heuristic

``--budgets A,B,..`` plays the same seed pairs of single hands at each budget (``--width``, ``--margin`` and
``--only`` as given) and prints each one's share and points a hand and, paired by seed, how far each differs from
the first budget's: what more simulations gain:

    .venv/bin/python tools/research/search_parts.py --budgets 240,480,960 --width 5 --margin 3 --pairs 300 --seed 20000

``--hand-points N`` instead plays N hands of the heuristic bot against itself (seeds 0 .. N-1) and prints the
winners' points in the buckets of ``knock.bots.winprob.HAND_POINTS`` (the score awareness's model):

    .venv/bin/python tools/research/search_parts.py --hand-points 20000
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import itertools
import math
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.actions import Action, Discard, DrawDiscard, DrawStock, Knock, PassUpcard, TakeUpcard  # noqa: E402
from engine.cards import shuffle, to_mask  # noqa: E402
from engine.hand import Hand  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.melds import deadwood  # noqa: E402
from engine.showdown import defence_deadwood  # noqa: E402
from engine.visibility import Observation  # noqa: E402
from knock.arena import mean_interval  # noqa: E402
from knock.bots import Bot, HeuristicBot, make_bot, play_hand, play_match  # noqa: E402
from knock.bots.inference import Reading, read, sample_hands, sample_world  # noqa: E402
from knock.bots.rollout import spread  # noqa: E402
from knock.bots.search import SearchBot  # noqa: E402

KINDS: dict[str, tuple[type, ...]] = {
    "draw": (DrawStock, PassUpcard, TakeUpcard, DrawDiscard),
    "knock": (Knock,),
    "discard": (Discard,),
}


class PartSearch(SearchBot):
    """The search bot searching only the decisions whose first candidate is of ``kinds``."""

    def __init__(self, kinds: tuple[type, ...], budget: int, width: int, seed: int, margin: float) -> None:
        super().__init__(budget, width, seed, margin=margin)
        self.kinds = kinds

    def _search(self, obs: Observation, legal: Sequence[Action], cands: list[Action]) -> Action:
        if not isinstance(cands[0], self.kinds):
            return cands[0]
        return super()._search(obs, legal, cands)


class OracleSearch(PartSearch):
    """The search bot whose worlds hold the opponent's true cards (the stock still shuffled): what a perfect
    reading of his hand would be worth (``--oracle``). It sees what no player may (VIS-2): a measure only."""

    def __init__(self, hand: Hand, kinds: tuple[type, ...], budget: int, width: int, seed: int, margin: float) -> None:
        super().__init__(kinds, budget, width, seed, margin)
        self.hand = hand

    def _worlds(self, rng: random.Random, reading: Reading, count: int) -> list[tuple[int, list[int]]]:
        seat = self.hand.to_act
        assert seat is not None
        opp = self.hand.mask_of(1 - seat)
        rest = tuple(i for i in reading.unseen if not opp >> i & 1)
        known = Reading(rest, opp, 0, reading.weight)  # his cards all known: the stock shuffled
        return [sample_world(rng, known) for _ in range(count)]


class FlatSearch(SearchBot):
    """The search bot without the game's scores: each rollout's points as they are (``--awareness``)."""

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        return super().choose(dataclasses.replace(obs, scores=()), legal)


def awareness(args: argparse.Namespace) -> None:
    """Games to 100, the search with and without the game's scores, paired by seed (``--awareness``)."""
    kinds: dict[str, list[float]] = {"with the scores": [], "without": []}
    for seed in range(args.seed, args.seed + args.awareness):
        for kind, make in (("with the scores", SearchBot), ("without", FlatSearch)):
            won = 0.0
            for me in (0, 1):
                bots: list[Bot] = [make_bot(args.against, seed * 7 + s) for s in (0, 1)]
                bots[me] = make(args.budget, args.width, seed * 7 + me, margin=args.margin)
                match = play_match(Match.new(seed=seed, executor="compiled"), bots)
                won += 0.5 * (match.winner == me)
            kinds[kind].append(won)
    pairs = args.awareness
    print(f"budget {args.budget} width {args.width} margin {args.margin} vs {args.against}, games to 100, "
          f"{pairs} seed pairs from {args.seed}:")  # fmt: skip
    for kind, shares in kinds.items():
        mean, low, high = mean_interval(shares)
        print(f"  {kind:15} {100 * mean:.1f}% ({100 * low:.1f}–{100 * high:.1f})")
    diff = [b - a for a, b in zip(kinds["with the scores"], kinds["without"], strict=True)]
    mean, low, high = mean_interval(diff)
    alike = sum(d == 0 for d in diff)
    interval = f"{100 * low:+.1f}–{100 * high:+.1f}"
    print(f"  without - with: {100 * mean:+.1f} points of share ({interval}); {alike} pairs alike")


def hand_points(hands: int) -> tuple[tuple[int, int], ...]:
    """The winners' points of ``hands`` hands of the heuristic bot against itself, in buckets of five points (65
    and more one bucket): each bucket's mean points and its share of the won hands in thousandths."""
    buckets: dict[int, list[int]] = {}
    for seed in range(hands):
        hand = play_hand(Hand.deal(seed=seed, dealer=seed % 2, executor="compiled"), [HeuristicBot(), HeuristicBot()])
        result = hand.result
        assert result is not None
        if result.winner is not None:
            bucket = buckets.setdefault(min(result.points // 5, 13), [0, 0])
            bucket[0] += result.points
            bucket[1] += 1
    won = sum(n for _, n in buckets.values())
    return tuple((round(total / n), round(1000 * n / won)) for _, (total, n) in sorted(buckets.items()))


def calibration(hands: int, against: str, first: int, tilts: Sequence[float]) -> None:
    """Print the worlds' reading of the opponent's hand against his true cards (``--calibration``)."""
    by_stock: dict[int, list[tuple[int, float]]] = {}
    knocks: list[tuple[bool, list[float]]] = []
    for seed in range(first, first + hands):
        hand = Hand.deal(seed=seed, dealer=seed % 2, executor="compiled")
        bots: list[Bot] = [HeuristicBot(), make_bot(against, seed)]
        while (seat := hand.to_act) is not None:
            obs, legal = hand.observation(seat), hand.legal_actions()
            if seat == 0 and len(legal) > 1 and obs.opponent_hand_size == obs.rules.hand_size:
                rng = random.Random(seed * 977 + obs.stock_size)
                reading = read(obs)
                worlds = sample_hands(rng, reading, 400)
                dead = [deadwood(w) for w in worlds]
                draws = obs.rules.stock_size - obs.stock_size
                least = min(dead)
                weights = [[math.exp(-t * draws * (d - least)) for d in dead] for t in tilts]
                truth = hand.mask_of(1)
                by_stock.setdefault(obs.stock_size // 4 * 4, []).append((deadwood(truth), statistics.fmean(dead)))
                options = [a for a in legal if isinstance(a, Knock)]
                if options:
                    mask = to_mask(obs.hand)
                    best = min(options, key=lambda a: (deadwood(mask ^ a.card.bit), -a.card.value, a.card.index))
                    kept = mask ^ best.card.bit
                    left = deadwood(kept)
                    if left > 0:
                        melds = spread(kept)
                        under = [defence_deadwood(melds, w) <= left for w in worlds]
                        shares = [sum(x for x, u in zip(w, under, strict=True) if u) / sum(w) for w in weights]
                        knocks.append((defence_deadwood(melds, truth) <= left, shares))
            hand.apply(bots[seat].choose(obs, legal))
    print(f"the heuristic bot against {against}, {hands} hands from seed {first}: the opponent's deadwood")
    for stock in sorted(by_stock, reverse=True):
        rows = by_stock[stock]
        true, read_ = statistics.fmean(r[0] for r in rows), statistics.fmean(r[1] for r in rows)
        print(f"  stock {stock:2}-{stock + 3:<2} {len(rows):5} decisions: true {true:5.1f}, the worlds' {read_:5.1f}")
    actual = statistics.fmean(float(k[0]) for k in knocks) if knocks else 0.0
    print(f"{len(knocks)} decisions where it may knock: undercut with his true cards {100 * actual:.1f}%")
    for n, t in enumerate(tilts):
        predicted = statistics.fmean(k[1][n] for k in knocks) if knocks else 0.0
        brier = statistics.fmean((k[1][n] - k[0]) ** 2 for k in knocks) if knocks else 0.0
        print(f"  tilt {t:g}: the worlds' share {100 * predicted:.1f}% (Brier score {brier:.4f})")


def deviations(args: argparse.Namespace) -> list[tuple[str, float, float]]:
    """Each deviation's (kind, estimated lead, realised lead): see the module's docstring."""

    def played_on(hand: Hand, me: int, opponent: Bot) -> int:
        bots = {me: HeuristicBot(), 1 - me: opponent}
        while (seat := hand.to_act) is not None:
            hand.apply(bots[seat].choose(hand.observation(seat), hand.legal_actions()))
        result = hand.result
        assert result is not None
        return 0 if result.winner is None else result.points if result.winner == me else -result.points

    rows: list[tuple[str, float, float]] = []
    for seed in range(args.seed, args.seed + args.pairs):
        for me in (0, 1):
            hand = Hand.deal(seed=seed, dealer=seed % 2, executor="compiled")
            bot = SearchBot(args.budget, args.width, seed, margin=args.margin)
            opponent = make_bot(args.against, seed)
            while (seat := hand.to_act) is not None:
                obs, legal = hand.observation(seat), hand.legal_actions()
                if seat != me:
                    hand.apply(opponent.choose(obs, legal))
                    continue
                action = bot.choose(obs, legal)
                if bot.last_search is not None and bot.last_search[1] != bot.last_search[0]:
                    first, best, lead = bot.last_search
                    knock = isinstance(first, Knock) or isinstance(best, Knock)
                    kind = "knock" if knock else "draw" if isinstance(first, KINDS["draw"]) else "discard"
                    rng = random.Random(seed * 1000 + len(hand.events))
                    leads = []
                    for _ in range(args.reshuffles):
                        base = hand.copy()
                        base.stock = list(shuffle(rng, base.stock))
                        outs = []
                        for move in (best, first):
                            branch = base.copy()
                            branch.apply(move)
                            outs.append(played_on(branch, me, copy.deepcopy(opponent)))
                        leads.append(outs[0] - outs[1])
                    rows.append((kind, lead, statistics.fmean(leads)))
                hand.apply(action)
    return rows


def print_deviations(rows: list[tuple[str, float, float]]) -> None:
    edges = (0.0, 1.0, 3.0, 6.0, math.inf)
    for kind in KINDS:
        for low, high in itertools.pairwise(edges):
            real = [r for k, est, r in rows if k == kind and low <= est < high]
            if len(real) > 1:
                mean = statistics.fmean(real)
                half = 1.96 * statistics.stdev(real) / math.sqrt(len(real))
                where = f"{kind:8} estimated lead {low:g}-{high:g}: {len(real):4} moves"
                print(f"{where}, real lead {mean:+.2f} (±{half:.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=int, default=120)
    parser.add_argument("--width", type=int, default=4)
    parser.add_argument("--margin", type=float, default=3.0)
    parser.add_argument("--only", default="draw,knock,discard")
    parser.add_argument("--against", default="simple")
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--hand-points", type=int, default=0, help="print HAND_POINTS from this many hands")
    parser.add_argument("--deviations", action="store_true", help="measure the moves that leave the first candidate")
    parser.add_argument("--reshuffles", type=int, default=20)
    parser.add_argument("--oracle", action="store_true", help="the search sees the opponent's cards (a bound)")
    parser.add_argument("--calibration", type=int, default=0, help="read the worlds against his cards in N hands")
    parser.add_argument("--tilts", default="0", help="--calibration's tilts, comma separated")
    parser.add_argument("--awareness", type=int, default=0, help="games with and without the scores, N seed pairs")
    parser.add_argument("--budgets", default="", help="single hands at each budget (comma separated), paired")
    args = parser.parse_args()
    if args.awareness:
        awareness(args)
        return
    if args.calibration:
        calibration(args.calibration, args.against, args.seed, [float(t) for t in args.tilts.split(",")])
        return
    if args.deviations:
        print_deviations(deviations(args))
        return
    if args.hand_points:
        print(hand_points(args.hand_points))
        return
    kinds = tuple(t for part in args.only.split(",") for t in KINDS[part])
    if args.budgets:
        budgets(args, kinds, [int(b) for b in args.budgets.split(",")])
        return
    shares, margins = single_hands(args, kinds, args.budget)
    mean, low, high = mean_interval(shares)
    print(
        f"budget {args.budget} width {args.width} margin {args.margin} only {args.only} vs {args.against}: "
        f"{len(shares)} seed pairs from {args.seed}: {100 * mean:.1f}% ({100 * low:.1f}–"
        f"{100 * high:.1f}), {statistics.fmean(margins) / 2:+.2f} points a hand"
    )


def single_hands(args: argparse.Namespace, kinds: tuple[type, ...], budget: int) -> tuple[list[float], list[int]]:
    """Each seed pair's share of the hands (a dead hand a half) and points won less lost, at ``budget``."""
    shares: list[float] = []
    margins: list[int] = []
    for seed in range(args.seed, args.seed + args.pairs):
        share = 0.0
        margin = 0
        for me in (0, 1):
            bots: list[Bot] = [make_bot(args.against, seed), make_bot(args.against, seed)]
            hand = Hand.deal(seed=seed, dealer=seed % 2, executor="compiled")
            search = (budget, args.width, seed, args.margin)
            bots[me] = OracleSearch(hand, kinds, *search) if args.oracle else PartSearch(kinds, *search)
            play_hand(hand, bots)
            result = hand.result
            assert result is not None
            if result.winner is None:
                share += 0.25
            elif result.winner == me:
                share += 0.5
                margin += result.points
            else:
                margin -= result.points
        shares.append(share)
        margins.append(margin)
    return shares, margins


def budgets(args: argparse.Namespace, kinds: tuple[type, ...], sizes: list[int]) -> None:
    """The same seed pairs at each budget (``--budgets``): each one's share and points, and its paired
    difference from the first budget's."""
    print(f"width {args.width} margin {args.margin} only {args.only} vs {args.against}, single hands, "
          f"{args.pairs} seed pairs from {args.seed}:")  # fmt: skip
    print("budget\thand share\tpoints a hand\tshare less the first's\tpoints less the first's")
    first: tuple[list[float], list[int]] | None = None
    for size in sizes:
        shares, margins = single_hands(args, kinds, size)
        mean, low, high = mean_interval(shares)
        points = statistics.fmean(margins) / 2
        line = f"{size}\t{100 * mean:.1f}% ({100 * low:.1f}–{100 * high:.1f})\t{points:+.2f}"
        if first is None:
            first = shares, margins
        else:
            d, dl, dh = mean_interval([a - b for a, b in zip(shares, first[0], strict=True)])
            p, pl, ph = mean_interval([(a - b) / 2 for a, b in zip(margins, first[1], strict=True)])
            line += f"\t{100 * d:+.1f} ({100 * dl:+.1f}–{100 * dh:+.1f})\t{p:+.2f} ({pl:+.2f}–{ph:+.2f})"
        print(line, flush=True)


if __name__ == "__main__":
    main()
