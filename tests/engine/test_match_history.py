"""A game without history (``history=False``, LOG-15): the same game, the same observations and standings,
the same log, in memory that does not grow with the game."""

from __future__ import annotations

import io
from typing import Any

import pytest

from engine.errors import KnockError
from engine.fsm import EXECUTOR_NAMES, ExecutorName
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, RandomBot
from replay.log import LogWriter, write_log

GAMES = [
    ("standard", {}, 1),
    ("oklahoma", {"spades_double": True}, 2),
    ("three_handed", {}, 3),
    ("standard", {"hollywood": True, "box_bonus": 25, "immediate_boxes": True}, 4),
]


def twins(preset: str, options: dict[str, Any], seed: int, executor: ExecutorName) -> tuple[Match, Match]:
    rules = RuleSet.preset(preset, **options)
    return (Match.new(rules, seed=seed, executor=executor),
            Match.new(rules, seed=seed, executor=executor, history=False))  # fmt: skip


@pytest.mark.rule("LOG-15", "MATCH-1", "VIS-1")
@pytest.mark.parametrize("executor", EXECUTOR_NAMES)
@pytest.mark.parametrize(("preset", "options", "seed"), GAMES)
def test_a_game_without_history_is_the_same_game(
    preset: str, options: dict[str, Any], seed: int, executor: ExecutorName
) -> None:
    full, bare = twins(preset, options, seed, executor)
    assert bare.events == full.events and bare.dropped == 0  # the start: the draw and the first deal
    bots: list[Bot] = [RandomBot(seed), GreedyBot(), RandomBot(seed + 1)]
    while (seat := full.to_act) is not None:
        assert full.hand is not None and bare.hand is not None
        action = bots[seat].choose(full.hand.observation(seat), full.legal_actions())
        step = full.apply(action)
        assert bare.apply(action) == step
        assert bare.events == step and bare.dropped + len(bare.events) == len(full.events)
        assert bare.results == full.results[-1:] and bare.standings() == full.standings()
        assert len(bare.hand.events) <= len(step)
        for s in range(full.rules.players):
            assert bare.observation(s) == full.observation(s)  # a knock discard taken from the pile included
    assert bare.is_over and bare.winner == full.winner


@pytest.mark.rule("LOG-15", "LOG-5")
def test_a_writer_synced_after_every_step_writes_a_game_without_history_in_full() -> None:
    full, bare = twins("three_handed", {}, 5, "compiled")
    out = io.BytesIO()
    writer = LogWriter(out, bare)
    bots: list[Bot] = [GreedyBot(), RandomBot(5), GreedyBot()]
    while (seat := full.to_act) is not None:
        assert full.hand is not None
        action = bots[seat].choose(full.hand.observation(seat), full.legal_actions())
        full.apply(action)
        bare.apply(action)
        writer.sync()
    assert out.getvalue() == write_log(full)


@pytest.mark.rule("LOG-15", "LOG-5")
def test_a_writer_synced_too_late_refuses_and_writes_nothing() -> None:
    bare = Match.new(seed=6, history=False)
    out = io.BytesIO()
    writer = LogWriter(out, bare)
    written = out.getvalue()
    bare.apply(bare.legal_actions()[0])
    bare.apply(bare.legal_actions()[0])  # the first step's events are let go
    with pytest.raises(KnockError, match="LOG-5"):
        writer.sync()
    assert out.getvalue() == written


@pytest.mark.rule("LOG-15", "DEAD-3")
def test_an_endless_hand_without_history_keeps_the_same_memory() -> None:
    """Two seats trading through the discard pile (no pickup cap): the hand never ends, its events do not pile up."""
    bare = Match.new(seed=7, executor="compiled", history=False)
    hand = bare.hand
    assert hand is not None and bare.to_act is not None
    start = len(bare.events)  # the draw, the hand and its deal
    bare.play("take")
    for _ in range(2000):
        seat = bare.to_act
        assert seat is not None
        bare.play(f"discard {next(c for c in hand.cards_of(seat) if c != hand.taken)}", "pickup")
        assert len(bare.events) == 1 and len(hand.events) == 1
    assert bare.dropped + len(bare.events) == start + 1 + 4000 and bare.number == 1
