"""The record grammar (replay.grammar) against the machines' tables (engine.fsm), and the replayer against both."""

from __future__ import annotations

import enum
import io
from pathlib import Path

import pytest

from engine.actions import (
    ACTION_TYPES,
    Action,
    Advise,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    PassUpcard,
    Spread,
    TakeUpcard,
)
from engine.cards import Card, cards
from engine.fsm import HAND, MATCH, MatchPhase, Phase, Row
from engine.match import Match
from engine.melds import Meld
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, RandomBot, play_match
from replay.codec import action_record, unpacked
from replay.grammar import ACCEPTS, ACTIONS, GRAMMAR, PLAYING, STANDS_FOR, VIEW_ONLY, At, Kind, classify
from replay.log import write_log
from replay.public import ViewReplayer
from replay.redact import redact
from replay.replayer import Replayer, drive

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.knock"))
TABLES: list[tuple[str, Row]] = [(spec.name, r) for spec in (HAND, MATCH) for r in spec.table]
LOG_ONLY = {At.COMMITTED, At.FAIR_COMMITTED, At.SEATS_COMMITTED, At.SEEDED, At.REVEALED, At.ENDED, At.END}


def stands_for(states: tuple[At, ...]) -> set[enum.Enum]:
    """The machine states some reader states may stand for."""
    return {s for at in states for s in STANDS_FOR[at]}


def rows_for(r: Row) -> list[str]:
    """The grammar rows that stand for a machine transition: its trigger, from its source, to its destination."""
    dest = Phase.DEAL if r.dest is MatchPhase.HAND and r.source is not MatchPhase.HAND else r.dest  # a hand starts
    return [
        f"{g.state.value} --{g.kind.value}-->"
        for g in GRAMMAR
        if r.trigger in g.steps and r.source in STANDS_FOR[g.state] and dest in stands_for(g.next)
    ]


@pytest.mark.rule("LOG-4")
def test_the_readers_states_are_the_machines_states_and_the_logs_own() -> None:
    machine = {s for spec in (HAND, MATCH) for s in spec.states}
    assert set().union(*STANDS_FOR.values()) == machine
    assert set(STANDS_FOR) == set(At)
    named = {s.value for s in machine}
    assert {at for at in At if at.value not in named} == LOG_ONLY
    assert all(STANDS_FOR[PLAYING[p]] == {MatchPhase.HAND, p} for p in PLAYING)
    assert set(PLAYING) == {r.source for r in HAND.table if r.actor == "player"}


@pytest.mark.rule("LOG-4")
@pytest.mark.parametrize(("machine", "row"), TABLES, ids=[f"{m}:{r.trigger}:{r.source.value}" for m, r in TABLES])
def test_every_transition_of_the_tables_has_its_record(machine: str, row: Row) -> None:
    assert rows_for(row), f"no record stands for {machine} {row.trigger}: {row.source.value} -> {row.dest.value}"


@pytest.mark.rule("LOG-4")
def test_every_step_of_the_grammar_is_a_transition_of_the_tables() -> None:
    triggers = {r.trigger for _, r in TABLES}
    for g in GRAMMAR:
        assert set(g.steps) <= triggers, g
        if g.steps and g.kind in ACTIONS and g.kind is not Kind.ADVICE:  # a player's action: exactly its rows
            (trigger,) = g.steps
            (phase,) = STANDS_FOR[g.state] - {MatchPhase.HAND}
            dests = {At(r.dest.value) for r in HAND.table if r.trigger == trigger and r.source is phase}
            assert set(g.next) == dests, g
        if not g.steps:  # the log's own framing
            assert g.kind in (
                Kind.COMMIT,
                Kind.REVEAL,
                Kind.CHECKPOINT,
                Kind.TRAILER,
                Kind.FAIR_COMMIT,
                Kind.SEEDS,
                Kind.SEAT_COMMITS,
                Kind.STATEMENT,
                Kind.FAIR_REVEAL,
            ), g


SAMPLES = [
    PassUpcard(0), TakeUpcard(0), DrawStock(0), DrawDiscard(0), Discard(0, Card.parse("Kh")),
    Knock(0, Card.parse("Kh")), BigGin(0), DeclineWall(0), Spread(0, (Meld.of(cards("As 2s 3s")),)), LayOff(0, (), ()),
]  # fmt: skip


@pytest.mark.rule("LOG-4", "LOG-2")
@pytest.mark.parametrize("action", SAMPLES, ids=lambda a: type(a).__name__)
def test_every_action_has_its_record_kind_and_the_kind_its_trigger(action: Action) -> None:
    kind = classify(action_record(action))
    assert kind in ACTIONS and kind is not Kind.BAD_CODE
    assert any(action.trigger in g.steps for g in GRAMMAR if g.kind is kind)
    advice = classify([5, 2, action_record(action)])
    assert advice is Kind.ADVICE and any(Advise.trigger in g.steps for g in GRAMMAR if g.kind is advice)


@pytest.mark.rule("LOG-4")
def test_the_samples_are_every_action() -> None:
    assert {type(a) for a in SAMPLES} == set(ACTION_TYPES)


@pytest.mark.rule("LOG-11", "LOG-12")
def test_a_view_differs_from_a_full_log_only_in_what_its_records_hide() -> None:
    counterpart = {Kind.SEEN_DRAW: Kind.DRAW, Kind.HIDDEN_KNOCK: Kind.KNOCK}
    assert set(counterpart) == VIEW_ONLY
    for g in GRAMMAR:
        if g.kind in VIEW_ONLY:
            full = ACCEPTS[g.state][counterpart[g.kind]]
            assert (full.next, full.steps) == (g.next, g.steps)
    forms: list[object] = [*range(-1, 300), *([t] for t in range(-1, 20)), True, False, None, "x", [], {}, b""]
    assert not {classify(f) for f in forms} & VIEW_ONLY
    assert {classify(f, view=True) for f in forms} >= VIEW_ONLY
    assert {classify(f, view=True) for f in forms} - {classify(f) for f in forms} == VIEW_ONLY
    used = {g.kind for g in GRAMMAR}
    assert used == set(Kind) - {Kind.BAD_CODE, Kind.BAD_FORM}


@pytest.mark.rule("LOG-8", "LOG-4")
@pytest.mark.parametrize("path", GOLDEN[::4], ids=lambda p: p.stem)
def test_the_strict_replay_stands_where_the_engine_is(path: Path) -> None:
    replayer = Replayer(path.read_bytes())
    for _, at in drive(replayer.reader, replayer.model):
        replayer.model.ready.clear()
        match = replayer.match
        if at in PLAYING.values():
            assert match is not None and match.hand is not None
            assert {match.phase, match.hand.phase} == STANDS_FOR[at]
        elif at in (At.HAND_OVER, At.REVEALED, At.ROTATE, At.GAME_OVER, At.END):  # the log catching up
            assert match is not None and match.phase in STANDS_FOR[at]
    assert at is At.END and match is not None and match.is_over


@pytest.mark.rule("LOG-12", "LOG-4")
@pytest.mark.parametrize("path", GOLDEN[1::6], ids=lambda p: p.stem)
def test_a_views_replay_stands_where_the_full_replay_does(path: Path) -> None:
    data = path.read_bytes()
    replayer = Replayer(data)
    full = [at for _, at in drive(replayer.reader, replayer.model)]
    records = [v for v, _ in unpacked(io.BytesIO(data))][1:]
    assert len(full) == len(records)
    for seat in range(replayer.rules.players):
        view = ViewReplayer(redact(data, seat))
        assert [st.phase for _, st in view.records()] == full


@pytest.mark.rule("LOG-2")
def test_every_record_of_a_log_has_a_kind() -> None:
    bots: list[Bot] = [GreedyBot(), RandomBot(2), GreedyBot()]
    data = write_log(play_match(Match.new(RuleSet.preset("three_handed"), seed=2), bots), commit_key=b"k")
    for value, _ in unpacked(io.BytesIO(data)):
        if not isinstance(value, dict):
            assert classify(value) not in (Kind.BAD_CODE, Kind.BAD_FORM), value
