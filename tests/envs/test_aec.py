"""The PettingZoo AEC environment (spec/environments.md): entry points, actions, observations, episodes,
rewards, the showdown, seeding, rendering and logs; PettingZoo's own API and seed tests for every preset."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from engine.cards import Card, cards
from engine.errors import IllegalAction, InvalidRules
from engine.fsm import Phase
from engine.match import Match
from engine.rules import RuleSet
from knock.envs import KnockAEC, aec_env
from knock.envs import spaces as T
from knock.envs.episode import Episode, max_hand_points
from replay.audit import verify
from replay.log import LogTruncated
from replay.replayer import iter_states
from tests.engine.match_support import JUNK, KNOCKER, deck
from tests.envs.support import random_episode, scripted_table

PRESETS = ("standard", "oklahoma", "three_handed")


def quiet() -> warnings.catch_warnings[None]:
    """PettingZoo's checks warn that a dict observation is not an array (as for its own classic games)."""
    w = warnings.catch_warnings()
    w.__enter__()
    warnings.filterwarnings("ignore", message="Observation (is not a NumPy array|space for each agent)")
    return w


# --- ENV-1: entry points and options ----------------------------------------------------------------


@pytest.mark.rule("ENV-1")
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_test_passes(preset: str) -> None:
    w = quiet()
    try:
        api_test(aec_env(preset), num_cycles=300)
        api_test(aec_env(preset, showdown="choice", episode="game", max_consecutive_discard_pickups=2, target=30), 300)
    finally:
        w.__exit__(None, None, None)


@pytest.mark.rule("ENV-1")
def test_the_environments_play_with_the_compiled_executor() -> None:
    env = KnockAEC("three_handed")
    env.reset(seed=1)
    m = env.episode.game
    assert m.executor.name == "compiled" and m.hand is not None and m.hand.executor.name == "compiled"


def refusal(call: Callable[..., object], *args: object) -> str:
    """The error ``call(*args)`` raises, with its words ("none" if it raises none)."""
    try:
        call(*args)
    except Exception as err:
        return f"{type(err).__name__}: {err}"
    return "none"


@pytest.mark.rule("ENV-1", "ENV-7")
@pytest.mark.parametrize("preset", PRESETS)
def test_the_wrapper_checks_and_plays_as_pettingzoos(preset: str) -> None:
    """``aec_env``'s wrapper reads the environment directly at every step (``OrderEnforcing``): the same refusals
    as PettingZoo's ``OrderEnforcingWrapper`` around the same environment, and the same episodes — agents,
    observations, masks, rewards and ends, step by step."""
    ours, theirs = aec_env(preset), OrderEnforcingWrapper(KnockAEC(preset))
    assert isinstance(ours, OrderEnforcingWrapper) and str(ours) == str(theirs) == "knock_gin_v0"
    for call, args in (("last", ()), ("agent_iter", ()), ("observe", ("player_0",)), ("step", (0,))):
        assert refusal(getattr(ours, call), *args) == refusal(getattr(theirs, call), *args) != "none"
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        ours.reset(seed=seed)
        theirs.reset(seed=seed)
        for agent, other in zip(ours.agent_iter(), theirs.agent_iter(), strict=True):
            assert agent == other
            (obs, *rest), (obs2, *rest2) = ours.last(), theirs.last()
            assert rest == rest2 and ours.last(observe=False)[0] is None
            assert obs["observation"].tobytes() == obs2["observation"].tobytes()
            assert obs["action_mask"].tobytes() == obs2["action_mask"].tobytes()
            ids = np.flatnonzero(obs["action_mask"])
            action = None if rest[1] or rest[2] else int(ids[int(rng.random() * len(ids))])
            ours.step(action)
            theirs.step(action)
        assert ours.agents == theirs.agents == []
        assert ours.knock_log() == theirs.knock_log()
    for env in (ours, theirs):  # a loop over agent_iter must step
        env.reset(seed=3)
        next(iter(env.agent_iter()))
    assert refusal(next, iter(ours.agent_iter())) == refusal(next, iter(theirs.agent_iter())) != "none"


@pytest.mark.rule("ENV-1", "RULES-2")
def test_options_reach_the_rule_set_and_unknown_ones_are_refused() -> None:
    env = KnockAEC("oklahoma", gin_bonus=30, episode="game")
    assert env.episode.rules == RuleSet.preset("oklahoma", gin_bonus=30)
    assert env.episode.whole_game and env.possible_agents == ["player_0", "player_1"]
    assert KnockAEC("three_handed").possible_agents == ["player_0", "player_1", "player_2"]
    with pytest.raises(InvalidRules, match="RULES-2"):
        KnockAEC("standard", no_such_option=1)
    with pytest.raises(ValueError, match="ENV-5"):
        KnockAEC("standard", episode="rubber")
    with pytest.raises(ValueError, match="ENV-6"):
        KnockAEC("standard", showdown="never")
    with pytest.raises(ValueError, match="ENV-8"):
        KnockAEC("standard", render_mode="human")


# --- ENV-2: the action space and the mask --------------------------------------------------------


@pytest.mark.rule("ENV-2")
def test_action_ids_name_the_engine_actions() -> None:
    assert T.ACTIONS == 175 and T.action_name(0) == "pass" and T.action_name(3) == "pickup"
    assert T.action_name(T.DISCARD + Card.parse("Kh").index) == "discard Kh"
    assert T.action_name(T.KNOCK + Card.parse("Ac").index) == "knock Ac"
    assert T.action_name(T.CHOICE + 5) == "choice 5" and T.action_name(174) == "no advice"
    with pytest.raises(ValueError, match="ENV-2"):
        T.action_name(175)


@pytest.mark.rule("ENV-2", "TURN-3")
def test_a_masked_out_action_is_refused_with_its_rule_and_changes_nothing() -> None:
    env = KnockAEC("standard")
    env.reset(seed=3)
    before = env.episode.game.hand
    assert before is not None
    key = before.state_key()
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"][[T.PASS, T.TAKE]].tolist() == [1, 1] and obs["action_mask"].sum() == 2
    with pytest.raises(IllegalAction) as err:
        env.step(T.DISCARD + 0)  # discarding during the upcard offer
    assert err.value.rule and before.state_key() == key
    with pytest.raises(IllegalAction, match="ENV-2"):
        env.step(T.CHOICE)
    with pytest.raises(IllegalAction, match="ENV-2"):
        env.step(T.NO_ADVICE)
    assert before.state_key() == key
    table = scripted_table(KNOCKER, JUNK, "Qd")
    table.step(T.TAKE)  # the knocker (non-dealer) takes the upcard
    with pytest.raises(IllegalAction, match="TURN-3"):
        table.step(T.DISCARD + Card.parse("Ah").index)


@pytest.mark.rule("ENV-2")
def test_only_the_agent_to_act_has_legal_ids() -> None:
    env = KnockAEC("standard")
    env.reset(seed=1)
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == env.agent_selection)


# --- ENV-3: observations ----------------------------------------------------------------------------


@pytest.mark.rule("ENV-3", "VIS-1")
def test_the_observation_does_not_depend_on_what_the_seat_cannot_see() -> None:
    stock = "9h Th 8h"
    a = scripted_table(JUNK, KNOCKER, "Qd", stock)
    b = scripted_table(JUNK.replace("Kc", "8h"), KNOCKER, "Qd", stock.replace("8h", "Kc"))
    assert a.game.hand is not None and b.game.hand is not None
    assert a.game.hand.cards_of(1) != b.game.hand.cards_of(1)
    assert np.array_equal(a.observe(0), b.observe(0))  # the dealer's view: the other seat differs
    assert not np.array_equal(a.observe(1), b.observe(1))


@pytest.mark.rule("ENV-3")
def test_the_observation_encodes_the_seat_view_by_the_table() -> None:
    table = scripted_table(KNOCKER, JUNK, "Qd")
    vec = table.observe(1)  # p1 is the non-dealer, to act first
    o = T.OFFSET
    hand = {Card.from_index(int(i)) for i in np.flatnonzero(vec[o["hand"] : o["hand"] + 52])}
    assert {str(c) for c in hand} == set(KNOCKER.split())
    assert Card.from_index(int(np.flatnonzero(vec[o["discard_top"] : o["discard_top"] + 52])[0])) == Card.parse("Qd")
    assert vec[o["phase"]] == 1 and vec[o["to_act"]] == 1 and vec[o["dealer"]] == 0
    assert vec[o["stock"]] == 1.0 and vec[o["knock_limit"]] == 1.0 and vec[o["opponent_cards"]] == 10 / 11
    assert vec.dtype == np.float32 and vec.shape == (T.OBS_SIZE,) and vec.min() >= 0 and vec.max() <= 1
    table.step(T.TAKE)
    vec = table.observe(0)
    assert Card.from_index(int(np.flatnonzero(vec[o["opponent_known"] : o["opponent_known"] + 52])[0])) == Card.parse(
        "Qd"
    )
    assert table.observe(1)[o["taken"] + Card.parse("Qd").index] == 1


@pytest.mark.rule("ENV-3", "THREE-8")
def test_a_sitter_sees_the_captains_view_or_only_the_public_part() -> None:
    for sees in (True, False):
        env = KnockAEC("three_handed", sitter_sees_captain_hand=sees)
        env.reset(seed=5)
        m = env.episode.game
        assert m.sitter is not None
        sitter, captain = env.episode.observe(m.sitter), env.episode.observe(m.captain)
        o = T.OFFSET
        assert sitter[o["sitter"]] == 1 and captain[o["sitter"]] == 0
        assert np.array_equal(sitter[o["hand"] : o["hand"] + 52], captain[o["hand"] : o["hand"] + 52]) == sees
        assert sitter[o["hand"] : o["hand"] + 52].any() == sees


# --- ENV-4, ENV-5: rewards and episodes --------------------------------------------------------------


@pytest.mark.rule("ENV-4", "ENV-5", "SCORE-6")
def test_a_hand_rewards_its_points_zero_sum_and_ends_the_episode() -> None:
    table = scripted_table(KNOCKER, JUNK, "Qd")
    assert table.step(T.TAKE) == [0.0, 0.0]
    rewards = table.step(T.KNOCK + Card.parse("Kd").index)
    assert rewards == [-62.0, 62.0] and table.over  # knock: 72 - 10 (tests.engine.match_support)
    normalised = scripted_table(KNOCKER, JUNK, "Qd", normalise=True)
    normalised.step(T.TAKE)
    assert normalised.step(T.KNOCK + Card.parse("Kd").index) == [-62 / 123, 62 / 123]
    assert max_hand_points(RuleSet(spades_double=True, big_gin_bonus=31)) == 2 * (31 + 98)


@pytest.mark.rule("ENV-4", "ENV-5")
@pytest.mark.parametrize("preset", PRESETS)
def test_episode_rewards_sum_to_the_hands_points(preset: str) -> None:
    env = aec_env(preset, episode="game", max_consecutive_discard_pickups=5, target=40)
    trace = random_episode(env, seed=11, eager=True)
    totals: dict[str, float] = {}
    for agent, _, reward in trace:
        totals[agent] = totals.get(agent, 0.0) + reward
    m = env.unwrapped.episode.game
    assert m.is_over and sum(totals.values()) == 0
    won = [0] * m.rules.players
    for r in m.results:
        if r.winner is not None:
            won[r.winner] += r.points
            won[r.seats[0] + r.seats[1] - r.winner] -= r.points
    assert [totals[f"player_{i}"] for i in range(m.rules.players)] == won


@pytest.mark.rule("ENV-5")
def test_a_one_hand_episode_stops_at_the_hands_end() -> None:
    env = aec_env("standard")
    random_episode(env, seed=2)
    m = env.unwrapped.episode.game
    assert m.number == 1 and len(m.results) == 1 and m.to_act is None and not m.is_over


# --- ENV-6: the showdown ----------------------------------------------------------------------------


@pytest.mark.rule("ENV-6", "KNOCK-4", "LAY-5")
def test_the_showdown_is_automatic_or_offered_as_choices() -> None:
    auto = scripted_table(KNOCKER, JUNK, "Qd")
    auto.step(T.TAKE)
    auto.step(T.KNOCK + Card.parse("Kd").index)
    assert auto.game.results[-1].points == 62
    table = scripted_table(KNOCKER, JUNK, "Qd", showdown="choice")
    table.step(T.TAKE)
    table.step(T.KNOCK + Card.parse("Kd").index)
    hand = table.game.hand
    assert hand is not None and hand.phase is Phase.KNOCK and table.seat_to_act() == 1
    legal = table.legal()
    assert list(legal) == [T.CHOICE + k for k in range(len(legal))]
    assert legal[T.CHOICE] == hand.auto_spread()  # the least deadwood first
    table.step(T.CHOICE)
    assert hand.phase.value == "layoff" and table.seat_to_act() == 0  # (mypy narrowed hand.phase above)
    assert table.step(T.CHOICE) == [-62.0, 62.0]


# --- ENV-7: seeding ---------------------------------------------------------------------------------


@pytest.mark.rule("ENV-7")
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_seed_test_passes(preset: str) -> None:
    seed_test(lambda: aec_env(preset), num_cycles=300)


@pytest.mark.rule("ENV-7", "LOG-1")
def test_a_seed_reproduces_the_episodes_exactly() -> None:
    a, b = aec_env("three_handed", showdown="choice"), aec_env("three_handed", showdown="choice")
    assert random_episode(a, seed=7) == random_episode(b, seed=7)
    assert a.unwrapped.knock_log() == b.unwrapped.knock_log()
    a.reset(seed=7)
    first = a.unwrapped.knock_log()
    a.reset()
    b.reset()
    assert a.unwrapped.knock_log() == b.unwrapped.knock_log() != first


# --- ENV-8: rendering and the log --------------------------------------------------------------------


@pytest.mark.rule("ENV-8")
def test_render_ansi_shows_the_table() -> None:
    env = aec_env("standard", render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text.startswith("hand 1, dealer p0") and "p0: " in text and "p1: " in text
    quiet_env = aec_env("standard")
    quiet_env.reset(seed=1)
    assert quiet_env.render() is None


@pytest.mark.rule("ENV-8", "LOG-5")
def test_every_episode_has_its_knock_log() -> None:
    env = aec_env("oklahoma", episode="game", max_consecutive_discard_pickups=5, target=40)
    random_episode(env, seed=4, eager=True)
    report = verify(env.unwrapped.knock_log())
    assert report.ok, report
    hand = aec_env("standard")
    random_episode(hand, seed=4)
    played = hand.unwrapped.episode.game
    last = None
    with pytest.raises(LogTruncated) as cut:  # a game stopped after its first hand: no trailer (LOG-7)
        for state in iter_states(hand.unwrapped.knock_log()):
            last = state.match
    assert cut.value.clean and last is not None
    assert last.results == played.results and last.events == played.events


# --- ENV-11: the sitter ------------------------------------------------------------------------------


@pytest.mark.rule("ENV-11", "THREE-7")
def test_the_sitter_advises_or_not_before_each_captain_decision() -> None:
    env = KnockAEC("three_handed")
    env.reset(seed=5)
    m = env.episode.game
    assert m.sitter is not None and m.to_act == m.captain
    sitter = f"player_{m.sitter}"
    assert env.agent_selection == sitter
    mask = env.observe(sitter)["action_mask"]
    assert mask[T.NO_ADVICE] == 1 and mask[[T.PASS, T.TAKE]].tolist() == [1, 1] and mask.sum() == 3
    env.step(T.TAKE)  # advice: take the upcard
    assert env.agent_selection == f"player_{m.captain}" and type(m.events[-1]).__name__ == "Advised"
    env.step(T.PASS)  # the captain decides otherwise
    assert env.agent_selection == f"player_{m.dealer}"
    trace = random_episode(env, seed=9)
    assert all(r == 0 for agent, _, r in trace if agent == f"player_{env.episode.game.sitter}")


def test_a_table_must_be_reset_first() -> None:
    with pytest.raises(AssertionError, match="reset"):
        Episode(RuleSet()).seat_to_act()


@pytest.mark.rule("ENV-11", "THREE-8")
def test_a_sitter_who_does_not_see_the_captains_cards_may_advise_only_what_they_do_not_decide() -> None:
    """Twins that differ only in the captain's stock draw (Jh gives him big gin, Ks does not): the sitter who is
    not shown his cards gets the same mask and the same refusals in both; one who is shown them, the captain's."""
    captain, box = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th", "Kc Qc Jd 9s 9d 7d 6s 5d 4c 2d"
    seen: dict[tuple[bool, str], tuple[bytes, list[str]]] = {}
    for sees in (False, True):
        for stock in ("Jh Ks", "Ks Jh"):
            rules = RuleSet.preset("three_handed", big_gin_bonus=31, sitter_sees_captain_hand=sees)
            table = Episode(rules)
            table.start(Match.scripted(rules, cuts=[cards("Ks Qs 2c")], decks=[deck(captain, box, "Qd", stock)]))
            for action_id in (T.NO_ADVICE, T.PASS, T.PASS, T.NO_ADVICE, T.DRAW):  # both pass; the captain draws
                table.step(action_id)
            m = table.game
            assert (m.sitter, m.captain, table.seat_to_act()) == (2, 1, 2)
            refused = []
            for action_id in (T.BIG_GIN, T.DISCARD + Card.parse("Ah").index, T.KNOCK + Card.parse("Ks").index):
                if table.mask(2)[action_id]:
                    refused.append("legal advice")
                    continue
                with pytest.raises(IllegalAction) as err:
                    table.step(action_id)
                refused.append(err.value.rule)
            seen[sees, stock] = (table.mask(2).tobytes(), refused)
    assert seen[False, "Jh Ks"] == seen[False, "Ks Jh"]
    mask, refused = seen[False, "Jh Ks"]
    assert np.flatnonzero(np.frombuffer(mask, np.int8)).tolist() == [T.NO_ADVICE] and refused == ["THREE-8"] * 3
    assert seen[True, "Jh Ks"][0] != seen[True, "Ks Jh"][0]  # a sitter who sees the cards sees big gin
    assert np.frombuffer(seen[True, "Jh Ks"][0], np.int8)[T.BIG_GIN] == 1
