"""A table in-process: what each seat is sent, acting by record number, refusals, bots and rebuilding."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import pytest

from engine.cards import cards, from_mask, to_mask
from engine.melds import best_arrangement
from engine.visibility import SeatLens
from knock.web.client import choose
from knock.web.game import Game, bot_seed
from knock.web.protocol import Message
from knock.web.recovery import RecoveryError, rebuild
from knock.web.tablespec import TableSpec, table_spec
from replay.narration import Voice, display_names, narrate
from tests.web.support import valid

CARD = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][cdhs](?![A-Za-z0-9])")


def spec(preset: str = "standard", *players: str, seed: int = 7, **options: object) -> TableSpec:
    """A table of ``players`` (human, or a bot's name); games to 40 unless told, to keep the tests short."""
    options.setdefault("target", 40)
    seats = [{"player": "human"} if p == "human" else {"player": "bot", "bot": p} for p in players]
    return table_spec({"preset": preset, "options": options, "seed": seed, "seats": seats}, bot_delay=0,
                      commitments=False)  # fmt: skip


def play(
    table: Game,
    rng: random.Random,
    *,
    advise: float = 0.0,
    each: Callable[[dict[int | None, list[Message]]], None] | None = None,
) -> bytes:
    """Play the table to its end (bots and the wire client's choices), every frame valid; returns the log."""
    log = b""
    for _ in range(10_000):
        if table.over:
            return log
        table.advance()
        frames = {k: table.frames(k) for k in table.lenses}
        for fs in frames.values():
            for f in fs:
                valid(f)
        if each is not None:
            each(frames)
        seat = table.bot_to_move()
        if seat is not None:
            text = table.bot_action(seat)
        else:
            views = {k: fs[-1] for k, fs in frames.items() if k is not None}
            sitter = table.match.sitter
            if sitter in views and (advice := choose(views[sitter], rng, advise=advise)) is not None:
                seat, text = sitter, advice
            else:
                seat = table.match.to_act
                assert seat is not None
                text = choose(views[seat]) or ""
        outcome = table.act(seat, text, table.record)
        assert outcome.applied is not None, outcome.reply
        log += outcome.chunk
    raise AssertionError("the game did not end")


@pytest.mark.rule("PROTO-5", "VIS-1", "THREE-8")
@pytest.mark.parametrize("sees", [True, False])
def test_a_seats_view_is_its_observation_and_its_lens(sees: bool) -> None:
    s = spec("three_handed", "human", "human", "human", sitter_sees_captain_hand=sees, target=20)
    table, _ = Game.new("t", s)
    m = table.match
    lenses = {k: SeatLens(m.rules, k) for k in (0, 1, 2, None)}
    names = display_names(tuple(seat.name for seat in s.seats))
    voices = {k: Voice(names, me=k, seats=3) for k in lenses}  # each told its events: the players by name, it "you"
    texts = {k: [narrate(e, voices[k]) for e in lenses[k].see_all(m.events)] for k in lenses}
    sent: dict[int | None, list[str]] = {k: [e["text"] for e in table.full_view(k)["events"]] for k in lenses}
    fed = len(m.events)

    def each(frames: dict[int | None, list[Message]]) -> None:
        nonlocal fed
        for k, lens in lenses.items():
            texts[k] += [narrate(lens.see(e), voices[k]) for e in m.events[fed:]]
        fed = len(m.events)
        for k, fs in frames.items():
            view = fs[-1]
            sent[k] += [e["text"] for e in view["events"]]
            assert sent[k][-len(texts[k]) :] == texts[k][-len(sent[k]) :]
            v = view["view"]
            if k is None:
                assert v["cards"] == [] and v["role"] == "spectator" and view["legal"] == []
                continue
            obs = m.observation(k)
            assert obs.hand is not None
            assert v["cards"] == [str(c) for c in sorted(obs.hand.hand)]
            assert v["role"] == obs.role and v["to_act"] == m.to_act and v["scores"] == list(m.scores)
            if k == m.sitter and not sees:
                assert v["cards"] == [] and all(len(a.split()) <= 3 for a in view["legal"])  # no card named
            if v["cards"]:
                best = best_arrangement(to_mask(cards(" ".join(v["cards"]))))
                assert v["deadwood"] == best.deadwood
            if k == m.to_act:
                assert view["legal"] == [str(a) for a in m.legal_actions()]
            assert view["record"] == table.record

    play(table, random.Random(3), advise=0.5, each=each)
    assert m.is_over


@pytest.mark.rule("PROTO-6")
def test_a_spectator_is_shown_no_card_a_seat_holds_unseen() -> None:
    table, _ = Game.new("t", spec("standard", "heuristic", "random"))
    kinds: set[str] = set()

    def each(frames: dict[int | None, list[Message]]) -> None:
        hand = table.match.hand
        assert hand is not None
        view = frames[None][-1]
        now = [e for e in view["events"] if e["hand"] == view["view"]["hand"]]
        kinds.update(e["kind"] for e in now)
        named = set(CARD.findall(json.dumps([view["view"], view["legal"], now])))
        assert not named & {str(c) for c in hand.stock}  # the stock: never
        if hand.is_over:
            return
        shown = set(CARD.findall(str(hand.spread))) | set(CARD.findall(str(hand.defence)))  # laid face up
        for seat in hand.seats:  # what a seat holds: only the cards it took from the pile, which all saw
            unseen = {str(c) for c in hand.cards_of(seat)} - {str(c) for c in from_mask(hand.known[seat])} - shown
            assert not named & unseen, (seat, named & unseen)

    play(table, random.Random(1), each=each)
    assert {"hidden_draw", "hidden_knock", "dealt"} <= kinds


@pytest.mark.rule("PROTO-7")
def test_an_act_is_applied_at_its_record_once() -> None:
    table, _ = Game.new("t", spec("standard", "human", "human"))
    seat, record = table.match.to_act, table.record
    assert seat is not None
    first = table.act(seat, "pass", record)
    assert first.applied is not None and first.reply == {
        "type": "ack",
        "seat": seat,
        "action": "pass",
        "record": record,
        "next": record + 1,
        "duplicate": False,
    }
    again = table.act(seat, "pass", record)
    assert again.applied is None and again.reply["duplicate"] and again.reply["next"] == record + 1
    assert table.record == record + 1
    other = table.match.to_act
    assert other is not None
    stale = table.act(other, "pass", record)
    assert stale.reply["type"] == "refusal" and stale.reply["rule"] == "PROTO-7" and stale.reply["record"] == record + 1
    assert table.act(seat, "take", record).reply["rule"] == "PROTO-7"  # not what was applied there


@pytest.mark.rule("PROTO-8", "PROTO-3", "PROTO-41", "TURN-1", "TURN-3", "THREE-8", "NOTE-2", "NOTE-5", "NOTE-11")
def test_refusals_carry_the_engines_rule_and_change_nothing() -> None:
    table, _ = Game.new("t", spec("standard", "human", "human"))
    seat = table.match.to_act
    assert seat is not None
    other = 1 - seat
    record = table.record
    cases = [
        (other, "pass", "TURN-1"),  # out of turn
        (seat, "discard Kh", "TURN-1"),  # not in this phase
        (seat, "shout", "NOTE-5"),  # not an action (spec/notation.md)
        (seat, "discard Xx", "NOTE-2"),  # not a card
        (seat, "spread As-Kd", "MELD-1"),  # cards that are no meld
        (seat, f"p{other} pass", "PROTO-3"),  # a seat acts only for itself
        (other, "resign now", "NOTE-11"),  # a resignation takes no argument
        (seat, f"claim p{other} at 100", "PROTO-41"),  # a claim's time is the host's: asked with the message claim
    ]
    for who, text, rule in cases:
        reply = table.act(who, text, record).reply
        assert reply["type"] == "refusal" and reply["rule"] == rule, (text, reply)
        assert reply["reason"] and table.record == record
    table.act(seat, "pass", record)
    table.act(other, "pass", record + 1)
    table.act(seat, "draw", record + 2)
    held = {str(c) for c in table.match.hand.cards_of(seat)}  # type: ignore[union-attr]
    missing = next(c for c in ("As", "Kh", "7d", "2c") if c not in held)
    reply = table.act(seat, f"discard {missing}", record + 3).reply
    assert reply["rule"] == "TURN-3"
    blind, _ = Game.new("b", spec("three_handed", "human", "human", "human", sitter_sees_captain_hand=False))
    m = blind.match
    assert m.sitter is not None
    reply = blind.act(m.sitter, f"advise p{m.captain} knock Kh", blind.record).reply
    assert reply["rule"] == "THREE-8" and "Kh" not in reply["reason"]


@pytest.mark.rule("NOTE-1", "NOTE-2", "NOTE-5", "NOTE-9", "PROTO-7")
def test_the_server_reads_the_notations_accepted_forms_and_acknowledges_the_canonical_text() -> None:
    """What the browser or any client sends is read by the engine's one reader (spec/notation.md): any letter
    case, ``10`` for ``T``, white space around; the ack carries the canonical text, and a resend in another
    accepted form of the same action is the same action (a duplicate)."""
    table, _ = Game.new("t", spec("standard", "human", "human"))
    seat = table.match.to_act
    assert seat is not None
    record = table.record
    assert table.act(seat, "  PASS\t", record).reply["action"] == "pass"
    again = table.act(seat, "Pass", record).reply
    assert again["type"] == "ack" and again["duplicate"] is True
    table.act(1 - seat, "pass", record + 1)
    table.act(seat, "Draw", record + 2)
    card = table.match.hand.cards_of(seat)[0]  # type: ignore[union-attr]
    typed = f"DISCARD {str(card).replace('T', '10').swapcase()}"
    reply = table.act(seat, typed, record + 3).reply
    assert reply["type"] == "ack" and reply["action"] == f"discard {card}", (typed, reply)


@pytest.mark.rule("PROTO-14")
def test_bots_choose_from_the_seed_and_the_record_alone() -> None:
    assert bot_seed(5, 1, 40) == bot_seed(5, 1, 40) != bot_seed(5, 1, 41)
    assert bot_seed(5, 1, 40) == 0x3FA79DD99E6BE7F6  # pinned: the same in every process, whatever PYTHONHASHSEED is
    s = spec("three_handed", "random", "greedy", "random", seed=11)
    logs = []
    for _ in range(2):
        table, head = Game.new("t", s)
        logs.append(head + play(table, random.Random(0)))
    assert logs[0] == logs[1]


@pytest.mark.rule("PROTO-13", "PROTO-14", "MATCH-7")
def test_a_table_rebuilt_from_its_log_goes_on_as_before() -> None:
    s = spec("three_handed", "random", "heuristic", "random", seed=5)
    whole, head = Game.new("t", s)
    full = head + play(whole, random.Random(0))
    cut = 0
    for i in range(60, len(full)):  # a record boundary well into the game: the bytes of the first 60 records or so
        try:
            table, verdict = rebuild("t", s, full[:i], _records(full[:i]), [], None)
        except (RecoveryError, ValueError):
            continue
        cut = i
        break
    assert cut and verdict.kind == "unfinished"
    rest = play(table, random.Random(0))
    assert full[:cut] + rest == full


def _records(data: bytes) -> int:
    from replay.verdict import judge

    v = judge(data)
    if v.kind != "unfinished" or v.record is None:
        raise ValueError(v.kind)
    return v.record


@pytest.mark.rule("PROTO-13")
def test_a_log_that_does_not_rebuild_is_refused_with_its_verdict() -> None:
    s = spec("standard", "greedy", "random", seed=5)
    table, head = Game.new("t", s)
    data = head + play(table, random.Random(0))
    short = data[: len(head) + 5]
    with pytest.raises(RecoveryError) as caught:
        rebuild("t", s, short, 99, [], None)
    assert caught.value.verdict is not None
    with pytest.raises(RecoveryError, match="seed"):  # another seed's table: the log's deals are not its
        other = spec("standard", "greedy", "random", seed=6)
        rebuild("t", other, head, _records(head), [], None)
    damaged = head[:-3] + bytes([head[-3] ^ 0x40]) + head[-2:]
    with pytest.raises(RecoveryError):
        rebuild("t", s, damaged, _records(head), [], None)


@pytest.mark.rule("PROTO-32")
def test_a_defenders_view_ranks_its_defences_by_the_deadwood_each_leaves() -> None:
    """Every view's ``defences``: empty but for the defender choosing its answer, then each of its offered
    defences once, with the deadwood it leaves (the value of its cards neither shown nor laid off, counted here
    from the defence itself), the least first, ties in ``legal``'s order; the same for the spectator: none."""
    seen = 0
    for seed in range(1, 9):
        table, _ = Game.new("t", spec("standard", "human", "human", seed=seed, target=1))

        def check(frames: dict[int | None, list[Message]]) -> None:
            nonlocal seen
            for key, fs in frames.items():
                last = fs[-1]
                offered = [a for a in last["legal"] if a.split(" ")[0] == "layoff"]
                if key is None or not offered:
                    assert last["defences"] == []
                    continue
                held = cards(" ".join(last["view"]["cards"]))
                left = {}
                for a in offered:
                    used = {c for part in a.split(" ")[1:] for c in part.split(">")[0].split("-")}
                    left[a] = sum(c.value for c in held if str(c) not in used)
                ranked = sorted(offered, key=lambda a: (left[a], offered.index(a)))
                assert last["defences"] == [{"action": a, "deadwood": left[a]} for a in ranked]
                seen += len(offered) > 1

        play(table, random.Random(seed), each=check)
    assert seen  # some defender had a choice


@pytest.mark.rule("PROTO-34", "PROTO-5", "PROTO-6")
@pytest.mark.parametrize("preset, players", [("standard", ("human", "human")),
                                             ("three_handed", ("human", "human", "human"))])  # fmt: skip
def test_every_view_lists_the_hands_discards_and_who_picked_each_up(preset: str, players: tuple[str, ...]) -> None:
    """Every view's ``discards``: the upcard, then each discard with its seat, in the order the events tell them,
    each picked-up card marked with the seat that took it (as many marks as pickups); the cards not picked up
    are the pile as it stands; public, so every seat and the spectator are sent the same list."""
    picked = 0
    for seed in (2, 5):
        table, _ = Game.new("t", spec(preset, *players, seed=seed, target=30))
        kinds: list[tuple[str, int | None]] = []  # the hand's pile events so far, as the spectator was told

        def check(frames: dict[int | None, list[Message]]) -> None:
            nonlocal picked, kinds
            last = {k: fs[-1] for k, fs in frames.items()}
            lists = [v["discards"] for v in last.values()]
            assert all(d == lists[0] for d in lists), "a seat was sent other discards"
            watched = last[None]
            for e in watched["events"]:
                if e["kind"] == "hand_started":
                    kinds = []
                elif e["kind"] in ("discarded", "upcard_taken", "drew_discard"):
                    kinds.append((e["kind"], e["seat"]))
            d, v = watched["discards"], watched["view"]
            assert d[0]["card"] == v["upcard"] and d[0]["seat"] is None
            assert [x["seat"] for x in d[1:]] == [s for k, s in kinds if k == "discarded"]
            takers = [s for k, s in kinds if k != "discarded"]
            assert sorted(x["taken"] for x in d if x["taken"] is not None) == sorted(s for s in takers if s is not None)
            assert None not in takers
            assert [x["card"] for x in d if x["taken"] is None] == v["discard_pile"]
            picked += sum(x["taken"] is not None for x in d)

        play(table, random.Random(seed), each=check)
    assert picked  # some card was picked up and marked
