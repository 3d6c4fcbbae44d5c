"""What a seat checks of its view (LOG-16): forged views, their digest chain recomputed so that only the forged
record is wrong, are refused at that record under the rule it breaks; every honest view passes."""

from __future__ import annotations

from typing import Any

import pytest

from engine.actions import Action, DeclineWall, Discard, DrawStock, PassUpcard, TakeUpcard
from engine.cards import DECK
from engine.match import Match
from engine.rules import RuleSet
from replay.codec import BIG_GIN, DECLINE, DISCARD_BASE, PASS, PICKUP, T_ADVICE, T_GAME_OVER, T_HAND, T_REVEAL
from replay.grammar import Kind, classify
from replay.log import LogTruncated
from replay.public import ViewReplayer
from tests.replay.forge import honest, played, refused, reseal, view, where

STANDARD = RuleSet()
THREE = RuleSet.preset("three_handed")


def passing(m: Match, legal: list[Action]) -> Action | None:
    """Both seats pass the upcard."""
    return next((a for a in legal if isinstance(a, PassUpcard)), None)


def taking(m: Match, legal: list[Action]) -> Action | None:
    """The non-dealer takes the upcard."""
    return next((a for a in legal if isinstance(a, TakeUpcard)), None)


def never_knocking(m: Match, legal: list[Action]) -> Action | None:
    """Nobody takes a discard or knocks: every hand runs to the stock's end (and, at the wall, declines)."""
    for kind in (PassUpcard, DrawStock, DeclineWall):
        found = next((a for a in legal if isinstance(a, kind)), None)
        if found is not None:
            return found
    return [a for a in legal if isinstance(a, Discard)][-1]


def hand_records(body: list[Any], number: int) -> range:
    """The positions of hand ``number``'s records, from its hand record to its result."""
    start = next(i for i, r in enumerate(body) if classify(r, view=True) is Kind.HAND and r[1] == number)
    return range(start, where(body, Kind.RESULT, start) + 1)


# --- play, on public facts ------------------------------------------------------------------------------------


@pytest.mark.rule("LOG-16", "OFFER-4")
@pytest.mark.parametrize("seat", [0, 1])
def test_a_pickup_after_both_passed_the_upcard_is_refused(seat: int) -> None:
    header, body = view(played(STANDARD, 3, passing, hands=1), seat)
    honest(header, body)
    first_draw = where(body, Kind.PASS, where(body, Kind.PASS, where(body, Kind.DEAL)) + 1) + 1
    assert classify(body[first_draw], view=True) in (Kind.DRAW, Kind.SEEN_DRAW)
    body[first_draw] = PICKUP
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == ("OFFER-4", first_draw + 1)


@pytest.mark.rule("LOG-16", "TURN-1", "OFFER-1", "OFFER-2")
@pytest.mark.parametrize("forged", ["a decline after a draw", "a third pass", "a pass after a draw"])
def test_an_action_of_another_phase_is_refused(forged: str) -> None:
    header, body = view(played(STANDARD, 3, passing, hands=1), 0)
    first_draw = where(body, Kind.PASS, where(body, Kind.PASS, where(body, Kind.DEAL)) + 1) + 1
    at, value = {
        "a decline after a draw": (first_draw + 1, DECLINE),  # the draw's discard
        "a third pass": (first_draw, PASS),  # the upcard is offered to each seat once (OFFER-1, OFFER-2)
        "a pass after a draw": (first_draw + 1, PASS),
    }[forged]
    body[at] = value
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == ("TURN-1", at + 1)


@pytest.mark.rule("LOG-16", "TURN-4")
@pytest.mark.parametrize("seat", [0, 1])
def test_discarding_the_card_just_taken_is_refused(seat: int) -> None:
    header, body = view(played(STANDARD, 4, taking, hands=1), seat)
    take = where(body, Kind.TAKE)
    upcard = body[where(body, Kind.DEAL)][1][20]
    body[take + 1] = DISCARD_BASE + upcard
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == ("TURN-4", take + 2)


@pytest.mark.rule("LOG-16", "DEAD-2")
def test_the_last_discard_taken_must_be_followed_by_a_knock() -> None:
    rules = RuleSet(wall_pickup_to_knock=True)
    header, body = view(played(rules, 5, never_knocking, hands=1), 0)
    decline = where(body, Kind.DECLINE)
    before = ViewReplayer(reseal(header, body[:decline]))
    with pytest.raises(LogTruncated):
        before.run()
    unseen = next(c for c in DECK if c not in before.state.seen)  # a card the taker may hold, unseen by the viewer
    body[decline : decline + 2] = [PICKUP, DISCARD_BASE + unseen.index]
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == ("DEAD-2", decline + 2)


@pytest.mark.rule("LOG-16", "KNOCK-6")
def test_big_gin_where_it_is_not_played_is_refused() -> None:
    header, body = view(played(STANDARD, 6, hands=1), 1)
    discard = where(body, Kind.DISCARD)
    body[discard] = BIG_GIN
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == ("KNOCK-6", discard + 1)


@pytest.mark.rule("LOG-16", "THREE-7")
@pytest.mark.parametrize("forged", ["in a two-player game", "while the box acts", "a pass to discard"])
def test_advice_only_from_the_sitter_to_the_captain_of_what_he_may_do(forged: str) -> None:
    if forged == "in a two-player game":
        header, body = view(played(STANDARD, 7, hands=1), 0)
        at = where(body, Kind.DEAL) + 1
        body.insert(at, [T_ADVICE, 1, PASS])
    else:
        m = played(THREE, 7, passing, hands=1)  # the captain passes, the box passes, the captain draws
        header, body = view(m, m.results[0].seats[0] ^ m.results[0].seats[1] ^ 3)  # the sitter hears his advice
        deal = where(body, Kind.DEAL)
        sitter = body[deal - 1][5]
        at = deal + 2 if forged == "while the box acts" else deal + 4  # the box's pass; the captain's discard
        body.insert(at, [T_ADVICE, sitter, PASS])
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == ("THREE-7", at + 1)


@pytest.mark.rule("LOG-16", "LOG-4", "LOG-10", "LOG-13")
@pytest.mark.parametrize("forged", ["no checkpoint", "a salt without commitments", "a hand without its salt"])
def test_every_result_is_sealed_and_salted_as_the_header_says(forged: str) -> None:
    key = b"secret" if forged == "a hand without its salt" else None
    header, body = view(played(STANDARD, 8, hands=2), 1, commit_key=key)
    result = where(body, Kind.RESULT)
    if forged == "no checkpoint":
        del body[result + 1]
        rule, at = "LOG-4", result + 1  # a record out of place (LOG-13's precedence)
    elif forged == "a salt without commitments":
        body.insert(result + 1, [T_REVEAL, b"salt"])
        rule, at = "LOG-10", result + 1
    else:
        assert classify(body[result + 1], view=True) is Kind.REVEAL
        del body[result + 1]
        rule, at = "LOG-10", result + 1
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == (rule, at + 1)


# --- roles ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("LOG-16", "MATCH-2", "MATCH-4", "MATCH-5", "LOG-4")
@pytest.mark.parametrize("forged", ["first dealer", "dealer after a win", "dealer after a dead hand", "number"])
def test_the_roles_of_every_hand_are_those_the_draw_and_the_results_give(forged: str) -> None:
    policy = never_knocking if forged == "dealer after a dead hand" else None
    m = played(STANDARD, 9, policy, hands=2)
    assert (m.results[0].winner is None) == (forged == "dealer after a dead hand")
    header, body = view(m, 0)
    number = 1 if forged == "first dealer" else 2
    at = hand_records(body, number)[0]
    rec = list(body[at])
    if forged == "number":
        rec[1] = 3
    else:
        rec[2] = rec[4] if rec[2] == rec[3] else rec[3]  # the other seat deals
    body[at] = rec
    verdict = refused(header, body)
    rule = {"first dealer": "MATCH-2", "dealer after a win": "MATCH-4", "dealer after a dead hand": "MATCH-5",
            "number": "LOG-4"}[forged]  # fmt: skip
    assert (verdict.rule, verdict.record) == (rule, at + 1)


@pytest.mark.rule("LOG-16", "THREE-4")
def test_the_three_handed_roles_rotate_as_the_winner_says() -> None:
    m = played(THREE, 10, hands=2)
    assert m.results[0].winner is not None
    header, body = view(m, 0)
    at = hand_records(body, 2)[0]
    _, number, dealer, a, b, sitter = body[at]
    body[at] = [T_HAND, number, b if dealer == a else a, a, b, sitter]  # the captain deals instead of the box
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == ("THREE-4", at + 1)


# --- the showdown ------------------------------------------------------------------------------------------------


def knocked_game(seat_is: str) -> tuple[Any, list[Any], int]:
    """A game whose first hand is knocked without gin, seen by the knocker or the defender, and the position of
    its spread."""
    for seed in range(200):
        m = played(STANDARD, seed, hands=1)
        r = m.results[0]
        if r.knocker is not None and r.kind.value in ("knock", "undercut") and r.deadwood_of(r.knocker) > 0:
            seat = r.knocker if seat_is == "knocker" else r.defender
            assert seat is not None
            header, body = view(m, seat)
            return header, body, where(body, Kind.SPREAD)
    raise AssertionError("no knocked hand")


@pytest.mark.rule("LOG-16", "MELD-1", "MELD-3", "LAY-1", "LOG-2")
@pytest.mark.parametrize("forged", ["no meld", "overlapping melds", "not canonical", "onto no meld", "held card"])
def test_a_showdown_of_melds_that_cannot_be_is_refused(forged: str) -> None:
    header, body, spread = knocked_game("defender")
    rec = list(body[spread])
    layoff = list(body[spread + 1])
    at = spread
    own = {c for c in body[where(body, Kind.DEAL)][1][:20] if c != 255}
    if forged == "no meld":
        rec[1] = bytes([0, 14, 28])  # Ac 2d 3h: neither a set nor a run
        rule = "MELD-1"
    elif forged == "overlapping melds":
        rec.insert(2, rec[1])  # a meld twice, in canonical order
        rule = "MELD-3"
    elif forged == "not canonical":
        rec = [rec[0], *reversed(rec[1:])] if len(rec) > 2 else [rec[0], bytes(reversed(rec[1]))]
        rule = "LOG-2"
    elif forged == "onto no meld":
        used = {c for m in layoff[1] for c in m} | {lo[0] for lo in layoff[2]}
        card = min(own - used)  # a card the defender holds, left over: laid off onto a set the knocker did not spread
        layoff[2] = [[card, bytes(card % 13 + 13 * s for s in range(4) if s != card // 13)]]
        body[spread + 1] = layoff
        rule, at = "LAY-1", spread + 1
    else:  # the knocker spreads a set of one of the defender's own cards
        card = min(own)
        rec = [rec[0], bytes(sorted([card, *[card % 13 + 13 * s for s in range(4) if s != card // 13][:2]]))]
        rule = "LOG-16"
    if at == spread:
        body[spread] = rec
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == (rule, at + 1)


# --- results and scores ---------------------------------------------------------------------------------------


@pytest.mark.rule("LOG-16", "SCORE-1", "SCORE-2", "SCORE-3", "KNOCK-4", "LAY-6", "OKLA-4", "MATCH-1")
@pytest.mark.parametrize("forged", ["points", "scores", "knocker's deadwood", "defender's deadwood", "multiplier"])
@pytest.mark.parametrize("seat_is", ["knocker", "defender"])
def test_a_result_that_does_not_add_up_is_refused(forged: str, seat_is: str) -> None:
    header, body, spread = knocked_game(seat_is)
    at = where(body, Kind.RESULT, spread)
    rec = list(body[at])
    knocker = rec[5]
    knocker_at = 6 if knocker == body[hand_records(body, 1)[0]][3] else 7
    rule: str | None
    if forged == "points":
        rec[4] += 1
        rec[10] = [s + (1 if i == rec[3] else 0) for i, s in enumerate(rec[10])]
        rule = {0: "SCORE-1", 2: "SCORE-2", 3: "SCORE-3"}[rec[2]]
    elif forged == "scores":
        rec[10] = [s + 1 for s in rec[10]]
        rule = "MATCH-1"
    elif forged == "multiplier":
        rec[8] = 2
        rule = "OKLA-4"
    else:
        field = knocker_at if forged == "knocker's deadwood" else 13 - knocker_at
        rec[field] += 1
        exact = (forged == "knocker's deadwood") == (seat_is == "knocker")
        rule = ("KNOCK-4" if forged == "knocker's deadwood" else "LAY-6") if exact else None
    body[at] = rec
    verdict = refused(header, body)
    assert verdict.record == at + 1
    if rule is None:  # a deadwood the seat does not see exactly is within its bounds: the points no longer add up
        assert verdict.rule.startswith("SCORE-") or verdict.rule == "KNOCK-2", verdict
    else:
        assert verdict.rule == rule, verdict


@pytest.mark.rule("LOG-16", "DEAD-1", "LOG-2", "LOG-4")
@pytest.mark.parametrize("forged", ["a winner", "the reason", "an unknown kind", "one score", "another hand"])
def test_a_dead_hands_result_is_the_dead_result(forged: str) -> None:
    header, body = view(played(STANDARD, 11, never_knocking, hands=1), 0)
    at = where(body, Kind.RESULT)
    rec = list(body[at])
    if forged == "a winner":
        rec[3], rec[4], rec[10] = 0, 5, [5, 0]
        rule = "DEAD-1"
    elif forged == "the reason":
        rec[9] = 2
        rule = "DEAD-1"
    elif forged == "an unknown kind":
        rec[2] = 9
        rule = "LOG-2"
    elif forged == "one score":
        rec[10] = [0]
        rule = "LOG-2"
    else:
        rec[1] = 2
        rule = "LOG-4"
    body[at] = rec
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == (rule, at + 1)


@pytest.mark.rule("LOG-16", "MATCH-1", "MATCH-6", "BONUS-5")
@pytest.mark.parametrize("forged", ["an early end", "a hand after the end", "the winner", "the totals"])
def test_the_game_ends_when_the_standings_say_as_they_say(forged: str) -> None:
    m = played(STANDARD, 12)
    assert len(m.results) > 1
    header, body = view(m, 1)
    over = where(body, Kind.GAME_OVER)
    rec = list(body[over])
    at = over
    if forged == "an early end":
        at = where(body, Kind.RESULT) + 2  # after the first hand's checkpoint
        body.insert(at, [T_GAME_OVER, rec[1], rec[2]])
        rule = "MATCH-1"
    elif forged == "a hand after the end":
        body.insert(over, [T_HAND, m.number + 1, m.dealer, *m.seats, None])
        rule = "MATCH-1"
    elif forged == "the winner":
        body[over] = [T_GAME_OVER, 1 - rec[1], rec[2]]
        rule = "MATCH-6"
    else:
        body[over] = [T_GAME_OVER, rec[1], [t + 1 for t in rec[2]]]
        rule = "BONUS-5"
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == (rule, at + 1)


# --- honest views -------------------------------------------------------------------------------------------


OPTIONS: list[tuple[str, dict[str, Any]]] = [
    ("standard", {}),
    ("standard", {"spades_double": True, "big_gin_bonus": 31, "kisses": True, "box_bonus": 25}),
    ("standard", {"hollywood": True, "shutout": "double_total", "game_bonus": 100}),
    ("standard", {"immediate_boxes": True, "box_bonus": 20, "undercut_on_tie": False, "next_dealer": "loser"}),
    ("standard", {"wall_pickup_to_knock": True, "max_consecutive_discard_pickups": 2, "next_dealer": "alternate"}),
    ("oklahoma", {"oklahoma_ace": "gin_only", "may_discard_taken_card": True}),
    ("three_handed", {}),
    ("three_handed", {"three_handed_dead_hand": "box_wins", "sitter_sees_captain_hand": False}),
]


@pytest.mark.rule("LOG-16", "LOG-12")
@pytest.mark.parametrize(("preset", "options"), OPTIONS, ids=[f"{p}-{'-'.join(o) or 'defaults'}" for p, o in OPTIONS])
def test_every_seats_view_of_an_honest_game_passes_every_check(preset: str, options: dict[str, Any]) -> None:
    from knock.bots import RandomBot

    rules = RuleSet.preset(preset, **options)
    for seed in range(3):
        bot = RandomBot(seed)

        def randomly(m: Match, legal: list[Action], bot: RandomBot = bot) -> Action | None:
            """Seat 1 plays at random (every kind of action comes up), the others greedily."""
            seat = m.to_act
            assert seat is not None and m.hand is not None
            return bot.choose(m.hand.observation(seat), legal) if seat == 1 else None

        m = played(rules, seed, randomly)
        for seat in range(rules.players):
            header, body = view(m, seat, commit_key=b"k" if seed == 1 else None)
            assert honest(header, body).kind == "pass"


@pytest.mark.rule("LOG-16", "LAY-2", "SCORE-1")
def test_after_gin_the_defenders_deadwood_is_his_minimum() -> None:
    m = next(g for g in (played(STANDARD, seed, hands=1) for seed in range(200)) if g.results[0].kind.value == "gin")
    r = m.results[0]
    assert r.defender is not None
    header, body = view(m, r.defender)
    at = where(body, Kind.RESULT)
    rec = list(body[at])
    rec[6 if r.defender == r.seats[0] else 7] += 1  # what he would have left had he melded worse
    rec[4] += 1
    rec[10] = [s + (1 if i == r.winner else 0) for i, s in enumerate(rec[10])]
    body[at] = rec
    verdict = refused(header, body)
    assert (verdict.rule, verdict.record) == ("LAY-2", at + 1)
