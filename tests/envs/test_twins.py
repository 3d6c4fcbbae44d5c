"""The twin-state test of the environments (spec/environments.md, ENV-3, ENV-11, ENV-12): two states that
differ only in cards a seat may not see give that seat identical observations, masks, infos, refusals,
strings and tensors — every environment, preset and visibility option (``tests.support.twins``)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.cards import Card, cards, shuffled_deck
from engine.rules import RuleSet
from knock.envs.opponents import OpponentPool
from tests.envs.support import LinearPolicy, checkpoints
from tests.envs.twin_tables import AecTable, GymTable, OpponentTable, SpielTable, spiel_game
from tests.support.twins import Report, Table, check_twins

#: Three-handed options that make the captain's legality depend on his cards: big gin, the 50th-card pickup.
HIDDEN_LEGALITY: dict[str, Any] = {"big_gin_bonus": 31, "wall_pickup_to_knock": True}
CAP: dict[str, Any] = {"max_consecutive_discard_pickups": 2}
TABLES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "aec-standard": ("aec", "standard", CAP),
    "aec-standard-choice": ("aec", "standard", {**CAP, "showdown": "choice"}),
    "aec-oklahoma": ("aec", "oklahoma", {**CAP, "spades_double": True}),
    "aec-three-sees": ("aec", "three_handed", {**CAP, **HIDDEN_LEGALITY}),
    "aec-three-blind": ("aec", "three_handed", {**CAP, **HIDDEN_LEGALITY, "sitter_sees_captain_hand": False}),
    "aec-three-blind-choice": (
        "aec", "three_handed", {**CAP, "sitter_sees_captain_hand": False, "showdown": "choice"},
    ),
    "gym-standard": ("gym", "standard", CAP),
    "gym-oklahoma-choice": ("gym", "oklahoma", {**CAP, "showdown": "choice"}),
    "gym-three-blind": ("gym", "three_handed", {**CAP, **HIDDEN_LEGALITY, "sitter_sees_captain_hand": False}),
    "gym-three-sees-skip": ("gym", "three_handed", {**CAP, "sitter": "skip"}),
}  # fmt: skip
SPIEL: dict[str, dict[str, Any]] = {
    "spiel-standard": {"options": "max_consecutive_discard_pickups:2"},
    "spiel-oklahoma-choice": {
        "preset": "oklahoma",
        "showdown": "choice",
        "options": "max_consecutive_discard_pickups:2 spades_double:true",
    },
    "spiel-5x2-h3-choice": {"deck_ranks": 5, "deck_suits": 2, "hand_size": 3, "showdown": "choice"},
}
HANDS = 6  #: random hands per table and draw order, two-handed (each seat gets a twin of each); half three-handed


def cuts(players: int) -> list[tuple[Card, ...]]:
    """Draws that give every seating: two seats, either deals; three, every order of box, captain, sitter."""
    return list(itertools.permutations(cards("Ks Qs 2c" if players == 3 else "Ks 2c")))


def run(make: Callable[[Sequence[Card]], Table], rules: RuleSet, decks: Sequence[Sequence[Card]], seed: int,
        report: Report | None = None) -> Report:  # fmt: skip
    """Twins of a random hand from each deck order, for every seat."""
    rng, report = random.Random(seed), report or Report()
    for deck in decks:
        check_twins(make, deck, range(rules.players), rules, rng, report)
    return report


@pytest.mark.rule("ENV-3", "ENV-11", "VIS-1", "THREE-8")
@pytest.mark.parametrize("name", sorted(TABLES))
def test_a_seat_is_given_the_same_in_twin_states(name: str) -> None:
    kind, preset, options = TABLES[name]
    players = 3 if preset == "three_handed" else 2

    def make(cut: Sequence[Card]) -> Callable[[Sequence[Card]], Table]:
        if kind == "aec":
            return lambda deck: AecTable(preset, options, cut, deck)
        return lambda deck: GymTable(preset, options, cut, deck)

    rules = RuleSet.preset(preset, **{k: v for k, v in options.items() if k not in ("showdown", "sitter")})
    total = Report()
    hands = HANDS if players == 2 else HANDS // 2
    for i, cut in enumerate(cuts(players)):
        run(make(cut), rules, [shuffled_deck(1000 * i + h) for h in range(hands)], seed=i, report=total)
    assert not total.failures, f"{total}\n" + "\n".join(total.failures[:5])
    assert total.twins >= 0.8 * total.hands * players and total.differing >= total.twins // 2, str(total)
    assert total.refusals > 1000, str(total)


@pytest.mark.rule("ENV-12", "VIS-1")
@pytest.mark.parametrize("name", sorted(SPIEL))
def test_a_player_is_given_the_same_strings_and_tensors_in_twin_states(name: str) -> None:
    game = spiel_game(SPIEL[name])
    rules = game.rules
    decks = [shuffled_deck(h, rules.deck) for h in range(20)]
    report = run(lambda d: SpielTable(game, d), rules, decks, seed=5)
    assert not report.failures, f"{report}\n" + "\n".join(report.failures[:5])
    assert report.twins >= 30 and report.differing >= report.twins // 3, str(report)


@pytest.mark.rule("ENV-8", "VIS-1")
def test_the_twin_check_finds_a_leak() -> None:
    """The referee's text (ENV-8: every seat's cards) is no seat's view: the check must tell."""

    class Leaky(AecTable):
        def outputs(self, seat: int) -> tuple[Any, ...]:
            return (*super().outputs(seat), self.env.episode.render())

    rules = RuleSet()
    decks = [shuffled_deck(h) for h in range(4)]
    report = run(lambda d: Leaky("standard", CAP, cards("Ks 2c"), d), rules, decks, seed=1)
    assert report.failures and report.compared < report.hands * 200


@pytest.mark.rule("ENV-15", "ENV-16", "ENV-17", "VIS-2")
@pytest.mark.parametrize("kind", ["policy", "checkpoint-pt", "checkpoint-zip", "pool", "bot-random"])
def test_an_opponent_chooses_the_same_in_twin_states(kind: str, tmp_path: Path) -> None:
    """Every kind of opponent (ENV-15) is given only its seat's view: in twin states it chooses the same."""
    saved = checkpoints(tmp_path) if kind.startswith(("checkpoint", "pool")) else {}
    spec: Any = kind.removeprefix("bot-")
    if kind == "policy":
        spec = LinearPolicy(4)
    elif kind == "pool":
        spec = OpponentPool([LinearPolicy(5), saved["pt"], "simple", "heuristic"])
    elif kind.startswith("checkpoint"):
        spec = saved[kind.removeprefix("checkpoint-")]
    tables = (("standard", CAP), ("three_handed", {**CAP, "sitter_sees_captain_hand": False}))
    for preset, options in tables[: 1 if kind == "checkpoint-zip" else 2]:  # SB3's predict is slow: one preset
        rules = RuleSet.preset(preset, **options)
        total = Report()
        for i, cut in enumerate(cuts(rules.players)[:2]):

            def make(deck: Sequence[Card], cut: Sequence[Card] = cut, p: str = preset, o: Any = options) -> Table:
                return OpponentTable(spec, p, o, cut, deck)

            run(make, rules, [shuffled_deck(500 * i + h) for h in range(3)], seed=i, report=total)
        assert not total.failures, f"{kind} {preset}: {total}\n" + "\n".join(total.failures[:5])
        assert total.twins >= total.hands and total.compared > 100, str(total)
