"""Log cases: damaging a case's compiled log before a reader sees it, as its ``[tamper]`` table says.

Rule: CONF-7.
"""

from __future__ import annotations

import dataclasses
import io
from pathlib import Path
from typing import Any

from engine.fairdeal import FairSeeds, statement_message
from knock.conformance.cases import CaseError
from replay.codec import (
    NAMED_VERSION,
    SIGNED_VERSION,
    T_CHECKPOINT,
    T_CUT,
    T_FAIR_COMMIT,
    T_FAIR_REVEAL,
    T_HAND,
    T_RESULT,
    T_SEAT_COMMITS,
    T_SEEDS,
    T_STATEMENT,
    T_TRAILER,
    chain,
    header_digest,
    pack,
    unpacked,
)
from replay.redact import redact
from replay.signing import SigningKey


def _value(v: Any) -> Any:
    """A TOML value as a record: a table ``{bin = "hex"}`` is bytes; lists and tables recursively."""
    if isinstance(v, dict):
        if set(v) == {"bin"}:
            return bytes.fromhex(v["bin"])
        return {k: _value(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_value(x) for x in v]
    return v


def _split(data: bytes) -> list[tuple[Any, bytes]]:
    return list(unpacked(io.BytesIO(data)))


def rechain(items: list[tuple[Any, bytes]], key: SigningKey | None = None) -> list[tuple[Any, bytes]]:
    """Recompute every checkpoint and the trailer over the records as they now are; with ``key``, sign each as
    the header's ``view`` (or a full log) has it (LOG-18), without one leave them unsigned."""
    out = [items[0]]
    digest = header_digest(items[0][1])
    seat = items[0][0].get("view") if isinstance(items[0][0], dict) else None
    for i, (value, raw) in enumerate(items[1:], 1):
        if isinstance(value, list) and value and value[0] in (T_CHECKPOINT, T_TRAILER):
            value = [T_CHECKPOINT, digest] if value[0] == T_CHECKPOINT else [T_TRAILER, i - 1, digest]
            if key is not None:
                value.append(key.sign_seal(seat if type(seat) is int else None, i, value[0], digest))
            raw = pack(value)
        out.append((value, raw))
        digest = chain(digest, raw)
    return out


def signed_header(header: dict[str, Any], key: SigningKey) -> dict[str, Any]:
    """A header as a signed log has it (LOG-17): version 2.0 and ``signer`` (before ``view``)."""
    out = {k: v for k, v in header.items() if k not in ("signer", "view")}
    out["version"] = list(SIGNED_VERSION)
    out["signer"] = key.public
    if "view" in header:
        out["view"] = header["view"]
    return out


def resign(data: bytes, key: SigningKey) -> bytes:
    """A log (or view) signed anew with ``key``: its header naming it, every seal re-signed (LOG-17, LOG-18)."""
    items = _split(data)
    items[0] = (head := signed_header(items[0][0], key), pack(head))
    return b"".join(raw for _, raw in rechain(items, key))


def fair_log(data: bytes, hands: list[FairSeeds]) -> bytes:
    """A compiled log made fair (LOG-20): version 2.0 with ``fair: true``, each hand's server commitment and seeds
    before it (the first hand's before the draw), its server seed after its result, the seals recomputed; where
    the hands hold the seats' commitments (DEAL-11), version 3.0 with them between the two (LOG-25). The case's
    deals are its own: a deal that does not follow from the seeds stays as it is (DEAL-10)."""
    items = _split(data)
    ordered = any(s.commitments is not None for s in hands)
    head = {**items[0][0], "version": list(NAMED_VERSION if ordered else SIGNED_VERSION), "fair": True}
    out: list[tuple[Any, bytes]] = [(head, pack(head))]
    by_number = {s.number: s for s in hands}

    def fair(number: int) -> list[Any]:
        seeds = by_number[number]
        made = [] if seeds.commitments is None else [[T_SEAT_COMMITS, list(seeds.commitments)]]
        said = [[T_STATEMENT, seat, key, signature] for seat, key, signature in seeds.statements]
        return [[T_FAIR_COMMIT, seeds.commitment], *made, [T_SEEDS, list(seeds.seats), list(seeds.supplied)], *said]

    first = True
    for value, raw in items[1:]:
        kind = value[0] if isinstance(value, list) and value else None
        if (kind == T_CUT and first) or (kind == T_HAND and (first or value[1] > 1)):
            out += [(r, pack(r)) for r in fair(value[1] if kind == T_HAND else 1)]
            first = False
        out.append((value, raw))
        if kind == T_RESULT and value[1] in by_number:
            reveal = [T_FAIR_REVEAL, by_number[value[1]].server]
            out.append((reveal, pack(reveal)))
    return b"".join(raw for _, raw in rechain(out))


def signed(seeds: FairSeeds, signers: list[SigningKey | None]) -> FairSeeds:
    """A hand's seeds with the statements of the seats that have a key and sent their own seed (DEAL-12)."""
    digest = seeds.set_hash
    if digest is None:
        return seeds
    statements = tuple(
        (seat, key.public, key.sign(statement_message(digest, seat, seeds.seats[seat])))
        for seat, key in enumerate(signers)
        if key is not None and seat not in seeds.supplied
    )
    return dataclasses.replace(seeds, statements=statements)


def tamper_log(data: bytes, spec: dict[str, Any], path: Path) -> bytes:
    """Apply a case's ``[tamper]`` edits (as ``cases`` checked them: ``view`` a seat number) to its compiled
    log (CONF-7), in the order the format lists them.

    Raises:
        CaseError: an edit the log cannot take: a record or a byte it does not have.
        LogError: the log has no view (``redact`` makes one of a sound log, finished or not).
    """
    if "fair" in spec:
        fair = spec["fair"]
        signers = [SigningKey.from_seed(bytes.fromhex(x)) if x else None for x in fair.get("signers", [])]
        hands = [
            signed(
                FairSeeds.gather(
                    n,
                    bytes.fromhex(server),
                    [bytes.fromhex(x) if x else None for x in sent],
                    committed=fair.get("committed", False),
                ),
                signers,
            )
            for n, (server, sent) in enumerate(zip(fair["server"], fair["sent"], strict=True), 1)
        ]
        data = fair_log(data, hands)
    if "view" in spec:
        data = redact(data, spec["view"])
    key = SigningKey.from_seed(bytes.fromhex(spec["sign"])) if "sign" in spec else None
    if key is not None:
        data = resign(data, key)
    items = _split(data)

    def index(v: Any, what: str) -> int:
        """A record number of the log as the edits so far leave it."""
        if type(v) is not int or not 0 <= v < len(items):
            raise CaseError(path, f"[tamper] {what}: a record number 0..{len(items) - 1}, not {v!r}")
        return v

    if "header" in spec:
        head = dict(items[0][0])
        head.update({k: _value(v) for k, v in spec["header"].items()})
        items[0] = (head, pack(head))
    if "replace" in spec:
        i = index(spec["replace"].get("record"), "replace")
        items[i] = (_value(spec["replace"]["value"]), pack(_value(spec["replace"]["value"])))
    if "insert" in spec:
        i = index(spec["insert"].get("before"), "insert")
        items.insert(i, (_value(spec["insert"]["value"]), pack(_value(spec["insert"]["value"]))))
    if "delete" in spec:
        del items[index(spec["delete"], "delete")]
    if spec.get("rechain", False):
        items = rechain(items, key)
    if "append" in spec:
        items.append((_value(spec["append"]), pack(_value(spec["append"]))))
    out = bytearray(b"".join(raw for _, raw in items))
    if "flip" in spec:
        i, byte = index(spec["flip"]["record"], "flip"), spec["flip"].get("byte", 0)
        if byte >= len(items[i][1]):
            raise CaseError(path, f"[tamper] flip: record {i} has {len(items[i][1])} bytes, no byte {byte}")
        out[_start(items, i) + byte] ^= spec["flip"].get("mask", 1)
    if "append_bytes" in spec:
        out += bytes.fromhex(spec["append_bytes"])
    cut = spec.get("truncate")
    if isinstance(cut, dict):  # the records before N and the first K bytes of record N
        i = index(cut["record"], "truncate")
        if cut["keep"] >= len(items[i][1]):
            raise CaseError(path, f"[tamper] truncate: record {i} has {len(items[i][1])} bytes; keep fewer")
        out = out[: _start(items, i) + cut["keep"]]
    elif cut is not None:
        if cut > len(out):
            raise CaseError(path, f"[tamper] truncate: the log has {len(out)} bytes, not {cut}")
        out = out[: len(out) - cut]
    return bytes(out)


def _start(items: list[tuple[Any, bytes]], record: int) -> int:
    """Where a record's bytes begin in the log."""
    return sum(len(raw) for _, raw in items[:record])
