"""Per-seat views of a game in progress (LOG-11, LOG-13): the view of an unfinished log is the view of its
records so far, itself unfinished; a log cut inside a record has none."""

from __future__ import annotations

import io

import pytest

from engine.match import Match
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, RandomBot, play_match
from replay.codec import T_CHECKPOINT, T_DEAL, unpacked
from replay.log import LogError, LogTruncated, write_log
from replay.public import ViewReplayer
from replay.redact import redact
from replay.verdict import judge


def finished_log(preset: str, seed: int) -> bytes:
    """A short seeded bot game to 30, with its trailer."""
    match = Match.new(RuleSet.preset(preset, target=30), seed=seed)
    bots: list[Bot] = [RandomBot(seed), GreedyBot(), RandomBot(seed + 1)]
    return write_log(play_match(match, bots))


def boundaries(data: bytes) -> list[int]:
    """Where each record ends, the header's end first."""
    ends, at = [], 0
    for _, raw in unpacked(io.BytesIO(data)):
        at += len(raw)
        ends.append(at)
    return ends


def end_of_first(data: bytes, kind: int) -> int:
    """Where the first record of a type ends (``[kind, …]``)."""
    records = [v for v, _ in unpacked(io.BytesIO(data))]
    return boundaries(data)[next(i for i, v in enumerate(records) if isinstance(v, list) and v and v[0] == kind)]


@pytest.mark.rule("LOG-11", "LOG-13")
@pytest.mark.parametrize(("preset", "seed"), [("standard", 3), ("three_handed", 4)])
def test_the_view_of_a_game_in_progress_is_the_start_of_the_finished_games_view(preset: str, seed: int) -> None:
    data = finished_log(preset, seed)
    ends = boundaries(data)[1:-1]  # every prefix that ends between two records, before the trailer
    for seat in range(RuleSet.preset(preset).players):
        whole = redact(data, seat)
        for end in ends[:: max(1, len(ends) // 25)]:
            view = redact(data[:end], seat)
            assert whole.startswith(view), (seat, end)
            assert judge(view).kind == "unfinished", (seat, end)


@pytest.mark.rule("LOG-11", "LOG-12", "LOG-13")
def test_the_view_of_a_game_in_progress_replays_in_public_mode_as_far_as_it_goes() -> None:
    data = finished_log("standard", 3)
    replayer = ViewReplayer(redact(data[: end_of_first(data, T_CHECKPOINT)], 1))
    with pytest.raises(LogTruncated) as cut:
        replayer.run()
    assert cut.value.clean and not replayer.state.over
    assert sum(replayer.state.scores) > 0  # the first hand's result is in the view


@pytest.mark.rule("LOG-11", "LOG-7")
def test_a_log_cut_inside_a_record_has_no_view() -> None:
    data = finished_log("standard", 3)
    with pytest.raises(LogError, match="LOG-7") as err:
        redact(data[: end_of_first(data, T_DEAL) - 10], 0)  # inside the deal's 52 card codes
    assert isinstance(err.value, LogTruncated) and not err.value.clean
