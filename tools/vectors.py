#!/usr/bin/env python3
"""Write the verdict vectors of the conformance suite (spec/conformance.md, CONF-15): crafted vectors under
``knock/conformance/suite/vectors/`` and the manifest ``knock/conformance/suite/vectors.json``.

    .venv/bin/python tools/vectors.py            # write the crafted files and the manifest
    .venv/bin/python tools/vectors.py --check    # exit 1 if a file or the manifest would change

Each vector's answer is its author's, from the spec: the crafted ones are declared below with their bytes, and the
suite's compiled logs bring the answer their case's author wrote (``[expect]``: outcome, record and rule; for an
accepted log the verdict is *pass* when it ends with its trailer, else *unfinished* at its last record, LOG-13).
Nothing here runs a reader: ``tests/conformance/test_vectors.py`` and ``knock conform vectors`` do, and fail where
Knock's verdict is not the vector's. Every vector cites the row of spec/log-format.md's precedence table whose
answer it is; a row is chosen by the rule a case names, or by the case where several rows name one rule.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_spec import VECTOR_SEED, example_log, signed_example, small_order_points

from engine.fairdeal import demo_chance
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import GreedyBot, play_match
from knock.conformance import load_case
from knock.conformance.tamper import rechain, resign
from replay.codec import T_CHECKPOINT, T_TRAILER, pack, unpacked
from replay.log import write_log
from replay.redact import redact
from replay.signing import SigningKey

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "knock" / "conformance" / "suite"
VECTORS = SUITE / "vectors"
MANIFEST = SUITE / "vectors.json"
PREFIX = {"pass": "y_", "unfinished": "i_", "fail": "n_"}

# --- the rows of the suite's compiled logs ------------------------------------------------------------------

#: The precedence row of a rule a case names, where one row names it.
ROW_OF_RULE = {
    "LOG-3": "header.version", "LOG-4": "place", "LOG-6": "seal.digest", "LOG-8": "content.derived",
    "LOG-10": "content.commitment", "LOG-11": "content.view", "LOG-12": "content.view", "LOG-16": "content.view",
    "LOG-17": "header.signer", "LOG-18": "seal.signature", "LOG-19": "header.required", "LOG-20": "content.fair",
    "LOG-21": "content.fair", "LOG-22": "content.fair", "LOG-23": "header.named", "DEAL-4": "content.deal",
    "DEAL-5": "content.fair", "DEAL-9": "content.fair", "DEAL-10": "content.fair", "MATCH-2": "content.draw",
    "MATCH-3": "content.draw", "MATCH-7": "content.draw", "RULES-1": "header.preset", "RULES-2": "header.option",
    "RULES-3": "header.deck",
}  # fmt: skip
#: The row of a case whose rule several rows name (LOG-1, LOG-2, LOG-7, LOG-19).
ROW_OF_CASE = {
    "log/LOG-1-bad-format": "header.format", "log/LOG-1-header-not-a-map": "header.format",
    "log/LOG-1-header-missing-keys": "header.keys", "log/LOG-1-wrong-player-count": "header.players",
    "log/LOG-13-any-byte-after-the-trailer": "bytes.after", "log/LOG-13-cut-within-the-limits": "bytes.cut",
    "log/LOG-13-length-over-a-limit-at-the-end": "bytes.limit", "log/LOG-2-bin-over-the-bound": "bytes.limit",
    "log/LOG-2-not-msgpack": "bytes.value", "log/LOG-2-spread-not-canonical": "content.canonical",
    "log/LOG-2-unknown-action-code": "form", "log/LOG-2-unknown-array-record": "form",
    "log/LOG-7-cut-inside-a-named-record": "bytes.cut", "log/LOG-7-cut-inside-the-trailer": "bytes.cut",
    "log/LOG-7-record-after-the-trailer": "bytes.after", "outside/log/truncated-inside-checkpoint": "bytes.cut",
    "log/LOG-19-digest-not-published": "digests",
}  # fmt: skip


def _records(data: bytes) -> list[Any]:
    return [v for v, _ in unpacked(io.BytesIO(data))]


def suite_vectors() -> list[dict[str, Any]]:
    """A vector for each compiled log of the suite whose answer names one rule, or none (an accepted log)."""
    out = []
    logs = SUITE / "logs"
    for answer_file in sorted(logs.rglob("*.json")):
        expected = json.loads(answer_file.read_text("utf-8"))
        name = answer_file.relative_to(logs).with_suffix("").as_posix()
        log = answer_file.with_suffix(".knock")
        rule = expected.get("rule")
        if expected["outcome"] == "reject":
            if type(rule) is list and len(rule) == 1:
                rule = rule[0]
            if type(rule) is not str:
                continue  # CONF-9: a case that names several rules, or any, decides no one rule
            verdict, record = "fail", expected["record"]
            view = "view" in _header(log.read_bytes())
            row = ROW_OF_CASE.get(name) or ROW_OF_RULE.get(rule) or ("content.view" if view else "content.action")
        else:
            records = _records(log.read_bytes())
            last = records[-1]
            whole = type(last) is list and last and last[0] == T_TRAILER
            verdict, record, rule = ("pass" if whole else "unfinished"), len(records) - 1, ""
            view = "view" in records[0]
            row = _accepted_row(load_case(SUITE / "cases" / f"{name}.toml").rules, view, expected.get("verify", {}))
        vector = {"name": PREFIX[verdict] + name, "file": f"logs/{name}.knock", "verdict": verdict, "record": record,
                  "rule": rule, "row": row, "why": f"the conformance case {name} (its author's answer)"}  # fmt: skip
        verify = expected.get("verify", {})
        if "signer" in verify:
            vector["signer"] = verify["signer"]
        if "digests" in verify:
            vector["digests"] = verify["digests"]
        out.append(vector)
    return out


def _header(data: bytes) -> dict[str, Any]:
    try:
        first = next(unpacked(io.BytesIO(data)))[0]
    except Exception:
        return {}
    return first if type(first) is dict else {}


def _accepted_row(rules: tuple[str, ...], view: bool, verify: dict[str, Any]) -> str:
    """The row an accepted case exercises: that of the first rule its author lists (CONF-2's ``rules``)."""
    first = rules[0] if rules else ""
    if first == "LOG-19":
        return "digests" if "digests" in verify else "header.required"
    if first in ROW_OF_RULE:
        return ROW_OF_RULE[first]
    special = {"LOG-1": "header.keys", "LOG-2": "form", "LOG-6": "seal.digest", "LOG-7": "bytes.cut",
               "LOG-9": "bytes.value", "LOG-13": "verdict.unfinished", "LOG-14": "verdict.pass",
               "LOG-15": "verdict.pass", "LOG-5": "verdict.unfinished"}  # fmt: skip
    if first in special:
        return special[first]
    return "content.view" if view else "content.action"


# --- the crafted vectors --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Crafted:
    """A vector made here: its bytes, and the answer its author reads in the spec."""

    name: str  #: without its prefix
    make: Callable[[], bytes | tuple[bytes, int]]  #: the bytes, or the bytes and the record the maker forged
    verdict: str
    record: int | None
    rule: str
    row: str
    why: str
    signer: str | None = None
    signed_through: int | None = None
    states_signed_through: bool = False


def items(data: bytes) -> list[tuple[Any, bytes]]:
    return list(unpacked(io.BytesIO(data)))


def joined(parts: list[tuple[Any, bytes]]) -> bytes:
    return b"".join(raw for _, raw in parts)


def edit_header(data: bytes, change: Callable[[dict[str, Any]], dict[str, Any]], *, chain: bool = True) -> bytes:
    """``data`` with its header changed (and, with ``chain``, every seal recomputed: only the header is wrong)."""
    parts = items(data)
    head = change(dict(parts[0][0]))
    parts[0] = (head, pack(head))
    return joined(rechain(parts) if chain else parts)


def edit_records(data: bytes, change: Callable[[list[Any]], list[Any]]) -> bytes:
    """``data`` with its records (header excluded) replaced by ``change``'s, every seal recomputed."""
    parts = items(data)
    records = change([v for v, _ in parts[1:]])
    return joined(rechain([parts[0], *((r, pack(r)) for r in records)]))


KEY = SigningKey.from_seed(VECTOR_SEED)
EXAMPLE = example_log()  # records: 1 cut, 2 hand, 3 deal, 4 pass, 5 pass, 6 draw, 7 knock, 8 spread, 9 result,
#                          10 checkpoint, 11 game over, 12 trailer
SIGNED, SIGNED_VIEW = signed_example()


def three_handed_log() -> bytes:
    """A three-handed game with the sitter's advice in its first hand."""
    rules = RuleSet.preset("three_handed", target=25)
    m = Match.new(rules, seed=11)
    advised = False
    while m.to_act is not None:
        if not advised and m.advice_options():
            m.apply(m.advice_options()[0])
            advised = True
            continue
        m.apply(GreedyBot().choose(m.seat_observation(m.to_act), m.legal_actions()))
    assert advised
    return write_log(m)


def advised_roles() -> dict[str, int]:
    """The box, the captain and the sitter of the hand in which the sitter first advises (its hand record)."""
    records = _records(three_handed_log())
    at = next(i for i, v in enumerate(records) if type(v) is list and v and v[0] == 5)
    hand = next(v for v in reversed(records[:at]) if type(v) is list and v and v[0] == 1)
    dealer, seats, sitter = hand[2], (hand[3], hand[4]), hand[5]
    return {"box": dealer, "captain": next(s for s in seats if s != dealer), "sitter": sitter}


def three_handed_view(seat: int) -> bytes:
    return redact(three_handed_log(), seat)


def _fair_example() -> bytes:
    """A fair game (LOG-20), every deal from its seeds: the seeds of ``engine.fairdeal.demo_chance``."""
    rules = RuleSet.preset("standard", target=25)
    chance = demo_chance(rules.players, 4)
    m = Match(rules, chance, executor="compiled")
    play_match(m, [GreedyBot(), GreedyBot()])
    return write_log(m, fair=chance)


def crafted() -> list[Crafted]:
    neutral = small_order_points()[0]
    c = Crafted
    box = three_handed_view
    return [
        # verdicts
        c("example", lambda: EXAMPLE, "pass", 12, "", "verdict.pass", "appendix B's log: a whole game"),
        c("header-alone", lambda: joined(items(EXAMPLE)[:1]), "unfinished", 0, "", "bytes.empty",
          "the header alone, the least input that is not empty: unfinished at 0, the rule named none (LOG-13)"),
        c("before-the-trailer", lambda: joined(items(EXAMPLE)[:-1]), "unfinished", 11, "", "verdict.unfinished",
          "the game over read, no trailer: unfinished at 11 (LOG-13)"),
        # bytes
        c("empty", lambda: b"", "fail", None, "LOG-7", "bytes.empty", "no bytes: nothing to read, no record named"),
        c("reserved-byte", lambda: b"\xc1", "fail", 0, "LOG-2", "bytes.value", "c1 is no msgpack value"),
        c("extension-type", lambda: joined(items(EXAMPLE)[:3]) + b"\xd4\x01\x00", "fail", 3, "LOG-2", "bytes.value",
          "a msgpack extension type (fixext 1) never occurs (LOG-2)"),
        c("bin-of-4-gb", lambda: joined(items(EXAMPLE)[:3]) + b"\xc6\xff\xff\xff\xff", "fail", 3, "LOG-2",
          "bytes.limit", "a bin 32 claiming 4 GB: over the limit as soon as its length is read"),
        c("cut-inside-the-trailer", lambda: EXAMPLE[:-1], "fail", 12, "LOG-7", "bytes.cut",
          "the file ends inside the trailer (within the limits)"),
        c("byte-after-the-trailer", lambda: EXAMPLE + b"\x00", "fail", 13, "LOG-7", "bytes.after",
          "a byte after the trailer, at its number plus one"),
        # the header, in LOG-13's order
        c("header-not-a-map", lambda: b"\x90", "fail", 0, "LOG-1", "header.format", "an array where the header is"),
        c("version-4", lambda: edit_header(EXAMPLE, lambda h: {**h, "version": [4, 0]}), "fail", 0, "LOG-3",
          "header.version", "a major version no reader of 3.0 knows"),
        c("version-3-plain", lambda: edit_header(EXAMPLE, lambda h: {**h, "version": [3, 0]}), "pass", 12, "",
          "header.version", "a 3.0 log that holds nothing of 3.0 is read (spec/versions.md)"),
        c("unknown-key", lambda: edit_header(EXAMPLE, lambda h: {**h, "x": 1}), "fail", 0, "LOG-1", "header.keys",
          "a key a 1.0 header may not hold"),
        c("view-not-a-seat", lambda: edit_header(redact(EXAMPLE, 1), lambda h: {**h, "view": 2}), "fail", 0,
          "LOG-11", "header.view", "the view of p2 in a two-player game"),
        c("a-view", lambda: redact(EXAMPLE, 1), "pass", 12, "", "header.view", "p1's view of appendix B's log"),
        c("fair-not-a-boolean", lambda: edit_header(EXAMPLE, lambda h: {**h, "version": [2, 0], "fair": 1}), "fail",
          0, "LOG-20", "header.fair", "fair: 1 is no boolean"),
        c("fair-log", _fair_example, "pass", None, "", "header.fair", "a fair game, every deal from its seeds"),
        c("version-2-neither", lambda: edit_header(EXAMPLE, lambda h: {**h, "version": [2, 0]}), "fail", 0,
          "LOG-17", "header.signer", "format 2.0 is for a signed or a fair log"),
        c("signer-neutral-point", lambda: edit_header(SIGNED, lambda h: {**h, "signer": neutral}, chain=False),
          "fail", 0, "LOG-17", "header.signer", "a key of small order: seals could be forged with no secret"),
        c("signed", lambda: SIGNED, "pass", 12, "", "header.signer", "appendix C's signed log",
          signed_through=12, states_signed_through=True),
        c("named-full-log", lambda: edit_header(SIGNED, lambda h: {**h, "version": [3, 0], "table": "t", "made": 1},
          chain=False), "fail", 0, "LOG-23", "header.named", "a full log names no table and no time"),
        c("named-view", lambda: SIGNED_VIEW, "pass", 12, "", "header.named",
          "appendix C's signed view, naming its table and time"),
        c("preset-unknown", lambda: edit_header(EXAMPLE, lambda h: {**h, "rules": {**h["rules"], "name": "gin"}}),
          "fail", 0, "RULES-1", "header.preset", "no preset is named gin"),
        c("option-float", lambda: edit_header(EXAMPLE, lambda h: {**h, "rules": {**h["rules"], "target": 20.0}}),
          "fail", 0, "RULES-2", "header.option", "a float where the option takes a whole number"),
        c("deck-reduced", lambda: edit_header(EXAMPLE, lambda h: {**h, "rules": {**h["rules"], "deck_ranks": 5}}),
          "fail", 0, "RULES-3", "header.deck", "a log is never of a reduced deck"),
        c("three-names", lambda: edit_header(EXAMPLE, lambda h: {**h, "players": ["a", "b", "c"]}), "fail", 0,
          "LOG-1", "header.players", "three names for a two-player rule set"),
        # form and seals
        c("deal-code-52", lambda: edit_records(EXAMPLE, lambda r: [*r[:2], [2, bytes([52]) + r[2][1][1:]],
          *r[3:]]), "fail", 3, "LOG-2", "form", "a card code above 51 in a full log's deal"),
        c("signature-in-unsigned", lambda: joined([*items(EXAMPLE)[:10], (v := [T_CHECKPOINT, items(EXAMPLE)[10][0]
          [1], bytes(64)], pack(v)), *items(EXAMPLE)[11:]]), "fail", 10, "LOG-2", "seal.form",
          "a checkpoint with a signature in an unsigned log"),
        c("checkpoint-digest", lambda: _flip(EXAMPLE, 10, 4), "fail", 10, "LOG-6", "seal.digest",
          "a checkpoint's digest with one bit flipped"),
        c("signature-flipped", lambda: _flip(SIGNED, 10, -5), "fail", 10, "LOG-18", "seal.signature",
          "a checkpoint's signature with one bit flipped"),
        c("signed-tail", lambda: joined(items(SIGNED)[:-1]), "unfinished", 11, "", "seal.signature",
          "signed through the checkpoint (10); the game over (11) carries no signature",
          signed_through=10, states_signed_through=True),
        # place
        c("result-mid-hand", lambda: edit_records(EXAMPLE, lambda r: [*r[:5], r[8], *r[5:]]), "fail", 6, "LOG-4",
          "place", "a result where the dealer's pass is due"),
        c("seeds-mid-hand", lambda: edit_records(EXAMPLE, lambda r: [*r[:4], [14, [bytes(32), bytes(32)], []],
          *r[4:]]), "fail", 5, "LOG-4", "place", "a fair record in the middle of a hand is out of place (LOG-4, "
          "LOG-20)"),
        # content
        c("deal-card-twice", lambda: edit_records(EXAMPLE, lambda r: [*r[:2], [2, r[2][1][:51] + r[2][1][:1]],
          *r[3:]]), "fail", 3, "DEAL-4", "content.deal", "a deal holding its first card twice"),
        c("fair-begins-with-a-cut", lambda: edit_header(EXAMPLE, lambda h: {**h, "version": [2, 0], "fair": True}),
          "fail", 1, "LOG-20", "content.fair", "a fair log's draw comes after the first hand's seeds"),
        c("fair-seeds-one", lambda: edit_records(edit_header(EXAMPLE, lambda h: {**h, "version": [2, 0],
          "fair": True}), lambda r: [[13, bytes(32)], [14, [bytes(32)], []], *r]), "fail", 2, "DEAL-5",
          "content.fair", "one seed in a two-player game: DEAL-5 whatever the number"),
        c("discard-in-draw-phase", lambda: edit_records(EXAMPLE, lambda r: [*r[:5], 8 + 0, *r[6:]]), "fail", 6,
          "TURN-1", "content.action", "a discard where p0 is to draw"),
        c("result-points", lambda: edit_records(EXAMPLE, lambda r: [*r[:8], [*r[8][:4], r[8][4] + 1, *r[8][5:]],
          *r[9:]]), "fail", 9, "LOG-8", "content.derived", "a result whose points are not the engine's"),
        c("view-opponent-discards-a-pile-card", _pile_card_view, "fail", None, "LOG-12", "content.view",
          "an opponent discards a card already on the discard pile"),
        c("view-advice-hidden-from-the-captain", lambda: _advice(advised_roles()["captain"], hide=True), "fail",
          None, "LOG-11",
          "content.view", "the captain hears the sitter's advice (THREE-8): his view hides it"),
        c("view-advice-shown-to-the-box", lambda: _advice(advised_roles()["box"], hide=False), "fail", None,
          "LOG-11", "content.view",
          "the box does not hear the sitter's advice (THREE-8): his view shows it"),
        c("view-advice", lambda: box(advised_roles()["captain"]), "pass", None, "", "content.view",
          "the captain's view, the advice heard"),
        c("view-defender-deadwood-after-gin", lambda: (_resealed_edit(redact(EXAMPLE, 1), 9, lambda r: [*r[:7],
          r[7] - 1, *r[8:]]), 9), "fail", None, "LAY-2", "content.view",
          "the defender's deadwood after gin is his minimum, which his own view shows (LAY-2)"),
        c("view-hand-after-the-target", lambda: (_resealed_edit(redact(EXAMPLE, 1), 11, lambda r: [1, 2, 1, 0, 1,
          None]), 11), "fail", None, "MATCH-1", "content.view", "no hand follows one that took a seat to the target"),
        # passing inputs near each row's edge
        c("wide-integers", _wide_integers, "pass", None, "", "bytes.value",
          "integers in wider forms than the smallest: a reader accepts any width (LOG-2, LOG-9)"),
        c("text-at-the-limit", lambda: edit_header(EXAMPLE, lambda h: {**h, "meta": {"note": "x" * 4096}}), "pass",
          None, "", "bytes.limit", "a text of exactly 4,096 bytes, the limit (LOG-2)"),
        c("trailer-last", lambda: EXAMPLE, "pass", 12, "", "bytes.after", "nothing after the trailer"),
        c("format-last", lambda: edit_header(EXAMPLE, lambda h: {**{k: v for k, v in h.items() if k != "format"},
          "format": "knock-log"}), "pass", None, "", "header.format", "the format key last: any order (LOG-1)"),
        c("player-names", lambda: edit_header(EXAMPLE, lambda h: {**h, "players": ["Ann", "Bob"]}), "pass", None, "",
          "header.players", "any two names for two seats"),
        c("view-forms", lambda: redact(EXAMPLE, 0), "pass", None, "", "form",
          "the knocker's view: its own draw as a seen draw [12, card], a form only a view holds (LOG-11)"),
        c("fair-and-signed", lambda: resign(_fair_example(), KEY), "pass", None, "", "seal.form",
          "a fair log signed: every seal [8, digest, signature] (LOG-18, LOG-20)"),
        c("view-chain", lambda: redact(three_handed_log(), 2), "pass", None, "", "seal.digest",
          "a three-handed view: its digests over its own bytes (LOG-6, LOG-11)"),
        c("advice-in-place", three_handed_log, "pass", None, "", "place",
          "the sitter's advice where the captain is to act (LOG-4)"),
        c("canonical-showdowns", lambda: write_log(_bot_game("standard", 21)), "pass", None, "", "content.canonical",
          "a whole game, every spread and layoff in canonical order"),
        c("oklahoma-derived", lambda: write_log(_bot_game("oklahoma", 22)), "pass", None, "", "content.derived",
          "an Oklahoma game, every hand, result and game over the engine's"),
        # what a verifier is given
        c("unsigned-key-required", lambda: EXAMPLE, "fail", 0, "LOG-19", "header.required",
          "a signer is required and the log names none", signer=KEY.public.hex()),
    ]  # fmt: skip


def _bot_game(preset: str, seed: int) -> Match:
    m = Match.new(RuleSet.preset(preset, target=50), seed=seed)
    return play_match(m, [GreedyBot() for _ in range(m.rules.players)])


def _wide_integers() -> bytes:
    """Appendix B's log with its actions written as uint 8 (``cc 00`` for pass), every seal recomputed."""
    parts = items(EXAMPLE)
    for i in (4, 5, 6):  # pass, pass, draw: bare integers
        parts[i] = (parts[i][0], b"\xcc" + parts[i][1])
    return joined(rechain(parts))


def _resealed_edit(data: bytes, record: int, change: Callable[[Any], Any]) -> bytes:
    records = _records(data)
    records[record] = change(records[record])
    return _reseal(records)


def _flip(data: bytes, record: int, offset: int) -> bytes:
    parts = items(data)
    start = sum(len(raw) for _, raw in parts[:record])
    at = start + (offset if offset >= 0 else len(parts[record][1]) + offset)
    out = bytearray(data)
    out[at] ^= 1
    return bytes(out)


def _pile_card_view() -> tuple[bytes, int]:
    """p1's view of a game in which p0, right after drawing, discards the card p1 has just discarded (still on the
    pile): the record forged is p0's discard."""
    m = Match.new(RuleSet.preset("standard", target=25), seed=21)
    play_match(m, [GreedyBot(), GreedyBot()])
    view = _records(redact(write_log(m), 1))
    for i in range(1, len(view) - 2):
        r, draw, then = view[i], view[i + 1], view[i + 2]
        if _is_discard(r) and draw == 2 and _is_discard(then) and _turn(view[:i]) == 1:
            view[i + 2] = r  # p1 discarded r; p0 draws unseen from the stock and discards r again
            return _reseal(view), i + 2
    raise AssertionError("no such discard")


def _is_discard(record: Any) -> bool:
    return type(record) is int and 8 <= record < 60


def _turn(records: list[Any]) -> int | None:
    """Whose turn it is after ``records`` of a view (the header first), as its public replay has it."""
    from replay.log import LogTruncated
    from replay.public import ViewReplayer

    r = ViewReplayer(_reseal(records))
    with contextlib.suppress(LogTruncated):  # a view cut short is unfinished: its state is as far as it goes
        r.run()
    return r.state.turn


def _reseal(records: list[Any]) -> bytes:
    head = records[0]
    parts: list[tuple[Any, bytes]] = [(head, pack(head)), *((r, pack(r)) for r in records[1:])]
    return joined(rechain(parts))


def _advice(seat: int, *, hide: bool) -> tuple[bytes, int]:
    """``seat``'s view of the three-handed game with its advice record forged: hidden (``[5, seat, nil]``) from a
    seat that hears it, or shown (the suggestion the captain's view holds) to one that does not."""
    view = _records(three_handed_view(seat))
    at = next(i for i, v in enumerate(view) if type(v) is list and v and v[0] == 5)
    heard = _records(three_handed_view(advised_roles()["captain"]))
    suggestion = next(v for v in heard if type(v) is list and v and v[0] == 5)[2]
    view[at] = [5, view[at][1], None if hide else suggestion]
    return _reseal(view), at


def crafted_vectors() -> tuple[list[dict[str, Any]], dict[Path, bytes]]:
    """The crafted vectors' manifest entries and their files. A passing or unfinished vector whose record its author
    leaves to the bytes is at its last record (LOG-13); a forged view's failing record is the one its maker forged."""
    entries, files = [], {}
    for v in crafted():
        made = v.make()
        data, record = (made, v.record) if isinstance(made, bytes) else made
        if record is None and v.verdict != "fail":
            record = len(_records(data)) - 1
        name = PREFIX[v.verdict] + v.name
        entry: dict[str, Any] = {"name": name, "file": f"vectors/{name}.knock", "verdict": v.verdict,
                                 "record": record, "rule": v.rule, "row": v.row, "why": v.why}  # fmt: skip
        if v.signer is not None:
            entry["signer"] = v.signer
        if v.states_signed_through:
            entry["signed_through"] = v.signed_through
        entries.append(entry)
        files[VECTORS / f"{name}.knock"] = data
    return entries, files


def manifest() -> tuple[str, dict[Path, bytes]]:
    entries, files = crafted_vectors()
    doc = {
        "about": "The verdict vectors of Knock's conformance suite (spec/conformance.md, CONF-15): each file with the "
        "verdict, record and rule a reader must give (LOG-13) and the row of spec/log-format.md's precedence table "
        "whose answer it is. Written by tools/vectors.py from its authors' answers and the suite's cases.",
        "vectors": entries + suite_vectors(),
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n", files


def main(argv: list[str]) -> int:
    text, files = manifest()
    wanted = {MANIFEST: text.encode("utf-8"), **files}
    stale = [p for p, data in wanted.items() if not p.exists() or p.read_bytes() != data]
    extra = [p for p in VECTORS.glob("*.knock") if p not in wanted] if VECTORS.exists() else []
    if "--check" in argv:
        for p in [*stale, *extra]:
            print(f"stale: {p.relative_to(ROOT)} (run python tools/vectors.py)")
        return 1 if stale or extra else 0
    VECTORS.mkdir(parents=True, exist_ok=True)
    for p in stale:
        p.write_bytes(wanted[p])
        print(f"wrote {p.relative_to(ROOT)}")
    for p in extra:
        p.unlink()
        print(f"removed {p.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
