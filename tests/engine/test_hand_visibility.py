"""What each seat sees (spec section 12): observations hide the opponent's cards, the stock and the knock discard."""

from __future__ import annotations

import random

import pytest

from engine.actions import (
    Action,
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
from engine.cards import Card, cards, to_mask
from engine.fsm import Phase
from engine.hand import Hand
from engine.melds import best_arrangement, deadwood, discards_within, knock_deadwood
from engine.rules import RuleSet
from engine.showdown import best_defence
from engine.visibility import Observation
from tests.engine.support import cards_in, hidden_from, taken_and_held
from tests.helpers import deal, play

P0 = "As 2s 3s 4h 4d 4c 9s Tc Jd Kh"
P1 = "5c 6c 7c 8d 8h 8s Qs Qh 2d 3h"
KNOCKER = "5c 6c 7c 8d 8h 8s Jc Qc Kc 2d"


def check_observations(hand: Hand) -> None:
    for seat in (0, 1):
        obs = hand.observation(seat)
        assert obs.seat == seat
        assert obs.hand == hand.cards_of(seat)
        assert obs.opponent_hand_size == len(hand.cards_of(1 - seat))
        assert obs.stock_size == len(hand.stock)
        assert obs.discard_pile == tuple(hand.discards)
        assert obs.knock_limit == hand.knock_limit
        assert obs.upcard == hand.upcard
        assert set(obs.opponent_known) == taken_and_held(hand, 1 - seat)
        assert not cards_in(obs) & hidden_from(hand, seat)


# --- VIS-1 --------------------------------------------------------------------------------------------------


@pytest.mark.rule("VIS-1")
def test_a_fresh_observation_holds_only_public_cards_and_own_cards() -> None:
    hand = deal(p0=P0, p1=P1, upcard="7d", stock="Kc 9h")
    obs = hand.observation(0)
    assert obs.hand == tuple(sorted(cards(P0)))
    assert obs.discard_pile == cards("7d")
    assert obs.stock_size == 31
    assert obs.opponent_hand_size == 10
    assert obs.opponent_known == ()
    assert obs.upcard == Card.parse("7d")
    assert obs.knock_limit == 10
    assert cards_in(obs) == {*cards(P0), Card.parse("7d")}
    check_observations(hand)


@pytest.mark.rule("VIS-1")
def test_opponent_known_tracks_cards_taken_from_the_discard_pile_while_held() -> None:
    hand = deal(p0=P0, p1=P1, upcard="7d", stock="Kc 9h")
    play(hand, "p1 take")
    assert hand.observation(0).opponent_known == cards("7d")
    assert hand.observation(1).opponent_known == ()
    assert hand.observation(1).taken == Card.parse("7d")
    assert hand.observation(0).taken is None
    play(hand, "p1 discard Qs", "p0 pickup")
    assert hand.observation(1).opponent_known == cards("Qs")
    assert hand.observation(0).opponent_known == cards("7d")
    play(hand, "p0 discard Kh", "p1 draw")  # Kc from the stock: p0 does not learn it
    assert hand.observation(0).opponent_known == cards("7d")
    assert hand.observation(0).opponent_hand_size == 11
    assert Card.parse("Kc") not in cards_in(hand.observation(0))
    play(hand, "p1 discard 7d")
    assert hand.observation(0).opponent_known == ()
    check_observations(hand)


@pytest.mark.rule("VIS-1")
def test_hidden_cards_and_the_stock_order_do_not_change_an_observation() -> None:
    # Same for p0: p1's Qs and Qh swapped with stock cards p0 has not seen.
    one = deal(p0=P0, p1=P1, upcard="7d", stock="Kc 9h Js Jh")
    two = deal(p0=P0, p1=P1.replace("Qs Qh", "Js Jh"), upcard="7d", stock="Kc 9h Qs Qh")
    moves = ["p1 pass", "p0 pass", "p1 draw", "p1 discard 2d", "p0 draw", "p0 discard 9h", "p1 pickup"]
    for text in [None, *moves]:
        if text is not None:
            play(one, text)
            play(two, text)
        assert one.observation(0) == two.observation(0)
        assert one.observation(1) != two.observation(1)


@pytest.mark.rule("VIS-1", "LAY-7", "KNOCK-1")
def test_the_knock_discard_is_hidden_from_the_defender_for_good() -> None:
    hand = deal(p0=P0, p1=KNOCKER, upcard="7d", stock="Ks")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks")
    for _ in range(2):
        assert hand.observation(1).knock_discard == Card.parse("Ks")
        assert hand.observation(0).knock_discard is None
        assert Card.parse("Ks") not in cards_in(hand.observation(0))
        check_observations(hand)
        if hand.phase is Phase.KNOCK:
            play(hand, "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc", "p0 layoff As-2s-3s 4c-4d-4h Tc>Jc-Qc-Kc")
    assert hand.is_over
    obs = hand.observation(0)
    assert obs.spread is not None and obs.defence is not None and obs.result is not None


@pytest.mark.rule("VIS-1", "LAY-2")
def test_after_gin_the_defenders_cards_stay_hidden_from_the_knocker() -> None:
    hand = deal(p0=P0, p1="5c 6c 7c 8d 8h 8s Jc Qc Kc 8c", upcard="7d", stock="Ks")
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks", "p1 spread 5c-6c-7c 8c-8d-8h-8s Jc-Qc-Kc")
    assert hand.result is not None
    seen = cards_in(hand.observation(1))
    assert not seen & set(cards(P0))
    assert hand.observation(1).result == hand.result


@pytest.mark.rule("VIS-1", "DEAL-2")
@pytest.mark.parametrize("seed", range(12))
def test_observations_never_leak_along_a_seeded_game(seed: int) -> None:
    rng = random.Random(seed)
    hand = Hand.deal(seed=seed, dealer=seed % 2)
    check_observations(hand)
    while not hand.is_over:
        hand.apply(rng.choice(hand.legal_actions()))
        check_observations(hand)


# --- VIS-2: choosing from the observation alone -----------------------------------------------------------


def choose(obs: Observation, rng: random.Random) -> Action:
    """A player that sees only its observation (no rule set, no legal-action list); ``rng`` makes it erratic."""
    seat, mask = obs.seat, to_mask(obs.hand)
    top = obs.discard_pile[-1] if obs.discard_pile else None

    def improves(card: Card) -> bool:
        return knock_deadwood(mask | card.bit) < deadwood(mask)

    def left(card: Card) -> int:
        return deadwood(mask ^ card.bit)

    match obs.phase:
        case Phase.UPCARD_OFFER:
            assert top is not None
            return TakeUpcard(seat) if improves(top) else PassUpcard(seat)
        case Phase.DRAW:
            assert top is not None
            untouched = obs.stock_size == 31 and obs.discard_pile == (obs.upcard,)  # maybe both passed: OFFER-4
            take = not untouched and improves(top) and rng.random() < 0.5
            return DrawDiscard(seat) if take else DrawStock(seat)
        case Phase.WALL:
            assert top is not None
            ok = [c for c in discards_within(mask | top.bit, obs.knock_limit) if c != top]
            return DrawDiscard(seat) if ok else DeclineWall(seat)
        case Phase.DISCARD:
            usable = [c for c in obs.hand if c != obs.taken]
            knocks = [c for c in discards_within(mask, obs.knock_limit) if c != obs.taken]
            must_knock = obs.taken is not None and obs.stock_size == 2  # only the last discard is taken then
            if knocks and (must_knock or rng.random() < 0.3):
                return Knock(seat, min(knocks, key=left))
            if rng.random() < 0.5:
                return Discard(seat, rng.choice(usable))
            return Discard(seat, min(usable, key=left))
        case Phase.KNOCK:
            return Spread(seat, best_arrangement(mask).melds)
        case Phase.LAYOFF:
            assert obs.spread is not None
            d = best_defence(obs.spread.melds, mask)
            return LayOff(seat, d.melds, d.layoffs)
        case _:
            raise AssertionError(f"no move in phase {obs.phase}")


RULE_SETS = {
    "standard": RuleSet(),
    "oklahoma": RuleSet.preset("oklahoma"),
    "wall": RuleSet(wall_pickup_to_knock=True),
    "may discard taken": RuleSet(may_discard_taken_card=True),
    "pickup cap": RuleSet(max_consecutive_discard_pickups=2),
}


@pytest.mark.rule("VIS-2", "VIS-1")
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_a_player_given_only_its_observation_can_always_move(name: str) -> None:
    phases: set[Phase] = set()
    rng = random.Random(name)
    for seed in range(25):
        hand = Hand.deal(RULE_SETS[name], seed=seed, dealer=seed % 2)
        steps = 0
        while (seat := hand.to_act) is not None:
            action = choose(hand.observation(seat), rng)
            assert hand.is_legal(action), (seed, str(action))
            phases.add(hand.phase)
            hand.apply(action)
            steps += 1
            assert steps < 300
        assert hand.result is not None
    assert {Phase.UPCARD_OFFER, Phase.DRAW, Phase.DISCARD, Phase.KNOCK, Phase.LAYOFF} <= phases
    assert (Phase.WALL in phases) == (name == "wall")


@pytest.mark.rule("VIS-2", "LAY-5")
def test_the_automatic_answer_uses_only_the_defenders_observation() -> None:
    answers = set()
    for knock_card in ["Ks", "Qd", "9h"]:  # the face-down card and the stock differ; the defender's view does not
        hand = deal(p0=P0, p1=KNOCKER, upcard="7d", stock=knock_card)
        play(hand, "p1 pass", "p0 pass", "p1 draw", f"p1 knock {knock_card}", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
        obs = hand.observation(0)
        auto = hand.auto_defence()
        d = best_defence(obs.spread.melds if obs.spread else (), to_mask(obs.hand))
        assert auto == LayOff(0, d.melds, d.layoffs)
        answers.add(auto)
    assert len(answers) == 1


@pytest.mark.rule("VIS-2", "KNOCK-4")
def test_the_automatic_spread_uses_only_the_knockers_cards() -> None:
    spreads = set()
    for defender in [P0, "Ac 2c 3c 4s 5s 6s 9s Td Jd Kh", "Ah Ad As 4h 4d 4c 9s Tc Jd Kh"]:
        hand = deal(p0=defender, p1=KNOCKER, upcard="7d", stock="Ks")
        play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks")
        auto = hand.auto_spread()
        assert auto == Spread(1, best_arrangement(to_mask(hand.observation(1).hand)).melds)
        spreads.add(auto)
    assert len(spreads) == 1


@pytest.mark.rule("VIS-1")
def test_an_observation_has_the_fields_of_the_seats_bits_in_their_order() -> None:
    """``Observation`` is built positionally from ``SeatBits`` (``engine.visibility._observe``): the same fields,
    in the same order, then the game's scores (empty for a hand seen on its own); the card sets are the
    bitmasks' cards."""
    from dataclasses import fields

    from engine.cards import from_mask
    from engine.visibility import SeatBits, observe_bits, observe_hand

    assert [f.name for f in fields(Observation)] == [*SeatBits._fields, "scores"]
    hand = Hand.deal(seed=3)
    rng = random.Random(3)
    while hand.to_act is not None:
        for seat in hand.seats:
            view, bits = observe_hand(hand, seat), observe_bits(hand, seat)
            assert view.hand == from_mask(bits.hand) and view.opponent_known == from_mask(bits.opponent_known)
            assert view.scores == ()
            assert [getattr(view, f) for f in SeatBits._fields if f not in ("hand", "opponent_known")] == [
                getattr(bits, f) for f in SeatBits._fields if f not in ("hand", "opponent_known")
            ]
        legal = hand.legal_actions()
        hand.apply(legal[int(rng.random() * len(legal))])
