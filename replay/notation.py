"""Records in words: a log record as a person reads it, cards in their notation (``Kh``), actions in their text form.

For error messages and transcripts: ``record_text([3, b"\\x00\\x01\\x02"])`` is ``spread Ac-2c-3c``, never the
raw bytes. It takes any value (a record may be damaged or hostile) and never raises.

>>> record_text(8 + 51), record_text([4, [b"\\x08\\x15\\x22"], [[6, b"\\x03\\x04\\x05"]]])
('discard Ks', 'layoff 9c-9d-9h 7c>4c-5c-6c')
>>> record_text([4, [b"\x05"], 6])  # a malformed record: its cards still in their notation
'[4, [6c], 6]'
>>> record_text([6, 1, 2, 0, 39, 0, 7, 46, 1, 0, [39, 0]])
'result of hand 1: knock by p0, p0 wins 39 (deadwood 7 and 46), scores 39-0'
"""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from engine.errors import render
from replay.codec import (
    BIG_GIN,
    DECLINE,
    DISCARD_BASE,
    DRAW,
    KINDS,
    KNOCK_BASE,
    KNOCK_HIDDEN,
    PASS,
    PICKUP,
    REASONS,
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
    T_SEEDS,
    T_SEEN_DRAW,
    T_SPREAD,
    T_TRAILER,
    TAKE,
    UNKNOWN,
)

SIMPLE = {PASS: "pass", TAKE: "take", DRAW: "draw", PICKUP: "pickup", DECLINE: "decline", BIG_GIN: "big-gin",
          KNOCK_HIDDEN: "knock (face down)"}  # fmt: skip
LIMIT = 160  #: characters at most, as ``engine.errors.render``


def card_text(code: Any) -> str:
    """A card code as its card (``Kh``); ``??`` for a card a view hides; the value itself when it is no card."""
    if type(code) is int and 0 <= code < 52:
        return str(Card.from_index(code))
    return "??" if code == UNKNOWN else render(code, 20)


def cards_text(codes: Any, sep: str = " ") -> str:
    """Card codes (bytes) as cards: ``As 2s 3s``, or a meld with ``sep="-"``."""
    if not isinstance(codes, bytes | bytearray):
        return render(codes, 40)
    return sep.join(card_text(c) for c in codes)


def record_text(record: Any) -> str:
    """A record in words and card notation; any value, never raising (a malformed one is rendered as data)."""
    try:
        text = _text(record)
    except Exception:  # a record of the right type and the wrong shape: say what it holds
        text = None
    text = text if text is not None else _data(record, 3)
    return text if len(text) <= LIMIT else text[: LIMIT - 1] + "…"


def _data(value: Any, depth: int) -> str:
    """A malformed record as data, its bytes as the cards they code (``[4, [6c], 6]``), bounded as ``render``."""
    if isinstance(value, bytes) and value and all(b < 52 or b == UNKNOWN for b in value[:60]):
        return cards_text(value[:60], "-") + ("…" if len(value) > 60 else "")
    if isinstance(value, list) and depth > 0:
        return "[" + ", ".join(_data(v, depth - 1) for v in value[:8]) + (", …" if len(value) > 8 else "") + "]"
    return render(value, 60)


def _action(v: Any) -> str | None:
    if type(v) is int:
        if v in SIMPLE:
            return SIMPLE[v]
        if DISCARD_BASE <= v < DISCARD_BASE + 52:
            return f"discard {card_text(v - DISCARD_BASE)}"
        if KNOCK_BASE <= v < KNOCK_BASE + 52:
            return f"knock {card_text(v - KNOCK_BASE)}"
        return None
    if type(v) is list and v and v[0] == T_SPREAD:
        return "spread " + (" ".join(cards_text(m, "-") for m in v[1:]) or "(no melds)")
    if type(v) is list and len(v) == 3 and v[0] == T_LAYOFF:
        melds = [cards_text(m, "-") for m in v[1]]
        layoffs = [f"{card_text(lo[0])}>{cards_text(lo[1], '-')}" for lo in v[2]]
        return "layoff " + (" ".join(melds + layoffs) or "(nothing)")
    return None


def _text(v: Any) -> str | None:
    action = _action(v)
    if action is not None or type(v) is not list or not v:
        return action
    kind = v[0]
    if kind == T_CUT:
        return "cut " + ", ".join(f"p{s} {card_text(c)}" for s, c in zip(v[1], v[2], strict=False))
    if kind == T_HAND:
        _, number, dealer, a, b, sitter = v
        out = f"hand {number}: p{dealer} deals, seats p{a} and p{b}"
        return out + (f", p{sitter} sits out" if sitter is not None else "")
    if kind == T_DEAL:
        codes = v[1]
        return f"deal of {len(codes)} cards: {cards_text(codes[:20])}, upcard {card_text(codes[20])}, stock …"
    if kind == T_ADVICE:
        return f"p{v[1]} advises: {_action(v[2]) or render(v[2], 40)}"
    if kind == T_RESULT:
        _, number, result, winner, points, knocker, dw_a, dw_b, multiplier, reason, scores = v
        what = KINDS[result].replace("_", " ") + (f" by p{knocker}" if knocker is not None else "")
        what += f" ×{multiplier}" if multiplier != 1 else ""
        who = f"p{winner} wins {points}" if winner is not None else "no winner"
        deadwood = f" (deadwood {dw_a} and {dw_b})" if dw_a is not None else ""
        why = f" ({REASONS[reason]})" if REASONS[reason] else ""
        return f"result of hand {number}: {what}{why}, {who}{deadwood}, scores {'-'.join(map(str, scores))}"
    if kind == T_GAME_OVER:
        who = "no winner" if v[1] is None else f"p{v[1]} wins"
        return f"game over: {who}, totals {'-'.join(map(str, v[2]))}"
    if kind in (T_RESIGN, T_ABORT):
        return f"p{v[1]} {'resigns' if kind == T_RESIGN else 'aborts the game'}"
    if kind == T_FORFEIT:
        why = {0: "timeout", 1: "no reveal"}.get(v[2], render(v[2], 20))
        return f"p{v[1]} forfeits ({why})"
    if kind == T_CLAIM:
        return f"p{v[1]} claims the game against p{v[2]} at {v[3]}"
    if kind in (T_AWAY, T_BACK):
        return f"p{v[1]} {'leaves the table' if kind == T_AWAY else 'is back'} at {v[2]}"
    if kind == T_ABANDON:
        return f"the host abandons the game at {v[1]}: nobody is at the table"
    if kind == T_SEEN_DRAW:
        return f"draw {card_text(v[1])}"
    if kind == T_SEEDS and isinstance(v[1], list):
        seeds = " ".join(x[:6].hex() + "…" if isinstance(x, bytes) else render(x, 20) for x in v[1])
        supplied = f" (supplied: {' '.join(f'p{s}' for s in v[2])})" if isinstance(v[2], list) and v[2] else ""
        return f"seeds {seeds}{supplied}"
    names = {T_CHECKPOINT: "checkpoint", T_TRAILER: "trailer", T_COMMIT: "commit", T_REVEAL: "reveal",
             T_FAIR_COMMIT: "server commitment", T_FAIR_REVEAL: "server seed"}  # fmt: skip
    if kind in names:
        digest = v[-1]
        count = f" after {v[1]} records" if kind == T_TRAILER else ""
        shown = digest[:6].hex() + "…" if isinstance(digest, bytes) else render(digest, 20)
        return f"{names[kind]}{count} {shown}"
    return None
