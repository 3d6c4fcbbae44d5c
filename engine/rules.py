"""Rule sets: every option of the rules brief as a field of one frozen value, and the presets.

Rules: RULES-1, RULES-2, RULES-3.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from dataclasses import dataclass
from typing import Any

from engine.cards import DECK, Card
from engine.errors import InvalidRules

#: The largest target or bonus a rule set takes (scores stay well inside 64-bit integers).
MAX_POINTS = 1_000_000

#: The reduced-deck options (RULES-3) and their defaults, the standard deck: ``to_dict`` leaves them out at these
#: values, so a standard rule set's log header is what it was before they existed (LOG-1).
DECK_DEFAULTS: dict[str, int] = {"deck_ranks": 13, "deck_suits": 4, "hand_size": 10}

#: Options added after the log format's version 1.0, with their defaults: ``to_dict`` leaves each out at its
#: default, so a game that does not use it writes the header it wrote before the option existed, and a
#: header without it reads as the default (LOG-1).
LATER_DEFAULTS: dict[str, object] = {"kisses": False, "claim_after": None}

#: Every option ``to_dict`` leaves out at its default (LOG-1).
OMITTED_AT_DEFAULT: dict[str, object] = {**DECK_DEFAULTS, **LATER_DEFAULTS}

#: The fewest cards a reduced deck must leave in the stock after the deal (RULES-3).
MIN_STOCK = 3


#: The range of every numeric option (RULES-2); an option whose default is None also takes None.
RANGES: dict[str, tuple[int, int]] = {
    "knock_limit_value": (0, 10),
    "gin_bonus": (0, MAX_POINTS),
    "undercut_bonus": (0, MAX_POINTS),
    "big_gin_bonus": (0, MAX_POINTS),
    "max_consecutive_discard_pickups": (1, 1000),
    "deck_ranks": (3, 13),
    "deck_suits": (1, 4),
    "hand_size": (1, 10),
    "target": (1, MAX_POINTS),
    "players": (2, 3),
    "box_bonus": (0, MAX_POINTS),
    "game_bonus": (0, MAX_POINTS),
    "claim_after": (1, MAX_POINTS),
}

#: What each option does, in one line, and the rule that says it (``knock rules``, RULES-2).
OPTION_RULES: dict[str, tuple[str, str]] = {
    "name": ("RULES-1", "the preset the rule set is built from"),
    "knock_limit": ("KNOCK-3", "how a hand's knock limit is set: fixed, or the first upcard's value (OKLA-1)"),
    "knock_limit_value": ("KNOCK-3", "the fixed knock limit (0: straight gin)"),
    "oklahoma_ace": ("OKLA-2", "an ace as the first upcard under knock_limit=upcard: a limit of 1, or gin only"),
    "gin_bonus": ("SCORE-1", "the gin bonus"),
    "undercut_bonus": ("SCORE-3", "the undercut bonus"),
    "undercut_on_tie": ("SCORE-3", "equal deadwood is an undercut"),
    "big_gin_bonus": ("KNOCK-6", "big gin (eleven cards melded) allowed, with this bonus (none: not allowed)"),
    "spades_double": ("OKLA-4", "a spade as the first upcard doubles the hand's score"),
    "may_discard_taken_card": ("TURN-4", "the card taken from the pile may be discarded in the same turn"),
    "wall_pickup_to_knock": ("DEAD-2", "the 50th-card rule: the last discard may be taken to knock"),
    "max_consecutive_discard_pickups": ("DEAD-3", "a pickup cap: the hand dies after this many pickups in a row"),
    "deck_ranks": ("RULES-3", "a reduced deck's ranks (analysis of single hands only)"),
    "deck_suits": ("RULES-3", "a reduced deck's suits (analysis of single hands only)"),
    "hand_size": ("RULES-3", "cards dealt to each seat (analysis of single hands only)"),
    "target": ("MATCH-1", "the score that ends the game"),
    "next_dealer": ("MATCH-4", "who deals the next two-player hand after one with a winner"),
    "cut_tiebreak": ("MATCH-3", "tied cards in the draw for deal: drawn again, or settled by suit"),
    "players": ("THREE-1", "2, or 3 for three-handed Gin in the box"),
    "three_handed_dead_hand": ("THREE-5", "roles after a dead three-handed hand: unchanged, or as if the box won"),
    "sitter_sees_captain_hand": ("THREE-8", "the sitter sees the captain's cards"),
    "box_bonus": ("BONUS-1", "points per box (hand won), added at the game's end (0: off)"),
    "immediate_boxes": ("BONUS-1", "boxes credited to the running score as they are won"),
    "spades_double_boxes": ("BONUS-1", "a doubled hand (spades_double) earns two boxes"),
    "game_bonus": ("BONUS-2", "points to the game's winner (0: off)"),
    "shutout": ("BONUS-3", "the shutout formula when the losers scored no hand points"),
    "hollywood": ("BONUS-4", "Hollywood scoring: three games at once, in columns"),
    "kisses": ("BONUS-6", "two more boxes for gin, one for an undercut"),
    "claim_after": ("END-4", "seconds a seat must be away before another may claim the game (none: no claims)"),
}


class KnockLimit(enum.Enum):
    """How a hand's knock limit is set (KNOCK-3, OKLA-1)."""

    FIXED = "fixed"  #: ``knock_limit_value`` for every hand (10 standard; 0 is straight gin)
    UPCARD = "upcard"  #: Oklahoma: the value of the first upcard


class OklahomaAce(enum.Enum):
    """An ace as the first upcard under ``KnockLimit.UPCARD`` (OKLA-2)."""

    ONE = "one"  #: the limit is 1 (the literal reading of the seed)
    GIN_ONLY = "gin_only"  #: the limit is 0: only gin ends the hand


class NextDealer(enum.Enum):
    """Who deals the next hand of a two-player game (used by the match layer)."""

    WINNER = "winner"
    LOSER = "loser"
    ALTERNATE = "alternate"


class CutTiebreak(enum.Enum):
    """How tied cards in the dealer or role draw are resolved (MATCH-3)."""

    REDRAW = "redraw"
    SUIT_ORDER = "suit_order"


class DeadHandRoles(enum.Enum):
    """Roles after a dead hand in three-handed play (THREE-5)."""

    REPLAY = "replay"  #: roles unchanged, the box deals again
    BOX_WINS = "box_wins"  #: rotate as if the box had won


class Shutout(enum.Enum):
    """The shutout formula applied when the game winner's opponents scored no hand points (BONUS-3)."""

    NONE = "none"
    DOUBLE_TOTAL = "double_total"  #: the winner's whole total, bonuses included, is doubled
    FLAT_100 = "flat_100"  #: the winner gets 100 more
    DOUBLE_GAME_BONUS = "double_game_bonus"  #: the game bonus is doubled (200 instead of 100)
    DOUBLE_HAND_POINTS = "double_hand_points"  #: the winner's hand points are doubled, bonuses not


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One complete rule set. Build it from a preset and override fields with ``replace``.

    Enum options take their members or their text values, in the constructor as in ``preset`` and
    ``replace`` (RULES-2).

    >>> RuleSet.preset("oklahoma").knock_limit
    <KnockLimit.UPCARD: 'upcard'>
    >>> RuleSet(shutout="double_total").shutout  # type: ignore[arg-type]
    <Shutout.DOUBLE_TOTAL: 'double_total'>
    """

    name: str = "standard"
    knock_limit: KnockLimit = KnockLimit.FIXED
    knock_limit_value: int = 10
    oklahoma_ace: OklahomaAce = OklahomaAce.ONE
    gin_bonus: int = 25
    undercut_bonus: int = 10
    undercut_on_tie: bool = True
    big_gin_bonus: int | None = None
    spades_double: bool = False
    may_discard_taken_card: bool = False
    wall_pickup_to_knock: bool = False
    max_consecutive_discard_pickups: int | None = None
    deck_ranks: int = 13
    deck_suits: int = 4
    hand_size: int = 10
    target: int = 100
    next_dealer: NextDealer = NextDealer.WINNER
    cut_tiebreak: CutTiebreak = CutTiebreak.REDRAW
    players: int = 2
    three_handed_dead_hand: DeadHandRoles = DeadHandRoles.REPLAY
    sitter_sees_captain_hand: bool = True
    box_bonus: int = 0
    immediate_boxes: bool = False
    spades_double_boxes: bool = False
    game_bonus: int = 0
    shutout: Shutout = Shutout.NONE
    hollywood: bool = False
    kisses: bool = False
    claim_after: int | None = None

    def __post_init__(self) -> None:
        _enums_from_text(self)
        _check_kinds(self)
        for name, (low, high) in RANGES.items():
            value = getattr(self, name)
            if value is not None and not low <= value <= high:  # None only where the default is (_check_kinds)
                none = "none or " if _OPTIONS[name].default is None else ""
                raise InvalidRules("RULES-2", f"{name} must be {none}{low}..{high}, got {value}")
        if self.stock_size < MIN_STOCK:
            raise InvalidRules(
                "RULES-3",
                f"a deck of {self.deck_ranks} ranks x {self.deck_suits} suits dealt {self.hand_size} cards each "
                f"leaves {self.stock_size} in the stock after the upcard; it must leave at least {MIN_STOCK}",
            )

    @property
    def deck(self) -> tuple[Card, ...]:
        """The cards this rule set plays with, in index order: all 52, or a reduced deck. Rule: RULES-3."""
        return _deck(self.deck_ranks, self.deck_suits)

    @property
    def reduced(self) -> bool:
        """Whether this rule set plays a reduced deck or hand size (for analysis only). Rule: RULES-3."""
        return self.deck_ranks != 13 or self.deck_suits != 4 or self.hand_size != 10

    @property
    def stock_size(self) -> int:
        """The stock after the deal: the deck less both hands and the upcard (31 with the standard deck)."""
        return self.deck_ranks * self.deck_suits - 2 * self.hand_size - 1

    @staticmethod
    def preset(name: str, **overrides: Any) -> RuleSet:
        """A preset (``standard``, ``oklahoma`` or ``three_handed``) with optional field overrides. Rule: RULES-1."""
        try:
            base = PRESETS[name]
        except KeyError:
            raise InvalidRules("RULES-1", f"unknown preset {name!r}; presets: {', '.join(PRESETS)}") from None
        return base.replace(**overrides) if overrides else base

    def replace(self, **overrides: Any) -> RuleSet:
        """A copy with some fields changed; enum fields also accept their string values (as the constructor)."""
        for key in overrides:
            if key not in _OPTIONS:
                raise InvalidRules("RULES-2", f"unknown rule-set option {key!r}")
        return dataclasses.replace(self, **overrides)

    def to_dict(self) -> dict[str, Any]:
        """Every option expanded, enums as their string values (the log header's form, LOG-1).

        The reduced-deck options (RULES-3) and the options added after log format 1.0 (``kisses``,
        ``claim_after``) are left out at their defaults, so the header of a rule set that does not use them is
        byte-identical to the one written before they existed.
        """
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.name in OMITTED_AT_DEFAULT and v == OMITTED_AT_DEFAULT[f.name]:
                continue
            out[f.name] = v.value if isinstance(v, enum.Enum) else v
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> RuleSet:
        """The inverse of ``to_dict``: ``name`` is a preset's (``standard`` when absent, RULES-1), and an option
        left out takes that preset's value (LOG-1), so ``{"name": "oklahoma"}`` is Oklahoma."""
        name = data.get("name", "standard")
        if type(name) is not str or name not in PRESETS:
            raise InvalidRules("RULES-1", f"unknown preset {name!r:.60}; presets: {', '.join(PRESETS)}")
        return PRESETS[name].replace(**data)


def _enums_from_text(rules: RuleSet) -> None:
    """Read an enum option given as its text value (``shutout="double_total"``) as that member. Rule: RULES-2.

    The constructor, ``replace`` and ``preset`` all come through here, so each takes the same values and
    refuses the same ones. A text that names no member is out of range.
    """
    for name, kind in _ENUM_OPTIONS.items():
        value = getattr(rules, name)
        if isinstance(value, str):
            try:
                object.__setattr__(rules, name, kind(value))  # frozen: this is still construction
            except ValueError:
                choices = ", ".join(str(m.value) for m in kind)
                raise InvalidRules("RULES-2", f"{name} must be one of {choices}, got {value!r}") from None


def _check_kinds(rules: RuleSet) -> None:
    """Every option holds a value of its default's kind. Rule: RULES-2.

    A value of the wrong kind is out of range: ``"no"`` is not false, ``"25"`` is not 25, ``1`` is not
    ``KnockLimit.UPCARD`` (enum options also take their text values, read by ``_enums_from_text`` first).
    Options whose default is None take None or a whole number.
    """
    for f in dataclasses.fields(rules):
        value, default = getattr(rules, f.name), f.default
        if isinstance(default, enum.Enum | bool | str):
            ok = isinstance(value, type(default))
        else:
            ok = (value is None and default is None) or (isinstance(value, int) and not isinstance(value, bool))
        if not ok:
            raise InvalidRules("RULES-2", f"{f.name} cannot be {value!r}")


#: The rule set's fields by name, and the enum options with their enum types.
_OPTIONS: dict[str, dataclasses.Field[Any]] = {f.name: f for f in dataclasses.fields(RuleSet)}
_ENUM_OPTIONS: dict[str, type[enum.Enum]] = {
    f.name: type(f.default) for f in _OPTIONS.values() if isinstance(f.default, enum.Enum)
}


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One rule-set option as ``knock rules`` lists it: its values, its default, the rule that says what it does."""

    name: str
    values: str  #: ``fixed | upcard``, ``true | false``, ``0..10``, ``none | 1..1000``
    default: object  #: the standard preset's value
    rule: str
    summary: str

    @property
    def default_text(self) -> str:
        value = self.default
        if isinstance(value, enum.Enum):
            value = value.value
        return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def options() -> list[OptionInfo]:
    """Every rule-set option in the header's order (LOG-1), from the rule set's own fields and tables. Rule: RULES-2."""
    out = []
    for f in dataclasses.fields(RuleSet):
        default = f.default
        if f.name == "name":
            values = " | ".join(PRESETS)
        elif isinstance(default, enum.Enum):
            values = " | ".join(str(m.value) for m in type(default))
        elif isinstance(default, bool):
            values = "true | false"
        else:
            low, high = RANGES[f.name]
            values = ("none | " if default is None else "") + f"{low}..{high}"
        rule, summary = OPTION_RULES[f.name]
        out.append(OptionInfo(f.name, values, default, rule, summary))
    return out


@functools.cache
def _deck(ranks: int, suits: int) -> tuple[Card, ...]:
    """The first ``ranks`` ranks (ace up) of the first ``suits`` suits (c d h s), in index order. Rule: RULES-3."""
    return tuple(c for c in DECK if c.rank <= ranks and c.suit < suits)


PRESETS: dict[str, RuleSet] = {
    "standard": RuleSet(),
    "oklahoma": RuleSet(name="oklahoma", knock_limit=KnockLimit.UPCARD),
    "three_handed": RuleSet(name="three_handed", players=3),
}
