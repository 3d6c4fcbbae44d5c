"""Scoring extras: boxes, the game bonus, shutouts and Hollywood, priced from recorded hand results.

Spec section 15 (BONUS-1 .. BONUS-6) and MATCH-6. Most tests price hand-built result lists with
``engine.standings.standings`` (the brief's illustrations G1 .. G3); the rest play scripted games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from engine.cards import cards
from engine.events import GameOver, HandEnded
from engine.match import Match
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind, dead_result
from engine.standings import Standings, standings
from knock.bots import GreedyBot, play_match
from tests.engine.match_support import LOW, deck, gin_by, knock_by, play_script, undercut_of

A, B, C = 0, 1, 2


def won(seat: int, points: int, *, doubled: bool = False, seats: tuple[int, int] = (0, 1)) -> HandResult:
    """A hand that ``seat`` won for ``points`` (already multiplied when ``doubled``)."""
    return HandResult(ResultKind.KNOCK, seat, points, seat, (0, 0), 2 if doubled else 1, seats=seats)


def price(results: Sequence[HandResult], seats: int = 2, **options: Any) -> Standings:
    return standings(RuleSet().replace(**options), seats, results)


G1 = [won(A, 25), won(B, 12), won(A, 30), won(A, 52)]
G2 = [won(A, 40), won(A, 35), won(A, 30)]
G3 = [won(A, 25), won(B, 20), won(A, 18), won(A, 36), won(B, 30), won(A, 40)]


# --- BONUS-1, BONUS-2: boxes and the game bonus (G1) ---------------------------------------------------------


@pytest.mark.rule("BONUS-1", "BONUS-2", "MATCH-1")
@pytest.mark.parametrize(
    ("options", "totals"),
    [
        ({}, (107, 12)),  # the seed rules: no extras
        ({"game_bonus": 100, "box_bonus": 25}, (282, 37)),  # 107 + 100 + 3 x 25; 12 + 25
        ({"game_bonus": 100, "box_bonus": 20}, (267, 32)),
        ({"box_bonus": 25}, (107 + 75, 12 + 25)),
        ({"game_bonus": 100}, (207, 12)),  # the game bonus goes to the winner only
    ],
)
def test_g1_boxes_and_game_bonus(options: dict[str, Any], totals: tuple[int, int]) -> None:
    st = price(G1, **options)
    assert st.over and st.winner == A
    (col,) = st.columns
    assert col.points == (107, 12) and col.boxes == (3, 1) and col.closed_by == A
    assert col.running == (107, 12)  # end-of-game boxes do not count toward the target
    assert col.totals == totals and st.totals == totals


@pytest.mark.rule("BONUS-1", "BONUS-2")
def test_bonuses_are_added_only_at_the_games_end() -> None:
    st = price(G1[:3], game_bonus=100, box_bonus=25)
    assert not st.over and st.winner is None
    assert st.running == st.totals == (55, 12)
    assert st.columns[0].boxes == (2, 1)  # the boxes are counted, not yet paid


@pytest.mark.rule("BONUS-1", "MATCH-1")
def test_immediate_boxes_count_toward_the_target() -> None:
    results = [won(A, 40), won(B, 10), won(A, 35)]
    late = price(results, box_bonus=25)
    assert not late.over and late.running == (75, 10)
    early = price(results, box_bonus=25, immediate_boxes=True)
    assert early.running == (40 + 35 + 50, 10 + 25)
    assert early.over and early.winner == A
    assert early.totals == (125, 35)  # each box is paid once, not again at the end
    # the game ends at the hand that reached the target: a later result changes nothing
    assert price([won(A, 40), won(A, 35), won(B, 90)], box_bonus=25, immediate_boxes=True) == price(
        [won(A, 40), won(A, 35)], box_bonus=25, immediate_boxes=True
    )
    assert price([won(A, 40), won(A, 35)], box_bonus=25, immediate_boxes=True).over


@pytest.mark.rule("BONUS-1", "MATCH-1")
def test_immediate_boxes_end_a_game_earlier() -> None:
    decks = [gin_by("dealer").deck] * 4  # p0 deals and gins for 27 every hand (the winner deals)
    normal = Match.scripted(RuleSet(box_bonus=25), cuts=[cards("Kc 2d")], decks=decks)
    play_script(normal, [gin_by("dealer")] * 4)
    quick = Match.scripted(RuleSet(box_bonus=25, immediate_boxes=True), cuts=[cards("Kc 2d")], decks=decks)
    play_script(quick, [gin_by("dealer")] * 2)
    assert [e.scores for e in normal.events if isinstance(e, HandEnded)] == [(27, 0), (54, 0), (81, 0), (108, 0)]
    assert [e.scores for e in quick.events if isinstance(e, HandEnded)] == [(52, 0), (104, 0)]
    assert quick.is_over and quick.number == 2 and quick.events[-1] == GameOver(0, (104, 0))
    assert normal.is_over and normal.number == 4 and normal.events[-1] == GameOver(0, (108 + 100, 0))


@pytest.mark.rule("BONUS-1", "OKLA-4", "SCORE-5")
@pytest.mark.parametrize(("double_boxes", "boxes"), [(True, 2), (False, 1)])
def test_a_hand_doubled_by_spades_earns_two_boxes_with_spades_double_boxes(double_boxes: bool, boxes: int) -> None:
    st = price([won(A, 54, doubled=True), won(B, 10)], box_bonus=20, spades_double_boxes=double_boxes)
    assert st.columns[0].boxes == (boxes, 1)
    rules = RuleSet.preset(
        "oklahoma", spades_double=True, spades_double_boxes=double_boxes, box_bonus=25, immediate_boxes=True
    )
    # p0 deals, p1 passes the 4s, p0 takes it for As-2s-3s-4s and goes gin: 2 x (25 + 2) = 54
    spade_gin = deck(LOW, "As 2s 3s 4h 5h 6h 7c 8c 9c Kd", "4s")
    m = Match.scripted(rules, cuts=[cards("Kc 2d")], decks=[spade_gin, gin_by("dealer").deck])
    play_script(m, [gin_by("dealer")])
    assert m.results[0].kind is ResultKind.GIN and m.results[0].multiplier == 2 and m.results[0].points == 54
    assert m.standings().columns[0].boxes == (boxes, 0)
    assert m.scores == (54 + 25 * boxes, 0)
    assert m.is_over is double_boxes  # 104 reaches the target; 79 does not


# --- BONUS-3: shutouts (G2) ----------------------------------------------------------------------------


@pytest.mark.rule("BONUS-3", "BONUS-1", "BONUS-2")
@pytest.mark.parametrize(
    ("shutout", "box", "total"),
    [
        ("none", 25, 105 + 100 + 75),
        ("double_total", 25, 560),  # JDH modern: (105 + 100 + 75) x 2
        ("double_total", 20, 530),  # PKW's doubled margin is the same as the doubled total
        ("flat_100", 20, 365),  # JDH classic: 105 + 100 + 60 + 100
        ("double_game_bonus", 20, 365),  # pagat-style: 105 + 200 + 60
        ("double_hand_points", 25, 385),  # GRC: 210 + 100 + 75
    ],
)
def test_g2_shutout_formulas(shutout: str, box: int, total: int) -> None:
    st = price(G2, shutout=shutout, box_bonus=box, game_bonus=100)
    assert st.winner == A and st.totals == (total, 0)


@pytest.mark.rule("BONUS-3")
@pytest.mark.parametrize("shutout", ["double_total", "flat_100", "double_game_bonus", "double_hand_points"])
def test_no_shutout_when_another_seat_scored(shutout: str) -> None:
    results = [won(A, 40), won(B, 5), won(A, 35), won(A, 30)]
    assert price(results, shutout=shutout, box_bonus=25, game_bonus=100).totals == (105 + 100 + 75, 5 + 25)
    # three seats: one other seat scoring is enough to spoil it; the sitter-only seat C scoring 0 is not
    three = [won(A, 60, seats=(0, 1)), won(C, 5, seats=(0, 2)), won(A, 45, seats=(0, 1))]
    assert price(three, 3, shutout=shutout, game_bonus=100).totals == (205, 0, 5)
    shut = [won(A, 60, seats=(0, 1)), won(A, 45, seats=(0, 2))]
    assert price(shut, 3, shutout=shutout, game_bonus=100).totals != (205, 0, 0)


@pytest.mark.rule("BONUS-3", "BONUS-2")
def test_shutout_formulas_without_a_game_bonus() -> None:
    assert price(G2, shutout="flat_100").totals == (205, 0)
    assert price(G2, shutout="double_game_bonus").totals == (105, 0)  # twice nothing
    assert price(G2, shutout="double_total").totals == (210, 0)
    assert price(G2, shutout="double_hand_points", box_bonus=10).totals == (210 + 30, 0)


# --- MATCH-6: the first to the target wins, whatever the bonuses ----------------------------------------------


@pytest.mark.rule("MATCH-6", "BONUS-1")
def test_bonuses_never_change_the_winner() -> None:
    results = [won(B, 1)] * 5 + [won(A, 100)]
    st = price(results, box_bonus=25)
    assert st.totals == (125, 130)
    assert st.winner == A
    st = price(results, box_bonus=25, game_bonus=1)
    assert st.totals == (126, 130) and st.winner == A


# --- BONUS-4: Hollywood (G3) ----------------------------------------------------------------------------


@pytest.mark.rule("BONUS-4")
def test_g3_hollywood_columns() -> None:
    st = price(G3, hollywood=True)
    c1, c2, c3 = st.columns
    assert (c1.points, c1.closed_by) == ((119, 50), A)
    assert (c2.points, c2.closed_by) == ((94, 30), None)
    assert (c3.points, c3.closed_by) == ((76, 0), None)  # B's third win will be his first entry here
    assert not st.over and st.winner is None
    assert st.running == (119 + 94 + 76, 50 + 30 + 0)  # MATCH-1: a seat's score sums its columns


@pytest.mark.rule("BONUS-4", "BONUS-5", "BONUS-1", "BONUS-2")
def test_hollywood_ends_when_all_three_columns_close() -> None:
    results = [*G3, won(A, 10), won(B, 20)]
    st = price(results, hollywood=True)
    assert [c.points for c in st.columns] == [(119, 50), (104, 30), (86, 20)]  # B's 3rd win: column 3 only
    assert [c.closed_by for c in st.columns] == [A, A, None] and not st.over
    st = price([*results, won(A, 14)], hollywood=True)
    assert [c.points for c in st.columns] == [(119, 50), (104, 30), (100, 20)]
    assert st.over and st.winner == A and st.totals == (323, 100)
    # each column is priced as a game of its own
    st = price([*results, won(A, 14)], hollywood=True, game_bonus=100, box_bonus=25)
    assert [c.boxes for c in st.columns] == [(4, 2), (4, 1), (4, 1)]
    assert [c.totals for c in st.columns] == [(319, 100), (304, 55), (300, 45)]
    assert st.totals == (923, 200)


@pytest.mark.rule("BONUS-4")
def test_hollywood_a_win_whose_columns_are_closed_goes_to_the_first_open_column() -> None:
    st = price([won(A, 100), won(B, 10), won(A, 5)], hollywood=True)
    c1, c2, c3 = st.columns
    assert c1.points == (100, 0) and c1.closed_by == A
    assert c2.points == (5, 10)  # B's first win: column 1 is closed, so column 2; A's second: column 2 only
    assert c3.points == (0, 0)
    # A wins three times for 100: each win closes the first open column
    st = price([won(A, 100)] * 3, hollywood=True, shutout="flat_100", game_bonus=100)
    assert [c.closed_by for c in st.columns] == [A, A, A] and st.winner == A
    assert [c.totals for c in st.columns] == [(300, 0)] * 3  # a shutout in every column
    assert st.totals == (900, 0)


@pytest.mark.rule("BONUS-4")
def test_hollywood_winner_has_the_highest_sum_then_more_columns_then_column_one() -> None:
    t = {"hollywood": True, "target": 10}
    # A closes column 1; B closes columns 2 and 3 with bigger wins: B's sum is higher
    st = price([won(A, 9), won(A, 9), won(B, 30), won(A, 9), won(B, 30)], **t)
    assert [c.closed_by for c in st.columns] == [A, B, B]
    assert st.totals == (36, 60) and st.winner == B
    # the same sums: B won more columns
    st = price([won(A, 9), won(A, 9), won(B, 18), won(A, 9), won(B, 18)], **t)
    assert st.totals == (36, 36) and st.winner == B
    # three seats, one column each, the same sums: the winner of column 1 (C) wins
    res = [won(C, 10, seats=(1, 2)), won(A, 10, seats=(0, 2)), won(B, 10, seats=(0, 1))]
    st = standings(RuleSet(hollywood=True, target=10), 3, res)
    assert [c.closed_by for c in st.columns] == [C, A, B]
    assert st.totals == (10, 10, 10) and st.winner == C


@pytest.mark.rule("BONUS-4", "BONUS-5", "MATCH-1")
def test_a_hollywood_game_goes_on_after_the_first_column_closes() -> None:
    rules = RuleSet.preset("standard", hollywood=True, target=50, game_bonus=100)
    # p0 deals and knocks for 62 three times: each win closes the first open column
    m = Match.scripted(rules, cuts=[cards("Kc 2d")], decks=[knock_by("dealer").deck] * 3)
    play_script(m, [knock_by("dealer")])
    assert not m.is_over and m.number == 2
    assert [c.closed_by for c in m.standings().columns] == [A, None, None]
    play_script(m, [knock_by("dealer")] * 2)
    assert m.is_over and m.winner == A and m.number == 3
    st = m.standings()
    assert [c.totals for c in st.columns] == [(162, 0)] * 3
    assert m.events[-1] == GameOver(A, (486, 0))


# --- BONUS-5: the final totals, and re-pricing a recorded game --------------------------------------------------


@pytest.mark.rule("BONUS-5", "BONUS-1", "BONUS-2", "BONUS-3")
@pytest.mark.parametrize("preset", ["standard", "oklahoma", "three_handed"])
def test_game_over_names_the_winner_and_every_final_total(preset: str) -> None:
    rules = RuleSet.preset(preset, box_bonus=25, game_bonus=100, shutout="double_total")
    m = play_match(Match.new(rules, seed=11), [GreedyBot()] * rules.players)
    st = m.standings()
    over = m.events[-1]
    assert isinstance(over, GameOver) and over.winner == m.winner == st.winner
    assert over.totals == st.totals == tuple(sum(c.totals[s] for c in st.columns) for s in range(rules.players))
    (col,) = st.columns
    wins = [r.winner for r in m.results]
    shut = all(col.points[s] == 0 for s in range(rules.players) if s != over.winner)
    for s in range(rules.players):
        base = col.points[s] + 25 * wins.count(s)
        if s == over.winner:
            base = 2 * (base + 100) if shut else base + 100
        assert over.totals[s] == base


@pytest.mark.rule("BONUS-5", "BONUS-1", "BONUS-2", "BONUS-3", "BONUS-4")
@pytest.mark.parametrize("preset", ["standard", "three_handed"])
def test_a_recorded_game_can_be_repriced(preset: str) -> None:
    rules = RuleSet.preset(preset)
    m = play_match(Match.new(rules, seed=5), [GreedyBot()] * rules.players)
    n = rules.players
    points = tuple(sum(r.points for r in m.results if r.winner == s) for s in range(n))
    wins = tuple(sum(1 for r in m.results if r.winner == s) for s in range(n))
    plain = standings(rules, n, m.results)
    assert plain.totals == points and plain.winner == m.winner
    assert m.winner is not None and m.events[-1] == GameOver(m.winner, points)
    boxed = standings(rules.replace(box_bonus=25, game_bonus=100), n, m.results)
    assert boxed.columns[0].points == points  # the same hand points
    expected = tuple(points[s] + 25 * wins[s] + (100 if s == m.winner else 0) for s in range(n))
    assert boxed.totals == expected != plain.totals
    assert boxed.winner == plain.winner
    flat = standings(rules.replace(game_bonus=50), n, m.results)
    assert flat.totals != boxed.totals and flat.columns[0].points == points
    # Hollywood spreads the same wins over three columns: column 1 holds every hand point
    holly = standings(rules.replace(hollywood=True), n, m.results)
    assert holly.columns[0].points == points
    assert holly.winner is None  # one column closed, two still open: the game would go on
    # dead hands are part of the record and are priced as nothing
    assert standings(rules, n, [dead_result("stock"), *m.results]) == plain


# --- BONUS-6: kisses ------------------------------------------------------------------------------------------


def result(kind: ResultKind, winner: int | None, points: int, *, doubled: bool = False) -> HandResult:
    """A scored hand of ``kind``: the knocker is the winner, except in an undercut (seats 0 and 1)."""
    knocker = 1 - winner if kind is ResultKind.UNDERCUT and winner is not None else (winner or 0)
    return HandResult(kind, winner, points, knocker, (0, 0), 2 if doubled else 1)


@pytest.mark.rule("BONUS-6", "BONUS-1")
@pytest.mark.parametrize(
    ("kind", "winner", "boxes"),
    [
        (ResultKind.GIN, A, 3),  # a box and two kisses
        (ResultKind.BIG_GIN, A, 3),
        (ResultKind.UNDERCUT, B, 2),  # a box and one kiss
        (ResultKind.KNOCK, A, 1),  # no kiss
        (ResultKind.TIE, None, 0),  # no winner: no box, no kiss
    ],
)
def test_kisses_add_two_boxes_for_gin_and_one_for_an_undercut(kind: ResultKind, winner: int | None, boxes: int) -> None:
    hand = result(kind, winner, 30 if winner is not None else 0)
    plain = price([hand], box_bonus=25)
    kissed = price([hand], box_bonus=25, kisses=True)
    won_boxes = [0, 0] if winner is None else [1 if s == winner else 0 for s in (A, B)]
    assert plain.columns[0].boxes == tuple(won_boxes)
    assert kissed.columns[0].boxes == tuple(boxes if s == winner else 0 for s in (A, B))
    assert kissed.columns[0].points == plain.columns[0].points, "kisses are boxes, not hand points"


@pytest.mark.rule("BONUS-6", "BONUS-1", "BONUS-2")
def test_kisses_are_paid_as_boxes_at_the_end() -> None:
    hands = [result(ResultKind.GIN, A, 40), result(ResultKind.UNDERCUT, B, 15), result(ResultKind.KNOCK, A, 70)]
    st = price(hands, box_bonus=25, game_bonus=100, kisses=True)
    assert st.over and st.winner == A
    assert st.columns[0].boxes == (3 + 1, 2)
    assert st.running == (110, 15), "boxes at the end do not count toward the target"
    assert st.totals == (110 + 4 * 25 + 100, 15 + 2 * 25)
    assert price(hands, kisses=True).totals == price(hands).totals == (110, 15), "worth nothing without box_bonus"


@pytest.mark.rule("BONUS-6", "BONUS-1", "MATCH-1")
def test_immediate_kisses_count_toward_the_target() -> None:
    hands = [result(ResultKind.GIN, A, 40), result(ResultKind.KNOCK, A, 20)]
    assert not price(hands, box_bonus=10, immediate_boxes=True).over  # 60 + 2 boxes = 80
    st = price(hands, box_bonus=10, immediate_boxes=True, kisses=True)  # 60 + 4 boxes = 100
    assert st.over and st.winner == A and st.running == (100, 0) and st.totals == (100, 0)


@pytest.mark.rule("BONUS-6", "BONUS-1", "OKLA-4")
@pytest.mark.parametrize(("double_boxes", "boxes"), [(True, 6), (False, 3)])
def test_spades_double_boxes_doubles_the_kisses_with_the_box(double_boxes: bool, boxes: int) -> None:
    st = price([result(ResultKind.GIN, A, 60, doubled=True)], kisses=True, spades_double_boxes=double_boxes)
    assert st.columns[0].boxes == (boxes, 0)


@pytest.mark.rule("BONUS-6", "BONUS-4")
def test_hollywood_enters_the_kisses_in_every_column_the_win_enters() -> None:
    hands = [result(ResultKind.KNOCK, A, 10), result(ResultKind.GIN, A, 30)]  # the 2nd win: columns 1 and 2
    st = price(hands, hollywood=True, kisses=True)
    assert [c.boxes for c in st.columns] == [(1 + 3, 0), (3, 0), (0, 0)]


@pytest.mark.rule("BONUS-6", "BONUS-5", "MATCH-6")
@pytest.mark.parametrize("preset", ["standard", "three_handed"])
def test_a_recorded_game_can_be_repriced_with_kisses(preset: str) -> None:
    rules = RuleSet.preset(preset, box_bonus=25)
    m = play_match(Match.new(rules, seed=5), [GreedyBot()] * rules.players)
    kinds = [(r.winner, r.kind) for r in m.results if r.winner is not None]
    assert {k for _, k in kinds} & {ResultKind.GIN, ResultKind.UNDERCUT}, "the game has a hand that kisses"
    kissed = standings(rules.replace(kisses=True), rules.players, m.results)
    extra = {ResultKind.GIN: 2, ResultKind.BIG_GIN: 2, ResultKind.UNDERCUT: 1}
    for s in range(rules.players):
        boxes = sum(1 + extra.get(k, 0) for w, k in kinds if w == s)
        assert kissed.columns[0].boxes[s] == boxes
        assert kissed.totals[s] == m.standings().totals[s] + 25 * (boxes - sum(1 for w, _ in kinds if w == s))
    assert kissed.winner == m.winner, "kisses never change the winner"


@pytest.mark.rule("BONUS-6", "BONUS-5")
def test_a_game_played_with_kisses_ends_with_them_in_its_totals() -> None:
    rules = RuleSet(box_bonus=10, kisses=True)
    scripts = [undercut_of("dealer"), gin_by("dealer"), gin_by("dealer"), gin_by("dealer"), gin_by("dealer")]
    m = Match.scripted(rules, cuts=[cards("Kc 2d")], decks=[s.deck for s in scripts])
    play_script(m, scripts)
    kinds = [r.kind for r in m.results]
    assert kinds[0] is ResultKind.UNDERCUT and set(kinds[1:]) == {ResultKind.GIN}
    assert m.is_over and m.winner is not None
    st = m.standings()
    assert sum(st.columns[0].boxes) == 2 + 3 * (len(kinds) - 1)
    assert m.events[-1] == GameOver(m.winner, st.totals)
