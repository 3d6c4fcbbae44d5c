"""How a table is asked for: its rules, seats, seed and timings, every field of a request checked. Rules: PROTO-2,
PROTO-25, PROTO-35.

A ``TableSpec`` is all a table needs to be made again (it is stored with the table, ``knock.web.store``); the
game it holds is ``knock.web.game``'s, the live table ``knock.web.table``'s.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import InvalidRules, KnockError
from engine.fsm import ExecutorName
from engine.rules import RuleSet
from knock.web import protocol
from knock.web.fairtable import SEED_TIMEOUT, SEED_TIMEOUT_RANGE
from knock.web.protocol import SeatSpec


class SpecError(KnockError, ValueError):
    """A table that cannot be made as asked: ``rule`` is the rule it breaks (RULES-1, RULES-2, PROTO-2)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}", rule=rule)
        self.message = message


@dataclass(frozen=True, slots=True)
class TableSpec:
    """How a table was asked for, all of it needed to rebuild it: rules, seats, seed and timings. Rule: PROTO-2."""

    preset: str
    options: Mapping[str, Any]
    seats: tuple[SeatSpec, ...]
    seed: int
    turn_timeout: float | None = None
    bot_delay: float = 0.0
    commitments: bool = False
    executor: ExecutorName = "library"
    #: For a table made by a rematch (PROTO-31): the table before it, the games of the series over before this
    #: one and each seat's points summed over them. Kept with the spec in the store: it survives restarts.
    series: Mapping[str, Any] | None = None
    #: Fair dealing (PROTO-35): every deck from the server's committed seed and every seat's, and the seconds a
    #: seat has to send its seed before the server supplies it (PROTO-37).
    fair: bool = False
    seed_timeout: float = SEED_TIMEOUT
    #: A human seat whose turn runs out forfeits (END-3, reason ``timeout``) rather than have its move made
    #: (PROTO-12, PROTO-43).
    timeout_forfeits: bool = False
    rules: RuleSet = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", rules_of(self.preset, self.options))

    def to_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset, "options": dict(self.options),
            "seats": [{"player": s.player, "name": s.name, "bot": s.bot} for s in self.seats], "seed": self.seed,
            "turn_timeout": self.turn_timeout, "bot_delay": self.bot_delay, "commitments": self.commitments,
            "executor": self.executor, **({"series": dict(self.series)} if self.series is not None else {}),
            **({"fair": True, "seed_timeout": self.seed_timeout} if self.fair else {}),
            **({"timeout_forfeits": True} if self.timeout_forfeits else {}),
        }  # fmt: skip

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> TableSpec:
        seats = tuple(SeatSpec(s["player"], s["name"], s.get("bot")) for s in data["seats"])
        return TableSpec(
            data["preset"], data["options"], seats, data["seed"], data.get("turn_timeout"),
            data.get("bot_delay", 0.0), data.get("commitments", False), data.get("executor", "library"),
            data.get("series"), data.get("fair", False), data.get("seed_timeout", SEED_TIMEOUT),
            data.get("timeout_forfeits", False),
        )  # fmt: skip

    def rematch(self, previous: str, totals: Sequence[int]) -> TableSpec:
        """The spec of the next game of this table's series (PROTO-29): the same but the seed (the next one,
        derived, so that a seeded series is reproducible) and the series, ``totals`` the running totals."""
        games = (self.series["games"] if self.series is not None else 0) + 1
        series = {"previous": previous, "games": games, "totals": list(totals)}
        digest = hashlib.sha256(f"knock-rematch:{self.seed}:{games}".encode()).digest()
        return replace(self, seed=int.from_bytes(digest[:8], "big") >> 1, series=series)

    def human(self, seat: int) -> bool:
        return self.seats[seat].player == "human"


def rules_of(preset: str, options: Mapping[str, Any]) -> RuleSet:
    """The rule set of a preset with options, as a log header spells them. Rules: RULES-1, RULES-2, RULES-3.

    Raises:
        SpecError: an unknown preset or option, a value out of range, a reduced deck.
    """
    try:
        rules = RuleSet.preset(preset, **dict(options))
    except InvalidRules as err:
        raise SpecError(err.rule, err.reason) from None
    except TypeError as err:
        raise SpecError("RULES-2", str(err)) from None
    if rules.reduced:
        raise SpecError("RULES-3", "a reduced deck is for analysing single hands; a table plays the standard deck")
    return rules


def table_spec(data: object, *, bot_delay: float = 0.5, commitments: bool = True, fair: bool = False) -> TableSpec:
    """A table from a request (``POST /api/tables``'s body), every field checked; ``fair`` the server's default
    (``knock serve --fair``). Rules: PROTO-2, PROTO-25, PROTO-35.

    Raises:
        SpecError: naming the rule the request breaks.
    """
    if type(data) is not dict:
        raise SpecError("PROTO-2", "a table is asked for with a JSON object")

    def bad(name: str, what: str) -> SpecError:
        return SpecError("PROTO-2", f"{name!r} must be {what}")

    preset = data.get("preset", "standard")
    options = data.get("options", {})
    if type(preset) is not str or type(options) is not dict:
        raise bad("preset", "a preset name, and 'options' an object of rule-set options")
    seed = data.get("seed")
    if seed is None:
        seed = secrets.randbits(63)
    elif type(seed) is not int or not 0 <= seed < 2**63:
        raise bad("seed", "a number 0 .. 2**63 - 1")
    rules = rules_of(preset, options)
    seats = protocol.seat_specs(data.get("seats"), bad)
    if len(seats) != rules.players:
        raise SpecError("PROTO-2", f"{rules.name} is played by {rules.players}: give one seat each")
    timeout = _seconds(data.get("turn_timeout"), 1.0, 86_400.0, bad, "turn_timeout")
    delay = _seconds(data.get("bot_delay", bot_delay), 0.0, 10.0, bad, "bot_delay")
    dealt_fair = data.get("fair", fair)
    if type(dealt_fair) is not bool:
        raise SpecError("PROTO-35", "'fair' must be true or false")
    commit = data.get("commitments", commitments and not dealt_fair)
    if type(commit) is not bool:
        raise bad("commitments", "true or false")
    if commit and dealt_fair:
        raise SpecError("PROTO-35", "a fair table commits to each hand's server seed: it takes no 'commitments'")
    low, high = SEED_TIMEOUT_RANGE
    seeding = data.get("seed_timeout", SEED_TIMEOUT)
    if not isinstance(seeding, int | float) or isinstance(seeding, bool) or not low <= seeding <= high:
        raise SpecError("PROTO-35", f"'seed_timeout' must be a number of seconds, {low:g} .. {high:g}")
    executor = data.get("executor", "library")
    if executor not in ("library", "compiled"):
        raise bad("executor", "'library' or 'compiled'")
    forfeits = data.get("timeout_forfeits", False)
    if type(forfeits) is not bool:
        raise bad("timeout_forfeits", "true or false")
    if forfeits and timeout is None:
        raise bad("timeout_forfeits", "false at a table with no turn_timeout")
    return TableSpec(preset, with_claims(options, seats), seats, seed, timeout, delay or 0.0, commit, executor, None,
                     dealt_fair, float(seeding), forfeits)  # fmt: skip


#: The seconds a person may be gone from a table of two or three people before another may claim the game, unless
#: the table's options say (``claim_after``, RULES-2; null: claims are not played). Rule: PROTO-43.
CLAIM_AFTER = 120


def with_claims(options: Mapping[str, Any], seats: Sequence[SeatSpec]) -> Mapping[str, Any]:
    """A table's options with claims played after ``CLAIM_AFTER`` seconds when it seats two or more people and
    its options do not name ``claim_after``. Rule: PROTO-43."""
    if "claim_after" in options or sum(s.player == "human" for s in seats) < 2:
        return options
    return {**options, "claim_after": CLAIM_AFTER}


def _seconds(value: object, low: float, high: float, bad: Any, name: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or not math.isfinite(value):
        raise bad(name, f"null or a number of seconds, {low:g} .. {high:g}")
    if not low <= value <= high:
        raise bad(name, f"null or a number of seconds, {low:g} .. {high:g}")
    return float(value)


def players_of(spec: TableSpec) -> list[str]:
    return [s.name for s in spec.seats]


def meta_of(table: str, spec: TableSpec) -> dict[str, Any]:
    """The log's free metadata (LOG-1): the seed (a view never carries it, LOG-11) and where the game was played."""
    return {"seed": spec.seed, "tool": "knock serve", "table": table}


def commit_key_of(secret: bytes | None, spec: TableSpec) -> bytes | None:
    return secret if spec.commitments and not spec.fair else None
