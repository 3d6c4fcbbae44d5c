"""A two-player game hand by hand: who deals next, the end at the target, prearranged games.

Spec section 13 (MATCH-1, MATCH-4 .. MATCH-7). The deals are the scenarios of ``match_support``: one line
of play decides each of them, so the result of every hand is known before it is played.
"""

from __future__ import annotations

import pytest

from engine.cards import cards
from engine.errors import IllegalAction, InvalidDeal
from engine.events import Dealt, GameOver, HandEnded, HandStarted
from engine.fsm import MatchPhase
from engine.match import Match
from engine.rules import RuleSet
from engine.scoring import ResultKind
from tests.engine.match_support import (
    Scenario,
    dead,
    gin_by,
    knock_by,
    play_hand,
    play_script,
    played_hands,
    tie_by,
    undercut_of,
)

P0_DEALS = [cards("Kc 2d")]  # p0 draws the higher card and deals the first hand
LONG = RuleSet.preset("standard", target=1000)


def game(rules: RuleSet, scenarios: list[Scenario], *, extra: int = 1) -> Match:
    """A scripted game (p0 deals first) that plays ``scenarios`` and has ``extra`` more deals ready after them."""
    decks = [s.deck for s in scenarios] + [dead().deck] * extra
    m = Match.scripted(rules, cuts=P0_DEALS, decks=decks)
    play_script(m, scenarios)
    return m


def dealers(m: Match) -> list[int]:
    return [e.dealer for e in m.events if isinstance(e, HandStarted)]


# --- MATCH-4: the next dealer after a hand with a winner ------------------------------------------------


@pytest.mark.rule("MATCH-4")
@pytest.mark.parametrize(
    ("policy", "expected_dealers", "expected_winners"),
    [
        # hands: the non-dealer gins, the dealer knocks and wins, the dealer is undercut, the dealer gins
        ("winner", [0, 1, 1, 0, 0], [1, 1, 0, 0]),
        ("loser", [0, 0, 1, 1, 0], [1, 0, 0, 1]),
        ("alternate", [0, 1, 0, 1, 0], [1, 1, 1, 1]),
    ],
)
def test_next_dealer_policy(policy: str, expected_dealers: list[int], expected_winners: list[int]) -> None:
    script = [gin_by("non_dealer"), knock_by("dealer"), undercut_of("dealer"), gin_by("dealer")]
    m = game(LONG.replace(next_dealer=policy), script)
    assert dealers(m) == expected_dealers
    assert [r.winner for r in m.results] == expected_winners
    assert [r.points for r in m.results] == [27, 62, 15, 27]


@pytest.mark.rule("MATCH-4", "SCORE-3")
def test_after_an_undercut_the_defender_is_the_winner_who_deals() -> None:
    m = game(LONG, [undercut_of("non_dealer")])  # p1 knocks and is undercut by the dealer p0
    assert m.results[0].kind is ResultKind.UNDERCUT and m.results[0].winner == 0
    assert dealers(m) == [0, 0]
    m = game(LONG, [undercut_of("dealer")])  # p0 knocks and is undercut by p1
    assert m.results[0].winner == 1
    assert dealers(m) == [0, 1]


# --- MATCH-5: no winner: the same dealer deals again, with a new deck -------------------------------------


@pytest.mark.rule("MATCH-5", "DEAD-1")
@pytest.mark.parametrize("policy", ["winner", "loser", "alternate"])
def test_after_a_dead_hand_the_same_dealer_deals_a_new_deck(policy: str) -> None:
    second = gin_by("dealer")
    m = Match.scripted(LONG.replace(next_dealer=policy), cuts=P0_DEALS, decks=[dead().deck, second.deck, dead().deck])
    first_deal = played_hands(m.events)[0].dealt
    play_hand(m, None)
    assert m.results[0].kind is ResultKind.DEAD and m.results[0].winner is None
    assert m.number == 2 and m.dealer == 0  # the same dealer, whatever the policy
    assert m.scores == (0, 0)
    deal2 = played_hands(m.events)[1].dealt
    assert deal2 != first_deal
    assert deal2.hands[1] == second.deck[0:20:2]  # the second deck's deal: p1 is the non-dealer
    assert deal2.upcard == second.deck[20]
    play_hand(m, "dealer")
    assert m.results[1].winner == 0 and m.scores == (27, 0)
    assert dealers(m) == [0, 0, {"winner": 0, "loser": 1, "alternate": 1}[policy]]


@pytest.mark.rule("MATCH-5", "OKLA-1", "OKLA-3")
def test_oklahoma_redeal_after_a_dead_hand_has_a_new_knock_limit() -> None:
    rules = RuleSet.preset("oklahoma", target=1000)
    m = Match.scripted(rules, cuts=P0_DEALS, decks=[dead("3h").deck, dead("9d").deck, gin_by("dealer").deck])
    assert m.hand is not None and m.hand.knock_limit == 3
    play_hand(m, None)
    assert m.dealer == 0 and m.hand.knock_limit == 9 and m.hand.upcard == cards("9d")[0]
    play_hand(m, None)
    assert m.dealer == 0 and m.hand.knock_limit == 10  # Tc, the gin deal's upcard
    limits = [h.dealt.knock_limit for h in played_hands(m.events)]
    assert limits == [3, 9, 10]
    play_hand(m, "dealer")
    assert m.scores == (27, 0)


@pytest.mark.rule("MATCH-5", "SCORE-3", "SCORE-6")
def test_a_tie_without_undercut_has_no_winner_and_the_same_dealer_deals() -> None:
    m = game(LONG.replace(undercut_on_tie=False, next_dealer="alternate"), [tie_by("non_dealer")])
    assert m.results[0].kind is ResultKind.TIE and m.results[0].winner is None
    assert m.scores == (0, 0)
    assert dealers(m) == [0, 0]
    # with the default the same tie is an undercut: the dealer p0 wins 10 and, dealing alternately, p1 deals
    m = game(LONG.replace(next_dealer="alternate"), [tie_by("non_dealer")])
    assert m.results[0].kind is ResultKind.UNDERCUT and m.results[0].winner == 0
    assert m.scores == (10, 0)
    assert dealers(m) == [0, 1]


@pytest.mark.rule("MATCH-5", "SCORE-6")
def test_a_hand_worth_no_points_has_no_winner_and_the_same_dealer_deals() -> None:
    # with no undercut bonus a tie is an undercut worth 0 points: nobody won the hand
    m = game(LONG.replace(undercut_bonus=0, next_dealer="alternate"), [tie_by("non_dealer")])
    r = m.results[0]
    assert (r.kind, r.points, r.winner) == (ResultKind.UNDERCUT, 0, None)
    assert m.scores == (0, 0) and m.standings().columns[0].boxes == (0, 0)
    assert dealers(m) == [0, 0]


# --- MATCH-1 and MATCH-6: the game ends after the hand that reaches the target ------------------------------


@pytest.mark.rule("MATCH-1", "MATCH-6")
def test_the_game_ends_after_the_hand_that_reaches_the_target() -> None:
    rules = RuleSet.preset("standard", target=60)
    # p1 gins (27) and deals; p0 knocks and is undercut (p1 42); p0 gins (27) and deals; p1 gins (69)
    script = [gin_by("non_dealer"), undercut_of("non_dealer"), gin_by("non_dealer"), gin_by("non_dealer")]
    m = game(rules, script, extra=3)
    assert dealers(m) == [0, 1, 1, 0]
    assert [e.scores for e in m.events if isinstance(e, HandEnded)] == [(0, 27), (0, 42), (27, 42), (27, 69)]
    assert m.is_over and m.phase is MatchPhase.GAME_OVER
    assert m.scores == (27, 69) and m.winner == 1 and m.number == 4
    assert m.events[-1] == GameOver(1, (27, 69))
    assert [e for e in m.events if isinstance(e, GameOver)] == [m.events[-1]]
    # the decks left over are never dealt; nothing more can be played
    assert m.to_act is None and m.legal_actions() == [] and not m.awaiting_deck
    with pytest.raises(IllegalAction, match="MATCH-1"):
        m.play("p0 pass")
    with pytest.raises(IllegalAction, match="MATCH-7"):
        m.add_deck(dead().deck)


@pytest.mark.rule("MATCH-1")
@pytest.mark.parametrize(("target", "over"), [(26, True), (27, True), (28, False)])
def test_reaching_the_target_exactly_is_enough(target: int, over: bool) -> None:
    m = game(RuleSet(target=target), [gin_by("dealer")])
    assert m.scores == (27, 0)
    assert m.is_over is over
    assert m.winner == (0 if over else None)
    assert (m.number, m.to_act) == ((1, None) if over else (2, 1))


@pytest.mark.rule("MATCH-1", "MATCH-6", "SCORE-6")
def test_only_the_hand_winner_scores_so_only_he_can_reach_the_target() -> None:
    rules = RuleSet(target=100)
    # p1 knocks for 62 and deals; p0 knocks for 62 and deals; p1 gins (27: 89) and deals; p0 knocks (124)
    script = [knock_by("non_dealer"), knock_by("non_dealer"), gin_by("non_dealer"), knock_by("non_dealer")]
    m = game(rules, script)
    ended = [e for e in m.events if isinstance(e, HandEnded)]
    assert [e.scores for e in ended] == [(0, 62), (62, 62), (62, 89), (124, 89)]
    for before, after in zip([(0, 0)] + [e.scores for e in ended], [e.scores for e in ended], strict=False):
        changed = [s for s in (0, 1) if after[s] != before[s]]
        assert len(changed) == 1
    assert m.winner == 0 and m.events[-1] == GameOver(0, (124, 89))


@pytest.mark.rule("MATCH-6", "BONUS-1")
def test_end_of_game_boxes_change_the_totals_not_the_winner() -> None:
    # p1 wins three hands of 10 by undercut, then p0 knocks twice for 62 and reaches the target first;
    # with 100 a box, p1's three boxes put his total above p0's, but p0 won the game
    rules = RuleSet(target=100, box_bonus=100)
    script = [tie_by("dealer"), tie_by("non_dealer"), tie_by("non_dealer"), knock_by("non_dealer"), knock_by("dealer")]
    m = game(rules, script)
    assert dealers(m) == [0, 1, 1, 1, 0]
    assert [e.scores for e in m.events if isinstance(e, HandEnded)][-2:] == [(62, 30), (124, 30)]
    assert m.is_over and m.scores == (124, 30)
    assert m.winner == 0
    assert m.events[-1] == GameOver(0, (124 + 2 * 100, 30 + 3 * 100))


# --- MATCH-7: prearranged games ------------------------------------------------------------------------


@pytest.mark.rule("MATCH-7", "DEAL-3")
def test_a_prearranged_game_deals_exactly_its_decks() -> None:
    script = [gin_by("non_dealer"), dead(), knock_by("dealer"), undercut_of("non_dealer")]
    m = game(LONG, script, extra=1)
    hands = played_hands(m.events)
    assert len(hands) == 5
    for h, s in zip(hands, [*script, dead()], strict=True):
        d = h.dealt
        nd = d.seats.index(h.captain)
        assert d.hands[nd] == s.deck[0:20:2]
        assert d.hands[1 - nd] == s.deck[1:20:2]
        assert (d.upcard, d.stock) == (s.deck[20], s.deck[21:])
    assert [r.kind for r in m.results] == [ResultKind.GIN, ResultKind.DEAD, ResultKind.KNOCK, ResultKind.UNDERCUT]


@pytest.mark.rule("MATCH-7")
def test_a_game_whose_decks_run_out_waits_for_the_next_one() -> None:
    m = Match.scripted(LONG, cuts=P0_DEALS, decks=[gin_by("non_dealer").deck])
    play_hand(m, "non_dealer")
    assert m.awaiting_deck and not m.is_over
    assert m.phase is MatchPhase.ROTATE
    assert m.to_act is None and m.legal_actions() == [] and m.advice_options() == []
    before = list(m.events)
    with pytest.raises(IllegalAction, match="MATCH-1"):
        m.play("p1 pass")
    assert m.events == before and m.scores == (0, 27) and m.number == 1
    nxt = knock_by("dealer")
    new = m.add_deck(nxt.deck)
    assert not m.awaiting_deck and m.phase is MatchPhase.HAND
    assert isinstance(new[0], HandStarted) and new[0] == HandStarted(2, 1, (0, 1), None)  # the winner p1 deals
    assert isinstance(new[1], Dealt) and new[1].hands[0] == nxt.deck[0:20:2]
    assert m.number == 2 and m.to_act == 0
    with pytest.raises(IllegalAction, match="MATCH-7"):
        m.add_deck(nxt.deck)  # no deal is awaited now
    play_hand(m, "dealer")
    assert m.awaiting_deck and m.scores == (0, 89)
    m.add_deck(dead().deck)
    assert m.dealer == 1 and m.number == 3


@pytest.mark.rule("MATCH-7", "DEAL-4")
def test_a_prearranged_game_needs_a_first_deck_and_whole_decks() -> None:
    with pytest.raises(InvalidDeal, match="MATCH-7"):
        Match.scripted(LONG, cuts=P0_DEALS, decks=[])
    with pytest.raises(InvalidDeal, match="DEAL-4"):
        Match.scripted(LONG, cuts=P0_DEALS, decks=[gin_by("dealer").deck[:51]])
    m = Match.scripted(LONG, cuts=P0_DEALS, decks=[gin_by("dealer").deck])
    play_hand(m, "dealer")
    with pytest.raises(InvalidDeal, match="DEAL-4"):
        m.add_deck(gin_by("dealer").deck[:-1] + gin_by("dealer").deck[:1])
    assert m.awaiting_deck  # the bad deck changed nothing
