"""The case notation's other names: option aliases, verb aliases, and unassigned layoffs.

Outside authors write what they naturally would ("spade doubling", ``take`` for drawing the discard, a layoff
without its target meld); these functions turn it into the one canonical form the engine reads, the first
by name alone, the others against the state of the game when the action is played.
Rules: CONF-12, CONF-13, CONF-14.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from typing import Any

from engine import notation
from engine.actions import parse_match_action
from engine.cards import Card
from engine.errors import KnockError
from engine.match import Match
from engine.melds import Meld

#: Every option of RULES-2 with the other names a case may give it (CONF-14). A name is compared after
#: lowercasing and writing runs of spaces and hyphens as one underscore ("Spade doubling" is spade_doubling).
OPTION_ALIASES: dict[str, tuple[str, ...]] = {
    "knock_limit": ("knock_limit_policy",),
    "knock_limit_value": ("knock_value", "knock_points"),
    "oklahoma_ace": ("ace_upcard",),
    "gin_bonus": ("gin_points",),
    "undercut_bonus": ("undercut_points", "underknock_bonus"),
    "undercut_on_tie": ("tie_is_undercut", "underknock_on_tie"),
    "big_gin_bonus": ("big_gin", "big_gin_points"),
    "spades_double": ("spade_doubling", "spades_doubling", "double_spades", "spades_doubled"),
    "may_discard_taken_card": ("discard_taken_card", "may_discard_pickup"),
    "wall_pickup_to_knock": ("50th_card_rule", "fiftieth_card_rule"),
    "max_consecutive_discard_pickups": ("pickup_cap", "discard_pickup_cap"),
    "deck_ranks": (),
    "deck_suits": (),
    "hand_size": ("cards_dealt", "cards_per_hand"),
    "target": ("game_target", "points_to_win"),
    "next_dealer": ("dealer_rotation",),
    "cut_tiebreak": ("draw_tiebreak",),
    "players": ("number_of_players",),
    "three_handed_dead_hand": ("dead_hand_roles",),
    "sitter_sees_captain_hand": ("sitter_sees_hand",),
    "box_bonus": ("line_bonus", "box_points"),
    "immediate_boxes": ("boxes_immediate",),
    "spades_double_boxes": ("spade_doubling_boxes",),
    "game_bonus": ("game_points",),
    "shutout": ("blitz", "schneider"),
    "hollywood": ("hollywood_scoring",),
    "kisses": ("kiss", "kiss_boxes"),
    "claim_after": ("claim_seconds", "claim_timeout"),
}
#: The verbs written another way that mean the same action in every state (CONF-12).
VERB_SPELLINGS: dict[str, str] = {"big_gin": "big-gin", "biggin": "big-gin", "lay_off": "layoff", "lay-off": "layoff"}
#: The verbs that mean one action where it is legal and their alias's action where only that one is (CONF-12):
#: taking the first upcard and drawing the top of the discard pile; passing the upcard and declining the last
#: discard under the 50th-card rule.
VERB_ALIASES: dict[str, str] = {"take": "pickup", "pickup": "take", "pass": "decline", "decline": "pass"}


def name_key(text: str) -> str:
    """A name as aliases are compared: lowercase, runs of spaces and hyphens as one underscore."""
    return re.sub(r"[\s\-]+", "_", text.strip().lower())


def _index(table: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    return {name_key(alias): name for name, aliases in table.items() for alias in (name, *aliases)}


_OPTION_NAMES = _index(OPTION_ALIASES)


def canonical_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The options with every known name written canonically (CONF-14); an unknown name is kept as written,
    for the rule set to refuse (RULES-2). Raises ``ValueError`` when two names give the same option."""
    out: dict[str, Any] = {}
    for key, value in options.items():
        name = _OPTION_NAMES.get(name_key(key), key)
        if name in out:
            raise ValueError(f"the option {name} is given twice (as {key!r} too)")
        out[name] = value
    return out


# --- actions, against the state of the game -----------------------------------------------------


def _verb_index(words: list[str]) -> int | None:
    """Where the verb is: after the seat, and for advice after ``advise`` and the suggestion's seat."""
    i = 1 if words and notation.is_seat(words[0]) else 0
    if i < len(words) and words[i].lower() == "advise":
        i += 1
        if i < len(words) and notation.is_seat(words[i]):
            i += 1
    return i if i < len(words) else None


def _legal(match: Match, text: str) -> bool:
    try:
        return match.is_legal(parse_match_action(text))
    except KnockError:  # text in no notation, cards that are no meld
        return False


def resolve(match: Match, text: str) -> str:
    """A case's action in canonical notation, given the game it is played in (CONF-12, CONF-13): a verb
    spelled another way is respelled; an aliased verb means its alias's action when only that one is legal;
    layoff cards written without a target meld are assigned to the knocker's melds. Text in no notation is
    returned as it is, for the parser to refuse. The words are the notation's (NOTE-1, ``engine.notation``)."""
    words = notation.words(text)
    i = _verb_index(words)
    if i is None:
        return text
    words[i] = VERB_SPELLINGS.get(words[i].lower(), words[i])
    verb, args = words[i].lower(), words[i + 1 :]
    if verb in VERB_ALIASES and not args:
        written = " ".join(words)
        alias = " ".join([*words[:i], VERB_ALIASES[verb]])
        return alias if not _legal(match, written) and _legal(match, alias) else written
    if verb == "layoff" and any(notation.unassigned(a) for a in args):
        return _assign_layoffs(match, words[: i + 1], args)
    return " ".join(words)


def _assign_layoffs(match: Match, head: list[str], args: list[str]) -> str:
    """The first assignment of the unassigned cards to the knocker's melds that makes the answer legal
    (CONF-13): each card may go onto the melds that could take it (``_may_take``), tried in the spread's
    order, the first card's choice varying slowest. When none is legal, each card goes onto the first meld that
    could take it, else the knocker's first meld, and the engine refuses that. Without a spread the unassigned
    cards are left out: there is nothing to lay off onto, and the answer is refused as it is."""
    loose = [a for a in args if notation.unassigned(a)]
    fixed = [a for a in args if not notation.unassigned(a)]
    spread = match.hand.spread if match.hand is not None else None
    if spread is None or not spread.melds:
        return " ".join([*head, *fixed])
    melds: tuple[Meld, ...] = spread.melds

    def text(targets: tuple[Meld, ...]) -> str:
        return " ".join([*head, *fixed, *(f"{c}>{m}" for c, m in zip(loose, targets, strict=True))])

    try:
        options = [[m for m in melds if _may_take(m, w)] for w in loose]
    except KnockError:  # a word that is no card: the parser refuses the text
        return " ".join([*head, *args])
    for targets in itertools.product(*options):
        candidate = text(targets)
        if _legal(match, candidate):
            return candidate
    return text(tuple(choices[0] if choices else melds[0] for choices in options))


def _may_take(meld: Meld, word: str) -> bool:
    """Whether a card could be laid off onto this meld, alone or in a chain: a set missing its rank's card
    (LAY-3), or a run of its suit (LAY-4; whether it reaches the run is left to the engine's check)."""
    card = Card.parse(word)
    if len({c.rank for c in meld.cards}) == 1:
        return card.rank == meld.cards[0].rank and len(meld.cards) == 3
    return card.suit == meld.cards[0].suit


__all__ = ["OPTION_ALIASES", "VERB_ALIASES", "VERB_SPELLINGS", "canonical_options", "name_key", "resolve"]
