"""Fair dealing at a table: the server's commitment, every seat's commitment and then its seed, the deal, the
reveal. Rules: PROTO-35 .. PROTO-40, PROTO-45, PROTO-46 (spec/protocol.md, "Fair dealing"), DEAL-5 .. DEAL-11
(spec/rules.md).

A fair table's server seeds come from one secret of 32 random bytes made with the table and kept in the store's
record of it (never in a log, a view or a frame): hand N's server seed is HMAC-SHA256(secret, label ‖ N), so a
restarted server finds the seed it committed to. Before each deal the table is *seeding*, in two rounds (PROTO-45):
the server has sent its commitment (``fair_commit``) and waits for every human seat's commitment until the seed
timeout (a bot's seat, a seat that sends none in time and a seat that refuses, ``"commitment": null``, get the seed
DEAL-9 gives); then, the set closed (``fair_set``), for the seeds of the seats that committed, each matching its
commitment (DEAL-11). ``Seeding`` is that wait; ``TableChance`` is the game's chance, which deals a hand only once
its seeds are settled.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.fairdeal import (
    SEED_SIZE,
    FairChance,
    FairSeeds,
    commit_receipt_message,
    commitment,
    seat_commitment,
    seed_receipt_message,
    set_hash,
    supplied_seed,
)
from replay.fair import statement_verifies
from replay.signing import SigningKey

#: The label of a fair table's server seeds (PROTO-40): HMAC-SHA256(table secret, label ‖ hand, 8 bytes).
SERVER_LABEL = b"knock-fair-server/1"
#: The earliest protocol a fair table takes (PROTO-46): an earlier client sends its seed in one round.
FAIR_PROTOCOL = (1, 4)
#: The seconds a seat has to send its seed, by default (PROTO-35), and the range a table may set.
SEED_TIMEOUT, SEED_TIMEOUT_RANGE = 10.0, (1.0, 300.0)

_HEX = re.compile(r"[0-9a-f]{64}")
_SIGNATURE = re.compile(r"[0-9a-f]{128}")


def server_seed(secret: bytes, number: int) -> bytes:
    """Hand ``number``'s server seed at a fair table whose secret is ``secret``. Rule: PROTO-40."""
    return hmac.digest(secret, SERVER_LABEL + number.to_bytes(8, "big"), "sha256")


class SeedRefused(ValueError):
    """A ``seed`` message the table does not take (error ``bad_seed``): the rule and the reason. Rule: PROTO-38."""

    def __init__(self, reason: str, rule: str = "PROTO-38") -> None:
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


def read_seed(value: object, what: str = "seed") -> bytes | None:
    """A seat's seed as it travels: 64 lowercase hex digits (32 bytes), or null to refuse. Rule: PROTO-38.

    >>> read_seed("00" * 32) == bytes(32), read_seed(None)
    (True, None)

    Raises:
        SeedRefused: anything else.
    """
    if value is None:
        return None
    if type(value) is not str or not _HEX.fullmatch(value):
        raise SeedRefused(f"a {what} is {SEED_SIZE} bytes written as {2 * SEED_SIZE} lowercase hex digits, or null")
    return bytes.fromhex(value)


@dataclass(eq=False)
class Seeding:
    """One hand's seeds being gathered, in two rounds (DEAL-11): first every human seat's commitment
    (``commits``; None: it sent none, or none in time, and the server supplies its seed), then — once the set is
    closed — the seeds of the seats that committed (``sent``). The server's seed is secret; ``deadline`` is when the
    round under way ends (``time.monotonic``; None until it starts). Rules: PROTO-36, PROTO-37, PROTO-45."""

    number: int
    server: bytes
    players: int
    humans: tuple[int, ...]
    commits: dict[int, bytes | None] = field(default_factory=dict)
    sent: dict[int, bytes] = field(default_factory=dict)
    #: each seat's signed statement with its reveal, (key, signature) (DEAL-12, PROTO-47)
    statements: dict[int, tuple[bytes, bytes]] = field(default_factory=dict)
    deadline: float | None = None

    @property
    def commitment(self) -> bytes:
        return commitment(self.server)

    @property
    def closed(self) -> bool:
        """Whether the commitment set is closed: every human seat has committed, or been marked as not."""
        return all(s in self.commits for s in self.humans)

    @property
    def committed(self) -> tuple[int, ...]:
        """The human seats that committed to a seed of their own (each owes its reveal)."""
        return tuple(s for s in self.humans if self.commits.get(s) is not None)

    @property
    def complete(self) -> bool:
        """Whether the hand can be dealt: the set is closed and every seat that committed has revealed."""
        return self.closed and all(s in self.sent for s in self.committed)

    @property
    def missing(self) -> tuple[int, ...]:
        """The seats that committed and have not revealed: they forfeit when the wait ends (DEAL-11)."""
        return tuple(s for s in self.committed if s not in self.sent)

    def close(self) -> tuple[int, ...]:
        """Close the set: every human seat that has not committed is marked as not (its seed supplied); those."""
        late = tuple(s for s in self.humans if s not in self.commits)
        for s in late:
            self.commits[s] = None
        return late

    def commitments(self) -> tuple[bytes, ...]:
        """Every seat's commitment, in seat order: a human seat's own, the server's to each seed it supplies."""
        c, n = self.commitment, self.number
        made = [self.commits.get(s) for s in range(self.players)]
        return tuple(m if m is not None else seat_commitment(c, n, s, supplied_seed(self.server, n, s))
                     for s, m in enumerate(made))  # fmt: skip

    def set_hash(self) -> bytes:
        return set_hash(self.number, self.commitment, self.commitments())

    def _sender(self, seat: int | None, number: object, what: str) -> int:
        if seat is None:
            raise SeedRefused(f"a spectator sends no {what}")
        if number != self.number:
            raise SeedRefused(f"the seeds being gathered are hand {self.number}'s, not {number!r}'s")
        if seat not in self.humans:
            raise SeedRefused(f"p{seat} is a bot's seat: the server supplies its seed (DEAL-9)")
        return seat

    def check_commit(self, seat: int | None, number: object, value: bytes | None) -> bool:
        """Whether ``seat`` may commit to ``value`` for hand ``number`` now (nothing changes); True for the same
        commitment again (acknowledged again). Rules: PROTO-38, PROTO-45.

        Raises:
            SeedRefused: the set closed, a spectator's, a bot's seat, another hand's, another commitment.
        """
        seat = self._sender(seat, number, "commitment")
        if seat in self.commits and self.commits[seat] == value:
            return True  # the same again (a page reloaded before its acknowledgement): answered again
        if self.closed:
            raise SeedRefused(f"hand {self.number}'s commitments are closed: its seeds are being revealed",
                              "PROTO-45")  # fmt: skip
        if seat in self.commits:
            raise SeedRefused(f"p{seat} has committed for hand {self.number} already: a commitment does not change",
                              "DEAL-11")  # fmt: skip
        return False

    def check_seed(self, seat: int | None, number: object, seed: bytes | None, set_text: object) -> bool:
        """Whether ``seat`` may reveal ``seed`` for hand ``number`` now (nothing changes); True for the same seed
        again. Rules: PROTO-38, PROTO-45, DEAL-11.

        Raises:
            SeedRefused: before the set, a spectator's, a bot's seat, another hand's, another set's, a seat that
                did not commit, a seed that does not match its commitment, a second seed.
        """
        if not self.closed:
            raise SeedRefused(f"hand {self.number}'s commitments are being gathered: a seat commits first, and "
                              "reveals its seed once it has the set (fair_set)", "PROTO-45")  # fmt: skip
        seat = self._sender(seat, number, "seed")
        if seed is None or set_text != self.set_hash().hex():
            raise SeedRefused("a seed is revealed with the hash of the commitment set it was sent (set)", "PROTO-45")
        made = self.commits.get(seat)
        if made is None:
            raise SeedRefused(f"p{seat} sent no commitment for hand {self.number}: the server supplies its seed",
                              "DEAL-11")  # fmt: skip
        if seat_commitment(self.commitment, self.number, seat, seed) != made:
            raise SeedRefused(f"p{seat}'s seed does not match the commitment it made for hand {self.number}",
                              "DEAL-11")  # fmt: skip
        return seat in self.sent

    def seeds(self) -> FairSeeds:
        """The hand's seeds: those revealed, the server's for the others (DEAL-9), with every seat's commitment."""
        signed = [(s, key, signature) for s, (key, signature) in self.statements.items()]
        return FairSeeds.gather(self.number, self.server, [self.sent.get(s) for s in range(self.players)],
                                committed=True, statements=signed)  # fmt: skip

    def check_statement(self, seat: int, seed: bytes, key: bytes | None, text: object) -> bytes | None:
        """The statement a seat's reveal carries (None: none), checked against the key its connection named.
        Rules: DEAL-12, PROTO-47.

        Raises:
            SeedRefused: none from a connection that named a key, one that does not verify; one from a connection
                that named none.
        """
        if key is None:
            if text is not None:
                raise SeedRefused("a statement comes from a connection whose hello named its key", "PROTO-47")
            return None
        if type(text) is not str or not _SIGNATURE.fullmatch(text):
            raise SeedRefused("this connection named a key: its reveal carries its statement, 128 lowercase hex "
                              "digits", "DEAL-12")  # fmt: skip
        signature = bytes.fromhex(text)
        if not statement_verifies(key, self.set_hash(), seat, seed, signature):
            raise SeedRefused(f"p{seat}'s statement does not verify with the key its hello named", "DEAL-12")
        return signature


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


def commit_taken(seeding: Seeding, seat: int, made: bytes | None, key: SigningKey | None) -> dict[str, Any]:
    """A seat's commitment is stored (null: it sent none, the server supplies its seed), with the server's receipt
    by ``key``. Rules: PROTO-45, PROTO-47."""
    n = seeding.number
    receipt = key.sign(commit_receipt_message(seeding.commitment, n, seat, made)) if key and made else None
    return {"type": "commit_taken", "hand": n, "seat": seat, "commitment": made.hex() if made else None,
            "receipt": receipt.hex() if receipt is not None else None}  # fmt: skip


def fair_set(table: str, seeding: Seeding, timeout: float, left: float | None) -> dict[str, Any]:
    """Every party's commitment for hand N, the set closed: the seats that committed reveal now. Rule: PROTO-45."""
    return {"type": "fair_set", "table": table, "hand": seeding.number, "commitment": seeding.commitment.hex(),
            "commitments": [c.hex() for c in seeding.commitments()], "set": seeding.set_hash().hex(),
            "timeout": timeout, "left": left}  # fmt: skip


def seed_taken(seeding: Seeding, seat: int, seed: bytes, key: SigningKey | None) -> dict[str, Any]:
    """A seat's seed is stored, with the server's receipt by ``key``. Rules: PROTO-37, PROTO-47."""
    receipt = key.sign(seed_receipt_message(seeding.set_hash(), seat, seed)) if key is not None else None
    return {"type": "seed_taken", "hand": seeding.number, "seat": seat, "seed": seed.hex(),
            "receipt": receipt.hex() if receipt is not None else None}  # fmt: skip


def fair_info(seeds: FairSeeds, revealed: bool) -> dict[str, Any]:
    """A view's ``fair``: the hand's commitment and seeds, its server seed once revealed, and (1.4) every seat's
    commitment (null where the seats did not commit first). Rules: PROTO-39, PROTO-45."""
    made = seeds.commitments
    return {"hand": seeds.number, "commitment": seeds.commitment.hex(), "seeds": [s.hex() for s in seeds.seats],
            "supplied": list(seeds.supplied), "server": seeds.server.hex() if revealed else None,
            "commitments": None if made is None else [c.hex() for c in made]}  # fmt: skip


def fair_reveal(seeds: FairSeeds) -> dict[str, Any]:
    """The server's seed of a hand that ended, with the seeds and commitment to check it by. Rule: PROTO-39."""
    return {"type": "fair_reveal", "seat": None, **fair_info(seeds, True)}
