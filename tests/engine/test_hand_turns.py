"""Turns (spec section 5): who may act, the draw and the discard, the taken card; the legal-action oracle."""

from __future__ import annotations

import copy
import dataclasses
import random
import tomllib
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.actions import (
    Action,
    Advise,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    MatchAction,
    PassUpcard,
    Spread,
    TakeUpcard,
    sort_key,
)
from engine.cards import Card, cards
from engine.errors import IllegalAction
from engine.events import Discarded, DrewDiscard, DrewStock
from engine.fsm import Phase
from engine.hand import Hand
from engine.match import Match
from engine.melds import Meld
from engine.rules import RuleSet
from tests.engine.support import burn, legal, rejected
from tests.helpers import deal, play

P0 = "As 2s 3s 4h 4d 4c 9s Tc Jd Kh"  # the dealer: melds As-2s-3s and 4c-4d-4h, 39 deadwood
P1 = "5c 6c 7c 8d 8h 8s Qs Qh 2d 3h"  # the non-dealer: melds 5c-6c-7c and 8d-8h-8s, 25 deadwood
KNOCKER = "5c 6c 7c 8d 8h 8s Jc Qc Kc 2d"  # three melds and 2d


def start(p1: str = P1, rules: RuleSet | None = None) -> Hand:
    return deal(p0=P0, p1=p1, upcard="7d", stock="Ks 9h 5s", rules=rules)


# --- TURN-1: only the seat to act, only with an action of the phase ---------------------------------------

# (moves played first, an action that is then illegal, why)
OUT_OF_TURN = [
    ([], "p0 pass", "the dealer before the non-dealer"),
    ([], "p1 draw", "a draw during the upcard offer"),
    ([], "p1 pickup", "a pickup during the upcard offer"),
    ([], "p1 discard 2d", "a discard before drawing"),
    ([], "p1 knock 2d", "a knock before drawing"),
    (["p1 pass"], "p1 take", "the non-dealer again"),
    (["p1 pass", "p0 pass"], "p0 draw", "the dealer draws first"),
    (["p1 pass", "p0 pass"], "p1 take", "a take after the offer"),
    (["p1 pass", "p0 pass"], "p1 discard 2d", "a discard before drawing, after both passed"),
    (["p1 pass", "p0 pass"], "p1 decline", "a decline outside the 50th-card rule"),
    (["p1 pass", "p0 pass", "p1 draw"], "p1 draw", "a second draw"),
    (["p1 pass", "p0 pass", "p1 draw"], "p0 discard Kh", "the other seat discards"),
    (["p1 pass", "p0 pass", "p1 draw"], "p1 spread 5c-6c-7c", "a spread without a knock"),
    (["p1 pass", "p0 pass", "p1 draw"], "p1 layoff", "a layoff without a knock"),
    (["p1 pass", "p0 pass", "p1 draw", "p1 discard Ks"], "p1 draw", "the same seat again"),
]


@pytest.mark.rule("TURN-1")
@pytest.mark.parametrize(("moves", "action", "why"), OUT_OF_TURN, ids=[c[2] for c in OUT_OF_TURN])
def test_actions_out_of_turn_or_phase_are_rejected(moves: list[str], action: str, why: str) -> None:
    hand = start()
    play(hand, *moves)
    rejected(hand, action, "TURN-1")


@pytest.mark.rule("TURN-1", "LAY-1")
def test_only_the_knocker_spreads_and_only_the_defender_answers() -> None:
    hand = start(p1=KNOCKER)
    play(hand, "p1 take", "p1 knock 2d")
    rejected(hand, "p0 spread As-2s-3s 4c-4d-4h", "TURN-1")
    rejected(hand, "p0 layoff As-2s-3s", "TURN-1")
    rejected(hand, "p1 layoff", "TURN-1")
    rejected(hand, "p1 draw", "TURN-1")
    play(hand, "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
    rejected(hand, "p1 layoff", "TURN-1")
    rejected(hand, "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc", "TURN-1")
    rejected(hand, "p0 discard 9s", "TURN-1")


@pytest.mark.rule("TURN-1")
def test_nothing_is_legal_once_the_hand_is_over() -> None:
    hand = start(p1=KNOCKER)
    play(hand, "p1 take", "p1 knock 2d", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc", "p0 layoff")
    assert hand.is_over
    assert hand.to_act is None
    assert hand.legal_actions() == []
    for text in ["p0 draw", "p1 draw", "p0 pass", "p1 discard 2d", "p0 layoff", "p1 spread 5c-6c-7c"]:
        rejected(hand, text, "TURN-1")


@pytest.mark.rule("TURN-1")
def test_something_that_is_not_an_action_is_rejected() -> None:
    hand = start()
    before = hand.state_key()
    for thing in ["p1 take", None, Card.parse("Kh"), Meld.parse("5c-6c-7c")]:
        with pytest.raises(IllegalAction, match=r"^TURN-1: ") as info:
            hand.apply(cast(Any, thing))
        assert info.value.rule == "TURN-1"
        assert not hand.is_legal(cast(Any, thing))
    assert hand.state_key() == before


@pytest.mark.rule("TURN-1")
@pytest.mark.parametrize("seat", [2, -1])
def test_a_seat_outside_the_hand_is_rejected(seat: int) -> None:
    hand = start()
    rejected(hand, TakeUpcard(seat), "TURN-1")
    play(hand, "p1 take")
    rejected(hand, Discard(seat, Card.parse("2d")), "TURN-1")


# --- TURN-1: an action of the wrong shape is not an action ---------------------------------------------

#: Values that are no seat, card, meld or layoff: refused under TURN-1 wherever they stand in an action.
GARBAGE = [None, True, False, 1.5, "p1", b"\x01", -1, 7, [], (), (None,), [[[]]], Card.parse("Kh"), object()]


def match_at(seed: int, steps: int) -> Match:
    """A three-handed game after ``steps`` random legal actions (the sitter advising now and then)."""
    match = Match.new(RuleSet.preset("three_handed"), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.is_over:
            break
        options: list[MatchAction] = [*match.legal_actions(), *match.advice_options()]
        match.apply(options[rng.randrange(len(options))])
    return match


def retyped(action: MatchAction, field: str, value: object) -> MatchAction:
    """``action`` with one field replaced, bypassing the constructor's canonical ordering."""
    new = copy.copy(action)
    object.__setattr__(new, field, value)
    return new


@pytest.mark.rule("TURN-1", "THREE-1", "THREE-7")
@given(
    seed=st.integers(0, 50),
    steps=st.integers(0, 40),
    pick=st.integers(0, 1000),
    field=st.sampled_from(["seat", "card", "melds", "layoffs", "suggestion"]),
    value=st.sampled_from(GARBAGE),
)
@settings(max_examples=150, deadline=None)
def test_an_action_with_a_field_of_the_wrong_type_is_refused_and_changes_nothing(
    seed: int, steps: int, pick: int, field: str, value: object
) -> None:
    match = match_at(seed, steps)
    options: list[MatchAction] = [*match.legal_actions(), *match.advice_options()]
    assume(options)
    action = options[pick % len(options)]
    target = action.suggestion if isinstance(action, Advise) and field != "suggestion" else action
    assume(hasattr(target, field) and not (field == "seat" and type(value) is int and value == target.seat))
    assume(not (field == "card" and isinstance(value, Card)) and not (field in ("melds", "layoffs") and value == ()))
    bad = retyped(target, field, value)
    if target is not action:
        bad = Advise(action.seat, cast(Action, bad))
    before = (len(match.events), match.to_act, match.hand.state_key() if match.hand else None)
    assert not match.is_legal(bad)
    with pytest.raises(IllegalAction) as info:
        match.apply(bad)
    assert info.value.rule in ("TURN-1", "THREE-1", "THREE-7")
    if type(value) is not int or isinstance(value, bool):  # a value of the wrong type, not a wrong number
        assert info.value.rule == "TURN-1" or (field == "suggestion" and info.value.rule == "THREE-7")
    assert (len(match.events), match.to_act, match.hand.state_key() if match.hand else None) == before
    str(info.value)  # the message is made whatever the value


@pytest.mark.rule("TURN-1")
@pytest.mark.parametrize(
    ("action", "why"),
    [
        (PassUpcard(cast(int, None)), "its seat None is not a seat number"),
        (PassUpcard(True), "its seat True is not a seat number"),
        (TakeUpcard(cast(int, 1.0)), "its seat 1.0 is not a seat number"),
        (Discard(1, cast(Card, None)), "None is not a card"),
        (Knock(1, cast(Card, 12)), "12 is not a card"),
        (Spread(1, cast(Any, None)), "are not a tuple of melds"),
        (Spread(1, cast(Any, (None,))), "are not a tuple of melds"),
        (LayOff(1, (), cast(Any, [None])), "are not a tuple of layoffs"),
    ],
)
def test_an_ill_typed_action_is_refused_by_the_hand_under_turn_1(action: Action, why: str) -> None:
    hand = start(p1=KNOCKER)
    if isinstance(action, Discard | Knock):
        play(hand, "p1 take")
    elif isinstance(action, Spread):
        play(hand, "p1 take", "p1 knock 2d")
    elif isinstance(action, LayOff):
        play(hand, "p1 take", "p1 knock 2d", "p1 spread 5c-6c-7c 8d-8h-8s Jc-Qc-Kc")
        action = dataclasses.replace(action, seat=0)
    before = hand.state_key()
    assert not hand.is_legal(action)  # though PassUpcard(True) == PassUpcard(1): dataclass equality is ==
    with pytest.raises(IllegalAction, match=r"^TURN-1: not an action: ") as info:
        hand.apply(action)
    assert why in info.value.reason
    assert hand.state_key() == before


@pytest.mark.rule("TURN-1")
def test_a_boolean_seat_is_not_seat_one_and_is_never_logged() -> None:
    match = match_at(1, 0)
    assert match.to_act == 1
    with pytest.raises(IllegalAction, match=r"^TURN-1: not an action: its seat True"):
        match.apply(PassUpcard(True))
    with pytest.raises(IllegalAction, match=r"^TURN-1: not an action: its seat None"):
        match.apply(cast(Any, Advise(cast(int, None), cast(Action, None))))
    match.apply(PassUpcard(1))
    assert "pTrue" not in " ".join(map(str, match.events))


# --- TURN-2: draw, then discard --------------------------------------------------------------------------


@pytest.mark.rule("TURN-2")
def test_drawing_from_the_stock_takes_its_top_card() -> None:
    hand = start()
    play(hand, "p1 pass", "p0 pass")
    assert hand.play("p1 draw") == [DrewStock(1, Card.parse("Ks"))]
    assert hand.observation(1).stock_size == 30
    assert hand.phase is Phase.DISCARD
    assert hand.play("p1 discard Qs") == [Discarded(1, Card.parse("Qs"))]
    assert hand.observation(0).discard_pile == cards("7d Qs")
    assert hand.to_act == 0
    assert hand.observation(0).phase is Phase.DRAW
    assert hand.play("p0 draw") == [DrewStock(0, Card.parse("9h"))]
    assert len(hand.cards_of(0)) == 11
    assert len(hand.cards_of(1)) == 10


@pytest.mark.rule("TURN-2")
def test_picking_up_takes_the_top_of_the_discard_pile() -> None:
    hand = start()
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 discard Qh", "p0 draw", "p0 discard Jd")
    assert hand.observation(1).discard_pile == cards("7d Qh Jd")
    assert hand.play("p1 pickup") == [DrewDiscard(1, Card.parse("Jd"))]
    assert hand.observation(1).discard_pile == cards("7d Qh")
    assert hand.observation(1).stock_size == 29
    assert Card.parse("Jd") in hand.cards_of(1)


# --- TURN-3: only cards he holds ------------------------------------------------------------------------


@pytest.mark.rule("TURN-3")
@pytest.mark.parametrize(
    "card", ["Kh", "7d", "9h", "Ad"], ids=["the opponent's", "the upcard", "the stock's top", "deep in the stock"]
)
def test_discarding_or_knocking_a_card_not_held_is_rejected(card: str) -> None:
    hand = start(p1=KNOCKER)
    play(hand, "p1 pass", "p0 pass", "p1 draw")
    rejected(hand, f"p1 discard {card}", "TURN-3")
    rejected(hand, f"p1 knock {card}", "TURN-3")


# --- TURN-4: not the card just taken from the discard pile ----------------------------------------------


@pytest.mark.rule("TURN-4", "OFFER-3")
def test_the_upcard_taken_may_not_be_discarded_nor_knocked_with() -> None:
    hand = start(p1=KNOCKER)
    play(hand, "p1 take")
    rejected(hand, "p1 discard 7d", "TURN-4")
    # knocking 7d would leave 5c-6c-7c 8d-8h-8s Jc-Qc-Kc 2d: 2 points, well within the limit
    rejected(hand, "p1 knock 7d", "TURN-4")
    assert "knock 2d" in legal(hand)
    play(hand, "p1 discard 2d")
    assert hand.observation(0).discard_pile == cards("2d")


@pytest.mark.rule("TURN-4")
def test_a_discard_picked_up_may_not_be_discarded_in_the_same_turn_but_later_may() -> None:
    hand = start()
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 discard Qh", "p0 pickup")
    rejected(hand, "p0 discard Qh", "TURN-4")
    rejected(hand, "p0 knock Qh", "TURN-4")
    play(hand, "p0 discard Kh", "p1 draw", "p1 discard Qs", "p0 draw", "p0 discard Qh")
    assert hand.observation(1).discard_pile[-1] == Card.parse("Qh")


@pytest.mark.rule("TURN-4")
def test_a_card_drawn_from_the_stock_may_be_discarded_or_knocked_with_at_once() -> None:
    hand = start()
    play(hand, "p1 pass", "p0 pass", "p1 draw", "p1 discard Ks")
    assert hand.observation(0).discard_pile == cards("7d Ks")
    knocker = start(p1=KNOCKER)
    play(knocker, "p1 pass", "p0 pass", "p1 draw", "p1 knock Ks")
    assert knocker.phase is Phase.KNOCK


@pytest.mark.rule("TURN-4")
def test_may_discard_taken_card_lifts_the_restriction_for_discards_and_knocks() -> None:
    rules = RuleSet(may_discard_taken_card=True)
    hand = start(rules=rules)
    play(hand, "p1 take", "p1 discard 7d")
    assert hand.observation(0).discard_pile == cards("7d")
    knocker = start(p1=KNOCKER, rules=rules)
    play(knocker, "p1 take", "p1 knock 7d")
    assert knocker.phase is Phase.KNOCK
    assert knocker.cards_of(1) == tuple(sorted(cards(KNOCKER)))


# --- the legal-action oracle ---------------------------------------------------------------------------

ORACLE = tomllib.loads((Path(__file__).parent / "data" / "legal_actions.toml").read_text(encoding="utf-8"))
POSITIONS: list[dict[str, Any]] = ORACLE["position"]


def position(p: dict[str, Any]) -> Hand:
    rules = RuleSet().replace(**p.get("options", {}))
    hand = deal(p0=p["p0"], p1=p["p1"], upcard=p["upcard"], stock=p.get("stock", ""), rules=rules)
    play(hand, *p["moves"])
    burn(hand, p.get("burn", 0))
    play(hand, *p.get("then", []))
    return hand


@pytest.mark.rule(
    "OFFER-1", "OFFER-2", "OFFER-4", "TURN-1", "TURN-2", "TURN-4", "KNOCK-2", "KNOCK-4", "KNOCK-6", "LAY-5", "DEAD-2"
)
@pytest.mark.parametrize("p", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_legal_actions_match_the_oracle(p: dict[str, Any], request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("rule")
    assert marker is not None and p["rule"] in marker.args
    hand = position(p)
    assert hand.to_act == (None if p["to_act"] == -1 else p["to_act"])
    actions = hand.legal_actions()
    assert [str(a) for a in actions] == p["legal"]
    assert all(a.seat == hand.to_act for a in actions)
    assert sorted(actions, key=sort_key) == actions
    assert len(set(actions)) == len(actions)
    for a in actions:
        assert hand.is_legal(a)


@pytest.mark.rule("TURN-1")
@pytest.mark.parametrize("p", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_legal_actions_are_deterministic(p: dict[str, Any]) -> None:
    hand = position(p)
    first = hand.legal_actions()
    assert hand.legal_actions() == first
    assert hand.copy().legal_actions() == first
    assert position(p).legal_actions() == first


@pytest.mark.rule("TURN-1")
def test_every_kind_of_action_is_sorted_in_the_documented_order() -> None:
    c = Card.parse("2c")
    kinds: list[Action] = [
        PassUpcard(0),
        TakeUpcard(0),
        DrawStock(0),
        DrawDiscard(0),
        Discard(0, c),
        Knock(0, c),
        BigGin(0),
        DeclineWall(0),
        Spread(0, ()),
        LayOff(0, ()),
    ]
    assert sorted(reversed(kinds), key=sort_key) == kinds
