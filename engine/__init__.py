"""Knock's rules engine: cards, melds, the hand state machine and scoring (see ``spec/rules.md``)."""

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
    parse_action,
)
from engine.cards import DECK, Card, Suit, cards
from engine.errors import (
    IllegalAction,
    InternalError,
    InvalidDeal,
    InvalidMeld,
    InvalidRules,
    KnockError,
    NotationError,
)
from engine.fsm import Phase
from engine.hand import Hand, Observation, shuffled_deck
from engine.melds import Arrangement, Meld, MeldKind, best_arrangement, deadwood, knock_deadwood
from engine.rules import KnockLimit, OklahomaAce, RuleSet
from engine.scoring import HandResult, ResultKind
from engine.showdown import Layoff

__version__ = "0.1.0"

__all__ = [
    "DECK",
    "Action",
    "Arrangement",
    "BigGin",
    "Card",
    "DeclineWall",
    "Discard",
    "DrawDiscard",
    "DrawStock",
    "Hand",
    "HandResult",
    "IllegalAction",
    "InternalError",
    "InvalidDeal",
    "InvalidMeld",
    "InvalidRules",
    "Knock",
    "KnockError",
    "KnockLimit",
    "LayOff",
    "Layoff",
    "Meld",
    "MeldKind",
    "NotationError",
    "Observation",
    "OklahomaAce",
    "PassUpcard",
    "Phase",
    "ResultKind",
    "RuleSet",
    "Spread",
    "Suit",
    "TakeUpcard",
    "best_arrangement",
    "cards",
    "deadwood",
    "knock_deadwood",
    "parse_action",
    "shuffled_deck",
]
