"""Fuzzing the readers (LOG-13): a few seconds of ``tools/fuzz.py``'s structured mutations in the suite, and every
input that once crashed a reader kept as a regression case.

``tests/replay/data/crashers/`` holds inputs that, before issue #13, ended in something other than a
``LogError``: damaged per-seat views (a result whose scores are not a list, a hand record of the wrong length,
an upcard hidden as 255, card codes given as text) and arrays nested 1,000 deep in a rule value or a result
record (a ``RecursionError`` while the message was made); and one found by a million-input run after views
were checked as far as their seat can (LOG-16): a forged knock result naming no knocker, whose refusal
tripped over its own message.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from replay.verdict import judge
from tests.support import fuzz

CRASHERS = sorted((Path(__file__).parent / "data" / "crashers").glob("*.knock"))
POOL = fuzz.seeds(limit=6)


@pytest.mark.rule("LOG-13", "LOG-2")
@pytest.mark.parametrize("path", CRASHERS, ids=lambda p: p.stem)
def test_an_input_that_once_crashed_a_reader_now_fails_cleanly_everywhere(path: Path) -> None:
    data = path.read_bytes()
    assert fuzz.check(data) is None  # every entry point: a result or a LogError
    verdict = judge(data)
    assert verdict.kind == "fail" and not verdict.internal and verdict.record is not None, verdict.message


@pytest.mark.rule("LOG-13", "LOG-2", "LOG-6", "LOG-7", "LOG-8", "LOG-12")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_few_seconds_of_structured_fuzzing_find_no_crash(seed: int) -> None:
    tally = fuzz.Tally()
    for data, found in fuzz.fuzz(random.Random(seed), POOL, 300):
        tally.inputs += 1
        if found is not None:
            tally.record(data, found)
    assert tally.inputs == 300
    assert not tally.crashes, "\n\n".join(trace for _, trace in tally.crashes.values())


@pytest.mark.rule("LOG-2")
def test_every_mutation_kind_yields_bytes() -> None:
    rng = random.Random(5)
    inputs = [fuzz.mutate(rng, POOL) for _ in range(200)]
    assert sum(data not in POOL for data in inputs) > 150  # most are changed; a few seeds go through whole
    assert any(data in POOL for data in inputs)
    values = fuzz.decode(POOL[0])
    assert values is not None and fuzz.encode(values, rechain=True) == POOL[0]  # re-encoding a log is exact
