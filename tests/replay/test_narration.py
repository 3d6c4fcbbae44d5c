"""Events in words (``replay.narration``), by the rules' sections: plain language with suit symbols, notation or
ASCII where the output needs it, the roles of three-handed play, and nothing a seat was not shown."""

from __future__ import annotations

import io

import pytest

from engine.actions import Discard, Knock
from engine.cards import Card, cards
from engine.events import (
    Advised,
    CutDrawn,
    Dealt,
    DefenceLaid,
    Discarded,
    DrewStock,
    HandEnded,
    HandStarted,
    Knocked,
    SpreadLaid,
    UpcardTaken,
)
from engine.match import Match
from engine.melds import Meld
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind
from engine.showdown import Layoff
from engine.visibility import SeatLens
from knock.bots import GreedyBot, play_match
from replay.narration import (
    NOTATION,
    PLAIN,
    Voice,
    deal_text,
    display_names,
    line_of,
    narrate,
    result_text,
    symbols_for,
)


def melds(text: str) -> tuple[Meld, ...]:
    return tuple(Meld.parse(m) for m in text.split())


def c(text: str) -> Card:
    return Card.parse(text)


# --- 1. Cards: symbols, notation, ASCII ------------------------------------------------------------------


def test_cards_carry_their_suit_symbols_or_their_notation() -> None:
    assert narrate(UpcardTaken(0, c("Td"))) == "p0 takes the upcard 10♦"  # the ten as a card shows it (#64)
    assert narrate(UpcardTaken(0, c("Td")), NOTATION) == "p0 takes the upcard Td"
    assert PLAIN.meld(Meld.parse("4d-5d-6d")) == "4♦-5♦-6♦" and PLAIN.cards(cards("As Kc")) == "A♠ K♣"


@pytest.mark.parametrize(("encoding", "symbols"), [("utf-8", True), ("UTF8", True), ("latin-1", False),
                                                   ("ascii", False), ("cp1252", False)])  # fmt: skip
def test_symbols_only_where_the_output_is_utf8(encoding: str, symbols: bool) -> None:
    stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    assert symbols_for(stream) is symbols
    voice = Voice.for_stream(stream)
    assert narrate(UpcardTaken(1, c("Qh")), voice) == "p1 takes the upcard " + ("Q♥" if symbols else "Qh")


def test_a_stream_without_an_encoding_gets_ascii() -> None:
    assert not symbols_for(object()) and not symbols_for(io.BytesIO())


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("preset", ["standard", "oklahoma", "three_handed"])
def test_an_ascii_voice_writes_every_event_of_a_game_in_ascii(seed: int, preset: str) -> None:
    rules = RuleSet.preset(preset)
    match = play_match(Match.new(rules, seed=seed), [GreedyBot() for _ in range(rules.players)])
    voice = Voice(seats=rules.players, ascii=True)
    lines = [line_of(e, voice) for e in match.events]
    assert all(line.isascii() for line in lines), [line for line in lines if not line.isascii()]
    assert any(" - " in line for line in lines)  # the dashes written plainly, not dropped
    assert not all(line.isascii() for line in (line_of(e, Voice(seats=rules.players)) for e in match.events))


# --- 6. Knocking, 8. Laying off and the showdown -------------------------------------------------------


@pytest.mark.rule("KNOCK-1")
def test_a_knock_names_its_face_down_discard_to_those_who_see_it() -> None:
    assert narrate(Knocked(0, c("9c"))) == "p0 knocks, discarding 9♣ face down"


@pytest.mark.rule("KNOCK-4", "KNOCK-5")
def test_a_spread_says_the_knockers_deadwood() -> None:
    spread = SpreadLaid(0, melds("As-2s-3s 7h-7d-7c"), cards("3d 4c"))
    assert narrate(spread) == "p0 spreads A♠-2♠-3♠ 7♣-7♦-7♥ with 7 deadwood (3♦ 4♣)"
    assert narrate(SpreadLaid(0, melds("As-2s-3s"), ())) == "p0 spreads A♠-2♠-3♠ — gin, no card over"


@pytest.mark.rule("LAY-5", "LAY-6")
def test_a_defence_says_what_was_laid_off_and_onto_which_meld() -> None:
    onto = Meld.parse("4d-5d-6d")
    defence = DefenceLaid(1, melds("7c-7d-7h"), (Layoff(c("3d"), onto), Layoff(c("7d"), onto)), cards("Kc"))
    assert narrate(defence) == "p1 shows 7♣-7♦-7♥ and lays off 3♦ 7♦ on 4♦-5♦-6♦ — deadwood K♣ = 10"
    alone = DefenceLaid(1, (), (Layoff(c("3d"), onto),), ())
    assert narrate(alone) == "p1 lays off 3♦ on 4♦-5♦-6♦ — no deadwood"
    assert narrate(alone, Voice(("ann", "bob"), me=1)) == "you lay off 3♦ on 4♦-5♦-6♦ — no deadwood"
    assert narrate(DefenceLaid(1, (), (), cards("Kc"))) == "p1 shows no melds and lays off nothing — deadwood K♣ = 10"


# --- 7. Oklahoma Gin ----------------------------------------------------------------------------------------


@pytest.mark.rule("OKLA-1", "OKLA-2")
def test_an_oklahoma_deal_says_the_limit_its_upcard_gives() -> None:
    six = Dealt(1, ((), ()), c("6c"), (), 6)
    assert narrate(six, Voice(me=0)) == "upcard 6♣, knock limit 6"
    assert deal_text(Dealt(1, ((), ()), c("Ah"), (), 0), NOTATION, hands=False) == "upcard Ah, gin only (knock limit 0)"


# --- 10. Scoring a hand ------------------------------------------------------------------------------------


@pytest.mark.rule("SCORE-1", "SCORE-2", "OKLA-4")
def test_a_result_reads_as_who_won_what_and_why() -> None:
    won = HandResult(ResultKind.KNOCK, 0, 15, knocker=0, deadwood=(4, 19), seats=(0, 1))
    assert line_of(HandEnded(1, won, (15, 0))) == "p0 knocks with 4 against p1's 19: p0 scores 15 points; " \
                                                   "after hand 1: p0 15, p1 0"  # fmt: skip
    assert result_text(won, Voice(("ann", "bob"), me=0)) == "you knock with 4 against bob's 19: you score 15 points"
    doubled = HandResult(ResultKind.GIN, 1, 70, knocker=1, deadwood=(10, 0), seats=(0, 1), multiplier=2)
    assert line_of(HandEnded(2, doubled, (15, 70)), Voice(("ann", "bob"), me=0)) == (
        "bob goes gin, catching your 10: bob scores 70 points (×2, a spade upcard); after hand 2: you 15, bob 70"
    )
    under = HandResult(ResultKind.UNDERCUT, 1, 29, knocker=0, deadwood=(8, 3), seats=(0, 1))
    assert result_text(under, Voice(("ann", "bob"), me=1)) == "you undercut ann with 3 against 8: you score 29 points"
    tie = HandResult(ResultKind.TIE, None, 0, knocker=0, deadwood=(5, 5), seats=(0, 1))
    assert result_text(tie, Voice(me=1)) == "p0 knocks with 5 against your 5: a tie, nobody scores"


def test_a_seat_is_called_by_its_name_where_the_name_names_it_alone() -> None:
    """A name two seats share carries the seat; a missing one, or one that reads as another seat's number or as
    the reader, is the seat's number (a seat named "p1" or "you" cannot pass for another in the narration)."""
    assert display_names(("ann", "bob", "carl")) == ("ann", "bob", "carl")
    assert display_names(("ann", " ANN ", "bob")) == ("ann (p0)", "ANN (p1)", "bob")
    assert display_names(("p1", "You", "nobody", "", "p3")) == ("p0", "p1", "p2", "p3", "p4")
    assert narrate(Discarded(0, c("Td")), Voice(display_names(("p1", "bob")), me=1)) == "p0 discards 10♦"


# --- 12. What each seat sees: the twin-state test -------------------------------------------------------


def _seen(seat: int, *events: object) -> list[str]:
    lens = SeatLens(RuleSet.preset("standard"), seat)
    lens.see(HandStarted(1, 1, (0, 1), None))
    return [narrate(lens.see(e)) for e in events]  # type: ignore[arg-type]


@pytest.mark.rule("VIS-1")
def test_a_seat_is_told_nothing_of_cards_it_was_not_shown() -> None:
    p0 = cards("2c 2d 4d 6h 8s 9c Tc Jh Qc Kd")
    one, two = cards("Ad 2s 6d 7c 8c 8d 9d 9h Th Qd"), cards("Ah 3s 5d 7s 8h 3d 9s 4h Ts Qs")
    deals = [Dealt(1, (p0, hand), c("6c"), tuple(stock), 10) for hand, stock in ((one, two), (two, one))]
    twins = [_seen(0, deals[i], DrewStock(1, c(card)), Knocked(1, c(card))) for i, card in enumerate(["Ks", "5h"])]
    told = [
        "upcard 6♣, knock limit 10; p0 is dealt 2♣ 2♦ 4♦ 6♥ 8♠ 9♣ 10♣ J♥ Q♣ K♦; p1's hand not shown",
        "p1 draws from the stock",
        "p1 knocks",
    ]
    assert twins[0] == twins[1] == told
    assert _seen(1, DrewStock(1, c("Ks"))) != _seen(1, DrewStock(1, c("5h")))  # the drawer is told: the test can fail


# --- 14. Three-handed Gin "in the box" --------------------------------------------------------------------


@pytest.mark.rule("THREE-2", "THREE-3")
def test_three_handed_roles_read_as_box_captain_and_sitter() -> None:
    voice = Voice(seats=3)
    assert narrate(CutDrawn((0, 1, 2), cards("7d Ks 2c")), voice) == "the draw for the roles: p0 7♦, p1 K♠, p2 2♣"
    assert narrate(CutDrawn((0, 1), cards("7d 7s")), voice) == "the draw for the roles again: p0 7♦, p1 7♠"
    assert narrate(CutDrawn((0, 1), cards("7d Ks"))) == "the draw for the deal: p0 7♦, p1 K♠"
    started = HandStarted(2, 1, (1, 2), 0)
    assert narrate(started, voice) == "hand 2: p1 in the box, p2 captain, p0 sits out"
    assert narrate(started, Voice(("ann", "bob", "cy"), me=0)) == "hand 2: bob in the box, cy captain, you sit out"
    assert narrate(HandStarted(1, 1, (0, 1), None)) == "hand 1: p1 deals"


@pytest.mark.rule("THREE-7", "THREE-8")
def test_the_sitters_advice_reads_to_the_captain_and_not_to_the_box() -> None:
    rules = RuleSet.preset("three_handed")
    advice = Advised(0, Discard(2, c("Qh")))
    assert narrate(advice, Voice(seats=3)) == "p0 advises p2: discard Q♥"
    assert narrate(Advised(0, Knock(2, c("Qh"))), Voice(seats=3)) == "p0 advises p2: knock Q♥"
    box = SeatLens(rules, 1)
    box.see(HandStarted(1, 1, (1, 2), 0))
    twins = {narrate(box.see(Advised(0, a))) for a in (Discard(2, c("Qh")), Discard(2, c("3c")))}
    assert twins == {"p0 advises the captain (the box does not hear it)"}
