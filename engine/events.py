"""Events: what happened. A closed union of frozen facts; dealer steps (deal, score, dead hand) are events too."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias

from engine.actions import Action
from engine.cards import Card, fmt
from engine.melds import Meld
from engine.scoring import HandResult
from engine.showdown import Layoff


@dataclass(frozen=True, slots=True)
class Dealt:
    """The deal: the two hands (``hands[i]`` belongs to ``seats[i]``), the upcard and the stock, top card first.

    Rules: DEAL-3, KNOCK-3, OKLA-1.
    """

    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    upcard: Card
    stock: tuple[Card, ...]
    knock_limit: int
    seats: tuple[int, int] = (0, 1)

    def __str__(self) -> str:
        # A seat's view of the deal (engine.visibility) leaves out the hands it may not see and the stock's order.
        a, b = self.seats
        shown = [f"[{fmt(sorted(held))}]" if held else "(not shown)" for held in self.hands]
        stock = f", stock {len(self.stock)}" if self.stock else ""
        return (
            f"deal by p{self.dealer}: p{a} {shown[0]} p{b} {shown[1]}"
            f" upcard {self.upcard} (knock limit {self.knock_limit}){stock}"
        )


@dataclass(frozen=True, slots=True)
class UpcardPassed:
    seat: int

    def __str__(self) -> str:
        return f"p{self.seat} passes the upcard"


@dataclass(frozen=True, slots=True)
class UpcardTaken:
    seat: int
    card: Card

    def __str__(self) -> str:
        return f"p{self.seat} takes the upcard {self.card}"


@dataclass(frozen=True, slots=True)
class DrewStock:
    seat: int
    card: Card

    def __str__(self) -> str:
        return f"p{self.seat} draws {self.card} from the stock"


@dataclass(frozen=True, slots=True)
class DrewDiscard:
    seat: int
    card: Card

    def __str__(self) -> str:
        return f"p{self.seat} picks up {self.card}"


@dataclass(frozen=True, slots=True)
class Discarded:
    seat: int
    card: Card

    def __str__(self) -> str:
        return f"p{self.seat} discards {self.card}"


@dataclass(frozen=True, slots=True)
class Knocked:
    """A knock: the card is discarded face down and is out of play. Rule: KNOCK-1."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"p{self.seat} knocks, discarding {self.card} face down"


@dataclass(frozen=True, slots=True)
class BigGinDeclared:
    seat: int

    def __str__(self) -> str:
        return f"p{self.seat} declares big gin"


@dataclass(frozen=True, slots=True)
class WallDeclined:
    seat: int

    def __str__(self) -> str:
        return f"p{self.seat} leaves the last discard"


@dataclass(frozen=True, slots=True)
class SpreadLaid:
    """The knocker's spread and his deadwood. Rules: KNOCK-4, KNOCK-5."""

    seat: int
    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.deadwood_cards)

    def __str__(self) -> str:
        ms = " ".join(map(str, self.melds)) or "(no melds)"
        return f"p{self.seat} spreads {ms}; deadwood [{fmt(self.deadwood_cards)}] = {self.deadwood}"


@dataclass(frozen=True, slots=True)
class DefenceLaid:
    """The defender's melds, layoffs and deadwood. Rules: LAY-5, LAY-6."""

    seat: int
    melds: tuple[Meld, ...]
    layoffs: tuple[Layoff, ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.deadwood_cards)

    def __str__(self) -> str:
        ms = " ".join(map(str, self.melds)) or "(no melds)"
        lo = " ".join(map(str, self.layoffs)) or "none"
        return f"p{self.seat} shows {ms}, lays off {lo}; deadwood [{fmt(self.deadwood_cards)}] = {self.deadwood}"


@dataclass(frozen=True, slots=True)
class HandScored:
    """The hand's result. Rules: SCORE-1 .. SCORE-6."""

    result: HandResult

    def __str__(self) -> str:
        return str(self.result)


@dataclass(frozen=True, slots=True)
class HandDead:
    """The hand ends without a score. Rules: DEAD-1, DEAD-2, DEAD-3."""

    result: HandResult

    def __str__(self) -> str:
        return str(self.result)


Event: TypeAlias = (
    Dealt
    | UpcardPassed
    | UpcardTaken
    | DrewStock
    | DrewDiscard
    | Discarded
    | Knocked
    | BigGinDeclared
    | WallDeclined
    | SpreadLaid
    | DefenceLaid
    | HandScored
    | HandDead
)


# --- match events ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CutDrawn:
    """One round of the dealer or role draw: each listed seat's card. Rules: MATCH-2, MATCH-3, THREE-2."""

    seats: tuple[int, ...]
    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return "draw for " + ", ".join(f"p{s} {c}" for s, c in zip(self.seats, self.cards, strict=True))


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand begins: its number (every deal counts), the dealer, the two seats dealt in, and the sitter.

    In three-handed play the dealer is the box and the other seat the captain. Rules: MATCH-4, THREE-3.
    """

    number: int
    dealer: int
    seats: tuple[int, int]
    sitter: int | None

    def __str__(self) -> str:
        a, b = self.seats
        captain = a if b == self.dealer else b
        if self.sitter is None:
            return f"hand {self.number}: p{self.dealer} deals"
        return f"hand {self.number}: p{self.dealer} in the box, p{captain} captain, p{self.sitter} sits out"


@dataclass(frozen=True, slots=True)
class Advised:
    """The sitter's non-binding suggestion to the captain. Rule: THREE-7."""

    seat: int
    suggestion: Action

    def __str__(self) -> str:
        return f"p{self.seat} advises p{self.suggestion.seat}: {self.suggestion}"


@dataclass(frozen=True, slots=True)
class HandEnded:
    """A hand's result entered in the game, and every seat's running score after it. Rules: MATCH-1, THREE-6."""

    number: int
    result: HandResult
    scores: tuple[int, ...]

    def __str__(self) -> str:
        return f"after hand {self.number}: " + ", ".join(f"p{i} {s}" for i, s in enumerate(self.scores))


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game's end: the winner and every seat's final total, bonuses included (MATCH-6, BONUS-1..4); after an
    early end the winner END-1 names and the running totals (END-5), and no winner after an abort (END-2)."""

    winner: int | None
    totals: tuple[int, ...]

    def __str__(self) -> str:
        who = "no winner" if self.winner is None else f"p{self.winner} wins"
        return f"game over: {who}; totals " + ", ".join(f"p{i} {t}" for i, t in enumerate(self.totals))


@dataclass(frozen=True, slots=True)
class Resigned:
    """A seat resigned: the game ends, and it loses. Rule: END-1."""

    seat: int

    def __str__(self) -> str:
        return f"p{self.seat} resigns"


@dataclass(frozen=True, slots=True)
class Aborted:
    """A seat aborted the game before both seats of the first hand had acted: no winner. Rule: END-2."""

    seat: int

    def __str__(self) -> str:
        return f"p{self.seat} aborts the game"


#: Why the host declared a forfeit (END-3), in the log's order (``absent`` is a claim's, END-4).
FORFEIT_REASONS = ("timeout", "no_reveal")


@dataclass(frozen=True, slots=True)
class Forfeited:
    """The host declared that a seat forfeits, for ``reason`` (one of ``FORFEIT_REASONS``). Rule: END-3."""

    seat: int
    reason: str

    def __str__(self) -> str:
        return f"p{self.seat} forfeits ({self.reason})"


@dataclass(frozen=True, slots=True)
class Claimed:
    """A seat claimed the game at ``at`` (seconds since the epoch): ``absent`` forfeits. Rules: END-4, END-3."""

    seat: int
    absent: int
    at: int

    def __str__(self) -> str:
        return f"p{self.seat} claims the game: p{self.absent} is away"


@dataclass(frozen=True, slots=True)
class SeatAway:
    """The host saw a seat leave the table at ``at`` (seconds since the epoch). Rule: END-4."""

    seat: int
    at: int

    def __str__(self) -> str:
        return f"p{self.seat} is away"


@dataclass(frozen=True, slots=True)
class SeatBack:
    """The host saw an away seat come back at ``at``. Rule: END-4."""

    seat: int
    at: int

    def __str__(self) -> str:
        return f"p{self.seat} is back"


@dataclass(frozen=True, slots=True)
class Abandoned:
    """The host ended a game nobody attended, at ``at`` (seconds since the epoch): no winner. Rule: END-6."""

    at: int

    def __str__(self) -> str:
        return "the game is abandoned: nobody is at the table"


#: A game's early end (END-1 .. END-4, END-6), and the host's record of a seat's absence (END-4).
EndEvent: TypeAlias = Resigned | Aborted | Forfeited | Claimed | Abandoned
Presence: TypeAlias = SeatAway | SeatBack

MatchEvent: TypeAlias = Event | CutDrawn | HandStarted | Advised | HandEnded | GameOver | EndEvent | Presence
