"""Hands, games and observations as text (engine.describe): readable, and an observation shows only its seat's view."""

from __future__ import annotations

import pytest

from engine import Hand, Match, RuleSet


def test_print_of_a_hand_and_a_game_is_readable() -> None:
    hand = Hand.deal(seed=42)
    text = str(hand)
    assert "object at 0x" not in text and "object at 0x" not in repr(hand)
    assert "phase upcard_offer" in text and "p1 to act" in text and "knock limit 10" in text
    for seat in hand.seats:
        assert " ".join(map(str, hand.cards_of(seat))) in text
    assert repr(hand).startswith("<Hand standard phase=upcard_offer to_act=p1")
    game = Match.new(RuleSet.preset("three_handed"), seed=7)
    assert str(game).startswith("three_handed game to 100 · hand 1 · p0 in the box, p1 captain, p2 sits out")
    assert repr(game) == "<Match three_handed hand=1 phase=hand to_act=p1 scores=(0, 0, 0)>"


@pytest.mark.rule("VIS-1", "THREE-8")
def test_the_text_of_an_observation_never_shows_a_hidden_card() -> None:
    hand = Hand.deal(seed=42)
    hand.play("p1 pass", "p0 take")
    seen = str(hand.observation(1))
    assert " ".join(map(str, hand.cards_of(1))) in seen
    hidden = [c for c in hand.cards_of(0) if c not in hand.observation(1).opponent_known]
    assert hidden and not any(str(c) in seen for c in hidden)
    game = Match.new(RuleSet.preset("three_handed", sitter_sees_captain_hand=False), seed=7)
    sitter = str(game.observation(2))
    assert "own cards: (none)" in sitter
    live = game.hand
    assert live is not None
    assert not any(str(c) in sitter for c in live.cards_of(0) + live.cards_of(1))
