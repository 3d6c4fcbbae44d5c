"""Three-handed Gin "in the box": the deal, the rotation of roles, the sitter's advice and what each seat sees.

Spec section 14 (THREE-1 .. THREE-8). The draw gives the roles of the brief's G4 (p0 draws K: box; p1 draws
7: captain; p2 draws 3: sits out) unless a test says otherwise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest

from engine.actions import Advise, LayOff, PassUpcard, TakeUpcard, parse_action
from engine.cards import Card, cards, from_mask
from engine.errors import IllegalAction
from engine.events import Advised, Dealt, HandStarted, UpcardPassed, UpcardTaken
from engine.fsm import Phase
from engine.hand import Hand
from engine.match import Match
from engine.rules import RuleSet
from engine.scoring import ResultKind
from engine.visibility import Observation
from knock.bots import Bot, GreedyBot, RandomBot
from tests.engine.match_support import (
    JUNK,
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

THREE = RuleSet.preset("three_handed", target=1000)
G4_DRAW = [cards("Kc 7d 3h")]  # p0 box, p1 captain, p2 sits out


def game(rules: RuleSet, scenarios: Sequence[Scenario], *, extra: int = 1) -> Match:
    """A scripted three-handed game (roles as in G4) that plays ``scenarios``, with ``extra`` more deals ready."""
    m = Match.scripted(rules, cuts=G4_DRAW, decks=[s.deck for s in scenarios] + [dead().deck] * extra)
    play_script(m, scenarios)
    return m


def roles(m: Match) -> tuple[int, int, int | None]:
    return (m.dealer, m.captain, m.sitter)


def snapshot(m: Match) -> tuple[object, ...]:
    """Everything a rejected action must leave as it was."""
    assert m.hand is not None
    return (list(m.events), m.scores, m.roles(), m.hand.state_key(), m.phase, m.number, m.to_act, list(m.results))


def rejected(m: Match, text: str, rule: str) -> None:
    before = snapshot(m)
    with pytest.raises(IllegalAction, match=f"^{rule}: ") as info:
        m.play(text)
    assert info.value.rule == rule
    assert snapshot(m) == before


def private_cards(hand: Hand, seat: int) -> set[Card]:
    """The cards ``seat`` holds that nobody else may know: all but those he took from the discard pile."""
    return set(hand.cards_of(seat)) - set(from_mask(hand.known[seat]))


def visible_cards(obs: Observation) -> set[Card]:
    """Every card an observation names outside the showdown."""
    out = {*obs.hand, *obs.discard_pile, *obs.opponent_known, obs.upcard}
    out |= {c for c in (obs.taken, obs.knock_discard) if c is not None}
    return out


# --- THREE-1, THREE-3: three stable seats; the box deals to himself and the captain ----------------------


@pytest.mark.rule("THREE-1", "THREE-3", "DEAL-3")
def test_only_the_box_and_the_captain_are_dealt_and_the_captain_starts() -> None:
    s = gin_by("dealer")
    m = Match.scripted(THREE, cuts=G4_DRAW, decks=[s.deck])
    assert m.roles() == {"box": 0, "captain": 1, "sitter": 2}
    assert m.scores == (0, 0, 0)
    hand = m.hand
    assert hand is not None and hand.seats == (0, 1) and hand.dealer == 0
    dealt = hand.events[0]
    assert isinstance(dealt, Dealt)
    assert dealt.hands == (s.deck[1:20:2], s.deck[0:20:2])  # p0 the box (dealer), p1 the captain (non-dealer)
    assert dealt.upcard == s.deck[20] and len(dealt.stock) == 31 and dealt.stock == s.deck[21:]
    assert m.to_act == 1 and hand.phase is Phase.UPCARD_OFFER  # the captain has the first option
    with pytest.raises(ValueError, match="VIS-1"):
        hand.observation(2)  # the sitter holds no cards
    with pytest.raises(ValueError, match="THREE-1"):
        m.observation(3)  # there is no fourth seat


@pytest.mark.rule("THREE-1", "THREE-3")
def test_the_box_deals_every_hand_to_himself_and_the_captain() -> None:
    script = [gin_by("dealer"), undercut_of("dealer"), dead(), knock_by("non_dealer"), tie_by("non_dealer")]
    m = game(THREE, script)
    hands = played_hands(m.events)
    assert len(hands) == 6
    for h, s in zip(hands, [*script, dead()], strict=True):
        assert {h.box, h.captain, h.started.sitter} == {0, 1, 2}  # a role for each of the three seats
        d = h.dealt
        assert d.dealer == h.box and set(d.seats) == {h.box, h.captain}
        assert d.hands[d.seats.index(h.captain)] == s.deck[0:20:2]  # the captain is the non-dealer
        assert d.hands[d.seats.index(h.box)] == s.deck[1:20:2]
        assert len(d.stock) == 31
        if h.ended is not None:  # the captain has the first option on the upcard
            first = h.events[1]
            assert isinstance(first, UpcardPassed | UpcardTaken) and first.seat == h.captain


# --- THREE-4: the rotation law ------------------------------------------------------------------------


@pytest.mark.rule("THREE-4", "THREE-2", "THREE-5", "THREE-6")
def test_the_g4_illustration() -> None:
    # Hand 1 the box P gins; hand 2 P knocks and the captain R undercuts him; hand 3 is dead;
    # hand 4 the captain Q knocks and wins.
    script = [gin_by("dealer"), undercut_of("dealer"), dead(), knock_by("non_dealer")]
    m = game(THREE, script)
    assert [e for e in m.events if isinstance(e, HandStarted)] == [
        HandStarted(1, 0, (0, 1), 2),  # P box, Q captain, R sits out
        HandStarted(2, 0, (0, 2), 1),  # P box, R captain, Q sits out
        HandStarted(3, 2, (1, 2), 0),  # R box, Q captain, P sits out
        HandStarted(4, 2, (1, 2), 0),  # unchanged: R deals again
        HandStarted(5, 1, (0, 1), 2),  # Q box, P captain, R sits out
    ]
    assert [(r.winner, r.points) for r in m.results] == [(0, 27), (2, 15), (None, 0), (1, 62)]
    assert m.scores == (27, 62, 15)


@pytest.mark.rule("THREE-4", "THREE-6")
@pytest.mark.parametrize(
    ("scenario", "winner", "next_roles"),
    [
        # the box wins: he stays in the box, the captain and the sitter switch
        (gin_by("dealer"), 0, (0, 2, 1)),
        (knock_by("dealer"), 0, (0, 2, 1)),
        (undercut_of("non_dealer"), 0, (0, 2, 1)),  # the captain knocks and the box undercuts him
        # the box loses: he sits out, the captain goes into the box, the sitter becomes captain
        (gin_by("non_dealer"), 1, (1, 2, 0)),
        (knock_by("non_dealer"), 1, (1, 2, 0)),
        (undercut_of("dealer"), 1, (1, 2, 0)),  # the box knocks and is undercut
        (tie_by("dealer"), 1, (1, 2, 0)),  # a tie is an undercut of the box by default
    ],
    ids=lambda v: v.name + "-" + str(v.knocker) if isinstance(v, Scenario) else None,
)
def test_next_box_is_the_winner_next_captain_the_sitter_next_sitter_the_loser(
    scenario: Scenario, winner: int, next_roles: tuple[int, int, int]
) -> None:
    m = game(THREE, [scenario])
    assert m.results[0].winner == winner
    assert roles(m) == next_roles
    assert (next_roles[0], next_roles[1], next_roles[2]) == (winner, 2, 1 - winner)  # the law itself
    assert m.scores[2] == 0 and m.scores[winner] == m.results[0].points and m.scores[1 - winner] == 0


@pytest.mark.rule("THREE-4")
def test_rotation_over_a_run_of_hands_from_other_draws() -> None:
    # p2 draws the king (box), p0 the queen (captain), p1 sits out
    m = Match.scripted(
        THREE,
        cuts=[cards("Qc 3d Ks")],
        decks=[gin_by("non_dealer").deck, knock_by("dealer").deck, undercut_of("non_dealer").deck, dead().deck],
    )
    assert roles(m) == (2, 0, 1)
    play_hand(m, "non_dealer")  # the captain p0 wins
    assert roles(m) == (0, 1, 2)
    play_hand(m, "dealer")  # the box p0 wins
    assert roles(m) == (0, 2, 1)
    play_hand(m, "non_dealer")  # the captain p2 knocks, the box p0 undercuts
    assert roles(m) == (0, 1, 2)
    assert m.scores == (27 + 62 + 15, 0, 0)


# --- THREE-5: no winner ---------------------------------------------------------------------------------


@pytest.mark.rule("THREE-5", "DEAD-1")
@pytest.mark.parametrize(("policy", "next_roles"), [("replay", (0, 1, 2)), ("box_wins", (0, 2, 1))])
def test_after_a_dead_hand_roles_replay_or_rotate_as_if_the_box_won(
    policy: str, next_roles: tuple[int, int, int]
) -> None:
    nxt = knock_by("dealer")
    m = Match.scripted(THREE.replace(three_handed_dead_hand=policy), cuts=G4_DRAW, decks=[dead().deck, nxt.deck])
    play_hand(m, None)
    assert m.results[0].kind is ResultKind.DEAD and m.results[0].winner is None
    assert roles(m) == next_roles
    assert m.scores == (0, 0, 0)  # "as if the box had won" moves the roles only: nobody scores
    assert m.standings().columns[0].boxes == (0, 0, 0)  # nor earns a box
    d = played_hands(m.events)[1].dealt
    assert d.dealer == 0 and d.upcard == nxt.deck[20]  # the box deals again, a new deck
    play_hand(m, "dealer")
    assert m.scores == (62, 0, 0)


@pytest.mark.rule("THREE-5", "SCORE-3")
@pytest.mark.parametrize(("policy", "next_roles"), [("replay", (0, 1, 2)), ("box_wins", (0, 2, 1))])
def test_a_tie_without_undercut_is_a_hand_without_a_winner(policy: str, next_roles: tuple[int, int, int]) -> None:
    m = game(THREE.replace(undercut_on_tie=False, three_handed_dead_hand=policy), [tie_by("non_dealer")])
    assert m.results[0].kind is ResultKind.TIE and m.results[0].winner is None
    assert roles(m) == next_roles
    assert m.scores == (0, 0, 0)


@pytest.mark.rule("THREE-5", "SCORE-6")
@pytest.mark.parametrize(("policy", "next_roles"), [("replay", (0, 1, 2)), ("box_wins", (0, 2, 1))])
def test_a_hand_worth_no_points_is_a_hand_without_a_winner(policy: str, next_roles: tuple[int, int, int]) -> None:
    m = game(THREE.replace(undercut_bonus=0, three_handed_dead_hand=policy), [tie_by("dealer")])
    r = m.results[0]
    assert (r.kind, r.points, r.winner) == (ResultKind.UNDERCUT, 0, None)
    assert roles(m) == next_roles
    assert m.scores == (0, 0, 0)


@pytest.mark.rule("THREE-5")
def test_replayed_dead_hands_keep_the_roles_until_a_hand_is_won() -> None:
    m = game(THREE, [dead(), dead("9d"), dead("Ts"), gin_by("non_dealer")])
    assert [(e.dealer, e.seats, e.sitter) for e in m.events if isinstance(e, HandStarted)] == [
        (0, (0, 1), 2),
        (0, (0, 1), 2),
        (0, (0, 1), 2),
        (0, (0, 1), 2),
        (1, (1, 2), 0),
    ]


# --- THREE-6: individual scores; the sitter never scores -----------------------------------------------


@pytest.mark.rule("THREE-6", "MATCH-1")
def test_points_go_to_the_active_seat_that_won_them_and_the_game_is_individual() -> None:
    rules = RuleSet.preset("three_handed", target=100)
    # the captain p1 gins (27) and goes into the box; the box p1 knocks (89); the box p1 is undercut by the
    # captain p0 (15); the box p0 knocks (77) and knocks again (139): p0 wins, p2 never won a hand
    script = [gin_by("non_dealer"), knock_by("dealer"), undercut_of("dealer"), knock_by("dealer"), knock_by("dealer")]
    m = game(rules, script)
    hands = played_hands(m.events)
    for h in hands:
        assert h.ended is not None
        assert h.ended.result.seats == h.started.seats
        assert h.ended.result.winner in (*h.started.seats, None)
    sitters = [h.started.sitter for h in hands]
    scores = [h.ended.scores for h in hands if h.ended is not None]
    assert scores == [(0, 27, 0), (0, 89, 0), (15, 89, 0), (77, 89, 0), (139, 89, 0)]
    prev: tuple[int, ...] = (0, 0, 0)
    for sitter, now in zip(sitters, scores, strict=True):
        assert sitter is not None and now[sitter] == prev[sitter]
        prev = now
    assert m.is_over and m.winner == 0 and m.number == 5


# --- THREE-7: the sitter only advises -------------------------------------------------------------------

SITTER_ACTIONS = ["p2 take", "p2 pass", "p2 draw", "p2 pickup", "p2 discard Kd", "p2 knock Kd", "p2 decline"]


@pytest.mark.rule("THREE-7", "TURN-1")
def test_the_sitter_may_not_act_in_any_phase() -> None:
    m = Match.scripted(THREE, cuts=G4_DRAW, decks=[knock_by("dealer").deck, dead().deck])
    assert m.hand is not None
    for text in SITTER_ACTIONS:  # the captain is to act on the upcard
        rejected(m, text, "THREE-7")
    m.play("p1 pass")
    for text in SITTER_ACTIONS:  # the box is to act on the upcard
        rejected(m, text, "THREE-7")
    m.play("p0 take")
    for text in [*SITTER_ACTIONS, "p2 spread As-2s-3s"]:  # the box discards
        rejected(m, text, "THREE-7")
    m.play("p0 knock Kd")
    rejected(m, "p2 spread As-2s-3s 4h-5h-6h 7c-8c-9c", "THREE-7")
    m.apply(m.hand.auto_spread())
    assert m.hand.phase is Phase.LAYOFF and m.to_act == 1
    rejected(m, "p2 layoff", "THREE-7")
    # and the sitter is not a substitute for the seat to act: the captain's own action is still legal
    assert m.is_legal(m.hand.auto_defence())


@pytest.mark.rule("THREE-7")
def test_advice_is_recorded_and_changes_nothing_else() -> None:
    m = Match.scripted(THREE, cuts=G4_DRAW, decks=[knock_by("dealer").deck])
    assert m.advice_options() == [Advise(2, PassUpcard(1)), Advise(2, TakeUpcard(1))]
    before = snapshot(m)
    events = m.play("p2 advise p1 take")
    assert events == [Advised(2, parse_action("p1 take"))]
    after = snapshot(m)
    assert after[0] == [*m.events[:-1], Advised(2, parse_action("p1 take"))] and m.events[:-1] == before[0]
    assert after[1:] == before[1:]  # scores, roles, the hand's whole state, phase, number, seat to act
    assert m.play("p2 advise p1 pass", "p2 advise p1 take") == [
        Advised(2, parse_action("p1 pass")),
        Advised(2, parse_action("p1 take")),
    ]
    # the captain has the final word: he passes although the last advice was to take
    assert m.play("p1 pass") == [UpcardPassed(1)]
    assert m.to_act == 0 and m.advice_options() == []


@pytest.mark.rule("THREE-7")
def test_advice_while_the_box_is_to_act_is_rejected() -> None:
    m = Match.scripted(THREE, cuts=G4_DRAW, decks=[knock_by("dealer").deck])
    m.play("p1 pass")  # now the box is to act
    assert m.to_act == 0 and m.advice_options() == []
    rejected(m, "p2 advise p0 take", "THREE-7")
    rejected(m, "p2 advise p1 take", "THREE-7")
    rejected(m, "p2 advise p0 pass", "THREE-7")


@pytest.mark.rule("THREE-7", "TURN-1", "TURN-3", "KNOCK-2")
def test_advice_must_be_an_action_legal_for_the_captain() -> None:
    m = Match.scripted(THREE, cuts=G4_DRAW, decks=[knock_by("non_dealer").deck])
    rejected(m, "p2 advise p1 draw", "TURN-1")  # not an action of the upcard offer
    rejected(m, "p2 advise p1 knock Kd", "TURN-1")
    rejected(m, "p2 advise p0 pass", "THREE-7")  # advice is for the captain, not the box
    rejected(m, "p2 advise p2 pass", "THREE-7")  # nor for the sitter himself
    rejected(m, "p1 advise p1 pass", "THREE-7")  # only the sitter advises
    rejected(m, "p0 advise p1 take", "THREE-7")
    m.play("p1 take")  # the captain holds As-2s-3s 4h-5h-6h 7c-8c-9c Kd Qd
    rejected(m, "p2 advise p1 discard 5c", "TURN-3")  # a card he does not hold
    rejected(m, "p2 advise p1 discard Qd", "TURN-4")  # the upcard he just took
    rejected(m, "p2 advise p1 knock 9c", "KNOCK-2")  # 9c out leaves 7c 8c Kd Qd: too much deadwood
    assert m.play("p2 advise p1 knock Kd") == [Advised(2, parse_action("p1 knock Kd"))]
    assert m.play("p2 advise p1 discard Kd") == [Advised(2, parse_action("p1 discard Kd"))]
    assert Advise(2, m.legal_actions()[0]) in m.advice_options()
    assert len(m.advice_options()) == len(m.legal_actions())


@pytest.mark.rule("THREE-7")
def test_the_sitter_advises_on_the_captains_answer_to_a_knock() -> None:
    m = Match.scripted(THREE, cuts=G4_DRAW, decks=[knock_by("dealer").deck])
    m.play("p1 pass", "p0 take", "p0 knock Kd")
    assert m.hand is not None
    m.apply(m.hand.auto_spread())
    assert m.to_act == 1 and m.hand.phase is Phase.LAYOFF
    options = m.advice_options()
    assert options and all(isinstance(a.suggestion, LayOff) and a.suggestion.seat == 1 for a in options)
    events = m.apply(options[-1])
    assert events == [Advised(2, options[-1].suggestion)]
    assert m.hand.phase is Phase.LAYOFF and m.results == []


@pytest.mark.rule("THREE-7")
def test_there_is_no_sitter_to_advise_in_a_two_player_game() -> None:
    m = Match.scripted(RuleSet(), cuts=[cards("Kc 2d")], decks=[knock_by("dealer").deck])
    assert m.advice_options() == []
    before = list(m.events)
    for text in ("p0 advise p1 pass", "p1 advise p1 pass"):
        with pytest.raises(IllegalAction, match=r"^THREE-7: "):
            m.play(text)
    assert m.events == before


# --- THREE-8: what the sitter and the box see -------------------------------------------------------------


@pytest.mark.rule("THREE-8", "VIS-1")
@pytest.mark.parametrize("sees", [True, False])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_what_the_sitter_and_the_box_see_at_every_step(sees: bool, seed: int) -> None:
    rules = RuleSet.preset("three_handed", sitter_sees_captain_hand=sees, target=150)
    m = Match.new(rules, seed=seed)
    bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
    steps = 0
    while (seat := m.to_act) is not None:
        hand = m.hand
        assert hand is not None
        box, captain, sitter = m.dealer, m.captain, m.sitter
        assert sitter is not None
        box_view, captain_view = m.observation(box), m.observation(captain)
        sitter_view = m.observation(sitter)
        assert (box_view.role, captain_view.role, sitter_view.role) == ("box", "captain", "sitter")
        assert box_view.hand == m.seat_observation(box) and captain_view.hand == m.seat_observation(captain)
        assert box_view.hand == dataclasses.replace(hand.observation(box), scores=m.scores)
        s, c = sitter_view.hand, captain_view.hand
        assert s is not None and c is not None
        if sees:
            assert s == c  # the sitter sees exactly what the captain sees
        else:  # only the public part: no cards of the captain's, but everything on the table
            assert s.hand == () and s.taken is None and s.knock_discard is None
            public = [f.name for f in dataclasses.fields(c) if f.name not in ("hand", "taken", "knock_discard")]
            assert {f: getattr(s, f) for f in public} == {f: getattr(c, f) for f in public}
            assert not visible_cards(s) & private_cards(hand, captain)
        # the box never sees the captain's cards (beyond those taken from the pile), nor the sitter's view
        b = box_view.hand
        assert b is not None and b.seat == box
        assert not visible_cards(b) & private_cards(hand, captain)
        face_down = {hand.knock_card} if hand.knocker == captain and hand.knock_card is not None else set()
        assert set(b.opponent_known) <= (set(hand.cards_of(captain)) | face_down) - private_cards(hand, captain)
        # and the sitter's view never shows the box's private cards
        assert not visible_cards(s) & private_cards(hand, box)
        # the game-level parts are public
        assert box_view.scores == captain_view.scores == sitter_view.scores == m.scores
        assert box_view.sitter == sitter and sitter_view.to_act == seat
        m.apply(bots[seat].choose(hand.observation(seat), m.legal_actions()))
        steps += 1
    assert m.is_over and steps > 50


@pytest.mark.rule("THREE-8")
def test_the_box_sees_the_same_whether_or_not_the_sitter_sees_the_captains_hand() -> None:
    s = knock_by("dealer")
    views = []
    for sees in (True, False):
        m = Match.scripted(THREE.replace(sitter_sees_captain_hand=sees), cuts=G4_DRAW, decks=[s.deck])
        m.play("p1 pass", "p0 take")
        views.append((m.observation(0), m.observation(1), m.observation(2)))
    (box_a, cap_a, sit_a), (box_b, cap_b, sit_b) = views
    assert box_a.hand and box_b.hand and cap_a.hand and cap_b.hand
    # the same views but for the rule set each carries
    assert box_b == dataclasses.replace(box_a, hand=dataclasses.replace(box_a.hand, rules=box_b.hand.rules))
    assert cap_b == dataclasses.replace(cap_a, hand=dataclasses.replace(cap_a.hand, rules=cap_b.hand.rules))
    assert sit_a.hand is not None and sit_b.hand is not None
    assert sit_a.hand.hand == tuple(sorted(cards(JUNK)))  # the captain's cards
    assert sit_b.hand.hand == ()
    assert box_a.hand is not None and not set(box_a.hand.hand) & set(sit_a.hand.hand)
