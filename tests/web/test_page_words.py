"""The page words seats and hands' results as the server's narration does (#64: one narration, not two
drifting): the page's own modules (``seatName`` in knock/web/static/js/dom.js, ``resultWords`` in showdown.js),
run by Node 20, give the same text as ``replay.narration.display_names`` and ``result_text`` for every kind of
result, to each reader ("you") and to a spectator, with names that are missing, shared, or read as a seat's number
or as "you"."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.scoring import HandResult, ResultKind
from knock.web import views
from replay.narration import Voice, display_names, result_text

ROOT = Path(__file__).resolve().parents[2]
NAMES = [("ann", "bob"), ("ann", " Ann ", "carl"), ("p1", "you"), ("", "Nobody", "p2"), ("zoë", "ann", "ZOË")]
RESULTS = [
    HandResult(ResultKind.KNOCK, 0, 15, knocker=0, deadwood=(4, 19), seats=(0, 1)),
    HandResult(ResultKind.KNOCK, 2, 30, knocker=2, deadwood=(0, 30), seats=(0, 2), multiplier=2),
    HandResult(ResultKind.GIN, 1, 70, knocker=1, deadwood=(10, 0), seats=(0, 1), multiplier=2),
    HandResult(ResultKind.BIG_GIN, 0, 61, knocker=0, deadwood=(0, 30), seats=(0, 1)),
    HandResult(ResultKind.UNDERCUT, 1, 29, knocker=0, deadwood=(8, 3), seats=(0, 1)),
    HandResult(ResultKind.TIE, None, 0, knocker=1, deadwood=(5, 5), seats=(1, 2)),
    *(HandResult(ResultKind.DEAD, None, 0, reason=why, seats=(0, 1)) for why in ("stock", "pickup cap")),
    HandResult(ResultKind.DEAD, None, 0, reason="last discard declined", seats=(0, 1)),
]


def page(cases: dict[str, object]) -> dict[str, list[object]]:
    node = shutil.which("node")
    assert node is not None, "the page's modules run in Node 20"
    done = subprocess.run([node, str(ROOT / "tests" / "support" / "page_words.mjs"), json.dumps(cases)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out: dict[str, list[object]] = json.loads(done.stdout)
    return out


@pytest.mark.rule("SCORE-1", "SCORE-6", "DEAD-1", "DEAD-2", "DEAD-3")
def test_the_page_words_names_and_results_as_the_narration_does() -> None:
    three = ("ann", "bob", "carl")
    readers = [(r, players, me) for r in RESULTS for players in (("ann", "bob"), three) for me in (None, 0, 1, 2)
               if me is None or me < len(players)]  # fmt: skip
    results = [{"result": views.result(r), "players": list(p), "me": me} for r, p, me in readers]
    cases = {"names": [list(n) for n in NAMES], "results": results}
    said = page(cases)
    assert said["names"] == [list(display_names(n)) for n in NAMES]
    want = [result_text(r, Voice(display_names(p), me=me, seats=len(p))) for r, p, me in readers]
    assert said["results"] == want
    assert "you knock with 4 against bob's 19: you score 15 points" in want  # the words a player reads (#64)
