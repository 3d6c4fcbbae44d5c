"""Fair dealing: deck orders no one can choose, derived from the server's committed seed and every seat's seed.

Rules: DEAL-5 .. DEAL-10 (spec/rules.md, section 2).

The derivation is language-neutral (HMAC-SHA256 in counter mode, unbiased integers by rejection sampling, a
Fisher–Yates shuffle); ``knock/web/static/js/fair.js`` is the same derivation in JavaScript, and both are
checked against ``spec/fair-vectors.json``.

>>> server, seeds = bytes(32), (bytes([1]) * 32, bytes([2]) * 32)
>>> " ".join(map(str, deal_deck(server, seeds, 1)[:5]))
'7s Ts 6s 3s 6h'
>>> commitment(server).hex()[:16]
'66687aadf862bd77'
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from engine.cards import DECK, Card
from engine.errors import InvalidDeal

SEED_SIZE = 32  #: the server's seed and every seat's seed are 32 bytes (DEAL-5)
LABEL = b"knock-fair/1"  #: the derivation's domain label (DEAL-6)
SEAT_LABEL = b"knock-fair-seat/1"  #: the label of a seed the server supplies for a seat (DEAL-9)
COMMIT_LABEL = b"knock-fair-commit/1"  #: the label of a seat's commitment to its seed (DEAL-11)
SET_LABEL = b"knock-fair-set/1"  #: the label of a hand's commitment set's hash (DEAL-11)
STATEMENT_LABEL = b"knock-fair-statement/1"  #: the label of a seat's signed statement (DEAL-12)
RECEIPT_LABEL = b"knock-fair-receipt/1"  #: the label of the server's receipts (DEAL-12)
DEAL, DRAW = 0x44, 0x43  #: the purpose byte: ``D`` a hand's deck, ``C`` a draw deck (DEAL-6, DEAL-8)


def _check_seeds(server: bytes, seats: Sequence[bytes]) -> None:
    if type(server) is not bytes or len(server) != SEED_SIZE:
        raise InvalidDeal("DEAL-5", f"the server's seed is {SEED_SIZE} bytes")
    if not 2 <= len(seats) <= 3 or any(type(s) is not bytes or len(s) != SEED_SIZE for s in seats):
        raise InvalidDeal("DEAL-5", f"a fair deal takes one {SEED_SIZE}-byte seed from each of the game's 2 or 3 seats")


def stream(server: bytes, seats: Sequence[bytes], purpose: int, number: int) -> Iterator[int]:
    """The derivation's bytes: block ``i`` = HMAC-SHA256(server seed, label ‖ purpose ‖ number (8 bytes) ‖ seat
    count ‖ seeds ‖ i (4 bytes)), i = 0, 1, …, numbers big-endian, one block after another. Rule: DEAL-6."""
    _check_seeds(server, seats)
    prefix = LABEL + bytes([purpose]) + number.to_bytes(8, "big") + bytes([len(seats)]) + b"".join(seats)
    counter = 0
    while True:
        yield from hmac.digest(server, prefix + counter.to_bytes(4, "big"), "sha256")
        counter += 1


def below(source: Iterator[int], n: int) -> int:
    """An integer uniform on ``0 … n-1`` (1 ≤ n ≤ 256): the next byte below the largest multiple of ``n`` that
    fits in a byte, modulo ``n``; a byte at or above it is discarded (rejection sampling). Rule: DEAL-7."""
    limit = 256 - 256 % n
    for b in source:
        if b < limit:
            return b % n
    raise AssertionError("the derivation's stream never ends")


def fisher_yates(source: Iterator[int], size: int = 52) -> tuple[int, ...]:
    """Card codes ``0 … size-1`` shuffled: for ``i`` from ``size-1`` down to 1, swap positions ``i`` and
    ``below(i + 1)``. Rule: DEAL-8."""
    deck = list(range(size))
    for i in range(size - 1, 0, -1):
        j = below(source, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def deal_codes(server: bytes, seats: Sequence[bytes], number: int) -> tuple[int, ...]:
    """Hand ``number``'s deck order as card codes (the deal record's order, DEAL-3). Rule: DEAL-8."""
    return fisher_yates(stream(server, seats, DEAL, number))


def deal_deck(server: bytes, seats: Sequence[bytes], number: int) -> tuple[Card, ...]:
    """Hand ``number``'s deck order. Rule: DEAL-8."""
    return tuple(DECK[c] for c in deal_codes(server, seats, number))


def draw_codes(server: bytes, seats: Sequence[bytes], index: int = 0) -> tuple[int, ...]:
    """The ``index``-th deck (from 0) of the draw for the first dealer or the roles, from the first hand's seeds:
    the rounds take its cards in order (MATCH-7). Rule: DEAL-8."""
    return fisher_yates(stream(server, seats, DRAW, index))


def commitment(server: bytes) -> bytes:
    """The server's commitment to its seed: SHA-256 of the 32 bytes. Rule: DEAL-9."""
    return hashlib.sha256(server).digest()


def supplied_seed(server: bytes, number: int, seat: int) -> bytes:
    """The seed the server supplies for a seat that gives none (a bot's seat, or a seat that sent none in time):
    HMAC-SHA256(server seed, seat label ‖ number ‖ seat), fixed by the commitment. Rule: DEAL-9."""
    return hmac.digest(server, SEAT_LABEL + number.to_bytes(8, "big") + bytes([seat]), "sha256")


def seat_commitment(committed: bytes, number: int, seat: int, seed: bytes) -> bytes:
    """A seat's commitment to its seed for hand ``number``, bound to the hand's server commitment: SHA-256(label ‖
    commitment ‖ number (8 bytes) ‖ seat (1 byte) ‖ seed). Rule: DEAL-11."""
    return hashlib.sha256(COMMIT_LABEL + committed + number.to_bytes(8, "big") + bytes([seat]) + seed).digest()


def set_hash(number: int, committed: bytes, commitments: Sequence[bytes]) -> bytes:
    """The hash of hand ``number``'s commitment set: SHA-256(label ‖ number (8 bytes) ‖ the server's commitment ‖
    every seat's, in seat order). Rule: DEAL-11."""
    return hashlib.sha256(SET_LABEL + number.to_bytes(8, "big") + committed + b"".join(commitments)).digest()


def statement_message(set_digest: bytes, seat: int, seed: bytes) -> bytes:
    """What a seat signs when it reveals its seed: label ‖ the set's hash ‖ seat (1 byte) ‖ seed. Rule: DEAL-12."""
    return STATEMENT_LABEL + set_digest + bytes([seat]) + seed


def commit_receipt_message(committed: bytes, number: int, seat: int, made: bytes) -> bytes:
    """What the server signs when it stores a seat's commitment: label ‖ ``C`` ‖ the server's commitment ‖ number
    (8 bytes) ‖ seat ‖ the commitment. Rule: DEAL-12."""
    return RECEIPT_LABEL + b"C" + committed + number.to_bytes(8, "big") + bytes([seat]) + made


def seed_receipt_message(set_digest: bytes, seat: int, seed: bytes) -> bytes:
    """What the server signs when it stores a seat's seed: label ‖ ``S`` ‖ the set's hash ‖ seat ‖ seed. Rule:
    DEAL-12."""
    return RECEIPT_LABEL + b"S" + set_digest + bytes([seat]) + seed


def check_commitments(committed: bytes, number: int, seeds: Sequence[bytes], commitments: Sequence[bytes]) -> None:
    """Every seat's seed against its commitment. Rule: DEAL-11.

    Raises:
        InvalidDeal: DEAL-5 for another number of commitments than seats, or one not of 32 bytes; DEAL-11 for a
            seed that does not match its seat's commitment.
    """
    if len(commitments) != len(seeds) or any(type(c) is not bytes or len(c) != SEED_SIZE for c in commitments):
        raise InvalidDeal(
            "DEAL-5", f"a fair hand takes one {SEED_SIZE}-byte commitment from each of its {len(seeds)} seats"
        )
    for seat, (seed, c) in enumerate(zip(seeds, commitments, strict=True)):
        if seat_commitment(committed, number, seat, seed) != c:
            raise InvalidDeal("DEAL-11", f"p{seat}'s seed does not match the commitment it made before the seeds")


@dataclass(frozen=True, slots=True)
class FairSeeds:
    """One hand's seeds: the server's (secret until the hand's result), every seat's, and the seats whose seed the
    server supplied. Rules: DEAL-5, DEAL-9."""

    number: int
    server: bytes
    seats: tuple[bytes, ...]
    supplied: tuple[int, ...]
    #: every seat's commitment to its seed, made before any seed was revealed (DEAL-11); None where the seats did
    #: not commit first (a demonstration's seeds, all supplied, and a log of version 2.0)
    commitments: tuple[bytes, ...] | None = None
    #: the seats' signed statements of what they saw, (seat, public key, signature), ascending (DEAL-12)
    statements: tuple[tuple[int, bytes, bytes], ...] = ()

    @classmethod
    def gather(
        cls,
        number: int,
        server: bytes,
        sent: Sequence[bytes | None],
        *,
        committed: bool = False,
        statements: Sequence[tuple[int, bytes, bytes]] = (),
    ) -> FairSeeds:
        """A hand's seeds from what each seat sent (None: nothing, in time or at all); the server supplies the
        rest (DEAL-9); ``committed``: the seats committed first, and the hand holds every seat's commitment
        (DEAL-11: the server commits to the seeds it supplies); ``statements``: the seats' signed statements,
        (seat, key, signature) (DEAL-12), kept in seat order.

        Raises:
            InvalidDeal: DEAL-5, a seed that is not 32 bytes (the server's or a seat's).
        """
        seats = tuple(s if s is not None else supplied_seed(server, number, i) for i, s in enumerate(sent))
        _check_seeds(server, seats)
        c = commitment(server)
        made = tuple(seat_commitment(c, number, i, s) for i, s in enumerate(seats)) if committed else None
        signed = tuple(sorted(statements)) if committed else ()
        return cls(number, server, seats, tuple(i for i, s in enumerate(sent) if s is None), made, signed)

    @property
    def commitment(self) -> bytes:
        return commitment(self.server)

    @property
    def set_hash(self) -> bytes | None:
        """The hash of the hand's commitment set, where the seats committed first (DEAL-11)."""
        return None if self.commitments is None else set_hash(self.number, self.commitment, self.commitments)

    def deck(self) -> tuple[Card, ...]:
        return deal_deck(self.server, self.seats, self.number)


def check(
    seeds: Sequence[bytes], supplied: Sequence[int], server: bytes, committed: bytes, number: int
) -> tuple[int, ...]:
    """A hand's revealed seed against its commitment, and every supplied seed against the revealed seed; the deck
    order the seeds give (card codes), for the caller to compare with the deal. Rules: DEAL-9, DEAL-10.

    Raises:
        InvalidDeal: DEAL-5 for a server seed of another length than 32 bytes, else DEAL-9, naming what does not
            follow.
    """
    if type(server) is not bytes or len(server) != SEED_SIZE:
        raise InvalidDeal("DEAL-5", f"the revealed server seed is not {SEED_SIZE} bytes")
    if commitment(server) != committed:
        raise InvalidDeal("DEAL-9", "the revealed server seed does not match its commitment")
    for seat in supplied:
        if seeds[seat] != supplied_seed(server, number, seat):
            raise InvalidDeal("DEAL-9", f"p{seat}'s seed, supplied by the server, is not the one its seed gives")
    return deal_codes(server, seeds, number)


class FairChance:
    """A fair game's chance (DEAL-5): each hand's seeds from ``server`` (hand number -> the server's secret seed)
    and ``seat`` (hand number, seat -> the seat's seed, or None for the server to supply it); the draw deck from
    the first hand's seeds. ``hands`` keeps the seeds of the latest hands (the one being played and the next), for
    a writer (``replay.log``). Rules: DEAL-5 .. DEAL-9, MATCH-7.
    """

    def __init__(self, players: int, server: Callable[[int], bytes], seat: Callable[[int, int], bytes | None]) -> None:
        self.players = players
        self.server = server
        self.seat = seat
        self.hands: dict[int, FairSeeds] = {}
        self.number = 0  # the hand whose deck was dealt last
        self._draw: list[int] = []
        self._draws = 0

    def seeds(self, number: int) -> FairSeeds:
        """Hand ``number``'s seeds (gathered when first asked for)."""
        got = self.hands.get(number)
        if got is None:
            got = FairSeeds.gather(number, self.server(number), [self.seat(number, s) for s in range(self.players)])
            self.hands[number] = got
            for old in [n for n in self.hands if n < number - 1]:
                del self.hands[old]
        return got

    def cut(self, count: int) -> tuple[Card, ...]:
        if len(self._draw) < count:  # MATCH-7: a draw that used up its deck goes on with the next
            first = self.seeds(1)
            self._draw = list(draw_codes(first.server, first.seats, self._draws))
            self._draws += 1
        drawn, self._draw = self._draw[:count], self._draw[count:]
        return tuple(DECK[c] for c in drawn)

    def deck(self) -> tuple[Card, ...]:
        self.number += 1
        return self.seeds(self.number).deck()


def demo_chance(players: int, seed: int) -> FairChance:
    """A reproducible fair game for demonstrations and tests: the server's seeds derived from ``seed`` (so whoever
    knows it knows every deck: for ``knock demo --fair`` and ``simulate --fair``, never a table), every seat's
    seed supplied by the server."""
    key = hashlib.sha256(b"knock-fair-demo:%d" % seed).digest()
    return FairChance(players, lambda n: hmac.digest(key, n.to_bytes(4, "big"), "sha256"), lambda n, s: None)
