"""spec/fair-vectors.json read as an outside implementation would: the derivation written here from the words of
spec/rules.md (DEAL-6 .. DEAL-9), then Knock's Python derivation and its JavaScript one (Node 20) on the same
vectors."""

from __future__ import annotations

import hashlib
import hmac
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine import fairdeal
from engine.cards import Card

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "spec" / "fair-vectors.json").read_text("utf-8"))
CASES = VECTORS["cases"]


def spec_deck(server: bytes, seeds: list[bytes], purpose: bytes, number: int) -> list[int]:
    """DEAL-6 .. DEAL-8 from the spec's words: HMAC blocks in counter mode, bytes rejected at or above the
    largest multiple of n below 256, Fisher–Yates from the last position down."""
    prefix = b"knock-fair/1" + purpose + number.to_bytes(8, "big") + bytes([len(seeds)]) + b"".join(seeds)
    blocks = (hmac.new(server, prefix + i.to_bytes(4, "big"), hashlib.sha256).digest() for i in range(1000))
    source = (b for block in blocks for b in block)
    deck = list(range(52))
    for i in range(51, 0, -1):
        n = i + 1
        j = next(b for b in source if b < 256 - 256 % n) % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.rule("DEAL-6", "DEAL-7", "DEAL-8", "DEAL-9")
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_vectors_follow_from_the_spec_alone(case: dict[str, Any]) -> None:
    server = bytes.fromhex(case["server"])
    seeds = [bytes.fromhex(s) for s in case["seeds"]]
    assert hashlib.sha256(server).hexdigest() == case["commitment"]
    for seat, sent in enumerate(case["sent"]):
        if sent is None:
            label = b"knock-fair-seat/1" + case["number"].to_bytes(8, "big") + bytes([seat])
            assert seeds[seat] == hmac.new(server, label, hashlib.sha256).digest()
            assert seat in case["supplied"]
        else:
            assert seeds[seat].hex() == sent and seat not in case["supplied"]
    assert spec_deck(server, seeds, b"D", case["number"]) == case["deal"]
    assert spec_deck(server, seeds, b"C", 0) == case["draw"]
    assert " ".join(str(Card.from_index(c)) for c in case["deal"]) == case["deal_text"]


@pytest.mark.rule("DEAL-5", "DEAL-6", "DEAL-8", "DEAL-9")
@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_python_derivation_gives_the_vectors(case: dict[str, Any]) -> None:
    server = bytes.fromhex(case["server"])
    sent = [None if s is None else bytes.fromhex(s) for s in case["sent"]]
    seeds = fairdeal.FairSeeds.gather(case["number"], server, sent)
    assert [s.hex() for s in seeds.seats] == case["seeds"] and list(seeds.supplied) == case["supplied"]
    assert seeds.commitment.hex() == case["commitment"]
    stream = fairdeal.stream(server, seeds.seats, fairdeal.DEAL, case["number"])
    assert bytes(next(stream) for _ in range(96)).hex() == case["stream"]
    assert list(fairdeal.deal_codes(server, seeds.seats, case["number"])) == case["deal"]
    assert list(fairdeal.draw_codes(server, seeds.seats)) == case["draw"]
    assert fairdeal.check(seeds.seats, seeds.supplied, server, seeds.commitment, case["number"]) == tuple(case["deal"])


@pytest.mark.rule("DEAL-6", "DEAL-7", "DEAL-8", "DEAL-9", "DEAL-10")
def test_the_javascript_derivation_gives_the_vectors() -> None:
    node = shutil.which("node")
    assert node is not None, "the JavaScript derivation is checked with Node 20 (globalThis.crypto.subtle)"
    script = ROOT / "tests" / "support" / "fair_vectors.mjs"
    run = subprocess.run([node, str(script), str(ROOT / "spec" / "fair-vectors.json")], capture_output=True,
                         text=True, timeout=60)  # fmt: skip
    assert run.returncode == 0, run.stderr + run.stdout
    assert run.stdout.split() == ["ok"] * len(CASES) + ["tamper-caught"]


def test_the_vectors_file_is_what_the_derivation_writes() -> None:
    import sys

    sys.path.insert(0, str(ROOT / "tools"))
    import fair_vectors  # tools/ is not a package

    assert (ROOT / "spec" / "fair-vectors.json").read_text("utf-8") == fair_vectors.text()
