#!/usr/bin/env python3
"""Write spec/fair-vectors.json: test vectors of fair dealing (spec/rules.md DEAL-5 .. DEAL-10).

    python tools/fair_vectors.py          # write the file
    python tools/fair_vectors.py --check  # exit 1 if it differs from what engine/fairdeal.py gives

``tests/spec/test_fair_vectors.py`` checks the file against the Python derivation and, with Node 20, against
``knock/web/static/js/fair.js``.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import sys
from pathlib import Path
from typing import Any

from engine import fairdeal

PATH = Path(__file__).resolve().parent.parent / "spec" / "fair-vectors.json"


def _seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


#: (name, server seed, the seeds the seats sent (None: none, the server supplies it), hand number)
CASES: list[tuple[str, bytes, list[bytes | None], int]] = [
    ("simple", bytes(32), [bytes([1]) * 32, bytes([2]) * 32], 1),
    ("two seats, hand 2, one seat's seed supplied", _seed("server 2"), [_seed("seat 0"), None], 2),
    ("three seats, hand 7, the sitter's seed supplied", _seed("server 3"), [_seed("a"), _seed("b"), None], 7),
    ("bots only: every seed supplied", _seed("server 4"), [None, None], 1),
    ("a large hand number", _seed("server 5"), [_seed("x"), _seed("y")], 2**40 + 3),
]


def vectors() -> dict[str, Any]:
    cases = []
    for name, server, sent, number in CASES:
        seeds = fairdeal.FairSeeds.gather(number, server, sent)
        cases.append({
            "name": name,
            "server": server.hex(),
            "number": number,
            "sent": [None if s is None else s.hex() for s in sent],
            "commitment": seeds.commitment.hex(),
            "seeds": [s.hex() for s in seeds.seats],
            "supplied": list(seeds.supplied),
            "stream": bytes(itertools.islice(fairdeal.stream(server, seeds.seats, fairdeal.DEAL, number), 96)).hex(),
            "deal": list(fairdeal.deal_codes(server, seeds.seats, number)),
            "deal_text": " ".join(str(c) for c in seeds.deck()),
            "draw": list(fairdeal.draw_codes(server, seeds.seats, 0)),
        })  # fmt: skip
    return {
        "about": "Fair dealing test vectors (spec/rules.md DEAL-5 .. DEAL-10): bytes as lowercase hex; 'sent' is what "
        "each seat sent (null: the server supplied its seed, DEAL-9); 'stream' the first 96 bytes of the hand's "
        "derivation (DEAL-6); 'deal' the deck order as card codes (DEAL-8), 'draw' the first draw deck's (from these "
        "seeds as the first hand's).",
        "cases": cases,
    }


def text() -> str:
    out = json.dumps(vectors(), indent=1, ensure_ascii=False) + "\n"
    return re.sub(r"\[\s*(\d+(?:,\s*\d+)*)\s*\]", lambda m: "[" + ", ".join(m[1].split()).replace(",,", ",") + "]", out)


def main(argv: list[str]) -> int:
    if argv == ["--check"]:
        if PATH.read_text("utf-8") != text():
            print(f"{PATH} is out of date: run python tools/fair_vectors.py", file=sys.stderr)
            return 1
        return 0
    if argv:
        print(__doc__, file=sys.stderr)
        return 2
    PATH.write_text(text(), "utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
