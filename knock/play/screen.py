"""What the table shows a person, as text in card notation (the terminal colours the cards): a status line, the
options with the deadwood they leave, the score sheet. The game's events in words are ``replay.narration``'s.

Everything here reads what the seat may see (``engine.visibility``): observations and events as the seat saw
them (``SeatLens``). Rules: VIS-1, THREE-8.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import kernel
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
    shown_mask,
)
from engine.cards import Card, fmt, from_mask, to_mask
from engine.events import (
    GameOver,
    HandEnded,
)
from engine.fsm import Phase
from engine.match import Match
from engine.melds import best_arrangement, deadwood, value
from engine.visibility import Observation
from replay.narration import NOTATION, Voice, action_text, answer_text, result_text

#: How many spreads or answers to list (the best first); any other may still be typed.
SHOWN = 9

# --- the table: status, cards, options --------------------------------------------------------------


def role_text(match: Match, me: int, names: Voice) -> str:
    """The person's role this hand, in words."""
    roles = match.roles()
    if match.sitter is None:
        return "you deal" if roles["dealer"] == me else f"{names.who(roles['dealer'])} deals"
    box, captain, sitter = names.who(roles["box"]), names.who(roles["captain"]), names.who(roles["sitter"])
    if roles["sitter"] == me:
        return f"you sit out, advising {captain}"
    mine = f"you are the box v {captain}" if roles["box"] == me else f"you are captain v {box}"
    return f"{mine}; {sitter} sits out (bots give no advice)"


def status(match: Match, obs: Observation, names: Voice) -> str:
    """The status: hand, top of the discard pile, stock left, knock limit; then the scores and the person's role
    (two short lines rather than one that wraps)."""
    top = obs.discard_pile[-1] if obs.discard_pile else None
    scores = ", ".join(f"{names.who(s)} {score}" for s, score in enumerate(match.scores))
    table = f"hand {match.number} │ discard pile {top or 'empty'} │ stock {obs.stock_size}"
    table += f" │ knock limit {obs.knock_limit}"
    assert names.me is not None  # the table speaks to the person at it
    return f"{table}\nscore {scores} (to {match.rules.target}) │ {role_text(match, names.me, names)}"


def cards_text(obs: Observation) -> str:
    """The seat's cards grouped by melds (its best arrangement), then the deadwood."""
    if not obs.hand:
        return "(not shown)"
    arr = best_arrangement(to_mask(obs.hand))
    melds = "  ".join(f"[{m.cards[0]}" + "".join(f" {c}" for c in m.cards[1:]) + "]" for m in arr.melds)
    dead = f"deadwood {fmt(arr.deadwood_cards)} = {arr.deadwood}" if arr.deadwood_cards else "no deadwood"
    return f"{melds}  {dead}".strip()


def options(obs: Observation, legal: Sequence[Action], your: str = "your") -> list[tuple[Action, str]]:
    """The moves to offer, each with its text and the deadwood it leaves, in the order shown: the upcard or draw
    choices as they come; discards from the least deadwood up, then knocks; spreads and answers best first (at
    most ``SHOWN``)."""
    mask = to_mask(obs.hand)
    first = legal[0]
    if isinstance(first, Spread | LayOff):
        ranked = sorted(legal, key=lambda a: (_left(a, mask), legal.index(a)))
        return [(a, _showdown_text(a, mask, obs)) for a in ranked[:SHOWN]]
    out: list[tuple[Action, str]] = []
    discards = sorted((a for a in legal if isinstance(a, Discard)),
                      key=lambda a: (deadwood(mask ^ a.card.bit), -a.card.value, a.card.rank))  # fmt: skip
    knocks = sorted((a for a in legal if isinstance(a, Knock)), key=lambda a: (deadwood(mask ^ a.card.bit), a.card))
    rest = [a for a in legal if not isinstance(a, Discard | Knock)]
    for a in [*rest, *discards, *knocks]:
        out.append((a, option_text(a, obs, mask, your)))
    return out


def option_lines(offered: Sequence[tuple[Action, str]], obs: Observation, per_row: int = 6) -> list[str]:
    """The numbered options as lines: one a line, except discards and knocks, in rows under a heading."""
    mask = to_mask(obs.hand)
    lines: list[str] = []
    cells: list[str] = []
    kind = ""
    for i, (action, text) in enumerate(offered, start=1):
        if not isinstance(action, Discard | Knock):
            lines.append(f"  {i:>2}. {text}")
            continue
        this = "knock" if isinstance(action, Knock) else "discard"
        if this != kind:
            lines += _rows(cells, per_row)
            cells, kind = [], this
            lines.append(f"  {this} (the deadwood it leaves):")
        dw = deadwood(mask ^ action.card.bit)
        cells.append(f"{i:>2}. {action.card} {dw:>2}" + (" gin" if isinstance(action, Knock) and dw == 0 else ""))
    return lines + _rows(cells, per_row)


def _rows(cells: list[str], per_row: int) -> list[str]:
    width = max((len(c) for c in cells), default=0)
    return [
        "    " + "   ".join(c.ljust(width) for c in cells[i : i + per_row]).rstrip()
        for i in range(0, len(cells), per_row)
    ]


def option_text(action: Action, obs: Observation, mask: int, your: str = "your") -> str:
    """An option in words with the deadwood it leaves (``your``: whose, "his" for the captain the sitter advises)."""
    top = obs.discard_pile[-1] if obs.discard_pile else None
    match action:
        case PassUpcard():
            return "pass"
        case TakeUpcard() | DrawDiscard():
            verb = "take the upcard" if isinstance(action, TakeUpcard) else "pick up"
            assert top is not None
            if obs.phase is Phase.WALL:
                return f"pick up {top} and knock — it is the last discard (DEAD-2)"
            return f"{verb} {top} — deadwood {after_taking(obs, mask, top)} after {your} discard"
        case DrawStock():
            return f"draw from the stock — an unseen card; {your} deadwood before it: {deadwood(mask)}"
        case Discard(card=c):
            return f"discard {c} — deadwood {deadwood(mask ^ c.bit)}"
        case Knock(card=c):
            dw = deadwood(mask ^ c.bit)
            return f"knock {c} — gin!" if dw == 0 else f"knock {c} — deadwood {dw}"
        case BigGin():
            return "big gin — all eleven cards melded, no discard"
        case DeclineWall():
            return "decline — the hand is dead"
        case _:
            return action_text(action, NOTATION)


def after_taking(obs: Observation, mask: int, card: Card) -> int:
    """The least deadwood after taking ``card`` and discarding another (TURN-4: not the card taken)."""
    held = mask | card.bit
    free = kernel.may_discard_taken(obs.rules)
    return min(deadwood(held ^ c.bit) for c in from_mask(held) if free or c != card)


def _left(action: Action, mask: int) -> int:
    """The deadwood a spread or an answer leaves."""
    return value(mask & ~shown_mask(action))


def _showdown_text(action: Action, mask: int, obs: Observation) -> str:
    left = from_mask(mask & ~shown_mask(action))
    if isinstance(action, LayOff):
        return answer_text(action.melds, action.layoffs, left, NOTATION)
    assert isinstance(action, Spread)
    return f"spread {NOTATION.melds(action.melds) or 'no melds'} — " + (
        "gin" if not left else f"deadwood {fmt(left)} = {sum(c.value for c in left)}"
    )


# --- the score sheet ---------------------------------------------------------------------------------


def sheet(events: Sequence[object], names: Voice) -> tuple[list[str], list[list[str]]]:
    """The score sheet so far: a row per hand (its result, everyone's running score), and the final totals."""
    head = ["hand", "result", *names.players]
    rows: list[list[str]] = []
    for e in events:
        if isinstance(e, HandEnded):
            rows.append([str(e.number), result_text(e.result, names), *map(str, e.scores)])
        elif isinstance(e, GameOver) and (not rows or rows[-1][2:] != list(map(str, e.totals))):
            rows.append(["", "final totals, with the bonuses", *map(str, e.totals)])
    return head, rows


__all__ = ["cards_text", "options", "sheet", "status"]
