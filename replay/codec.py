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
from engine.errors import KnockError, render
from engine.events import (
    FORFEIT_REASONS,
    Abandoned,
    Aborted,
    Advised,
    BigGinDeclared,
    Claimed,
    CutDrawn,
    Dealt,
    DefenceLaid,
    Discarded,
    DrewDiscard,
    DrewStock,
    Forfeited,
    GameOver,
    HandDead,
    HandEnded,
    HandScored,
    HandStarted,
    Knocked,
    MatchEvent,
    Resigned,
    SeatAway,
    SeatBack,
    SpreadLaid,
    UpcardPassed,
    UpcardTaken,
    WallDeclined,
)
from engine.melds import Meld
from engine.scoring import ResultKind
from engine.showdown import Layoff
from replay import claims
from replay.claims import MAX_ARRAY as MAX_ARRAY  # the limits of LOG-2, one home (replay.claims)
from replay.claims import MAX_BIN as MAX_BIN
from replay.claims import MAX_DEPTH as MAX_DEPTH
from replay.claims import MAX_MAP as MAX_MAP
from replay.claims import MAX_TEXT as MAX_TEXT

FORMAT = "knock-log"
VERSION = (1, 0)  #: the version of an unsigned log (LOG-3)
SIGNED_VERSION = (2, 0)  #: the version of a signed log (LOG-17) or a fair one (LOG-20); a reader reads both majors
#: The wave's version step (spec/versions.md): so far a signed view that names its table and time (LOG-23). A writer
#: writes it only for a log that holds something of it; a reader reads all three majors.
NAMED_VERSION = (3, 0)
SIGNATURE_SIZE = 64  #: an Ed25519 signature (LOG-18)

# Bare-integer records: the simple actions, and discards/knocks with the card folded in.
PASS, TAKE, DRAW, PICKUP, DECLINE, BIG_GIN = 0, 1, 2, 3, 4, 5
DISCARD_BASE, KNOCK_BASE = 8, 64
# Array records: [type, ...].
T_CUT, T_HAND, T_DEAL, T_SPREAD, T_LAYOFF, T_ADVICE, T_RESULT, T_GAME_OVER, T_CHECKPOINT, T_TRAILER = range(10)
T_COMMIT, T_REVEAL = 10, 11
# Fair dealing (LOG-20, version 2.0): a hand's server commitment, the seats' seeds, the server's seed revealed.
T_FAIR_COMMIT, T_SEEDS, T_FAIR_REVEAL = 13, 14, 15
# Per-seat views only (LOG-11): the viewer's own stock draw with its card, an opponent's knock with its card
# hidden, and the code of a card the seat has not seen.
T_SEEN_DRAW, KNOCK_HIDDEN, UNKNOWN = 12, KNOCK_BASE + 52, 255
# A game's end before the target and the host's record of a seat's absence (END-1 .. END-4; version 3.0, LOG-24).
T_RESIGN, T_ABORT, T_FORFEIT, T_CLAIM, T_AWAY, T_BACK = 16, 17, 18, 19, 20, 21
# The host's end of a game nobody attends (END-6; version 3.0, LOG-24).
T_ABANDON = 22
# A fair hand's seats' commitments, made before any seed is revealed (DEAL-11; version 3.0, LOG-25).
T_SEAT_COMMITS = 23
# A seat's signed statement of what it saw when it revealed its seed (DEAL-12; version 3.0, LOG-26).
T_STATEMENT = 24
#: The records of the wave's step (spec/versions.md): in a log of version 3.0 only (LOG-24).
WAVE_RECORDS = frozenset((T_RESIGN, T_ABORT, T_FORFEIT, T_CLAIM, T_AWAY, T_BACK, T_ABANDON))
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
    T_SEEN_DRAW: "seen draw",
    T_FAIR_COMMIT: "server commitment",
    T_SEEDS: "seeds",
    T_FAIR_REVEAL: "server seed",
    T_RESIGN: "resign",
    T_ABORT: "abort",
    T_FORFEIT: "forfeit",
    T_CLAIM: "claim",
    T_AWAY: "away",
    T_BACK: "back",
    T_ABANDON: "abandon",
    T_SEAT_COMMITS: "seat commitments",
    T_STATEMENT: "statement",
}
KINDS = [k.value for k in ResultKind]  # gin, big_gin, knock, undercut, tie, dead
REASONS = ["", "stock", "pickup cap", "last discard declined"]
DIGEST_SIZE = 32

Record = int | list[Any]

#: The format's limits (LOG-2): a writer never goes beyond them and a reader refuses what does, so no input can
#: make a reader use unbounded memory. Every legal record is far inside them (the largest, a layoff, is about
#: 200 bytes; a deal 55).
MAX_HEADER_BYTES = 1 << 16  #: the header's stored size
MAX_RECORD_BYTES = 1 << 10  #: a record's stored size
CHUNK = 1 << 16  #: bytes read from a stream at a time

LIMITS: dict[str, int] = {
    "max_buffer_size": MAX_HEADER_BYTES + CHUNK,  # what is fed and not yet decoded: one value and one chunk
    "max_str_len": MAX_TEXT,
    "max_bin_len": MAX_BIN,
    "max_array_len": MAX_ARRAY,
    "max_map_len": MAX_MAP,
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


def _text_keys(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """A map as the format allows it: text keys, each once (LOG-1). Called by msgpack for every map."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if type(key) is not str:
            raise CodecError(f"a map key must be text, not {render(key)}")
        if key in out:
            raise CodecError(f"the map key {key!r:.60} appears twice")
        out[key] = value
    return out


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether arrays and maps nest more than ``limit`` levels in ``value`` (checked without recursion)."""
    level: list[Any] = [value]
    for _ in range(limit):
        level = [
            item
            for v in level
            for item in (v if type(v) is list else v.values() if type(v) is dict else ())
            if type(item) is list or type(item) is dict
        ]
        if not level:
            return False
    return True


def unpacked(stream: BinaryIO, chunk: int = CHUNK) -> Iterator[tuple[Any, bytes]]:
    """Decode a stream of msgpack values, yielding each with its exact stored bytes, in bounded memory.

    The first value is taken as the header, the others as records, for the format's limits (LOG-2): sizes, and
    the header's nesting depth (a record's nesting is bounded by its form: ``replay.forms.check_form``).

    Raises:
        CodecError: bytes that are not msgpack, or a value over the format's limits; ``EOFError`` on a value
            cut short at the end.
    """
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=True, use_list=True, object_pairs_hook=_text_keys,
                                **LIMITS)  # fmt: skip
    pending = b""  # the bytes fed and not yet yielded start at pending[start]
    start = 0
    base = 0  # stream offset of pending[0]
    eof = False
    limit, header = MAX_HEADER_BYTES, True
    while True:
        try:
            value = unpacker.unpack()
        except msgpack.OutOfData:
            if eof:
                if len(pending) > start:
                    over = claims.over_limit(pending[start:], limit)  # a claim over a limit is refused, cut or not
                    if over is not None:
                        raise CodecError(f"not a msgpack value within the format's limits: {over}") from None
                    raise EOFError(f"{len(pending) - start} bytes of an incomplete value at the end") from None
                return
            if len(pending) - start > limit:
                raise CodecError(f"a value of more than {limit} bytes (the format's limit)") from None
            data = stream.read(chunk)
            if not data:
                eof = True
                continue
            pending, base, start = pending[start:] + data, base + start, 0
            try:
                unpacker.feed(data)
            except msgpack.BufferFull:
                raise CodecError(f"a value of more than {limit} bytes (the format's limit)") from None
            continue
        except CodecError:
            raise
        except Exception as err:  # every msgpack error: the library's errors never leak to callers
            raise CodecError(f"not a msgpack value within the format's limits: {_problem(err)}") from None
        end = unpacker.tell() - base
        raw = pending[start:end]
        start = end
        if len(raw) > limit:
            raise CodecError(f"a value of {len(raw)} bytes, over the format's limit of {limit}")
        if header:  # a record's depth is bounded by its form (replay.forms)
            if too_deep(value):
                raise CodecError(f"a value nests arrays or maps more than {MAX_DEPTH} deep")
            limit, header = MAX_RECORD_BYTES, False
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
        case Resigned(seat=seat):
            return [T_RESIGN, seat]
        case Aborted(seat=seat):
            return [T_ABORT, seat]
        case Forfeited(seat=seat, reason=why):
            return [T_FORFEIT, seat, FORFEIT_REASONS.index(why)]
        case Claimed(seat=seat, absent=absent, at=at):
            return [T_CLAIM, seat, absent, at]
        case SeatAway(seat=seat, at=at):
            return [T_AWAY, seat, at]
        case SeatBack(seat=seat, at=at):
            return [T_BACK, seat, at]
        case Abandoned(at=at):
            return [T_ABANDON, at]
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
    raise CodecError(f"not an action record: {render(record)}")


def record_type(record: Any) -> str:
    """A record's kind, for messages: ``action``, ``cut``, ``deal`` …"""
    if isinstance(record, int) and not isinstance(record, bool):
        return "action"
    if isinstance(record, list) and record and isinstance(record[0], int) and record[0] in RECORD_NAMES:
        return RECORD_NAMES[record[0]]
    return "unknown"


def _problem(err: Exception) -> str:
    """What msgpack refused, in words (its own messages are Python text: exception names and reprs)."""
    if isinstance(err, UnicodeDecodeError):
        return f"text that is not UTF-8 (byte 0x{err.object[err.start]:02x})"
    text = str(err)
    if "map key" in text:
        return "a map key that is not text"
    if "depth" in text.lower() or "recursion" in text.lower():
        return "values nested too deep"
    return "bytes that do not decode"
