"""Events in words for people: the one narration every surface uses — the terminal table, ``knock show``'s
history and stepper, the web client's event list and replay transcript, and ``knock view``.

Plain language with the cards as a card shows them (``p1 lays off 10♦ on J♦-Q♦-K♦``), or in card notation (``Td``,
``4d-5d-6d``) where the output cannot carry the symbols (``symbols_for``: an output that is not UTF-8). It only
words what it is given: an event as a seat saw it (``engine.visibility.SeatLens``, ``replay.audit.view_events``)
names no card the seat was not shown (VIS-1, THREE-8, LOG-11). ``replay.notation`` stays the machine form of a
record, and an event's ``str`` the engine's own compact text (golden transcripts, JSON outputs): neither is
narration.

>>> from engine.cards import Card
>>> from engine.events import Discarded
>>> narrate(Discarded(1, Card.parse("Td"))), narrate(Discarded(1, Card.parse("Td")), Voice(symbols=False))
('p1 discards 10♦', 'p1 discards Td')
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, assert_never

from engine.actions import (
    Advise,
    Claim,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    MatchAction,
    PassUpcard,
    Spread,
    TakeUpcard,
)
from engine.cards import Card
from engine.events import (
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
    Resigned,
    SeatAway,
    SeatBack,
    SpreadLaid,
    UpcardPassed,
    UpcardTaken,
    WallDeclined,
)
from engine.melds import Meld
from engine.scoring import HandResult, ResultKind
from engine.showdown import Layoff
from engine.visibility import HiddenAdvice, HiddenDraw, HiddenKnock
from replay.audit import Note, ShownDefence, ShownSpread, ViewEvent
from replay.codec import T_CHECKPOINT, T_COMMIT, T_FAIR_COMMIT, T_FAIR_REVEAL, T_REVEAL, T_SEEDS, T_TRAILER

#: The suits' symbols, by their letter in card notation.
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

#: Why a dead hand died, in words (``HandResult.reason``). Rules: DEAD-1, DEAD-2, DEAD-3.
DEAD_REASONS = {
    "stock": "only two cards were left in the stock",
    "pickup cap": "too many pickups from the discard pile in a row",
    "last discard declined": "the last discard was left",
}

#: The log's framing records, which stand for no event, by their first field (LOG-2, LOG-6, LOG-10).
FRAMING = {
    T_CHECKPOINT: "checkpoint",
    T_TRAILER: "trailer",
    T_COMMIT: "shuffle commitment",
    T_REVEAL: "salt revealed",
    T_FAIR_COMMIT: "server's seed committed",
    T_SEEDS: "seats' seeds",
    T_FAIR_REVEAL: "server's seed revealed",
}


def symbols_for(stream: Any) -> bool:
    """Whether text written to ``stream`` may carry the suit symbols: its encoding is UTF-8 (a stream without
    one, or an unknown one, gets notation)."""
    encoding = getattr(stream, "encoding", None)
    if not isinstance(encoding, str):
        return False
    try:
        return codecs.lookup(encoding).name in {"utf-8", "utf-16", "utf-32"}
    except LookupError:
        return False


@dataclass(frozen=True, slots=True)
class Voice:
    """Who tells the game, to whom: the seats' names (``p0``, ``p1`` … when none are given), the reader's own
    seat (``you``; None: nobody's), whether cards carry suit symbols, how many seats the game has, and whether
    the text must be ASCII (cards in notation, plain dashes: an output that is not UTF-8)."""

    players: tuple[str, ...] = ()
    me: int | None = None
    symbols: bool = True
    seats: int = 0  #: the game's seats (0: as many as ``players`` names, or two)
    ascii: bool = False

    @classmethod
    def for_stream(cls, stream: Any, players: tuple[str, ...] = (), seats: int = 0) -> Voice:
        """The voice for text written to ``stream``: symbols where it is UTF-8, ASCII where not."""
        utf = symbols_for(stream)
        return cls(players, symbols=utf, seats=seats, ascii=not utf)

    @property
    def dash(self) -> str:
        return " - " if self.ascii else " — "

    @property
    def times(self) -> str:
        return "x" if self.ascii else "×"

    @property
    def count(self) -> int:
        return self.seats or len(self.players) or 2

    def name(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"p{seat}"

    def who(self, seat: int | None) -> str:
        return "nobody" if seat is None else "you" if seat == self.me else self.name(seat)

    def whose(self, seat: int) -> str:
        return "your" if seat == self.me else f"{self.name(seat)}'s"

    def does(self, seat: int, verb: str, third: str | None = None) -> str:
        """``you pass`` / ``greedy passes``."""
        return f"{self.who(seat)} {verb if seat == self.me else third or verb + 's'}"

    def card(self, card: Card) -> str:
        """``10♦`` for people (the ten as a card shows it, with its suit's symbol); ``Td`` in notation."""
        text = str(card)
        if not self.symbols or self.ascii:
            return text
        return ("10" if text[0] == "T" else text[0]) + SUIT_SYMBOLS[text[1]]

    def cards(self, cards: Iterable[Card]) -> str:
        return " ".join(self.card(c) for c in cards)

    def meld(self, meld: Meld | Sequence[Card]) -> str:
        """``4♦-5♦-6♦``."""
        return "-".join(self.card(c) for c in (meld.cards if isinstance(meld, Meld) else meld))

    def melds(self, melds: Iterable[Meld | Sequence[Card]]) -> str:
        return " ".join(self.meld(m) for m in melds)


#: Names a seat is never called by in narration: they would read as the reader or as nobody.
_RESERVED = frozenset({"you", "your", "nobody"})


def display_names(players: Sequence[str]) -> tuple[str, ...]:
    """Each seat's name as narration says it: the player's name where it names that seat alone; ``p0`` where
    there is none, or it reads as a seat's number or as the reader (``p1``, ``you``: it would pass for another);
    ``ann (p0)`` for a name two seats share. The page's ``seatName`` (knock/web/static/js/dom.js) is the same
    rule.

    >>> display_names(("ann", "bob")), display_names(("ann", "Ann", "")), display_names(("p1", "you"))
    (('ann', 'bob'), ('ann (p0)', 'Ann (p1)', 'p2'), ('p0', 'p1'))
    """
    names = [name.strip() for name in players]
    folded = [name.lower() for name in names]

    def one(seat: int, name: str) -> str:
        if not name or name.lower() in _RESERVED or re.fullmatch(r"[pP]\d+", name):
            return f"p{seat}"
        return f"{name} (p{seat})" if folded.count(name.lower()) > 1 else name

    return tuple(one(seat, name) for seat, name in enumerate(names))


#: A forfeit's reason in words (END-3).
_WHY = {"timeout": "out of time", "no_reveal": "did not reveal in time"}

#: The plain voice: seats by number, cards with their symbols.
PLAIN = Voice()
#: Seats by number, cards in notation: for an output without the symbols, or one that draws them itself (the
#: terminal colours every card it prints).
NOTATION = Voice(symbols=False)


def layoff_text(layoffs: Iterable[Layoff | tuple[Card, Sequence[Card]]], voice: Voice = PLAIN) -> str:
    """``lay off 2♥ on 2♣-2♦-2♠ and 6♣ 7♣ on 3♣-4♣-5♣``: the layoffs by the meld they go onto."""
    onto: dict[tuple[Card, ...], list[Card]] = {}
    for lo in layoffs:
        card, meld = (lo.card, lo.onto.cards) if isinstance(lo, Layoff) else (lo[0], tuple(lo[1]))
        onto.setdefault(tuple(meld), []).append(card)
    return "lay off " + " and ".join(f"{voice.cards(cs)} on {voice.meld(m)}" for m, cs in onto.items())


def answer_text(
    melds: Sequence[Meld | Sequence[Card]],
    layoffs: Sequence[Layoff | tuple[Card, Sequence[Card]]],
    left: Sequence[Card] | None,
    voice: Voice = PLAIN,
) -> str:
    """A defender's answer in plain words, with the deadwood it leaves (``left`` None: not known to the reader)."""
    parts = [f"show {voice.melds(melds)}"] if melds else []
    if layoffs:
        parts.append(layoff_text(layoffs, voice))
    what = "; ".join(parts) or "show no melds and lay off nothing"
    return what + _left(left, voice)


def _left(left: Sequence[Card] | None, voice: Voice) -> str:
    if left is None:
        return ""
    return voice.dash + (f"deadwood {voice.cards(left)} = {sum(c.value for c in left)}" if left else "no deadwood")


def result_text(result: HandResult, voice: Voice = PLAIN) -> str:
    """A hand's result as a player says it: ``p0 knocks with 4 against p1's 19: p0 scores 15 points``, and to
    the knocker ``you knock with 4 against p1's 19: you score 15 points``. Rules: SCORE-1 .. SCORE-6."""
    if result.kind is ResultKind.DEAD:
        return f"dead hand ({DEAD_REASONS.get(result.reason, result.reason)}): nobody scores"
    knocker, defender = result.knocker, result.defender
    assert knocker is not None and defender is not None
    kd, dd = result.deadwood_of(knocker), result.deadwood_of(defender)
    times = f" ({voice.times}{result.multiplier}, a spade upcard)" if result.multiplier != 1 else ""
    winner = result.winner
    scores = f"{voice.does(winner, 'score')} {result.points} points{times}" if winner is not None else "nobody scores"
    match result.kind:
        case ResultKind.GIN | ResultKind.BIG_GIN:
            gin = "big gin" if result.kind is ResultKind.BIG_GIN else "gin"
            return f"{voice.does(knocker, 'go', 'goes')} {gin}, catching {voice.whose(defender)} {dd}: {scores}"
        case ResultKind.KNOCK:
            return f"{voice.does(knocker, 'knock')} with {kd} against {voice.whose(defender)} {dd}: {scores}"
        case ResultKind.UNDERCUT:
            return f"{voice.does(defender, 'undercut')} {voice.who(knocker)} with {dd} against {kd}: {scores}"
        case _:
            return f"{voice.does(knocker, 'knock')} with {kd} against {voice.whose(defender)} {dd}: a tie, {scores}"


def _verb(seat: int, voice: Voice, verb: str) -> str:
    return verb if seat == voice.me else verb + "s"


def hand_title(started: HandStarted, voice: Voice = PLAIN) -> str:
    """``hand 2: p1 deals``, or three-handed ``hand 2: p1 in the box, p2 captain, p0 sits out``. Rules: MATCH-4,
    THREE-3."""
    if started.sitter is None:
        return f"hand {started.number}: {voice.does(started.dealer, 'deal')}"
    captain = next(s for s in started.seats if s != started.dealer)
    roles = [(started.dealer, "in the box"), (captain, "captain"), (started.sitter, "sits out")]
    return f"hand {started.number}: " + ", ".join(
        f"{voice.who(s)} {'sit out' if s == voice.me and r == 'sits out' else r}" for s, r in roles
    )


def action_text(action: MatchAction, voice: Voice = PLAIN) -> str:
    """A move in plain words (what the person would type, spelt out for spreads and answers)."""
    match action:
        case PassUpcard():
            return "pass"
        case TakeUpcard():
            return "take the upcard"
        case DrawStock():
            return "draw from the stock"
        case DrawDiscard():
            return "pick up the top of the discard pile"
        case Spread(melds=melds):
            return f"spread {voice.melds(melds) or 'no melds'}"
        case LayOff(melds=melds, layoffs=layoffs):
            parts = [f"show {voice.melds(melds)}"] if melds else []
            laid = [layoff_text(layoffs, voice)] if layoffs else []
            return "; ".join([*parts, *laid]) or "show and lay off nothing"
        case Advise(suggestion=s):
            return action_text(s, voice)
        case Discard(card=c):
            return f"discard {voice.card(c)}"
        case Knock(card=c):
            return f"knock {voice.card(c)}"
        case Claim(absent=absent):
            return f"claim the game: {voice.does(absent, 'have', 'has')} been away too long"
        case _:
            return str(action)  # big gin, leaving the last discard, resign, abort: no card to name


def narrate(event: ViewEvent, voice: Voice = PLAIN) -> str:
    """One event, as the reader's seat saw it, in words. Rules: VIS-1, THREE-8, LOG-11."""
    does, card = voice.does, voice.card
    match event:
        case CutDrawn(seats=seats, cards=cards):
            what = "the roles" if voice.count == 3 else "the deal"
            again = " again" if len(seats) < voice.count else ""
            return f"the draw for {what}{again}: " + ", ".join(
                f"{voice.who(s)} {card(c)}" for s, c in zip(seats, cards, strict=True)
            )
        case HandStarted():
            return hand_title(event, voice)
        case Dealt():
            return deal_text(event, voice)
        case UpcardPassed(seat=s):
            return f"{does(s, 'pass', 'passes')} the upcard"
        case UpcardTaken(seat=s, card=c):
            return f"{does(s, 'take')} the upcard {card(c)}"
        case DrewStock(seat=s, card=c):
            return f"{does(s, 'draw')} {card(c)} from the stock"
        case HiddenDraw(seat=s):
            return f"{does(s, 'draw')} from the stock"
        case DrewDiscard(seat=s, card=c):
            return f"{does(s, 'pick')} up {card(c)}"
        case Discarded(seat=s, card=c):
            return f"{does(s, 'discard')} {card(c)}"
        case Knocked(seat=s, card=c):
            return f"{does(s, 'knock')}, discarding {card(c)} face down"
        case HiddenKnock(seat=s):
            return f"{does(s, 'knock')}"
        case BigGinDeclared(seat=s):
            return f"{does(s, 'declare')} big gin"
        case WallDeclined(seat=s):
            return f"{does(s, 'leave')} the last discard"
        case SpreadLaid(seat=s, melds=melds, deadwood_cards=left):
            return _spread(s, melds, left, voice)
        case ShownSpread(seat=s, melds=melds, deadwood_cards=left):
            return _spread(s, melds, left, voice)
        case DefenceLaid(seat=s, melds=melds, layoffs=layoffs, deadwood_cards=left):
            return _answer(s, melds, layoffs, left, voice)
        case ShownDefence(seat=s, melds=melds, layoffs=layoffs, deadwood_cards=left):
            return _answer(s, melds, layoffs, left, voice)
        case HandScored(result=r) | HandDead(result=r):
            return result_text(r, voice)
        case Advised(seat=s, suggestion=a):
            return f"{does(s, 'advise')} {voice.who(a.seat)}: {action_text(a, voice)}"
        case HiddenAdvice(seat=s):
            return f"{does(s, 'advise')} the captain (the box does not hear it)"
        case HandEnded(number=n, scores=scores):
            return f"after hand {n}: " + ", ".join(f"{voice.who(i)} {s}" for i, s in enumerate(scores))
        case GameOver(winner=w, totals=totals):
            if w is None:
                return "game over: no winner (the game was aborted), " + " to ".join(str(t) for t in totals)
            others = " and ".join(str(t) for s, t in enumerate(totals) if s != w)
            return f"game over: {does(w, 'win')} the game, {totals[w]} to {others}"
        case Resigned(seat=s):
            return f"{does(s, 'resign')}"
        case Aborted(seat=s):
            return f"{does(s, 'abort')} the game"
        case Forfeited(seat=s, reason=why):
            return f"{does(s, 'forfeit')} the game ({_WHY[why]})"
        case Claimed(seat=s, absent=absent):
            return f"{does(s, 'claim')} the game: {voice.does(absent, 'have', 'has')} been away too long"
        case Abandoned():
            return "the game is abandoned: nobody has been at the table"
        case SeatAway(seat=s):
            return f"{does(s, 'leave')} the table"
        case SeatBack(seat=s):
            return f"{voice.does(s, 'are', 'is')} back at the table"
        case Note(text=text):
            return text
        case _:
            assert_never(event)


def deal_text(deal: Dealt, voice: Voice = PLAIN, *, hands: bool = True) -> str:
    """``upcard 6♣, knock limit 6; p0 is dealt …``: the deal as the reader saw it (``hands``: with the hands it
    was shown, and those it was not named as such — except to a seat dealt in, which knows). Rules: DEAL-3,
    KNOCK-3, OKLA-1, OKLA-2."""
    knock = f"knock limit {deal.knock_limit}" if deal.knock_limit else "gin only (knock limit 0)"
    unseen = voice.me not in deal.seats
    dealt = "; ".join(
        f"{'you are' if s == voice.me else voice.who(s) + ' is'} dealt {voice.cards(sorted(h))}" if h
        else f"{voice.whose(s)} hand not shown"
        for s, h in zip(deal.seats, deal.hands, strict=True) if h or unseen
    )  # fmt: skip
    return f"upcard {voice.card(deal.upcard)}, {knock}" + (f"; {dealt}" if dealt and hands else "")


def line_of(event: ViewEvent, voice: Voice = PLAIN) -> str:
    """An event as the one line its record stands for (a step of the stepper or of a replay): a hand's end with
    its result, which a per-seat view records with it and no event before (LOG-11); else as ``narrate``."""
    if isinstance(event, HandEnded):
        return f"{result_text(event.result, voice)}; {narrate(event, voice)}"
    return narrate(event, voice)


def _spread(seat: int, melds: Sequence[Meld | Sequence[Card]], left: Sequence[Card] | None, voice: Voice) -> str:
    """``p0 spreads A♠-2♠-3♠ with 7 deadwood (3♦ 4♣)``; the deadwood when the reader knows it (a view does not
    carry another seat's, LOG-11). Rules: KNOCK-4, KNOCK-5."""
    shown = f"{voice.does(seat, 'spread')} {voice.melds(melds) or 'no melds'}"
    if left is None:
        return shown
    if not left:
        return f"{shown}{voice.dash}gin, no card over"
    return f"{shown} with {sum(c.value for c in left)} deadwood ({voice.cards(left)})"


def _answer(
    seat: int,
    melds: Sequence[Meld | Sequence[Card]],
    layoffs: Sequence[Layoff | tuple[Card, Sequence[Card]]],
    left: Sequence[Card] | None,
    voice: Voice,
) -> str:
    """``p1 shows 7♣-7♦-7♥ and lays off 3♦ on 4♦-5♦-6♦ — deadwood K♣ = 10``. Rules: LAY-5, LAY-6."""
    lays = f"{_verb(seat, voice, 'lay')} off"
    parts = [f"show{'' if seat == voice.me else 's'} {voice.melds(melds)}"] if melds else []
    if layoffs:
        parts.append(lays + layoff_text(layoffs, voice).removeprefix("lay off"))
    what = " and ".join(parts) or f"show{'' if seat == voice.me else 's'} no melds and {lays} nothing"
    what = f"{voice.who(seat)} {what}"
    return what + _left(left, voice)


def framing_text(record: Any) -> str:
    """A record that stands for no event (the log's framing), by what it is: ``checkpoint``, ``trailer`` …"""
    kind = record[0] if isinstance(record, list) and record else None
    return FRAMING.get(kind, "record") if type(kind) is int else "record"
