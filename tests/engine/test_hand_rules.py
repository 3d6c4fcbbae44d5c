"""Rule sets (spec section 11): presets, overrides, defaults and ranges."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, cast

import pytest

from engine.errors import InvalidRules
from engine.hand import Hand
from engine.rules import KnockLimit, OklahomaAce, RuleSet, Shutout

# Every option and its default, as spec/rules.md (RULES-2) lists them; enum options by their string value.
DEFAULTS: dict[str, Any] = {
    "knock_limit": "fixed",
    "knock_limit_value": 10,
    "oklahoma_ace": "one",
    "gin_bonus": 25,
    "undercut_bonus": 10,
    "undercut_on_tie": True,
    "big_gin_bonus": None,
    "spades_double": False,
    "may_discard_taken_card": False,
    "wall_pickup_to_knock": False,
    "max_consecutive_discard_pickups": None,
    "target": 100,
    "next_dealer": "winner",
    "cut_tiebreak": "redraw",
    "players": 2,
    "three_handed_dead_hand": "replay",
    "sitter_sees_captain_hand": True,
    "box_bonus": 0,
    "immediate_boxes": False,
    "spades_double_boxes": False,
    "game_bonus": 0,
    "shutout": "none",
    "hollywood": False,
}

# The reduced-deck options (RULES-3) and their defaults; to_dict leaves them out at these values (LOG-1).
DECK_DEFAULTS: dict[str, int] = {"deck_ranks": 13, "deck_suits": 4, "hand_size": 10}

# The options added after log format 1.0 and their defaults; to_dict leaves them out at these values (LOG-1).
LATER_DEFAULTS: dict[str, Any] = {"kisses": False, "claim_after": None}
#: A value other than the default for each of them.
LATER_OTHER: dict[str, Any] = {"kisses": True, "claim_after": 120}

# The values each enum option takes, as the spec lists them.
CHOICES: dict[str, list[str]] = {
    "knock_limit": ["fixed", "upcard"],
    "oklahoma_ace": ["one", "gin_only"],
    "next_dealer": ["winner", "loser", "alternate"],
    "cut_tiebreak": ["redraw", "suit_order"],
    "three_handed_dead_hand": ["replay", "box_wins"],
    "shutout": ["none", "double_total", "flat_100", "double_game_bonus", "double_hand_points"],
}


def options(rules: RuleSet) -> dict[str, Any]:
    out = rules.to_dict()
    del out["name"]
    return out


# --- RULES-1: presets and overrides ------------------------------------------------------------------------


@pytest.mark.rule("RULES-1", "RULES-2")
def test_the_standard_preset_is_every_default() -> None:
    assert options(RuleSet.preset("standard")) == DEFAULTS
    assert RuleSet.preset("standard") == RuleSet()
    assert RuleSet().name == "standard"


@pytest.mark.rule("RULES-1", "OKLA-1")
def test_the_oklahoma_preset_sets_the_limit_by_the_upcard_only() -> None:
    rules = RuleSet.preset("oklahoma")
    assert rules.name == "oklahoma"
    assert options(rules) == {**DEFAULTS, "knock_limit": "upcard"}
    assert rules.knock_limit is KnockLimit.UPCARD


@pytest.mark.rule("RULES-1")
def test_the_three_handed_preset_sets_three_players_only() -> None:
    rules = RuleSet.preset("three_handed")
    assert rules.name == "three_handed"
    assert options(rules) == {**DEFAULTS, "players": 3}


@pytest.mark.rule("RULES-1")
@pytest.mark.parametrize("name", ["Standard", "oklahoma ", "hollywood", "", "gin"])
def test_an_unknown_preset_is_refused(name: str) -> None:
    with pytest.raises(InvalidRules, match=r"^RULES-1: ") as info:
        RuleSet.preset(name)
    assert info.value.rule == "RULES-1"


OVERRIDES: list[dict[str, Any]] = [
    {"knock_limit_value": 0},
    {"oklahoma_ace": "gin_only", "spades_double": True},
    {"big_gin_bonus": 31, "wall_pickup_to_knock": True, "max_consecutive_discard_pickups": 5},
    {"undercut_on_tie": False, "gin_bonus": 20, "undercut_bonus": 25, "may_discard_taken_card": True},
    {"knock_limit": "upcard", "oklahoma_ace": OklahomaAce.GIN_ONLY},
]


@pytest.mark.rule("RULES-1", "RULES-2")
@pytest.mark.parametrize("preset", ["standard", "oklahoma", "three_handed"])
@pytest.mark.parametrize("overrides", OVERRIDES)
def test_any_option_combines_with_any_preset(preset: str, overrides: dict[str, Any]) -> None:
    rules = RuleSet.preset(preset, **overrides)
    base = RuleSet.preset(preset)
    assert rules.name == preset
    expected = {**options(base), **{k: v.value if isinstance(v, enum.Enum) else v for k, v in overrides.items()}}
    assert options(rules) == expected
    assert rules == base.replace(**overrides)
    assert RuleSet.from_dict(rules.to_dict()) == rules


@pytest.mark.rule("RULES-1", "RULES-2")
def test_a_preset_with_overrides_plays_by_them() -> None:
    rules = RuleSet.preset("oklahoma", oklahoma_ace="gin_only")
    hands = [Hand.deal(rules, seed=seed) for seed in range(60)]
    aces = [h for h in hands if h.upcard.rank == 1]
    assert aces, "some deal of the first 60 turns an ace"
    assert all(h.knock_limit == 0 for h in aces)
    assert all(h.knock_limit == h.upcard.value for h in hands if h.upcard.rank != 1)


# --- RULES-2: defaults and ranges ---------------------------------------------------------------------------


@pytest.mark.rule("RULES-2")
def test_every_option_is_documented() -> None:
    fields = {f.name for f in dataclasses.fields(RuleSet)} - {"name"}
    assert fields == set(DEFAULTS) | set(DECK_DEFAULTS) | set(LATER_DEFAULTS)
    assert {name: getattr(RuleSet(), name) for name in DECK_DEFAULTS} == DECK_DEFAULTS
    assert {name: getattr(RuleSet(), name) for name in LATER_DEFAULTS} == LATER_DEFAULTS


@pytest.mark.rule("RULES-2", "BONUS-6", "END-4")
@pytest.mark.parametrize(("option", "value"), LATER_OTHER.items())
def test_an_option_added_later_is_written_only_off_its_default(option: str, value: Any) -> None:
    assert option not in RuleSet().to_dict()
    assert option not in RuleSet.preset("three_handed").to_dict()
    changed = RuleSet().replace(**{option: value})
    assert changed.to_dict()[option] == value
    assert list(changed.to_dict())[-1] == option, "written in its RULES-2 place, after the others"
    assert RuleSet.from_dict(changed.to_dict()) == changed
    assert RuleSet.from_dict(RuleSet().to_dict()) == RuleSet(), "an absent option reads as its default"


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize(("option", "value"), [(o, v) for o, vs in CHOICES.items() for v in vs])
def test_enum_options_take_their_string_values(option: str, value: str) -> None:
    rules = RuleSet().replace(**{option: value})
    held = getattr(rules, option)
    assert isinstance(held, enum.Enum)
    assert held.value == value
    assert RuleSet.preset("standard", **{option: value}) == rules
    assert RuleSet().replace(**{option: held}) == rules


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("knock_limit_value", 0),
        ("knock_limit_value", 10),
        ("gin_bonus", 0),
        ("undercut_bonus", 0),
        ("big_gin_bonus", 0),
        ("big_gin_bonus", 50),
        ("max_consecutive_discard_pickups", 1),
        ("target", 1),
        ("players", 3),
        ("box_bonus", 25),
        ("game_bonus", 100),
    ],
)
def test_values_at_the_edges_of_their_range_are_accepted(option: str, value: int) -> None:
    assert getattr(RuleSet().replace(**{option: value}), option) == value


OUT_OF_RANGE: list[tuple[str, Any]] = [
    ("knock_limit_value", -1),
    ("knock_limit_value", 11),
    ("gin_bonus", -1),
    ("undercut_bonus", -5),
    ("big_gin_bonus", -1),
    ("max_consecutive_discard_pickups", 0),
    ("max_consecutive_discard_pickups", -2),
    ("target", 0),
    ("players", 1),
    ("players", 4),
    ("box_bonus", -1),
    ("game_bonus", -1),
    ("knock_limit", "oklahoma"),
    ("oklahoma_ace", "zero"),
    ("next_dealer", "random"),
    ("cut_tiebreak", "coin"),
    ("three_handed_dead_hand", "skip"),
    ("shutout", "triple"),
    # a value of the wrong kind is out of range too
    ("undercut_on_tie", "no"),
    ("spades_double", 1),
    ("knock_limit_value", "5"),
    ("knock_limit_value", True),
    ("gin_bonus", 2.5),
    ("big_gin_bonus", True),
    ("max_consecutive_discard_pickups", 1.5),
    ("knock_limit", 1),
]


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize(("option", "value"), OUT_OF_RANGE, ids=[f"{o}={v!r}" for o, v in OUT_OF_RANGE])
def test_a_value_out_of_range_is_rejected_when_the_rule_set_is_built(option: str, value: Any) -> None:
    with pytest.raises(InvalidRules, match=f"^RULES-2: .*{option}") as info:
        RuleSet().replace(**{option: value})
    assert info.value.rule == "RULES-2"
    with pytest.raises(InvalidRules, match=r"^RULES-2: "):
        RuleSet.preset("oklahoma", **{option: value})


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize(("option", "value"), [(o, v) for o, vs in CHOICES.items() for v in vs])
def test_the_constructor_takes_the_string_values_of_enum_options(option: str, value: str) -> None:
    rules = RuleSet(**cast(dict[str, Any], {option: value}))
    held = getattr(rules, option)
    assert isinstance(held, enum.Enum), "read as the member, not kept as text"
    assert held.value == value
    assert rules == RuleSet().replace(**{option: value}) == RuleSet.preset("standard", **{option: value})
    assert hash(rules) == hash(RuleSet().replace(**{option: held}))


@pytest.mark.rule("RULES-2", "BONUS-3")
def test_the_constructor_reads_shutout_as_the_preset_does() -> None:
    # The case of issue 12: RuleSet(shutout="double_total") was refused while preset() took it.
    rules = RuleSet(shutout="double_total", knock_limit="upcard")  # type: ignore[arg-type]
    assert rules.shutout is Shutout.DOUBLE_TOTAL and rules.knock_limit is KnockLimit.UPCARD
    assert rules == RuleSet.preset("standard", shutout="double_total", knock_limit="upcard")


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize(("option", "value"), OUT_OF_RANGE, ids=[f"{o}={v!r}" for o, v in OUT_OF_RANGE])
def test_the_constructor_refuses_what_replace_refuses(option: str, value: Any) -> None:
    with pytest.raises(InvalidRules, match=f"^RULES-2: .*{option}") as info:
        RuleSet(**cast(dict[str, Any], {option: value}))
    assert info.value.rule == "RULES-2"


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize(("option", "value"), [("gin_bonus", "25"), ("undercut_on_tie", "true"), ("target", "100")])
def test_only_enum_options_read_text(option: str, value: str) -> None:
    with pytest.raises(InvalidRules, match=f"^RULES-2: {option} cannot be"):
        RuleSet(**cast(dict[str, Any], {option: value}))


@pytest.mark.rule("RULES-2")
@pytest.mark.parametrize("option", ["knock_limits", "gin", "undercut_bonus_value", "three_handed"])
def test_an_unknown_option_is_rejected(option: str) -> None:
    with pytest.raises(InvalidRules, match=r"^RULES-2: ") as info:
        RuleSet().replace(**{option: 1})
    assert option in str(info.value)
    with pytest.raises(InvalidRules, match=r"^RULES-2: "):
        RuleSet.preset("standard", **{option: 1})


@pytest.mark.rule("RULES-2")
def test_a_rule_set_is_a_frozen_value() -> None:
    rules = RuleSet()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.gin_bonus = 5  # type: ignore[misc]
    assert rules.replace(gin_bonus=5) != rules
    assert rules.replace(gin_bonus=5) == RuleSet().replace(gin_bonus=5)
    assert hash(rules.replace(gin_bonus=5)) == hash(RuleSet().replace(gin_bonus=5))
