"""What the first bytes of a msgpack value claim: a value the input ends inside is cut (LOG-7) only when nothing
read of it exceeds a limit of the format; a length, a count or a nesting over a limit is refused as soon as it is
read (LOG-2), whether or not the bytes it claims follow (spec/log-format.md, LOG-13's precedence).

It reads the value's type bytes and lengths only — never the bytes they claim — without recursion.

>>> over_limit(bytes.fromhex("c6ffffffff"), 1024)      # bin 32 of 4 GB: refused before its bytes
'bytes of 4294967295 bytes (the limit is 64)'
>>> over_limit(bytes.fromhex("c43c") + bytes(10), 1024) is None   # bin 8 of 60, cut: within the limits
True
"""

from __future__ import annotations

MAX_TEXT, MAX_BIN, MAX_ARRAY, MAX_MAP = 4096, 64, 256, 64  #: LOG-2: bytes of a str or bin, items of an array or map
MAX_DEPTH = 8  #: arrays and maps nested inside one value, the value itself counting as 1 (records need 4)

#: Type bytes of fixed size: how many bytes the whole value takes.
_FIXED = {0xC0: 1, 0xC2: 1, 0xC3: 1, 0xCA: 5, 0xCB: 9, 0xCC: 2, 0xCD: 3, 0xCE: 5, 0xCF: 9,
          0xD0: 2, 0xD1: 3, 0xD2: 5, 0xD3: 9}  # fmt: skip
#: Type bytes followed by a length: (bytes of the length, what it counts, the limit).
_SIZED = {0xC4: (1, "bytes", MAX_BIN), 0xC5: (2, "bytes", MAX_BIN), 0xC6: (4, "bytes", MAX_BIN),
          0xD9: (1, "text", MAX_TEXT), 0xDA: (2, "text", MAX_TEXT), 0xDB: (4, "text", MAX_TEXT),
          0xDC: (2, "array", MAX_ARRAY), 0xDD: (4, "array", MAX_ARRAY),
          0xDE: (2, "map", MAX_MAP), 0xDF: (4, "map", MAX_MAP)}  # fmt: skip
_EXTENSIONS = frozenset({0xC7, 0xC8, 0xC9, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8})


def over_limit(data: bytes, size: int) -> str | None:
    """Why the value that ``data`` begins (and the input ends inside) already breaks a limit of LOG-2 — its
    stored ``size`` limit, a length or a count, its nesting, an extension type, a byte that is no msgpack — or
    None when every length read so far is within the limits (the value is merely cut: LOG-7)."""
    pos = 0
    pending = [1]  # values still to read at each open level of nesting (the value itself: one at level 1)
    while pos < len(data):
        while pending and pending[-1] == 0:
            pending.pop()
        if not pending:
            return None  # the value is complete (not reached: the caller's value is cut)
        pending[-1] -= 1
        b = data[pos]
        kind, count, limit, head = "", 0, 0, 1
        if b <= 0x7F or b >= 0xE0:
            pos += 1
            continue
        if 0x80 <= b <= 0x8F:
            kind, count, limit = "map", b & 0x0F, MAX_MAP
        elif 0x90 <= b <= 0x9F:
            kind, count, limit = "array", b & 0x0F, MAX_ARRAY
        elif 0xA0 <= b <= 0xBF:
            kind, count, limit = "text", b & 0x1F, MAX_TEXT
        elif b in _FIXED:
            pos += _FIXED[b]
            continue
        elif b in _SIZED:
            width, kind, limit = _SIZED[b]
            if pos + 1 + width > len(data):
                return None  # the length itself is cut: nothing over a limit was read
            count, head = int.from_bytes(data[pos + 1 : pos + 1 + width], "big"), 1 + width
        elif b in _EXTENSIONS:
            return "an extension type (msgpack extensions never occur)"
        else:
            return f"the byte {b:02x}, which no msgpack value begins with"
        if count > limit:
            return f"{kind} of {count} {'bytes' if kind in ('bytes', 'text') else 'items'} (the limit is {limit})"
        if kind in ("bytes", "text"):
            if pos + head + count > size:
                return f"a value of more than {size} bytes (the format's limit)"
            pos += head + count
            continue
        pos += head
        pending.append(count * 2 if kind == "map" else count)
        if len(pending) - 1 > MAX_DEPTH:  # the levels open, below the value itself (pending[0])
            return f"a value that nests arrays or maps more than {MAX_DEPTH} deep"
        if pos > size:
            return f"a value of more than {size} bytes (the format's limit)"
    return None
