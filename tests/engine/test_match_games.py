"""Whole games played by bots, checked against the rules of the game from their event logs alone.

Spec sections 13 .. 15. ``check_game`` re-derives, from the events, every hand's score (SCORE-*), the
running scores, the end at the target, the roles of the next hand (MATCH-4, MATCH-5, THREE-4, THREE-5)
and the final totals (an independent pricing of BONUS-1 .. BONUS-4), then the property tests run it over
hundreds of seeded games under every preset and some option combinations.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Suit, to_mask
from engine.events import (
    DefenceLaid,
    Discarded,
    DrewDiscard,
    DrewStock,
    GameOver,
    HandDead,
    HandEnded,
    HandScored,
    Knocked,
    SpreadLaid,
    UpcardTaken,
)
from engine.match import Match
from engine.melds import deadwood
from engine.rules import DeadHandRoles, KnockLimit, NextDealer, OklahomaAce, RuleSet, Shutout
from engine.scoring import HandResult, ResultKind
from engine.seats import other_seat
from engine.standings import standings
from knock.bots import Bot, GreedyBot, RandomBot, play_match
from tests.engine.match_support import PlayedHand, game_overs, played_hands

# --- an independent reading of the rules ------------------------------------------------------------------


def expected_result(rules: RuleSet, hand: PlayedHand) -> tuple[ResultKind, int | None, int]:
    """The kind, winner and points of a hand, worked out from its events (SCORE-1 .. SCORE-6, OKLA-4, DEAD-1)."""
    dealt = hand.dealt
    held = {seat: to_mask(cards) for seat, cards in zip(dealt.seats, dealt.hands, strict=True)}
    knocker: int | None = None
    spread: SpreadLaid | None = None
    defence: DefenceLaid | None = None
    stock_draws = 0
    for e in hand.events:
        match e:
            case UpcardTaken(seat=s, card=c) | DrewDiscard(seat=s, card=c):
                held[s] |= c.bit
            case DrewStock(seat=s, card=c):
                held[s] |= c.bit
                stock_draws += 1
            case Discarded(seat=s, card=c) | Knocked(seat=s, card=c):
                held[s] &= ~c.bit
                if isinstance(e, Knocked):
                    knocker = s
            case SpreadLaid():
                spread = e
            case DefenceLaid():
                defence = e
            case _:
                pass
    if knocker is None:
        assert stock_draws == 31 - 2  # DEAD-1: the stock is down to two cards
        return ResultKind.DEAD, None, 0
    assert spread is not None and spread.seat == knocker
    defender = other_seat(dealt.seats, knocker)
    mult = 2 if rules.spades_double and dealt.upcard.suit is Suit.SPADES else 1
    k = spread.deadwood
    if k == 0:
        assert defence is None  # LAY-2: nobody lays off after gin
        return ResultKind.GIN, knocker, mult * (rules.gin_bonus + deadwood(held[defender]))
    assert defence is not None and defence.seat == defender
    d = defence.deadwood
    if k < d:
        return ResultKind.KNOCK, knocker, mult * (d - k)
    if k == d and not rules.undercut_on_tie:
        return ResultKind.TIE, None, 0
    return ResultKind.UNDERCUT, defender, mult * (rules.undercut_bonus + k - d)


def expected_limit(rules: RuleSet, hand: PlayedHand) -> int:
    """KNOCK-3, OKLA-1, OKLA-2."""
    up = hand.dealt.upcard
    if rules.knock_limit is KnockLimit.FIXED:
        return rules.knock_limit_value
    if up.rank == 1 and rules.oklahoma_ace is OklahomaAce.GIN_ONLY:
        return 0
    return min(up.rank, 10)


def expected_next_roles(rules: RuleSet, hand: PlayedHand) -> tuple[int, int, int | None]:
    """The next hand's (dealer or box, non-dealer or captain, sitter). MATCH-4, MATCH-5, THREE-4, THREE-5."""
    assert hand.ended is not None
    winner = hand.ended.result.winner
    dealer, other, sitter = hand.box, hand.captain, hand.started.sitter
    if sitter is None:
        if winner is None:
            return dealer, other, None
        nxt = {
            NextDealer.WINNER: winner,
            NextDealer.LOSER: 1 - winner,
            NextDealer.ALTERNATE: other,
        }[rules.next_dealer]
        return nxt, 1 - nxt, None
    if winner is None:
        if rules.three_handed_dead_hand is DeadHandRoles.REPLAY:
            return dealer, other, sitter
        winner = dealer
    loser = other if winner == dealer else dealer
    return winner, sitter, loser


@dataclass
class Priced:
    """The standings by the spec's words: every column's points, boxes and closer, the end and the winner."""

    points: list[list[int]]
    boxes: list[list[int]]
    closed: list[int | None]
    ends_after: int | None  #: the index of the result after which the game is over
    totals: list[int]
    winner: int | None


def price(rules: RuleSet, seats: int, results: Sequence[HandResult]) -> Priced:
    """BONUS-1 .. BONUS-4, written out again (one column unless Hollywood)."""
    ncol = 3 if rules.hollywood else 1
    points = [[0] * seats for _ in range(ncol)]
    boxes = [[0] * seats for _ in range(ncol)]
    closed: list[int | None] = [None] * ncol
    wins = [0] * seats
    ends_after: int | None = None
    for i, r in enumerate(results):
        if r.winner is None:
            continue
        w = r.winner
        wins[w] += 1
        open_cols = [c for c in range(ncol) if closed[c] is None]
        cols = [c for c in open_cols if c < wins[w]] or open_cols[:1]
        for c in cols:
            points[c][w] += r.points
            boxes[c][w] += 2 if rules.spades_double_boxes and r.multiplier == 2 else 1
            running = points[c][w] + (rules.box_bonus * boxes[c][w] if rules.immediate_boxes else 0)
            if running >= rules.target:
                closed[c] = w
        if all(c is not None for c in closed):
            ends_after = i
            break
    totals = [0] * seats
    for c in range(ncol):
        col = [points[c][s] + rules.box_bonus * boxes[c][s] for s in range(seats)]
        closer = closed[c]
        if closer is not None:
            g = rules.game_bonus
            shut = all(points[c][s] == 0 for s in range(seats) if s != closer)
            sh = rules.shutout if shut else Shutout.NONE
            bonus = {
                Shutout.NONE: g,
                Shutout.DOUBLE_TOTAL: col[closer] + 2 * g,
                Shutout.FLAT_100: g + 100,
                Shutout.DOUBLE_GAME_BONUS: 2 * g,
                Shutout.DOUBLE_HAND_POINTS: g + points[c][closer],
            }[sh]
            col[closer] += bonus
        for s in range(seats):
            totals[s] += col[s]
    winner: int | None = None
    if ends_after is not None:
        if ncol == 1:
            winner = closed[0]
        else:
            won = [closed.count(s) for s in range(seats)]
            winner = max(range(seats), key=lambda s: (totals[s], won[s], closed[0] == s))
    return Priced(points, boxes, closed, ends_after, totals, winner)


def running_scores(rules: RuleSet, seats: int, results: Sequence[HandResult]) -> tuple[int, ...]:
    """A single column's running score (no Hollywood): hand points, plus boxes credited immediately."""
    p = price(rules.replace(hollywood=False), seats, results)
    return tuple(
        p.points[0][s] + (rules.box_bonus * p.boxes[0][s] if rules.immediate_boxes else 0) for s in range(seats)
    )


# --- the checks ------------------------------------------------------------------------------------------


def check_game(rules: RuleSet, m: Match) -> None:
    """Every rule of sections 13 .. 15 that a finished game's log can show."""
    n = rules.players
    assert m.is_over and m.to_act is None
    overs = list(game_overs(m.events))
    assert len(overs) == 1 and m.events[-1] is overs[0]  # exactly one end, the last event
    hands = played_hands(m.events)
    assert len(hands) == m.number == len(m.results)
    assert [h.started.number for h in hands] == list(range(1, m.number + 1))
    results: list[HandResult] = []
    for i, h in enumerate(hands):
        assert h.ended is not None and h.ended.number == h.started.number
        r = h.ended.result
        assert r == m.results[i]
        final = [e for e in h.events if isinstance(e, HandScored | HandDead)]
        assert [e.result for e in final] == [r]
        # the hand: dealt by the dealer (the box) to two seats (THREE-3), scored as the events show
        d = h.dealt
        assert d.dealer == h.started.dealer and d.seats == h.started.seats == r.seats and len(d.stock) == 31
        assert d.knock_limit == expected_limit(rules, h)
        assert (r.kind, r.winner, r.points) == expected_result(rules, h)
        if h.started.sitter is not None:  # THREE-1, THREE-6: three stable seats; the sitter never scores
            assert {h.box, h.captain, h.started.sitter} == set(range(3))
            assert r.winner != h.started.sitter
        before = price(rules, n, results)
        results.append(r)
        after = price(rules, n, results)
        # scores never decrease; only the hand's winner gains; the sitter's never change (every column)
        for c in range(len(after.points)):
            for s in range(n):
                assert after.points[c][s] >= before.points[c][s]
                if s != r.winner:
                    assert after.points[c][s] == before.points[c][s]
        # MATCH-1: the scores after the hand, and the end exactly at the hand that reaches the target
        last = i == len(hands) - 1
        if not rules.hollywood:
            assert h.ended.scores == running_scores(rules, n, results)
            reached = [s for s in range(n) if h.ended.scores[s] >= rules.target]
            assert len(reached) == (1 if last else 0)  # MATCH-6: only one seat can get there, and it ends the game
            if last:
                assert overs[0].winner == reached[0] == r.winner
        assert (after.ends_after is not None) is last
        # the next hand's roles
        if not last:
            nxt = hands[i + 1]
            assert (nxt.box, nxt.captain, nxt.started.sitter) == expected_next_roles(rules, h)
    priced = price(rules, n, results)
    assert overs[0] == GameOver(m.winner if m.winner is not None else -1, tuple(priced.totals))
    assert priced.winner == m.winner
    st = standings(rules, n, m.results)
    assert [list(c.points) for c in st.columns] == priced.points
    assert [c.closed_by for c in st.columns] == priced.closed


def play_checked(m: Match, bots: Sequence[Bot]) -> None:
    """Play a game to its end with one bot per seat, checking the match's state at every step."""
    scores = m.scores
    number = m.number
    while (seat := m.to_act) is not None:
        hand = m.hand
        assert hand is not None
        if m.number != number:  # a new hand: the previous one's scores are the ones the log reported
            ended = [e for e in m.events if isinstance(e, HandEnded)]
            assert ended and m.scores == ended[-1].scores
            number, scores = m.number, m.scores
        assert m.scores == scores  # scores change only between hands
        assert seat in hand.seats and seat != m.sitter  # THREE-7: the sitter never acts
        assert m.roles()["box" if m.sitter is not None else "dealer"] == hand.dealer
        if m.sitter is not None and seat == m.captain:
            assert len(m.advice_options()) == len(m.legal_actions())
        m.apply(bots[seat].choose(hand.observation(seat), m.legal_actions()))


# --- whole games under each preset ----------------------------------------------------------------------------


@pytest.mark.rule("MATCH-1", "MATCH-4", "MATCH-5", "MATCH-6", "OKLA-1", "SCORE-1", "SCORE-2", "SCORE-3")
@pytest.mark.parametrize("preset", ["standard", "oklahoma"])
@pytest.mark.parametrize("seed", [3, 14, 15, 92])
def test_two_player_games_to_the_end(preset: str, seed: int) -> None:
    rules = RuleSet.preset(preset)
    m = play_match(Match.new(rules, seed=seed), [GreedyBot(), GreedyBot()])
    check_game(rules, m)
    assert m.number >= 2 and m.winner is not None
    assert max(m.scores) >= 100 > min(m.scores)
    assert m.events[-1] == GameOver(m.winner, m.scores)  # no extras: the totals are the scores


@pytest.mark.rule("MATCH-1", "MATCH-6", "THREE-1", "THREE-3", "THREE-4", "THREE-5", "THREE-6")
@pytest.mark.parametrize("seed", [3, 14, 15, 92])
def test_three_handed_games_to_the_end(seed: int) -> None:
    rules = RuleSet.preset("three_handed")
    m = play_match(Match.new(rules, seed=seed), [GreedyBot(), GreedyBot(), GreedyBot()])
    check_game(rules, m)
    assert m.winner is not None and m.scores[m.winner] >= 100
    assert sorted(m.scores)[1] < 100
    hands = played_hands(m.events)
    assert all(h.dealt.dealer == h.box for h in hands)


@pytest.mark.rule("MATCH-1", "MATCH-7")
def test_a_seeded_game_golden_summary() -> None:
    # seed 3, three-handed, greedy bots: the draw and the first hands as the log reads
    rules = RuleSet.preset("three_handed")
    m = play_match(Match.new(rules, seed=3), [GreedyBot()] * 3)
    assert [str(e) for e in m.events[:3]] == [
        "draw for p0 Ah, p1 Ad, p2 8s",
        "draw for p0 Kd, p1 Jh",  # the two aces tie and draw again: p0 captain, p1 sits out
        "hand 1: p2 in the box, p0 captain, p1 sits out",
    ]
    first = played_hands(m.events)[0]
    assert first.ended is not None and str(first.ended) == "after hand 1: p0 0, p1 0, p2 7"
    check_game(rules, m)


# --- properties over many games ----------------------------------------------------------------------------

CONFIGS: dict[str, RuleSet] = {
    "standard": RuleSet.preset("standard"),
    "oklahoma": RuleSet.preset("oklahoma"),
    "three_handed": RuleSet.preset("three_handed"),
    "oklahoma-spades": RuleSet.preset("oklahoma", spades_double=True, spades_double_boxes=True, box_bonus=25),
    "oklahoma-gin-only-ace": RuleSet.preset("oklahoma", oklahoma_ace="gin_only", target=150),
    "three-box-wins": RuleSet.preset("three_handed", three_handed_dead_hand="box_wins"),
    "three-straight-gin": RuleSet.preset("three_handed", knock_limit_value=0, target=60),
    "three-straight-gin-box-wins": RuleSet.preset(
        "three_handed", knock_limit_value=0, target=60, three_handed_dead_hand="box_wins"
    ),
    "three-no-tie-undercut": RuleSet.preset("three_handed", undercut_on_tie=False, undercut_bonus=0, gin_bonus=20),
    "standard-straight-gin": RuleSet.preset("standard", knock_limit_value=0, target=60),
    "hollywood": RuleSet.preset("standard", hollywood=True),
    "three-hollywood": RuleSet.preset("three_handed", hollywood=True, target=60, game_bonus=100, box_bonus=10),
    "immediate-boxes": RuleSet.preset("standard", immediate_boxes=True, box_bonus=25),
    "three-immediate-boxes": RuleSet.preset("three_handed", immediate_boxes=True, box_bonus=25, game_bonus=100),
    "alternate": RuleSet.preset("standard", next_dealer="alternate", undercut_on_tie=False),
    "loser-deals": RuleSet.preset("oklahoma", next_dealer="loser"),
    "shutouts": RuleSet.preset("standard", shutout="double_total", box_bonus=20, game_bonus=100, target=50),
    "three-shutouts": RuleSet.preset("three_handed", shutout="flat_100", game_bonus=100, target=50),
}

MIXES = ["greedy", "greedy", "one-random"]


def bots_for(mix: str, players: int, seed: int) -> list[Bot]:
    """Greedy-heavy seatings: random against random rarely knocks, so a game of it is slow to finish (and a
    straight-gin game of it may never finish); one random seat among greedy ones is quick.
    """
    bots: list[Bot] = [GreedyBot() for _ in range(players)]
    if mix == "one-random":
        bots[seed % players] = RandomBot(seed)
    return bots


def run(config: str, mix: str, seed: int) -> tuple[RuleSet, Match]:
    rules = CONFIGS[config]
    m = Match.new(rules, seed=seed)
    play_checked(m, bots_for(mix, rules.players, seed))
    return rules, m


@pytest.mark.rule(
    "MATCH-1",
    "MATCH-4",
    "MATCH-5",
    "MATCH-6",
    "THREE-1",
    "THREE-3",
    "THREE-4",
    "THREE-5",
    "THREE-6",
    "THREE-7",
    "BONUS-1",
    "BONUS-2",
    "BONUS-3",
    "BONUS-4",
    "BONUS-5",
)
@settings(max_examples=120, deadline=None)
@given(
    config=st.sampled_from(sorted(CONFIGS)),
    mix=st.sampled_from(MIXES),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_random_games_keep_the_rules_of_the_game(config: str, mix: str, seed: int) -> None:
    rules, m = run(config, mix, seed)
    check_game(rules, m)


@pytest.mark.rule("THREE-4", "THREE-5", "THREE-6", "MATCH-5")
@pytest.mark.parametrize("config", ["three-straight-gin", "three-straight-gin-box-wins", "three-no-tie-undercut"])
def test_three_handed_rotation_over_seeded_games_with_hands_without_a_winner(config: str) -> None:
    no_winner = 0
    for seed in range(20):
        rules, m = run(config, "greedy", seed)
        check_game(rules, m)
        hands = played_hands(m.events)
        for h, nxt in itertools.pairwise(hands):
            assert h.ended is not None
            r = h.ended.result
            sitter = h.started.sitter
            if r.winner is None:
                no_winner += 1
                if rules.three_handed_dead_hand is DeadHandRoles.REPLAY:  # nothing moves
                    assert nxt.started.dealer == h.box and nxt.started.seats == h.started.seats
                    assert nxt.started.sitter == sitter
                else:  # as if the box had won
                    assert (nxt.box, nxt.captain, nxt.started.sitter) == (h.box, sitter, h.captain)
            else:  # next box = winner, next sitter = loser, next captain = previous sitter
                loser = h.box + h.captain - r.winner
                assert (nxt.box, nxt.started.sitter, nxt.captain) == (r.winner, loser, sitter)
    assert no_winner >= 3  # the configurations do produce hands without a winner


@pytest.mark.rule("MATCH-5", "MATCH-4")
@pytest.mark.parametrize("config", ["standard-straight-gin", "alternate"])
def test_two_player_dealers_over_seeded_games(config: str) -> None:
    same_dealer_after_no_winner = 0
    for seed in range(20):
        rules, m = run(config, "greedy", seed)
        check_game(rules, m)
        hands = played_hands(m.events)
        for h, nxt in itertools.pairwise(hands):
            assert h.ended is not None
            if h.ended.result.winner is None:
                assert nxt.started.dealer == h.started.dealer
                same_dealer_after_no_winner += 1
    assert same_dealer_after_no_winner >= 3


@pytest.mark.rule("BONUS-5", "MATCH-6")
@pytest.mark.parametrize("config", ["shutouts", "three-shutouts", "three-hollywood", "oklahoma-spades"])
def test_repricing_a_recorded_game_keeps_its_hand_points(config: str) -> None:
    for seed in range(6):
        rules, m = run(config, "greedy", seed)
        n = rules.players
        options: list[dict[str, Any]] = [
            {"box_bonus": 0, "game_bonus": 0, "shutout": "none"},
            {"box_bonus": 30},
            {"game_bonus": 250},
            {"shutout": "double_hand_points", "game_bonus": 100},
        ]
        for extra in options:
            other = rules.replace(**extra)
            priced, mine = standings(other, n, m.results), standings(rules, n, m.results)
            assert [c.points for c in priced.columns] == [c.points for c in mine.columns]
            assert priced.winner == mine.winner == m.winner
            assert list(priced.totals) == price(other, n, m.results).totals
