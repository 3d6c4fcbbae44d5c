#!/usr/bin/env python3
"""Regenerate the golden game logs under tests/golden (on purpose only: they must replay forever).

    .venv/bin/python tools/golden.py           # write tests/golden/*.knock and their .txt transcripts
    .venv/bin/python tools/golden.py --check   # exit 1 if a regenerated log would differ

Each golden game is a seeded bot game; the transcript beside it is the replayed game as text.
``tests/replay/test_golden.py`` replays every committed log and diffs its transcript.
"""

from __future__ import annotations

import sys
from pathlib import Path

from engine.bots import Bot, GreedyBot, RandomBot, play_match
from engine.match import Match
from engine.rules import RuleSet
from replay.log import write_log
from replay.replayer import Replayer

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"

#: name -> (preset, options, seed)
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


def play(preset: str, options: dict[str, object], seed: int) -> Match:
    rules = RuleSet.preset(preset, **options)
    bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
    return play_match(Match.new(rules, seed=seed), bots[: rules.players])


def transcript(data: bytes) -> str:
    """The replayed game as text: one line per event."""
    match = Replayer(data).run()
    return "".join(f"{e}\n" for e in match.events)


def outputs() -> dict[Path, bytes]:
    out: dict[Path, bytes] = {}
    for name, (preset, options, seed) in GAMES.items():
        data = write_log(play(preset, options, seed), meta={"golden": name})
        out[GOLDEN / f"{name}.knock"] = data
        out[GOLDEN / f"{name}.txt"] = transcript(data).encode()
    return out


def main(argv: list[str]) -> int:
    stale = [p for p, data in outputs().items() if not p.exists() or p.read_bytes() != data]
    if "--check" in argv:
        for p in stale:
            print(f"would change: {p.name}")
        return 1 if stale else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for p, data in outputs().items():
        if p in stale:
            p.write_bytes(data)
            print(f"wrote {p.relative_to(GOLDEN.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
