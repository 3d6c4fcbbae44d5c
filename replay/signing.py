"""Signed logs (format 2.0): the signer's keys, their files, and the signature of every checkpoint and trailer.

Rules: LOG-17 (the signer's key, in the header and in key files), LOG-18 (what is signed), spec/log-format.md.
A seal's message is ``SEAL_TAG ‖ seat ‖ record number ‖ record type ‖ digest``: 58 bytes that another
implementation builds from the spec alone (its test vectors: ``spec/signature-vectors.json``).

>>> key = SigningKey.from_seed(bytes(32))
>>> key.public.hex()[:16]
'3b6a27bcceb6a42d'
>>> sig = key.sign_seal(None, 10, 8, bytes(32))
>>> verify_seal(key.public, None, 10, 8, bytes(32), sig), verify_seal(key.public, 0, 10, 8, bytes(32), sig)
(True, False)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import KnockError
from replay import ed25519

#: The domain tag every seal's message begins with (LOG-18): no other Knock signature can be taken for one.
SEAL_TAG = b"knock-log-seal/2"
FULL_LOG = 0xFF  #: the seat byte of a full log's seal (a view's is its seat, LOG-18)
SECRET_PREFIX = "knock-ed25519-secret-key"  #: a secret key file's one line: this, a space, 64 hex digits
PUBLIC_PREFIX = "knock-ed25519-public-key"  #: a public key file's
_LINE = re.compile(r"\A(knock-ed25519-(?:secret|public)-key) ([0-9a-f]{64})\n?\Z")
MAX_KEY_FILE = 4096  #: a key file is one short line: a longer file is not read to its end


class KeyFileError(KnockError, ValueError):
    """A key file (or key text) that is not one (LOG-17)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"LOG-17: {reason}", rule="LOG-17")
        self.reason = reason


def seal_message(seat: int | None, record: int, kind: int, digest: bytes) -> bytes:
    """What a checkpoint or trailer signs (LOG-18): the tag, the seat byte (255 for a full log, the seat for a
    view), the seal's own record number as 8 bytes big-endian, its record type (8 checkpoint, 9 trailer) and
    the 32-byte digest it holds."""
    return SEAL_TAG + bytes((FULL_LOG if seat is None else seat,)) + record.to_bytes(8, "big") + bytes((kind,)) + digest


def verify_seal(public: bytes, seat: int | None, record: int, kind: int, digest: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is the public key's signature of that seal (LOG-18)."""
    return ed25519.verify(public, seal_message(seat, record, kind, digest), signature)


@dataclass(frozen=True, slots=True)
class SigningKey:
    """An Ed25519 secret key (its 32-byte seed) and its public key. Rule: LOG-17."""

    seed: bytes = field(repr=False)
    public: bytes = field(init=False)

    def __post_init__(self) -> None:
        if type(self.seed) is not bytes or len(self.seed) != ed25519.SEED_SIZE:
            raise KeyFileError(f"a secret key is {ed25519.SEED_SIZE} bytes")
        object.__setattr__(self, "public", ed25519.public_key(self.seed))

    @staticmethod
    def from_seed(seed: bytes) -> SigningKey:
        return SigningKey(bytes(seed))

    @staticmethod
    def generate() -> SigningKey:
        """A new key from the operating system's randomness (``knock keygen``)."""
        return SigningKey(os.urandom(ed25519.SEED_SIZE))

    def sign_seal(self, seat: int | None, record: int, kind: int, digest: bytes) -> bytes:
        """The seal's signature (LOG-18): 64 bytes, the same every time (Ed25519 is deterministic)."""
        return ed25519.sign(self.seed, seal_message(seat, record, kind, digest))

    def secret_text(self) -> str:
        """The secret key file's text (LOG-17)."""
        return f"{SECRET_PREFIX} {self.seed.hex()}\n"

    def public_text(self) -> str:
        """The public key file's text (LOG-17)."""
        return public_text(self.public)


def public_text(public: bytes) -> str:
    return f"{PUBLIC_PREFIX} {public.hex()}\n"


def _parse(text: str, where: str) -> tuple[str, bytes]:
    found = _LINE.match(text)
    if found is None:
        raise KeyFileError(f"{where} is not a Knock key: one line, '{SECRET_PREFIX} HEX' or '{PUBLIC_PREFIX} "
                           "HEX', with 64 lowercase hexadecimal digits")  # fmt: skip
    return found[1], bytes.fromhex(found[2])


def _read(path: Path) -> str:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_KEY_FILE + 1)
    except OSError as err:
        raise KeyFileError(f"cannot read the key file {path}: {err.strerror or err}") from None
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        raise KeyFileError(f"{path} is not a Knock key (not text)") from None


def load_signing_key(path: Path) -> SigningKey:
    """The secret key of a key file (``knock serve/simulate/demo --key``).

    Raises:
        KeyFileError: the file cannot be read or is not a secret key file (LOG-17).
    """
    kind, value = _parse(_read(path), str(path))
    if kind != SECRET_PREFIX:
        raise KeyFileError(f"{path} is a public key: signing needs the secret key file")
    return SigningKey(value)


def load_public_key(spec: str) -> bytes:
    """The public key a verifier requires (``knock verify --key``): a public or secret key file, or the public
    key itself as 64 hexadecimal digits.

    Raises:
        KeyFileError: none of these, or bytes that are no Ed25519 public key (LOG-17).
    """
    if re.fullmatch(r"[0-9a-fA-F]{64}", spec) and not Path(spec).exists():
        public = bytes.fromhex(spec)
    else:
        kind, value = _parse(_read(Path(spec)), spec)
        public = SigningKey(value).public if kind == SECRET_PREFIX else value
    if not ed25519.is_public_key(public):
        raise KeyFileError(f"{spec}: not an Ed25519 public key (no point of the curve has this encoding)")
    return public
