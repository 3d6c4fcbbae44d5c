"""Fair dealing in the engine (spec/rules.md, section 3, fair dealing): the derivation's parts, and a game dealt
by it."""

from __future__ import annotations

import pytest

from engine import fairdeal
from engine.cards import DECK
from engine.errors import InvalidDeal
from engine.events import CutDrawn, Dealt
from engine.match import Match
from engine.rules import RuleSet
from replay.codec import deck_of


@pytest.mark.rule("DEAL-7")
@pytest.mark.parametrize("n", [2, 3, 7, 13, 51, 52])
def test_an_integer_below_n_takes_every_value_equally_often_from_the_bytes_it_accepts(n: int) -> None:
    counts = [0] * n
    rejected = 0
    for b in range(256):
        got = fairdeal.below(iter([b, 0]), n)
        if b < 256 - 256 % n:
            counts[got] += 1
        else:
            rejected += 1
            assert got == 0  # the byte was discarded: the next one (0) gave the integer
    assert len(set(counts)) == 1 and rejected == 256 % n


@pytest.mark.rule("DEAL-8")
def test_fisher_yates_runs_from_the_last_position_down() -> None:
    # Each step takes the byte 0: position i swaps with 0, for i = 51 … 1.
    deck = fairdeal.fisher_yates(iter([0] * 60))
    expected = list(range(52))
    for i in range(51, 0, -1):
        expected[i], expected[0] = expected[0], expected[i]
    assert list(deck) == expected and sorted(deck) == list(range(52))


@pytest.mark.rule("DEAL-5")
@pytest.mark.parametrize("bad", [b"", bytes(31), bytes(33)])
def test_a_seed_that_is_not_32_bytes_is_refused(bad: bytes) -> None:
    with pytest.raises(InvalidDeal, match="DEAL-5"):
        fairdeal.deal_codes(bytes(32), [bytes(32), bad], 1)
    with pytest.raises(InvalidDeal, match="DEAL-5"):
        fairdeal.FairSeeds.gather(1, bad, [None, None])


@pytest.mark.rule("DEAL-9")
def test_a_revealed_seed_or_supplied_seed_that_does_not_follow_is_refused() -> None:
    seeds = fairdeal.FairSeeds.gather(3, bytes([9]) * 32, [bytes([1]) * 32, None])
    assert seeds.supplied == (1,) and seeds.seats[1] == fairdeal.supplied_seed(seeds.server, 3, 1)
    assert fairdeal.check(seeds.seats, seeds.supplied, seeds.server, seeds.commitment, 3) == tuple(
        c.index for c in seeds.deck()
    )
    with pytest.raises(InvalidDeal, match="DEAL-9"):
        fairdeal.check(seeds.seats, seeds.supplied, bytes([8]) * 32, seeds.commitment, 3)
    other = (seeds.seats[0], bytes([7]) * 32)
    with pytest.raises(InvalidDeal, match="DEAL-9"):
        fairdeal.check(other, seeds.supplied, seeds.server, seeds.commitment, 3)


@pytest.mark.rule("DEAL-6", "DEAL-8")
def test_every_hand_and_the_draw_have_their_own_deck() -> None:
    server, seats = bytes(32), [bytes([1]) * 32, bytes([2]) * 32]
    decks = {fairdeal.deal_codes(server, seats, n) for n in range(1, 6)} | {fairdeal.draw_codes(server, seats)}
    assert len(decks) == 6
    swapped = fairdeal.deal_codes(server, seats[::-1], 1)
    assert swapped != fairdeal.deal_codes(server, seats, 1)  # the seeds count in seat order


@pytest.mark.rule("DEAL-8", "MATCH-7", "DEAL-5")
@pytest.mark.parametrize("preset", ["standard", "three_handed"])
def test_a_fair_game_draws_and_deals_from_each_hands_seeds(preset: str) -> None:
    rules = RuleSet.preset(preset)
    chance = fairdeal.demo_chance(rules.players, 5)
    m = Match(rules, chance)
    first = chance.seeds(1)
    drawn = [c for e in m.events if isinstance(e, CutDrawn) for c in e.cards]
    draw_deck = fairdeal.draw_codes(first.server, first.seats)
    assert [c.index for c in drawn] == list(draw_deck[: len(drawn)])
    dealt = next(e for e in m.events if isinstance(e, Dealt))
    assert deck_of(dealt) == first.deck() == tuple(DECK[c] for c in fairdeal.deal_codes(first.server, first.seats, 1))
    assert first.supplied == tuple(range(rules.players))
    again = Match(rules, fairdeal.demo_chance(rules.players, 5))
    assert again.events == m.events
