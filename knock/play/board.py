"""The board: what a person at the table needs in one screen, as text in card notation — the hand grouped into
melds and deadwood, the pile and every card discarded this hand, the cards each seat is known to hold, the
score, whose turn, the bot's last move, the roles and any advice, and the choices. ``knock.play.tui`` draws it
in place; the line mode prints the same facts as they come. Rules: VIS-1, THREE-8.

Everything here reads the events as the person's seat saw them (``SeatLens``), never the match's hidden state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.actions import Action
from engine.cards import Card, fmt, to_mask
from engine.events import (
    Advised,
    Dealt,
    Discarded,
    DrewDiscard,
    HandEnded,
    HandStarted,
    UpcardTaken,
)
from engine.melds import best_arrangement
from engine.visibility import HiddenAdvice, SeatLens, Seen
from knock.play.screen import option_lines, role_text
from knock.play.session import Session
from replay.narration import Voice, narrate


@dataclass(frozen=True, slots=True)
class Board:
    """The board's panels, each as lines of text in card notation."""

    head: str  #: the game, the hand, the roles
    whose: str  #: whose cards ``melds`` and ``deadwood`` are: "hand", or the captain's the sitter advises
    turn: str  #: whose turn it is, and what is asked
    melds: str  #: the person's melds (or the cards he advises on, as the sitter)
    deadwood: str  #: the person's deadwood and its count
    pile: str  #: the top of the discard pile and the stock left
    discards: tuple[str, ...]  #: every card discarded this hand, in order, who discarded it, and who took it
    known: tuple[str, ...]  #: per other seat: the cards he picked up from the pile and still holds
    score: tuple[str, ...]  #: each seat's score, to the target
    last: str  #: the last move of another seat (a bot's), marked
    advice: str  #: advice given this hand (as the seat heard it), or ""
    choices: tuple[str, ...]  #: the numbered choices

    def text(self) -> str:
        """The whole board as plain text, panel by panel (what a snapshot and a screen reader get)."""
        parts = [self.head, self.turn, f"{self.whose}: {self.melds}  {self.deadwood}".rstrip(), self.pile,
                 "discards: " + (" ".join(self.discards) or "none yet"), *self.known, " │ ".join(self.score),
                 self.last, self.advice, *self.choices]  # fmt: skip
        return "\n".join(p for p in parts if p)


def seen_events(session: Session) -> list[Seen]:
    """The match's events as the person's seat saw them."""
    return SeatLens(session.match.rules, session.me).see_all(session.match.events)


def this_hand(events: Sequence[Seen]) -> Sequence[Seen]:
    """The events of the hand in play (or of the last one, between hands)."""
    starts = [i for i, e in enumerate(events) if isinstance(e, HandStarted)]
    return events[starts[-1] :] if starts else events


def discards(events: Sequence[Seen], names: Voice) -> tuple[str, ...]:
    """Every card laid face up on the pile this hand, in order — the upcard first, ``Qh(upcard)``, then each
    discard, ``7c(greedy)`` — and ``>you`` after one picked up since."""
    out: list[tuple[Card, str, str]] = []
    for e in events:
        if isinstance(e, Dealt):
            out.append((e.upcard, "upcard", ""))
        elif isinstance(e, UpcardTaken) and out and out[-1][0] == e.card:
            out[-1] = (e.card, "upcard", names.who(e.seat))
        elif isinstance(e, Discarded):
            out.append((e.card, names.who(e.seat), ""))
        elif isinstance(e, DrewDiscard) and out and out[-1][0] == e.card:
            card, who, _ = out[-1]
            out[-1] = (card, who, names.who(e.seat))
    return tuple(f"{c}({who}{'>' + taker if taker else ''})" for c, who, taker in out)


def known(events: Sequence[Seen], seats: Sequence[int], names: Voice) -> tuple[str, ...]:
    """Per seat: the cards it took from the discard pile this hand (the upcard too) and has not discarded face up
    since — what every seat knows it holds (VIS-1)."""
    held: dict[int, list[Card]] = {s: [] for s in seats}
    for e in events:
        if isinstance(e, UpcardTaken | DrewDiscard) and e.seat in held:
            held[e.seat].append(e.card)
        elif isinstance(e, Discarded) and e.seat in held and e.card in held[e.seat]:
            held[e.seat].remove(e.card)
    return tuple(f"{names.who(s)} holds: {fmt(cards) if cards else 'nothing known'}" for s, cards in held.items())


def last_move(events: Sequence[Seen], me: int, names: Voice) -> str:
    """The last move of another seat this hand, marked (``▶ greedy discards 7c``)."""
    for e in reversed(events):
        seat = getattr(e, "seat", None)
        if isinstance(e, HandStarted | HandEnded) or seat is None:
            continue
        if seat != me:
            return f"▶ last: {narrate(e, names)}"
    return ""


def advice(events: Sequence[Seen], names: Voice) -> str:
    """The last advice of this hand, as the seat heard it (the box hears only that there was some, THREE-8)."""
    for e in reversed(events):
        if isinstance(e, Advised | HiddenAdvice):
            return f"advice: {narrate(e, names)}"
    return ""


def build(session: Session, names: Voice, offered: Sequence[tuple[Action, str]], turn: str,
          cards: tuple[Card, ...] | None = None) -> Board:  # fmt: skip
    """The board for the person at ``session`` now; ``offered``: the numbered choices; ``turn``: what is asked;
    ``cards``: the cards shown as the hand (the person's, or the captain's when the sitter advises)."""
    match = session.match
    events = seen_events(session)
    hand_events = this_hand(events)
    me = session.me
    rules = match.rules
    hand = match.hand
    obs = match.observation(me).hand if hand is not None else None
    shown = cards if cards is not None else (obs.hand if obs is not None else ())
    captain = match.captain if hand is not None else None
    whose = f"{names.whose(captain)} hand" if match.sitter == me and captain is not None else "hand"
    if shown:
        arr = best_arrangement(to_mask(shown))
        melds = "  ".join("[" + " ".join(map(str, m.cards)) + "]" for m in arr.melds) or "no melds"
        dead = f"deadwood {fmt(arr.deadwood_cards)} = {arr.deadwood}" if arr.deadwood_cards else "no deadwood"
    else:
        melds, dead = "(no cards this hand)", ""
    if obs is not None:
        top = obs.discard_pile[-1] if obs.discard_pile else None
        pile = (f"pile top {top or 'empty'} ({len(obs.discard_pile)} in the pile) │ stock {obs.stock_size} │ "
                f"knock limit {obs.knock_limit}")  # fmt: skip
    else:
        pile = "between hands"
    roles = role_text(match, me, names) if hand is not None else ""
    head = f"Knock │ {rules.name} Gin to {rules.target} │ hand {match.number}" + (f" │ {roles}" if roles else "")
    scores = tuple(f"{names.who(s)} {score}" for s, score in enumerate(match.scores))
    others = [s for s in range(rules.players) if s != me]
    if hand is not None and match.sitter is not None:
        others = [s for s in others if s != match.sitter]
    lines = tuple(option_lines(offered, obs)) if offered and obs is not None else ()
    return Board(head=head, whose=whose, turn=turn, melds=melds, deadwood=dead, pile=pile,
                 discards=discards(hand_events, names),
                 known=known(hand_events, others, names), score=(f"score (to {rules.target}):", *scores),
                 last=last_move(hand_events, me, names), advice=advice(hand_events, names), choices=lines)  # fmt: skip


__all__ = ["Board", "build", "discards", "known", "last_move", "seen_events"]
