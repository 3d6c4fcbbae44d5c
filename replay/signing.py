"""Signed logs (format 2.0): the signer's keys, their files, and the signature of every checkpoint and trailer.

Rules: LOG-17 (the signer's key, in the header and in key files), LOG-18 (what is signed), spec/log-format.md.
A seal's message is ``SEAL_TAG ‖ seat ‖ record number ‖ record type ‖ digest``: 58 bytes that another
implementation builds from the spec alone (its test vectors: ``spec/signature-vectors.json``).

Signing is done only by a vetted library: ``cryptography`` (OpenSSL's constant-time Ed25519), installed by every
extra that signs (``sign``, ``web``); without it a ``SigningKey`` cannot be made and says so
(``SigningUnavailable``). Verifying needs nothing beyond Python (``replay.ed25519_verify``). Key files are
handled as OpenSSH handles its own: written to a new file no one else can read and renamed into place (never
written through a link), and a secret key that others may read is refused.

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
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import KnockError
from replay import ed25519_verify as ed25519

#: The domain tag every seal's message begins with (LOG-18): no other Knock signature can be taken for one.
SEAL_TAG = b"knock-log-seal/2"
FULL_LOG = 0xFF  #: the seat byte of a full log's seal (a view's is its seat, LOG-18)
SEED_SIZE = 32  #: an Ed25519 secret key: RFC 8032's 32-byte seed
SECRET_PREFIX = "knock-ed25519-secret-key"  #: a secret key file's one line: this, a space, 64 hex digits
PUBLIC_PREFIX = "knock-ed25519-public-key"  #: a public key file's
_LINE = re.compile(r"\A(knock-ed25519-(?:secret|public)-key) ([0-9a-f]{64})\n?\Z")
MAX_KEY_FILE = 4096  #: a key file is one short line: a longer file is not read to its end
#: The permission bits a secret key file may not have (OpenSSH's rule): none for the group or others.
OPEN_TO_OTHERS = 0o077


class KeyFileError(KnockError, ValueError):
    """A key file (or key text) that is not one, or a secret key file others may read (LOG-17)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"LOG-17: {reason}", rule="LOG-17")
        self.reason = reason


class SigningUnavailable(KnockError, RuntimeError):
    """Signing asked for where no vetted library is installed to do it (LOG-17): Knock never signs with its own
    arithmetic."""

    def __init__(self) -> None:
        super().__init__("LOG-17: signing needs the 'cryptography' library (a vetted, constant-time Ed25519), which "
                         "is not installed: pip install 'knock-gin[sign]' (the 'web' extra has it too); verifying "
                         "needs nothing", rule="LOG-17")  # fmt: skip


def _private_key_class() -> Any:
    try:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    except ImportError:
        raise SigningUnavailable() from None
    return Ed25519PrivateKey


def signing_backend() -> str | None:
    """What signs, in words for a banner (``cryptography 44.0.1, OpenSSL 3.4.0``), or None when nothing can."""
    try:
        _private_key_class()
        import cryptography
    except (SigningUnavailable, ImportError):
        return None
    try:
        from cryptography.hazmat.backends.openssl.backend import backend

        return f"cryptography {cryptography.__version__}, {backend.openssl_version_text()}"
    except (ImportError, AttributeError):  # a build without the name: the library's version is enough
        return f"cryptography {cryptography.__version__}"


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
    """An Ed25519 secret key (its 32-byte seed) and its public key, both through ``cryptography``. Rule: LOG-17.

    Raises:
        SigningUnavailable: ``cryptography`` is not installed (Knock never signs with its own arithmetic).
        KeyFileError: a seed that is not 32 bytes.
    """

    seed: bytes = field(repr=False)
    public: bytes = field(init=False)

    def __post_init__(self) -> None:
        if type(self.seed) is not bytes or len(self.seed) != SEED_SIZE:
            raise KeyFileError(f"a secret key is {SEED_SIZE} bytes")
        secret = _private_key_class().from_private_bytes(self.seed)
        object.__setattr__(self, "public", secret.public_key().public_bytes_raw())

    @staticmethod
    def from_seed(seed: bytes) -> SigningKey:
        return SigningKey(bytes(seed))

    @staticmethod
    def generate() -> SigningKey:
        """A new key from the operating system's randomness (``knock keygen``)."""
        return SigningKey(os.urandom(SEED_SIZE))

    def sign(self, message: bytes) -> bytes:
        """The library's Ed25519 signature of ``message``: 64 bytes, the same every time (RFC 8032)."""
        signature: bytes = _private_key_class().from_private_bytes(self.seed).sign(message)
        return signature

    def sign_seal(self, seat: int | None, record: int, kind: int, digest: bytes) -> bytes:
        """The seal's signature (LOG-18)."""
        return self.sign(seal_message(seat, record, kind, digest))

    def secret_text(self) -> str:
        """The secret key file's text (LOG-17)."""
        return f"{SECRET_PREFIX} {self.seed.hex()}\n"

    def public_text(self) -> str:
        """The public key file's text (LOG-17)."""
        return public_text(self.public)

    def write(self, path: Path, *, force: bool = False) -> Path:
        """Write the secret key file at ``path`` (mode 0600) and the public one at ``path.pub``; returns the latter.

        Each file is written to a new temporary file in the same folder, opened exclusively and without
        following links, then renamed into place: ``force`` replaces an existing file (a link at ``path`` is
        replaced, never written through); without it an existing file, or link, is refused.

        Raises:
            KeyFileError: a file exists (without ``force``), or the folder cannot be written.
        """
        public = path.with_name(path.name + ".pub")
        if not force:
            for target in (path, public):
                if os.path.lexists(target):
                    raise KeyFileError(f"{target} exists (give --force to replace it)")
        _place(path, self.secret_text(), 0o600, force)
        _place(public, self.public_text(), 0o644, force)
        return public


def public_text(public: bytes) -> str:
    return f"{PUBLIC_PREFIX} {public.hex()}\n"


def _parse(text: str, where: str) -> tuple[str, bytes]:
    found = _LINE.match(text)
    if found is None:
        raise KeyFileError(f"{where} is not a Knock key: one line, '{SECRET_PREFIX} HEX' or '{PUBLIC_PREFIX} "
                           "HEX', with 64 lowercase hexadecimal digits")  # fmt: skip
    return found[1], bytes.fromhex(found[2])


def _read(path: Path, *, secret: bool = False) -> str:
    """A key file's text: a regular file (a FIFO or a device is refused, never waited on), at most
    ``MAX_KEY_FILE`` bytes read. With ``secret``, the file must be the owner's alone (OpenSSH's rule)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as err:
        raise KeyFileError(f"cannot read the key file {path}: {err.strerror or err}") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise KeyFileError(f"{path} is not a key file (not a regular file)")
        if secret and os.name == "posix" and info.st_mode & OPEN_TO_OTHERS:
            mode = stat.S_IMODE(info.st_mode)
            raise KeyFileError(f"the secret key file {path} has mode {mode:04o}: others may read it, and a secret "
                               f"key others can read signs nothing (chmod 600 {path})")  # fmt: skip
        try:
            data = f.read(MAX_KEY_FILE + 1)
        except OSError as err:
            raise KeyFileError(f"cannot read the key file {path}: {err.strerror or err}") from None
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        raise KeyFileError(f"{path} is not a Knock key (not text)") from None


def _place(path: Path, text: str, mode: int, replace: bool) -> None:
    """Write ``text`` to a new file beside ``path`` (exclusive, no link followed, ``mode``), then move it into
    place: ``os.replace`` with ``replace`` (a link at ``path`` is replaced, not written through), else a hard
    link that fails if anything is at ``path``."""
    temporary = path.with_name(f".{path.name}.{os.urandom(6).hex()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    except OSError as err:
        raise KeyFileError(f"cannot write {path}: {err.strerror or err}") from None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            if os.name == "posix":
                os.fchmod(f.fileno(), mode)  # whatever the umask
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(temporary, path)
        else:
            os.link(temporary, path, follow_symlinks=False)
    except FileExistsError:
        raise KeyFileError(f"{path} exists (give --force to replace it)") from None
    except OSError as err:
        raise KeyFileError(f"cannot write {path}: {err.strerror or err}") from None
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)


def load_signing_key(path: Path) -> SigningKey:
    """The secret key of a key file (``knock serve/simulate/demo --key``).

    Raises:
        KeyFileError: the file cannot be read, is not a secret key file, or may be read by others than its owner
            (mode 0600 or stricter, as OpenSSH requires of a private key) (LOG-17).
        SigningUnavailable: ``cryptography`` is not installed.
    """
    kind, value = _parse(_read(path, secret=True), str(path))
    if kind != SECRET_PREFIX:
        raise KeyFileError(f"{path} is a public key: signing needs the secret key file")
    return SigningKey(value)


def load_public_key(spec: str) -> bytes:
    """The public key a verifier requires (``knock verify --key``): a public key file, or the public key itself
    as 64 hexadecimal digits. A secret key file is refused: a verifier never needs, and is never handed, a secret.

    Raises:
        KeyFileError: none of these, or bytes that are no public key a verifier accepts: not a canonical encoding
            of a point of the curve, or a point of small order (LOG-17).
    """
    if re.fullmatch(r"[0-9a-fA-F]{64}", spec) and not Path(spec).exists():
        public = bytes.fromhex(spec)
    else:
        kind, public = _parse(_read(Path(spec)), spec)
        if kind == SECRET_PREFIX:
            raise KeyFileError(f"{spec} is a secret key file: verify with its public key file ({spec}.pub); a "
                               "verifier never needs a secret key")  # fmt: skip
    if not ed25519.is_public_key(public):
        raise KeyFileError(f"{spec}: not an Ed25519 public key a verifier accepts (the canonical encoding of a "
                           "point of the curve, not of small order)")  # fmt: skip
    return public
