"""The log's records: engine events to compact msgpack values and back (spec/log-format.md).

The only module that imports msgpack. Records are small: a player's simple action is one integer
(one byte on the wire), cards are their index 0..51, the deck order is 52 raw bytes.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

import msgpack

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
)
from engine.cards import Card
from engine.errors import KnockError
from engine.events import (
    Advised,
    BigGinDeclared,
    CutDrawn,
    Dealt,
    DefenceLaid,
    Discarded,
    DrewDiscard,
    DrewStock,
    GameOver,
    HandDead,
    HandEnded,
    HandScored,
    HandStarted,
    Knocked,
    MatchEvent,
    SpreadLaid,
    UpcardPassed,
    UpcardTaken,
    WallDeclined,
)
from engine.melds import Meld
from engine.scoring import ResultKind
from engine.showdown import Layoff

FORMAT = "knock-log"
VERSION = (1, 0)

# Bare-integer records: the simple actions, and discards/knocks with the card folded in.
PASS, TAKE, DRAW, PICKUP, DECLINE, BIG_GIN = 0, 1, 2, 3, 4, 5
DISCARD_BASE, KNOCK_BASE = 8, 64
# Array records: [type, ...].
T_CUT, T_HAND, T_DEAL, T_SPREAD, T_LAYOFF, T_ADVICE, T_RESULT, T_GAME_OVER, T_CHECKPOINT, T_TRAILER = range(10)
T_COMMIT, T_REVEAL = 10, 11
RECORD_NAMES = {
    T_CUT: "cut",
    T_HAND: "hand",
    T_DEAL: "deal",
    T_SPREAD: "spread",
    T_LAYOFF: "layoff",
    T_ADVICE: "advice",
    T_RESULT: "result",
    T_GAME_OVER: "game-over",
    T_CHECKPOINT: "checkpoint",
    T_TRAILER: "trailer",
    T_COMMIT: "commit",
    T_REVEAL: "reveal",
}
KINDS = [k.value for k in ResultKind]  # gin, big_gin, knock, undercut, tie, dead
REASONS = ["", "stock", "pickup cap", "last discard declined"]
DIGEST_SIZE = 32

Record = int | list[Any]

# Bounds on what the reader accepts: a hostile file cannot make it allocate more than these.
LIMITS: dict[str, int] = {
    "max_buffer_size": 1 << 20,
    "max_str_len": 4096,
    "max_bin_len": 64,
    "max_array_len": 256,
    "max_map_len": 64,
    "max_ext_len": 0,
}


class CodecError(KnockError, ValueError):
    """A value that is not a well-formed record (the reader adds the record index)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"LOG-2: {reason}", rule="LOG-2")
        self.reason = reason


def pack(value: Any) -> bytes:
    """The msgpack bytes of a header or record as Knock writes them: smallest integer forms, ``bin`` for bytes,
    maps in insertion order, so identical games give identical bytes. Rule: LOG-9.
    """
    if type(value) is int and 0 <= value < 128:  # a positive fixint is its own byte: most action records
        return _FIXINT[value]
    out = msgpack.packb(value, use_bin_type=True)
    assert isinstance(out, bytes)
    return out


_FIXINT = tuple(bytes((i,)) for i in range(128))


def chain(previous: bytes, record_bytes: bytes) -> bytes:
    """The next link of the digest chain: SHA-256 of the previous digest and the record's stored bytes."""
    return hashlib.sha256(previous + record_bytes).digest()


def header_digest(header_bytes: bytes) -> bytes:
    return hashlib.sha256(header_bytes).digest()


def commitment(deck: bytes, salt: bytes) -> bytes:
    """The shuffle commitment: SHA-256 of the deck's 52 card codes followed by the salt. Rule: LOG-10."""
    return hashlib.sha256(deck + salt).digest()


def salt_for(key: bytes, number: int) -> bytes:
    """A hand's salt, derived from the writer's secret key and the hand number (so logs stay reproducible)."""
    return hmac.new(key, b"knock-salt:%d" % number, hashlib.sha256).digest()[:16]


def unpacked(stream: BinaryIO, chunk: int = 1 << 16) -> Iterator[tuple[Any, bytes]]:
    """Decode a stream of msgpack values, yielding each with its exact stored bytes, in constant memory.

    Raises:
        CodecError: bytes that are not msgpack, or a value over the limits; ``EOFError`` on a partial value.
    """
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, use_list=True, **LIMITS)
    pending = b""  # the bytes fed and not yet yielded start at pending[start]
    start = 0
    base = 0  # stream offset of pending[0]
    eof = False
    while True:
        try:
            value = unpacker.unpack()
        except msgpack.OutOfData:
            if eof:
                if len(pending) > start:
                    raise EOFError(f"{len(pending) - start} bytes of an incomplete record at the end") from None
                return
            data = stream.read(chunk)
            if not data:
                eof = True
                continue
            pending, base, start = pending[start:] + data, base + start, 0
            try:
                unpacker.feed(data)
            except msgpack.BufferFull:
                raise CodecError("a record is larger than the reader allows") from None
            continue
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, TypeError) as err:
            raise CodecError(f"not a msgpack value ({type(err).__name__}: {err})") from None
        end = unpacker.tell() - base
        raw = pending[start:end]
        start = end
        yield value, raw


# --- events to records -------------------------------------------------------------------------


def _card_codes(cs: tuple[Card, ...]) -> bytes:
    return bytes(c.index for c in cs)


def deck_of(dealt: Dealt) -> tuple[Card, ...]:
    """The deck order a ``Dealt`` came from (DEAL-3): alternately non-dealer and dealer, the upcard, the stock."""
    nd = dealt.hands[0] if dealt.seats[0] != dealt.dealer else dealt.hands[1]
    d = dealt.hands[1] if dealt.seats[0] != dealt.dealer else dealt.hands[0]
    deck: list[Card] = []
    for a, b in zip(nd, d, strict=True):
        deck += [a, b]
    return (*deck, dealt.upcard, *dealt.stock)


def _spread(melds: tuple[Meld, ...]) -> Record:
    return [T_SPREAD, *(_card_codes(m.cards) for m in melds)]


def _layoff(melds: tuple[Meld, ...], layoffs: tuple[Layoff, ...]) -> Record:
    return [
        T_LAYOFF,
        [_card_codes(m.cards) for m in melds],
        [[lo.card.index, _card_codes(lo.onto.cards)] for lo in layoffs],
    ]


def action_record(action: Action) -> Record:
    match action:
        case PassUpcard():
            return PASS
        case TakeUpcard():
            return TAKE
        case DrawStock():
            return DRAW
        case DrawDiscard():
            return PICKUP
        case DeclineWall():
            return DECLINE
        case BigGin():
            return BIG_GIN
        case Discard(card=c):
            return DISCARD_BASE + c.index
        case Knock(card=c):
            return KNOCK_BASE + c.index
        case Spread(melds=ms):
            return _spread(ms)
        case LayOff(melds=ms, layoffs=los):
            return _layoff(ms, los)


def event_record(event: MatchEvent) -> Record | None:
    """The record of an event, or None for an event folded into another record (hand results into RESULT)."""
    match event:
        case Discarded(card=c):  # the commonest first
            return DISCARD_BASE + c.index
        case DrewStock():
            return DRAW
        case DrewDiscard():
            return PICKUP
        case CutDrawn(seats=seats, cards=cs):
            return [T_CUT, list(seats), _card_codes(cs)]
        case HandStarted(number=n, dealer=d, seats=(a, b), sitter=s):
            return [T_HAND, n, d, a, b, s]
        case Dealt():
            return [T_DEAL, _card_codes(deck_of(event))]
        case UpcardPassed():
            return PASS
        case UpcardTaken():
            return TAKE
        case WallDeclined():
            return DECLINE
        case BigGinDeclared():
            return BIG_GIN
        case Knocked(card=c):
            return KNOCK_BASE + c.index
        case SpreadLaid(melds=ms):
            return _spread(ms)
        case DefenceLaid(melds=ms, layoffs=los):
            return _layoff(ms, los)
        case Advised(seat=seat, suggestion=a):
            return [T_ADVICE, seat, action_record(a)]
        case HandScored() | HandDead():
            return None
        case HandEnded(number=n, result=r, scores=scores):
            dw = r.deadwood or (None, None)
            return [
                T_RESULT, n, KINDS.index(r.kind.value), r.winner, r.points, r.knocker,
                dw[0], dw[1], r.multiplier, REASONS.index(r.reason), list(scores),
            ]  # fmt: skip
        case GameOver(winner=w, totals=t):
            return [T_GAME_OVER, w, list(t)]
    raise AssertionError(f"no record for {event!r}")


# --- records to actions -------------------------------------------------------------------------


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, bytes) or any(b > 51 for b in value):
        raise CodecError(f"{what} must be card codes 0..51 as bytes")
    return tuple(Card.from_index(b) for b in value)


def _meld(value: Any) -> Meld:
    """A meld from its card codes; cards that are no meld raise ``InvalidMeld`` (MELD-1, MELD-2): the record is
    well formed, the action it asks for is illegal."""
    return Meld.of(_cards(value, "a meld"))


SIMPLE_ACTIONS: dict[int, Callable[[int], Action]] = {
    PASS: PassUpcard, TAKE: TakeUpcard, DRAW: DrawStock, PICKUP: DrawDiscard, DECLINE: DeclineWall, BIG_GIN: BigGin,
}  # fmt: skip


def action_of(record: Record, seat: int) -> Action:
    """The action a record asks for, by ``seat``.

    Raises:
        CodecError: the record is not an action record.
        InvalidMeld: a spread or layoff record whose cards are not melds (the replayer refuses the action).
    """
    if isinstance(record, bool):
        raise CodecError("a record is an integer or an array")
    if isinstance(record, int):
        if DISCARD_BASE <= record < DISCARD_BASE + 52:  # the commonest first
            return Discard(seat, Card.from_index(record - DISCARD_BASE))
        simple = SIMPLE_ACTIONS.get(record)
        if simple is not None:
            return simple(seat)
        if KNOCK_BASE <= record < KNOCK_BASE + 52:
            return Knock(seat, Card.from_index(record - KNOCK_BASE))
        raise CodecError(f"unknown action code {record}")
    if isinstance(record, list) and record and record[0] == T_SPREAD:
        return Spread(seat, tuple(_meld(m) for m in record[1:]))
    if isinstance(record, list) and len(record) == 3 and record[0] == T_LAYOFF:
        melds, layoffs = record[1], record[2]
        if not isinstance(melds, list) or not isinstance(layoffs, list):
            raise CodecError("a layoff record holds a list of melds and a list of layoffs")
        los = []
        for lo in layoffs:
            if not isinstance(lo, list) or len(lo) != 2 or not isinstance(lo[0], int) or not 0 <= lo[0] < 52:
                raise CodecError("a layoff is [card code, meld]")
            los.append(Layoff(Card.from_index(lo[0]), _meld(lo[1])))
        return LayOff(seat, tuple(_meld(m) for m in melds), tuple(los))
    raise CodecError(f"not an action record: {record!r:.80}")


def record_type(record: Any) -> str:
    """A record's kind, for messages: ``action``, ``cut``, ``deal`` …"""
    if isinstance(record, int) and not isinstance(record, bool):
        return "action"
    if isinstance(record, list) and record and isinstance(record[0], int) and record[0] in RECORD_NAMES:
        return RECORD_NAMES[record[0]]
    return "unknown"
