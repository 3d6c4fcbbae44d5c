"""The observation encoder and the action codec shared by the environments. Rules: ENV-2, ENV-3, ENV-4.

The encoder reads one seat's view only — ``Match.observation(seat)`` or ``Hand.observation(seat)`` — and
never the hidden state (VIS-1): whatever a seat may not see cannot reach its vector.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engine import kernel
from engine.actions import (
    Action,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    PassUpcard,
    TakeUpcard,
    shown_mask,
)
from engine.cards import DECK, Card, to_mask
from engine.errors import IllegalAction
from engine.events import (
    BigGinDeclared,
    Discarded,
    DrewDiscard,
    DrewStock,
    Knocked,
    SpreadLaid,
    UpcardPassed,
    UpcardTaken,
    WallDeclined,
)
from engine.fsm import Phase
from engine.hand import multiplier_for
from engine.melds import value
from engine.visibility import HiddenDraw, HiddenKnock, MatchObservation, Observation, SeatBits, Seen
from knock.envs import spaces as T

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

_PHASE_SLOT = {Phase(name): i for i, name in enumerate(T.OBS_PHASES)}
_O = T.OFFSET
_HAND, _TOP, _REST = _O["hand"], _O["discard_top"], _O["discard_rest"]
_KNOWN, _TAKEN = _O["opponent_known"], _O["taken"]
_SPREAD, _SPREAD_DW, _DEFENCE = _O["spread_melds"], _O["spread_deadwood"], _O["defence"]
_PHASE, _TO_ACT, _SITTER, _DEALER, _KNOCKER = _O["phase"], _O["to_act"], _O["sitter"], _O["dealer"], _O["knocker"]
_STOCK, _LIMIT, _OPP_CARDS, _SCORES = _O["stock"], _O["knock_limit"], _O["opponent_cards"], _O["scores"]
_STOCK_ONLY, _MUST_KNOCK, _DOUBLED = _O["stock_only"], _O["must_knock"], _O["doubled"]
_OVER = _PHASE_SLOT[Phase.HAND_OVER]
_STOCK_FULL = 31.0
_BYTES = (T.OBS_SIZE + 7) // 8  #: the bytes of the 0/1 slots as one integer


def encode(
    view: Observation | None,
    *,
    to_act: bool,
    sitter: bool = False,
    scores: Sequence[float] = (),
    out: Vector | None = None,
) -> Vector:
    """The float32 observation vector of one seat's view (``spec/environments.md``, ENV-3).

    ``scores`` are the running scores / target from this seat on; ``sitter`` marks a sitter's view of the
    captain's hand (THREE-8).
    """
    if view is None:  # before the deal is complete (OpenSpiel's chance nodes): nothing is seen yet
        return _vector(to_act << _TO_ACT | sitter << _SITTER, None, scores, out)
    hand = known = 0
    for c in view.hand:
        hand |= c.bit
    for c in view.opponent_known:
        known |= c.bit
    return _encode(view, hand, known, to_act, sitter, scores, out)


def encode_bits(
    view: SeatBits, *, to_act: bool, sitter: bool = False, scores: Sequence[float] = (), out: Vector | None = None
) -> Vector:
    """``encode`` of the same view with its card sets as bitmasks (``engine.visibility.observe_bits``): the
    environments' fast path, the same vector (``tests/envs/test_encoding.py`` proves it). Rule: ENV-3."""
    return _encode(view, view.hand, view.opponent_known, to_act, sitter, scores, out)


def _encode(
    view: Observation | SeatBits,
    hand: int,
    known: int,
    to_act: bool,
    sitter: bool,
    scores: Sequence[float],
    out: Vector | None,
) -> Vector:
    """The vector of a view whose hand and opponent's known cards are the bitmasks ``hand`` and ``known``.

    Every 0/1 value is a bit of one integer, bit ``i`` for slot ``i`` (a card plane's bit ``c.index`` is
    ``c.bit``), unpacked by numpy in one go; the fractions are set after.
    """
    bits = hand | known << _KNOWN | to_act << _TO_ACT | sitter << _SITTER
    pile = view.discard_pile
    if pile:
        top = pile[-1].bit
        rest = 0
        for c in pile:
            rest |= c.bit
        bits |= top << _TOP | (rest ^ top) << _REST
    if view.taken is not None:
        bits |= view.taken.bit << _TAKEN
    if view.spread is not None:
        spread = dw = 0
        for m in view.spread.melds:
            for c in m.cards:
                spread |= c.bit
        for c in view.spread.deadwood_cards:
            dw |= c.bit
        bits |= spread << _SPREAD | dw << _SPREAD_DW
    if view.defence is not None:
        defence = 0
        for m in view.defence.melds:
            for c in m.cards:
                defence |= c.bit
        for lo in view.defence.layoffs:
            defence |= lo.card.bit
        bits |= defence << _DEFENCE
    bits |= 1 << (_PHASE + _PHASE_SLOT.get(view.phase, _OVER))
    if view.dealer == view.seat and not sitter:
        bits |= 1 << _DEALER
    if view.knocker is not None:
        bits |= 1 << (_KNOCKER + (view.knocker != view.seat))
    bits |= view.stock_only << _STOCK_ONLY | view.must_knock << _MUST_KNOCK
    if multiplier_for(view.rules, view.upcard) == 2:
        bits |= 1 << _DOUBLED
    return _vector(bits, view, scores, out)


def _vector(bits: int, view: Observation | SeatBits | None, scores: Sequence[float], out: Vector | None) -> Vector:
    """The vector whose slot ``i`` is bit ``i`` of ``bits``, with the view's fractions and the scores set."""
    raw = np.frombuffer(bits.to_bytes(_BYTES, "little"), np.uint8)
    v = np.unpackbits(raw, None, T.OBS_SIZE, "little").astype(np.float32)  # positional: half the call's cost
    if view is not None:
        v[_STOCK] = view.stock_size / _STOCK_FULL
        v[_LIMIT] = view.knock_limit / 10.0
        v[_OPP_CARDS] = view.opponent_hand_size / 11.0
    for i, s in enumerate(scores):
        v[_SCORES + i] = min(s, 1.0)
    if out is not None:
        out[:] = v
        return out
    return v


def encode_match(obs: MatchObservation, *, to_act: bool, target: int) -> Vector:
    """The vector of a seat's view of a game (ENV-3): its hand view, and the scores from its seat on."""
    return encode(obs.hand, to_act=to_act, sitter=obs.sitter == obs.seat, scores=relative(obs.scores, obs.seat, target))


def relative(scores: Sequence[int], seat: int, target: int) -> list[float]:
    """The running scores / target from ``seat`` on (seat, seat + 1, …)."""
    n = len(scores)
    return [scores[(seat + i) % n] / target for i in range(n)]


# --- actions ------------------------------------------------------------------------------------------

_SIMPLE_ID: dict[type, int] = {
    PassUpcard: T.PASS,
    TakeUpcard: T.TAKE,
    DrawStock: T.DRAW,
    DrawDiscard: T.PICKUP,
    BigGin: T.BIG_GIN,
    DeclineWall: T.DECLINE,
}
_SIMPLE_TYPE = {i: t for t, i in _SIMPLE_ID.items()}


def action_id(action: Action) -> int:
    """The id of a player's action (not a showdown choice: those are indexed per decision). Rule: ENV-2."""
    kind = type(action)
    if kind is Discard:
        return T.DISCARD + action.card.index  # type: ignore[union-attr]
    if kind is Knock:
        return T.KNOCK + action.card.index  # type: ignore[union-attr]
    return _SIMPLE_ID[kind]


def card_action(action_id: int, seat: int) -> Action | None:
    """The engine action an id names for ``seat``, or None for a showdown choice or no advice."""
    if T.DISCARD <= action_id < T.DISCARD + 52:
        return Discard(seat, DECK[action_id - T.DISCARD])
    if T.KNOCK <= action_id < T.KNOCK + 52:
        return Knock(seat, DECK[action_id - T.KNOCK])
    kind = _SIMPLE_TYPE.get(action_id)
    return None if kind is None else kind(seat)


def showdown_options(legal: Sequence[Action], hand: Sequence[Card]) -> list[Action]:
    """The showdown choices offered, at most ``SHOWDOWN_CHOICES``: the legal spreads or defences by the
    deadwood they leave, then in the engine's order. Rule: ENV-6."""
    held = to_mask(hand)

    def left(a: Action) -> int:
        return value(held & ~shown_mask(a))

    ranked = sorted(range(len(legal)), key=lambda i: (left(legal[i]), i))
    return [legal[i] for i in ranked[: T.SHOWDOWN_CHOICES]]


def legal_ids(legal: Sequence[Action], showdown: bool) -> dict[int, Action]:
    """The legal ids of a decision and the action each stands for: the showdown options when ``showdown``."""
    if showdown:
        return {T.CHOICE + k: a for k, a in enumerate(legal)}
    out: dict[int, Action] = {}
    for a in legal:  # action_id, inlined: this runs at every step
        kind = type(a)
        if kind is Discard:
            out[T.DISCARD + a.card.index] = a  # type: ignore[union-attr]
        elif kind is Knock:
            out[T.KNOCK + a.card.index] = a  # type: ignore[union-attr]
        else:
            out[_SIMPLE_ID[kind]] = a
    return out


def mask_of(ids: dict[int, Action] | Sequence[int], extra: Sequence[int] = ()) -> Mask:
    """The int8 action mask with 1 at ``ids`` and ``extra``. Rule: ENV-2."""
    bits = bytearray(T.ACTIONS)
    for i in ids:
        bits[i] = 1
    for i in extra:
        bits[i] = 1
    return np.frombuffer(bits, np.int8)


def refuse(action_id: int, seat: int, phase: str, reason: str) -> IllegalAction:
    """An action id the environment cannot take now (no engine action for it). Rule: ENV-2."""
    return kernel.illegal("ENV-2", reason, phase=phase, action=f"p{seat} action {action_id}")


# --- the information state (OpenSpiel, ENV-12) --------------------------------------------------------

#: The kinds of move a seat sees in a hand, in the order of their slots in a history block (ENV-12).
MOVE_KINDS: tuple[type, ...] = (
    UpcardPassed, UpcardTaken, DrewStock, HiddenDraw, DrewDiscard, Discarded, Knocked, HiddenKnock, BigGinDeclared,
    WallDeclined,
)  # fmt: skip
_KIND_SLOT = {kind: i for i, kind in enumerate(MOVE_KINDS)}
MOVE_BLOCK = 2 + len(MOVE_KINDS) + 1  #: who moved (this seat, the other), the kind, the card ((index + 1) / 52)
_MELD_SCALE = 4.0  #: spread planes hold (meld number + 1) / 4: at most three melds in a hand of eleven


def history_size(moves: int) -> int:
    """The size of the information-state tensor for hands of at most ``moves`` moves after the deal."""
    return T.OBS_SIZE + 52 + moves * MOVE_BLOCK


def encode_history(seen: Sequence[Seen], seat: int, observation: Vector, out: Vector) -> None:
    """The information-state tensor of ``seat`` (ENV-12): ``observation`` (its ENV-3 vector now), then a card
    plane of the knocker's spread by meld (meld k's cards hold (k + 1) / 4: the partition of the spread, which
    the ENV-3 planes merge), then one block per move the seat saw after the deal, in order (``seen``: its
    ``SeatLens`` view of the hand's events). A function of what the seat saw and did, and one to one with it."""
    out.fill(0.0)
    out[: T.OBS_SIZE] = observation
    spread = T.OBS_SIZE
    at = spread + 52
    for event in seen:
        slot = _KIND_SLOT.get(type(event))
        if slot is None:
            if isinstance(event, SpreadLaid):
                for k, meld in enumerate(event.melds):
                    for c in meld.cards:
                        out[spread + c.index] = (k + 1) / _MELD_SCALE
            continue  # the deal and the hand's start are in the observation; the hand's end is terminal
        out[at + (getattr(event, "seat") != seat)] = 1.0  # noqa: B009 -- every move kind has a seat
        out[at + 2 + slot] = 1.0
        card = getattr(event, "card", None)
        if card is not None:
            out[at + 2 + len(MOVE_KINDS)] = (card.index + 1) / 52.0
        at += MOVE_BLOCK
    assert at <= len(out), "more moves than the game's max_game_length allows"


def history_text(seen: Sequence[Seen], seat: int) -> str:
    """The information-state string of ``seat`` (ENV-12): every event of the hand as it saw it, in card
    notation (``SeatLens``: the deal with its own cards, hidden draws and knocks as such), in order."""
    return f"p{seat}: " + " | ".join(str(e) for e in seen)
