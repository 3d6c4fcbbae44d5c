"""Ed25519 (RFC 8032) in pure Python and through ``cryptography``: the same answers (LOG-18)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from replay import ed25519

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "spec" / "signature-vectors.json").read_text("utf-8"))


@pytest.fixture(params=ed25519.available())
def backend(request: pytest.FixtureRequest) -> Iterator[str]:
    before = ed25519.use(request.param)
    yield request.param
    ed25519.use(before)


def test_both_backends_are_installed_for_the_tests() -> None:
    assert ed25519.available() == ("python", "cryptography"), "the dev extra installs cryptography (the sign extra)"


@pytest.mark.rule("LOG-18")
@pytest.mark.parametrize("vector", VECTORS["rfc8032"], ids=lambda v: v["message"] or "empty")
def test_rfc8032_vectors(backend: str, vector: dict[str, str]) -> None:
    seed, public = bytes.fromhex(vector["secret"]), bytes.fromhex(vector["public"])
    message, signature = bytes.fromhex(vector["message"]), bytes.fromhex(vector["signature"])
    assert ed25519.public_key(seed) == public
    assert ed25519.sign(seed, message) == signature
    assert ed25519.verify(public, message, signature)
    assert not ed25519.verify(public, message + b"x", signature)


def _judged(public: bytes, message: bytes, signature: bytes) -> tuple[bool, ...]:
    answers = []
    for name in ed25519.available():
        before = ed25519.use(name)
        try:
            answers.append(ed25519.verify(public, message, signature))
        finally:
            ed25519.use(before)
    return tuple(answers)


@pytest.mark.rule("LOG-18")
def test_the_backends_agree_on_damaged_and_malformed_signatures() -> None:
    rng = random.Random(35)
    seed = bytes(rng.randrange(256) for _ in range(32))
    public = ed25519.public_key(seed)
    message = b"knock-log-seal/2 sample"
    good = ed25519.sign(seed, message)
    order = ed25519.Q.to_bytes(32, "little")
    s = int.from_bytes(good[32:], "little")
    cases = [
        (public, message, good),
        (public, message, good[:32] + (s + ed25519.Q).to_bytes(32, "little")),  # S + L: the same point, refused
        (public, message, good[:32] + order),  # S = L
        (public, message, b"\xff" * 32 + good[32:]),  # R not canonical (y >= p)
        (public, message, bytes(64)),
        (bytes(32), message, good),  # the key y = 0
        ((1).to_bytes(32, "little"), message, good),  # the neutral point, a small-order key
        (b"\xff" * 32, message, good),  # not canonical
        ((1 | 1 << 255).to_bytes(32, "little"), message, good),  # x = 0 with the sign bit: refused by RFC 8032
        (public, message, good[:63]),
    ]
    for _ in range(40):  # random single-bit damage to the key, the message or the signature
        which = rng.randrange(3)
        parts = [bytearray(public), bytearray(message), bytearray(good)]
        part = parts[which]
        part[rng.randrange(len(part))] ^= 1 << rng.randrange(8)
        cases.append((bytes(parts[0]), bytes(parts[1]), bytes(parts[2])))
    for public_, message_, signature_ in cases:
        answers = _judged(public_, message_, signature_)
        assert len(set(answers)) == 1, (public_.hex(), signature_.hex(), answers)
    assert _judged(public, message, good) == (True, True)


@pytest.mark.rule("LOG-17")
def test_a_public_key_is_a_canonical_point() -> None:
    assert ed25519.is_public_key(ed25519.public_key(bytes(32)))
    assert not ed25519.is_public_key(b"\xff" * 32)  # y >= p
    assert not ed25519.is_public_key((1 | 1 << 255).to_bytes(32, "little"))  # x = 0, sign bit set
    assert not ed25519.is_public_key(bytes(31))
    assert not ed25519.is_public_key((2).to_bytes(32, "little"))  # y = 2: x^2 is not a square


def test_the_backends_sign_alike() -> None:
    rng = random.Random(8032)
    for _ in range(3):
        seed, message = rng.randbytes(32), rng.randbytes(rng.randrange(100))
        signatures = set()
        for name in ed25519.available():
            before = ed25519.use(name)
            try:
                signatures.add((ed25519.public_key(seed), ed25519.sign(seed, message)))
            finally:
                ed25519.use(before)
        assert len(signatures) == 1
