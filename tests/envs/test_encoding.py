"""The observation encoder's fast paths (ENV-3, VIS-1): the environments encode a seat's view from its card
bitmasks (``engine.visibility.observe_bits``, ``knock.envs.encoding.encode_bits``) and pack every 0/1 slot as
one integer; both must give, byte for byte, the vector of a plain reading of ``spec/environments.md``'s
observation table, one card at a time, from the seat's ``Observation``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from engine.cards import Suit, to_mask
from engine.fsm import Phase
from engine.hand import Hand
from engine.visibility import Observation, observe_bits, observe_hand
from knock.envs import encoding
from knock.envs import spaces as T
from knock.envs.episode import Episode, split_options

SCORES = {2: [0.25, 1.5], 3: [0.0, 0.5, 1.0]}  #: running scores / target, one above 1 (capped)


def reference(view: Observation | None, *, to_act: bool, sitter: bool = False, scores: Sequence[float] = ()) -> Any:
    """The vector, slot by slot and card by card, as the observation table says."""
    o = T.OFFSET
    v = np.zeros(T.OBS_SIZE, np.float32)
    v[o["to_act"]] = to_act
    v[o["sitter"]] = sitter
    for i, s in enumerate(scores):
        v[o["scores"] + i] = min(s, 1.0)
    if view is None:
        return v
    for c in view.hand:
        v[o["hand"] + c.index] = 1
    if view.discard_pile:
        v[o["discard_top"] + view.discard_pile[-1].index] = 1
        for c in view.discard_pile[:-1]:
            v[o["discard_rest"] + c.index] = 1
    for c in view.opponent_known:
        v[o["opponent_known"] + c.index] = 1
    if view.taken is not None:
        v[o["taken"] + view.taken.index] = 1
    if view.spread is not None:
        for c in (c for m in view.spread.melds for c in m.cards):
            v[o["spread_melds"] + c.index] = 1
        for c in view.spread.deadwood_cards:
            v[o["spread_deadwood"] + c.index] = 1
    if view.defence is not None:
        for c in (c for m in view.defence.melds for c in m.cards):
            v[o["defence"] + c.index] = 1
        for lo in view.defence.layoffs:
            v[o["defence"] + lo.card.index] = 1
    phases = list(T.OBS_PHASES)
    v[o["phase"] + (phases.index(view.phase.value) if view.phase.value in phases else phases.index("hand_over"))] = 1
    v[o["dealer"]] = view.dealer == view.seat and not sitter
    if view.knocker is not None:
        v[o["knocker"] + (view.knocker != view.seat)] = 1
    v[o["stock"]] = view.stock_size / 31
    v[o["knock_limit"]] = view.knock_limit / 10
    v[o["opponent_cards"]] = view.opponent_hand_size / 11
    v[o["stock_only"]] = view.stock_only
    v[o["must_knock"]] = view.must_knock
    v[o["doubled"]] = view.rules.spades_double and view.upcard.suit is Suit.SPADES
    return v


def hands_played(preset: str, **options: Any) -> list[Hand]:
    """Every hand state of random legal play through one-hand episodes, knocking whenever it may (a copy at
    each step, the finished hand's too)."""
    rules, env = split_options(preset, options)
    episode = Episode(rules, showdown=env.get("showdown", "auto"))
    rng = random.Random(5)
    out: list[Hand] = []
    for seed in range(12):
        episode.reset(seed)
        while True:
            hand = episode.game.hand
            assert hand is not None
            out.append(hand.copy())
            seat = episode.seat_to_act()
            if seat is None:
                break
            ids = np.flatnonzero(episode.mask(seat))
            knocks = ids[(ids >= T.KNOCK) & (ids < T.KNOCK + 52)]
            ids = knocks if len(knocks) else ids
            episode.step(int(ids[int(rng.random() * len(ids))]))
    return out


@pytest.mark.rule("ENV-3", "VIS-1", "VIS-2")
@pytest.mark.parametrize(
    ("preset", "options"),
    [("standard", {"showdown": "choice"}), ("oklahoma", {"spades_double": True}), ("three_handed", {})],
)
def test_encode_bits_is_the_reference_vector(preset: str, options: dict[str, Any]) -> None:
    """``observe_bits`` holds ``observe_hand``'s view with its cards as bitmasks, and both encoders give the
    reference vector of it, at every state of random games (the showdown's phases included)."""
    phases: set[Phase] = set()
    for hand in hands_played(preset, **options):
        for seat in hand.seats:
            view, bits = observe_hand(hand, seat), observe_bits(hand, seat)
            assert to_mask(view.hand) == bits.hand
            assert to_mask(view.opponent_known) == bits.opponent_known
            for name in Observation.__slots__:
                if name not in ("hand", "opponent_known", "scores"):  # a hand seen on its own: no game scores
                    assert getattr(view, name) == getattr(bits, name), name
            for to_act in (True, False):
                scores = SCORES[hand.rules.players]
                want = reference(view, to_act=to_act, scores=scores).tobytes()
                assert encoding.encode(view, to_act=to_act, scores=scores).tobytes() == want
                assert encoding.encode_bits(bits, to_act=to_act, scores=scores).tobytes() == want
                assert (
                    encoding.encode(view, to_act=to_act, sitter=True).tobytes()
                    == reference(view, to_act=to_act, sitter=True).tobytes()
                )
            phases.add(hand.phase)
    assert Phase.HAND_OVER in phases
    if options.get("showdown") == "choice":
        assert {Phase.KNOCK, Phase.LAYOFF} <= phases


@pytest.mark.rule("ENV-3")
def test_encode_before_the_deal() -> None:
    for to_act in (True, False):
        assert (
            encoding.encode(None, to_act=to_act, sitter=True).tobytes()
            == reference(None, to_act=to_act, sitter=True).tobytes()
        )
