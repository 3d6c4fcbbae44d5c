"""The perfect-recall check of the OpenSpiel game's information states (ENV-12).

The oracle: a player's information set is the sequence of what he saw — the hand's events through his
``SeatLens``, his cards in the deal as a set — and his own actions. Random hands are played from random
deals; at every node where a player acts, his information-state string and tensor are recorded beside the
oracle's key. Perfect recall holds when they correspond one to one: no string (tensor) stands for two keys
(two situations he can tell apart merged), and no key has two strings (tensors) (his state would depend on
something he did not see).
"""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from engine.events import Dealt, HandStarted
from engine.visibility import SeatLens


@dataclass
class Correspondence:
    """Keys against values (strings or tensors): how many of each, and where they fail to match one to one."""

    name: str
    by_key: dict[Hashable, set[Hashable]] = field(default_factory=lambda: defaultdict(set))
    by_value: dict[Hashable, set[Hashable]] = field(default_factory=lambda: defaultdict(set))

    def add(self, key: Hashable, value: Hashable) -> None:
        self.by_key[key].add(value)
        self.by_value[value].add(key)

    @property
    def merged(self) -> int:
        """Values that stand for more than one key."""
        return sum(len(keys) > 1 for keys in self.by_value.values())

    @property
    def split(self) -> int:
        """Keys that have more than one value."""
        return sum(len(values) > 1 for values in self.by_key.values())

    @property
    def one_to_one(self) -> bool:
        return self.merged == 0 and self.split == 0

    def __str__(self) -> str:
        return (f"{self.name}: {len(self.by_value)} for {len(self.by_key)} information sets, "
                f"{self.merged} merged, {self.split} split")  # fmt: skip


@dataclass
class RecallReport:
    hands: int
    nodes: int
    checks: list[Correspondence]

    @property
    def ok(self) -> bool:
        return all(c.one_to_one for c in self.checks)

    def __str__(self) -> str:
        return f"{self.hands} hands, {self.nodes} acting nodes; " + "; ".join(map(str, self.checks))


def oracle_key(seen: Sequence[object]) -> tuple[object, ...]:
    """The seen events as a key; a seat's cards in the deal as a set (the order they were dealt in tells nothing:
    the deck is shuffled)."""

    def canonical(e: object) -> object:
        if isinstance(e, Dealt):
            return dataclasses.replace(e, hands=(tuple(sorted(e.hands[0])), tuple(sorted(e.hands[1]))))
        return e

    return tuple(canonical(e) for e in seen)


def views(state: Any, player: int) -> dict[str, Hashable]:
    """What the game gives ``player`` now: its strings and tensors, comparable."""
    return {
        "information-state string": state.information_state_string(player),
        "information-state tensor": np.asarray(state.information_state_tensor(player), np.float32).tobytes(),
        "observation string": state.observation_string(player),
    }


def check_recall(
    game: Any, hands: int, seed: int, *, given: Callable[[Any, int], dict[str, Hashable]] = views
) -> RecallReport:
    """Play ``hands`` random hands of ``game`` (random deals, uniformly random legal actions) and match every
    acting player's strings and tensors against the oracle's key."""
    rng = random.Random(seed)
    rules = game.rules
    checks: dict[str, Correspondence] = {}
    nodes = 0
    for _ in range(hands):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        own: tuple[list[int], list[int]] = ([], [])
        lenses = [SeatLens(rules, p) for p in (0, 1)]
        for lens in lenses:
            lens.see(HandStarted(1, state.hand.dealer, (0, 1), None))
        seen: tuple[list[object], list[object]] = ([], [])
        fed = 0
        while not state.is_terminal():
            events = state.hand.events
            for lens, mine in zip(lenses, seen, strict=True):
                mine.extend(lens.see(e) for e in events[fed:])
            fed = len(events)
            player = int(state.current_player())
            key = (player, oracle_key(seen[player]), tuple(own[player]))
            for name, value in given(state, player).items():
                checks.setdefault(name, Correspondence(name)).add(key, value)
            nodes += 1
            action = rng.choice(state.legal_actions())
            own[player].append(action)
            state.apply_action(action)
    return RecallReport(hands, nodes, list(checks.values()))
