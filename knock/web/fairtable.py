"""Fair dealing at a table: the server's commitment, every seat's seed, the deal, the reveal. Rules: PROTO-35 ..
PROTO-40 (spec/protocol.md, "Fair dealing (1.3)"), DEAL-5 .. DEAL-10 (spec/rules.md).

A fair table's server seeds come from one secret of 32 random bytes made with the table and kept in the store's
record of it (never in a log, a view or a frame): hand N's server seed is HMAC-SHA256(secret, label ‖ N), so a
restarted server finds the seed it committed to. Before each deal the table is *seeding*: the server has sent its
commitment (``fair_commit``) and waits for every human seat's seed until the seed timeout (PROTO-37); a bot's seat,
a seat that sends none in time and a seat that refuses (``"seed": null``) get the seed DEAL-9 gives. ``Seeding``
is that wait; ``TableChance`` is the game's chance, which deals a hand only once its seeds are settled.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.fairdeal import SEED_SIZE, FairChance, FairSeeds, commitment

#: The label of a fair table's server seeds (PROTO-40): HMAC-SHA256(table secret, label ‖ hand, 8 bytes).
SERVER_LABEL = b"knock-fair-server/1"
#: The seconds a seat has to send its seed, by default (PROTO-35), and the range a table may set.
SEED_TIMEOUT, SEED_TIMEOUT_RANGE = 10.0, (1.0, 300.0)

_HEX = re.compile(r"[0-9a-f]{64}")


def server_seed(secret: bytes, number: int) -> bytes:
    """Hand ``number``'s server seed at a fair table whose secret is ``secret``. Rule: PROTO-40."""
    return hmac.digest(secret, SERVER_LABEL + number.to_bytes(8, "big"), "sha256")


class SeedRefused(ValueError):
    """A ``seed`` message the table does not take (error ``bad_seed``): the rule and the reason. Rule: PROTO-38."""

    def __init__(self, reason: str, rule: str = "PROTO-38") -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


def read_seed(value: object) -> bytes | None:
    """A seat's seed as it travels: 64 lowercase hex digits (32 bytes), or null to refuse. Rule: PROTO-38.

    >>> read_seed("00" * 32) == bytes(32), read_seed(None)
    (True, None)

    Raises:
        SeedRefused: anything else.
    """
    if value is None:
        return None
    if type(value) is not str or not _HEX.fullmatch(value):
        raise SeedRefused(f"a seed is {SEED_SIZE} bytes written as {2 * SEED_SIZE} lowercase hex digits, or null")
    return bytes.fromhex(value)


@dataclass(eq=False)
class Seeding:
    """One hand's seeds being gathered: the server's (secret), the human seats it waits for, what each sent
    (None: refused) and when the wait ends (``time.monotonic``; None until it starts). Rules: PROTO-36, PROTO-37."""

    number: int
    server: bytes
    players: int
    humans: tuple[int, ...]
    sent: dict[int, bytes | None] = field(default_factory=dict)
    deadline: float | None = None

    @property
    def commitment(self) -> bytes:
        return commitment(self.server)

    @property
    def complete(self) -> bool:
        return all(s in self.sent for s in self.humans)

    def check(self, seat: int | None, number: object, seed: bytes | None) -> None:
        """Whether ``seat`` may send a seed for hand ``number`` now (nothing changes). Rule: PROTO-38.

        Raises:
            SeedRefused: a spectator's, a bot's seat, another hand's, a second seed.
        """
        if seat is None:
            raise SeedRefused("a spectator sends no seed")
        if number != self.number:
            raise SeedRefused(f"the seeds being gathered are hand {self.number}'s, not {number!r}'s")
        if seat not in self.humans:
            raise SeedRefused(f"p{seat} is a bot's seat: the server supplies its seed (DEAL-9)")
        if seat in self.sent:
            raise SeedRefused(f"p{seat} has sent its seed for hand {self.number} already")

    def seeds(self) -> FairSeeds:
        """The hand's seeds: those sent, the server's for the others (DEAL-9)."""
        return FairSeeds.gather(self.number, self.server, [self.sent.get(s) for s in range(self.players)])


class TableChance:
    """A fair table's chance: hand N's deck once its seeds are settled (``settle``), else none (the game waits
    between hands, ``Match.add_deck``); the draw and the decks are ``engine.fairdeal.FairChance``'s. Rules:
    DEAL-5, PROTO-37."""

    def __init__(self, players: int, secret: bytes) -> None:
        self.players = players
        self.secret = secret
        self._fair = FairChance(players, lambda n: server_seed(secret, n), lambda n, s: None)

    @property
    def hands(self) -> dict[int, FairSeeds]:
        """The seeds settled of the latest hands (the one being played and the next)."""
        return self._fair.hands

    def settle(self, seeds: FairSeeds) -> None:
        hands = self._fair.hands
        hands[seeds.number] = seeds
        for old in [n for n in hands if n < seeds.number - 1]:
            del hands[old]

    def seeds(self, number: int) -> FairSeeds:
        got = self._fair.hands.get(number)
        assert got is not None, f"hand {number}'s seeds are not settled"
        return got

    def cut(self, count: int) -> tuple[Card, ...]:
        return self._fair.cut(count)

    def deck(self) -> tuple[Card, ...] | None:
        if self._fair.number + 1 not in self._fair.hands:
            return None
        return self._fair.deck()

    def seeding(self, number: int, humans: Sequence[int]) -> Seeding:
        """The wait for hand ``number``'s seeds."""
        return Seeding(number, server_seed(self.secret, number), self.players, tuple(humans))


# --- messages (PROTO-36 .. PROTO-39) --------------------------------------------------------------------------


def fair_commit(table: str, seeding: Seeding, timeout: float, left: float | None) -> dict[str, Any]:
    """The server's commitment to hand N's seed, sent before its deal: each seat answers with its own. Rule:
    PROTO-36."""
    return {"type": "fair_commit", "table": table, "hand": seeding.number, "commitment": seeding.commitment.hex(),
            "timeout": timeout, "left": left}  # fmt: skip


def seed_taken(number: int, seat: int, seed: bytes | None) -> dict[str, Any]:
    """A seat's seed is stored (null: it refused, the server supplies it). Rule: PROTO-37."""
    return {"type": "seed_taken", "hand": number, "seat": seat, "seed": seed.hex() if seed is not None else None}


def fair_info(seeds: FairSeeds, revealed: bool) -> dict[str, Any]:
    """A view's ``fair``: the hand's commitment and seeds, and its server seed once revealed. Rule: PROTO-39."""
    return {"hand": seeds.number, "commitment": seeds.commitment.hex(), "seeds": [s.hex() for s in seeds.seats],
            "supplied": list(seeds.supplied), "server": seeds.server.hex() if revealed else None}  # fmt: skip


def fair_reveal(seeds: FairSeeds) -> dict[str, Any]:
    """The server's seed of a hand that ended, with the seeds and commitment to check it by. Rule: PROTO-39."""
    return {"type": "fair_reveal", "seat": None, **fair_info(seeds, True)}
