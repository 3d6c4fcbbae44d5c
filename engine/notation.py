"""The action notation: the one reader of the grammar of ``spec/notation.md``. Rules: NOTE-1 .. NOTE-10.

Text in, a ``Written`` out: what the text says, word by word, cards as their indices in the order written and
nothing judged but the form. Whether cards make a meld (MELD-1, MELD-2) and whether the action may be played
are the rules' questions, asked later (``engine.actions`` builds the action, the kernel checks it). Every
refusal is a ``NotationError`` naming the NOTE rule of the first word, from the left, that breaks the grammar.

>>> parse("p1 layoff 9c-9d-9h 7c>4c-5c-6c")
Written(seat=1, verb='layoff', melds=((8, 21, 34),), layoffs=((6, (3, 4, 5)),))
>>> parse("p2 advise p1 knock Kh").suggestion
Written(seat=1, verb='knock', card=38)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.errors import NotationError

RANKS = "A23456789TJQK"
SUITS = "cdhs"
#: The verbs of the actions that take no argument (NOTE-5), in their canonical spelling.
BARE_VERBS = ("take", "pass", "draw", "pickup", "big-gin", "decline")
#: The verbs of the actions that name one card (NOTE-5).
CARD_VERBS = ("discard", "knock")
#: The verbs of a game's end before the target (NOTE-11): ``resign`` and ``abort`` take nothing, ``claim`` a seat
#: and a time.
ENDING_VERBS = ("resign", "abort", "claim")
#: Every verb of the grammar (NOTE-5, NOTE-6, NOTE-7, NOTE-8, NOTE-11).
VERBS = (*BARE_VERBS, *CARD_VERBS, "spread", "layoff", "advise", *ENDING_VERBS)
#: White space between words (NOTE-1): space, tab, line feed, vertical tab, form feed, carriage return.
WHITE_SPACE = " \t\n\v\f\r"
_WS = re.compile(r"[ \t\n\v\f\r]+")
_SEAT = re.compile(r"p[0-9]")
_TIME = re.compile(r"[0-9]{1,15}")


def words(text: str) -> list[str]:
    """The words of a text: split at runs of white space, none before the first or after the last. Rule: NOTE-1.

    >>> words("  p0\\tdiscard  Kh\\n")
    ['p0', 'discard', 'Kh']
    """
    return [w for w in _WS.split(text) if w]


def is_seat(word: str) -> bool:
    """Whether a word is a seat, ``p`` and one digit (``p0`` .. ``p9``; the ``p`` in lower case). Rule: NOTE-4."""
    return _SEAT.fullmatch(word) is not None


def card_index(text: str) -> int:
    """The index 0..51 (suit-major) of a card written rank then suit. Rule: NOTE-2.

    Rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (also ``10`` for ``T``), suit ``c d h s``, each letter in either case.

    >>> card_index("Td"), card_index("10D"), card_index("as")
    (22, 22, 39)
    """
    t = "T" + text[2:] if text[:2] == "10" else text
    if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
        raise NotationError(f"NOTE-2: not a card: {text!r} (write rank then suit, e.g. 'As', 'Td')")
    return SUITS.index(t[1].lower()) * 13 + RANKS.index(t[0].upper())


def card_text(index: int) -> str:
    """A card's canonical text (``Td``) from its index. Rule: NOTE-2."""
    return RANKS[index % 13] + SUITS[index // 13]


def meld_cards(text: str) -> tuple[int, ...]:
    """The cards of a meld written ``4c-5c-6c``, in the order written: cards joined by single hyphens. Whether
    they make a meld is MELD-1 and MELD-2's question, not the notation's. Rules: NOTE-3, NOTE-2."""
    parts = text.split("-")
    if not text or any(not p for p in parts):
        raise NotationError(f"NOTE-3: not a meld: {text!r} (cards joined by hyphens, e.g. '4c-5c-6c')")
    return tuple(card_index(p) for p in parts)


def layoff_cards(text: str) -> tuple[int, tuple[int, ...]]:
    """A layoff written ``7c>4c-5c-6c``: the card laid off, ``>``, the knocker's meld it goes onto. Rule: NOTE-7."""
    card, sep, onto = text.partition(">")
    if not sep or not card or not onto or ">" in onto:
        raise NotationError(f"NOTE-7: not a layoff: {text!r} (a card, '>' and a meld, e.g. '7c>4c-5c-6c')")
    return card_index(card), meld_cards(onto)


@dataclass(frozen=True, slots=True)
class Written:
    """What an action's text says (NOTE-1 .. NOTE-8): its seat if it gives one, its verb in canonical spelling,
    and its arguments as card indices in the order written. Only the fields of its verb are set.

    ``loose`` holds a layoff's unassigned cards (a card alone, NOTE-7), which only the game can assign
    (CONF-13); ``suggestion`` is the action an ``advise`` suggests (NOTE-8).
    """

    seat: int | None
    verb: str
    card: int | None = None
    melds: tuple[tuple[int, ...], ...] = ()
    layoffs: tuple[tuple[int, tuple[int, ...]], ...] = ()
    loose: tuple[int, ...] = ()
    suggestion: Written | None = field(default=None)
    absent: int | None = None  #: a claim's absent seat (NOTE-11)
    at: int | None = None  #: a claim's time, whole seconds since the epoch (NOTE-11)

    def __repr__(self) -> str:
        shown = [f"seat={self.seat!r}", f"verb={self.verb!r}"]
        for name in ("card", "melds", "layoffs", "loose", "suggestion", "absent", "at"):
            value = getattr(self, name)
            if value is not None and value != ():
                shown.append(f"{name}={value!r}")
        return f"Written({', '.join(shown)})"

    def to_json(self) -> dict[str, Any]:
        """The parse as JSON, cards as their text: the form of ``spec/notation-examples.json``."""
        out: dict[str, Any] = {"seat": self.seat, "verb": self.verb}
        if self.card is not None:
            out["card"] = card_text(self.card)
        if self.verb in ("spread", "layoff"):
            out["melds"] = [[card_text(c) for c in m] for m in self.melds]
        if self.verb == "layoff":
            out["layoffs"] = [[card_text(c), [card_text(x) for x in m]] for c, m in self.layoffs]
            out["unassigned"] = [card_text(c) for c in self.loose]
        if self.suggestion is not None:
            out["suggestion"] = self.suggestion.to_json()
        if self.verb == "claim":
            out["absent"], out["at"] = self.absent, self.at
        return out


def parse(text: str) -> Written:
    """Read an action's text by the grammar (``action-text`` of ``spec/notation.md``).

    Raises:
        NotationError: naming the NOTE rule of the first word, from the left, that breaks the grammar (NOTE-10).
    """
    if not isinstance(text, str):
        raise NotationError(f"NOTE-1: an action's text is a string, not {type(text).__name__}")
    return _action(words(text), text, advice=True)


def _action(ws: list[str], text: str, *, advice: bool) -> Written:
    seat: int | None = None
    if ws and is_seat(ws[0]):
        seat, ws = int(ws[0][1]), ws[1:]
    if not ws:
        raise NotationError(f"NOTE-5: no action in {text!r} (a verb such as 'draw' or 'discard Kh')")
    verb, args = ws[0].lower(), ws[1:]
    if verb in BARE_VERBS:
        if args:
            raise NotationError(f"NOTE-5: {verb} takes no card: {text!r}")
        return Written(seat, verb)
    if verb in CARD_VERBS:
        if len(args) != 1:
            raise NotationError(f"NOTE-5: {verb} names one card: {text!r} (e.g. '{verb} Kh')")
        return Written(seat, verb, card=card_index(args[0]))
    if verb == "spread":
        return Written(seat, verb, melds=tuple(meld_cards(a) for a in args))
    if verb == "layoff":
        return _layoff(seat, args)
    if verb == "advise":
        if not advice:
            raise NotationError(f"NOTE-8: advice suggests an action, not advice: {text!r}")
        if not args or not is_seat(args[0]):
            raise NotationError(f"NOTE-8: advice names the captain's seat first: {text!r} (e.g. 'advise p1 draw')")
        return Written(seat, verb, suggestion=_action(args, text, advice=False))
    if verb in ENDING_VERBS:
        if not advice:
            raise NotationError(f"NOTE-11: advice suggests an action of the hand, not the game's end: {text!r}")
        if verb != "claim":
            if args:
                raise NotationError(f"NOTE-11: {verb} takes nothing: {text!r}")
            return Written(seat, verb)
        if len(args) != 3 or not is_seat(args[0]) or args[1].lower() != "at" or not _TIME.fullmatch(args[2]):
            raise NotationError(f"NOTE-11: a claim names the away seat and the time: {text!r} (e.g. 'claim p1 at "
                                "1765100000')")  # fmt: skip
        return Written(seat, verb, absent=int(args[0][1]), at=int(args[2]))
    raise NotationError(f"NOTE-5: not an action: {text!r}")


def unassigned(word: str) -> bool:
    """Whether a word of a layoff is an unassigned layoff, a card alone: no ``>`` and no hyphen. Rule: NOTE-7."""
    return ">" not in word and "-" not in word


def _layoff(seat: int | None, args: list[str]) -> Written:
    melds: list[tuple[int, ...]] = []
    layoffs: list[tuple[int, tuple[int, ...]]] = []
    loose: list[int] = []
    for a in args:
        if unassigned(a):
            loose.append(card_index(a))
        elif ">" in a:
            layoffs.append(layoff_cards(a))
        else:
            melds.append(meld_cards(a))
    return Written(seat, "layoff", melds=tuple(melds), layoffs=tuple(layoffs), loose=tuple(loose))


__all__ = ["BARE_VERBS", "CARD_VERBS", "ENDING_VERBS", "RANKS", "SUITS", "VERBS", "WHITE_SPACE", "Written",
           "card_index", "card_text", "is_seat", "layoff_cards", "meld_cards", "parse", "unassigned",
           "words"]  # fmt: skip
