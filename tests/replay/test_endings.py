"""A game's end before the target in the log (LOG-24): every ending written, verified and seen in every seat's view;
its records of version 3.0 only; each refused where the rules refuse it, by the full replay and by a view's reader.

The rules themselves (END-1 .. END-5) are tests/engine/test_match_endings.py's; the conformance cases under
``knock/conformance/suite/cases/end`` hold an accept and a reject case for each.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest

from engine.actions import Abort, Claim, Resign, parse_action, parse_match_action
from engine.errors import KnockError, NotationError
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import GreedyBot
from knock.conformance.tamper import rechain
from replay.codec import T_AWAY, T_CLAIM, T_GAME_OVER, T_RESIGN, pack, unpacked
from replay.log import LogWriter, write_log
from replay.narration import narrate
from replay.redact import redact
from replay.verdict import judge


def played(rules: RuleSet, moves: int, seed: int = 7) -> Match:
    """A game ``moves`` actions in, greedy on both sides."""
    m = Match.new(rules, seed=seed)
    bot = GreedyBot()
    for _ in range(moves):
        seat = m.to_act
        assert seat is not None
        m.apply(bot.choose(m.seat_observation(seat), m.legal_actions()))
    return m


ENDINGS: list[tuple[str, Callable[[Match], object]]] = [
    ("resign", lambda m: m.apply(Resign(1))),
    ("abort", lambda m: m.apply(Abort(0))),
    ("forfeit", lambda m: m.forfeit(0, "no_reveal")),
    ("claim", lambda m: (m.away(1, 100), m.back(1, 110), m.away(1, 200), m.apply(Claim(0, 1, 260)))),
]


@pytest.mark.rule("LOG-24", "LOG-11", "LOG-12", "END-1", "END-2", "END-3", "END-4")
@pytest.mark.parametrize(("name", "end"), ENDINGS, ids=[n for n, _ in ENDINGS])
@pytest.mark.parametrize("preset", ["standard", "three_handed"])
def test_each_ending_is_written_verified_and_shown_to_every_seat(name: str, end: Callable[[Match], object],
                                                                 preset: str) -> None:  # fmt: skip
    m = played(RuleSet.preset(preset, claim_after=60), 0 if name == "abort" else 9)
    end(m)
    assert m.is_over
    data = write_log(m)
    verdict = judge(data)
    assert verdict.kind == "pass", verdict
    assert verdict.winner == m.winner and verdict.scores == m.standings().totals
    for seat in range(m.rules.players):
        view = redact(data, seat)
        assert next(unpacked(io.BytesIO(view)))[0]["version"] == [3, 0]
        shown = judge(view)
        assert shown.kind == "pass" and shown.winner == m.winner, shown


@pytest.mark.rule("LOG-24")
def test_a_game_that_does_not_end_early_is_written_as_before() -> None:
    m = played(RuleSet(), 30)
    assert next(unpacked(io.BytesIO(write_log(m))))[0]["version"] == [1, 0]
    streamed = io.BytesIO()
    LogWriter(streamed, Match.new(seed=7), endings=True)
    assert next(unpacked(io.BytesIO(streamed.getvalue())))[0]["version"] == [3, 0]


@pytest.mark.rule("LOG-24")
def test_a_writer_begun_below_3_0_will_not_write_an_ending() -> None:
    m = Match.new(seed=7)
    out = io.BytesIO()
    writer = LogWriter(out, m)
    before = out.getvalue()
    m.apply(Resign(0))
    with pytest.raises(KnockError, match="LOG-24"):
        writer.sync()
    assert out.getvalue() == before


def _records(data: bytes) -> list[tuple[object, bytes]]:
    return list(unpacked(io.BytesIO(data)))


def _edited(data: bytes, edit: Callable[[list[tuple[object, bytes]]], None]) -> bytes:
    items = _records(data)
    edit(items)
    return b"".join(raw for _, raw in rechain(items))


@pytest.mark.rule("LOG-24", "END-4")
@pytest.mark.parametrize("view", [None, 0])
def test_a_claim_before_the_stated_absence_is_refused_at_its_record(view: int | None) -> None:
    m = played(RuleSet(claim_after=60), 5)
    m.away(1, 1_000)
    m.apply(Claim(0, 1, 1_060))
    data = write_log(m)
    at = next(i for i, (v, _) in enumerate(_records(data)) if type(v) is list and v[0] == T_CLAIM)

    def early(items: list[tuple[object, bytes]]) -> None:
        items[at] = ([T_CLAIM, 0, 1, 1_059], pack([T_CLAIM, 0, 1, 1_059]))

    forged = _edited(data if view is None else redact(data, view), early)
    verdict = judge(forged)
    assert (verdict.kind, verdict.record, verdict.rule) == ("fail", at, "END-4"), verdict


@pytest.mark.rule("LOG-24")
@pytest.mark.parametrize("view", [None, 1])
def test_an_ending_in_a_log_of_an_earlier_version_is_refused(view: int | None) -> None:
    m = played(RuleSet(), 6)
    m.apply(Resign(0))
    data = write_log(m)
    if view is not None:
        data = redact(data, view)
    at = next(i for i, (v, _) in enumerate(_records(data)) if type(v) is list and v[0] == T_RESIGN)

    def downgraded(items: list[tuple[object, bytes]]) -> None:
        head = dict(items[0][0])  # type: ignore[call-overload]
        head["version"] = [1, 0]
        items[0] = (head, pack(head))

    verdict = judge(_edited(data, downgraded))
    assert (verdict.kind, verdict.record, verdict.rule) == ("fail", at, "LOG-24"), verdict


@pytest.mark.rule("LOG-24", "LOG-4")
def test_nothing_but_the_game_over_follows_an_ending() -> None:
    m = played(RuleSet(), 6)
    m.apply(Resign(0))
    data = write_log(m)
    at = next(i for i, (v, _) in enumerate(_records(data)) if type(v) is list and v[0] == T_GAME_OVER)

    def action_after(items: list[tuple[object, bytes]]) -> None:
        items.insert(at, (2, pack(2)))  # a stock draw after the resignation

    verdict = judge(_edited(data, action_after))
    assert (verdict.kind, verdict.record, verdict.rule) == ("fail", at, "LOG-4"), verdict


@pytest.mark.rule("LOG-24", "END-4")
def test_presence_records_change_nothing_but_the_absence_they_record() -> None:
    m = played(RuleSet(claim_after=60), 4)
    to_act = m.to_act
    m.away(0, 50)
    m.back(0, 70)
    assert m.to_act == to_act and not m.is_over
    data = write_log(m, endings=True)
    assert judge(data).kind == "unfinished"
    kinds = [v[0] for v, _ in _records(data)[1:] if type(v) is list]
    assert kinds.count(T_AWAY) == 1


@pytest.mark.rule("NOTE-11", "END-1", "END-2", "END-4")
def test_the_endings_text_reads_back() -> None:
    for action in (Resign(2), Abort(0), Claim(1, 0, 1_765_100_000)):
        assert parse_match_action(f"p{action.seat} {action}") == action
    with pytest.raises(NotationError, match=r"^NOTE-11"):
        parse_match_action("p2 advise p1 resign")
    with pytest.raises(NotationError, match=r"^NOTE-11"):
        parse_action("p0 resign")


@pytest.mark.rule("END-1", "END-2", "END-3", "END-4")
def test_the_narration_tells_each_ending() -> None:
    m = played(RuleSet(claim_after=60), 3)
    events = [*m.away(1, 10), *m.apply(Claim(0, 1, 90))]
    told = [narrate(e) for e in events]
    assert told[0] == "p1 leaves the table"
    assert told[1] == "p0 claims the game: p1 has been away too long"
    assert told[2].startswith("game over: p0 wins the game")
    m = Match.new(seed=1)
    assert narrate(m.apply(Abort(1))[-1]).startswith("game over: no winner")
