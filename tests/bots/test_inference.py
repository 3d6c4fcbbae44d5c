"""The search's reading of the opponent's hand (``knock.bots.inference``): built hands weighed by his last act.
VIS-2."""

from __future__ import annotations

import dataclasses
import random
import statistics
from typing import Any

import pytest

from engine.cards import Card, cards, to_mask
from engine.hand import Hand
from engine.melds import deadwood
from knock.bots import HeuristicBot, make_bot
from knock.bots.inference import (
    NOT_KNOCKED,
    PASSED,
    built_hand,
    likelihood,
    read,
    sample_world,
    sample_worlds,
)
from tests.helpers import deal


def _index(text: str) -> int:
    return Card.parse(text).index


@pytest.mark.rule("VIS-1", "OFFER-1")
def test_the_last_act_read_is_the_card_he_passed_or_discarded() -> None:
    hand = deal("As 2s 3s 4h 4d 5c 9s 9c Td 5h", "2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", upcard="4c")
    assert (read(hand.observation(1)).passed, read(hand.observation(1)).discarded) == (-1, -1)  # nothing seen yet
    hand.play("p1 pass")
    dealer = read(hand.observation(0))
    assert (dealer.passed, dealer.discarded) == (_index("4c"), -1)  # the non-dealer passed the upcard
    hand.play("p0 pass", "p1 draw", "p1 discard Kh")
    after = read(hand.observation(0))
    assert (after.passed, after.discarded) == (-1, _index("Kh"))
    hand.play("p0 pickup")  # the card taken from the pile is still his last discard
    assert read(hand.observation(0)).discarded == _index("Kh")


@pytest.mark.rule("VIS-1")
def test_no_act_is_read_when_the_non_dealer_takes_the_upcard_first() -> None:
    hand = deal("As 2s 3s 4h 4d 5c 9s 9c Td 5h", "2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", upcard="4c")
    hand.play("p1 take")
    reading = read(hand.observation(1))
    assert (reading.passed, reading.discarded) == (-1, -1)


@pytest.mark.rule("KNOCK-2")
def test_a_world_where_his_discard_was_no_loss_or_made_a_knock_weighs_less() -> None:
    hand = deal("As 2s 3s 4h 4d 5c 9s 9c Td 5h", "2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", upcard="4c")
    reading = dataclasses.replace(read(hand.observation(1)), passed=-1, discarded=_index("Qh"))
    loose = to_mask(cards("2c 3d 7c 6d 8s Tc Jd 4s Kh Ks"))  # Qh was his worst card: his discard was right
    assert likelihood(reading, loose) == 1.0
    kept = to_mask(cards("2c 3d 7c 6d 8s Tc Jd Qs Qc 4s"))  # Qh made a set with Qs Qc: a poor discard
    assert likelihood(reading, kept) < 0.01
    near = to_mask(cards("Ac 2c 3c 5d 6d 7d 8h 8d 8c 2h"))  # 2 points left: he could have knocked, and did not
    assert likelihood(reading, near) <= NOT_KNOCKED
    passed = dataclasses.replace(reading, passed=_index("Kc"), discarded=-1)
    assert likelihood(passed, to_mask(cards("Kh Ks 2c 3d 7c 6d 8s Tc Jd 4s"))) == PASSED  # the king would meld
    assert likelihood(passed, loose & ~Card.parse("Ks").bit | Card.parse("5s").bit) == 1.0


@pytest.mark.rule("VIS-2")
def test_built_worlds_hold_the_right_cards_and_less_deadwood_than_cards_picked_one_by_one() -> None:
    hand = Hand.deal(seed=3, dealer=1, executor="compiled")
    bots = [HeuristicBot(), make_bot("simple", 3)]
    while hand.to_act is not None and hand.observation(0).stock_size > 16:
        seat = hand.to_act
        hand.apply(bots[seat].choose(hand.observation(seat), hand.legal_actions()))
    obs = hand.observation(0)
    reading = read(obs)
    assert reading.drops > 3
    rng = random.Random(5)
    built = [built_hand(rng, reading) for _ in range(200)]
    unseen = sum(1 << i for i in reading.unseen)
    for held in built:
        assert held & reading.known == reading.known and held.bit_count() == obs.opponent_hand_size
        assert not held & to_mask(obs.hand) and held & ~reading.known & ~unseen == 0
    picked = [sample_world(rng, reading)[0] for _ in range(200)]
    assert statistics.fmean(map(deadwood, built)) < statistics.fmean(map(deadwood, picked)) - 5


class _OnlyRandom(random.Random):
    """A generator whose other methods are refused: a world may use ``random()``'s sequence only."""

    def shuffle(self, x: object, *args: object) -> None:
        raise AssertionError("random.shuffle's order is not promised across Python versions")

    def choices(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("random.choices is not promised across Python versions")

    def sample(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("random.sample is not promised across Python versions")


@pytest.mark.rule("VIS-2")
def test_worlds_are_drawn_by_random_alone_and_fill_the_unseen_cards() -> None:
    hand = deal("As 2s 3s 4h 4d 5c 9s 9c Td 5h", "2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", upcard="4c")
    hand.play("p1 pass", "p0 pass", "p1 draw", "p1 discard Kh", "p0 draw", "p0 discard Td", "p1 draw", "p1 discard Ks")
    reading = read(hand.observation(0))
    worlds = sample_worlds(_OnlyRandom(2), reading, 30)
    assert worlds == sample_worlds(random.Random(2), reading, 30) and len(worlds) == 30
    for held, stock in worlds:
        assert held.bit_count() == 10 and len(stock) == hand.observation(0).stock_size
        assert held | sum(1 << i for i in stock) == sum(1 << i for i in reading.unseen) | reading.known
