"""Knock's typed errors: one hierarchy, every error naming the rule it enforces.

A message reads ``KNOCK-2: cannot knock with 14 deadwood (limit 6) in phase discard: knock Kh by seat 0``.
"""

from __future__ import annotations

from itertools import islice

#: How far ``render`` looks into a value: nesting levels, items per collection, characters in all.
RENDER_DEPTH, RENDER_ITEMS, RENDER_CHARS = 3, 8, 120


def render(value: object, limit: int = RENDER_CHARS) -> str:
    r"""``value`` as short text for an error message, whatever it is and however deep or large it is.

    Cards, melds and actions in their notation (``Kh``, ``4c-5c-6c``), bytes as their length and first bytes
    in hex, collections to a bounded depth and number of items; never more than ``limit`` characters. It
    never raises and never recurses deeper than ``RENDER_DEPTH``, so a hostile value (arrays nested a
    thousand deep, a huge integer) cannot break the message that reports it.

    >>> render([1, [2, [3, [4, [5]]]], b"\x00\x01"])
    '[1, [2, [3, […]]], <2 bytes 0001>]'
    """
    text = _render(value, RENDER_DEPTH)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _render(value: object, depth: int) -> str:
    if value is None or isinstance(value, bool | float):
        return repr(value)
    if isinstance(value, int):
        return str(value) if -(10**30) < value < 10**30 else f"<an integer of {value.bit_length()} bits>"
    if isinstance(value, str):
        return repr(value[:60]) + ("…" if len(value) > 60 else "")
    if isinstance(value, bytes | bytearray):
        return f"<{len(value)} bytes {bytes(value[:8]).hex()}{'…' if len(value) > 8 else ''}>"
    if isinstance(value, dict):
        if depth <= 0:
            return "{…}"
        pairs = [f"{_render(k, depth - 1)}: {_render(v, depth - 1)}" for k, v in islice(value.items(), RENDER_ITEMS)]
        return "{" + ", ".join(pairs) + (", …" if len(value) > RENDER_ITEMS else "") + "}"
    if isinstance(value, list | tuple | set | frozenset):
        opening, closing = "()" if isinstance(value, tuple) else "[]" if isinstance(value, list) else "{}"
        if depth <= 0:
            return f"{opening}…{closing}"
        parts = [_render(item, depth - 1) for item in islice(value, RENDER_ITEMS)]
        return opening + ", ".join(parts) + (", …" if len(value) > RENDER_ITEMS else "") + closing
    if type(value).__module__.startswith("engine."):  # cards, melds, actions, events: their notation
        try:
            return str(value)
        except Exception:  # a value built of garbage (an action whose fields are not cards)
            return f"<a malformed {type(value).__name__}>"
    return f"<{type(value).__name__}>"


class KnockError(Exception):
    """Base class of every error Knock raises on purpose."""

    rule: str

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


class NotationError(KnockError, ValueError):
    """Text that is not a card, meld or action in Knock's notation."""

    def __init__(self, message: str, *, rule: str = "") -> None:
        super().__init__(message, rule=rule or message.split(":", 1)[0])


class RuleViolation(KnockError, ValueError):
    """A value the rules refuse, with the rule id and the reason; ``str`` is ``"RULE: reason"``."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"{rule}: {reason}", rule=rule)
        self.reason = reason


class InvalidMeld(RuleViolation):
    """Cards that do not form a meld (MELD-1, MELD-2) or melds that overlap (MELD-3)."""


class InvalidRules(RuleViolation):
    """A rule set whose options contradict each other or are out of range."""


class InvalidDeal(RuleViolation):
    """A prearranged deal that is not a partition of the deck (DEAL-4)."""


class InvalidSeat(RuleViolation):
    """A seat number that has no place in this hand or game."""


class IllegalAction(RuleViolation):
    """An action the rules forbid now (a kind of ``RuleViolation``). The game is left exactly as it was.

    Carries the rule id, the reason, the phase the game was in and the offending action; ``str`` is
    ``"RULE: reason in phase P: action"``.
    """

    def __init__(self, rule: str, reason: str, *, phase: str, action: object) -> None:
        KnockError.__init__(self, f"{rule}: {reason} in phase {phase}: {_action_text(action)}", rule=rule)
        self.reason = reason
        self.phase = phase
        self.action = action


class InternalError(KnockError, AssertionError):
    """The engine disagrees with itself (a bug): validation accepted what the state machine refused."""


def _action_text(action: object) -> str:
    """An action's text form for a message; a malformed one (a seat or card of the wrong type) rendered safely."""
    try:
        return str(action)
    except Exception:  # an ill-typed action (TURN-1) must still be reported, not crash the report
        return render(action)
