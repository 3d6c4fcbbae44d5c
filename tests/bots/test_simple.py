"""The ``simple`` bot (the EAAI baseline, ported): its decisions, its view (VIS-2), and every bot on any state."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Discard, DrawStock, Knock, TakeUpcard
from engine.cards import Card, cards, shuffled_deck, to_mask
from engine.errors import IllegalAction
from engine.events import HandStarted
from engine.hand import Hand
from engine.match import Match
from engine.melds import Meld
from engine.rules import RuleSet
from knock.bots import BOT_NAMES, Bot, make_bot, play_match
from knock.bots.search import LEVELS
from knock.bots.simple import (
    EAAI_RULES,
    SimpleBot,
    best_meld_sets,
    discard_candidates,
    game_layoffs,
    java_order,
    would_meld,
)
from tests.helpers import deal, quick_bot
from tests.support.twins import hidden_cards


def m(text: str) -> int:
    return to_mask(cards(text))


@pytest.mark.rule("MELD-1", "MELD-2")
def test_the_face_up_card_is_taken_only_when_it_would_be_part_of_a_meld() -> None:
    hand = m("4c 5c 9d 9h Ks 2s 7h Jd Qc 3d")
    assert would_meld(hand, Card.parse("6c"))  # 4c 5c 6c
    assert would_meld(hand, Card.parse("3c"))  # 3c 4c 5c
    assert would_meld(hand, Card.parse("9s"))  # a set of nines
    assert not would_meld(hand, Card.parse("7c"))  # 4c 5c _ 7c: no run
    assert not would_meld(hand, Card.parse("Kh"))  # a pair is no meld


@pytest.mark.rule("MELD-4", "TURN-4")
def test_the_discard_is_among_the_least_deadwood_never_the_card_taken_nor_a_repeated_pair() -> None:
    hand = m("As 2s 3s 7h 7d 7c Kd Qc Jh 9c 8h")
    assert set(discard_candidates(hand, None, None, frozenset())) == set(cards("Qc Kd Jh"))
    kd, qc = Card.parse("Kd"), Card.parse("Qc")
    assert kd not in discard_candidates(hand, kd, kd, frozenset())  # the face-up card just taken
    pairs = frozenset({kd.bit | qc.bit})  # drawn Kd and discarded Qc before (or drawn Qc, discarded Kd)
    assert qc not in discard_candidates(hand, kd, None, pairs)
    assert kd not in discard_candidates(hand, qc, None, pairs)
    alone = frozenset({kd.bit})  # drew Kd from the stock and discarded it before
    assert set(discard_candidates(hand, kd, None, alone)) == {qc, Card.parse("Jh")}


@pytest.mark.rule("MELD-4")
def test_best_meld_sets_are_every_minimum_deadwood_arrangement_and_none_without_a_meld() -> None:
    sets = best_meld_sets(m("Ac 2c 3c 4c 5c 6c Kd Qh 9s 8d"))  # one run of six, or two of three
    assert sorted(" ".join(map(str, s)) for s in sets) == ["Ac-2c-3c 4c-5c-6c", "Ac-2c-3c-4c-5c-6c"]
    assert best_meld_sets(m("Ac 3d 5h 7s 9c Jd Kh 2s 4c 6d")) == []


@pytest.mark.rule("LAY-3", "LAY-4")
def test_layoffs_follow_the_eaai_games_loop_in_the_java_card_order() -> None:
    run, eights = Meld.of(cards("5h 6h 7h")), Meld.of(cards("8c 8d 8s"))
    # 8h fits both melds; the Java game tries the knocker's melds in order, so the run takes it, and then 9h.
    laid = game_layoffs(m("8h 9h Kc"), (run, eights))
    assert [(str(lo.card), str(lo.onto)) for lo in laid] == [("8h", str(run)), ("9h", str(run))]
    laid = game_layoffs(m("8h 9h Kc"), (eights, run))  # the set first: 8h goes there and 9h fits nothing
    assert [(str(lo.card), str(lo.onto)) for lo in laid] == [("8h", str(eights))]
    assert sorted(cards("Ad 2c Ah As"), key=java_order) == list(cards("2c Ah As Ad"))  # C H S D, ace first


@pytest.mark.rule("VIS-2")
def test_simple_knocks_as_soon_as_it_may_and_spreads_minimum_deadwood() -> None:
    hand = deal("2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", "As 2s 3s 4h 4d 4c 9s 9c 9d 5h", upcard="Jc", stock="Kc")
    bot = SimpleBot(1)
    take = bot.choose(hand.observation(1), hand.legal_actions())
    assert take == hand.legal_actions()[0]  # Jc melds nothing: pass
    hand.apply(take)
    hand.apply(hand.legal_actions()[0])  # p0 passes too
    assert isinstance(bot.choose(hand.observation(1), hand.legal_actions()), DrawStock)
    hand.apply(DrawStock(1))  # Kc
    choice = bot.choose(hand.observation(1), hand.legal_actions())
    assert choice == Knock(1, Card.parse("Kc"))  # the one discard leaving the least deadwood (5): a knock
    hand.apply(choice)
    spread = bot.choose(hand.observation(1), hand.legal_actions())
    hand.apply(spread)
    assert hand.spread is not None and hand.spread.deadwood <= 10


def _replay(rules: RuleSet, deck: list[Card], moves: list[Action], swap: dict[Card, Card]) -> list[Action] | None:
    """Seat 1's choices by a fresh ``simple`` bot when seat 0's moves are replayed with the cards swapped."""
    hand = Hand.from_deck(rules, [swap.get(c, c) for c in deck])
    bot, mine = SimpleBot(5), []
    others = iter(moves)
    while (seat := hand.to_act) is not None:
        if seat == 1:
            action = bot.choose(hand.observation(1), hand.legal_actions())
            mine.append(action)
        else:
            action = _swapped(next(others), swap)
        try:
            hand.apply(action)
        except IllegalAction:
            return None  # the swap makes seat 0's move illegal: no twin
    return mine


def _swapped(action: Action, swap: dict[Card, Card]) -> Action:
    if isinstance(action, Discard | Knock) and action.card in swap:
        return type(action)(action.seat, swap[action.card])
    return action


@pytest.mark.rule("VIS-2")
def test_simple_chooses_the_same_in_twin_states_differing_only_in_hidden_cards() -> None:
    rules = RuleSet()
    rng = random.Random(29)
    twins = 0
    for seed in range(40):
        deck = list(shuffled_deck(seed))
        hand = Hand.from_deck(rules, deck)
        bots: list[Bot] = [make_bot("greedy"), SimpleBot(5)]
        mine: list[Action] = []
        theirs: list[Action] = []
        while (seat := hand.to_act) is not None:
            action = bots[seat].choose(hand.observation(seat), hand.legal_actions())
            (mine if seat == 1 else theirs).append(action)
            hand.apply(action)
        hidden = hidden_cards(rules, hand.events, 1, deck)
        if len(hidden) < 2:
            continue
        a, b = rng.sample(hidden, 2)
        again = _replay(rules, deck, [x for x in theirs if x.seat == 0], {a: b, b: a})
        if again is not None:
            twins += 1
            assert again == mine, f"seed {seed}: swapping {a} and {b}, which seat 1 never sees, changed its play"
    assert twins >= 20


@pytest.mark.rule("VIS-2")
@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(["standard", "oklahoma", "three_handed", "eaai"]),  # eaai: the EAAI game's options
    wall=st.booleans(),
    big_gin=st.sampled_from([None, 31]),
    taken=st.booleans(),
    cap=st.sampled_from([None, 3]),
)
def test_no_bot_raises_on_any_legal_state(
    seed: int, preset: str, wall: bool, big_gin: int | None, taken: bool, cap: int | None
) -> None:
    # Random play (never the bots' choices) through several hands, so that every role of three-handed play comes
    # round; at every state every bot, following the game in every seat, answers with a legal action.
    eaai = {"undercut_bonus": 25, "next_dealer": "alternate"} if preset == "eaai" else {}
    rules = RuleSet.preset(
        "standard" if preset == "eaai" else preset, target=30, wall_pickup_to_knock=wall, big_gin_bonus=big_gin,
        may_discard_taken_card=taken, max_consecutive_discard_pickups=cap, **eaai,
    )  # fmt: skip
    match = Match.new(rules, seed=seed)
    rng = random.Random(seed)
    names = [n for n in BOT_NAMES if n not in LEVELS] + ["expert"]  # the levels share one code (test_search.py)
    bots = {name: [quick_bot(name, seed + s) for s in range(rules.players)] for name in names}
    steps = 0
    while (seat := match.to_act) is not None and steps < 250:
        assert match.hand is not None
        obs, legal = match.hand.observation(seat), match.legal_actions()
        chosen = {name: seats[seat].choose(obs, legal) for name, seats in bots.items()}
        assert all(c in legal for c in chosen.values()), chosen
        match.apply(legal[int(rng.random() * len(legal))] if rng.random() < 0.5 else chosen["simple"])
        steps += 1


def test_simple_takes_the_first_upcard_when_it_melds() -> None:
    hand = deal("2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", "As 2s 3s 4h 4d 5c 9s 9c Td 5h", upcard="9d")
    assert isinstance(SimpleBot().choose(hand.observation(1), hand.legal_actions()), TakeUpcard)


@pytest.mark.rule("SCORE-3", "MATCH-4", "MATCH-5")
def test_the_eaai_rules_are_the_standard_options_with_the_undercut_bonus_and_alternate_deal() -> None:
    assert RuleSet.preset("standard", undercut_bonus=25, next_dealer="alternate") == EAAI_RULES
    assert (EAAI_RULES.gin_bonus, EAAI_RULES.target, EAAI_RULES.knock_limit_value) == (25, 100, 10)
    assert EAAI_RULES.undercut_on_tie and not EAAI_RULES.may_discard_taken_card and EAAI_RULES.big_gin_bonus is None
    match = Match.new(EAAI_RULES, seed=11)
    play_match(match, [SimpleBot(1), SimpleBot(2)])
    dealers = [e.dealer for e in match.events if isinstance(e, HandStarted)]
    for before, after, result in zip(dealers, dealers[1:], match.results, strict=False):
        assert after == (before if result.winner is None else 1 - before)  # alternate; a dead hand deals again
