"""Ed25519 (RFC 8032): signing only through the vetted library, verifying in pure Python and through
``cryptography`` with the same answers, small-order and non-canonical inputs refused (LOG-17, LOG-18)."""

from __future__ import annotations

import inspect
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from replay import ed25519_verify as ed25519
from replay import signing
from replay.signing import SigningKey

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
    key = SigningKey.from_seed(seed)  # the library's signer
    assert key.public == public and key.sign(message) == signature
    assert ed25519.verify(public, message, signature)
    assert not ed25519.verify(public, message + b"x", signature)


def test_knock_has_no_signer_of_its_own() -> None:
    """The pure-Python module verifies only: nothing in it takes a secret (the issue's timing leak was its signer)."""
    functions = {n for n, _ in inspect.getmembers(ed25519, inspect.isfunction)}
    assert not {n for n in functions if "sign" in n or "public_key" in n or "expand" in n}, functions
    assert {"verify", "_py_verify"} <= functions


def _judged(public: bytes, message: bytes, signature: bytes) -> tuple[bool, ...]:
    answers = []
    for name in ed25519.available():
        before = ed25519.use(name)
        try:
            answers.append(ed25519.verify(public, message, signature))
        finally:
            ed25519.use(before)
    return tuple(answers)


@pytest.mark.rule("LOG-17", "LOG-18")
@pytest.mark.parametrize("vector", VECTORS["negative"], ids=lambda v: v["why"][:40])
def test_the_negative_vectors_are_refused_by_both_backends(vector: dict[str, str]) -> None:
    public, message, signature = (bytes.fromhex(vector[k]) for k in ("public", "message", "signature"))
    assert _judged(public, message, signature) == (False, False)


@pytest.mark.rule("LOG-17")
def test_the_forgeries_satisfy_the_bare_equation_so_only_the_small_order_check_stops_them() -> None:
    forged = [v for v in VECTORS["negative"] if "forged" in v["why"]]
    assert len(forged) == 4
    for v in forged:
        public, message, signature = (bytes.fromhex(v[k]) for k in ("public", "message", "signature"))
        a, r = ed25519._decompress(public), ed25519._decompress(signature[:32])
        assert a is not None and r is not None
        k = ed25519._hash_int(signature[:32] + public + message)
        assert ed25519._equal(
            ed25519._mul_base(int.from_bytes(signature[32:], "little")), ed25519._add(r, ed25519._mul(k, a))
        )
        assert not ed25519.is_public_key(public)


@pytest.mark.rule("LOG-18")
def test_the_backends_agree_on_damaged_and_malformed_signatures() -> None:
    rng = random.Random(35)
    key = SigningKey.from_seed(bytes(rng.randrange(256) for _ in range(32)))
    public = key.public
    message = b"knock-log-seal/2 sample"
    good = key.sign(message)
    cases = [
        (public, message, good),
        (public, message, bytes(64)),
        (public, message, good[:63]),
        (bytes(32), message, good),
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
def test_a_public_key_is_a_canonical_point_not_of_small_order() -> None:
    assert ed25519.is_public_key(SigningKey.from_seed(bytes(32)).public)
    assert not ed25519.is_public_key(b"\xff" * 32)  # y >= p
    assert not ed25519.is_public_key((1 | 1 << 255).to_bytes(32, "little"))  # x = 0, sign bit set
    assert not ed25519.is_public_key(bytes(31))
    assert not ed25519.is_public_key((2).to_bytes(32, "little"))  # y = 2: x^2 is not a square
    eight = {v["public"] for v in VECTORS["negative"] if v["why"].startswith("a key of small order")}
    order_8 = bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")
    point = ed25519._decompress(order_8)
    assert point is not None
    torsion = {ed25519._compress(ed25519._mul(k, point)) for k in range(8)}
    assert len(torsion) == 8 and {bytes.fromhex(e) for e in eight} <= torsion
    assert not any(ed25519.is_public_key(t) for t in torsion)


def test_without_the_library_signing_is_refused_and_verifying_still_works(tmp_path: Path) -> None:
    script = (
        "import sys; sys.modules['cryptography'] = None\n"
        "from replay import signing, ed25519_verify\n"
        "assert ed25519_verify.available() == ('python',) and signing.signing_backend() is None\n"
        "try:\n"
        "    signing.SigningKey.from_seed(bytes(32))\n"
        "except signing.SigningUnavailable as err:\n"
        "    print(err.rule, err)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.startswith("LOG-17 LOG-17: signing needs the 'cryptography' library"), out
    assert signing.signing_backend() is not None and signing.signing_backend().startswith("cryptography ")  # type: ignore[union-attr]
