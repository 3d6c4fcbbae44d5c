"""A game's end before the target: resign, abort, forfeit and claim, and how such a game scores.

Spec section 16 (END-1 .. END-5). Two-player games start from the draw Kc (p0) against 2d (p1): p0 deals the first
hand, p1 is to act; the three-handed ones from Kc 7d 3h: p0 in the box, p1 captain, p2 sits out.
"""

from __future__ import annotations

import pytest

from engine.actions import Abort, Claim, Resign, parse_action
from engine.cards import cards
from engine.errors import IllegalAction
from engine.events import Aborted, Claimed, Forfeited, GameOver, Resigned, SeatAway, SeatBack
from engine.match import Match
from engine.rules import RuleSet
from tests.engine.match_support import knock_by, play_hand

TWO_DRAW = [cards("Kc 2d")]  # p0 deals
THREE_DRAW = [cards("Kc 7d 3h")]  # p0 box, p1 captain, p2 sits out


def two(rules: RuleSet | None = None, hands: int = 3) -> Match:
    scenario = knock_by("non_dealer")
    return Match.scripted(rules or RuleSet(), cuts=TWO_DRAW, decks=[scenario.deck] * hands)


def three(rules: RuleSet | None = None) -> Match:
    rules = rules or RuleSet.preset("three_handed")
    return Match.scripted(rules, cuts=THREE_DRAW, decks=[knock_by("non_dealer").deck] * 3)


def refused(match: Match, action: object, rule: str) -> None:
    """``action`` (an ending, or a callable host step) is refused under ``rule`` and changes nothing."""
    before = (match.phase, len(match.events), match.winner, dict(match.seen.away), match.seen.clock)
    with pytest.raises(IllegalAction, match=f"^{rule}: "):
        if callable(action):
            action()
        else:
            match.apply(action)  # type: ignore[arg-type]
    assert (match.phase, len(match.events), match.winner, dict(match.seen.away), match.seen.clock) == before


# --- END-1: resign --------------------------------------------------------------------------------------------


@pytest.mark.rule("END-1", "END-5")
@pytest.mark.parametrize("seat", [0, 1])
def test_either_seat_resigns_at_any_time_and_the_other_wins(seat: int) -> None:
    m = two()
    assert m.to_act == 1
    assert m.apply(Resign(seat)) == [Resigned(seat), GameOver(1 - seat, (0, 0))]
    assert m.is_over and m.winner == 1 - seat and m.legal_actions() == [] and m.to_act is None
    refused(m, parse_action("p1 take"), "MATCH-1")
    refused(m, Resign(1 - seat), "MATCH-1")


@pytest.mark.rule("END-1", "END-5", "BONUS-2", "BONUS-1")
def test_a_resigned_game_totals_the_running_scores_without_end_bonuses() -> None:
    m = two(RuleSet(game_bonus=100, box_bonus=25))
    play_hand(m, "non_dealer")  # p1 knocks and scores
    scores = m.scores
    assert scores[1] > 0
    m.play(f"p{m.to_act} take")  # the next hand is under way: it scores nothing
    events = m.apply(Resign(1))
    assert events == [Resigned(1), GameOver(0, scores)], "the resigning seat loses, whatever the score"
    assert m.standings().totals == scores and m.standings().winner == 0


@pytest.mark.rule("END-1")
def test_three_handed_the_higher_score_of_the_other_two_wins_then_the_role() -> None:
    m = three()
    assert m.roles() == {"box": 0, "captain": 1, "sitter": 2}
    assert m.apply(Resign(0))[-1] == GameOver(1, (0, 0, 0)), "tied at 0: the captain before the sitter"
    m = three()
    assert m.apply(Resign(1))[-1] == GameOver(0, (0, 0, 0)), "tied: the box first"
    m = three()
    play_hand(m, "non_dealer")  # p1, the captain, knocks and scores; p1 goes into the box (THREE-4)
    assert m.scores[1] > 0
    assert m.apply(Resign(2))[-1] == GameOver(1, m.scores), "the sitter resigns: the higher score wins"


# --- END-2: abort ---------------------------------------------------------------------------------------------


@pytest.mark.rule("END-2", "END-5")
def test_abort_before_both_seats_have_acted_ends_with_no_winner() -> None:
    m = two()
    assert m.apply(Abort(0)) == [Aborted(0), GameOver(None, (0, 0))]
    assert m.is_over and m.winner is None
    m = two()
    m.play("p1 pass")  # one seat has acted: either may still abort
    assert m.apply(Abort(1))[0] == Aborted(1)


@pytest.mark.rule("END-2")
def test_abort_is_refused_once_both_seats_of_the_first_hand_have_acted() -> None:
    m = two()
    m.play("p1 pass", "p0 pass")
    refused(m, Abort(1), "END-2")
    refused(m, Abort(0), "END-2")
    assert m.apply(Resign(0))[0] == Resigned(0)


@pytest.mark.rule("END-2", "THREE-7")
def test_the_sitters_advice_is_not_an_action_of_the_hand() -> None:
    m = three()
    m.play("p2 advise p1 pass", "p1 pass")
    assert m.seen.moved == {1}
    assert m.apply(Abort(2))[-1] == GameOver(None, (0, 0, 0))


# --- END-3: forfeit -------------------------------------------------------------------------------------------


@pytest.mark.rule("END-3", "END-1")
@pytest.mark.parametrize("reason", ["timeout", "no_reveal"])
def test_the_host_declares_a_forfeit_and_the_seat_loses(reason: str) -> None:
    m = two()
    assert m.forfeit(1, reason) == [Forfeited(1, reason), GameOver(0, (0, 0))]
    refused(m, lambda: m.forfeit(0, reason), "MATCH-1")


@pytest.mark.rule("END-3", "THREE-1")
def test_a_forfeit_names_a_reason_and_a_seat_of_the_game() -> None:
    m = two()
    refused(m, lambda: m.forfeit(1, "absent"), "END-3")  # a claim's reason, not the host's to give
    refused(m, lambda: m.forfeit(1, "bored"), "END-3")
    refused(m, lambda: m.forfeit(2, "timeout"), "THREE-1")


# --- END-4: claim ---------------------------------------------------------------------------------------------

CLAIMS = RuleSet(claim_after=60)


@pytest.mark.rule("END-4", "END-3")
def test_a_seat_claims_when_the_other_has_been_away_long_enough() -> None:
    m = two(CLAIMS)
    assert m.away(1, 1_000) == [SeatAway(1, 1_000)]
    refused(m, Claim(0, 1, 1_059), "END-4")  # 59 s of the 60
    assert m.apply(Claim(0, 1, 1_060)) == [Claimed(0, 1, 1_060), GameOver(0, (0, 0))]
    assert m.winner == 0


@pytest.mark.rule("END-4")
def test_a_seat_that_came_back_cannot_be_claimed_against() -> None:
    m = two(CLAIMS)
    m.away(1, 1_000)
    assert m.back(1, 1_030) == [SeatBack(1, 1_030)]
    refused(m, Claim(0, 1, 2_000), "END-4")
    m.away(1, 1_990)  # away again: the time counts from here
    refused(m, Claim(0, 1, 2_040), "END-4")
    assert m.apply(Claim(0, 1, 2_050))[0] == Claimed(0, 1, 2_050)


@pytest.mark.rule("END-4", "THREE-1")
def test_the_claims_that_are_refused() -> None:
    refused(two(), Claim(0, 1, 5_000), "END-4")  # claims are not played: claim_after is none
    m = two(CLAIMS)
    m.away(1, 1_000)
    refused(m, Claim(1, 1, 2_000), "END-4")  # against itself
    refused(m, Claim(0, 0, 2_000), "END-4")  # against a seat that is not away
    refused(m, Claim(0, 2, 2_000), "THREE-1")  # no such seat
    refused(m, Claim(0, 1, 999), "END-4")  # a time before the last one recorded
    m.away(0, 1_100)
    refused(m, Claim(0, 1, 2_000), "END-4")  # by a seat that is away itself


@pytest.mark.rule("END-4")
def test_the_hosts_record_of_presence_is_kept_in_order() -> None:
    m = two(CLAIMS)
    refused(m, lambda: m.back(1, 10), "END-4")  # not away
    m.away(1, 10)
    refused(m, lambda: m.away(1, 20), "END-4")  # away already
    refused(m, lambda: m.back(1, 9), "END-4")  # earlier than the last time
    refused(m, lambda: m.away(0, -1), "END-4")
    m.play("p1 pass")  # the game goes on while a seat is away: the host's record changes nothing else
    assert m.to_act == 0


@pytest.mark.rule("END-4", "END-1")
def test_three_handed_a_claim_makes_the_away_seat_lose() -> None:
    m = three(RuleSet.preset("three_handed", claim_after=30))
    m.away(1, 100)
    events = m.apply(Claim(2, 1, 130))  # the sitter claims against the captain
    assert events == [Claimed(2, 1, 130), GameOver(0, (0, 0, 0))], "the box, first among equals, wins"


@pytest.mark.rule("END-1", "MATCH-7")
def test_a_game_waiting_for_its_next_deck_can_end_too() -> None:
    m = Match.scripted(RuleSet(), cuts=TWO_DRAW, decks=[knock_by("non_dealer").deck])
    play_hand(m, "non_dealer")
    assert m.awaiting_deck
    assert m.apply(Resign(1))[-1] == GameOver(0, m.scores)
