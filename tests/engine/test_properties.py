"""Properties of whole random hands: invariants after every step, under every preset and option combination.

Hands are played to their end by a random player (uniform, or biased towards knocking or towards gin, so that
every ending turns up: gin, big gin, knocks, undercuts, ties, dead hands by the stock, the wall or the cap).
After every step the checks below run; between steps random actions of every kind, for either seat, are
tried: those not in ``legal_actions()`` must raise ``IllegalAction`` naming a fitting rule and change nothing.

Hypothesis draws the deal, the rule set and the player's choices; plain seeded loops add the bulk.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.actions import (
    Action,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    PassUpcard,
    Spread,
    TakeUpcard,
    sort_key,
)
from engine.cards import DECK, Card, from_mask, to_mask
from engine.errors import IllegalAction
from engine.events import Dealt, HandDead, HandScored
from engine.fsm import Phase
from engine.hand import Hand
from engine.melds import Meld, deadwood, knock_deadwood, melds_in
from engine.rules import KnockLimit, OklahomaAce, RuleSet
from engine.scoring import HandResult, ResultKind
from engine.showdown import Layoff
from tests.engine.support import cards_in, hidden_from, taken_and_held
from tests.support import oracle

FULL_DECK = (1 << 52) - 1
RULE_ID = re.compile(r"[A-Z]+-\d+")
MAX_STEPS = 2000

CONFIGS: dict[str, RuleSet] = {
    "standard": RuleSet(),
    "oklahoma": RuleSet.preset("oklahoma"),
    "oklahoma, gin-only ace": RuleSet.preset("oklahoma", oklahoma_ace="gin_only"),
    "big gin": RuleSet(big_gin_bonus=31),
    "wall": RuleSet(wall_pickup_to_knock=True),
    "pickup cap": RuleSet(max_consecutive_discard_pickups=3),
    "may discard taken card": RuleSet(may_discard_taken_card=True),
    "no undercut on tie": RuleSet(undercut_on_tie=False),
    "spades double": RuleSet.preset("oklahoma", spades_double=True),
    "straight gin, wall": RuleSet(knock_limit_value=0, wall_pickup_to_knock=True),
    "everything": RuleSet.preset(
        "oklahoma",
        oklahoma_ace="gin_only",
        big_gin_bonus=50,
        wall_pickup_to_knock=True,
        max_consecutive_discard_pickups=4,
        may_discard_taken_card=True,
        undercut_on_tie=False,
        spades_double=True,
    ),
}

rule_sets = st.builds(
    RuleSet,
    knock_limit=st.sampled_from(KnockLimit),
    knock_limit_value=st.integers(0, 10),
    oklahoma_ace=st.sampled_from(OklahomaAce),
    gin_bonus=st.sampled_from([0, 20, 25]),
    undercut_bonus=st.sampled_from([0, 10, 25]),
    undercut_on_tie=st.booleans(),
    big_gin_bonus=st.sampled_from([None, 31, 50]),
    spades_double=st.booleans(),
    may_discard_taken_card=st.booleans(),
    wall_pickup_to_knock=st.booleans(),
    max_consecutive_discard_pickups=st.sampled_from([None, 1, 2, 5]),
)

# --- players ------------------------------------------------------------------------------------------


def uniform(hand: Hand, legal: list[Action], rng: random.Random) -> Action:
    return rng.choice(legal)


def eager(hand: Hand, legal: list[Action], rng: random.Random) -> Action:
    """Knocks (or declares big gin) as soon as it may; otherwise plays like ``sensible``."""
    ends = [a for a in legal if isinstance(a, Knock | BigGin)]
    if ends and rng.random() < 0.9:
        return rng.choice(ends)
    return sensible(hand, legal, rng)


def gin_hunter(hand: Hand, legal: list[Action], rng: random.Random) -> Action:
    """Waits for gin or big gin, and knocks otherwise only when the stock runs low."""
    mask = hand.hands[legal[0].seat]
    ends = [a for a in legal if isinstance(a, BigGin) or (isinstance(a, Knock) and deadwood(mask ^ a.card.bit) == 0)]
    if ends and rng.random() < 0.95:
        return rng.choice(ends)
    knocks = [a for a in legal if isinstance(a, Knock)]
    if knocks and len(hand.stock) < 6 and rng.random() < 0.8:
        return rng.choice(knocks)
    return sensible(hand, legal, rng)


def sensible(hand: Hand, legal: list[Action], rng: random.Random) -> Action:
    """Takes a discard that lowers its deadwood, discards to the lowest deadwood; random spreads and answers."""
    mask = hand.hands[legal[0].seat]
    first = legal[0]
    if isinstance(first, PassUpcard | DrawStock) and rng.random() < 0.9:
        take = next((a for a in legal if isinstance(a, TakeUpcard | DrawDiscard)), None)
        useful = knock_deadwood(mask | hand.discards[-1].bit) < deadwood(mask)
        return take if take is not None and useful else first
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards and rng.random() < 0.9:
        return min(discards, key=lambda a: (deadwood(mask ^ a.card.bit), rng.random()))
    if isinstance(first, LayOff) and rng.random() < 0.5:
        return hand.auto_defence()
    return rng.choice(legal)


PLAYERS: dict[str, Callable[[Hand, list[Action], random.Random], Action]] = {
    "uniform": uniform,
    "eager": eager,
    "gin hunter": gin_hunter,
}

# --- random actions of every kind, mostly illegal ------------------------------------------------------------


def random_card(rng: random.Random, pool: tuple[Card, ...]) -> Card:
    return rng.choice(pool) if pool and rng.random() < 0.7 else rng.choice(DECK)


def random_melds(rng: random.Random, mask: int) -> tuple[Meld, ...]:
    found = melds_in(mask | (1 << rng.randrange(52)) if rng.random() < 0.2 else mask)
    return tuple(rng.sample(found, rng.randint(0, min(4, len(found))))) if found else ()


def near_miss(action: Spread | LayOff, hand: Hand, rng: random.Random) -> Action:
    """A legal spread or answer changed a little: a meld dropped, or one more layoff of a card he holds."""
    if isinstance(action, Spread):
        melds = list(action.melds)
        if melds:
            melds.pop(rng.randrange(len(melds)))
        return Spread(action.seat, tuple(melds))
    assert hand.spread is not None
    extra = Layoff(rng.choice(hand.cards_of(action.seat)), rng.choice(hand.spread.melds))
    return LayOff(action.seat, action.melds, (*action.layoffs, extra))


def random_action(hand: Hand, rng: random.Random, legal: list[Action]) -> Action:
    actor = hand.to_act if hand.to_act is not None and rng.random() < 0.75 else rng.choice([0, 1, 2])
    own = from_mask(hand.hands[actor]) if actor in (0, 1) else ()
    kind = rng.randrange(10)
    if kind >= 8 and isinstance(legal[-1] if legal else None, Spread | LayOff) and rng.random() < 0.5:
        target = rng.choice(legal)
        assert isinstance(target, Spread | LayOff)
        return near_miss(target, hand, rng)
    if kind == 0:
        return PassUpcard(actor)
    if kind == 1:
        return TakeUpcard(actor)
    if kind == 2:
        return DrawStock(actor)
    if kind == 3:
        return DrawDiscard(actor)
    if kind == 4:
        return Discard(actor, random_card(rng, own))
    if kind == 5:
        return Knock(actor, random_card(rng, own))
    if kind == 6:
        return BigGin(actor)
    if kind == 7:
        return DeclineWall(actor)
    mask = to_mask(own)
    if kind == 8:
        return Spread(actor, random_melds(rng, mask))
    targets = hand.spread.melds if hand.spread is not None else random_melds(rng, to_mask(rng.sample(DECK, 12)))
    layoffs = tuple(Layoff(random_card(rng, own), rng.choice(targets)) for _ in range(rng.randint(0, 3)) if targets)
    return LayOff(actor, random_melds(rng, mask), layoffs)


def probe(hand: Hand, rng: random.Random, legal: list[Action], tries: int) -> int:
    """Try random actions: those the rules allow (``tests.support.oracle``) must be listed, the others refused for
    a rule they break, changing nothing. Returns how many were illegal."""
    legal_set = set(legal)
    illegal = 0
    for _ in range(tries):
        action = random_action(hand, rng, legal)
        broken = oracle.refusals(hand, action)
        listed = action in legal_set
        if not broken:
            assert listed, f"{action} is legal by the rules but not listed"
            assert hand.is_legal(action)
            continue
        assert not listed, f"{action} is listed as legal but breaks {sorted(broken)}"
        before = hand.state_key()
        try:
            hand.apply(action)
        except IllegalAction as err:
            assert RULE_ID.fullmatch(err.rule)
            assert err.rule in broken, f"{action} rejected for {err.rule}, it breaks {sorted(broken)}"
            assert err.action == action
        else:
            raise AssertionError(f"{action} was applied although it breaks {sorted(broken)}")
        assert hand.state_key() == before
        illegal += 1
    return illegal


# --- invariants -----------------------------------------------------------------------------------------------


def check_cards(hand: Hand) -> None:
    """Every card is in exactly one place: a hand, the stock, the discard pile, or face down after a knock."""
    places = [hand.hands[0], hand.hands[1], to_mask(hand.stock), to_mask(hand.discards)]
    if hand.knock_card is not None:
        places.append(hand.knock_card.bit)
    assert sum(p.bit_count() for p in places) == 52
    union = 0
    for p in places:
        union |= p
    assert union == FULL_DECK
    assert len(set(hand.stock)) == len(hand.stock) and len(set(hand.discards)) == len(hand.discards)
    assert len(hand.stock) >= 2


def check_sizes(hand: Hand) -> None:
    sizes = [hand.hands[0].bit_count(), hand.hands[1].bit_count()]
    if hand.phase is Phase.DISCARD:
        assert hand.to_act is not None
        assert sizes[hand.to_act] == 11 and sizes[1 - hand.to_act] == 10
    elif hand.knocker is not None:
        assert sizes[hand.knocker] == (11 if hand.big_gin else 10)
        assert sizes[1 - hand.knocker] == 10
    else:
        assert sizes == [10, 10]
    if hand.phase in (Phase.DRAW, Phase.WALL, Phase.UPCARD_OFFER):
        assert hand.discards


def check_legal(hand: Hand, legal: list[Action]) -> None:
    assert bool(legal) == (hand.to_act is not None)
    assert all(a.seat == hand.to_act for a in legal)
    assert sorted(legal, key=sort_key) == legal
    assert len(set(legal)) == len(legal)
    assert hand.legal_actions() == legal
    assert hand.copy().legal_actions() == legal


def check_observations(hand: Hand) -> None:
    for seat in (0, 1):
        obs = hand.observation(seat)
        known = taken_and_held(hand, 1 - seat)
        assert obs.hand == hand.cards_of(seat)
        assert obs.opponent_hand_size == hand.hands[1 - seat].bit_count()
        assert obs.stock_size == len(hand.stock)
        assert set(obs.opponent_known) == known
        assert not cards_in(obs) & hidden_from(hand, seat, known)


def expected_result(hand: Hand) -> tuple[str, int | None, int, int]:
    """The result worked out by ``tests.support.oracle`` from the cards, the spread and the defence (SCORE-1 ..
    SCORE-6): kind, winner, points and multiplier."""
    spread, knocker = hand.spread, hand.knocker
    assert spread is not None and knocker is not None
    defender = 1 - knocker
    k_held = oracle.cards_of(hand.hands[knocker])
    k_melded = oracle.melded((m.cards for m in spread.melds), k_held)
    assert k_melded is not None, "the spread is disjoint melds of the knocker's cards"
    k_dead = oracle.points(k_held - k_melded)
    d_held = oracle.cards_of(hand.hands[defender])
    if hand.defence is None:
        d_dead = oracle.deadwood_of(hand.hands[defender])
    else:
        d_melded = oracle.melded((m.cards for m in hand.defence.melds), d_held)
        assert d_melded is not None, "the defender's melds are disjoint melds of his cards"
        d_dead = oracle.points(d_held - d_melded - {lo.card for lo in hand.defence.layoffs})
    score = oracle.hand_score(hand.rules, hand.upcard, knocker, defender, k_dead, d_dead, big_gin=hand.big_gin)
    return score.kind, score.winner, score.points, score.multiplier


def check_end(hand: Hand) -> HandResult:
    result = hand.result
    assert result is not None
    assert hand.to_act is None and hand.legal_actions() == []
    assert isinstance(hand.events[0], Dealt)
    assert sum(isinstance(e, Dealt) for e in hand.events) == 1
    if result.kind is ResultKind.DEAD:
        assert isinstance(hand.events[-1], HandDead)
        assert (result.winner, result.points, hand.spread) == (None, 0, None)
        assert result.reason in {"stock", "pickup cap", "last discard declined"}
        if result.reason != "pickup cap":
            assert len(hand.stock) == 2
        return result
    assert isinstance(hand.events[-1], HandScored)
    spread = hand.spread
    assert spread is not None and hand.knocker is not None
    assert spread.deadwood <= (0 if hand.big_gin else hand.knock_limit)
    gin = not spread.deadwood_cards
    assert (hand.defence is None) == gin  # LAY-2: no answer after gin
    assert (result.kind in (ResultKind.GIN, ResultKind.BIG_GIN)) == gin
    assert (result.kind.value, result.winner, result.points, result.multiplier) == expected_result(hand)
    if result.winner is not None:
        assert result.points > 0
    else:
        assert result.points == 0
    return result


def play_out(hand: Hand, rng: random.Random, player: str, *, probes: int, observe: float, copies: float) -> int:
    """Play to the end, checking after every step; returns how many probes were illegal.

    The costlier checks run on a share of the steps: observations (``observe``), and applying the chosen
    action to a copy first (``copies``).
    """
    choose = PLAYERS[player]
    illegal = 0
    for _ in range(MAX_STEPS):
        check_cards(hand)
        check_sizes(hand)
        if rng.random() < observe:
            check_observations(hand)
        legal = hand.legal_actions()
        check_legal(hand, legal)
        illegal += probe(hand, rng, legal, probes)
        if not legal:
            check_end(hand)
            return illegal
        action = choose(hand, legal, rng)
        if rng.random() < copies:
            twin = hand.copy()
            before = hand.state_key()
            twin.apply(action)
            assert hand.state_key() == before  # the copy is independent
            hand.apply(action)
            assert hand.state_key() == twin.state_key()  # and applying is deterministic
        else:
            hand.apply(action)
    raise AssertionError(f"the hand did not end in {MAX_STEPS} steps")


# --- hypothesis ------------------------------------------------------------------------------------------------


@pytest.mark.rule(
    "CARD-1", "DEAL-4", "TURN-1", "TURN-3", "TURN-4", "KNOCK-2", "LAY-2", "DEAD-1", "SCORE-5", "SCORE-6", "VIS-1"
)
@given(
    seed=st.integers(0, 2**32 - 1),
    dealer=st.sampled_from([0, 1]),
    rules=rule_sets,
    player=st.sampled_from(sorted(PLAYERS)),
    choices=st.integers(0, 2**32 - 1),
)
def test_random_hands_under_random_rule_sets_keep_every_invariant(
    seed: int, dealer: int, rules: RuleSet, player: str, choices: int
) -> None:
    hand = Hand.deal(rules, seed=seed, dealer=dealer)
    play_out(hand, random.Random(choices), player, probes=4, observe=1.0, copies=0.2)


@pytest.mark.rule("TURN-1", "TURN-2")
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(CONFIGS)), choices=st.integers(0, 2**32 - 1))
def test_every_legal_action_applies_and_nothing_else_does(seed: int, rules: str, choices: int) -> None:
    """At every step every listed action applies (on a copy), and ``is_legal`` agrees with the list for every
    draw, pass, take, decline and big gin of the seat to act (and some of the other seat's), and for discards
    and knocks of each card the seat to act holds and of some it does not.
    """
    hand = Hand.deal(CONFIGS[rules], seed=seed, dealer=seed % 2)
    rng = random.Random(choices)
    simple = [
        make(seat) for seat in (0, 1) for make in (PassUpcard, TakeUpcard, DrawStock, DrawDiscard, BigGin, DeclineWall)
    ]
    while (seat := hand.to_act) is not None:
        legal = hand.legal_actions()
        for action in legal:
            hand.copy().apply(action)
        others = [a for a in simple if a.seat == seat or rng.random() < 0.1]
        some = [*hand.cards_of(seat), *rng.sample(DECK, 6)]
        for action in [*others, *(kind(seat, card) for card in some for kind in (Discard, Knock))]:
            assert hand.is_legal(action) == (action in legal), action
        hand.apply(sensible(hand, legal, rng) if rng.random() < 0.7 else eager(hand, legal, rng))
    assert hand.legal_actions() == []
    assert not any(hand.is_legal(a) for a in simple)


# --- bulk: seeded loops over every configuration ----------------------------------------------------------------

BULK_HANDS = 150


@pytest.mark.rule(
    "CARD-1",
    "DEAL-2",
    "OFFER-4",
    "TURN-1",
    "TURN-3",
    "TURN-4",
    "KNOCK-1",
    "KNOCK-2",
    "KNOCK-5",
    "KNOCK-6",
    "OKLA-1",
    "OKLA-2",
    "OKLA-4",
    "LAY-2",
    "DEAD-1",
    "DEAD-2",
    "DEAD-3",
    "SCORE-1",
    "SCORE-2",
    "SCORE-3",
    "SCORE-5",
    "SCORE-6",
    "VIS-1",
)
@pytest.mark.parametrize("config", sorted(CONFIGS))
def test_many_seeded_hands_keep_every_invariant(config: str) -> None:
    rules = CONFIGS[config]
    endings: Counter[str] = Counter()
    illegal = 0
    for n in range(BULK_HANDS):
        seed = 10_000 * sorted(CONFIGS).index(config) + n
        rng = random.Random(seed)
        player = ["eager", "gin hunter", "uniform", "gin hunter"][n % 4]
        hand = Hand.deal(rules, seed=seed, dealer=n % 2)
        illegal += play_out(hand, rng, player, probes=1, observe=0.25, copies=0.05)
        result = hand.result
        assert result is not None
        endings[result.kind.value + (f" ({result.reason})" if result.reason else "")] += 1
    assert illegal > 2000
    # the players reach the endings the rule set allows, so every check above has run on each of them
    assert endings["gin"]
    if rules.knock_limit is KnockLimit.UPCARD or rules.knock_limit_value > 0:
        assert endings["knock"] and endings["undercut"]
    if config == "big gin":
        assert endings["big_gin"]
    if rules.wall_pickup_to_knock:
        assert endings["dead (last discard declined)"]
    elif rules.max_consecutive_discard_pickups is not None:
        assert endings["dead (pickup cap)"]
    else:
        assert endings["dead (stock)"]
    if not rules.undercut_on_tie:
        assert endings["tie"]


@pytest.mark.rule("DEAL-2", "TURN-1")
@pytest.mark.parametrize("config", ["standard", "everything"])
def test_the_same_seed_and_choices_give_the_same_hand(config: str) -> None:
    for n in range(20):
        logs = []
        for _ in range(2):
            hand = Hand.deal(CONFIGS[config], seed=n, dealer=n % 2)
            rng = random.Random(n)
            while not hand.is_over:
                hand.apply(eager(hand, hand.legal_actions(), rng))
            logs.append(tuple(hand.events))
        assert logs[0] == logs[1]
