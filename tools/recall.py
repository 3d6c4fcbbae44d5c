#!/usr/bin/env python3
"""Check that the OpenSpiel game's information states have perfect recall (ENV-12; tests.support.recall).

    .venv/bin/python tools/recall.py                 # 20,000 random hands on each reduced deck below
    .venv/bin/python tools/recall.py --hands 2000 --seed 3

On each configuration, random hands from random deals; at every acting node the acting player's
information-state string and tensor are matched against the oracle's key (the hand's events through his
SeatLens, and his own actions). Prints, per configuration, how many distinct strings and tensors stand for how
many information sets, and how many are merged (one value for several sets) or split (several values for one
set); the observation string, which is not meant to recall, is shown for comparison. Exits 1 unless the
information states correspond one to one.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the check lives in tests/support

import pyspiel

import knock.envs.openspiel  # noqa: F401 -- registers python_knock_gin
from tests.support.recall import check_recall

CONFIGS = {
    "5x2-h3 choice": {"deck_ranks": 5, "deck_suits": 2, "hand_size": 3, "showdown": "choice"},
    "6x3-h4 choice": {"deck_ranks": 6, "deck_suits": 3, "hand_size": 4, "showdown": "choice"},
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20_000, help="random hands per configuration")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    ok = True
    for name, params in CONFIGS.items():
        start = time.perf_counter()
        report = check_recall(pyspiel.load_game("python_knock_gin", params), args.hands, args.seed)
        print(f"{name}: {report} ({time.perf_counter() - start:.0f} s)", flush=True)
        ok = ok and all(c.one_to_one for c in report.checks if c.name.startswith("information-state"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
