"""spec/signature-vectors.json read as an outside implementation would: the seals' messages built from
spec/log-format.md's words (LOG-18), not from Knock's code, and every signature checked."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest

from replay import ed25519_verify as ed25519
from replay.codec import unpacked
from replay.signing import SigningKey
from replay.verdict import judge

SPEC = Path(__file__).resolve().parents[2] / "spec"
VECTORS = json.loads((SPEC / "signature-vectors.json").read_text("utf-8"))


@pytest.mark.rule("LOG-17", "LOG-18")
def test_the_published_seals_verify_from_the_spec_alone() -> None:
    public = bytes.fromhex(VECTORS["key"]["public"])
    assert SigningKey.from_seed(bytes.fromhex(VECTORS["key"]["secret"])).public == public
    assert len(VECTORS["seals"]) == 4
    for seal in VECTORS["seals"]:
        seat = 255 if seal["seat"] is None else seal["seat"]
        digest = bytes.fromhex(seal["digest"])
        message = b"knock-log-seal/2" + bytes([seat]) + seal["record"].to_bytes(8, "big") + bytes([seal["type"]])
        message += digest
        assert len(message) == 58 and message.hex() == seal["message"]
        assert ed25519.verify(public, message, bytes.fromhex(seal["signature"]))


@pytest.mark.rule("LOG-6", "LOG-17", "LOG-18")
def test_the_published_logs_are_signed_and_chained_as_the_spec_says() -> None:
    public = bytes.fromhex(VECTORS["key"]["public"])
    for name in ("log", "view"):
        data = bytes.fromhex(VECTORS[name])
        verdict = judge(data, signer=public)
        assert verdict.kind == "pass", verdict
        values = list(unpacked(io.BytesIO(data)))
        header = values[0][0]
        assert header["signer"] == public
        if name == "log":
            assert header["version"] == [2, 0] and "table" not in header
        else:  # a signed view names its table and time (LOG-23): format 3.0
            assert header["version"] == [3, 0] and list(header)[-3:] == ["table", "made", "view"]
            assert (header["table"], header["made"]) == (VECTORS["view_table"], VECTORS["view_made"])
        digest = hashlib.sha256(values[0][1]).digest()
        seals = [s for s in VECTORS["seals"] if (s["seat"] is None) == (name == "log")]
        for number, (value, raw) in enumerate(values[1:], 1):
            if type(value) is list and value[0] in (8, 9):
                seal = seals.pop(0)
                assert seal["record"] == number and value[-2] == digest == bytes.fromhex(seal["digest"])
                assert value[-1] == bytes.fromhex(seal["signature"])
            digest = hashlib.sha256(digest + raw).digest()
        assert not seals


@pytest.mark.rule("LOG-13", "LOG-17", "LOG-18", "LOG-23")
@pytest.mark.parametrize("vector", VECTORS["logs"], ids=lambda v: v["why"][:40])
def test_the_published_logs_get_their_published_verdicts(vector: dict[str, object]) -> None:
    verdict = judge(bytes.fromhex(str(vector["log"])))
    got = {"verdict": verdict.kind, "record": verdict.record, "rule": verdict.rule,
           "signed_through": verdict.signed_through}  # fmt: skip
    assert got == {k: vector[k] for k in got}


def test_the_log_vectors_cover_what_the_spec_promises() -> None:
    kinds = {(v["verdict"], v["rule"]) for v in VECTORS["logs"]}
    assert {("unfinished", ""), ("fail", "LOG-17"), ("pass", "")} <= kinds
    whys = " ".join(v["why"] for v in VECTORS["negative"])
    for case in ("S + L", "S = L", "R not canonical", "R of small order", "the key not canonical", "order 8"):
        assert case in whys, case
