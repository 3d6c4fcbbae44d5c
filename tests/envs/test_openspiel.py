"""The OpenSpiel game python_knock_gin (spec/environments.md, ENV-12): OpenSpiel's own random simulation test,
and OpenSpiel's MCTS bot playing Knock's heuristic bot on a reduced deck."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts

import knock.envs.openspiel as kos
from engine.errors import InvalidRules
from engine.rules import RuleSet
from knock.bots import HeuristicBot
from knock.envs import spaces as T

SMALL = {"deck_ranks": 6, "deck_suits": 3, "hand_size": 4}


@pytest.mark.rule("ENV-12")
@pytest.mark.parametrize(
    "params",
    [{}, {"preset": "oklahoma", "showdown": "choice"}, {**SMALL, "options": "gin_bonus:20 spades_double:true"}],
    ids=["standard", "oklahoma-choice", "reduced"],
)
def test_openspiels_random_simulation_test_passes(params: dict[str, object]) -> None:
    game = pyspiel.load_game("python_knock_gin", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.rule("ENV-12", "RULES-3", "DEAD-3")
def test_the_parameters_give_the_rule_set() -> None:
    game = pyspiel.load_game("python_knock_gin", {**SMALL, "options": "gin_bonus:20 oklahoma_ace:gin_only"})
    want = RuleSet().replace(gin_bonus=20, oklahoma_ace="gin_only", max_consecutive_discard_pickups=10, **SMALL)
    assert game.rules == want
    assert game.num_distinct_actions() == T.ACTIONS and game.observation_tensor_size() == T.OBS_SIZE
    assert game.moves == game.max_game_length() - 18  # the moves after the deal of 18 cards
    assert game.information_state_tensor_size() == T.OBS_SIZE + 52 + 13 * game.moves  # ENV-12: perfect recall
    assert game.max_utility() == 20 + 98 and game.min_utility() == -118
    with pytest.raises(ValueError, match="ENV-12"):
        pyspiel.load_game("python_knock_gin", {"preset": "three_handed"})
    with pytest.raises(InvalidRules, match="RULES-3"):
        pyspiel.load_game("python_knock_gin", {"deck_ranks": 3, "deck_suits": 1, "hand_size": 1})
    with pytest.raises(ValueError, match="ENV-12"):
        kos.parse_options("gin_bonus=20")


@pytest.mark.rule("ENV-12", "VIS-1")
def test_a_deal_is_chance_and_a_player_sees_only_his_view() -> None:
    game = pyspiel.load_game("python_knock_gin", SMALL)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 18
    rng = np.random.default_rng(3)
    while state.is_chance_node():
        outcomes = [a for a, _ in state.chance_outcomes()]
        state.apply_action(int(rng.choice(outcomes)))
    assert state.current_player() == 0 and state.legal_actions() == [T.PASS, T.TAKE]
    hand = state.hand
    assert hand is not None and hand.executor.name == "compiled"
    mine = np.array(state.observation_tensor(0))[:52]
    assert sorted(np.flatnonzero(mine)) == sorted(c.index for c in hand.cards_of(0))
    assert "p1" not in state.observation_string(0) and str(hand.cards_of(1)[0]) not in state.observation_string(0)


@pytest.mark.rule("ENV-12", "VIS-2")
def test_mcts_plays_the_heuristic_bot_on_a_reduced_deck() -> None:
    game = pyspiel.load_game("python_knock_gin", SMALL)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    searcher = mcts.MCTSBot(game, uct_c=2.0, max_simulations=40, evaluator=evaluator, random_state=rng)
    heuristic = HeuristicBot()
    totals = np.zeros(2)
    for deal in range(4):
        mcts_seat = deal % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = [a for a, _ in state.chance_outcomes()]
                state.apply_action(outcomes[rng.randint(len(outcomes))])
            elif state.current_player() == mcts_seat:
                state.apply_action(searcher.step(state))
            else:
                hand = state.hand
                seat = state.current_player()
                state.apply_action(state.id_of(heuristic.choose(hand.observation(seat), hand.legal_actions())))
        returns = state.returns()
        assert sum(returns) == 0 and (returns[0] != 0) == (state.hand.result.winner is not None)
        totals += [returns[mcts_seat], returns[1 - mcts_seat]]
    assert totals.sum() == 0
