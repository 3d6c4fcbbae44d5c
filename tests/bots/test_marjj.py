"""The ``marjj`` benchmark opponent (``tools/opponents/marjj.py``, a port of the Java MARJJ v5): whole games with
legal actions only, one game per seed, and its decisions pinned to the Java's methods on hand-built positions."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine.actions import Action, Discard, DrawStock, Knock, PassUpcard, TakeUpcard
from engine.cards import DECK, Card, cards, to_mask
from engine.match import Match
from engine.rules import RuleSet
from engine.visibility import Observation
from knock.bots import EAAI_RULES, Bot, RandomBot, SimpleBot, play_match
from knock.bots.simple import would_meld
from tests.helpers import deal

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))  # tools/ is not a package
from opponents.marjj import (
    Knowledge,
    MarjjBot,
    best_meld,
    candidates,
    future_ev,
    java_best_meld_sets,
    opponent_ev,
    wants_to_knock,
)


def m(text: str) -> int:
    return to_mask(cards(text))


class Checked:
    """A bot that asserts every choice is one of the legal actions, and records them."""

    def __init__(self, bot: Bot) -> None:
        self.bot, self.name, self.moves = bot, bot.name, list[Action]()

    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(obs, legal)
        assert action in legal, (obs, action)
        self.moves.append(action)
        return action


@pytest.mark.rule("VIS-2")
@pytest.mark.parametrize("rules", [EAAI_RULES, RuleSet.preset("standard")], ids=["eaai", "standard"])
@pytest.mark.parametrize("opponent", ["simple", "random"])
def test_marjj_plays_whole_games_with_legal_actions_only(rules: RuleSet, opponent: str) -> None:
    for seed in (3, 4):
        other: Bot = SimpleBot(seed) if opponent == "simple" else RandomBot(seed)
        seats = [Checked(MarjjBot(seed)), Checked(other)]
        game = play_match(Match.new(rules, seed=seed), seats[:: 1 if seed % 2 else -1])
        assert game.is_over and game.winner in (0, 1)
        assert any(isinstance(a, Discard | Knock) for a in seats[0].moves)


def test_the_same_seed_plays_the_same_game() -> None:
    def events(seed: int) -> list[object]:
        return list(play_match(Match.new(EAAI_RULES, seed=21), [MarjjBot(seed), SimpleBot(1)]).events)

    assert events(5) == events(5)


@pytest.mark.rule("MELD-4", "MELD-5")
def test_the_discard_scores_are_the_javas_own_scenarios() -> None:
    # MARJJ_v5.main, "Scenario 2 from page 2 of review" and "Scenario 5 from bottom of page 3": getUnmeldedCards,
    # then getFutureDeadwoodImprovement and getOpponentDeadwoodImprovement with turns = 0; the numbers are the ones
    # the Java prints (its Double.toString round-trips, so equality is exact).
    def scores(hand: str, seen: str = "", picked: str = "") -> dict[str, tuple[int, float, float]]:
        mask = m(hand)
        known = Knowledge(seen=mask | m(seen), picked=m(picked))
        unseen = [c for c in DECK if not known.seen & c.bit]
        return {
            str(c): (dw, future_ev(mask, c, dw, unseen, 0), opponent_ev(c, mask, known))
            for c, dw in candidates(mask, mask)
        }

    assert scores("Qc Qd Qs As 3h 5d 8h 8s Ts Js Jh") == {
        "Qc": (45, 639.2857142857143, -15.0),
        "Qd": (45, 639.2857142857143, -15.0),
        "5d": (50, 507.14285714285717, 4.0),
        "8h": (47, 541.2857142857143, -4.0),
        "8s": (47, 564.1428571428572, -7.0),
        "Ts": (45, 556.4285714285716, -6.0),
        "Js": (45, 610.7142857142857, -14.0),
        "Jh": (45, 533.5714285714286, -4.0),
    }
    # after the Java's reported draws and discards: the opponent picked 3c up, discarded 7c, Qs, Qh and Qc
    assert scores("7s 9s 2s 9d 9c 8d Td 4c 5h 4d 8c", seen="7c Kc Kd Qs Qh Ts Qc", picked="3c") == {
        "7s": (41, 435.28571428571433, -7.0),
        "9s": (39, 556.1428571428572, -20.0),
        "9c": (39, 556.1428571428572, -18.0),
        "8d": (40, 605.7142857142857, -12.0),
        "Td": (38, 512.2857142857143, -12.0),
        "5h": (43, 477.28571428571433, 4.0),
        "8c": (40, 517.1428571428571, -14.0),
    }


@pytest.mark.rule("OFFER-1", "MELD-4", "MELD-5")
def test_the_face_up_card_is_taken_only_in_the_chosen_best_melds_and_when_it_lowers_the_deadwood() -> None:
    # willDrawFaceUpCard: 7h melds (7c 7d 7h) but the eleven cards' best melds are the two runs, so it is refused
    # (``simple`` takes it); 8c lengthens a run and lowers the deadwood from 31 to 21, so it is taken.
    p1 = "5c 6c 7c 5d 6d 7d 2s 9h Jd Kh"
    hand = deal("2d 3h 4s 8s Tc Jc Qs Kd 9d Ah", p1, upcard="7h")
    assert would_meld(m(p1), Card.parse("7h"))
    assert isinstance(MarjjBot().choose(hand.observation(1), hand.legal_actions()), PassUpcard)
    hand = deal("2d 3h 4s 8s Tc Jc Qs Kd 9d Ah", p1, upcard="8c")
    assert isinstance(MarjjBot().choose(hand.observation(1), hand.legal_actions()), TakeUpcard)


@pytest.mark.rule("KNOCK-2", "KNOCK-5")
def test_it_knocks_in_its_first_three_turns_and_then_only_for_gin() -> None:
    # getFinalMelds: ``Helper.getBestDeadwood(cards) < 11 && turns < 4`` knocks; later only deadwood 0 does.
    def discard_after_turns(turns_before: int) -> Action:
        hand = deal("2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", "As 2s 3s 4h 4d 4c 9s 9c 9d 5h", upcard="Jc", stock="Kc")
        bot = MarjjBot(1)
        assert isinstance(bot.choose(hand.observation(1), hand.legal_actions()), PassUpcard)  # Jc melds nothing
        hand.apply(PassUpcard(1))
        hand.apply(PassUpcard(0))
        assert isinstance(bot.choose(hand.observation(1), hand.legal_actions()), DrawStock)
        hand.apply(DrawStock(1))  # Kc
        bot.turns = turns_before
        return bot.choose(hand.observation(1), hand.legal_actions())

    assert discard_after_turns(0) == Knock(1, Card.parse("Kc"))  # deadwood 5 (5h) in turn 1
    assert discard_after_turns(2) == Knock(1, Card.parse("Kc"))  # turn 3
    assert discard_after_turns(3) == Discard(1, Card.parse("Kc"))  # turn 4: 5 is no gin
    assert wants_to_knock(m("As 2s 3s 4h 4d 4c 9s 9c 9d 9h"), 12, 10)  # gin, any turn
    assert not wants_to_knock(m("As 2s 3s 4h 4d 4c 9s 9c 9d 5h"), 2, 4)  # Oklahoma: the hand's own limit


@pytest.mark.rule("MELD-4", "LAY-7")
def test_the_melds_are_the_best_set_with_the_fewest_layoff_points_in_the_javas_order() -> None:
    # GinRummyUtil.cardsToBestMeldSets lists the maximal meld sets breadth first, runs before sets; getBestMeld
    # keeps the first of the fewest points the opponent might lay off (unseen or picked-up neighbours).
    six = java_best_meld_sets(m("Ac 2c 3c 4c 5c 6c Kd Qh 9s 8d"))
    assert six == [(m("Ac 2c 3c 4c 5c 6c"),), (m("Ac 2c 3c"), m("4c 5c 6c"))]
    hand = m("4c 5c 6c 5d 5h Kd Qs 9h 2s Jd")
    run, fives = (m("4c 5c 6c"),), (m("5c 5d 5h"),)
    assert java_best_meld_sets(hand) == [run, fives]  # deadwood 10 (5d 5h) or 10 (4c 6c)
    assert best_meld([run, fives], Knowledge(seen=hand)) == fives  # 5s open: 5 points; 3c and 7c open: 10
    assert best_meld([run, fives], Knowledge(seen=hand | m("3c 7c 5s"))) == run  # 0 and 0: the first
    assert best_meld([run, fives], Knowledge(seen=hand | m("3c 7c 5s"), picked=m("5s"))) == run  # 0 and 5
