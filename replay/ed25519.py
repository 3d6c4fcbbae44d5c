"""Ed25519 (RFC 8032): signing and verifying in pure Python, and through ``cryptography`` when it is installed.

Rule: LOG-18 (spec/log-format.md). The pure-Python code is RFC 8032 section 6's reference algorithm (extended
coordinates, cofactorless verification: ``[S]B = R + [k]A``), so an auditor needs nothing beyond Python to check
a signed log. The optional extra ``sign`` (``cryptography``) does the same sums about a hundred times faster.
Both give the same answer for every input: a verifier first refuses, in Python, what the two could judge
differently — a public key that is not a canonical point encoding, an ``S`` not below the group order — and
only then asks the backend (``tests/replay/test_ed25519.py`` runs both on RFC 8032's vectors, on
edge cases and on random damage).

>>> seed = bytes(range(32))
>>> public = public_key(seed)
>>> verify(public, b"knock", sign(seed, b"knock")), verify(public, b"knock!", sign(seed, b"knock"))
(True, False)
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from functools import lru_cache
from typing import Literal

Backend = Literal["python", "cryptography"]

P = 2**255 - 19  #: the base field
Q = 2**252 + 27742317777372353535851937790883648493  #: the order of the base point's group
D = -121665 * pow(121666, P - 2, P) % P  #: the curve's constant
SQRT_M1 = pow(2, (P - 1) // 4, P)
PUBLIC_SIZE, SIGNATURE_SIZE, SEED_SIZE = 32, 64, 32

Point = tuple[int, int, int, int]  # extended coordinates: x = X/Z, y = Y/Z, x*y = T/Z


def _add(a: Point, b: Point) -> Point:
    x = (a[1] - a[0]) * (b[1] - b[0]) % P
    y = (a[1] + a[0]) * (b[1] + b[0]) % P
    c = 2 * a[3] * b[3] * D % P
    d = 2 * a[2] * b[2] % P
    e, f, g, h = y - x, d - c, d + c, y + x
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(s: int, point: Point) -> Point:
    out: Point = (0, 1, 1, 0)
    while s > 0:
        if s & 1:
            out = _add(out, point)
        point = _add(point, point)
        s >>= 1
    return out


def _recover_x(y: int, sign: int) -> int | None:
    if y >= P:
        return None
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    if x2 == 0:
        return None if sign else 0
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P != 0:
        x = x * SQRT_M1 % P
    if (x * x - x2) % P != 0:
        return None
    return P - x if (x & 1) != sign else x


def _decompress(s: bytes) -> Point | None:
    """The point a 32-byte encoding names, or None when it names none canonically (RFC 8032, 5.1.3)."""
    y = int.from_bytes(s, "little")
    sign, y = y >> 255, y & ((1 << 255) - 1)
    x = _recover_x(y, sign)
    return None if x is None else (x, y, 1, x * y % P)


def _compress(point: Point) -> bytes:
    zinv = pow(point[2], P - 2, P)
    x, y = point[0] * zinv % P, point[1] * zinv % P
    return int.to_bytes(y | ((x & 1) << 255), 32, "little")


_GY = 4 * pow(5, P - 2, P) % P
_GX = _recover_x(_GY, 0)
assert _GX is not None
BASE: Point = (_GX, _GY, 1, _GX * _GY % P)
#: 2^i·B for i < 256: a fixed-base multiplication needs only additions (half the work of double-and-add).
_POWERS: list[Point] = [BASE]
for _ in range(255):
    _POWERS.append(_add(_POWERS[-1], _POWERS[-1]))


def _mul_base(s: int) -> Point:
    out: Point = (0, 1, 1, 0)
    i = 0
    while s > 0:
        if s & 1:
            out = _add(out, _POWERS[i])
        s >>= 1
        i += 1
    return out


def _equal(a: Point, b: Point) -> bool:
    return (a[0] * b[2] - b[0] * a[2]) % P == 0 and (a[1] * b[2] - b[1] * a[2]) % P == 0


def _hash_int(data: bytes) -> int:
    return int.from_bytes(hashlib.sha512(data).digest(), "little") % Q


def _expand(seed: bytes) -> tuple[int, bytes]:
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], "little")
    a &= (1 << 254) - 8
    a |= 1 << 254
    return a, h[32:]


def _py_public(seed: bytes) -> bytes:
    return _compress(_mul_base(_expand(seed)[0]))


def _py_sign(seed: bytes, message: bytes) -> bytes:
    a, prefix = _expand(seed)
    public = _compress(_mul_base(a))
    r = _hash_int(prefix + message)
    rs = _compress(_mul_base(r))
    s = (r + _hash_int(rs + public + message) * a) % Q
    return rs + int.to_bytes(s, 32, "little")


def _py_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    a = _decompress(public)
    r = _decompress(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    h = _hash_int(signature[:32] + public + message)
    return _equal(_mul_base(s), _add(r, _mul(h, a)))


@lru_cache(maxsize=64)
def is_public_key(public: bytes) -> bool:
    """Whether 32 bytes are a canonical encoding of a curve point: a key a verifier accepts (LOG-17)."""
    return len(public) == PUBLIC_SIZE and _decompress(public) is not None


def _load_cryptography() -> tuple[Callable[[bytes], bytes], Callable[[bytes, bytes], bytes],
                                  Callable[[bytes, bytes, bytes], bool]] | None:  # fmt: skip
    """The optional backend's three functions, or None when ``cryptography`` is not installed."""
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
    except ImportError:
        return None

    def public(seed: bytes) -> bytes:
        return Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()

    def signed(seed: bytes, message: bytes) -> bytes:
        return Ed25519PrivateKey.from_private_bytes(seed).sign(message)

    def verified(key: bytes, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True

    return public, signed, verified


_FAST = _load_cryptography()
#: The backend in use: ``cryptography`` when installed, unless ``KNOCK_ED25519=python`` (the tests run both).
backend: Backend = "cryptography" if _FAST is not None and os.environ.get("KNOCK_ED25519") != "python" else "python"


def available() -> tuple[Backend, ...]:
    """The backends this installation has: always ``python``, and ``cryptography`` with the ``sign`` extra."""
    return ("python", "cryptography") if _FAST is not None else ("python",)


def use(name: Backend) -> Backend:
    """Choose the backend (for tests and benchmarks); returns the one in use before.

    Raises:
        ValueError: ``cryptography`` is asked for and not installed.
    """
    global backend
    if name not in available():
        raise ValueError(f"the Ed25519 backend {name!r} is not installed (pip install 'knock-gin[sign]')")
    before, backend = backend, name
    return before


def public_key(seed: bytes) -> bytes:
    """The 32-byte public key of a 32-byte secret seed (RFC 8032, 5.1.5)."""
    if len(seed) != SEED_SIZE:
        raise ValueError(f"an Ed25519 secret key is {SEED_SIZE} bytes, not {len(seed)}")
    return _FAST[0](seed) if backend == "cryptography" and _FAST is not None else _py_public(seed)


def sign(seed: bytes, message: bytes) -> bytes:
    """The 64-byte signature of ``message`` by the secret seed (RFC 8032, 5.1.6): deterministic."""
    if len(seed) != SEED_SIZE:
        raise ValueError(f"an Ed25519 secret key is {SEED_SIZE} bytes, not {len(seed)}")
    return _FAST[1](seed, message) if backend == "cryptography" and _FAST is not None else _py_sign(seed, message)


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the public key's signature of ``message`` (RFC 8032, 5.1.7, cofactorless).

    Inputs the backends could judge apart are refused here first, the same for both: a key that is not a
    canonical point encoding, an ``S`` not below the group order, a length that is not 32 or 64. (An ``R`` that
    is no canonical encoding fails both: the reference cannot decode it, OpenSSL compares it byte for byte
    with the canonical encoding of ``[S]B - [k]A``.)
    """
    if len(public) != PUBLIC_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    if int.from_bytes(signature[32:], "little") >= Q or not is_public_key(bytes(public)):
        return False
    if backend == "cryptography" and _FAST is not None:
        return _FAST[2](public, message, signature)
    return _py_verify(public, message, signature)
