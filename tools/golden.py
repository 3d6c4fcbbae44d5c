#!/usr/bin/env python3
"""Regenerate the golden game logs under tests/golden (on purpose only: they must replay forever).

    .venv/bin/python tools/golden.py           # write tests/golden/*.knock and their .txt transcripts
    .venv/bin/python tools/golden.py --check   # exit 1 if a regenerated log would differ
    .venv/bin/python tools/golden.py --check --executor library   # the same, with transitions running every step

Each golden game is a seeded bot game; the transcript beside it is the replayed game as text. The games are
played and replayed on the engine's compiled executor (its performance mode) unless ``--executor library``
is given; both must give the same bytes.
``tests/replay/test_golden.py`` replays every committed log and diffs its transcript.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.fsm import EXECUTOR_NAMES, ExecutorName
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, HeuristicBot, RandomBot, play_match
from replay.log import write_log
from replay.replayer import Replayer

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

#: name -> (preset, options, seed); the first eight are the original golden games and keep their names
GAMES: dict[str, tuple[str, dict[str, object], int]] = {
    "standard-1": ("standard", {}, 1),
    "standard-random-2": ("standard", {"undercut_on_tie": False}, 2),
    "oklahoma-3": ("oklahoma", {"spades_double": True}, 3),
    "oklahoma-gin-only-4": ("oklahoma", {"oklahoma_ace": "gin_only", "big_gin_bonus": 31}, 4),
    "three-handed-5": ("three_handed", {}, 5),
    "three-handed-extras-6": ("three_handed", {"box_bonus": 25, "game_bonus": 100, "shutout": "flat_100"}, 6),
    "hollywood-7": ("standard", {"hollywood": True, "box_bonus": 20}, 7),
    "wall-8": ("standard", {"wall_pickup_to_knock": True, "max_consecutive_discard_pickups": 6}, 8),
}

#: More games across the presets and options, each under two seeds (their bots differ by seed).
VARIANTS: dict[str, tuple[str, dict[str, object]]] = {
    "standard-plain": ("standard", {}),
    "straight-gin": ("standard", {"knock_limit_value": 0, "target": 60}),
    "low-limit": ("standard", {"knock_limit_value": 4}),
    "loser-deals": ("standard", {"next_dealer": "loser"}),
    "alternate-no-tie-undercut": ("standard", {"next_dealer": "alternate", "undercut_on_tie": False}),
    "discard-taken": ("standard", {"may_discard_taken_card": True}),
    "bonuses": ("standard", {"big_gin_bonus": 31, "gin_bonus": 20, "undercut_bonus": 25}),
    "suit-order-shutout": ("standard", {"cut_tiebreak": "suit_order", "game_bonus": 100, "shutout": "double_total"}),
    "pickup-cap": ("standard", {"max_consecutive_discard_pickups": 3}),
    "fiftieth-card": ("standard", {"wall_pickup_to_knock": True}),
    "hollywood": ("standard", {"hollywood": True}),
    "oklahoma-plain": ("oklahoma", {}),
    "oklahoma-spades": ("oklahoma", {"spades_double": True, "box_bonus": 25, "spades_double_boxes": True}),
    "oklahoma-ace-gin": ("oklahoma", {"oklahoma_ace": "gin_only", "shutout": "flat_100"}),
    "oklahoma-150": ("oklahoma", {"target": 150, "game_bonus": 50, "shutout": "double_hand_points"}),
    "oklahoma-hollywood": ("oklahoma", {"hollywood": True, "box_bonus": 10}),
    "three-plain": ("three_handed", {}),
    "three-box-wins": ("three_handed", {"three_handed_dead_hand": "box_wins"}),
    "three-public-sitter": ("three_handed", {"sitter_sees_captain_hand": False}),
    "three-immediate-boxes": ("three_handed", {"box_bonus": 25, "immediate_boxes": True}),
    "three-hollywood": ("three_handed", {"hollywood": True}),
    "three-oklahoma": ("three_handed", {"knock_limit": "upcard", "spades_double": True}),
    "three-game-bonus": ("three_handed", {"game_bonus": 100, "shutout": "double_game_bonus", "target": 150}),
    "three-fiftieth-card": ("three_handed", {"wall_pickup_to_knock": True, "cut_tiebreak": "suit_order"}),
    "kisses": ("standard", {"kisses": True, "box_bonus": 25}),
}
for _tag, (_preset, _options) in VARIANTS.items():
    for _seed in (11, 12):
        GAMES[f"{_tag}-{_seed}"] = (_preset, _options, 100 * len(GAMES) + _seed)


def play(preset: str, options: dict[str, object], seed: int, executor: ExecutorName = "compiled") -> Match:
    rules = RuleSet.preset(preset, **options)
    match = Match.new(rules, seed=seed, executor=executor)
    if seed < 100:  # the original eight
        bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
        return play_match(match, bots[: rules.players])
    pool: list[Bot] = [HeuristicBot(), GreedyBot(), RandomBot(seed)]
    rng = random.Random(seed)
    rng.shuffle(pool)
    return play_advised(match, pool[: rules.players], rng)


def play_advised(match: Match, bots: Sequence[Bot], rng: random.Random) -> Match:
    """Like ``play_match``; in three-handed play the sitter advises the captain on about one turn in four."""
    while (seat := match.to_act) is not None:
        assert match.hand is not None
        advice = match.advice_options()
        if advice and rng.random() < 0.25:
            match.apply(rng.choice(advice))
        match.apply(bots[seat].choose(match.seat_observation(seat), match.legal_actions()))
    return match


def transcript(data: bytes, executor: ExecutorName = "compiled") -> str:
    """The replayed game as text: one line per event."""
    match = Replayer(data, executor=executor).run()
    return "".join(f"{e}\n" for e in match.events)


#: The writer named in every golden log's header (LOG-1): the release that first wrote them, pinned so that the
#: goldens stay byte-identical from release to release (the field names a writer; it changes no rule).
GOLDEN_WRITER = "knock-gin 0.1.0"


def outputs(executor: ExecutorName = "compiled") -> dict[Path, bytes]:
    out: dict[Path, bytes] = {}
    for name, (preset, options, seed) in GAMES.items():
        data = write_log(play(preset, options, seed, executor), meta={"golden": name}, engine=GOLDEN_WRITER)
        out[GOLDEN / f"{name}.knock"] = data
        out[GOLDEN / f"{name}.txt"] = transcript(data, executor).encode()
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 if a regenerated log would differ")
    parser.add_argument("--executor", choices=EXECUTOR_NAMES, default="compiled", help="who runs the machines")
    args = parser.parse_args(argv)
    want = outputs(args.executor)
    stale = [p for p, data in want.items() if not p.exists() or p.read_bytes() != data]
    if args.check:
        for p in stale:
            print(f"would change: {p.name}")
        return 1 if stale else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for p, data in want.items():
        if p in stale:
            p.write_bytes(data)
            print(f"wrote {p.relative_to(GOLDEN.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
