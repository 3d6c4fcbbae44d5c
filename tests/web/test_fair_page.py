"""The page's fair dealing against a malicious server (issue #57): Node runs the page's own modules
(``knock/web/static/js/fairseat.js``, ``fairset.js``, ``fair.js``, through ``tests/support/fair_seat.mjs``) on frames
forged here with the engine's hashes (``engine/fairdeal.py``), so page and engine must agree. Every party commits
before any seed is seen (DEAL-11, PROTO-45): the page answers the server's commitment with its own, reveals its seed
only for a commitment set that holds what it pinned and sent, and checks every seat's seed against the set. A server
that cheats in any way here loses: the page fails the hand, sends no seed where it should not, and never says the
deal was checked; an honest server passes, across a reload that kept what the page saw.

Protocol 1.4's statements and receipts (DEAL-12, PROTO-47): the page signs every seed it reveals with its own
Ed25519 key (made by the page in Node's Web Crypto, kept in an in-memory store in place of IndexedDB), checked here
with ``cryptography``; the forged server signs its receipts with a key made here, and a receipt that is missing, by
another key or of another value, or a receipts key that changes, fails the hand naming PROTO-47 and stops the page
at the table, which then hands over its evidence.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from engine import fairdeal
from engine.cards import DECK, to_mask
from engine.errors import InvalidDeal
from engine.melds import deadwood

ROOT = Path(__file__).resolve().parents[2]
TABLE = "t-forged"
Frame = dict[str, Any]


def seed(label: str) -> bytes:
    """32 bytes named by ``label``: the scenarios are the same on every run."""
    return hashlib.sha256(label.encode()).digest()


def public(key: Ed25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


RECEIPTS = Ed25519PrivateKey.from_private_bytes(seed("the server's receipts key"))
ANOTHER_KEY = Ed25519PrivateKey.from_private_bytes(seed("another key"))
RECEIPT_LABEL = b"knock-fair-receipt/1"
STATEMENT_LABEL = b"knock-fair-statement/1"


def commit_receipt_message(committed: bytes, number: int, seat: int, commitment: bytes) -> bytes:
    """DEAL-12's receipt of a seat's commitment: label ‖ "C" ‖ the server's commitment ‖ N ‖ seat ‖ commitment."""
    return RECEIPT_LABEL + b"C" + committed + number.to_bytes(8, "big") + bytes([seat]) + commitment


def seed_receipt_message(set_hash: bytes, seat: int, seed_: bytes) -> bytes:
    """DEAL-12's receipt of a seat's seed: label ‖ "S" ‖ the set's hash ‖ seat ‖ seed."""
    return RECEIPT_LABEL + b"S" + set_hash + bytes([seat]) + seed_


def statement_message(set_hash: bytes, seat: int, seed_: bytes) -> bytes:
    """DEAL-12's statement: the 87 bytes a seat signs when it reveals."""
    message = STATEMENT_LABEL + set_hash + bytes([seat]) + seed_
    assert len(message) == 87
    return message


def welcome(seat: int | None = 0, receipts: bytes | None = None) -> Frame:
    """The part of ``welcome`` the fair page reads: the table is fair, and the server's receipts key (PROTO-47)."""
    key = public(RECEIPTS) if receipts is None else receipts
    return {"type": "welcome", "protocol": [1, 4], "table": TABLE, "seat": seat, "fair": True, "receipts": key.hex()}


@dataclass(frozen=True)
class Hand:
    """One fair hand of a two-seat table as its server deals it: the server's seed and each seat's, seat 0 the
    page's, seat 1 the server's bot (its seed supplied, DEAL-9) or another human seat."""

    server: bytes
    seeds: tuple[bytes, ...]
    supplied: tuple[int, ...] = (1,)
    number: int = 1
    dealer: int = 1  # the page's seat is the non-dealer: the deck's even positions are its ten cards (DEAL-3)

    @classmethod
    def of(cls, name: str, mine: bytes, *, number: int = 1, bot: bool = True) -> Hand:
        server = seed(f"{name}/server/{number}")
        other = fairdeal.supplied_seed(server, number, 1) if bot else seed(f"{name}/p1/{number}")
        return cls(server, (mine, other), (1,) if bot else (), number)

    @property
    def commitment(self) -> bytes:
        return fairdeal.commitment(self.server)

    def commitments(self) -> list[bytes]:
        return [fairdeal.seat_commitment(self.commitment, self.number, s, x) for s, x in enumerate(self.seeds)]

    def set_hash(self, commitments: list[bytes] | None = None) -> bytes:
        return fairdeal.set_hash(self.number, self.commitment, commitments or self.commitments())

    def fair_commit(self) -> Frame:
        return {"type": "fair_commit", "table": TABLE, "hand": self.number, "commitment": self.commitment.hex(),
                "timeout": 10, "left": 10}  # fmt: skip

    def commit_taken(self, seat: int = 0, *, key: Ed25519PrivateKey | None = RECEIPTS,
                     of: bytes | None = None) -> Frame:  # fmt: skip
        """The acknowledgement with its receipt by ``key`` (None: no receipt) of the commitment ``of`` (by default
        the one acknowledged)."""
        c = self.commitments()[seat]
        receipt = None if key is None else key.sign(commit_receipt_message(self.commitment, self.number, seat, of or c))
        return {"type": "commit_taken", "hand": self.number, "seat": seat, "commitment": c.hex(),
                "receipt": receipt and receipt.hex()}  # fmt: skip

    def fair_set(self, commitments: list[bytes] | None = None, *, set_hash: bytes | None = None) -> Frame:
        listed = commitments or self.commitments()
        return {"type": "fair_set", "table": TABLE, "hand": self.number, "commitment": self.commitment.hex(),
                "commitments": [c.hex() for c in listed], "set": (set_hash or self.set_hash(listed)).hex(),
                "timeout": 10, "left": 10}  # fmt: skip

    def seed_taken(self, seat: int = 0, *, key: Ed25519PrivateKey | None = RECEIPTS, of: bytes | None = None) -> Frame:
        """The acknowledgement with its receipt by ``key`` (None: no receipt) of the seed ``of`` (by default the one
        acknowledged)."""
        s = self.seeds[seat]
        receipt = None if key is None else key.sign(seed_receipt_message(self.set_hash(), seat, of or s))
        return {"type": "seed_taken", "hand": self.number, "seat": seat, "seed": s.hex(),
                "receipt": receipt and receipt.hex()}  # fmt: skip

    def deck(self) -> tuple[int, ...]:
        return fairdeal.deal_codes(self.server, self.seeds, self.number)

    def cards(self, seat: int) -> list[str]:
        parity = 1 if seat == self.dealer else 0
        return [str(DECK[c]) for i, c in enumerate(self.deck()[:20]) if i % 2 == parity]

    def fair(self, *, server: bool = False) -> Frame:
        return {"hand": self.number, "commitment": self.commitment.hex(), "seeds": [s.hex() for s in self.seeds],
                "supplied": list(self.supplied), "server": self.server.hex() if server else None}  # fmt: skip

    def view(self, seat: int | None = 0, cards: list[str] | None = None) -> Frame:
        """The first view of the hand: the deal's events and the cards the deck gives the seat."""
        shown = cards if cards is not None else ([] if seat is None else self.cards(seat))
        return {"type": "view", "record": 1, "fair": self.fair(),
                "view": {"hand": self.number, "dealer": self.dealer, "upcard": str(DECK[self.deck()[20]]),
                         "seats": [0, 1], "cards": shown},
                "events": [{"kind": "hand_started", "hand": self.number}, {"kind": "dealt"}]}  # fmt: skip

    def fair_reveal(self, seat: int | None = 0) -> Frame:
        return {"type": "fair_reveal", "seat": seat, **self.fair(server=True)}


def frame(f: Frame) -> dict[str, Any]:
    return {"frame": f}


def together(*fs: Frame) -> dict[str, Any]:
    """Frames handed to the page at once: none is awaited before the next comes."""
    return {"frames": list(fs)}


def reload(kept: bool, *, hello: Frame | None = None, table: str | None = None) -> dict[str, Any]:
    """A new page at the seat, its storage kept or lost; its hello answered with ``hello`` (default: the scenario's
    welcome), at ``table`` (default: the scenario's)."""
    step: dict[str, Any] = {"reload": "kept" if kept else "lost"}
    if hello is not None:
        step["welcome"] = hello
    if table is not None:
        step["table"] = table
    return step


@dataclass
class Scenario:
    steps: list[dict[str, Any]]
    randoms: list[bytes] = field(default_factory=list)  # what the page's crypto.getRandomValues gives, in order
    seat: int | None = 0
    storage: bool = True
    key: bool = True  # whether the page can keep a statement key (IndexedDB and Ed25519)
    welcome: Frame | bool | None = True  # sent first and after each reload; True: the honest one for the seat


SCENARIOS: dict[str, Callable[[], Scenario]] = {}


def scenario(make: Callable[[], Scenario]) -> Callable[[], Scenario]:
    SCENARIOS[make.__name__] = make
    return make


MINE = seed("the page's seed")
HONEST = Hand.of("honest", MINE)


def honest_steps(h: Hand, seat: int = 0) -> list[dict[str, Any]]:
    """Every frame an honest server sends the seat for the hand, in order."""
    return [frame(h.fair_commit()), frame(h.commit_taken(seat)), frame(h.fair_set()), frame(h.seed_taken(seat)),
            frame(h.view(seat)), frame(h.fair_reveal(seat))]  # fmt: skip


@scenario
def honest() -> Scenario:
    return Scenario(honest_steps(HONEST), [MINE])


@scenario
def honest_no_storage() -> Scenario:
    return Scenario(honest_steps(HONEST), [MINE], storage=False)


@scenario
def honest_spectator() -> Scenario:
    h = HONEST
    return Scenario([frame(h.fair_commit()), frame(h.fair_set()), frame(h.view(None)), frame(h.fair_reveal(None))],
                    seat=None)  # fmt: skip


@scenario
def reload_kept_while_committing() -> Scenario:
    """A reload after the page's commitment: the same commitment again, then the kept seed revealed."""
    h = HONEST
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), reload(kept=True), *honest_steps(h)]
    return Scenario(steps, [MINE, seed("a second seed the page must not make")])


@scenario
def reload_kept_while_revealing() -> Scenario:
    """A reload after the page revealed its seed and before the server said it took it: the hello sends the
    commitment and the same set again, and the page reveals the seed it kept, once more, then no more."""
    h = HONEST
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), frame(h.fair_set()), reload(kept=True),
             frame(h.fair_commit()), frame(h.fair_set()), frame(h.seed_taken()), frame(h.fair_set()),
             frame(h.view()), frame(h.fair_reveal())]  # fmt: skip
    return Scenario(steps, [MINE, seed("a second seed the page must not make")])


@scenario
def reload_kept_before_the_acknowledgement() -> Scenario:
    """A reload after the page's commitment went out and before the server's acknowledgement came: the commitment
    sent again is refused once the commitments are in (after the set), which is no loss."""
    h = HONEST
    refused = {"type": "error", "code": "bad_seed", "message": "the commitments are in"}
    steps = [frame(h.fair_commit()), reload(kept=True), frame(h.fair_commit()), frame(h.fair_set()), frame(refused),
             *honest_steps(h)[3:]]  # fmt: skip
    return Scenario(steps, [MINE, seed("a second seed the page must not make")])


@scenario
def reload_lost_after_deal() -> Scenario:
    """The page's storage lost after the deal: it sees the hand only from its view on."""
    h = HONEST
    steps = [*honest_steps(h)[:5], reload(kept=False), frame(h.view()), frame(h.fair_reveal())]
    return Scenario(steps, [MINE])


@scenario
def reload_lost_while_committing() -> Scenario:
    """The page's storage lost after its commitment: its new one is refused as another for the hand, and the set
    holds the one it lost."""
    h = HONEST
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), reload(kept=False), frame(h.fair_commit()),
             frame({"type": "error", "code": "bad_seed", "message": "another commitment for hand 1"}),
             frame(h.fair_set())]  # fmt: skip
    return Scenario(steps, [MINE, seed("the seed of the page that forgot")])


OTHER = Hand.of("other", MINE)  # the same hand under another server seed: the commitment a cheating server swaps in


@scenario
def recommit_before_the_commit() -> Scenario:
    """Two commitments for the hand at once: the page answers the first, never the second."""
    h, o = HONEST, OTHER
    steps = [together(h.fair_commit(), o.fair_commit()), frame(o.commit_taken()), frame(o.fair_set()),
             frame(o.view()), frame(o.fair_reveal())]  # fmt: skip
    return Scenario(steps, [MINE])


@scenario
def recommit_after_the_commit() -> Scenario:
    h, o = HONEST, OTHER
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), frame(o.fair_commit()), frame(o.fair_set()),
             frame(o.view()), frame(o.fair_reveal())]  # fmt: skip
    return Scenario(steps, [MINE])


@scenario
def recommit_then_the_pinned_set() -> Scenario:
    """A second commitment, then a set under the first: the hand has failed, and the page reveals nothing for it."""
    h, o = HONEST, OTHER
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), frame(o.fair_commit()), frame(h.fair_set())]
    return Scenario(steps, [MINE])


@scenario
def recommit_after_the_seed() -> Scenario:
    h, o = HONEST, OTHER
    steps = [*honest_steps(h)[:4], frame(o.fair_commit()), frame(o.view()), frame(o.fair_reveal())]
    return Scenario(steps, [MINE])


@scenario
def recommit_after_a_kept_reload() -> Scenario:
    h, o = HONEST, OTHER
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), reload(kept=True), frame(o.fair_commit()),
             frame(o.fair_set()), frame(o.view()), frame(o.fair_reveal())]  # fmt: skip
    return Scenario(steps, [MINE])


@scenario
def set_with_another_server_commitment() -> Scenario:
    """The set names another server commitment than the one pinned (its hash right for what it lists)."""
    h, o = HONEST, OTHER
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), frame(o.fair_set()), frame(o.view()),
             frame(o.fair_reveal())]  # fmt: skip
    return Scenario(steps, [MINE])


def replaced_commitments(h: Hand) -> list[bytes]:
    """The set a server makes that puts the seed it supplies at the page's seat in place of the page's own."""
    return [fairdeal.seat_commitment(h.commitment, h.number, 0, fairdeal.supplied_seed(h.server, h.number, 0)),
            h.commitments()[1]]  # fmt: skip


@scenario
def set_replacing_an_acknowledged_commitment() -> Scenario:
    h = HONEST
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), frame(h.fair_set(replaced_commitments(h)))]
    return Scenario(steps, [MINE])


@scenario
def set_dropping_an_unacknowledged_commitment() -> Scenario:
    h = HONEST
    return Scenario([frame(h.fair_commit()), frame(h.fair_set(replaced_commitments(h)))], [MINE])


@scenario
def set_without_the_seats_commitment() -> Scenario:
    h = HONEST
    short = h.commitments()[1:]
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), frame(h.fair_set(short))]
    return Scenario(steps, [MINE])


@scenario
def set_with_a_wrong_hash() -> Scenario:
    h = HONEST
    wrong = fairdeal.set_hash(h.number + 1, h.commitment, h.commitments())  # another hand's hash of the same list
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), frame(h.fair_set(set_hash=wrong))]
    return Scenario(steps, [MINE])


GRIND = Hand.of("grind", MINE, bot=False)  # seat 1 a human seat that plays with the server


def ground(h: Hand, tries: int = 200) -> tuple[Hand, bytes]:
    """What the server and its seat do when the set does not bind them: once the page's seed is revealed, seat 1
    tries seeds until its own ten cards have the least deadwood, and the server deals from that one."""

    def dealer_deadwood(s: bytes) -> int:
        deck = fairdeal.deal_deck(h.server, (h.seeds[0], s), h.number)
        return deadwood(to_mask(deck[1:20:2]))

    best = min((seed(f"grind/try/{i}") for i in range(tries)), key=dealer_deadwood)
    return dataclasses.replace(h, seeds=(h.seeds[0], best)), best


@scenario
def second_different_set() -> Scenario:
    """After the page revealed its seed, another set in which seat 1 commits to a seed ground against it."""
    h = GRIND
    swapped, _ = ground(h)
    steps = [*honest_steps(h)[:4], frame(swapped.fair_set())]
    return Scenario(steps, [MINE])


@scenario
def seat_seed_swapped_after_the_set() -> Scenario:
    """Seat 1 committed, saw the page's seed, and the server deals from the seed it ground instead: every other
    check holds (the deal follows from the seeds shown, the server's seed from its commitment)."""
    h = GRIND
    swapped, _ = ground(h)
    steps = [*honest_steps(h)[:4], frame(swapped.view()), frame(swapped.fair_reveal())]
    return Scenario(steps, [MINE])


@scenario
def acknowledged_then_supplied() -> Scenario:
    h = HONEST
    dropped = dataclasses.replace(h, seeds=(fairdeal.supplied_seed(h.server, 1, 0), h.seeds[1]), supplied=(0, 1))
    steps = [*honest_steps(h)[:4], frame(dropped.view()), frame(dropped.fair_reveal())]
    return Scenario(steps, [MINE])


@scenario
def deal_not_from_the_seeds() -> Scenario:
    h = HONEST
    cards = h.cards(0)
    cards[3] = str(DECK[h.deck()[30]])  # a card of the stock dealt to the page in place of one the seeds gave it
    steps = [*honest_steps(h)[:4], frame(h.view(cards=cards)), frame(h.fair_reveal())]
    return Scenario(steps, [MINE])


@scenario
def server_seed_not_committed() -> Scenario:
    h = HONEST
    lie = {**h.fair_reveal(), "server": seed("another server seed").hex()}
    return Scenario([*honest_steps(h)[:5], frame(lie)], [MINE])


REDEAL = Hand.of("redeal", seed("the page's second seed"))


@scenario
def redealt_with_a_new_commitment() -> Scenario:
    """Hand 1 dealt, checked and passed; then its seeds gathered again, with a new commitment."""
    r = REDEAL
    steps = [*honest_steps(HONEST), frame(r.fair_commit()), frame(r.fair_set())]
    return Scenario(steps, [MINE, seed("the page's second seed")])


@scenario
def redealt_with_the_same_commitment() -> Scenario:
    h = HONEST
    steps = [*honest_steps(h), frame(h.fair_commit()), frame(h.fair_set())]
    return Scenario(steps, [MINE, seed("the page's second seed")])


@scenario
def redealt_before_its_result() -> Scenario:
    """Hand 1 dealt, then its seeds gathered again before its result: the server would choose between two decks."""
    h = HONEST
    steps = [*honest_steps(h)[:5], frame(h.fair_commit()), frame(h.fair_set()), frame(h.fair_reveal())]
    return Scenario(steps, [MINE, seed("the page's second seed")])


@scenario
def redealt_in_a_view() -> Scenario:
    """Hand 1 dealt again with no new commitment: a later view shows the page other cards dealt for hand 1."""
    h = HONEST
    other = h.cards(1)  # the cards the first deal gave seat 1
    steps = [*honest_steps(h)[:5], frame(h.view(cards=other)), frame(h.fair_reveal())]
    return Scenario(steps, [MINE])


@scenario
def draw_honest() -> Scenario:
    return draw_scenario(forged=False)


@scenario
def draw_forged() -> Scenario:
    return draw_scenario(forged=True)


def draw_scenario(*, forged: bool) -> Scenario:
    """The draw for the deal (1.4: every view's ``draw``), checked at the first hand's reveal (DEAL-8, DEAL-10)."""
    h = HONEST
    draw = [str(DECK[c]) for c in fairdeal.draw_codes(h.server, h.seeds, 0)[:2]]
    if forged:
        draw.reverse()  # the server shows p0 the card the seeds gave p1, and p1 p0's
    view = {**h.view(), "draw": [{"seats": [0, 1], "cards": draw}]}
    return Scenario([*honest_steps(h)[:4], frame(view), frame(h.fair_reveal())], [MINE])


# --- statements and receipts (DEAL-12, PROTO-47) ----------------------------------------------------------------


@scenario
def unsigned() -> Scenario:
    """A browser with no key store (no IndexedDB, or no Ed25519): the page reveals unsigned, and says so."""
    return Scenario(honest_steps(HONEST), [MINE], key=False)


def with_receipts(h: Hand, *, commit: Frame | None = None, seed_taken: Frame | None = None) -> list[dict[str, Any]]:
    """The honest hand with its acknowledgements replaced: a forged receipt."""
    steps = honest_steps(h)
    if commit is not None:
        steps[1] = frame(commit)
    if seed_taken is not None:
        steps[3] = frame(seed_taken)
    return steps


SUPPLIED_MINE = fairdeal.supplied_seed(HONEST.server, 1, 0)  # the seed a server would deal the page's seat from


@scenario
def commit_receipt_missing() -> Scenario:
    return Scenario(with_receipts(HONEST, commit=HONEST.commit_taken(key=None)), [MINE])


@scenario
def commit_receipt_by_another_key() -> Scenario:
    return Scenario(with_receipts(HONEST, commit=HONEST.commit_taken(key=ANOTHER_KEY)), [MINE])


@scenario
def commit_receipt_of_another_commitment() -> Scenario:
    """A receipt, by the right key, of the commitment the server would put in the page's place."""
    h = HONEST
    other = fairdeal.seat_commitment(h.commitment, 1, 0, SUPPLIED_MINE)
    return Scenario(with_receipts(h, commit=h.commit_taken(of=other)), [MINE])


@scenario
def commit_receipt_of_a_seed() -> Scenario:
    """The right key's signature of another kind of receipt: a seed's, where a commitment's belongs."""
    h = HONEST
    taken = {**h.commit_taken(), "receipt": RECEIPTS.sign(seed_receipt_message(h.set_hash(), 0, MINE)).hex()}
    return Scenario(with_receipts(h, commit=taken), [MINE])


@scenario
def commit_receipt_not_a_signature() -> Scenario:
    return Scenario(with_receipts(HONEST, commit={**HONEST.commit_taken(), "receipt": "00" * 32}), [MINE])


@scenario
def seed_receipt_missing() -> Scenario:
    return Scenario(with_receipts(HONEST, seed_taken=HONEST.seed_taken(key=None)), [MINE])


@scenario
def seed_receipt_by_another_key() -> Scenario:
    return Scenario(with_receipts(HONEST, seed_taken=HONEST.seed_taken(key=ANOTHER_KEY)), [MINE])


@scenario
def seed_receipt_of_another_seed() -> Scenario:
    return Scenario(with_receipts(HONEST, seed_taken=HONEST.seed_taken(of=SUPPLIED_MINE)), [MINE])


def another_receipts_key() -> Frame:
    return welcome(receipts=public(ANOTHER_KEY))


@scenario
def receipts_key_changed_while_committing() -> Scenario:
    """A second welcome (the page's connection dropped and came back) names another receipts key."""
    h = HONEST
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), frame(another_receipts_key()), frame(h.fair_commit()),
             frame(h.fair_set())]  # fmt: skip
    return Scenario(steps, [MINE])


@scenario
def receipts_key_changed_after_a_reload() -> Scenario:
    """The key pinned at the first welcome is kept in storage: a reloaded page holds the server to it."""
    h = HONEST
    steps = [frame(h.fair_commit()), frame(h.commit_taken()), reload(kept=True, hello=another_receipts_key()),
             frame(h.fair_commit()), frame(h.fair_set())]  # fmt: skip
    return Scenario(steps, [MINE, seed("a second seed the page must not make")])


SECOND = Hand.of("second", seed("the page's seed for hand 2"), number=2)


@scenario
def receipts_key_changed_between_hands() -> Scenario:
    """Hand 1 passed; the key changes before hand 2: hand 2 fails, and the page commits to nothing for it."""
    steps = [*honest_steps(HONEST), frame(another_receipts_key()), frame(SECOND.fair_commit())]
    return Scenario(steps, [MINE, seed("the page's seed for hand 2")])


@scenario
def receipts_key_missing() -> Scenario:
    """A fair table's welcome names no receipts key: nothing the server acknowledges can be checked."""
    h = HONEST
    hello = {**welcome(), "receipts": None}
    return Scenario([frame(h.fair_commit()), frame(h.commit_taken()), frame(h.fair_set())], [MINE], welcome=hello)


SMALL_ORDER_KEY = bytes([1]) + bytes(31)  # the neutral point: a key no secret made


@scenario
def receipts_key_of_small_order() -> Scenario:
    """A receipts key of small order, with which R = the neutral point and S = 0 "sign" every message (LOG-17):
    the page refuses the key, so such receipts, which Knock's verifier refuses, never pass here."""
    h = HONEST
    forged = (SMALL_ORDER_KEY + bytes(32)).hex()
    steps = [frame(h.fair_commit()), frame({**h.commit_taken(), "receipt": forged}), frame(h.fair_set())]
    return Scenario(steps, [MINE], welcome=welcome(receipts=SMALL_ORDER_KEY))


@scenario
def evidence_of_another_table() -> Scenario:
    """The page keeps the current table's evidence only: opening another table drops the first one's frames."""
    steps = [*with_receipts(HONEST, seed_taken=HONEST.seed_taken(key=ANOTHER_KEY)), reload(kept=True, table="t-next"),
             reload(kept=True)]  # fmt: skip
    return Scenario(steps, [MINE])


@pytest.fixture(scope="module")
def page() -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None, "the page's modules run in Node 20 (globalThis.crypto.subtle)"
    scenarios = {}
    for name, make in SCENARIOS.items():
        s = make()
        randoms = [r.hex() for r in s.randoms]
        hello = welcome(s.seat) if s.welcome is True else s.welcome or None
        scenarios[name] = {"seat": s.seat, "table": TABLE, "storage": s.storage, "key": s.key, "welcome": hello,
                           "randoms": randoms, "steps": s.steps}  # fmt: skip
    script = ROOT / "tests" / "support" / "fair_seat.mjs"
    run = subprocess.run([node, str(script)], input=json.dumps({"scenarios": scenarios}), capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr + run.stdout
    found: dict[str, Any] = json.loads(run.stdout)
    return found


def statement_verifies(key_hex: str, reveal: Frame) -> bool:
    """Whether a ``seed`` message's statement is the signature, by ``key_hex``, of DEAL-12's message (checked with
    ``cryptography``, not the page's code)."""
    message = statement_message(bytes.fromhex(reveal["set"]), 0, bytes.fromhex(reveal["seed"]))
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex)).verify(bytes.fromhex(reveal["statement"]), message)
    except InvalidSignature:
        return False
    return True


def signed(result: dict[str, Any]) -> list[Frame]:
    """Every message the page sent, in order, as sent (its seeds with their statements)."""
    out: list[Frame] = []
    for step in result["steps"]:
        for one in step if isinstance(step, list) else [step]:
            if one and one["send"]:
                out.append(one["send"])
    return out


def answers(result: dict[str, Any]) -> list[Frame]:
    """Every message the page sent, in order, each seed's statement checked and left out: a page with a key signs
    every seed it reveals with that key (the one its hello names), one without signs none."""
    keys = set(result["keys"])
    assert len(keys) == 1, ("one key per browser profile, made once and found again after a reload", keys)
    key = keys.pop()
    out = []
    for sent in signed(result):
        if sent["type"] == "seed":
            sent = dict(sent)
            if key is None:
                assert "statement" not in sent, sent
            else:
                assert statement_verifies(key, sent), sent
                del sent["statement"]
        out.append(sent)
    return out


def said(result: dict[str, Any]) -> list[str]:
    return [one["said"] for step in result["steps"] for one in (step if isinstance(step, list) else [step])
            if one and one["said"]]  # fmt: skip


def check(result: dict[str, Any], hand: int = 1) -> dict[str, Any]:
    found: dict[str, Any] = result["checks"][str(hand)]
    return found


def honest_answers(h: Hand) -> list[Frame]:
    """What the page must send for the hand: its commitment, then its seed with the set's hash (PROTO-45)."""
    mine = fairdeal.seat_commitment(h.commitment, h.number, 0, h.seeds[0])
    return [{"type": "commit", "hand": h.number, "commitment": mine.hex()},
            {"type": "seed", "hand": h.number, "seed": h.seeds[0].hex(), "set": h.set_hash().hex()}]  # fmt: skip


def passed(result: dict[str, Any], hand: int = 1) -> None:
    c = check(result, hand)
    assert c["ok"], c
    assert c["text"].startswith(f"Deal checked, hand {hand}: ")
    assert "every seat's seed is the one it committed to before any seed was revealed" in c["text"]
    assert "matches the commitment it sent before the seats' seeds" in c["text"]


def lost(result: dict[str, Any], rule: str, words: str, hand: int = 1) -> None:
    """The server lost: the hand's check failed naming ``rule`` and saying ``words``, and nothing the page said
    of the hand ever called it checked."""
    c = check(result, hand)
    assert not c["ok"] and c["text"].startswith(f"Deal check FAILED, hand {hand} ("), c
    assert rule in c["text"].split(":")[0] and words in c["text"], c
    assert not [t for t in said(result) if t.startswith(f"Deal checked, hand {hand}")], said(result)
    assert "matches the commitment" not in c["text"]


def no_seed(result: dict[str, Any]) -> None:
    assert not [a for a in answers(result) if a["type"] == "seed"], answers(result)


@pytest.mark.rule("DEAL-11", "PROTO-45", "PROTO-39", "DEAL-9", "DEAL-10")
def test_an_honest_hand_passes_end_to_end(page: dict[str, Any]) -> None:
    """The page commits to its seed with DEAL-11's hash as the engine computes it, reveals the seed with the set's
    hash only after the set, and passes the hand; so without storage, and for a spectator, who sends nothing."""
    for name in ("honest", "honest_no_storage"):
        assert answers(page[name]) == honest_answers(HONEST), name
        passed(page[name])
        assert said(page[name]) == [check(page[name])["text"]]
    spectator = page["honest_spectator"]
    assert answers(spectator) == []
    passed(spectator)
    assert "the upcard follows from the seeds" in check(spectator)["text"]


@pytest.mark.rule("DEAL-11", "PROTO-45")
def test_the_page_and_the_engine_agree_on_the_hashes(page: dict[str, Any]) -> None:
    commit, reveal = answers(page["honest"])
    h = HONEST
    assert bytes.fromhex(commit["commitment"]) == fairdeal.seat_commitment(h.commitment, 1, 0, MINE)
    assert bytes.fromhex(reveal["set"]) == fairdeal.set_hash(1, h.commitment, h.commitments())
    fairdeal.check_commitments(h.commitment, 1, h.seeds, h.commitments())  # the engine takes what the page sent


@pytest.mark.rule("DEAL-11", "PROTO-45", "PROTO-39")
def test_a_reload_that_kept_storage_reveals_the_kept_seed_and_passes(page: dict[str, Any]) -> None:
    while_committing = page["reload_kept_while_committing"]
    commit, seed_message = honest_answers(HONEST)
    assert answers(while_committing) == [commit, commit, seed_message], "the same commitment again, the kept seed"
    passed(while_committing)
    while_revealing = page["reload_kept_while_revealing"]
    assert answers(while_revealing) == [commit, seed_message, seed_message], "the kept seed again, once: then taken"
    passed(while_revealing)
    unacknowledged = page["reload_kept_before_the_acknowledgement"]
    assert answers(unacknowledged) == [commit, commit, seed_message]
    passed(unacknowledged)


@pytest.mark.rule("DEAL-11", "DEAL-9", "PROTO-39")
def test_a_reload_that_lost_storage_cannot_tell(page: dict[str, Any]) -> None:
    after = page["reload_lost_after_deal"]
    lost(after, "DEAL-11", "cannot tell that every party committed before any seed was seen")
    assert "cannot tell that the commitment came first" in check(after)["text"]
    during = page["reload_lost_while_committing"]
    new = [a for a in answers(during) if a["type"] == "commit"][1]
    assert new["commitment"] != honest_answers(HONEST)[0]["commitment"], "the page that forgot made a new seed"
    no_seed(during)
    lost(during, "DEAL-5", "this page lost the commitment it sent before")


@pytest.mark.rule("DEAL-9", "DEAL-11", "PROTO-36", "PROTO-45")
def test_a_second_commitment_for_a_hand_loses_before_and_after_the_page_commits(page: dict[str, Any]) -> None:
    first = honest_answers(HONEST)[0]
    names = ("recommit_before_the_commit", "recommit_after_the_commit", "recommit_after_a_kept_reload",
             "recommit_then_the_pinned_set")  # fmt: skip
    for name in names:
        assert answers(page[name]) == [first], (name, "one commitment, to the first; no seed for the changed one")
        lost(page[name], "DEAL-9", "second, different commitment")
    after = page["recommit_after_the_seed"]
    assert answers(after) == honest_answers(HONEST)
    lost(after, "DEAL-9", "second, different commitment")
    assert "a server that may change its commitment can choose the deck" in check(after)["text"]


@pytest.mark.rule("DEAL-11", "PROTO-45")
def test_a_set_that_is_not_the_one_committed_to_gets_no_seed(page: dict[str, Any]) -> None:
    cases = {
        "set_with_another_server_commitment": "names another server commitment",
        "set_replacing_an_acknowledged_commitment": "though the server acknowledged it",
        "set_dropping_an_unacknowledged_commitment": "the server never acknowledged this page's",
        "set_without_the_seats_commitment": "is not a commitment of 64 hex digits from the server and from each seat",
        "set_with_a_wrong_hash": "hash is not the hash of its commitments",
    }
    for name, words in cases.items():
        no_seed(page[name])
        lost(page[name], "DEAL-11", words)
    assert "holds another commitment for your seat" in check(page["set_replacing_an_acknowledged_commitment"])["text"]


@pytest.mark.rule("DEAL-11", "PROTO-45")
def test_a_second_different_set_for_a_hand_loses(page: dict[str, Any]) -> None:
    result = page["second_different_set"]
    assert answers(result) == honest_answers(GRIND), "the seed went out for the first set only"
    lost(result, "DEAL-11", "second, different commitment set")


@pytest.mark.rule("DEAL-11", "DEAL-10", "PROTO-39")
def test_a_seat_that_grinds_its_seed_after_the_set_loses(page: dict[str, Any]) -> None:
    """The attack DEAL-11 closes: seat 1 plays with the server, sees the page's seed and picks its own by the deal
    it gives. The deal follows from the seeds shown and the server's seed from its commitment, so only the set
    catches it, at the first view, before the hand is played."""
    h = GRIND
    swapped, best = ground(h)
    assert best != h.seeds[1]
    dealt = fairdeal.deal_deck(h.server, swapped.seeds, 1)[1:20:2]
    assert deadwood(to_mask(dealt)) < deadwood(to_mask(fairdeal.deal_deck(h.server, h.seeds, 1)[1:20:2]))
    fairdeal.check(list(swapped.seeds), [], h.server, h.commitment, 1)  # DEAL-9 and DEAL-10 alone would pass it
    with pytest.raises(InvalidDeal, match="DEAL-11"):
        fairdeal.check_commitments(h.commitment, 1, swapped.seeds, h.commitments())
    result = page["seat_seed_swapped_after_the_set"]
    assert answers(result) == honest_answers(h)
    lost(result, "DEAL-11", "p1's seed is not the one committed to before any seed was revealed")
    view_step = result["steps"][4]
    assert view_step["said"] and view_step["said"].startswith("Deal check FAILED, hand 1 (DEAL-11)"), view_step


@pytest.mark.rule("DEAL-9", "DEAL-11", "PROTO-37")
def test_a_seed_acknowledged_then_supplied_loses(page: dict[str, Any]) -> None:
    lost(page["acknowledged_then_supplied"], "DEAL-9", "acknowledged your seed and then dealt from a seed it supplied")


@pytest.mark.rule("DEAL-10", "DEAL-9")
def test_a_deal_not_from_the_seeds_loses(page: dict[str, Any]) -> None:
    lost(page["deal_not_from_the_seeds"], "DEAL-10", "your ten cards are not the ones the seeds deal to your seat")
    lost(page["server_seed_not_committed"], "DEAL-9", "does not match its commitment")


@pytest.mark.rule("DEAL-11", "DEAL-10", "LOG-4")
def test_a_hand_number_dealt_again_loses(page: dict[str, Any]) -> None:
    for name in ("redealt_with_a_new_commitment", "redealt_with_the_same_commitment", "redealt_before_its_result"):
        result = page[name]
        assert answers(result) == honest_answers(HONEST), (name, "nothing sent for the hand dealt again")
        c = check(result)
        assert not c["ok"] and "(DEAL-11)" in c["text"] and "again after dealing it" in c["text"], c
    lost(page["redealt_in_a_view"], "DEAL-10", "other cards dealt to your seat than an earlier view")


@pytest.mark.rule("PROTO-46")
def test_the_page_says_protocol_1_4_so_a_fair_table_takes_it() -> None:
    """The page's ``hello`` names the protocol of ``net.js``'s ``PROTOCOL``: 1.4 or later, or a fair table closes it."""
    text = (ROOT / "knock" / "web" / "static" / "js" / "net.js").read_text("utf-8")
    found = re.search(r"^export const PROTOCOL = \[(\d+), (\d+)\];$", text, re.MULTILINE)
    assert found, "net.js states its protocol as [major, minor]"
    assert (int(found[1]), int(found[2])) >= (1, 4)
    assert 'JSON.stringify({ type: "hello", protocol: PROTOCOL' in text


@pytest.mark.rule("PROTO-39", "DEAL-10", "MATCH-2")
def test_the_draw_for_the_deal_is_checked_from_its_fields(page: dict[str, Any]) -> None:
    """1.4: the draw's cards reach a client in every view's ``draw``; the page checks them against the first hand's
    seeds (DEAL-8), and a draw the seeds did not give fails the hand (DEAL-10)."""
    passed(page["draw_honest"])
    assert "the draw for the deal" in check(page["draw_honest"])["text"]
    lost(page["draw_forged"], "DEAL-10", "draw for the deal is not")


# --- statements and receipts (DEAL-12, PROTO-47) ----------------------------------------------------------------


@pytest.mark.rule("DEAL-12", "PROTO-47")
def test_the_page_signs_each_reveal_with_the_key_it_announces(page: dict[str, Any]) -> None:
    """The seed goes out with DEAL-12's statement, which ``cryptography`` verifies with the page's public key (the
    key its hello names): the 87 bytes of the label, the set's hash, the seat and the seed. The key is made once
    per browser profile: a reloaded page signs with the same key, and the same seed gets the same statement."""
    result = page["honest"]
    key = result["keys"][0]
    assert re.fullmatch(r"[0-9a-f]{64}", key), key
    reveal = next(m for m in signed(result) if m["type"] == "seed")
    assert re.fullmatch(r"[0-9a-f]{128}", reveal["statement"]), reveal
    assert reveal["set"] == HONEST.set_hash().hex() and reveal["seed"] == MINE.hex()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(key)).verify(
        bytes.fromhex(reveal["statement"]), statement_message(HONEST.set_hash(), 0, MINE)
    )
    assert not statement_verifies(public(ANOTHER_KEY).hex(), reveal), "a statement verifies with its own key only"
    other_set = {**reveal, "set": fairdeal.set_hash(2, HONEST.commitment, HONEST.commitments()).hex()}
    assert not statement_verifies(key, other_set), "the statement binds the set it reveals for"
    passed(result)
    assert "signs each seed it reveals with its own key" in result["signing"]
    again = page["reload_kept_while_revealing"]
    assert len(again["keys"]) == 2 and len(set(again["keys"])) == 1, again["keys"]
    reveals = [m for m in signed(again) if m["type"] == "seed"]
    assert len(reveals) == 2 and reveals[0] == reveals[1], "the same seed revealed again, with the same statement"


@pytest.mark.rule("DEAL-12", "PROTO-47")
def test_a_page_without_a_key_reveals_unsigned_and_says_so(page: dict[str, Any]) -> None:
    result = page["unsigned"]
    assert result["keys"] == [None]
    assert signed(result) == honest_answers(HONEST), "no statement, and nothing else changed"
    assert "reveals are unsigned" in result["signing"]
    passed(result)
    assert result["failure"] is None


@pytest.mark.rule("DEAL-12", "PROTO-47")
def test_an_honest_hand_with_valid_receipts_passes(page: dict[str, Any]) -> None:
    result = page["honest"]
    passed(result)
    assert result["failure"] is None
    evidence = result["evidence"]
    assert evidence["receipts_key"] == public(RECEIPTS).hex()
    taken = HONEST.commit_taken()
    assert evidence["receipts"] == {
        "1": {
            "commit": {"commitment": taken["commitment"], "receipt": taken["receipt"]},
            "seed": {"seed": MINE.hex(), "receipt": HONEST.seed_taken()["receipt"]},
        }
    }
    assert evidence["failed"] is None
    for name in ("honest_no_storage", "reload_kept_while_committing", "reload_kept_while_revealing", "unsigned"):
        passed(page[name])


def stopped(result: dict[str, Any], words: str, hand: int = 1) -> None:
    """The hand failed under PROTO-47 saying ``words``, and the page is stopped at the table for it."""
    lost(result, "PROTO-47", words, hand)
    failure = result["failure"]
    assert failure and failure["hand"] == hand and failure["rule"] == "PROTO-47" and words in failure["reason"], failure


@pytest.mark.rule("DEAL-12", "PROTO-47")
def test_a_commitment_receipt_missing_or_false_fails_before_the_seed(page: dict[str, Any]) -> None:
    """A commitment acknowledged without a receipt that verifies is a breach found before the reveal: the page
    sends no seed (PROTO-45: a client that finds a breach sends none)."""
    cases = {
        "commit_receipt_missing": "acknowledged your commitment without its receipt",
        "commit_receipt_by_another_key": "receipt of your commitment does not verify with the key it named",
        "commit_receipt_of_another_commitment": "receipt of your commitment does not verify with the key it named",
        "commit_receipt_of_a_seed": "receipt of your commitment does not verify with the key it named",
        "commit_receipt_not_a_signature": "receipt of your commitment is not a signature of 128 hex digits",
    }
    for name, words in cases.items():
        result = page[name]
        assert answers(result) == honest_answers(HONEST)[:1], (name, "the commitment, and no seed")
        stopped(result, words)
        assert result["steps"][1]["said"].startswith("Deal check FAILED, hand 1 (PROTO-47)"), name


@pytest.mark.rule("DEAL-12", "PROTO-47")
def test_a_seed_receipt_missing_or_false_fails_the_hand(page: dict[str, Any]) -> None:
    cases = {
        "seed_receipt_missing": "acknowledged your seed without its receipt",
        "seed_receipt_by_another_key": "receipt of your seed does not verify with the key it named",
        "seed_receipt_of_another_seed": "receipt of your seed does not verify with the key it named",
    }
    for name, words in cases.items():
        result = page[name]
        assert answers(result) == honest_answers(HONEST), name
        stopped(result, words)
        assert result["steps"][3]["said"].startswith("Deal check FAILED, hand 1 (PROTO-47)"), name


@pytest.mark.rule("DEAL-12", "PROTO-47")
def test_a_receipts_key_that_changes_or_is_missing_fails(page: dict[str, Any]) -> None:
    """The key is pinned at the first welcome for the table (kept across a reload): another one in a later
    welcome fails the hand in progress, or the next hand, and the page sends nothing more; a fair table's welcome
    without a valid key fails the first hand before the page commits."""
    commit = honest_answers(HONEST)[0]
    for name in ("receipts_key_changed_while_committing", "receipts_key_changed_after_a_reload"):
        result = page[name]
        assert answers(result) == [commit], (name, "no commitment again, no seed")
        stopped(result, "named another key for its receipts")
        assert public(ANOTHER_KEY).hex()[:16] in check(result)["text"]
    between = page["receipts_key_changed_between_hands"]
    assert answers(between) == honest_answers(HONEST), "nothing sent for hand 2"
    passed(between, 1)
    stopped(between, "named another key for its receipts", hand=2)
    assert "this page sends no seed for it, as its check failed" in between["stage"]
    for name in ("receipts_key_missing", "receipts_key_of_small_order"):
        result = page[name]
        assert answers(result) == [], (name, "not even a commitment")
        stopped(result, "named no valid key for its receipts")
    assert page["receipts_key_missing"]["welcomes"][0]["said"] is None, "no hand yet: it fails at the first"


@pytest.mark.rule("LOG-17", "LOG-18", "PROTO-47")
def test_the_page_verifies_receipts_as_knocks_verifier_does() -> None:
    """The page's verification takes RFC 8032's vectors and refuses every negative vector of
    spec/signature-vectors.json (a key or R of small order or not canonical, S not below the group order), as
    Knock's verifier does: the forged receipt of ``receipts_key_of_small_order`` among them."""
    vectors = json.loads((ROOT / "spec" / "signature-vectors.json").read_text("utf-8"))
    good = [{k: v[k] for k in ("public", "message", "signature")} for v in vectors["rfc8032"]]
    bad = [{k: v[k] for k in ("public", "message", "signature")} for v in vectors["negative"]]
    assert not any(v["valid"] for v in vectors["negative"])
    forged = {"public": SMALL_ORDER_KEY.hex(), "message": "00", "signature": (SMALL_ORDER_KEY + bytes(32)).hex()}
    mine = HONEST.commit_taken()
    receipt = {"public": public(RECEIPTS).hex(), "signature": mine["receipt"],
               "message": commit_receipt_message(HONEST.commitment, 1, 0, HONEST.commitments()[0]).hex()}  # fmt: skip
    node = shutil.which("node")
    assert node is not None
    cases = [*good, receipt, *bad, forged]
    run = subprocess.run([node, str(ROOT / "tests" / "support" / "fair_sign.mjs")], input=json.dumps(cases),
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [True] * (len(good) + 1) + [False] * (len(bad) + 1)


@pytest.mark.rule("DEAL-12", "PROTO-47", "PROTO-45")
def test_the_evidence_holds_every_fair_frame_what_was_sent_and_the_reason(page: dict[str, Any]) -> None:
    """After a failed check the page's evidence (what "Download the evidence" saves, built by ``evidence()``)
    names the table, the seat, the page's key and the server's receipts key, holds every fair frame received in
    order (a view's ``fair`` alone), every message sent with its statement, the receipts, and the failed check's
    rule and reason; it is plain JSON."""
    result = page["seed_receipt_by_another_key"]
    evidence = result["evidence"]
    assert json.loads(json.dumps(evidence)) == evidence
    assert evidence["format"] == "knock-fair-evidence/1"
    assert (evidence["table"], evidence["seat"], evidence["key"]) == (TABLE, 0, result["keys"][0])
    assert evidence["receipts_key"] == public(RECEIPTS).hex()
    failed = evidence["failed"]
    assert failed["hand"] == 1 and failed["rule"] == "PROTO-47" and "receipt of your seed does not verify" in failed[
        "reason"], failed  # fmt: skip
    h = HONEST
    forged = h.seed_taken(key=ANOTHER_KEY)
    view = h.view()
    assert evidence["received"] == [welcome(), h.fair_commit(), h.commit_taken(), h.fair_set(), forged,
                                    {"type": "view", "record": view["record"], "fair": view["fair"]},
                                    h.fair_reveal()]  # fmt: skip
    assert evidence["sent"]["messages"] == signed(result)
    commit, reveal = signed(result)
    assert evidence["sent"]["commitments"] == {"1": commit["commitment"]}
    assert evidence["sent"]["seeds"] == {"1": MINE.hex()}
    assert evidence["sent"]["statements"] == {"1": {"key": result["keys"][0], "statement": reveal["statement"]}}
    assert evidence["receipts"]["1"]["seed"] == {"seed": MINE.hex(), "receipt": forged["receipt"]}
    assert evidence["checks"]["1"]["ok"] is False
    assert evidence["dropped"] == 0


@pytest.mark.rule("PROTO-47")
def test_the_evidence_survives_a_reload_and_is_kept_for_the_current_table_only(page: dict[str, Any]) -> None:
    after_reload = page["receipts_key_changed_after_a_reload"]["evidence"]
    types = [f["type"] for f in after_reload["received"]]
    assert types == ["welcome", "fair_commit", "commit_taken", "welcome", "fair_commit", "fair_set"], types
    assert after_reload["received"][3]["receipts"] == public(ANOTHER_KEY).hex()
    back = page["evidence_of_another_table"]
    assert back["evidence"]["received"] == [welcome()], "only what came since: the other table's took its place"
    assert back["failure"] and back["failure"]["rule"] == "PROTO-47", "the check itself is kept per table"
