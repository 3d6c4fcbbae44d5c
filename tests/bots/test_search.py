"""The search bot (``knock.bots.search``) and its levels: its view (VIS-2), its determinism, its rollouts, and its
answers on any legal state. Budgets here are tiny; its strength is measured in the arena (``docs/bots.md``)."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.actions import Action, Discard, DrawStock, Knock, PassUpcard
from engine.cards import Card, cards, shuffled_deck, to_mask
from engine.hand import Hand
from engine.match import Match
from engine.melds import deadwood, melds_with
from engine.rules import RuleSet
from knock.bots import BOT_NAMES, Bot, HeuristicBot, make_bot, play_hand, rollout
from knock.bots.inference import Reading, read, sample_world
from knock.bots.rollout import Rollout, partials
from knock.bots.search import LEVELS, SearchBot
from tests.helpers import deal

ROOT = Path(__file__).resolve().parents[2]


def test_the_levels_are_named_bots_with_fixed_budgets() -> None:
    assert tuple(LEVELS) == ("easy", "medium", "hard", "expert")
    assert all(name in BOT_NAMES for name in LEVELS)
    level = LEVELS["expert"]
    bot = make_bot("expert", 3)
    assert isinstance(bot, SearchBot) and bot.name == "expert" and bot.seed == 3
    assert (bot.budget, bot.width, bot.margin) == (level.budget, level.width, level.margin)
    # the searching levels grow in budget; ``hard`` searches nothing (the heuristic bot's moves)
    assert LEVELS["easy"].budget < LEVELS["medium"].budget < LEVELS["expert"].budget and LEVELS["hard"].budget == 0


def _moves(hand: Hand, bots: Sequence[Bot], seat: int) -> list[tuple[Action, bool]]:
    """Play ``hand`` out: each of ``seat``'s moves, and whether the search bot there searched it."""
    moves = []
    while (to_act := hand.to_act) is not None:
        action = bots[to_act].choose(hand.observation(to_act), hand.legal_actions())
        if to_act == seat:
            bot = bots[seat]
            moves.append((action, isinstance(bot, SearchBot) and bot.last_search is not None))
        hand.apply(action)
    return moves


def test_a_budget_of_nothing_plays_the_heuristic_bots_moves() -> None:
    # ``hard`` (budget 0) is the heuristic bot: its moves, and nothing searched.
    for seed in range(4):
        hand = Hand.deal(seed=seed, dealer=seed % 2, executor="compiled")
        hard = _moves(hand.copy(), [make_bot("hard", seed), make_bot("simple", seed)], 0)
        heuristic = _moves(hand.copy(), [HeuristicBot(), make_bot("simple", seed)], 0)
        assert hard == heuristic


class _FirstWorld(SearchBot):
    """A search that plays only the first of the worlds it draws."""

    def _worlds(self, rng: random.Random, reading: Reading, count: int) -> list[tuple[int, list[int]]]:
        return super()._worlds(rng, reading, count)[:1]


def test_a_time_capped_search_weighs_its_margin_over_the_worlds_it_played() -> None:
    # A cap of no time stops after the first world: the move and the lead are those of a search of that world.
    searched = 0
    for seed in range(3):
        hand = Hand.deal(seed=seed, dealer=seed % 2, executor="compiled")
        capped = SearchBot(240, 5, seed, margin=3.0, time_limit=0.0)
        one = _FirstWorld(240, 5, seed, margin=3.0)
        players: list[Bot] = [HeuristicBot(), make_bot("simple", seed)]
        while (to_act := hand.to_act) is not None:
            obs, legal = hand.observation(to_act), hand.legal_actions()
            if to_act == 0:
                assert capped.choose(obs, legal) == one.choose(obs, legal)
                assert capped.last_search == one.last_search
                searched += capped.last_search is not None
            hand.apply(players[to_act].choose(obs, legal))
    assert searched > 10


def _twin_play(deck: list[Card], swap: dict[Card, Card], seed: int) -> list[Action] | None:
    """Seat 1 (a search bot) against seat 0, who passes, draws from the stock and discards the card drawn. With
    ``swap``, two cards seat 1 never sees trade places in the deck."""
    order = [swap.get(c, c) for c in deck]
    hand = Hand.from_deck(RuleSet(), order, executor="compiled")
    bot = SearchBot(budget=6, width=3, seed=seed, margin=0.0)
    mine: list[Action] = []
    while (seat := hand.to_act) is not None and len(mine) < 24:
        legal = hand.legal_actions()
        if seat == 1:
            action = bot.choose(hand.observation(1), legal)
            mine.append(action)
        elif isinstance(legal[0], PassUpcard | DrawStock):
            action = legal[0]
        elif isinstance(legal[0], Discard | Knock):
            drawn = hand.events[-1]
            card = getattr(drawn, "card", None)
            action = next((a for a in legal if isinstance(a, Discard) and a.card == card), legal[0])
        else:
            action = legal[0]
        hand.apply(action)
    return mine


@pytest.mark.rule("VIS-2")
def test_the_search_bot_moves_the_same_in_twin_states_differing_only_in_hidden_cards() -> None:
    # Two of seat 0's cards he never discards (he discards only what he draws) trade places with two cards deep in
    # the stock, which nobody draws in the first turns: seat 1 cannot tell the two deals apart, so its moves agree.
    checked = 0
    for seed in range(12):
        deck = list(shuffled_deck(seed))
        held = deck[1:20:2]  # the dealer's (seat 0) cards: dealt second, alternately
        swap = {held[0]: deck[-1], deck[-1]: held[0], held[3]: deck[-2], deck[-2]: held[3]}
        base = _twin_play(deck, {}, seed)
        twin = _twin_play(deck, swap, seed)
        assert base is not None and twin is not None
        # the twins agree until seat 1 could have drawn one of the swapped cards (the stock's last two)
        assert base == twin, f"seed {seed}: swapping cards seat 1 never sees changed its play"
        checked += len(base)
    assert checked > 100


@pytest.mark.rule("VIS-2")
def test_a_bots_choice_is_its_observations_and_seed_alone() -> None:
    hand = Hand.deal(seed=21, executor="compiled")
    play = [SearchBot(budget=8, width=3, seed=4, margin=0.0), SearchBot(budget=8, width=3, seed=5, margin=0.0)]
    again = [SearchBot(budget=8, width=3, seed=4, margin=0.0), SearchBot(budget=8, width=3, seed=5, margin=0.0)]
    first = play_hand(hand.copy(), play)
    second = play_hand(hand.copy(), again)
    assert first.events == second.events and first.is_over


SCRIPT = """
from knock.bots import play_hand
from engine.hand import Hand
from knock.bots.search import SearchBot
for seed in range(3):
    hand = play_hand(Hand.deal(seed=seed, dealer=seed % 2), [SearchBot(10, 3, seed), SearchBot(6, 2, seed + 1)])
    print([repr(e) for e in hand.events])
"""


@pytest.mark.rule("VIS-2")
def test_the_same_seed_gives_the_same_moves_whatever_the_hash_seed() -> None:
    outputs = set()
    for hash_seed in ("0", "77"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, cwd=ROOT, env=env)
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1 and outputs.pop().count("Dealt(") == 3


@pytest.mark.rule("VIS-1")
def test_worlds_hold_the_opponents_known_cards_and_fill_the_unseen_ones() -> None:
    hand = deal("As 2s 3s 4h 4d 5c 9s 9c Td 5h", "2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", upcard="4c")
    hand.play("p1 pass", "p0 take", "p0 discard Td")
    obs = hand.observation(1)
    reading = read(obs)
    assert reading.known == Card.parse("4c").bit and reading.hidden == 9
    assert len(reading.unseen) == 9 + obs.stock_size
    rng = random.Random(1)
    for _ in range(20):
        opp, stock = sample_world(rng, reading)
        assert opp & reading.known == reading.known and opp.bit_count() == 10
        assert not opp & to_mask(obs.hand) and len(stock) == obs.stock_size
        assert opp | sum(1 << i for i in stock) == sum(1 << i for i in reading.unseen) | reading.known


class _OnlyRandom(random.Random):
    """A generator whose ``shuffle`` is refused: a world may use ``random()``'s sequence only."""

    def shuffle(self, x: object, *args: object) -> None:
        raise AssertionError("random.shuffle's order is not promised across Python versions")


@pytest.mark.rule("VIS-2")
def test_a_worlds_stock_is_a_fisher_yates_over_random() -> None:
    hand = deal("As 2s 3s 4h 4d 5c 9s 9c Td 5h", "2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", upcard="4c")
    reading = read(hand.observation(1))
    opp, stock = sample_world(_OnlyRandom(9), reading)
    # the same draws of random(), replayed: the hidden cards by their keys, then the stock's swaps from the end
    rng = random.Random(9)
    keyed = sorted(reading.unseen, key=lambda i: -(rng.random() ** (1.0 / reading.weight[i])))
    rest = keyed[reading.hidden :]
    for i in range(len(rest) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        rest[i], rest[j] = rest[j], rest[i]
    assert stock == rest and opp == reading.known | sum(1 << i for i in keyed[: reading.hidden])


def test_cards_next_to_the_opponents_discards_weigh_less() -> None:
    hand = deal("As 2s 3s 4h 4d 5c 9s 9c Td 5h", "2c 3d 7c 6d 8s Tc Jd Qs Kh Ks", upcard="4c")
    hand.play("p1 pass", "p0 pass", "p1 draw", "p1 discard Kh", "p0 draw", "p0 discard Td")
    weight = read(hand.observation(1)).weight
    assert weight[Card.parse("Th").index] < 1 and weight[Card.parse("Jd").index] < 1  # next to Td, discarded
    assert weight[Card.parse("6h").index] == 1


@pytest.mark.rule("SCORE-1", "SCORE-2", "SCORE-3")
def test_a_rollout_scores_knocks_gins_and_undercuts_from_the_searching_seat() -> None:
    rules = RuleSet()
    gin = to_mask(cards("As 2s 3s 4h 5h 6h 9c 9d 9h Kc"))
    loose = to_mask(cards("2c 3d 7c 6d 8s Tc Jd Qs Kh Ks"))
    r = Rollout(rules, 10, [gin, loose], [], [])
    assert r.put(0, Card.parse("Kc").index, True) == rules.gin_bonus + deadwood(loose)
    knocker = to_mask(cards("As 2s 3s 4h 5h 6h 9c 9d 9h 8c"))
    low = to_mask(cards("Ac 2c 3c 4d 5d 6d 7s 7d 7h 2h"))
    r = Rollout(rules, 10, [low, knocker], [], [])
    assert r.showdown(1) == rules.undercut_bonus + 8 - 2  # the opponent knocked with 8 and is undercut by 2
    r = Rollout(rules, 10, [knocker, loose], [], [])
    assert r.showdown(0) > 0


@pytest.mark.rule("VIS-2")
@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    preset=st.sampled_from(["standard", "oklahoma", "three_handed"]),
    wall=st.booleans(),
    big_gin=st.sampled_from([None, 31]),
    taken=st.booleans(),
)
def test_the_search_bot_answers_every_legal_state_with_a_legal_action(
    seed: int, preset: str, wall: bool, big_gin: int | None, taken: bool
) -> None:
    rules = RuleSet.preset(preset, target=30, wall_pickup_to_knock=wall, big_gin_bonus=big_gin,
                           may_discard_taken_card=taken)  # fmt: skip
    match = Match.new(rules, seed=seed, executor="compiled")
    rng = random.Random(seed)
    bots = [SearchBot(budget=4, width=2, seed=seed + s, margin=0.0) for s in range(rules.players)]
    steps = 0
    while (seat := match.to_act) is not None and steps < 120:
        assert match.hand is not None
        obs, legal = match.hand.observation(seat), match.legal_actions()
        chosen = bots[seat].choose(obs, legal)
        assert chosen in legal
        match.apply(legal[int(rng.random() * len(legal))] if rng.random() < 0.3 else chosen)
        steps += 1


@pytest.mark.rule("MELD-1", "MELD-2")
def test_partial_melds_are_counted_on_bitmasks() -> None:
    assert partials(to_mask(cards("7c 7d 7h"))) == 1  # a rank held in two suits or more counts once
    assert partials(to_mask(cards("Kc Ad Qh Ah"))) == 1  # no run goes round the corner nor across suits
    assert partials(to_mask(cards("5s 6s 8s"))) == 2  # 5s-6s, 6s-8s


@pytest.mark.rule("KNOCK-1", "KNOCK-2")
def test_the_rollouts_searching_seat_holds_on_for_gin_early_and_the_opponent_knocks_at_once() -> None:
    rules = RuleSet()
    near = to_mask(cards("As 2s 3s 4h 5h 6h 9c 9d 9h 2c Kc"))  # the Kc goes: 2 deadwood
    other = to_mask(cards("Ah 3d 5d 7s 8h Jc Qh 4c 6c 8s"))
    stock = [c.index for c in cards("Kd Qc Jd 8d 7c 6d 5c 4d 3c Td Tc Jh Qd Ks Kh Qs Js Ts")]
    for seat in (0, 1):
        hands = [other, other]
        hands[seat] = near
        out = Rollout(rules, 10, hands, [], list(stock)).after_draw(seat, -1)  # 18 cards in the stock
        assert (out is None) == (seat == 0), "only the searching seat holds on for gin, and only early"
    assert Rollout(rules, 10, [near, other], [], list(stock[:15])).after_draw(0, -1) is not None  # late: knocks


@pytest.mark.rule("MELD-5")
def test_the_rollouts_searching_seat_keeps_partial_melds_where_the_opponent_model_does_not() -> None:
    # Tc, Jc and Kd leave the same deadwood: the greedy opponent model lets the first go (Tc), the searching seat
    # keeps the Tc-Jc partial run and lets the Kd go.
    hand = to_mask(cards("As 2s 3s 4h 5h 6h Tc Jc Kd 2d 9h"))
    r = Rollout(RuleSet(), 10, [hand, hand], [], [])
    assert r.discard(1, -1) == Card.parse("Tc").index and r.discard(0, -1) == Card.parse("Kd").index


@pytest.mark.rule("DEAD-3")
def test_a_draw_that_comes_back_for_the_third_time_is_from_the_stock() -> None:
    # Without a cap on pickups (DEAD-3) two seats can trade the same cards through the discard pile for ever, and
    # the same draw then comes back unchanged: the third time, the search bot draws from the stock.
    hand = deal("7c 7d 2s 3s 4s 9h Th Jh Kd Qc", "7h 2c 5d 8s Ad Ks Qh 6c 9d 3h", "Js", "Jc", dealer=0)
    hand.play("p1 pass", "p0 pass", "p1 draw", "p1 discard 7h")
    obs, legal = hand.observation(0), hand.legal_actions()
    bot = SearchBot(240, 5, seed=1)
    assert [str(bot.choose(obs, legal)) for _ in range(4)] == ["pickup", "pickup", "draw", "draw"]
    assert str(SearchBot(240, 5, seed=1).choose(obs, legal)) == "pickup"  # a bot that has not seen it before


@pytest.mark.rule("DEAD-3")
def test_a_game_whose_search_bots_traded_the_same_cards_for_ever_now_ends() -> None:
    # An arena game (seed 1000000159, easy against medium): in its ninth hand both seats took each other's
    # discards, 5d, Qc and Qs going round, the stock never drawn.
    seed = 1_000_000_159
    match = Match.new(RuleSet(), seed=seed, executor="compiled")
    bots = [make_bot("easy", seed * 7), make_bot("medium", seed * 7 + 1)]
    for _ in range(3000):
        if (seat := match.to_act) is None:
            break
        match.apply(bots[seat].choose(match.seat_observation(seat), match.legal_actions()))
    assert match.to_act is None and len(match.results) >= 9


class _Trading(Rollout):
    """Policies that never end the hand (they trade the same cards through the discard pile)."""

    __slots__ = ("turns",)
    turns: int

    def turn(self, seat: int, stock_only: bool = False) -> int | None:
        self.turns += 1
        return None


@pytest.mark.rule("DEAD-3")
def test_a_rollout_that_never_ends_counts_as_a_dead_hand() -> None:
    r = _Trading(RuleSet(), 10, [0, 0], [], [])
    r.turns = 0
    assert r.play(0) == 0 and r.turns == rollout.MAX_TURNS


def test_a_rollouts_remembered_discard_is_the_one_its_policy_chooses(monkeypatch: pytest.MonkeyPatch) -> None:
    # The policies' discards are remembered by holding, seat and card taken; the memo is cleared when full.
    monkeypatch.setattr(rollout, "CHOSEN_SIZE", 4)
    monkeypatch.setattr(rollout, "_CHOSEN", {})
    rng = random.Random(8)
    for _ in range(40):
        held = rng.sample(range(52), 11)
        r = Rollout(RuleSet(), 10, [0, 0], [], [])
        for seat in (0, 1):
            r.hands[seat] = sum(1 << i for i in held)
            taken = rng.choice([-1, held[0]])
            first = r.discard(seat, taken)
            assert first == r._choose_discard(seat, taken) == r.discard(seat, taken) != taken
        assert len(rollout._CHOSEN) <= 4


@pytest.mark.rule("MELD-1", "MELD-2", "MELD-5")
def test_the_opponent_model_takes_a_discard_that_melds_or_cuts_four_points_as_the_bots_it_models() -> None:
    # He holds 7c 7d and a Kc to let go: the 7h melds; the 2s does not but cuts his deadwood by eight (for the Kc);
    # the 8h cuts it by two without melding, which neither simple nor the heuristic bot takes for.
    his = to_mask(cards("7c 7d Kc Qd 9s 5h 4c 3d Ah Js"))
    for top, takes in (("7h", True), ("2s", True), ("8h", False)):
        r = Rollout(RuleSet(), 10, [0, his], [Card.parse(top).index], [])
        assert r.takes(1) == takes, top
    assert melds_with(his, Card.parse("7h").index) and not melds_with(his, Card.parse("2s").index)


# --- score awareness (MATCH-1): the chance of winning the game ---------------------------------------------


@pytest.mark.rule("MATCH-1")
def test_the_chance_of_winning_a_game_is_fair_at_equal_scores_and_grows_with_the_lead() -> None:
    from knock.bots.winprob import win_chance

    assert win_chance(100, 100, 100) == pytest.approx(0.5)
    assert win_chance(0, 5, 100) == 1.0 and win_chance(5, 0, 100) == 0.0
    for a, b in [(10, 90), (55, 45), (3, 100), (100, 1)]:
        assert win_chance(a, b, 100) + win_chance(b, a, 100) == pytest.approx(1.0)
    row = [win_chance(need, 50, 100) for need in range(1, 101)]
    assert all(x >= y for x, y in itertools.pairwise(row)) and row[0] > row[49] > row[-1]
    column = [win_chance(50, other, 100) for other in range(1, 101)]
    assert all(x <= y for x, y in itertools.pairwise(column)) and column[0] < column[49] < column[-1]


@pytest.mark.rule("MATCH-1")
def test_a_hands_points_weigh_as_points_early_and_as_the_game_at_its_end() -> None:
    from knock.bots.winprob import PointsValue

    start = PointsValue(100, 100, 100)
    assert start(10) == pytest.approx(10, abs=0.5) and start(-10) == pytest.approx(-10, abs=0.5)
    assert start(40) == pytest.approx(40, rel=0.1)  # far from the target, points are about points
    ending = PointsValue(8, 90, 100)  # a knock for 8 wins the game; more points add nothing
    assert ending(8) == ending(40) > ending(7) > 0
    brink = PointsValue(90, 4, 100)  # any hand the opponent wins ends the game: its size does not matter
    assert brink(-4) == brink(-40) < brink(-3) < 0


@pytest.mark.rule("MATCH-1", "VIS-2")
def test_bots_in_a_game_see_its_scores_and_the_search_weighs_them() -> None:
    from engine.visibility import Observation
    from knock.bots import GreedyBot, play_match
    from knock.bots.search import _standing_value

    seen: list[tuple[Observation, tuple[int, ...]]] = []

    class Watching(GreedyBot):
        def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
            seen.append((obs, match.scores))
            return super().choose(obs, legal)

    match = Match.new(RuleSet(target=40), seed=11, executor="compiled")
    play_match(match, [Watching(), Watching()])
    assert {obs.scores == scores for obs, scores in seen} == {True}
    assert len({scores for _, scores in seen}) > 1  # the game went on past its first hand
    late = next(obs for obs, scores in reversed(seen) if obs.scores != (0, 0))
    value = _standing_value(late)
    me, other = late.scores[late.seat], late.scores[1 - late.seat]
    assert value is not None and (value.need, value.other) == (40 - me, 40 - other)
    hand = Hand.deal(seed=11, executor="compiled")
    assert hand.observation(hand.to_act or 0).scores == () and _standing_value(hand.observation(0)) is None


def test_the_opponent_models_discard_is_the_least_deadwood_highest_card_first() -> None:
    """``Rollout._least_deadwood`` (tried highest card first, stopping at the knock deadwood) is the plain
    minimum of (deadwood left, −value, index) over the cards but the one taken."""
    from knock.bots.rollout import VALUES

    rng = random.Random(7)
    for _ in range(3000):
        hand = rng.sample(range(52), 11)
        taken = rng.choice([-1, hand[0]])
        mask = sum(1 << i for i in hand)
        plain = min((i for i in hand if i != taken), key=lambda i: (deadwood(mask ^ 1 << i), -VALUES[i], i))
        assert Rollout._least_deadwood(mask, taken) == plain


@pytest.mark.rule("LAY-5")
def test_the_rollouts_defence_deadwood_is_the_best_defences() -> None:
    """``defence_deadwood`` (the rollouts' showdown) gives the deadwood of ``best_defence``'s answer."""
    from engine.melds import best_arrangement
    from engine.showdown import best_defence, defence_deadwood
    from knock.bots.rollout import spread

    rng = random.Random(5)
    checked = 0
    while checked < 400:
        deck = rng.sample(range(52), 20)
        knocker, defender = sum(1 << i for i in deck[:10]), sum(1 << i for i in deck[10:])
        melds = best_arrangement(knocker).melds
        if not melds:
            continue
        assert spread(knocker) == melds
        assert defence_deadwood(melds, defender) == best_defence(melds, defender).deadwood
        checked += 1
