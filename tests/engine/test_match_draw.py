"""The draw for the first dealer and the three-handed roles, and where a seeded game's chance comes from.

Spec sections 13 (MATCH-2, MATCH-3, MATCH-7) and 14 (THREE-2).
"""

from __future__ import annotations

import random

import pytest

from engine.cards import DECK, Card, cards
from engine.errors import InvalidDeal
from engine.events import CutDrawn, HandStarted
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import GreedyBot, play_match
from tests.engine.match_support import deck, played_hands

STANDARD = RuleSet.preset("standard")
THREE = RuleSet.preset("three_handed")
SUIT_ORDER = {"cut_tiebreak": "suit_order"}
A_DECK = deck("As 2s 3s 4h 5h 6h 7c 8c 9c Kd", "Kc Kh Ks Qc Qh Qs Jc Jh Js 2d", "Tc")


def fisher_yates(rng: random.Random) -> list[Card]:
    """DEAL-2's shuffle, written out again: for i from 51 down to 1 swap i with floor(random() * (i + 1))."""
    order = list(DECK)
    for i in range(51, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    return order


def draw(rules: RuleSet, *rounds: str) -> Match:
    """A game whose draw rounds are the given cards (one round per string, seats in order)."""
    return Match.scripted(rules, cuts=[cards(r) for r in rounds], decks=[A_DECK])


def cut_rounds(match: Match) -> list[tuple[tuple[int, ...], str]]:
    return [(e.seats, " ".join(map(str, e.cards))) for e in match.events if isinstance(e, CutDrawn)]


# --- MATCH-2: the higher card deals; ace low ----------------------------------------------------------


@pytest.mark.rule("MATCH-2", "CARD-2")
@pytest.mark.parametrize(
    ("drawn", "dealer"),
    [
        ("Kc 2d", 0),
        ("2d Kc", 1),
        ("Qh Kh", 1),
        ("Ac 2d", 1),  # the ace is the lowest card of the draw
        ("Kc Ad", 0),
        ("Ts 9s", 0),
    ],
)
def test_two_players_the_higher_card_deals(drawn: str, dealer: int) -> None:
    m = draw(STANDARD, drawn)
    assert m.dealer == dealer
    assert m.roles() == {"dealer": dealer, "non_dealer": 1 - dealer}
    assert m.to_act == 1 - dealer  # OFFER-1: the non-dealer has the first option
    assert cut_rounds(m) == [((0, 1), drawn)]
    started = [e for e in m.events if isinstance(e, HandStarted)]
    assert started == [HandStarted(1, dealer, (0, 1), None)]
    assert m.number == 1 and m.sitter is None


@pytest.mark.rule("MATCH-2", "THREE-2", "CARD-2")
@pytest.mark.parametrize(
    ("drawn", "box", "captain", "sitter"),
    [
        ("Kc 7d 3h", 0, 1, 2),  # the brief's G4: K in the box, 7 captain, 3 sits out
        ("3h Kc 7d", 1, 2, 0),
        ("7d 3h Kc", 2, 0, 1),
        ("Ah 2c Kd", 2, 1, 0),  # ace low: the ace sits out
        ("7d Ac 8s", 2, 0, 1),
        ("Jc Qd Ts", 1, 0, 2),
    ],
)
def test_three_players_highest_is_box_middle_captain_lowest_sits(
    drawn: str, box: int, captain: int, sitter: int
) -> None:
    m = draw(THREE, drawn)
    assert m.roles() == {"box": box, "captain": captain, "sitter": sitter}
    assert (m.dealer, m.captain, m.sitter) == (box, captain, sitter)
    assert m.to_act == captain
    assert cut_rounds(m) == [((0, 1, 2), drawn)]
    assert [e for e in m.events if isinstance(e, HandStarted)] == [
        HandStarted(1, box, (min(box, captain), max(box, captain)), sitter)
    ]


# --- MATCH-3: ties redraw among the tied seats only, or go by suit ----------------------------------------


@pytest.mark.rule("MATCH-3", "MATCH-2")
@pytest.mark.parametrize(
    ("rounds", "dealer", "expected_rounds"),
    [
        (["7c 7d", "3h 9s"], 1, [(0, 1), (0, 1)]),
        (["7c 7d", "9s 3h"], 0, [(0, 1), (0, 1)]),
        (["Ac Ad", "Jh Js", "As 2c"], 1, [(0, 1), (0, 1), (0, 1)]),  # a redraw may tie again
    ],
)
def test_two_players_redraw_a_tie(rounds: list[str], dealer: int, expected_rounds: list[tuple[int, ...]]) -> None:
    m = draw(STANDARD, *rounds)
    assert m.dealer == dealer
    assert cut_rounds(m) == list(zip(expected_rounds, rounds, strict=True))


@pytest.mark.rule("MATCH-3", "THREE-2")
@pytest.mark.parametrize(
    ("rounds", "roles", "redraw_seats"),
    [
        # the two highest tie: they redraw for box and captain; the third sits out without drawing again
        (["Kc Kd 3h", "5s 9c"], (1, 0, 2), [(0, 1)]),
        (["Kc Kd 3h", "9c 5s"], (0, 1, 2), [(0, 1)]),
        # the two lowest tie: the box is settled, the redraw decides captain and sitter
        (["Kc 4d 4h", "Js 2c"], (0, 1, 2), [(1, 2)]),
        (["Kc 4d 4h", "2c Js"], (0, 2, 1), [(1, 2)]),
        (["4d Kc 4h", "2c Js"], (1, 2, 0), [(0, 2)]),
        # all three tie; then two of them tie again and redraw among themselves
        (["5c 5d 5h", "2c 9d 9h", "Tc 3s"], (1, 2, 0), [(0, 1, 2), (1, 2)]),
        (["5c 5d 5h", "9d 9h 2c", "3s Tc"], (1, 0, 2), [(0, 1, 2), (0, 1)]),
    ],
)
def test_three_players_redraw_among_the_tied_seats_only(
    rounds: list[str], roles: tuple[int, int, int], redraw_seats: list[tuple[int, ...]]
) -> None:
    m = draw(THREE, *rounds)
    assert (m.dealer, m.captain, m.sitter) == roles
    assert cut_rounds(m) == list(zip([(0, 1, 2), *redraw_seats], rounds, strict=True))


@pytest.mark.rule("MATCH-3")
def test_a_redraw_round_deals_cards_to_the_tied_seats_only() -> None:
    # A second round of three cards for a two-seat tie is refused: only the two tied seats draw again.
    with pytest.raises(InvalidDeal, match="MATCH-2") as info:
        draw(THREE, "Kc Kd 3h", "5s 9c 2d")
    assert info.value.rule == "MATCH-2"
    # And a tie with no second round to draw from is refused too (redraw is the default), under this rule.
    with pytest.raises(InvalidDeal, match="MATCH-3: the draw is tied: the 2 tied seats draw again"):
        draw(STANDARD, "7c 7d")


@pytest.mark.rule("MATCH-2")
@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        (["Kd Kd"], "a card cannot be drawn twice (Kd Kd)"),
        (["Kd"], "one card from each of the 2 seats drawing, got 1: Kd"),
        ([], "one card from each of the 2 seats drawing, got 0: none"),
    ],
)
def test_a_refused_draw_says_what_is_wrong_with_it(rounds: list[str], message: str) -> None:
    with pytest.raises(InvalidDeal, match="MATCH-2") as info:
        draw(STANDARD, *rounds)
    assert message in info.value.reason


@pytest.mark.rule("MATCH-3")
@pytest.mark.parametrize(
    ("drawn", "dealer"),
    [("Kc Kd", 1), ("Kd Kc", 0), ("7s 7h", 0), ("7h 7s", 1), ("2d 2h", 1), ("Ac Kc", 1)],
)
def test_two_players_suit_order_settles_a_tie(drawn: str, dealer: int) -> None:
    m = draw(STANDARD.replace(**SUIT_ORDER), drawn)  # one round only: a redraw would find no cards
    assert m.dealer == dealer
    assert len(cut_rounds(m)) == 1


@pytest.mark.rule("MATCH-3", "THREE-2")
@pytest.mark.parametrize(
    ("drawn", "roles"),
    [
        ("7h 7s 7c", (1, 0, 2)),  # spades, hearts, clubs
        ("7c 7d 7h", (2, 1, 0)),  # hearts, diamonds, clubs
        ("9d 9c Ks", (2, 0, 1)),  # the king is highest whatever its suit; diamonds beat clubs
        ("2s Kc 9d", (1, 2, 0)),  # suits only break ties: the rank comes first
        ("Qs Qd 3c", (0, 1, 2)),
    ],
)
def test_three_players_suit_order_settles_a_tie(drawn: str, roles: tuple[int, int, int]) -> None:
    m = draw(THREE.replace(**SUIT_ORDER), drawn)
    assert (m.dealer, m.captain, m.sitter) == roles
    assert len(cut_rounds(m)) == 1


# --- MATCH-7: a seeded game's randomness ----------------------------------------------------------------


def first_tie_seed(players: int) -> int:
    """The first seed whose draw deck starts with a tie among the first ``players`` cards."""
    for seed in range(10_000):
        top = fisher_yates(random.Random(seed))[:players]
        if len({c.rank for c in top}) < players:
            return seed
    raise AssertionError("no seed with a tie")


@pytest.mark.rule("MATCH-7", "MATCH-2", "DEAL-2", "DEAL-3")
@pytest.mark.parametrize("rules", [STANDARD, RuleSet.preset("oklahoma"), THREE], ids=lambda r: r.name)
@pytest.mark.parametrize("seed", [0, 1, 7, 2024])
def test_a_seeded_game_takes_the_draw_and_every_deal_from_one_generator(rules: RuleSet, seed: int) -> None:
    m = play_match(Match.new(rules, seed=seed), [GreedyBot()] * rules.players)
    rng = random.Random(seed)
    draw_deck = fisher_yates(rng)  # first: one deck for the draw, whose rounds take its cards in order
    drawn = [c for e in m.events if isinstance(e, CutDrawn) for c in e.cards]
    assert drawn == draw_deck[: len(drawn)]
    hands = played_hands(m.events)
    assert len(hands) == m.number >= 1
    for h in hands:  # then one shuffle per deal, in order, dealt by DEAL-3
        order = fisher_yates(rng)
        d = h.dealt
        assert d.dealer == h.started.dealer and d.seats == h.started.seats
        non_dealer, dealer = d.seats.index(h.captain), d.seats.index(h.box)
        assert d.hands[non_dealer] == tuple(order[0:20:2])
        assert d.hands[dealer] == tuple(order[1:20:2])
        assert d.upcard == order[20]
        assert d.stock == tuple(order[21:])


@pytest.mark.rule("MATCH-7", "MATCH-3")
@pytest.mark.parametrize("rules", [STANDARD, THREE], ids=lambda r: r.name)
def test_a_seeded_redraw_takes_the_next_cards_of_the_same_draw_deck(rules: RuleSet) -> None:
    seed = first_tie_seed(rules.players)
    draw_deck = fisher_yates(random.Random(seed))
    m = Match.new(rules, seed=seed)
    rounds = [e for e in m.events if isinstance(e, CutDrawn)]
    assert len(rounds) >= 2
    assert rounds[0].cards == tuple(draw_deck[: rules.players])
    assert rounds[1].cards == tuple(draw_deck[rules.players : rules.players + len(rounds[1].seats)])
    assert len(rounds[1].seats) < rules.players or rules.players == 2
    # under suit_order the same seed needs a single round
    m2 = Match.new(rules.replace(**SUIT_ORDER), seed=seed)
    assert len([e for e in m2.events if isinstance(e, CutDrawn)]) == 1


@pytest.mark.rule("MATCH-7")
@pytest.mark.parametrize("rules", [STANDARD, THREE], ids=lambda r: r.name)
def test_the_same_seed_gives_the_same_game(rules: RuleSet) -> None:
    logs = [play_match(Match.new(rules, seed=99), [GreedyBot()] * rules.players).events for _ in range(2)]
    assert logs[0] == logs[1]
    other = play_match(Match.new(rules, seed=100), [GreedyBot()] * rules.players).events
    assert other != logs[0]


@pytest.mark.rule("MATCH-3", "MATCH-7")
def test_a_prearranged_redraw_cannot_reuse_a_card_already_drawn() -> None:
    """Redraws come from the same deck (MATCH-3), so prearranged rounds hold no card twice (MATCH-7)."""
    with pytest.raises(InvalidDeal, match="MATCH-7") as info:
        Match.scripted(RuleSet(), cuts=[cards("9c 9d"), cards("9c 4h")], decks=[DECK])
    assert info.value.rule == "MATCH-7" and "9c" in str(info.value)
