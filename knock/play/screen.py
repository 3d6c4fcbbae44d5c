"""What the table shows a person, as text in card notation (the terminal colours the cards): the game's events
in plain words from the person's seat, a status line, the options with the deadwood they leave, the score sheet.

Everything here reads what the seat may see (``engine.visibility``): observations and events as the seat saw
them (``SeatLens``). Rules: VIS-1, THREE-8.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

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
    shown_mask,
)
from engine.cards import Card, fmt, from_mask, to_mask
from engine.events import (
    Advised,
    BigGinDeclared,
    CutDrawn,
    Dealt,
    DefenceLaid,
    Discarded,
    DrewDiscard,
    DrewStock,
    GameOver,
    HandDead,
    HandEnded,
    HandScored,
    HandStarted,
    Knocked,
    SpreadLaid,
    UpcardPassed,
    UpcardTaken,
    WallDeclined,
)
from engine.fsm import Phase
from engine.match import Match
from engine.melds import Meld, best_arrangement, deadwood, value
from engine.scoring import HandResult, ResultKind
from engine.showdown import Layoff
from engine.visibility import HiddenAdvice, HiddenDraw, HiddenKnock, Observation, Seen

#: How many spreads or answers to list (the best first); any other may still be typed.
SHOWN = 9

#: Why a dead hand died, in words (HandResult.reason).
DEAD_REASONS = {
    "stock": "only two cards were left in the stock",
    "pickup cap": "too many pickups from the discard pile in a row",
    "last discard declined": "the last discard was left",
}


@dataclass(frozen=True, slots=True)
class Names:
    """How the table names the seats: the person is "you", the others by their names in the log."""

    players: tuple[str, ...]
    me: int

    def who(self, seat: int | None) -> str:
        return "nobody" if seat is None else "you" if seat == self.me else self.players[seat]

    def whose(self, seat: int) -> str:
        return "your" if seat == self.me else f"{self.players[seat]}'s"

    def does(self, seat: int, verb: str, third: str | None = None) -> str:
        """``you pass`` / ``greedy passes``."""
        return f"{self.who(seat)} {verb if seat == self.me else third or verb + 's'}"


# --- events in words ------------------------------------------------------------------------------


def meld_text(melds: Sequence[Meld]) -> str:
    return " ".join(map(str, melds))


def layoff_text(layoffs: Sequence[Layoff]) -> str:
    """``lay off 2h on 2c-2d-2s and 6c 7c on 3c-4c-5c``: the layoffs in plain words, by the meld they go onto."""
    onto: dict[Meld, list[Card]] = {}
    for lo in layoffs:
        onto.setdefault(lo.onto, []).append(lo.card)
    return "lay off " + " and ".join(f"{fmt(cs)} on {m}" for m, cs in onto.items())


def answer_text(melds: Sequence[Meld], layoffs: Sequence[Layoff], left: Sequence[Card]) -> str:
    """A defender's answer in plain words, with the deadwood it leaves."""
    parts = [f"show {meld_text(melds)}"] if melds else []
    if layoffs:
        parts.append(layoff_text(layoffs))
    what = "; ".join(parts) or "show no melds and lay off nothing"
    return f"{what} — " + (f"deadwood {fmt(left)} = {sum(c.value for c in left)}" if left else "no deadwood")


def result_text(result: HandResult, names: Names) -> str:
    """A hand's result in words: ``greedy knocks (4 against your 19): 15 points to greedy``."""
    if result.kind is ResultKind.DEAD:
        return f"dead hand ({DEAD_REASONS.get(result.reason, result.reason)}): no score"
    knocker, defender = result.knocker, result.defender
    assert knocker is not None and defender is not None
    kd, dd = result.deadwood_of(knocker), result.deadwood_of(defender)
    against = f"{kd} against {names.whose(defender)} {dd}"
    times = f" (×{result.multiplier}, a spade upcard)" if result.multiplier != 1 else ""
    points = f"{result.points} points to {names.who(result.winner)}{times}"
    match result.kind:
        case ResultKind.GIN:
            return f"{names.does(knocker, 'go', 'goes')} gin ({dd} deadwood caught): {points}"
        case ResultKind.BIG_GIN:
            return f"{names.does(knocker, 'go', 'goes')} big gin ({dd} deadwood caught): {points}"
        case ResultKind.KNOCK:
            return f"{names.does(knocker, 'knock')} and {_s(knocker, names, 'win')} ({against}): {points}"
        case ResultKind.UNDERCUT:
            under = f"{dd} against {names.whose(knocker)} {kd}"
            return f"{names.does(defender, 'undercut')} {names.who(knocker)} ({under}): {points}"
        case _:
            return f"{names.does(knocker, 'knock')} and {_s(knocker, names, 'tie')} ({against}): no score"


def _s(seat: int, names: Names, verb: str) -> str:
    return verb if seat == names.me else verb + "s"


def narrate(event: Seen, names: Names, rules_players: int) -> str | None:
    """One event, as the seat saw it, in words (None: shown another way, or not at all)."""
    does = names.does
    match event:
        case CutDrawn(seats=seats, cards=cards):
            what = "the roles" if rules_players == 3 else "the deal"
            again = " again" if len(seats) < rules_players else ""
            return f"the draw for {what}{again}: " + ", ".join(
                f"{names.who(s)} {c}" for s, c in zip(seats, cards, strict=True)
            )
        case HandStarted():
            return None  # a rule across the screen, with the status: see ``hand_title``
        case Dealt(hands=hands, seats=seats, upcard=upcard, knock_limit=limit):
            held = [(s, h) for s, h in zip(seats, hands, strict=True) if h]
            dealt = "; ".join(f"{'you are' if s == names.me else names.who(s) + ' is'} dealt {fmt(sorted(h))}"
                              for s, h in held)  # fmt: skip
            return f"upcard {upcard}, knock limit {limit}" + (f"; {dealt}" if dealt else "")
        case UpcardPassed(seat=s):
            return f"{does(s, 'pass', 'passes')} the upcard"
        case UpcardTaken(seat=s, card=c):
            return f"{does(s, 'take')} the upcard {c}"
        case DrewStock(seat=s, card=c):
            return f"{does(s, 'draw')} {c} from the stock"
        case HiddenDraw(seat=s):
            return f"{does(s, 'draw')} from the stock"
        case DrewDiscard(seat=s, card=c):
            return f"{does(s, 'pick')} up {c}"
        case Discarded(seat=s, card=c):
            return f"{does(s, 'discard')} {c}"
        case Knocked(seat=s, card=c):
            return f"{does(s, 'knock')}, discarding {c} face down"
        case HiddenKnock(seat=s):
            return f"{does(s, 'knock')}"
        case BigGinDeclared(seat=s):
            return f"{does(s, 'declare')} big gin"
        case WallDeclined(seat=s):
            return f"{does(s, 'leave')} the last discard"
        case SpreadLaid(seat=s, melds=melds, deadwood_cards=left):
            shown = meld_text(melds) or "no melds"
            return f"{does(s, 'spread')} {shown} — " + ("gin, no card over" if not left else
                                                         f"deadwood {fmt(left)} = {event.deadwood}")  # fmt: skip
        case DefenceLaid(seat=s, melds=melds, layoffs=layoffs, deadwood_cards=left):
            return f"{names.who(s)} {'answer' if s == names.me else 'answers'}: {answer_text(melds, layoffs, left)}"
        case HandScored(result=r) | HandDead(result=r):
            return result_text(r, names)
        case Advised(seat=s, suggestion=a):
            return f"{does(s, 'advise')} {names.who(a.seat)}: {action_text(a)}"
        case HiddenAdvice(seat=s):
            return f"{does(s, 'advise')} the captain (the box does not hear it)"
        case HandEnded():
            return None  # the score sheet says it
        case GameOver(winner=w, totals=totals):
            others = " and ".join(str(t) for s, t in enumerate(totals) if s != w)
            return f"game over: {names.does(w, 'win')} the game, {totals[w]} to {others}"
        case _:
            return str(event)


def hand_title(started: HandStarted, names: Names) -> str:
    if started.sitter is None:
        return f"hand {started.number}: {names.does(started.dealer, 'deal')}"
    captain = next(s for s in started.seats if s != started.dealer)
    roles = [(started.dealer, "in the box"), (captain, "captain"), (started.sitter, "sits out")]
    return f"hand {started.number}: " + ", ".join(
        f"{names.who(s)} {'sit out' if s == names.me and r == 'sits out' else r}" for s, r in roles
    )


def action_text(action: Action | Advise) -> str:
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
            return f"spread {meld_text(melds) or 'no melds'}"
        case LayOff(melds=melds, layoffs=layoffs):
            parts = [f"show {meld_text(melds)}"] if melds else []
            return "; ".join([*parts, *([layoff_text(layoffs)] if layoffs else [])]) or "show and lay off nothing"
        case Advise(suggestion=s):
            return action_text(s)
        case _:
            return str(action)


# --- the table: status, cards, options --------------------------------------------------------------


def role_text(match: Match, me: int, names: Names) -> str:
    """The person's role this hand, in words."""
    roles = match.roles()
    if match.sitter is None:
        return "you deal" if roles["dealer"] == me else f"{names.who(roles['dealer'])} deals"
    box, captain = names.who(roles["box"]), names.who(roles["captain"])
    if roles["sitter"] == me:
        return f"you sit out, advising {captain}"
    return f"you are the box v {captain}" if roles["box"] == me else f"you are captain v {box}"


def status(match: Match, obs: Observation, names: Names) -> str:
    """The status: hand, top of the discard pile, stock left, knock limit; then the scores and the person's role
    (two short lines rather than one that wraps)."""
    top = obs.discard_pile[-1] if obs.discard_pile else None
    scores = ", ".join(f"{names.who(s)} {score}" for s, score in enumerate(match.scores))
    table = f"hand {match.number} │ discard pile {top or 'empty'} │ stock {obs.stock_size}"
    table += f" │ knock limit {obs.knock_limit}"
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
            return f"draw from the stock — {your} deadwood now {deadwood(mask)}"
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
            return action_text(action)


def after_taking(obs: Observation, mask: int, card: Card) -> int:
    """The least deadwood after taking ``card`` and discarding another (TURN-4: not the card taken)."""
    held = mask | card.bit
    free = obs.rules.may_discard_taken_card
    return min(deadwood(held ^ c.bit) for c in from_mask(held) if free or c != card)


def _left(action: Action, mask: int) -> int:
    """The deadwood a spread or an answer leaves."""
    return value(mask & ~shown_mask(action))


def _showdown_text(action: Action, mask: int, obs: Observation) -> str:
    left = from_mask(mask & ~shown_mask(action))
    if isinstance(action, LayOff):
        return answer_text(action.melds, action.layoffs, left)
    assert isinstance(action, Spread)
    return f"spread {meld_text(action.melds) or 'no melds'} — " + (
        "gin" if not left else f"deadwood {fmt(left)} = {sum(c.value for c in left)}"
    )


# --- the score sheet ---------------------------------------------------------------------------------


def sheet(events: Sequence[object], names: Names) -> tuple[list[str], list[list[str]]]:
    """The score sheet so far: a row per hand (its result, everyone's running score), and the final totals."""
    head = ["hand", "result", *names.players]
    rows: list[list[str]] = []
    for e in events:
        if isinstance(e, HandEnded):
            rows.append([str(e.number), result_text(e.result, names), *map(str, e.scores)])
        elif isinstance(e, GameOver) and (not rows or rows[-1][2:] != list(map(str, e.totals))):
            rows.append(["", "final totals, with the bonuses", *map(str, e.totals)])
    return head, rows


__all__ = ["Names", "action_text", "cards_text", "hand_title", "narrate", "options", "sheet", "status"]
