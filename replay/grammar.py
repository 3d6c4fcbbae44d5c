"""The record grammar of a log, as data: which record kinds each reader state accepts, and where each leads.

Rules: LOG-4, LOG-6, LOG-10, LOG-11, LOG-12, LOG-20 (spec/log-format.md).

A reader is always *at* a state (``At``): where the game stands as far as the records go. Each state
accepts a few record kinds (``Kind``); a record moves the reader to one of the row's next states. Where a
row has several (a discard may pass the turn, offer the last discard or kill the hand), the reader's model
picks one — the engine in a strict replay, the public rules in a view's — and the driver
(``replay.replayer.drive``) checks the pick against the row. The hand and game states are the states of
``engine.fsm``'s two machines (``STANDS_FOR``); each row names the machine triggers its record stands for, and
``tests/replay/test_grammar.py`` checks the grammar against the machines' tables. The log adds its own
framing states: a shuffle commitment before its hand, the salt and the checkpoint after each result, and the
trailer after the game's end.

One grammar serves full logs and per-seat views: a view's records differ only in what they may hide — a
stock draw shows its card as a ``seen draw`` or not at all, an opponent's knock hides its card (a
``hidden knock``). ``classify`` reads those two kinds only in views.

The reader holds only its state (and the model its running totals), never the records behind it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from engine.fsm import MatchPhase, Phase
from replay.codec import (
    BIG_GIN,
    DECLINE,
    DISCARD_BASE,
    DRAW,
    KNOCK_BASE,
    KNOCK_HIDDEN,
    PASS,
    PICKUP,
    T_ABANDON,
    T_ABORT,
    T_ADVICE,
    T_AWAY,
    T_BACK,
    T_CHECKPOINT,
    T_CLAIM,
    T_COMMIT,
    T_CUT,
    T_DEAL,
    T_FAIR_COMMIT,
    T_FAIR_REVEAL,
    T_FORFEIT,
    T_GAME_OVER,
    T_HAND,
    T_LAYOFF,
    T_RESIGN,
    T_RESULT,
    T_REVEAL,
    T_SEAT_COMMITS,
    T_SEEDS,
    T_SEEN_DRAW,
    T_SPREAD,
    T_STATEMENT,
    T_TRAILER,
    TAKE,
)


class Kind(enum.Enum):
    """A record's kind, read from its form alone (spec/log-format.md, the table of records)."""

    PASS = "pass"
    TAKE = "take"
    DRAW = "draw"
    PICKUP = "pickup"
    DECLINE = "decline"
    BIG_GIN = "big gin"
    DISCARD = "discard"
    KNOCK = "knock"
    CUT = "cut"
    HAND = "hand"
    DEAL = "deal"
    SPREAD = "spread"
    LAYOFF = "layoff"
    ADVICE = "advice"
    RESULT = "result"
    GAME_OVER = "game over"
    CHECKPOINT = "checkpoint"
    TRAILER = "trailer"
    COMMIT = "commit"
    REVEAL = "reveal"
    FAIR_COMMIT = "server commitment"  #: a fair hand's commitment to the server's seed (LOG-20)
    SEEDS = "seeds"  #: a fair hand's seats' seeds (LOG-21)
    SEAT_COMMITS = "seat commitments"  #: a fair hand's seats' commitments, before its seeds (LOG-25)
    STATEMENT = "statement"  #: a seat's signed statement of what it saw, after the seeds (LOG-26)
    FAIR_REVEAL = "server seed"  #: a fair hand's server seed, revealed after its result (LOG-22)
    RESIGN = "resign"  #: a seat resigns (END-1)
    ABORT = "abort"  #: a seat aborts the game (END-2)
    FORFEIT = "forfeit"  #: the host declares a forfeit (END-3)
    CLAIM = "claim"  #: a seat claims the game against an away seat (END-4)
    AWAY = "away"  #: the host saw a seat leave the table (END-4)
    BACK = "back"  #: the host saw an away seat come back (END-4)
    ABANDON = "abandon"  #: the host ends a game nobody attends (END-6)
    SEEN_DRAW = "seen draw"  #: views only: the seat's own stock draw, with its card
    HIDDEN_KNOCK = "hidden knock"  #: views only: an opponent's knock, its card hidden
    BAD_CODE = "bad code"  #: an integer that is no action code (or a boolean)
    BAD_FORM = "bad form"  #: anything else that is no record

    __hash__ = object.__hash__  # members are singletons compared by identity; the default hashes the name


#: Kinds a player's action is written as (an action record, LOG-4); ``BAD_CODE`` is an action that is no action.
ACTIONS: frozenset[Kind] = frozenset(
    {Kind.PASS, Kind.TAKE, Kind.DRAW, Kind.PICKUP, Kind.DECLINE, Kind.BIG_GIN, Kind.DISCARD, Kind.KNOCK,
     Kind.SPREAD, Kind.LAYOFF, Kind.ADVICE, Kind.SEEN_DRAW, Kind.HIDDEN_KNOCK, Kind.BAD_CODE}
)  # fmt: skip
#: Kinds that end the game before the target (END-1 .. END-4), and the host's record of a seat's presence (END-4).
ENDINGS: frozenset[Kind] = frozenset({Kind.RESIGN, Kind.ABORT, Kind.FORFEIT, Kind.CLAIM, Kind.ABANDON})
PRESENCE: frozenset[Kind] = frozenset({Kind.AWAY, Kind.BACK})
#: Kinds only a per-seat view holds (LOG-11); in a full log their forms are no record.
VIEW_ONLY: frozenset[Kind] = frozenset({Kind.SEEN_DRAW, Kind.HIDDEN_KNOCK})


def _int_kinds(view: bool) -> tuple[Kind, ...]:
    out = [Kind.BAD_CODE] * (KNOCK_HIDDEN + 1)
    simple = {PASS: Kind.PASS, TAKE: Kind.TAKE, DRAW: Kind.DRAW, PICKUP: Kind.PICKUP, DECLINE: Kind.DECLINE,
              BIG_GIN: Kind.BIG_GIN}  # fmt: skip
    for code, kind in simple.items():
        out[code] = kind
    for i in range(52):
        out[DISCARD_BASE + i] = Kind.DISCARD
        out[KNOCK_BASE + i] = Kind.KNOCK
    if view:
        out[KNOCK_HIDDEN] = Kind.HIDDEN_KNOCK
    return tuple(out)


def _array_kinds(view: bool) -> tuple[Kind, ...]:
    by_type = {T_CUT: Kind.CUT, T_HAND: Kind.HAND, T_DEAL: Kind.DEAL, T_SPREAD: Kind.SPREAD, T_LAYOFF: Kind.LAYOFF,
               T_ADVICE: Kind.ADVICE, T_RESULT: Kind.RESULT, T_GAME_OVER: Kind.GAME_OVER,
               T_CHECKPOINT: Kind.CHECKPOINT, T_TRAILER: Kind.TRAILER, T_COMMIT: Kind.COMMIT,
               T_REVEAL: Kind.REVEAL, T_FAIR_COMMIT: Kind.FAIR_COMMIT, T_SEEDS: Kind.SEEDS,
               T_FAIR_REVEAL: Kind.FAIR_REVEAL, T_RESIGN: Kind.RESIGN, T_ABORT: Kind.ABORT,
               T_FORFEIT: Kind.FORFEIT, T_CLAIM: Kind.CLAIM, T_AWAY: Kind.AWAY, T_BACK: Kind.BACK,
               T_ABANDON: Kind.ABANDON, T_SEAT_COMMITS: Kind.SEAT_COMMITS,
               T_STATEMENT: Kind.STATEMENT}  # fmt: skip
    if view:
        by_type[T_SEEN_DRAW] = Kind.SEEN_DRAW
    return tuple(by_type.get(t, Kind.BAD_FORM) for t in range(T_STATEMENT + 1))


_INT_KINDS = {False: _int_kinds(False), True: _int_kinds(True)}
_ARRAY_KINDS = {False: _array_kinds(False), True: _array_kinds(True)}


def classify(record: Any, view: bool = False) -> Kind:
    """A record's kind, from its form: an integer by its code, an array by its first item (LOG-2).
    ``view``: read the two kinds only a per-seat view may hold (LOG-11).

    >>> classify(8 + 12).value, classify([8, b"..."]).value, classify(116).value, classify(116, view=True).value
    ('discard', 'checkpoint', 'bad code', 'hidden knock')
    """
    t = type(record)
    if t is int:
        codes = _INT_KINDS[view]
        return codes[record] if 0 <= record < len(codes) else Kind.BAD_CODE
    if t is list and record and type(record[0]) is int:
        types = _ARRAY_KINDS[view]
        return types[record[0]] if 0 <= record[0] < len(types) else Kind.BAD_FORM
    return Kind.BAD_CODE if t is bool else Kind.BAD_FORM


class At(enum.Enum):
    """Where a reader stands: a state of the game's machines (``STANDS_FOR``), or one of the log's own."""

    CUT = "cut"  #: the draw for the first deal
    COMMITTED = "committed"  #: a shuffle commitment read; its hand comes next (LOG-10)
    FAIR_COMMITTED = "fair_committed"  #: a fair hand's server commitment read; the seats' seeds come next (LOG-20)
    SEATS_COMMITTED = "seats_committed"  #: a fair hand's seats' commitments read; its seeds come next (LOG-25)
    SEEDED = "seeded"  #: a fair hand's seeds read; (the first hand's draw, then) its hand comes next (LOG-20)
    DEAL = "deal"  #: a hand record read; its deal comes next
    UPCARD_OFFER = "upcard_offer"
    DRAW = "draw"
    DISCARD = "discard"
    WALL = "wall"
    KNOCK = "knock"
    LAYOFF = "layoff"
    SCORE = "score"  #: the hand is scored: its result comes next
    DEAD_HAND = "dead_hand"  #: the hand is dead: its result comes next
    HAND_OVER = "hand_over"  #: the result read: (the salt, LOG-10, then) the checkpoint comes next (LOG-6)
    REVEALED = "revealed"  #: the salt read: the checkpoint comes next
    ROTATE = "rotate"  #: between hands: the next hand (or its commitment), or the game's end record
    ENDED = "ended"  #: the game ended before the target (END-1 .. END-4): its end record comes next
    GAME_OVER = "game_over"  #: the game's end read: the trailer comes next
    END = "end"  #: the trailer read: nothing may follow (LOG-7)

    __hash__ = object.__hash__


#: What each reader state means, in words (``spec/log-grammar.json`` publishes them with the rows).
MEANING: dict[At, str] = {
    At.CUT: "before the first hand: the draw for the first deal (a fair log: the first hand's seeds first)",
    At.COMMITTED: "a shuffle commitment read: its hand comes next (LOG-10)",
    At.FAIR_COMMITTED: "a fair hand's server commitment read: its seats' commitments (LOG-25) or seeds next (LOG-20)",
    At.SEATS_COMMITTED: "a fair hand's seats' commitments read: its seeds come next (LOG-25)",
    At.SEEDED: "a fair hand's seeds read: (its seats' statements, LOG-26; the first hand's draw, then) its hand next",
    At.DEAL: "a hand record read: its deal comes next",
    At.UPCARD_OFFER: "the first upcard is offered (OFFER-1, OFFER-2)",
    At.DRAW: "the seat to act draws (TURN-1)",
    At.DISCARD: "the seat to act discards, knocks or declares big gin (TURN-1)",
    At.WALL: "the last discard is offered under DEAD-2",
    At.KNOCK: "the knocker spreads (KNOCK-4)",
    At.LAYOFF: "the defender answers the spread (LAY-5)",
    At.SCORE: "the showdown is over: the hand's result comes next",
    At.DEAD_HAND: "the hand is dead: its result comes next (DEAD-1 .. DEAD-3)",
    At.HAND_OVER: "the result read: (the salt, LOG-10, or the server seed, LOG-22, then) the checkpoint (LOG-6)",
    At.REVEALED: "the salt or the server seed read: the checkpoint comes next",
    At.ROTATE: "between hands: the next hand (or its commitment), or the game's end",
    At.ENDED: "the game ended before the target (END-1 .. END-4): the game's end comes next",
    At.GAME_OVER: "the game's end read: the trailer comes next",
    At.END: "the trailer read: nothing may follow (LOG-7)",
}

#: The machine states each reader state may stand for (``engine.fsm``: the match's phase, and the hand's). A hand's
#: end comes first in the engine (its result, and the game's end if the target is reached) and then in the log,
#: record by record: a reader that has read a result stands for either of the match's next states.
STANDS_FOR: dict[At, frozenset[enum.Enum]] = {
    At.CUT: frozenset({MatchPhase.CUT}),
    At.COMMITTED: frozenset({MatchPhase.CUT, MatchPhase.ROTATE}),
    At.FAIR_COMMITTED: frozenset({MatchPhase.CUT, MatchPhase.ROTATE}),
    At.SEATS_COMMITTED: frozenset({MatchPhase.CUT, MatchPhase.ROTATE}),
    At.SEEDED: frozenset({MatchPhase.CUT, MatchPhase.ROTATE}),
    At.DEAL: frozenset({MatchPhase.HAND, Phase.DEAL}),
    **{At(p.value): frozenset({MatchPhase.HAND, p}) for p in Phase if p not in (Phase.DEAL, Phase.HAND_OVER)},
    At.HAND_OVER: frozenset({MatchPhase.ROTATE, MatchPhase.GAME_OVER, Phase.HAND_OVER}),
    At.REVEALED: frozenset({MatchPhase.ROTATE, MatchPhase.GAME_OVER, Phase.HAND_OVER}),
    At.ROTATE: frozenset({MatchPhase.ROTATE, MatchPhase.GAME_OVER}),
    At.ENDED: frozenset({MatchPhase.GAME_OVER}),
    At.GAME_OVER: frozenset({MatchPhase.GAME_OVER}),
    At.END: frozenset({MatchPhase.GAME_OVER}),
}
#: The reader states in which a player is to act, by the hand's phase.
PLAYING: dict[Phase, At] = {
    Phase.UPCARD_OFFER: At.UPCARD_OFFER,
    Phase.DRAW: At.DRAW,
    Phase.DISCARD: At.DISCARD,
    Phase.WALL: At.WALL,
    Phase.KNOCK: At.KNOCK,
    Phase.LAYOFF: At.LAYOFF,
}


@dataclass(frozen=True, slots=True)
class Row:
    """In state ``state`` a record of kind ``kind`` is accepted and leads to one of ``next``; it stands for the
    machine triggers ``steps`` (none for the log's own framing records)."""

    state: At
    kind: Kind
    next: tuple[At, ...]
    steps: tuple[str, ...]


A, K = At, Kind
GRAMMAR: tuple[Row, ...] = (
    # The draw for the first deal, then each deal: (commit,) hand, deal (LOG-4, LOG-10).
    Row(A.CUT, K.CUT, (A.CUT,), ("draw_cut",)),
    Row(A.CUT, K.COMMIT, (A.COMMITTED,), ()),
    Row(A.CUT, K.HAND, (A.DEAL,), ("start",)),
    Row(A.COMMITTED, K.HAND, (A.DEAL,), ("start", "rotate")),
    # A fair hand (LOG-20): the server's commitment, the seats' seeds, (the first hand's draw,) the hand.
    Row(A.CUT, K.FAIR_COMMIT, (A.FAIR_COMMITTED,), ()),
    Row(A.FAIR_COMMITTED, K.SEEDS, (A.SEEDED,), ()),
    Row(A.FAIR_COMMITTED, K.SEAT_COMMITS, (A.SEATS_COMMITTED,), ()),
    Row(A.SEATS_COMMITTED, K.SEEDS, (A.SEEDED,), ()),
    Row(A.SEEDED, K.STATEMENT, (A.SEEDED,), ()),
    Row(A.SEEDED, K.CUT, (A.SEEDED,), ("draw_cut",)),
    Row(A.SEEDED, K.HAND, (A.DEAL,), ("start", "rotate")),
    Row(A.DEAL, K.DEAL, (A.UPCARD_OFFER,), ("deal",)),
    # Play: every player action of the hand machine, and the sitter's advice while the captain acts (THREE-7).
    Row(A.UPCARD_OFFER, K.PASS, (A.UPCARD_OFFER, A.DRAW), ("pass_upcard",)),
    Row(A.UPCARD_OFFER, K.TAKE, (A.DISCARD,), ("take_upcard",)),
    Row(A.DRAW, K.DRAW, (A.DISCARD,), ("draw_stock",)),
    Row(A.DRAW, K.SEEN_DRAW, (A.DISCARD,), ("draw_stock",)),
    Row(A.DRAW, K.PICKUP, (A.DISCARD,), ("draw_discard",)),
    Row(A.DISCARD, K.DISCARD, (A.DRAW, A.DEAD_HAND, A.WALL), ("discard",)),
    Row(A.DISCARD, K.KNOCK, (A.KNOCK,), ("knock",)),
    Row(A.DISCARD, K.HIDDEN_KNOCK, (A.KNOCK,), ("knock",)),
    Row(A.DISCARD, K.BIG_GIN, (A.KNOCK,), ("big_gin",)),
    Row(A.WALL, K.PICKUP, (A.DISCARD,), ("draw_discard",)),
    Row(A.WALL, K.DECLINE, (A.DEAD_HAND,), ("decline_wall",)),
    Row(A.KNOCK, K.SPREAD, (A.SCORE, A.LAYOFF), ("spread",)),
    Row(A.LAYOFF, K.LAYOFF, (A.SCORE,), ("lay_off",)),
    *(Row(s, K.ADVICE, (s,), ("advise",)) for s in PLAYING.values()),
    # The hand's end: its result, (the salt,) a checkpoint (LOG-4, LOG-6, LOG-10).
    Row(A.SCORE, K.RESULT, (A.HAND_OVER,), ("score", "end_hand")),
    Row(A.DEAD_HAND, K.RESULT, (A.HAND_OVER,), ("end_dead", "end_hand")),
    Row(A.HAND_OVER, K.REVEAL, (A.REVEALED,), ()),
    Row(A.HAND_OVER, K.FAIR_REVEAL, (A.REVEALED,), ()),
    Row(A.HAND_OVER, K.CHECKPOINT, (A.ROTATE,), ()),
    Row(A.REVEALED, K.CHECKPOINT, (A.ROTATE,), ()),
    # Between hands: the next deal, or the game's end and the trailer.
    Row(A.ROTATE, K.COMMIT, (A.COMMITTED,), ()),
    Row(A.ROTATE, K.FAIR_COMMIT, (A.FAIR_COMMITTED,), ()),
    Row(A.ROTATE, K.HAND, (A.DEAL,), ("rotate",)),
    Row(A.ROTATE, K.GAME_OVER, (A.GAME_OVER,), ("end_hand",)),  # the end the hand's result reached (game_won)
    Row(A.GAME_OVER, K.TRAILER, (A.END,), ()),
    # A game's end before the target, wherever a player may act or between hands, and the host's record of a seat's
    # leaving and coming back there (END-1 .. END-4): the game's end record and the trailer follow an ending.
    *(
        Row(s, k, (A.ENDED,), ("forfeit",) if k in (K.FORFEIT, K.ABANDON) else ("end_early",))
        for s in (*PLAYING.values(), A.ROTATE)
        for k in (K.RESIGN, K.ABORT, K.FORFEIT, K.CLAIM, K.ABANDON)
    ),
    *(Row(s, k, (s,), ("presence",)) for s in (*PLAYING.values(), A.ROTATE) for k in (K.AWAY, K.BACK)),
    Row(A.ENDED, K.GAME_OVER, (A.GAME_OVER,), ("end_early", "forfeit")),  # the end the ending reached
)
del A, K

#: The grammar as a lookup: state -> record kind -> row.
ACCEPTS: dict[At, dict[Kind, Row]] = {at: {r.kind: r for r in GRAMMAR if r.state is at} for at in At}
