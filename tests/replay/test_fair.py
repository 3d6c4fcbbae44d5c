"""Fair logs (spec/log-format.md LOG-20 .. LOG-22; spec/rules.md DEAL-5 .. DEAL-10): written, replayed, viewed and
signed; and every tampering of a seed, a reveal or a deal refused naming its rule, in full logs and views."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import pytest

from engine import fairdeal
from engine.cards import Card, shuffled_deck
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import GreedyBot, play_match
from replay.codec import T_DEAL, T_FAIR_COMMIT, T_FAIR_REVEAL, T_SEEDS, unpacked
from replay.log import LogError, write_log
from replay.redact import redact
from replay.signing import SigningKey
from replay.verdict import judge
from tests.replay.forge import reseal

KEY = SigningKey(bytes(range(32)))


def fair_game(preset: str = "standard", seed: int = 3) -> tuple[Match, fairdeal.FairChance]:
    rules = RuleSet.preset(preset)
    chance = fairdeal.demo_chance(rules.players, seed)
    match = Match(rules, chance, executor="compiled")
    play_match(match, [GreedyBot() for _ in range(rules.players)])
    return match, chance


def records(data: bytes) -> tuple[Any, list[Any]]:
    header, *body = (v for v, _ in unpacked(io.BytesIO(data)))
    return header, body


def at(body: list[Any], kind: int, nth: int = 0) -> int:
    return [i for i, r in enumerate(body) if type(r) is list and r[0] == kind][nth]


@pytest.fixture(scope="module")
def game() -> tuple[bytes, Match]:
    match, chance = fair_game()
    return write_log(match, fair=chance), match


@pytest.mark.rule("LOG-20", "LOG-21", "LOG-22", "DEAL-10")
@pytest.mark.parametrize("preset", ["standard", "three_handed"])
def test_a_fair_game_and_every_seats_view_pass(preset: str) -> None:
    match, chance = fair_game(preset)
    data = write_log(match, fair=chance)
    header, body = records(data)
    assert header["version"] == [2, 0] and header["fair"] is True and "signer" not in header
    assert judge(data).kind == "pass"
    hands = len([r for r in body if type(r) is list and r[0] == 1])
    assert [len([r for r in body if type(r) is list and r[0] == t]) for t in (13, 14, 15)] == [hands] * 3
    assert body[0][0] == T_FAIR_COMMIT and body[1][0] == T_SEEDS and body[2][0] == 0  # before the draw
    for seat in range(match.rules.players):
        _, view_body = records(redact(data, seat))
        assert judge(redact(data, seat)).kind == "pass"
        assert [r for r in view_body if type(r) is list and r[0] in (13, 14, 15)] == [
            r for r in body if type(r) is list and r[0] in (13, 14, 15)
        ]  # seeds and commitments are public


@pytest.mark.rule("LOG-20", "LOG-18", "LOG-17")
def test_signed_and_fair_together(game: tuple[bytes, Match]) -> None:
    match, chance = fair_game()
    data = write_log(match, fair=chance, key=KEY)
    header, _ = records(data)
    assert header["fair"] is True and header["signer"] == KEY.public
    assert judge(data, signer=KEY.public).kind == "pass"
    assert judge(redact(data, 0, key=KEY, table="t", made=0), signer=KEY.public).kind == "pass"
    unsigned = redact(data, 0)  # made without a key: a fair view of format 2.0, which keeps `fair` (LOG-20)
    assert records(unsigned)[0]["version"] == [2, 0] and records(unsigned)[0]["fair"] is True
    assert judge(unsigned).kind == "pass"


@pytest.mark.rule("LOG-3", "LOG-20")
def test_a_seeded_game_still_writes_version_1() -> None:
    m = Match.new(seed=3)
    play_match(m, [GreedyBot(), GreedyBot()])
    header, body = records(write_log(m))
    assert header["version"] == [1, 0] and "fair" not in header
    assert not [r for r in body if type(r) is list and r[0] in (13, 14, 15)]


def fails(data: bytes, rule: str, record: int | None = None) -> None:
    verdict = judge(data)
    assert verdict.kind == "fail" and not verdict.internal and verdict.rule == rule, verdict
    if record is not None:
        assert verdict.record == record, verdict


def tampered(data: bytes, change: Any, seat: int | None = None) -> bytes:
    if seat is not None:
        data = redact(data, seat)
    header, body = records(data)
    change(header, body)
    return reseal(header, body)


@pytest.mark.rule("DEAL-10")
@pytest.mark.parametrize("seat", [None, 0, 1])
def test_a_changed_seat_seed_is_refused_at_the_reveal(game: tuple[bytes, Match], seat: int | None) -> None:
    data, _ = game

    def change(header: Any, body: list[Any]) -> None:
        body[1][1][0] = bytes(32)  # p0's seed (the server supplied none: p0's would fail DEAL-9)
        body[1][2] = [1]

    forged = tampered(data, change, seat)
    _, body = records(forged)
    fails(forged, "DEAL-10", at(body, T_FAIR_REVEAL) + 1)


@pytest.mark.rule("DEAL-9")
@pytest.mark.parametrize("seat", [None, 1])
def test_a_supplied_seed_that_its_server_seed_does_not_give_is_refused(
    game: tuple[bytes, Match], seat: int | None
) -> None:
    data, _ = game

    def change(header: Any, body: list[Any]) -> None:
        body[1][1][1] = bytes(32)  # p1's seed, which the log says the server supplied

    forged = tampered(data, change, seat)
    fails(forged, "DEAL-9", at(records(forged)[1], T_FAIR_REVEAL) + 1)


@pytest.mark.rule("DEAL-9")
@pytest.mark.parametrize("seat", [None, 0])
def test_a_reveal_that_does_not_match_its_commitment_is_refused(game: tuple[bytes, Match], seat: int | None) -> None:
    data, _ = game

    def change(header: Any, body: list[Any]) -> None:
        i = at(body, T_FAIR_REVEAL, 1)
        body[i] = [T_FAIR_REVEAL, bytes(32)]

    forged = tampered(data, change, seat)
    fails(forged, "DEAL-9", at(records(forged)[1], T_FAIR_REVEAL, 1) + 1)


@pytest.mark.rule("LOG-20")
@pytest.mark.parametrize("seat", [None, 1])
def test_a_missing_reveal_is_refused_at_the_checkpoint(game: tuple[bytes, Match], seat: int | None) -> None:
    data, _ = game

    def change(header: Any, body: list[Any]) -> None:
        del body[at(body, T_FAIR_REVEAL, 2)]

    forged = tampered(data, change, seat)
    _, body = records(forged)
    fails(forged, "LOG-20", at(body, 8, 2) + 1)


@pytest.mark.rule("LOG-20", "LOG-21")
@pytest.mark.parametrize("seat", [None, 0])
def test_a_hand_without_its_commitment_or_seeds_is_refused(game: tuple[bytes, Match], seat: int | None) -> None:
    data, _ = game

    def change(header: Any, body: list[Any]) -> None:
        i = at(body, T_FAIR_COMMIT, 1)
        del body[i : i + 2]

    forged = tampered(data, change, seat)
    fails(forged, "LOG-20")


@pytest.mark.rule("DEAL-10")
def test_a_deck_that_does_not_follow_from_the_seeds_is_refused(game: tuple[bytes, Match]) -> None:
    """A server dealing its own deck (here, the seeded shuffle of DEAL-2) while logging honest seeds."""
    rules = RuleSet()
    honest = fairdeal.demo_chance(2, 3)

    class Stacked(fairdeal.FairChance):
        def deck(self) -> tuple[Card, ...]:
            self.number += 1
            self.seeds(self.number)
            return shuffled_deck(self.number)

    stacked = Stacked(2, honest.server, honest.seat)
    match = Match(rules, stacked)
    play_match(match, [GreedyBot(), GreedyBot()])
    data = write_log(match, fair=stacked)
    fails(data, "DEAL-10", at(records(data)[1], T_FAIR_REVEAL) + 1)
    with pytest.raises(LogError, match="DEAL-10"):  # no view is made of a log that fails
        redact(data, 0)


@pytest.mark.rule("DEAL-10")
def test_a_view_with_its_own_cards_changed_is_refused(game: tuple[bytes, Match]) -> None:
    data, _ = game

    def change(header: Any, body: list[Any]) -> None:
        i = at(body, T_DEAL)
        deal = bytearray(body[i][1])
        mine = [p for p in range(20) if deal[p] != 255]
        deal[mine[0]], deal[20] = deal[20], deal[mine[0]]  # the upcard and one of the seat's cards swapped
        body[i][1] = bytes(deal)

    forged = tampered(data, change, 0)
    verdict = judge(forged)
    assert verdict.kind == "fail" and verdict.rule in ("DEAL-10", "LOG-16", "LOG-12", "TURN-3"), verdict


@pytest.mark.rule("LOG-20")
def test_fair_records_in_a_log_that_is_not_fair_and_the_header_keys(game: tuple[bytes, Match]) -> None:
    data, _ = game

    def undeclare(header: Any, body: list[Any]) -> None:
        del header["fair"]
        header["signer"] = KEY.public  # still version 2.0

    fails(tampered(data, undeclare), "LOG-20", 1)

    def both(header: Any, body: list[Any]) -> None:
        header["commitments"] = True

    fails(tampered(data, both), "LOG-20", 0)

    def version_1(header: Any, body: list[Any]) -> None:
        header["version"] = [1, 0]

    fails(tampered(data, version_1), "LOG-1", 0)

    def not_a_boolean(header: Any, body: list[Any]) -> None:
        header["fair"] = 1

    fails(tampered(data, not_a_boolean), "LOG-20", 0)


@pytest.mark.rule("LOG-20")
def test_the_writer_refuses_fair_with_shuffle_commitments() -> None:
    match, chance = fair_game()
    with pytest.raises(LogError, match="LOG-20"):
        write_log(match, fair=chance, commit_key=b"k")


@pytest.mark.rule("LOG-20")
def test_a_fair_log_is_not_resumed(game: tuple[bytes, Match]) -> None:
    from replay.resume import ResumeError, resume

    data, _ = game
    with pytest.raises(ResumeError, match="LOG-20"):
        resume(data[: len(data) // 2])


@pytest.mark.rule("DEAL-10", "LOG-16")
def test_a_view_checks_the_other_seats_shown_cards_against_the_deck() -> None:
    """A view's reader knows where the other seat's cards came from (its dealt positions, its stock draws, its
    pickups): every card it melds or lays off at the showdown must be one of those the seeds put there."""
    from replay.fair import FairCheck, FairError

    server, seeds = bytes(32), (bytes([1]) * 32, bytes([2]) * 32)
    deck = fairdeal.deal_codes(server, seeds, 1)

    def reader(shown: list[int], drew: int | None = None, took: int | None = None) -> FairCheck:
        check = FairCheck(True, 2)
        check.commit([T_FAIR_COMMIT, fairdeal.commitment(server)], False, 0)
        check.take_seeds([T_SEEDS, list(seeds), []])
        check.hand(1)
        check.deal(bytes(deck[i] if i % 2 == 0 or i == 20 else 255 for i in range(52)))  # p0's view, p1 deals
        check.dealt_to(1, (0, 1), 0)
        if drew is not None:
            check.other_draw(1, drew)
        if took is not None:
            check.other_took(1, took)
        check.other_showed(1, [Card.from_index(c) for c in shown])
        return check

    reader([deck[1], deck[3], deck[19]]).reveal([T_FAIR_REVEAL, server], False)  # p1's own dealt cards
    reader([deck[1], deck[25]], drew=25).reveal([T_FAIR_REVEAL, server], False)  # and a card it drew
    reader([deck[1], deck[0]], took=deck[0]).reveal([T_FAIR_REVEAL, server], False)  # and one it took
    for shown in ([deck[1], deck[0]], [deck[1], deck[25]], [deck[20]]):  # p0's card, an undrawn card, the upcard
        with pytest.raises(FairError, match="DEAL-10: p1 shows cards"):
            reader(shown).reveal([T_FAIR_REVEAL, server], False)


class SignedChance(fairdeal.FairChance):
    """A fair game whose seats committed first and signed every reveal (DEAL-11, DEAL-12): seat 0's seed its own,
    seat 1's supplied, as at a table of one person and a bot."""

    def __init__(self, players: int, seed: int) -> None:
        demo = fairdeal.demo_chance(players, seed)
        super().__init__(players, demo.server, lambda n, s: bytes([n % 256, s]) * 16 if s == 0 else None)

    def seeds(self, number: int) -> fairdeal.FairSeeds:
        got = self.hands.get(number)
        if got is None:
            plain = super().seeds(number)
            sent = [None if s in plain.supplied else plain.seats[s] for s in range(self.players)]
            committed = fairdeal.FairSeeds.gather(number, plain.server, sent, committed=True)
            assert committed.set_hash is not None
            said = fairdeal.statement_message(committed.set_hash, 0, committed.seats[0])
            got = dataclasses.replace(committed, statements=((0, KEY.public, KEY.sign(said)),))
            self.hands[number] = got
        return got


@pytest.mark.rule("LOG-25", "LOG-26", "DEAL-11", "DEAL-12", "LOG-13")
def test_every_hand_of_a_long_game_holds_its_commitments_and_its_statement() -> None:
    """A game of many hands written with every hand's seat commitments and a seat's statement (version 3.0) passes
    and says so; the records sit where LOG-25 and LOG-26 put them, hand after hand (a writer that lost track of a
    later hand's statement, or of its shuffle commitment's key, fails here)."""
    rules = RuleSet.preset("standard")
    chance = SignedChance(rules.players, 11)
    match = Match(rules, chance, executor="compiled")
    play_match(match, [GreedyBot(), GreedyBot()])
    data = write_log(match, fair=chance, endings=True)
    verdict = judge(data)
    assert verdict.kind == "pass" and verdict.seats_committed and verdict.seats_signed == (0,), verdict
    _, body = records(data)
    hands = match.number
    assert hands >= 3
    kinds = [r[0] if type(r) is list else None for r in body]
    assert kinds.count(23) == kinds.count(24) == kinds.count(T_SEEDS) == hands
    assert 10 not in kinds  # no shuffle commitment in a fair log (LOG-20)
    for n in range(hands):
        assert kinds[at(body, T_SEEDS, n) - 1] == 23 and kinds[at(body, T_SEEDS, n) + 1] == 24
