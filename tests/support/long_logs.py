"""Legal logs of any length (LOG-15), written as they are played, in the memory of one game without history.

Three kinds, each a complete game that verifies: a ``trading`` loop (two players trading cards through the
discard pile, turn after turn, in one hand that needs no end without a pickup cap, DEAD-3), an ``advice`` flood
(the sitter of a three-handed game advising the captain again and again before his first action, THREE-7) and a
chain of ``dead`` hands (nobody knocks or takes a discard, so every hand dies at the stock's end, DEAD-1, and
the same dealer deals again, MATCH-5). Each game then ends as greedy bots play it. ``tools/bench_reader.py``
measures the readers on them; ``tests/replay/test_long_logs.py`` checks them at small sizes.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import BinaryIO

from engine.actions import Advise, DeclineWall, Discard, DrawDiscard, DrawStock, PassUpcard, TakeUpcard
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import GreedyBot
from replay.log import LogWriter


def _finish(match: Match, writer: LogWriter) -> None:
    """Greedy bots play the game to its end, the log written after every step."""
    bot = GreedyBot()
    while (seat := match.to_act) is not None:
        assert match.hand is not None
        match.apply(bot.choose(match.hand.observation(seat), match.legal_actions()))
        writer.sync()


def _game(rules: RuleSet, stream: BinaryIO, seed: int) -> tuple[Match, LogWriter]:
    match = Match.new(rules, seed=seed, executor="compiled", history=False)
    return match, LogWriter(stream, match, meta={"tool": "tests.support.long_logs", "seed": seed})


def trading(stream: BinaryIO, turns: int, seed: int = 1) -> None:
    """A game whose first hand has ``turns`` turns of trading: each seat takes the discard and throws its lowest
    other card (TURN-4), two one-byte records a turn."""
    match, writer = _game(RuleSet(), stream, seed)
    hand = match.hand
    assert hand is not None and match.to_act is not None
    match.apply(TakeUpcard(match.to_act))
    writer.sync()
    for _ in range(turns):
        seat = match.to_act
        assert seat is not None
        match.apply(Discard(seat, next(c for c in hand.cards_of(seat) if c != hand.taken)))
        writer.sync()
        match.apply(DrawDiscard(hand.other(seat)))
        writer.sync()
    seat = match.to_act
    assert seat is not None
    match.apply(Discard(seat, next(c for c in hand.cards_of(seat) if c != hand.taken)))
    writer.sync()
    _finish(match, writer)


def advice(stream: BinaryIO, count: int, seed: int = 1) -> None:
    """A three-handed game in which the sitter advises the captain ``count`` times before his first action."""
    match, writer = _game(RuleSet.preset("three_handed"), stream, seed)
    assert match.sitter is not None
    suggestion = match.legal_actions()[0]
    for _ in range(count):
        match.apply(Advise(match.sitter, suggestion))
        writer.sync()
    _finish(match, writer)


def dead(stream: BinaryIO, hands: int, seed: int = 1) -> None:
    """A game whose first ``hands`` hands all die at the stock's end: both seats pass the upcard, then draw from
    the stock and throw their highest card, and nobody knocks."""
    match, writer = _game(RuleSet(), stream, seed)
    while match.number <= hands:
        legal = match.legal_actions()
        move = next((a for a in legal if isinstance(a, PassUpcard | DrawStock | DeclineWall)), None)
        match.apply(move if move is not None else [a for a in legal if isinstance(a, Discard)][-1])
        writer.sync()
    _finish(match, writer)


#: Each kind of long log, by name: the builder and its count for a log of about 100 KB (the benchmark's 1x).
KINDS: dict[str, tuple[Callable[[BinaryIO, int, int], None], int]] = {
    "trading": (trading, 50_000),
    "advice": (advice, 25_000),
    "dead": (dead, 600),
}


def build(kind: str, count: int, seed: int = 1) -> bytes:
    """A long log of ``kind`` as bytes (small sizes: the tests)."""
    out = io.BytesIO()
    KINDS[kind][0](out, count, seed)
    return out.getvalue()
