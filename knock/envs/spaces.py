"""The environments' fixed action space and observation layout, as data. Rules: ENV-2, ENV-3.

Pure Python (no numpy): ``spec/environments.md`` holds the tables these functions print, and
``tools/gen_spec.py`` rewrites them from here, so the spec and the code cannot say different things.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import DECK

#: The showdown choices offered when the showdown is played as indexed choices (ENV-6).
SHOWDOWN_CHOICES = 64

PASS = 0
TAKE = 1
DRAW = 2
PICKUP = 3
DISCARD = 4  #: DISCARD + card index (0..51)
KNOCK = 56  #: KNOCK + card index (0..51)
BIG_GIN = 108
DECLINE = 109
CHOICE = 110  #: CHOICE + k: the k-th showdown option (spread or defence)
NO_ADVICE = CHOICE + SHOWDOWN_CHOICES  #: the sitter lets the captain decide alone
ACTIONS = NO_ADVICE + 1  #: the size of the discrete action space


@dataclass(frozen=True, slots=True)
class ActionRange:
    """One row of the action table: ids ``first .. first + count - 1``."""

    first: int
    count: int
    name: str
    meaning: str


ACTION_TABLE: tuple[ActionRange, ...] = (
    ActionRange(PASS, 1, "pass", "decline the first upcard (OFFER-1, OFFER-2)"),
    ActionRange(TAKE, 1, "take", "take the first upcard (OFFER-1, OFFER-2)"),
    ActionRange(DRAW, 1, "draw", "take the top card of the stock (TURN-2)"),
    ActionRange(PICKUP, 1, "pickup", "take the top card of the discard pile (TURN-2, DEAD-2)"),
    ActionRange(DISCARD, 52, "discard c", "discard card c face up, id = 4 + index(c) (TURN-2)"),
    ActionRange(KNOCK, 52, "knock c", "knock, discarding card c face down, id = 56 + index(c) (KNOCK-1)"),
    ActionRange(BIG_GIN, 1, "big-gin", "declare big gin (KNOCK-6)"),
    ActionRange(DECLINE, 1, "decline", "leave the last discard under the 50th-card rule (DEAD-2)"),
    ActionRange(
        CHOICE, SHOWDOWN_CHOICES, "choice k", "the k-th showdown option: a spread (KNOCK-4) or a defence (LAY-5)"
    ),
    ActionRange(NO_ADVICE, 1, "no advice", "the sitter gives no advice (THREE-7)"),
)


@dataclass(frozen=True, slots=True)
class Field:
    """One field of the observation vector: ``size`` float32 values from ``offset``."""

    name: str
    size: int
    meaning: str
    offset: int = 0


def _layout(fields: list[Field]) -> tuple[Field, ...]:
    out: list[Field] = []
    at = 0
    for f in fields:
        out.append(Field(f.name, f.size, f.meaning, at))
        at += f.size
    return tuple(out)


OBS_PHASES = ("upcard_offer", "draw", "discard", "wall", "knock", "layoff", "hand_over")

LAYOUT: tuple[Field, ...] = _layout(
    [
        Field("hand", 52, "the cards this seat holds (a sitter: the captain's, when THREE-8 lets him see them)"),
        Field("discard_top", 52, "the top card of the discard pile"),
        Field("discard_rest", 52, "the other cards of the discard pile"),
        Field("opponent_known", 52, "the cards the opponent took from the discard pile and still holds"),
        Field("taken", 52, "the card this seat took from the discard pile this turn (TURN-4)"),
        Field("spread_melds", 52, "the cards of the knocker's melds (KNOCK-4)"),
        Field("spread_deadwood", 52, "the knocker's unmelded cards"),
        Field("defence", 52, "the defender's melds and layoffs, once laid (LAY-5)"),
        Field("phase", len(OBS_PHASES), "one-hot: " + ", ".join(OBS_PHASES) + " (all 0 during OpenSpiel's deal)"),
        Field("to_act", 1, "1 when this agent is to act (a sitter: when he may advise)"),
        Field("dealer", 1, "1 when this seat dealt the hand (three-handed: is the box)"),
        Field("sitter", 1, "1 when this seat sits out the hand (three-handed)"),
        Field("knocker", 2, "1 at [0] when this seat knocked, at [1] when the opponent did"),
        Field("stock", 1, "cards left in the stock / 31"),
        Field("knock_limit", 1, "the hand's knock limit / 10 (KNOCK-3, OKLA-1)"),
        Field("opponent_cards", 1, "cards the opponent holds / 11"),
        Field("stock_only", 1, "1 when the first draw must come from the stock (OFFER-4)"),
        Field("must_knock", 1, "1 when this seat took the last discard and must knock (DEAD-2)"),
        Field("doubled", 1, "1 when the hand scores double (spades upcard, OKLA-4)"),
        Field("scores", 3, "running scores / target, capped at 1, from this seat on (seat, seat+1, seat+2)"),
    ]
)
OBS_SIZE = LAYOUT[-1].offset + LAYOUT[-1].size
OFFSET = {f.name: f.offset for f in LAYOUT}


def action_name(action_id: int) -> str:
    """The text of an action id: ``discard Kh``, ``choice 3``, ``no advice``."""
    if not 0 <= action_id < ACTIONS:
        raise ValueError(f"ENV-2: action id must be 0..{ACTIONS - 1}, got {action_id}")
    for row in ACTION_TABLE:
        if row.first <= action_id < row.first + row.count:
            k = action_id - row.first
            if row.count == 52:
                return f"{row.name.split()[0]} {DECK[k]}"
            return f"choice {k}" if row.first == CHOICE else row.name
    raise AssertionError(action_id)


def action_table_markdown() -> str:
    """The action table of ``spec/environments.md``."""
    lines = ["| ids | action | meaning |", "|---|---|---|"]
    for row in ACTION_TABLE:
        ids = str(row.first) if row.count == 1 else f"{row.first}–{row.first + row.count - 1}"
        lines.append(f"| {ids} | `{row.name}` | {row.meaning} |")
    lines.append(f"\n{ACTIONS} actions in all. Card index: `suit × 13 + rank − 1`, suits c d h s, ranks A … K.")
    return "\n".join(lines) + "\n"


def observation_table_markdown() -> str:
    """The observation table of ``spec/environments.md``."""
    lines = ["| offset | size | field | meaning |", "|---:|---:|---|---|"]
    lines += [f"| {f.offset} | {f.size} | `{f.name}` | {f.meaning} |" for f in LAYOUT]
    lines.append(f"\n{OBS_SIZE} float32 values in all, each in [0, 1]. Card planes are indexed like the actions.")
    return "\n".join(lines) + "\n"


__all__ = [
    "ACTIONS",
    "ACTION_TABLE",
    "BIG_GIN",
    "CHOICE",
    "DECLINE",
    "DISCARD",
    "DRAW",
    "KNOCK",
    "LAYOUT",
    "NO_ADVICE",
    "OBS_PHASES",
    "OBS_SIZE",
    "OFFSET",
    "PASS",
    "PICKUP",
    "SHOWDOWN_CHOICES",
    "TAKE",
    "ActionRange",
    "Field",
    "action_name",
    "action_table_markdown",
    "observation_table_markdown",
]
