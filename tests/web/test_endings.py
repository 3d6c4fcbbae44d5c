"""A game's end at a table (protocol 1.4, PROTO-41 … PROTO-43): resign, abort, claim and forfeit on ``knock serve``
(its hub in one process, the host's clock set by the test) and on ``knock engine``; every log verifies."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from knock.web import protocol
from knock.web.engine_io import Engine
from knock.web.hub import Hub
from knock.web.protocol import Message
from knock.web.store import SQLiteStore
from knock.web.table import Connection
from knock.web.tablespec import table_spec
from replay.log import LogReader
from replay.verdict import judge
from tests.web.support import valid

TWO = [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}]


class Clock:
    """The host's clock, as the test sets it."""

    def __init__(self, now: int = 1_765_100_000) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


class Client:
    """A connection at a table whose frames are kept (each checked against the schema)."""

    def __init__(self) -> None:
        self.frames: list[Message] = []
        self.conn = Connection(lambda m: self.frames.append(valid(m)), lambda code, err: None)

    def last(self, kind: str) -> Message:
        return next(f for f in reversed(self.frames) if f["type"] == kind)

    def answer(self) -> Message:
        return next(f for f in reversed(self.frames) if f["type"] in ("ack", "refusal"))


Scenario = Callable[[Hub, Clock, str, dict[int, str]], Awaitable[None]]


def serve(tmp_path: Path, request: dict[str, Any], scenario: Scenario, *, restart: Scenario | None = None) -> Hub:
    """Run ``scenario`` against a hub with a table made from ``request``, the host's clock the test's and no grace
    before a seat is away; with ``restart``, the server is started again from its store and ``restart`` runs on."""
    clock = Clock()

    def hub_of() -> Hub:
        hub = Hub(SQLiteStore(tmp_path), bot_delay=0)
        hub.house.clock, hub.house.grace = clock, 0.0
        hub.start()
        return hub

    async def run() -> Hub:
        hub = hub_of()
        table, tokens = await hub.create(table_spec({"seed": 5, **request}, bot_delay=0))
        await scenario(hub, clock, table, tokens)
        await hub.stop()
        if restart is None:
            return hub
        again = hub_of()
        again.resume()
        await restart(again, clock, table, tokens)
        await again.stop()
        return again

    return asyncio.run(asyncio.wait_for(run(), 60))


async def join(hub: Hub, table: str, tokens: dict[int, str], seat: int) -> Client:
    client = Client()
    await hub.join(client.conn, protocol.Hello((1, 4), table, tokens[seat], False))
    return client


def verified(hub: Hub, table: str) -> bytes:
    """The table's stored log, once it verifies (LOG-13) as a log of format 3.0 (LOG-24)."""
    data = hub.store.log(table)
    verdict = judge(data)
    assert verdict.kind == "pass", verdict
    assert LogReader(data).header.version == (3, 0)
    return data


@pytest.mark.rule("PROTO-41", "END-1", "END-5", "PROTO-43")
def test_a_seat_resigns_at_its_newest_record_whoever_is_to_act(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: Clock, table: str, tokens: dict[int, str]) -> None:
        ann, bob = await join(hub, table, tokens, 0), await join(hub, table, tokens, 1)
        view = ann.last("view")
        assert view["endings"] == ["resign", "abort"] and view["away"] == []
        resigner = 1 - view["view"]["to_act"]  # not the seat to act
        who = (ann, bob)[resigner]
        await hub.act(who.conn, protocol.Act("resign", view["record"] - 1))
        assert who.answer()["rule"] == "PROTO-7"  # an earlier record: stale, as any act
        await hub.act(who.conn, protocol.Act("resign", view["record"]))
        ack = who.answer()
        assert ack["type"] == "ack" and ack["action"] == "resign"
        for c in (ann, bob):
            result = c.last("game_result")
            assert result["winner"] == 1 - resigner and result["totals"] == [0, 0]
            assert result["ending"] == {"kind": "resign", "seat": resigner, "against": None, "reason": None}
            assert c.last("view")["endings"] == [] and c.last("log_offered")["verdict"] == "pass"
        await hub.act(who.conn, protocol.Act("resign", view["record"]))  # its resend: the game is over (MATCH-1)
        assert who.answer()["rule"] == "MATCH-1"
        assert hub.tables[table].summary["winner"] == 1 - resigner
        verified(hub, table)

    serve(tmp_path, {"seats": TWO}, scenario)


@pytest.mark.rule("PROTO-41", "END-2", "END-5", "PROTO-43")
def test_abort_until_both_seats_have_acted_then_refused(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: Clock, table: str, tokens: dict[int, str]) -> None:
        ann, bob = await join(hub, table, tokens, 0), await join(hub, table, tokens, 1)
        view = ann.last("view")
        first = (ann, bob)[view["view"]["to_act"]]
        await hub.act(first.conn, protocol.Act("pass", view["record"]))
        second = bob if first is ann else ann
        record = second.last("view")["record"]
        assert "abort" in second.last("view")["endings"]  # one seat has acted: abort is still open
        await hub.act(second.conn, protocol.Act("abort", record))
        assert second.answer()["type"] == "ack"
        result = second.last("game_result")
        assert result["winner"] is None and result["ending"]["kind"] == "abort"
        assert hub.tables[table].summary["winner"] is None
        verified(hub, table)

    serve(tmp_path, {"seats": TWO}, scenario)

    async def late(hub: Hub, clock: Clock, table: str, tokens: dict[int, str]) -> None:
        ann, bob = await join(hub, table, tokens, 0), await join(hub, table, tokens, 1)
        for _ in range(2):  # each seat passes the upcard: both have acted
            seat = hub.tables[table].game.match.to_act  # type: ignore[union-attr]
            assert seat is not None
            c = (ann, bob)[seat]
            await hub.act(c.conn, protocol.Act("pass", c.last("view")["record"]))
        assert "abort" not in ann.last("view")["endings"]
        await hub.act(ann.conn, protocol.Act("abort", ann.last("view")["record"]))
        assert ann.answer()["rule"] == "END-2"

    serve(tmp_path / "late", {"seats": TWO}, late)


@pytest.mark.rule("PROTO-42", "PROTO-43", "END-3", "END-4", "PROTO-13", "PROTO-9")
def test_a_seat_gone_is_recorded_away_and_claimed_against_after_the_stated_time_across_a_restart(
    tmp_path: Path,
) -> None:
    async def scenario(hub: Hub, clock: Clock, table: str, tokens: dict[int, str]) -> None:
        ann, bob = await join(hub, table, tokens, 0), await join(hub, table, tokens, 1)
        record = ann.last("view")["record"]
        hub.leave(bob.conn)  # bob's tab closes
        while ann.last("view")["record"] == record:  # the away record's view reaches ann (after it is stored)
            await asyncio.sleep(0.01)
        view = ann.last("view")
        assert view["record"] == record + 1
        assert view["away"] == [{"seat": 1, "since": clock.now, "claim_in": 60}]
        assert view["events"][-1]["kind"] == "seat_away" and "claim p1" not in view["endings"]
        clock.now += 59
        await hub.claim(ann.conn, protocol.ClaimRequest(1, view["record"]))
        refused = ann.answer()
        assert refused["type"] == "refusal" and refused["rule"] == "END-4"

    async def after(hub: Hub, clock: Clock, table: str, tokens: dict[int, str]) -> None:
        ann = await join(hub, table, tokens, 0)  # the server restarted: bob is still away by its record
        view = ann.last("view")
        assert [a["seat"] for a in view["away"]] == [1]
        clock.now += 1
        assert hub.tables[table].game.endings(0) == ["resign", "abort", "claim p1"]  # type: ignore[union-attr]
        await hub.claim(ann.conn, protocol.ClaimRequest(1, view["record"]))
        ack = ann.answer()
        assert ack["type"] == "ack" and ack["action"] == f"claim p1 at {clock.now}"
        await hub.claim(ann.conn, protocol.ClaimRequest(1, view["record"]))  # a resend: acknowledged again
        assert ann.answer()["duplicate"] is True
        result = ann.last("game_result")
        assert result["winner"] == 0 and result["ending"] == {"kind": "claim", "seat": 0, "against": 1, "reason": None}
        verified(hub, table)

    serve(tmp_path, {"seats": TWO, "options": {"claim_after": 60}}, scenario, restart=after)


@pytest.mark.rule("PROTO-43", "END-4")
def test_a_seat_back_before_a_claim_cannot_be_claimed_against(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: Clock, table: str, tokens: dict[int, str]) -> None:
        ann, bob = await join(hub, table, tokens, 0), await join(hub, table, tokens, 1)
        record = ann.last("view")["record"]
        hub.leave(bob.conn)
        t = hub.tables[table]
        while t.game is not None and t.game.record == record:
            await asyncio.sleep(0.01)
        clock.now += 200
        bob = await join(hub, table, tokens, 1)
        view = bob.last("view")  # recorded back before bob's welcome: his first view is at the newest record
        assert view["record"] == record + 2 and view["away"] == [] and view["events"][-1]["kind"] == "seat_back"
        await hub.claim(ann.conn, protocol.ClaimRequest(1, view["record"]))
        assert ann.answer()["rule"] == "END-4"
        verified_so_far = judge(hub.store.log(table))
        assert verified_so_far.kind == "unfinished"

    serve(tmp_path, {"seats": TWO, "options": {"claim_after": 60}}, scenario)


@pytest.mark.rule("PROTO-43", "PROTO-12", "END-3")
def test_a_turn_run_out_forfeits_at_a_table_that_says_so(tmp_path: Path) -> None:
    async def scenario(hub: Hub, clock: Clock, table: str, tokens: dict[int, str]) -> None:
        ann, bob = await join(hub, table, tokens, 0), await join(hub, table, tokens, 1)
        t = hub.tables[table]
        seat = t.game.match.to_act  # type: ignore[union-attr]
        assert seat is not None
        while not t.over:  # the turn's timer runs out (one second), whatever the load
            await asyncio.sleep(0.05)
        for c in (ann, bob):
            assert c.last("timed_out") == {"type": "timed_out", "seat": seat, "action": None}
            result = c.last("game_result")
            assert result["winner"] == 1 - seat
            assert result["ending"] == {"kind": "forfeit", "seat": seat, "against": None, "reason": "timeout"}
        verified(hub, table)

    serve(tmp_path, {"seats": TWO, "turn_timeout": 1, "timeout_forfeits": True}, scenario)


@pytest.mark.rule("PROTO-43", "PROTO-2")
def test_claims_are_played_at_a_table_of_people_unless_its_options_say(tmp_path: Path) -> None:
    assert table_spec({"seats": TWO}).rules.claim_after == 120
    assert table_spec({"seats": TWO, "options": {"claim_after": None}}).rules.claim_after is None
    assert table_spec({"seats": [TWO[0], {"player": "bot"}]}).rules.claim_after is None  # nobody to claim
    with pytest.raises(Exception, match="timeout_forfeits"):
        table_spec({"seats": TWO, "timeout_forfeits": True})  # no turn timer to run out


# --- knock engine --------------------------------------------------------------------------------


def engine_session(lines: list[dict[str, Any]], options: dict[str, Any] | None = None) -> tuple[list[Message], bytes]:
    """Every answer of a ``knock engine`` session after its ``new``, and its log at the end."""
    engine = Engine()
    new = {"type": "new", "protocol": [1, 4], "seed": 3, "seats": TWO, "options": options or {}}
    engine.handle(json.dumps(new))
    out: list[Message] = []
    for line in lines:
        if "record" in line and line["record"] is None:
            line = {**line, "record": engine.table.record}  # type: ignore[union-attr]
        out += [valid(m) for m in engine.handle(json.dumps(line))[0]]
    (log,), _ = engine.handle('{"type": "log"}')
    return out, base64.b64decode(log["data"])


def ended(out: list[Message]) -> Message:
    return next(m for m in out if m["type"] == "game_result")


@pytest.mark.rule(
    "PROTO-41", "PROTO-42", "PROTO-43", "PROTO-44", "PROTO-15", "END-1", "END-2", "END-3", "END-4", "END-6"
)
@pytest.mark.parametrize(
    ("lines", "ending"),
    [
        ([{"type": "act", "seat": 1, "action": "resign", "record": None}], {"kind": "resign", "seat": 1}),
        ([{"type": "act", "seat": 0, "action": "abort", "record": None}], {"kind": "abort", "seat": 0}),
        ([{"type": "host", "step": "p1 forfeit timeout"}], {"kind": "forfeit", "seat": 1, "reason": "timeout"}),
        ([{"type": "host", "step": "abandon 5000"}], {"kind": "abandon"}),
        (
            [
                {"type": "host", "step": "p1 away 1000"},
                {"type": "claim", "seat": 0, "against": 1, "record": None, "at": 1059},  # too early: END-4
                {"type": "claim", "seat": 0, "against": 1, "record": None, "at": 1060},
            ],
            {"kind": "claim", "seat": 0, "against": 1},
        ),
    ],
    ids=["resign", "abort", "forfeit", "abandon", "claim"],
)
def test_every_ending_on_knock_engine(lines: list[dict[str, Any]], ending: dict[str, Any]) -> None:
    out, log = engine_session(lines, {"claim_after": 60})
    result = ended(out)
    assert {k: v for k, v in result["ending"].items() if v is not None} == ending
    if ending["kind"] in ("abort", "abandon"):  # no winner (END-2, END-6)
        assert result["winner"] is None
    else:
        loser = int(ending["against"] if "against" in ending else ending["seat"])  # a claim's: the seat claimed against
        assert result["winner"] == 1 - loser
    if ending["kind"] == "claim":
        refused = next(m for m in out if m["type"] == "refusal")
        assert refused["rule"] == "END-4"
    verdict = judge(log)
    assert verdict.kind == "pass" and LogReader(log).header.version == (3, 0)


@pytest.mark.rule("PROTO-41", "PROTO-42", "PROTO-43", "PROTO-15")
def test_knock_engine_refuses_a_claim_as_text_without_its_time_and_a_step_that_is_none() -> None:
    out, log = engine_session(
        [
            {"type": "act", "seat": 0, "action": "claim p1 at 100", "record": None},
            {"type": "claim", "seat": 0, "against": 1, "record": None},
            {"type": "host", "step": "p1 leaves"},
            {"type": "host", "step": "p1 back 100"},
        ],
        {"claim_after": 60},
    )
    assert [(m["type"], m.get("rule")) for m in out] == [
        ("refusal", "PROTO-41"),
        ("error", "PROTO-15"),
        ("refusal", "PROTO-43"),
        ("refusal", "END-4"),  # not away
    ]
    assert judge(log).kind == "unfinished"
