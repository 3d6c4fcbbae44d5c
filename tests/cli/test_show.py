"""``knock show`` and ``knock verify`` as an auditor meets them: unfinished logs, damaged ones, views, stepping."""

from __future__ import annotations

import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.match import Match
from knock.bots import GreedyBot, play_match
from replay.log import write_log
from replay.verdict import judge
from tests.cli.support import run as knock
from tests.cli.test_cli import GOLDEN

TRAILER = 37  #: the trailer's bytes: [9, count, bin 32]


@pytest.fixture
def logs(tmp_path: Path) -> dict[str, Path]:
    data = (GOLDEN / "standard-1.knock").read_bytes()
    flipped = bytearray(data)
    flipped[804] ^= 1  # record 81: p0's knock becomes a knock with a card he does not hold (TURN-3)
    out = {"full": GOLDEN / "standard-1.knock", "unfinished": tmp_path / "unfinished.knock",
           "midgame": tmp_path / "midgame.knock", "damaged": tmp_path / "damaged.knock"}  # fmt: skip
    out["unfinished"].write_bytes(data[:-TRAILER])
    game = Match.new(seed=11)
    game.play("p0 pass", "p1 pass", "p0 draw")
    out["midgame"].write_bytes(write_log(game, players=["ann", "bob"]))
    out["damaged"].write_bytes(bytes(flipped))
    return out


@pytest.mark.rule("LOG-13", "LOG-7")
def test_an_unfinished_log_is_shown_as_far_as_it_goes_and_said_to_be_valid_so_far(logs: dict[str, Path]) -> None:
    for name in ("unfinished", "midgame"):
        verdict = judge(logs[name].read_bytes())
        assert verdict.kind == "unfinished"
        shown = knock("show", str(logs[name]))
        assert shown.returncode == 0, shown.stderr
        assert f"valid so far, unfinished at record {verdict.record}" in shown.stdout
        verified = knock("verify", str(logs[name]))
        assert verified.returncode == 3 and f"valid so far, unfinished at record {verdict.record}" in verified.stdout
    midgame = knock("show", str(logs["midgame"])).stdout
    assert "ann passes the upcard" in midgame and "ann draws" in midgame and "hand 1 begun" in midgame


@pytest.mark.rule("LOG-8", "TURN-3")
def test_a_damaged_log_is_shown_to_the_record_that_fails_in_card_notation(logs: dict[str, Path]) -> None:
    shown = knock("show", str(logs["damaged"]))
    assert shown.returncode == 1
    assert "picks up" in shown.stdout  # the history up to the failure
    last = shown.stdout.strip().splitlines()[-1]
    assert last.startswith("FAIL") and "TURN-3: record 81" in last and "found knock 7d" in last
    verified = knock("verify", str(logs["damaged"]))
    assert verified.returncode == 1 and "found knock 7d" in verified.stdout
    assert "b'" not in verified.stdout and "\\x" not in verified.stdout


@pytest.mark.rule("LOG-11", "LOG-12", "VIS-1")
def test_a_view_is_shown_as_richly_as_show_seat(tmp_path: Path) -> None:
    game = play_match(Match.new(seed=3), [GreedyBot(), GreedyBot()])
    log = tmp_path / "g.knock"
    log.write_bytes(write_log(game, players=["ann", "bob"]))
    view = tmp_path / "ann.knock"
    assert knock("redact", str(log), "--seat", "0", "-o", str(view)).returncode == 0
    as_view, as_seat = knock("show", str(view)).stdout, knock("show", str(log), "--seat", "0").stdout
    for words in ("ann deals" if "ann deals" in as_seat else "bob deals", "knock limit", "after hand 1: ann",
                  "game over: ", "bob draws from the stock", "ann draws", "lays off", " points"):  # fmt: skip
        assert words in as_view and words in as_seat, words
    assert "The view of ann" in as_view
    assert knock("show", str(view), "--seat", "1").returncode == 2  # a view shows one seat only


def test_step_without_a_terminal_prints_every_record_with_the_position(logs: dict[str, Path]) -> None:
    verdict = judge(logs["full"].read_bytes())
    stepped = knock("show", str(logs["full"]), "--step")
    assert stepped.returncode == 0, stepped.stderr
    numbers = [int(n) for n in re.findall(r"^record (\d+) of \d+:", stepped.stdout, re.MULTILINE)]
    assert numbers == list(range(1, (verdict.record or 0) + 1))
    assert "deadwood" in stepped.stdout and "stock 31" in stepped.stdout
    unfinished = knock("show", str(logs["unfinished"]), "--step")
    assert unfinished.returncode == 0 and "valid so far" in unfinished.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_step_in_a_terminal_goes_forward_back_and_quits(tmp_path: Path) -> None:
    import pty
    import select
    import time

    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe
    pid, fd = pty.fork()
    if pid == 0:
        os.execve(exe, [exe, "show", str(GOLDEN / "standard-1.knock"), "--step"], {**os.environ, "COLUMNS": "120"})
    seen = b""

    def until(text: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while text not in re.sub(rb"\x1b\[[0-9;]*[A-Za-z]", b"", seen) and time.monotonic() < deadline:
            if select.select([fd], [], [], 1)[0]:
                seen += os.read(fd, 65536)
        assert text in re.sub(rb"\x1b\[[0-9;]*[A-Za-z]", b"", seen), seen[-500:]

    until(b"record 1 of")
    for key, frame in ((b" ", b"record 2 of"), (b"\r", b"record 3 of"), (b"b", b"record 2 of")):
        seen = b""
        os.write(fd, key)
        until(frame)
    os.write(fd, b"q")
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


@pytest.mark.rule("LOG-15")
def test_stepping_makes_frames_as_asked_and_goes_back_through_a_bounded_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """``show --step`` on a log of any length: a frame is made only when the reader steps forward to it, and ``b``
    goes back through the last ``BACK_WINDOW`` frames, no further."""
    from knock.cli import stepper

    made: list[int] = []

    def frames() -> Iterator[stepper.Frame]:
        for n in range(1, stepper.BACK_WINDOW + 11):
            made.append(n)
            yield stepper.Frame(n, f"record {n}", ())

    def keys(*pressed: str) -> Callable[[], str]:
        it = iter(pressed)
        return lambda: next(it)

    stepper.step(frames(), 99, read_key=keys(" ", " ", "q"))
    assert made == [1, 2, 3]  # quitting at the third frame made no fourth

    made.clear()
    shown: list[int] = []
    forward = [" "] * (stepper.BACK_WINDOW + 4)  # to frame BACK_WINDOW + 5
    back = ["b"] * (stepper.BACK_WINDOW + 20)  # more than the window holds
    monkeypatch.setattr(stepper, "show_frame", lambda frame, count, footer: shown.append(frame.record))
    stepper.step(frames(), 99, read_key=keys(*forward, *back, " ", "q"))
    assert made == list(range(1, stepper.BACK_WINDOW + 6))
    oldest = stepper.BACK_WINDOW + 5 - stepper.BACK_WINDOW + 1  # the window holds the last BACK_WINDOW frames
    assert shown[len(forward)] == stepper.BACK_WINDOW + 5 and shown[len(forward) + 1] == stepper.BACK_WINDOW + 4
    assert min(shown) == 1 and shown[-2] == oldest and shown[-1] == oldest + 1  # back stops at the window's start


def test_a_player_named_you_is_told_by_seat_so_the_grammar_holds(tmp_path: Path) -> None:
    """``knock play`` names the person "you" in its save; ``show`` tells a game in the third person, so that seat
    is told by its number ("p0 spreads"), never "you spreads" (#66: replay.narration.display_names)."""
    game = play_match(Match.new(seed=3), [GreedyBot(), GreedyBot()])
    log = tmp_path / "save.knock"
    log.write_bytes(write_log(game, players=["you", "heuristic"]))
    shown = knock("show", str(log)).stdout
    assert "heuristic" in shown and "p0 " in shown, shown[:400]
    assert not re.search(r"\byou (spreads|goes|knocks|draws|discards|passes|shows|lays)\b", shown), shown
