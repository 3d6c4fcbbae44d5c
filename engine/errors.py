"""Knock's typed errors: one hierarchy, every error naming the rule it enforces.

A message reads ``KNOCK-2: cannot knock with 14 deadwood (limit 6) in phase discard: knock Kh by seat 0``.
"""

from __future__ import annotations


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


class IllegalAction(KnockError, ValueError):
    """An action the rules forbid now. The game is left exactly as it was.

    Carries the rule id, the phase the game was in and the offending action.
    """

    def __init__(self, rule: str, reason: str, *, phase: str, action: object) -> None:
        super().__init__(f"{rule}: {reason} in phase {phase}: {action}", rule=rule)
        self.reason = reason
        self.phase = phase
        self.action = action


class InternalError(KnockError, AssertionError):
    """The engine disagrees with itself (a bug): validation accepted what the state machine refused."""
