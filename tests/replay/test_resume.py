"""Resuming a game from its log (``replay.resume``): one pass, and the log goes on byte for byte.

Rules: LOG-5, LOG-8, LOG-10, LOG-11, LOG-13, MATCH-7.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

from engine.chance import SeededChance
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, RandomBot, play_match
from replay import resume
from replay.grammar import Kind, classify
from replay.log import LogReader, write_log
from replay.redact import redact
from replay.resume import Resumed, ResumeError
from replay.verdict import judge

PRESETS = ["standard", "oklahoma", "three_handed"]
KEY = b"a secret of the table"


def played(preset: str, seed: int, **options: Any) -> tuple[Match, bytes]:
    rules = RuleSet.preset(preset, **options)
    bots: list[Bot] = [RandomBot(seed + s) if s % 2 else GreedyBot() for s in range(rules.players)]
    match = play_match(Match.new(rules, seed=seed), bots)
    return match, write_log(match, meta={"seed": seed}, commit_key=KEY if seed % 3 == 0 else None)


def boundaries(data: bytes) -> list[tuple[int, Kind]]:
    """Where each record of a whole log ends (its byte offset), with its kind."""
    entries = list(LogReader(data).entries())
    at = len(data) - sum(e.size for e in entries)
    out = []
    for e in entries:
        at += e.size
        out.append((at, classify(e.record)))
    return out


def go_on(data: bytes, cut: int, actions: tuple[Any, ...], *, key: bytes | None) -> bytes:
    """Resume the first ``cut`` bytes of ``data``, play the rest of ``actions``, and give the whole log."""
    out = io.BytesIO()
    game = resume(data[:cut], out, commit_key=key)
    game.writer.sync()
    for action in actions[len(game.actions) :]:
        game.match.apply(action)
        game.writer.sync()
    return data[:cut] + out.getvalue()


def cuts(data: bytes, rng: random.Random) -> list[int]:
    """A prefix ending at every kind of record the log holds (the first and one more at random), and a few more."""
    by_kind: dict[Kind, list[int]] = {}
    ends = boundaries(data)
    for end, kind in ends[:-1]:
        by_kind.setdefault(kind, []).append(end)
    chosen = {ends[0][0]} | {e[0] for e in rng.sample(ends[:-1], min(3, len(ends) - 1))}
    for offsets in by_kind.values():
        chosen |= {offsets[0], rng.choice(offsets)}
    return sorted(chosen)


@pytest.mark.rule("LOG-5", "LOG-8", "LOG-10", "MATCH-7")
@pytest.mark.parametrize("preset", PRESETS)
def test_a_resumed_prefix_goes_on_byte_for_byte(preset: str) -> None:
    rng = random.Random(preset)
    kinds: set[Kind] = set()
    for seed in range(12):
        match, data = played(preset, seed, target=rng.choice((10, 25, 60)))
        key = KEY if seed % 3 == 0 else None
        whole = resume(data, commit_key=key)
        assert whole.finished and whole.verdict == judge(data)
        assert whole.match.events == match.events
        for cut in cuts(data, rng):
            assert resume(data[:cut], commit_key=key).verdict == judge(data[:cut])
            assert go_on(data, cut, whole.actions, key=key) == data, (preset, seed, cut)
        kinds |= {k for _, k in boundaries(data)}
    assert {Kind.CUT, Kind.HAND, Kind.DEAL, Kind.RESULT, Kind.CHECKPOINT, Kind.COMMIT, Kind.REVEAL} <= kinds


@pytest.mark.rule("LOG-13")
def test_the_resumed_game_is_the_game_so_far() -> None:
    match, data = played("standard", 1)
    cut = boundaries(data)[40][0]
    game = resume(data[:cut], executor="library")
    assert isinstance(game, Resumed) and not game.finished
    assert game.verdict.kind == "unfinished" and game.verdict.record == 41
    assert game.match.events == match.events[: len(game.match.events)]
    assert game.writer.records == 41 and game.writer.bytes == cut


@pytest.mark.rule("MATCH-7")
def test_a_resumed_game_deals_its_next_hands_from_the_seed() -> None:
    _, data = played("standard", 4)
    checkpoint = next(end for end, kind in boundaries(data) if kind is Kind.CHECKPOINT)
    game = resume(data[:checkpoint])
    assert game.match.to_act is not None  # the next hand is dealt, from the seed
    fresh = Match.new(seed=4)
    for action in game.actions:
        fresh.apply(action)
    assert game.match.events == fresh.events


@pytest.mark.rule("MATCH-7")
def test_a_log_whose_deals_are_not_the_seed_is_refused() -> None:
    _, data = played("standard", 2)
    with pytest.raises(ResumeError, match="MATCH-7: record 1: the log's draw is not") as err:
        resume(data, chance=SeededChance(5))
    assert err.value.rule == "MATCH-7"


@pytest.mark.rule("MATCH-7")
def test_a_log_without_a_seed_needs_a_chance() -> None:
    match = play_match(Match.new(seed=6), [GreedyBot(), GreedyBot()])
    data = write_log(match)
    with pytest.raises(ResumeError, match="no seed"):
        resume(data)
    assert resume(data, chance=SeededChance(6)).finished


@pytest.mark.rule("LOG-11")
def test_a_per_seat_view_is_refused() -> None:
    _, data = played("standard", 1)
    with pytest.raises(ResumeError, match="LOG-11: record 0: a per-seat view"):
        resume(redact(data, 0))


@pytest.mark.rule("LOG-8", "LOG-7")
def test_an_invalid_log_is_refused_with_its_record() -> None:
    _, data = played("standard", 1)
    ends = boundaries(data)
    with pytest.raises(ResumeError, match="LOG-7") as err:
        deal = next(end for end, kind in ends[1:] if kind is Kind.DEAL)
        resume(data[: deal - 1])  # cut inside a record
    assert err.value.verdict is not None and err.value.verdict.kind == "fail"
    at = ends[20][0]
    bad = data[:at] + data[at + 1 :]  # a record dropped: the next one is out of place or illegal
    with pytest.raises(ResumeError) as err:
        resume(bad)
    assert err.value.record >= 21


@pytest.mark.rule("LOG-10")
def test_a_committed_log_needs_its_key() -> None:
    _, data = played("standard", 3)
    with pytest.raises(ResumeError, match="LOG-10"):
        resume(data)
