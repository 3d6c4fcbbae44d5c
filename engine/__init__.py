"""Knock's rules engine: cards, melds, the hand and match state machines, scoring (see ``spec/rules.md``)."""

from engine.actions import (
    Action,
    Advise,
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
    parse_match_action,
)
from engine.cards import DECK, Card, Suit, cards, shuffled_deck
from engine.errors import (
    IllegalAction,
    InternalError,
    InvalidDeal,
    InvalidMeld,
    InvalidRules,
    KnockError,
    NotationError,
)
from engine.fsm import MatchPhase, Phase
from engine.hand import Hand
from engine.match import Match
from engine.melds import (
    Arrangement,
    Meld,
    MeldKind,
    best_arrangement,
    deadwood,
    discards_within,
    gin_discards,
    knock_deadwood,
)
from engine.rules import CutTiebreak, DeadHandRoles, KnockLimit, NextDealer, OklahomaAce, RuleSet, Shutout
from engine.scoring import HandResult, ResultKind
from engine.showdown import Layoff
from engine.standings import Standings, standings
from engine.visibility import MatchObservation, Observation

__version__ = "0.2.0"

__all__ = [
    "DECK",
    "Action",
    "Advise",
    "Arrangement",
    "BigGin",
    "Card",
    "CutTiebreak",
    "DeadHandRoles",
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
    "Match",
    "MatchObservation",
    "MatchPhase",
    "Meld",
    "MeldKind",
    "NextDealer",
    "NotationError",
    "Observation",
    "OklahomaAce",
    "PassUpcard",
    "Phase",
    "ResultKind",
    "RuleSet",
    "Shutout",
    "Spread",
    "Standings",
    "Suit",
    "TakeUpcard",
    "best_arrangement",
    "cards",
    "deadwood",
    "discards_within",
    "gin_discards",
    "knock_deadwood",
    "parse_action",
    "parse_match_action",
    "shuffled_deck",
    "standings",
]
