"""``knock serve --key --digests``: signed logs, signed per-seat views, and the published digests (LOG-17 ..
LOG-19, issue #35's "done when")."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from knock.conformance.tamper import resign
from knock.web.client import ServerProcess, play_seat
from replay.signing import SigningKey
from replay.verdict import judge
from tests.cli.support import run as knock
from tests.web.support import Seat


@pytest.mark.rule("LOG-17", "LOG-18", "LOG-19", "LOG-11", "LOG-23")
def test_a_game_served_with_a_key_gives_a_log_and_views_that_verify_with_the_key(tmp_path: Path) -> None:
    assert knock("keygen", "-o", str(tmp_path / "server")).returncode == 0
    assert knock("keygen", "-o", str(tmp_path / "other")).returncode == 0
    digests = tmp_path / "digests.txt"
    public = tmp_path / "server.pub"
    args = (
        "--bot-delay",
        "0",
        "--table-rate",
        "0",
        "--address-tables",
        "0",
        "--key",
        str(tmp_path / "server"),
        "--digests",
        str(digests),
    )
    with ServerProcess(tmp_path / "data", *args) as server:
        assert "through cryptography " in server.banner, server.banner  # the vetted library signs (LOG-17)
        made = server.table({"seed": 4, "options": {"target": 30},
                             "seats": [{"player": "human"}, {"player": "bot", "bot": "greedy"}]})  # fmt: skip
        table, token = made["table"], made["seats"][0]["token"]
        seat = Seat(server.ws)
        seat.hello(table, token)
        frames = play_seat(seat, random.Random(3))
        offer = frames[-1]
        assert offer["type"] == "log_offered" and offer["verdict"] == "pass"
        status, log = server.get(offer["url"])
        assert status == 200
        status, view = server.get(f"/api/tables/{table}/log", headers={"Authorization": f"Bearer {token}"})
        assert status == 200
    key = SigningKey.from_seed(bytes.fromhex((tmp_path / "server").read_text().split()[1]))
    for data in (log, view):
        verdict = judge(data, signer=key.public)
        assert verdict.kind == "pass" and verdict.signer == key.public, verdict
    assert judge(view).view == 0
    named = judge(view)  # the view says which table and when (LOG-23): an old one is not taken for new
    assert named.table == table and named.made is not None and abs(named.made - time.time()) < 3600
    assert digests.read_text() == f"{offer['digest']}  {table}\n"
    (tmp_path / "game.knock").write_bytes(log)
    (tmp_path / "view.knock").write_bytes(view)
    files = [str(tmp_path / "game.knock"), str(tmp_path / "view.knock")]
    ok = knock("verify", *files, "--key", str(public))
    assert ok.returncode == 0, ok.stdout + ok.stderr
    published = knock("verify", str(tmp_path / "game.knock"), "--key", str(public), "--digests", str(digests))
    assert published.returncode == 0, published.stdout + published.stderr
    assert knock("verify", str(tmp_path / "view.knock"), "--digests", str(digests)).returncode == 1  # its own
    # flipping any byte, another key's signature, or re-signing with another key: FAIL, the rule named
    flipped = bytearray(log)
    flipped[len(log) // 2] ^= 1
    (tmp_path / "flipped.knock").write_bytes(bytes(flipped))
    other = SigningKey.from_seed(bytes.fromhex((tmp_path / "other").read_text().split()[1]))
    (tmp_path / "resigned.knock").write_bytes(resign(log, other))
    for name, rule in (("flipped", None), ("resigned", "LOG-19")):
        out = knock("verify", str(tmp_path / f"{name}.knock"), "--key", str(public))
        assert out.returncode == 1 and "FAIL" in out.stdout, out.stdout
        assert rule is None or rule in out.stdout, out.stdout
    bad = tmp_path / "bad.pub"
    bad.write_text("knock-ed25519-public-key " + "ff" * 32 + "\n")
    refused = knock("verify", str(tmp_path / "game.knock"), "--key", str(bad))
    assert refused.returncode == 2 and "LOG-17" in refused.stderr, refused.stderr
