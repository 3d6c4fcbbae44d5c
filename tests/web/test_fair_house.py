"""Fair dealing against the house (issue #57): the operator's confederate seat, which knows the server's seed and
reads the store, cannot choose a deck at an unmodified ``knock serve --fair`` — its ground seed fails its
commitment, a second commitment is refused once the set is closed, and not revealing forfeits (spec/rules.md,
DEAL-11; spec/protocol.md, PROTO-45, PROTO-46)."""

from __future__ import annotations

import io
import json
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from engine.cards import to_mask
from engine.fairdeal import commit_receipt_message, deal_deck, seat_commitment, seed_receipt_message
from engine.melds import deadwood
from knock.conformance.tamper import rechain
from knock.web.client import FairSeat, ServerProcess, play_seat
from knock.web.fairtable import server_seed
from replay.codec import T_FORFEIT, T_SEAT_COMMITS, T_SEEDS, T_STATEMENT, pack, unpacked
from replay.ed25519_verify import verify
from replay.log import LogReader
from replay.signing import SigningKey
from replay.verdict import judge
from tests.web.support import Seat

TWO_HUMANS = [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}]
ARGS = ("--bot-delay", "0", "--table-rate", "0", "--address-tables", "0", "--fair")


def stored(data: Path, query: str, *args: Any) -> list[Any]:
    """What the operator reads from its own store, behind the server's back."""
    with sqlite3.connect(data / "games.sqlite3") as db:
        return db.execute(query, args).fetchall()


def answered(seat: FairSeat, frame: dict[str, Any]) -> dict[str, Any]:
    got = seat.answer(frame)
    assert got is not None, seat.breaches
    return got


def dealt_deadwood(server: bytes, seeds: list[bytes], seat: int) -> int:
    """The deadwood of the ten cards dealt to the places of the non-dealer (``seat`` 0: the even ones) or the dealer
    (1: the odd ones) in hand 1 (DEAL-3): a grinder aims at its own places, whichever the draw makes them."""
    deck = deal_deck(server, seeds, 1)
    return deadwood(to_mask(deck[seat:20:2]))


@pytest.mark.rule("DEAL-11", "PROTO-45", "PROTO-38")
def test_a_confederate_seat_that_knows_every_other_seed_cannot_choose_the_deck(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "data", *ARGS) as server:
        made = server.table({"seed_timeout": 2, "seats": TWO_HUMANS})
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        ann, bob = Seat(server.ws), Seat(server.ws)
        honest = FairSeat(0, random.Random(1))
        ann.hello(table, tokens[0])
        bob.hello(table, tokens[1])
        asked = ann.until("fair_commit")
        assert bob.until("fair_commit") == asked
        ann.send(answered(honest, asked))
        assert ann.until("commit_taken")["seat"] == 0
        # the operator knows the server's seed: it is in its store
        (secret,) = stored(tmp_path / "data", "SELECT secret FROM games WHERE id = ?", table)[0]
        server_s = server_seed(secret, 1)
        committed = random.Random(2).randbytes(32)
        made_b = seat_commitment(bytes.fromhex(asked["commitment"]), 1, 1, committed)
        bob.send({"type": "commit", "hand": 1, "commitment": made_b.hex()})
        closed = bob.until("fair_set")
        assert ann.until("fair_set") == closed and closed["commitments"][1] == made_b.hex()
        ann.send(answered(honest, closed))
        assert ann.until("seed_taken")["seat"] == 0
        # ... and ann's seed, once she has revealed it: the confederate grinds its own against both
        (ann_seed,) = stored(tmp_path / "data", "SELECT seed FROM seeds WHERE game = ? AND seat = 0", table)[0]
        rng = random.Random(3)
        tries = [rng.randbytes(32) for _ in range(300)]
        best = min(tries, key=lambda s: dealt_deadwood(server_s, [ann_seed, s], 1))
        assert dealt_deadwood(server_s, [ann_seed, best], 1) < dealt_deadwood(server_s, [ann_seed, committed], 1)
        # the grind is prevented: the better seed fails the commitment, and a new commitment comes too late
        bob.send({"type": "seed", "hand": 1, "seed": best.hex(), "set": closed["set"]})
        refused = bob.until("error")
        assert refused["code"] == "bad_seed" and refused["rule"] == "DEAL-11", refused
        remade = seat_commitment(bytes.fromhex(asked["commitment"]), 1, 1, best)
        bob.send({"type": "commit", "hand": 1, "commitment": remade.hex()})
        refused = bob.until("error")
        assert refused["code"] == "bad_seed" and refused["rule"] == "PROTO-45", refused
        # nor can it walk away from the deal and have it dealt again: not revealing ends the table, no game played
        closing = ann.until("error", timeout=15)
        assert closing["code"] == "table_failed" and closing["rule"] == "DEAL-11", closing
        late = Seat(server.ws)
        answer = late.hello(table, tokens[0])
        assert answer["code"] == "table_failed" and "did not reveal" in answer["message"], answer
        assert stored(tmp_path / "data", "SELECT status FROM games WHERE id = ?", table) == [("failed",)]


class Withholding(FairSeat):
    """A seat that commits as it should and then keeps its seed for hand ``hand``: it would rather see the others
    first."""

    def __init__(self, seat: int, rng: random.Random, hand: int) -> None:
        super().__init__(seat, rng)
        self.hand = hand

    def answer(self, frame: dict[str, Any]) -> dict[str, Any] | None:
        got = super().answer(frame)
        if got is not None and got["type"] == "seed" and got["hand"] == self.hand:
            return None
        return got


@pytest.mark.rule("DEAL-11", "PROTO-45", "END-3", "LOG-25")
def test_a_seat_that_does_not_reveal_its_committed_seed_forfeits_and_the_log_says_so(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "data", *ARGS) as server:
        made = server.table({"seed_timeout": 1, "seats": TWO_HUMANS})
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        ann, bob = Seat(server.ws), Seat(server.ws)
        ann.hello(table, tokens[0])
        bob.hello(table, tokens[1])
        out: dict[int, Any] = {}
        seats = ((ann, FairSeat(0, random.Random(4))), (bob, Withholding(1, random.Random(5), 2)))
        threads = [threading.Thread(target=lambda i=i, s=s, f=f: out.__setitem__(i, play_seat(s, random.Random(i),
                                                                                              fair=f)))
                   for i, (s, f) in enumerate(seats)]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        offer = out[0][-1]
        assert offer["type"] == "log_offered" and offer["verdict"] == "pass"
        result = next(f for f in out[0] if f["type"] == "game_result")
        assert result["ending"]["kind"] == "forfeit" and result["ending"]["seat"] == 1, result
        status, log = server.get(offer["url"])
        assert status == 200
    assert judge(log).kind == "pass"
    records = [e.record for e in LogReader(log).entries() if type(e.record) is list]
    kinds = [r[0] for r in records]
    assert kinds.count(T_SEAT_COMMITS) == kinds.count(T_SEEDS) == 1  # hand 2 was never dealt
    assert kinds.index(T_SEAT_COMMITS) < kinds.index(T_SEEDS)
    assert [r for r in records if r[0] == T_FORFEIT] == [[T_FORFEIT, 1, 1]]  # p1, no_reveal (END-3)


@pytest.mark.rule("PROTO-46")
def test_a_fair_table_refuses_a_client_older_than_1_4(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "data", *ARGS) as server:
        fair = server.table({"seats": TWO_HUMANS})
        plain = server.table({"fair": False, "seats": TWO_HUMANS})
        old = Seat(server.ws)
        answer = old.hello_as([1, 3], fair["table"], token=fair["seats"][0]["token"])
        assert answer["code"] == "unsupported_protocol" and answer["rule"] == "PROTO-46" and answer["close"], answer
        assert Seat(server.ws).hello_as([1, 3], plain["table"], token=plain["seats"][0]["token"])["type"] == "welcome"


@pytest.mark.rule("PROTO-44", "PROTO-45", "DEAL-11")
def test_a_fair_table_left_after_a_commitment_ends_with_no_game_and_supplies_no_seed(tmp_path: Path) -> None:
    """A seat that committed and left is never given a supplied seed: when nobody attends the table before its first
    deal, it ends with no game rather than deal from seeds the committed seat did not reveal."""
    with ServerProcess(tmp_path / "data", *ARGS, "--abandon-after", "1") as server:
        made = server.table({"seed_timeout": 300, "seats": TWO_HUMANS})
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        ann = Seat(server.ws)
        ann.hello(table, tokens[0])
        ann.send(answered(FairSeat(0, random.Random(6)), ann.until("fair_commit")))
        assert ann.until("commit_taken")["seat"] == 0
        ann.close()  # bob never comes; nobody is at the table
        for _ in range(300):  # watched in the store: a hello would be a person at the table
            if stored(tmp_path / "data", "SELECT status FROM games WHERE id = ?", table) == [("failed",)]:
                break
            time.sleep(0.1)
        answer = Seat(server.ws).hello(table, tokens[1])
        assert answer["code"] == "table_failed" and "nobody attended" in answer["message"], answer
        assert stored(tmp_path / "data", "SELECT count(*) FROM seeds WHERE game = ?", table) == [(0,)]


@pytest.mark.rule("PROTO-2")
def test_a_seed_the_server_chose_is_never_shown_while_the_game_runs(tmp_path: Path) -> None:
    """At a seeded table whoever knows the seed knows every card (Match.new(seed) deals them): the table's creator
    is told a seed only when it chose one itself, and nothing the server serves during the game names it."""
    with ServerProcess(tmp_path / "data", "--bot-delay", "0", "--table-rate", "0", "--address-tables", "0") as server:
        status, made = server.post("/api/tables", {"seats": TWO_HUMANS})
        assert status == 201 and made["seed"] is None
        status, chosen = server.post("/api/tables", {"seed": 77, "seats": TWO_HUMANS})
        assert status == 201 and chosen["seed"] == 77  # its creator chose it: nothing new is told
        (spec,) = stored(tmp_path / "data", "SELECT spec FROM games WHERE id = ?", made["table"])[0]
        seed = str(json.loads(spec)["seed"])
        seat = Seat(server.ws)
        frames = [seat.hello(made["table"], made["seats"][0]["token"]), seat.recv()]
        _, one = server.get(f"/api/tables/{made['table']}")
        _, listed = server.get("/api/tables")
        served = [json.dumps(f) for f in frames] + [one.decode(), listed.decode()]
        assert not [text for text in served if seed in text]


@pytest.mark.rule("DEAL-12", "PROTO-47", "LOG-26", "LOG-13")
def test_a_seat_signs_what_it_saw_and_a_log_whose_seeds_were_changed_fails_at_its_statement(tmp_path: Path) -> None:
    """Each reveal carries the seat's signature of the set it saw and its seed (DEAL-12); the log holds it
    (LOG-26). A server that rewrites a seat's seed and commitment afterwards — recomputing every digest and its
    own signatures — is caught at the statement, which only the seat's key could make again."""
    key = SigningKey.generate()
    with ServerProcess(tmp_path / "data", *ARGS) as server:
        made = server.table({"options": {"target": 10}, "seats": [TWO_HUMANS[0], {"player": "bot"}]})
        table, token = made["table"], made["seats"][0]["token"]
        unsigned = Seat(server.ws)
        welcome = unsigned.hello(table, token)
        receipts = bytes.fromhex(welcome["receipts"])  # a table's own key: the server has no --key
        ann, mine = Seat(server.ws), FairSeat(0, random.Random(7), key)
        assert ann.hello(table, token, key=key.public)["receipts"] == welcome["receipts"]
        ann.send(answered(mine, ann.until("fair_commit")))
        taken = ann.until("commit_taken")
        closed = ann.until("fair_set")
        reveal = answered(mine, closed)
        stored_c = commit_receipt_message(bytes.fromhex(closed["commitment"]), 1, 0, bytes.fromhex(taken["commitment"]))
        assert verify(receipts, stored_c, bytes.fromhex(taken["receipt"]))
        for wrong in ({**reveal, "statement": None}, {**reveal, "statement": "00" * 64}):  # none, or one not the seat's
            ann.send({k: v for k, v in wrong.items() if v is not None})
            refused = ann.until("error")
            assert refused["code"] == "bad_seed" and refused["rule"] == "DEAL-12", refused
        ann.send(reveal)
        seed_receipt = bytes.fromhex(ann.until("seed_taken")["receipt"])
        assert verify(receipts, seed_receipt_message(bytes.fromhex(closed["set"]), 0, mine.seeds[1]), seed_receipt)
        frames = list(play_seat(ann, random.Random(8), fair=mine))
        status, log = server.get(frames[-1]["url"])
        assert status == 200
    verdict = judge(log)
    assert verdict.kind == "pass" and verdict.seats_signed == (0,) and verdict.seats_committed, verdict
    statements = [e.record for e in LogReader(log).entries() if type(e.record) is list and e.record[0] == T_STATEMENT]
    assert statements and all(s[1] == 0 and s[2] == key.public for s in statements)
    # the house rewrites p0's first seed and its commitment, and every digest after it: the statement fails
    items = [(v, raw) for v, raw in unpacked(io.BytesIO(log))]
    first = next(i for i, (v, _) in enumerate(items) if type(v) is list and v and v[0] == T_SEAT_COMMITS)
    server_c = items[first - 1][0][1]
    other = bytes(32)
    items[first] = (c := [T_SEAT_COMMITS, [seat_commitment(server_c, 1, 0, other), *items[first][0][1][1:]]], pack(c))
    items[first + 1] = (s := [T_SEEDS, [other, *items[first + 1][0][1][1:]], items[first + 1][0][2]], pack(s))
    forged = b"".join(raw for _, raw in rechain(items))
    failed = judge(forged)
    assert failed.kind == "fail" and failed.rule == "DEAL-12" and failed.record == first + 2, failed
    # ... or downgrades the log to format 2.0, dropping every commitment and statement: it reads as a fair log of
    # before DEAL-11, and its verdict says that it does not show the order (LOG-25), whatever else it passes
    plain = [(v, raw) for v, raw in unpacked(io.BytesIO(log)) if not (type(v) is list and v and v[0] in (23, 24))]
    head = {**plain[0][0], "version": [2, 0]}
    downgraded = judge(b"".join(raw for _, raw in rechain([(head, pack(head)), *plain[1:]])))
    assert downgraded.kind == "pass" and downgraded.seats_committed is False and not downgraded.seats_signed
    assert "no seats' commitments recorded" in downgraded.message, downgraded.message


@pytest.mark.rule("PROTO-47")
def test_a_statement_from_a_connection_that_named_no_key_is_refused(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "data", *ARGS) as server:
        made = server.table({"seats": [TWO_HUMANS[0], {"player": "bot"}]})
        ann, mine = Seat(server.ws), FairSeat(0, random.Random(9))
        ann.hello(made["table"], made["seats"][0]["token"])
        ann.send(answered(mine, ann.until("fair_commit")))
        reveal = answered(mine, ann.until("fair_set"))
        ann.send({**reveal, "statement": "00" * 64})
        refused = ann.until("error")
        assert refused["code"] == "bad_seed" and refused["rule"] == "PROTO-47", refused
        ann.send(reveal)
        assert ann.until("seed_taken")["seat"] == 0
