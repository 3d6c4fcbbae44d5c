"""Fair dealing at ``knock serve``'s tables: the commitment, the seats' seeds, the deal, the reveal, a restart
(spec/protocol.md, "Fair dealing", PROTO-35 .. PROTO-40 and PROTO-45; the deal itself DEAL-5 .. DEAL-11)."""

from __future__ import annotations

import contextlib
import hashlib
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from engine.fairdeal import (
    commit_receipt_message,
    deal_deck,
    seat_commitment,
    seed_receipt_message,
    set_hash,
    supplied_seed,
)
from knock.web.client import ServerProcess, play_seat
from replay.codec import T_SEEDS
from replay.ed25519_verify import verify
from replay.log import LogReader
from replay.verdict import judge
from tests.cli.support import run as knock
from tests.web.support import Seat

HUMAN_BOT = [{"player": "human"}, {"player": "bot", "bot": "greedy"}]
TWO_HUMANS = [{"player": "human"}, {"player": "human"}]


def bad_seed(seat: Seat, message: dict[str, Any], rule: str = "PROTO-38", kind: str = "seed") -> dict[str, Any]:
    seat.send({"type": kind, **message})
    answer = seat.until("error")  # a bot may move meanwhile: its frames come first
    assert answer["type"] == "error" and answer["code"] == "bad_seed" and answer["rule"] == rule, answer
    assert answer["close"] is False
    return answer


def commit(seat: Seat, asked: dict[str, Any], number: int, me: int, seed: bytes) -> str:
    """Commit ``seed`` for hand ``number`` against the server's commitment in ``asked``; the commitment sent."""
    made = seat_commitment(bytes.fromhex(asked["commitment"]), number, me, seed).hex()
    seat.send({"type": "commit", "hand": number, "commitment": made})
    taken = seat.until("commit_taken")
    assert without_receipt(taken) == {"type": "commit_taken", "hand": number, "seat": me, "commitment": made}
    return made


def without_receipt(frame: dict[str, Any]) -> dict[str, Any]:
    """A ``commit_taken`` or ``seed_taken`` without its receipt (PROTO-47, checked where the key is known)."""
    assert len(frame["receipt"]) == 128
    return {k: v for k, v in frame.items() if k != "receipt"}


def own_cards_follow(frames: list[dict[str, Any]], seat: int) -> int:
    """Check, for every hand a seat was dealt, its dealt cards and the upcard against the deck the revealed seeds
    give (DEAL-8), and the reveal against the commitment it was sent first (DEAL-9); the hands checked."""
    commits = {f["hand"]: f["commitment"] for f in frames if f["type"] == "fair_commit"}
    dealt: dict[int, dict[str, Any]] = {}
    for f in frames:
        if f["type"] == "view" and f["fair"] is not None and f["view"]["phase"] == "upcard_offer":
            dealt.setdefault(f["fair"]["hand"], f["view"])
    checked = 0
    for reveal in (f for f in frames if f["type"] == "fair_reveal"):
        n, server = reveal["hand"], bytes.fromhex(reveal["server"])
        assert hashlib.sha256(server).hexdigest() == reveal["commitment"] == commits[n]
        seeds = [bytes.fromhex(s) for s in reveal["seeds"]]
        for s in reveal["supplied"]:
            assert seeds[s] == supplied_seed(server, n, s)
        deck = deal_deck(server, seeds, n)
        view = dealt[n]
        # DEAL-3: the dealer's opponent gets the odd positions; the upcard is the 21st card
        first = 1 - view["dealer"] if view["dealer"] in (0, 1) else 0
        mine = deck[0:20:2] if seat == first else deck[1:20:2]
        assert sorted(map(str, mine)) == sorted(view["cards"]) or view["cards"] == [], (n, mine, view["cards"])
        assert str(deck[20]) == view["upcard"]
        checked += 1
    return checked


@pytest.mark.rule(
    "PROTO-35", "PROTO-36", "PROTO-37", "PROTO-38", "PROTO-39", "PROTO-45", "DEAL-9", "DEAL-10", "DEAL-11", "LOG-17",
    "LOG-20", "LOG-25",
)  # fmt: skip
def test_a_fair_signed_table_commits_takes_seeds_deals_and_reveals(tmp_path: Path) -> None:
    assert knock("keygen", "-o", str(tmp_path / "server")).returncode == 0
    args = (
        "--bot-delay",
        "0",
        "--table-rate",
        "0",
        "--address-tables",
        "0",
        "--fair",
        "--key",
        str(tmp_path / "server"),
    )
    with ServerProcess(tmp_path / "data", *args) as server:
        assert "fair dealing" in server.banner
        status, refused = server.post("/api/tables", {"seats": HUMAN_BOT, "commitments": True})
        assert status == 400 and refused["error"]["rule"] == "PROTO-35"
        status, refused = server.post("/api/tables", {"seats": HUMAN_BOT, "seed_timeout": 0.5})
        assert status == 400 and refused["error"]["rule"] == "PROTO-35"
        made = server.table({"options": {"target": 10}, "seats": HUMAN_BOT})
        table, token = made["table"], made["seats"][0]["token"]
        watcher = Seat(server.ws)
        assert watcher.hello(table)["fair"] is True
        first = watcher.recv()
        assert first["type"] == "fair_commit" and first["hand"] == 1 and first["left"] is None  # nobody seated yet
        bad_seed(watcher, {"hand": 1, "commitment": "00" * 32}, kind="commit")  # a spectator sends none
        seat = Seat(server.ws)
        welcome = seat.hello(table, token)
        assert welcome["fair"] is True and welcome["protocol"] == [1, 4]
        asked = seat.recv()
        assert asked["type"] == "fair_commit" and asked["commitment"] == first["commitment"]
        assert 0 < asked["left"] <= asked["timeout"] == 10.0
        refusal = seat.act("pass", 0)
        assert refusal["type"] == "refusal" and refusal["rule"] == "PROTO-36"
        bad_seed(seat, {"hand": 1, "seed": "00" * 32}, "PROTO-45")  # a seed before every party has committed
        # (a connection is closed at its tenth error, PROTO-11: the text's other refusals are the ws session's)
        for wrong in ({"hand": 1, "commitment": "AB" * 32}, {"hand": 2, "commitment": "00" * 32}):
            bad_seed(seat, wrong, kind="commit")
        for kind in ({"hand": 1, "commitment": 7},):
            seat.send({"type": "commit" if "commitment" in kind else "seed", **kind})  # the message's (PROTO-22 step 2)
            answer = seat.until("error")
            assert answer["code"] == "bad_message" and answer["close"] is False, answer
        mine = random.Random(5).randbytes(32)
        pledged = seat_commitment(bytes.fromhex(asked["commitment"]), 1, 0, mine).hex()
        seat.send({"type": "commit", "hand": 1, "commitment": pledged})
        taken = seat.recv()
        assert without_receipt(taken) == {"type": "commit_taken", "hand": 1, "seat": 0, "commitment": pledged}
        receipts = bytes.fromhex(welcome["receipts"])  # the server's own key (--key): the log's signer, PROTO-47
        committed_c = bytes.fromhex(asked["commitment"])
        message = commit_receipt_message(committed_c, 1, 0, bytes.fromhex(pledged))
        assert verify(receipts, message, bytes.fromhex(taken["receipt"]))
        closed = seat.recv()  # the bot's seed is supplied: the set closes at once
        assert closed["type"] == "fair_set" and closed["commitments"][0] == pledged
        assert closed["commitment"] == asked["commitment"] and 0 < closed["left"] <= 10.0
        server_c = bytes.fromhex(asked["commitment"])
        assert closed["set"] == set_hash(1, server_c, [bytes.fromhex(c) for c in closed["commitments"]]).hex()
        bad_seed(seat, {"hand": 1, "commitment": "11" * 32}, "PROTO-45", kind="commit")  # the set is closed
        bad_seed(seat, {"hand": 1, "seed": mine.hex()}, "PROTO-45")  # without the set's hash
        bad_seed(seat, {"hand": 1, "seed": "22" * 32, "set": closed["set"]}, "DEAL-11")  # not the seed committed to
        seat.send({"type": "seed", "hand": 1, "seed": mine.hex(), "set": closed["set"]})
        taken = seat.recv()
        assert without_receipt(taken) == {"type": "seed_taken", "hand": 1, "seat": 0, "seed": mine.hex()}
        message = seed_receipt_message(bytes.fromhex(closed["set"]), 0, mine)
        assert verify(receipts, message, bytes.fromhex(taken["receipt"]))
        view = seat.recv()  # dealt at once: the bot's seed is supplied
        assert view["type"] == "view" and view["fair"]["seeds"][0] == mine.hex() and view["fair"]["supplied"] == [1]
        assert view["fair"]["server"] is None and view["fair"]["commitment"] == asked["commitment"]
        assert view["fair"]["commitments"] == closed["commitments"]
        bad_seed(seat, {"hand": 1, "seed": "11" * 32})  # dealt: no seeds are gathered now
        seat.send({"type": "view"})  # the frames the refusal came after, again
        frames = list(play_seat(seat, random.Random(2)))
        assert own_cards_follow(frames, 0) == sum(f["type"] == "hand_result" for f in frames) >= 1
        kinds = [f["type"] for f in frames]
        assert kinds.index("hand_result") + 1 == kinds.index("fair_reveal")  # the reveal right after the result
        offer = frames[-1]
        assert offer["verdict"] == "pass"
        status, log = server.get(offer["url"])
        plain = server.table({"fair": False, "seats": HUMAN_BOT})  # a seeded table on a --fair server
        other = Seat(server.ws)
        assert other.hello(plain["table"], plain["seats"][0]["token"])["fair"] is False
        assert other.recv()["fair"] is None
        bad_seed(other, {"hand": 1, "seed": "00" * 32})
    (tmp_path / "fair.knock").write_bytes(log)
    ok = knock("verify", str(tmp_path / "fair.knock"), "--key", str(tmp_path / "server.pub"))
    assert ok.returncode == 0 and "recomputed" in ok.stdout, ok.stdout + ok.stderr
    assert judge(log).signer == receipts


@pytest.mark.rule("PROTO-40", "PROTO-13", "PROTO-37", "PROTO-45", "PROTO-9", "DEAL-9")
def test_a_killed_fair_server_keeps_its_commitment_the_seeds_sent_and_the_game(tmp_path: Path) -> None:
    data = tmp_path / "store"
    args = ("--bot-delay", "0", "--table-rate", "0", "--address-tables", "0")
    with contextlib.ExitStack() as stack:
        first = ServerProcess(data, *args).start()
        stack.callback(first.kill)
        made = first.table({"fair": True, "seed_timeout": 1, "options": {"target": 10}, "seats": TWO_HUMANS})
        table, tokens = made["table"], [s["token"] for s in made["seats"]]
        ann = Seat(first.ws)
        ann.hello(table, tokens[0])
        asked = ann.recv()
        commitment = asked["commitment"]
        mine = bytes(range(32))
        pledged = commit(ann, asked, 1, 0, mine)
        first.kill()  # SIGKILL while the first hand's commitments are gathered: ann's is stored
        second = ServerProcess(data, *args).start()
        stack.callback(second.kill)
        assert f"{table} unfinished" in second.banner
        ann, bob = Seat(second.ws), Seat(second.ws)
        ann.hello(table, tokens[0])
        assert ann.recv()["commitment"] == commitment  # the same server seed, from the stored secret
        bad_seed(ann, {"hand": 1, "commitment": "22" * 32}, "DEAL-11", kind="commit")  # hers is in already
        assert commit(ann, asked, 1, 0, mine) == pledged  # the same again: acknowledged again
        bob.hello(table, tokens[1])
        assert bob.recv()["type"] == "fair_commit"
        # bob sends nothing: after the seed timeout (1 s) the set closes, his seed supplied; ann reveals hers
        closed = ann.until("fair_set", timeout=10)
        assert closed["commitments"][0] == pledged
        ann.send({"type": "seed", "hand": 1, "seed": mine.hex(), "set": closed["set"]})
        view = bob.until("view", timeout=10)
        assert view["fair"]["seeds"][0] == mine.hex() and view["fair"]["supplied"] == [1]
        latest = [ann.until("view"), view]
        assert latest[0]["record"] == view["record"]
        seats = (ann, bob)
        for _ in range(6):  # a few actions, each acknowledged, then a kill mid-hand
            to_act = latest[0]["view"]["to_act"]
            answer = seats[to_act].act(latest[to_act]["legal"][0], latest[to_act]["record"])
            assert answer["type"] == "ack", answer
            latest = [ann.until("view"), bob.until("view")]
        second.kill()
        third = ServerProcess(data, *args).start()
        stack.callback(third.stop)
        assert f"{table} unfinished" in third.banner
        ann, bob = Seat(third.ws), Seat(third.ws)
        for s, t in ((ann, tokens[0]), (bob, tokens[1])):
            s.hello(table, t)
        assert ann.recv()["record"] == latest[0]["record"]  # every acknowledged action is there
        ann.send({"type": "view"})  # that view again, for her to play on from
        out: dict[int, Any] = {}
        threads = [threading.Thread(target=lambda i=i, s=s: out.__setitem__(i, play_seat(s, random.Random(i))))
                   for i, s in enumerate((ann, bob))]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        assert out[0][-1]["type"] == "log_offered" and out[0][-1]["verdict"] == "pass"
        status, log = third.get(out[0][-1]["url"])
        assert status == 200
    assert judge(log).kind == "pass"
    seeds = [e.record for e in LogReader(log).entries() if type(e.record) is list and e.record[0] == T_SEEDS]
    assert seeds[0][1][0] == mine and seeds[0][2] == [1]  # the seed sent before the kill dealt the first hand
    assert all(len(s[1]) == 2 for s in seeds)


@pytest.mark.rule("PROTO-40", "PROTO-13", "PROTO-24")
def test_a_fair_table_rebuilt_after_a_restart_shows_the_whole_hand_as_before() -> None:
    """After a restart a fair table is played again from its stored seeds and actions (PROTO-40); a connection is then
    sent the current hand's whole history, as it would have been before (it held only the deal: issue #59)."""
    from engine.fairdeal import FairSeeds
    from knock.bots import GreedyBot
    from knock.web.fairtable import server_seed
    from knock.web.game import Game
    from knock.web.protocol import SeatSpec
    from knock.web.recovery import rebuild_fair
    from knock.web.tablespec import TableSpec

    secret = bytes(range(32))
    spec = TableSpec("standard", {}, (SeatSpec("human", "ann"), SeatSpec("human", "bob")), 5, fair=True)
    table, data = Game.new("t1", spec, secret, None, FairSeeds.gather(1, server_seed(secret, 1),
                                                                             [bytes(32), bytes([1]) * 32],
                                                                             committed=True))  # fmt: skip
    applied = []
    for _ in range(9):
        seat = table.match.to_act
        assert seat is not None
        text = str(GreedyBot().choose(table.match.seat_observation(seat), table.match.legal_actions()))
        out = table.act(seat, text, table.record)
        assert out.applied is not None
        applied.append(out.applied)
        data += out.chunk
    table.advance()
    rebuilt = rebuild_fair("t1", spec, data, table.record, applied, secret)
    for key in (0, 1, None):
        before, after = table.full_view(key), rebuilt.full_view(key)
        assert after == before and len(after["events"]) == 11 and len(after["discards"]) == 5
