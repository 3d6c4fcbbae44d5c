"""Ed25519 (RFC 8032) *verification only*: public data in, a yes or no out, in pure Python or through
``cryptography`` when it is installed.

Rules: LOG-17, LOG-18 (spec/log-format.md). Nothing here touches a secret: signing is ``replay.signing``'s, and
only through a vetted library (``cryptography``, whose Ed25519 is OpenSSL's constant-time code). This module
checks signatures with public keys, so an auditor needs nothing beyond Python to verify a signed log; its
arithmetic is RFC 8032 section 6's reference algorithm (extended coordinates, cofactorless: ``[S]B = R + [k]A``)
and its timing may depend on its inputs, which are all public. The ``cryptography`` backend does the same sums
about thirty times faster (about 0.1 ms a signature, against 3 ms). Both give the same answer for every input: a
verifier first refuses, in Python, everything the two (or libsodium) could judge differently — a public key that
is not a canonical point encoding or is of small order, an ``R`` that is of small order or whose y is not below p,
an ``S`` not below the group order, a length that is not 32 or 64 — and only then asks the backend
(``tests/replay/test_ed25519.py`` runs both on RFC 8032's vectors, on the negative vectors of
``spec/signature-vectors.json`` and on random damage).

>>> vector = {"public": bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"),
...           "signature": bytes.fromhex("e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a"
...                                      "33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")}
>>> verify(vector["public"], b"", vector["signature"]), verify(vector["public"], b"x", vector["signature"])
(True, False)
>>> is_public_key(bytes(32)), is_public_key((1).to_bytes(32, "little"))  # y = 0 is of order 4, y = 1 the neutral point
(False, False)
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
PUBLIC_SIZE, SIGNATURE_SIZE = 32, 64

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


def _small_order(point: Point) -> bool:
    """Whether ``[8]point`` is the neutral element: the point is one of the eight of small order, which a
    signature by no secret at all can satisfy (the neutral point's "signature" of anything is ``R = 0, S = 0``)."""
    x, y, z, _ = _mul(8, point)
    return x % P == 0 and (y - z) % P == 0


def _point(encoding: bytes) -> Point | None:
    """The point a 32-byte encoding names, or None when it is not a canonical encoding (RFC 8032, 5.1.3) or names
    a point of small order: what neither a key nor a signature's ``R`` may be (LOG-17, LOG-18; libsodium's set)."""
    point = _decompress(encoding)
    return None if point is None or _small_order(point) else point


_Y_BITS = (1 << 255) - 1
_T8 = _decompress(bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"))
assert _T8 is not None and not _equal(_mul(4, _T8), (0, 1, 1, 0))
#: The canonical encodings of the eight points of small order (``[k]T``, T of order 8): an ``R`` that is one is
#: refused before any backend is asked (a non-canonical encoding of one fails both backends by itself: the reference
#: cannot decode it, OpenSSL compares ``R`` byte for byte with a canonical encoding). Checking ``R`` against them,
#: not by decoding it, keeps a verification through ``cryptography`` at the library's speed.
SMALL_ORDER = frozenset(_compress(_mul(k, _T8)) for k in range(8))


def _py_verify(public: bytes, message: bytes, signature: bytes) -> bool:
    a, r = _point(public), _point(signature[:32])
    if a is None or r is None:
        return False
    s = int.from_bytes(signature[32:], "little")
    h = _hash_int(signature[:32] + public + message)
    return _equal(_mul_base(s), _add(r, _mul(h, a)))


@lru_cache(maxsize=64)
def is_public_key(public: bytes) -> bool:
    """Whether 32 bytes are a public key a verifier accepts (LOG-17): the canonical encoding of a point of the
    curve (RFC 8032, 5.1.3) that is not of small order (a key no secret made, as libsodium refuses)."""
    return len(public) == PUBLIC_SIZE and _point(public) is not None


def _load_cryptography() -> Callable[[bytes, bytes, bytes], bool] | None:
    """The optional backend's verifier, or None when ``cryptography`` is not installed."""
    try:
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    except ImportError:
        return None

    def verified(key: bytes, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(key).verify(signature, message)
        except (InvalidSignature, ValueError):
            return False
        return True

    return verified


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


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the public key's signature of ``message`` (RFC 8032, 5.1.7, cofactorless).

    Inputs the backends (or libsodium) could judge apart are refused here first, the same for both: a length
    that is not 32 or 64, an ``S`` not below the group order, a key that is not the canonical encoding of a point
    not of small order, an ``R`` whose y is not below p or that encodes a point of small order. (An ``R`` that
    encodes no point, or sets the sign bit on x = 0, fails both backends by itself.) Only then is the equation
    checked, by the backend in use.
    """
    if len(public) != PUBLIC_SIZE or len(signature) != SIGNATURE_SIZE:
        return False
    if int.from_bytes(signature[32:], "little") >= Q or not is_public_key(bytes(public)):
        return False
    r = bytes(signature[:32])
    if int.from_bytes(r, "little") & _Y_BITS >= P or r in SMALL_ORDER:  # R: canonical y, not of small order
        return False
    if backend == "cryptography" and _FAST is not None:
        return _FAST(bytes(public), message, bytes(signature))
    return _py_verify(bytes(public), message, bytes(signature))
