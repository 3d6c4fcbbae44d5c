"""What a person types at the table, read into a command: a move, or one of the table's own words.

Cards in any notation the screen shows or a person is likely to type — ``K♥``, ``Kh``, ``KH``, ``10s``,
``Ts``, ``king of hearts`` — moves with their usual aliases, option numbers, and the table's words (``?``,
``hint``, ``score``, ``undo``, ``q``). Reading never judges legality: a move read here goes to the engine's one
validation path (``Match.check``), which names the rule that refuses it. Text that is not a move at all gets
plain help, never a rule id.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from engine import fsm, kernel
from engine.actions import (
    Action,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    PassUpcard,
    TakeUpcard,
    parse_action,
)
from engine.cards import RANKS, Card, to_mask
from engine.errors import InvalidMeld, NotationError
from engine.fsm import Phase
from engine.kernel import Refused
from engine.melds import deadwood

_RANK_WORDS = {
    "ace": "A", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8",
    "nine": "9", "ten": "T", "jack": "J", "queen": "Q", "king": "K", "10": "T",
}  # fmt: skip
_SUIT_WORDS = {"club": "c", "diamond": "d", "heart": "h", "spade": "s"}
_SUIT_GLYPHS = {"♣": "c", "♧": "c", "♦": "d", "♢": "d", "♥": "h", "♡": "h", "♠": "s", "♤": "s"}
_NAMED = re.compile(
    r"\b(" + "|".join(sorted({*_RANK_WORDS, *RANKS.lower()}, key=len, reverse=True)) + r")\s+of\s+"
    r"(club|diamond|heart|spade)s?\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"(?<![A-Za-z0-9])(10|[A2-9TJQK])([CDHS♣♧♦♢♥♡♠♤])(?![A-Za-z0-9])", re.IGNORECASE)


def normalise(text: str) -> str:
    """Every card in ``text`` written in Knock's notation (``Kh``, ``Td``); everything else as it was.

    >>> normalise("knock K♥"), normalise("discard 10S"), normalise("the queen of spades"), normalise("js")
    ('knock Kh', 'discard Ts', 'the Qs', 'Js')
    """
    text = text.replace("\ufe0f", "")  # the emoji form of a suit symbol (♥️) is the symbol and a selector

    def named(m: re.Match[str]) -> str:
        rank = m.group(1).lower()
        return _RANK_WORDS.get(rank, rank.upper()) + _SUIT_WORDS[m.group(2).lower()]

    def token(m: re.Match[str]) -> str:
        rank, suit = m.group(1).upper(), m.group(2)
        return _RANK_WORDS.get(rank, rank) + _SUIT_GLYPHS.get(suit, suit.lower())

    return _TOKEN.sub(token, _NAMED.sub(named, text))


def card_of(text: str) -> Card | None:
    """The card ``text`` names, in any notation ``normalise`` reads, or None; what ``normalise`` writes is read by
    the notation's one card reader (``Card.parse``, NOTE-2)."""
    try:
        return Card.parse(normalise(text.strip()))
    except NotationError:
        return None


# --- commands ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """A move to try: it goes to the engine's validation path, which may refuse it with a rule."""

    action: Action


@dataclass(frozen=True, slots=True)
class Word:
    """One of the table's own words: ``help``, ``hint``, ``score``, ``undo``, ``undo anyway`` (also
    into a hand already scored), ``quit`` or ``none`` (no advice)."""

    name: str


@dataclass(frozen=True, slots=True)
class Typo:
    """Text that is not a move: plain help, no rule id."""

    message: str


@dataclass(frozen=True, slots=True)
class Refusal:
    """A move the rules refuse before it can even be built (cards that are no meld, gin without gin)."""

    rule: str
    reason: str


Command: TypeAlias = Move | Word | Typo | Refusal

WORDS = {
    "?": "help", "h": "help", "help": "help", "hint": "hint", "score": "score", "scores": "score", "undo": "undo",
    "undo anyway": "undo anyway", "q": "quit", "quit": "quit", "exit": "quit", "none": "none", "no": "none",
    "-": "none", "resign": "resign", "concede": "resign", "abort": "abort",
}  # fmt: skip

#: Verbs and their aliases. A group names the actions it may mean; the phase picks the one it takes.
_VERBS: dict[str, tuple[type[Action], ...]] = {
    "take": (TakeUpcard, DrawDiscard), "pickup": (DrawDiscard, TakeUpcard), "pick": (DrawDiscard, TakeUpcard),
    "pass": (PassUpcard, DeclineWall), "decline": (DeclineWall, PassUpcard), "draw": (DrawStock,),
    "stock": (DrawStock,), "big-gin": (BigGin,), "biggin": (BigGin,),
}  # fmt: skip
_SHOWDOWN_WORDS = {"spread", "layoff", "lay", "show", "meld", "melds", "and", "nothing"}
_LAY_OFF = re.compile(r"\blay\s*off\b", re.IGNORECASE)
_LAYOFF_WORDS = re.compile(r"\b([A2-9TJQK][cdhs])\s+(?:on|onto|to)\s+")
_FILLER = {"up", "the", "upcard", "card", "from", "a", "it", "stock", "top", "discard", "pile", "of"}


@dataclass(frozen=True, slots=True)
class Context:
    """What reading needs to know of the table: the numbered options, the legal moves and the seat's cards."""

    seat: int
    phase: Phase
    options: Sequence[Action]  #: as numbered on the screen (1 is the first)
    legal: Sequence[Action]
    hand: tuple[Card, ...]
    top: Card | None  #: the top of the discard pile
    knock_limit: int


def read(text: str, ctx: Context) -> Command:
    """The command ``text`` asks for at this point of the game."""
    raw = " ".join(text.split())
    low = raw.lower()
    if not raw:
        return Typo(f"type a number from the list (1–{len(ctx.options)}), or a move such as "
                    f"{_example(ctx)}; ? shows everything you can type")  # fmt: skip
    if low in WORDS:
        return Word(WORDS[low])
    if raw.isdigit():
        n = int(raw)
        if 1 <= n <= len(ctx.options):
            return Move(ctx.options[n - 1])
        return Typo(f"there is no option {n}: the options are 1–{len(ctx.options)}")
    words = normalise(raw).split()
    verb, args = words[0].lower(), words[1:]
    card = card_of(words[0]) if len(words) == 1 else None
    if card is not None:
        return _bare_card(card, ctx)
    if verb in _VERBS or (verb == "pick" and args[:1] == ["up"]):
        cards = [c for c in map(card_of, args) if c is not None]
        extra = [a for a in args if card_of(a) is None and a.lower() not in _FILLER]
        if extra or len(cards) > 1:
            return Typo(f"{raw!r}: {verb} takes no card (the card is the top of the discard pile, or of the stock)")
        return Move(_in_phase(_VERBS[verb], ctx)(ctx.seat))
    if verb in ("discard", "knock", "drop", "throw"):
        return _card_move(Knock if verb == "knock" else Discard, args, raw, ctx)
    if verb == "gin":
        return _gin(ctx)
    if verb in _SHOWDOWN_WORDS:
        return _showdown(verb, raw, ctx)
    return Typo(f"{raw!r} is not a move: type a number from the list, or a move such as {_example(ctx)}; "
                "? shows everything you can type")  # fmt: skip


def _in_phase(group: tuple[type[Action], ...], ctx: Context) -> Callable[[int], Action]:
    """The action of ``group`` that this phase takes (the first when none does: the engine then says why)."""
    triggers = fsm.TRIGGERS.get(ctx.phase, frozenset())
    return next((kind for kind in group if kind.trigger in triggers), group[0])


def _bare_card(card: Card, ctx: Context) -> Command:
    """A card alone: a discard when that is the only thing to do with it; the top card, to take it."""
    if ctx.phase in (Phase.UPCARD_OFFER, Phase.DRAW, Phase.WALL) and card == ctx.top:
        return Move(_in_phase(_VERBS["take"], ctx)(ctx.seat))
    knock, discard = Knock(ctx.seat, card), Discard(ctx.seat, card)
    if knock in ctx.legal and discard in ctx.legal:
        return Typo(f"{card}: discard it, or knock with it? type 'discard {card}' or 'knock {card}' "
                    f"(knocking leaves {deadwood(to_mask(ctx.hand) ^ card.bit)} deadwood)")  # fmt: skip
    return Move(knock if knock in ctx.legal else discard)


def _card_move(kind: type[Discard] | type[Knock], args: list[str], raw: str, ctx: Context) -> Command:
    verb = "knock" if kind is Knock else "discard"
    if len(args) == 1 and (card := card_of(args[0])) is not None:
        return Move(kind(ctx.seat, card))
    if args:
        return Typo(
            f"{args[0]!r} is not a card: write the rank then the suit, e.g. K♥, kh, KH, 10s or 'king of hearts'"
        )
    if kind is Discard:
        return Typo(f"discard which card? e.g. {_example(ctx)}")
    knocks = [a for a in ctx.legal if isinstance(a, Knock)]
    if len(knocks) == 1:
        return Move(knocks[0])
    if knocks:
        listed = ", ".join(f"knock {a.card} ({deadwood(to_mask(ctx.hand) ^ a.card.bit)})" for a in knocks[:6])
        return Typo(f"{verb} with which card? {listed}")
    return Move(Knock(ctx.seat, _best_knock(ctx)))  # the engine says why not (KNOCK-2, or not now)


def _gin(ctx: Context) -> Command:
    big = BigGin(ctx.seat)
    if big in ctx.legal:
        return Move(big)
    mask = to_mask(ctx.hand)
    gins = [a for a in ctx.legal if isinstance(a, Knock) and deadwood(mask ^ a.card.bit) == 0]
    if gins:
        return Move(max(gins, key=lambda a: (a.card.value, a.card.rank, a.card.suit)))
    if ctx.hand and ctx.phase is Phase.DISCARD:  # gin now, but no discard leaves 0: the kernel says so
        try:
            kernel.verify_gin_knock(mask, _best_knock(ctx))
        except Refused as err:
            return Refusal(err.rule, err.reason)
    return Move(Knock(ctx.seat, _best_knock(ctx)))


def _showdown(verb: str, raw: str, ctx: Context) -> Command:
    """A spread or an answer written out: melds as ``As-2s-3s``, layoffs as ``7c>4c-5c-6c`` or in words
    (``show 9c-9d-9h, lay off 7c on 4c-5c-6c``)."""
    kind = "layoff" if ctx.phase is Phase.LAYOFF or verb in ("layoff", "lay") else "spread"
    text = _LAYOFF_WORDS.sub(r"\1>", _LAY_OFF.sub(" ", normalise(raw).replace(",", " ").replace(";", " ")))
    body = [w for w in text.split() if w.lower() not in _SHOWDOWN_WORDS]
    try:
        return Move(parse_action(" ".join([kind, *body]), ctx.seat))
    except InvalidMeld as err:
        return Refusal(err.rule, err.reason)
    except NotationError:
        return Typo(f"{raw!r}: write melds as A♠-2♠-3♠ and layoffs as 7♣>4♣-5♣-6♣, "
                    "e.g. 'layoff 9c-9d-9h 7c>4c-5c-6c'; or choose a number")  # fmt: skip


def _best_knock(ctx: Context) -> Card:
    """The card whose knock would leave the least deadwood (to let the engine judge it)."""
    mask = to_mask(ctx.hand)
    if not ctx.hand:
        return Card.parse("Kh")  # a sitter's view without the captain's cards: any card, the engine refuses it
    return min(ctx.hand, key=lambda c: (deadwood(mask ^ c.bit), -c.value))


def _example(ctx: Context) -> str:
    """A move to show as an example, fitting the phase."""
    if ctx.phase is Phase.UPCARD_OFFER:
        return "'take' or 'pass'"
    if ctx.phase is Phase.DRAW:
        return "'draw' or 'pickup'"
    if ctx.phase in (Phase.KNOCK, Phase.LAYOFF):
        return "'1' (the best)"
    if ctx.phase is Phase.WALL:
        return "'pickup' or 'decline'"
    card = max(ctx.hand, default=Card.parse("Kh"), key=lambda c: (c.value, c.rank, c.suit))
    return f"'discard {card}' (or just '{card}')"


HELP = """\
Choose a move by its number, or type it:
  take, pass              the first upcard (also: pickup / decline)
  draw, stock             the top of the stock
  pickup, take            the top of the discard pile
  discard K♥, or K♥       discard a card (K♥, Kh, KH, 10s, Ts, 'king of hearts' all work)
  knock K♥, gin           knock, discarding K♥ face down; 'gin' knocks with no card over
  spread …, layoff …      melds as A♠-2♠-3♠, layoffs as 7♣>4♣-5♣-6♣ (or just choose a number)
Also:
  hint                    what the heuristic bot would play here, and why
  score                   the score sheet so far
  undo                    take back your last move (never a stock draw; 'undo anyway' into a scored hand)
  resign                  give the game up: you lose it (asked again first; END-1)
  abort                   call the game off before both of you have moved: no winner (END-2)
  q                       stop; the log keeps the game, and 'knock play --resume LOG' continues it
  ?                       this help"""

ADVICE_HELP = """\
You sit out this hand and may advise the captain (he has the final word):
  a number                suggest that option
  a move                  e.g. 'take', 'discard K♥', 'knock K♥'
  Enter, none             no advice this time
Also: hint, score, undo, resign, abort, q (stop), ? (this help)"""


__all__ = ["ADVICE_HELP", "HELP", "Command", "Context", "Move", "Refusal", "Typo", "Word", "card_of", "normalise",
           "read"]  # fmt: skip
