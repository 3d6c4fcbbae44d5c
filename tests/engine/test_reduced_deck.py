"""The reduced deck for analysis (spec RULES-3): its options, its deal, and where it is refused."""

from __future__ import annotations

import io
from typing import Any

import pytest

from engine.actions import BigGin, Knock
from engine.cards import DECK, cards, shuffled_deck
from engine.errors import IllegalAction, InvalidDeal, InvalidRules
from engine.events import Dealt
from engine.fsm import Phase
from engine.hand import Hand
from engine.match import Match
from engine.rules import RuleSet
from engine.scoring import ResultKind
from replay.codec import unpacked
from replay.log import LogError, LogWriter, write_log

SMALL = RuleSet(deck_ranks=5, deck_suits=3, hand_size=3)  # Ac..5c 5d..5h: 15 cards, 3 each, a stock of 8


@pytest.mark.rule("RULES-3", "RULES-2")
def test_the_reduced_deck_is_the_first_ranks_of_the_first_suits() -> None:
    assert SMALL.deck == cards("Ac 2c 3c 4c 5c Ad 2d 3d 4d 5d Ah 2h 3h 4h 5h")
    assert SMALL.stock_size == 8 and SMALL.reduced
    assert RuleSet().deck == DECK and RuleSet().stock_size == 31 and not RuleSet().reduced
    one_suit = RuleSet().replace(deck_ranks=6, deck_suits=1, hand_size=1)
    assert one_suit.deck == cards("Ac 2c 3c 4c 5c 6c") and one_suit.stock_size == 3


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize(
    ("option", "value"),
    [("deck_ranks", 2), ("deck_ranks", 14), ("deck_suits", 0), ("deck_suits", 5), ("hand_size", 0),
     ("hand_size", 11), ("hand_size", True), ("deck_ranks", "5")],
)  # fmt: skip
def test_deck_options_out_of_range_are_rejected(option: str, value: Any) -> None:
    with pytest.raises(InvalidRules, match=f"^RULES-2: .*{option}"):
        RuleSet().replace(**{option: value})


@pytest.mark.rule("RULES-3")
@pytest.mark.parametrize(("ranks", "suits", "size"), [(4, 2, 3), (3, 2, 2), (13, 1, 5), (6, 2, 5), (3, 4, 5)])
def test_a_deck_that_leaves_fewer_than_three_stock_cards_is_rejected(ranks: int, suits: int, size: int) -> None:
    with pytest.raises(InvalidRules, match=r"^RULES-3: .*at least 3") as info:
        RuleSet().replace(deck_ranks=ranks, deck_suits=suits, hand_size=size)
    assert info.value.rule == "RULES-3"
    assert RuleSet().replace(deck_ranks=ranks, deck_suits=suits, hand_size=size - 1).stock_size >= 3


@pytest.mark.rule("RULES-3", "RULES-2")
def test_the_header_form_leaves_the_deck_options_out_at_their_defaults() -> None:
    for preset in ("standard", "oklahoma", "three_handed"):
        rules = RuleSet.preset(preset)
        assert not {"deck_ranks", "deck_suits", "hand_size"} & set(rules.to_dict())
        assert RuleSet.from_dict(rules.to_dict()) == rules
    small = SMALL.to_dict()
    assert (small["deck_ranks"], small["deck_suits"], small["hand_size"]) == (5, 3, 3)
    assert RuleSet.from_dict(small) == SMALL
    assert RuleSet().replace(hand_size=9).to_dict()["hand_size"] == 9  # one option off its default is written


@pytest.mark.rule("RULES-3", "DEAL-2", "DEAL-3")
@pytest.mark.parametrize("seed", [0, 1, 7, 99])
def test_a_seeded_deal_shuffles_and_deals_the_reduced_deck(seed: int) -> None:
    hand = Hand.deal(SMALL, seed=seed)
    deck = shuffled_deck(seed, SMALL.deck)
    assert sorted(deck) == sorted(SMALL.deck)
    dealt = hand.events[0]
    assert isinstance(dealt, Dealt)
    assert dealt.hands == (deck[1:6:2], deck[0:6:2]) and dealt.upcard == deck[6] and dealt.stock == deck[7:]
    assert len(hand.stock) == 8 and hand.observation(0).stock_size == 8
    assert [len(hand.cards_of(s)) for s in (0, 1)] == [3, 3]
    assert shuffled_deck(seed) == shuffled_deck(seed, DECK)  # the standard shuffle is unchanged


@pytest.mark.rule("RULES-3", "DEAL-4")
def test_a_deal_must_be_a_partition_of_the_rule_sets_deck() -> None:
    with pytest.raises(InvalidDeal, match=r"DEAL-4: .*15 cards of the rule set's reduced deck"):
        Hand.from_deck(SMALL, DECK)
    with pytest.raises(InvalidDeal, match=r"DEAL-4: .*52 cards"):
        Hand.from_deck(RuleSet(), SMALL.deck)
    stock = "4h 5h 2h 3h Ah 5d 4d"
    ok = Hand.from_deal(SMALL, hands=("Ac 2c 3c", "Ad 2d 3d"), upcard="4c", stock=stock + " 5c")
    assert ok.phase is Phase.UPCARD_OFFER
    with pytest.raises(InvalidDeal, match="DEAL-4: p0 must be dealt 3 cards, not 4"):
        Hand.from_deal(SMALL, hands=("Ac 2c 3c 5c", "Ad 2d 3d"), upcard="4c", stock=stock)
    with pytest.raises(InvalidDeal, match="DEAL-4: cards not in the rule set's reduced deck: Ks"):
        Hand.from_deal(SMALL, hands=("Ac 2c 3c", "Ad 2d 3d"), upcard="4c", stock=stock + " Ks")
    with pytest.raises(InvalidDeal, match="DEAL-4: the deal must use all 15 cards; missing: 5c"):
        Hand.from_deal(SMALL, hands=("Ac 2c 3c", "Ad 2d 3d"), upcard="4c", stock=stock)


@pytest.mark.rule("RULES-3", "KNOCK-6", "SCORE-4", "MELD-2")
def test_big_gin_takes_hand_size_plus_one_cards_and_every_other_rule_applies() -> None:
    rules = SMALL.replace(big_gin_bonus=31)
    hand = Hand.from_deal(rules, hands=("Ac 2c 3c", "Ad 2d 5h"), upcard="4c", stock="4h 5d 4d 3d 3h 2h Ah 5c")
    hand.play("p1 pass", "p0 take")
    assert BigGin(0) in hand.legal_actions()
    assert Knock(0, cards("4c")[0]) not in hand.legal_actions()  # TURN-4: the card just taken
    hand.play("p0 big-gin", "p0 spread Ac-2c-3c-4c")
    assert hand.result is not None and hand.result.kind is ResultKind.BIG_GIN
    assert hand.result.points == 31 + 1 + 2 + 5  # SCORE-4: the defender has no meld
    short = Hand.from_deal(rules, hands=("Ac 2c 3c", "Ad 2d 5h"), upcard="4h", stock="4c 5d 4d 3d 3h 2h Ah 5c")
    short.play("p1 pass", "p0 take")
    with pytest.raises(IllegalAction, match="KNOCK-6: big gin needs all 4 cards melded"):
        short.play("p0 big-gin")


@pytest.mark.rule("RULES-3", "DEAD-1")
def test_a_reduced_hand_dies_with_two_cards_left_in_the_stock() -> None:
    rules = RuleSet().replace(deck_ranks=6, deck_suits=1, hand_size=1)
    hand = Hand.from_deal(rules, hands=("Ac", "6c"), upcard="3c", stock="2c 4c 5c")
    hand.play("p1 pass", "p0 pass", "p1 draw", "p1 discard 2c")
    assert hand.result is not None and hand.result.kind is ResultKind.DEAD and len(hand.stock) == 2


@pytest.mark.rule("RULES-3")
def test_a_game_refuses_a_reduced_deck() -> None:
    with pytest.raises(InvalidRules, match=r"RULES-3: .*not supported"):
        Match.new(SMALL, seed=1)
    with pytest.raises(InvalidRules, match="RULES-3"):
        Match.scripted(SMALL, cuts=[cards("Ac 2c")], decks=[SMALL.deck])


@pytest.mark.rule("RULES-3", "LOG-1")
def test_logs_refuse_a_reduced_deck_and_keep_the_standard_header() -> None:
    match = Match.new(RuleSet(), seed=3)
    header = next(iter(unpacked(io.BytesIO(write_log(match)))))[0]
    assert list(header["rules"]) == list(RuleSet().to_dict())
    assert not {"deck_ranks", "deck_suits", "hand_size"} & set(header["rules"])
    match.rules = SMALL  # a game cannot be built with it: only a writer given one by force sees it
    with pytest.raises(LogError, match=r"RULES-3: record 0: .*not supported"):
        LogWriter(io.BytesIO(), match)
