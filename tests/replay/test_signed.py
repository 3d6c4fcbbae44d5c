"""Signed logs (format 2.0): the writer signs every seal, the readers check them (LOG-17, LOG-18, LOG-19)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.match import Match
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, RandomBot, play_match
from knock.conformance.tamper import resign
from replay import ed25519_verify as ed25519
from replay.audit import verify
from replay.codec import T_CHECKPOINT, T_TRAILER, pack, unpacked
from replay.log import LogError, LogReader, write_log
from replay.redact import redact
from replay.signing import SigningKey, seal_message, verify_seal
from replay.verdict import judge

KEY = SigningKey.from_seed(bytes(range(32)))
OTHER = SigningKey.from_seed(bytes(range(1, 33)))


def game(seed: int = 5, preset: str = "standard") -> Match:
    rules = RuleSet.preset(preset, target=60)
    bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
    return play_match(Match.new(rules, seed=seed), bots[: rules.players])


def items(data: bytes) -> list[tuple[Any, bytes]]:
    return list(unpacked(io.BytesIO(data)))


def seals(data: bytes) -> list[int]:
    return [i for i, (v, _) in enumerate(items(data)) if type(v) is list and v[0] in (T_CHECKPOINT, T_TRAILER)]


def join(parts: list[tuple[Any, bytes]]) -> bytes:
    return b"".join(raw for _, raw in parts)


@pytest.fixture(scope="module")
def signed() -> bytes:
    return write_log(game(), key=KEY)


@pytest.mark.rule("LOG-17", "LOG-18", "LOG-3")
def test_a_signed_log_is_version_2_names_its_signer_and_signs_every_seal(signed: bytes) -> None:
    match = game()
    plain = write_log(match)
    header = items(signed)[0][0]
    assert header["version"] == [2, 0] and header["signer"] == KEY.public
    assert list(header)[-1] == "signer" and items(plain)[0][0]["version"] == [1, 0]
    for i in seals(signed):
        value = items(signed)[i][0]
        assert len(value[-1]) == 64
        assert ed25519.verify(KEY.public, seal_message(None, i, value[0], value[-2]), value[-1])
    assert [len(v) for v, _ in items(signed)[1:] if type(v) is list and v[0] == T_CHECKPOINT] == [3] * (
        len(seals(signed)) - 1
    )
    verdict = judge(signed)
    assert verdict.kind == "pass" and verdict.signer == KEY.public, verdict
    assert judge(signed, signer=KEY.public).kind == "pass"
    assert verify(signed).ok
    # the records between the seals are the unsigned log's, byte for byte
    same = [raw for v, raw in items(plain)[1:] if not (type(v) is list and v[0] in (T_CHECKPOINT, T_TRAILER))]
    assert same == [raw for v, raw in items(signed)[1:] if not (type(v) is list and v[0] in (T_CHECKPOINT, T_TRAILER))]


@pytest.mark.rule("LOG-18")
def test_every_flipped_signature_byte_is_caught_at_its_seal(signed: bytes) -> None:
    parts = items(signed)
    at = 0
    for i in seals(signed):
        start = sum(len(raw) for _, raw in parts[:i])
        for byte in (-64, -33, -32, -1):  # R's first and last byte, S's first and last
            damaged = bytearray(signed)
            damaged[start + len(parts[i][1]) + byte] ^= 0x10
            verdict = judge(bytes(damaged))
            assert (verdict.kind, verdict.record, verdict.rule) == ("fail", i, "LOG-18"), verdict
            at += 1
    assert at == 4 * len(seals(signed))


@pytest.mark.rule("LOG-18", "LOG-19")
def test_another_keys_signature_fails_and_a_log_re_signed_with_another_key_passes_only_without_the_key(
    signed: bytes,
) -> None:
    theirs = write_log(game(), key=OTHER)
    parts = items(signed)
    first = seals(signed)[0]
    swapped = list(parts)
    value = [*parts[first][0][:-1], items(theirs)[first][0][-1]]  # the other key's signature of this seal
    swapped[first] = (value, pack(value))
    verdict = judge(join(swapped))
    assert (verdict.kind, verdict.record, verdict.rule) == ("fail", first, "LOG-18"), verdict
    forged = resign(signed, OTHER)  # whoever has the bytes re-signs them: a sound log of another signer
    assert judge(forged).kind == "pass" and judge(forged).signer == OTHER.public
    verdict = judge(forged, signer=KEY.public)
    assert (verdict.kind, verdict.record, verdict.rule) == ("fail", 0, "LOG-19"), verdict
    assert forged == theirs, "re-signing gives what the other key's writer writes"


@pytest.mark.rule("LOG-19")
def test_a_required_key_refuses_an_unsigned_log_and_digests_must_be_published(signed: bytes) -> None:
    plain = write_log(game())
    verdict = judge(plain, signer=KEY.public)
    assert (verdict.kind, verdict.record, verdict.rule) == ("fail", 0, "LOG-19"), verdict
    good = judge(signed)
    assert good.digest is not None
    assert judge(signed, digests={good.digest}).kind == "pass"
    verdict = judge(signed, digests={bytes(32)})
    assert (verdict.kind, verdict.record, verdict.rule) == ("fail", good.record, "LOG-19"), verdict
    cut = signed[: sum(len(raw) for _, raw in items(signed)[:4])]  # header and records 1..3: unfinished at 3
    so_far = judge(cut)
    assert so_far.kind == "unfinished" and so_far.digest is not None
    assert judge(cut, digests={so_far.digest}).kind == "unfinished"
    assert judge(cut, digests={good.digest}).rule == "LOG-19"
    broken = signed[:-1]
    assert judge(broken, digests={good.digest}).rule == "LOG-7", "a log that fails otherwise fails as it would"


@pytest.mark.rule("LOG-17", "LOG-1", "LOG-2")
@pytest.mark.parametrize(
    ("edit", "rule"),
    [
        ({"signer": b"\xff" * 32}, "LOG-17"),  # not a point's canonical encoding
        ({"signer": bytes(31)}, "LOG-17"),
        ({"signer": "03a107bff3ce10be"}, "LOG-17"),  # text, not bytes
        ({"signer": None}, "LOG-17"),
    ],
)
def test_a_header_key_of_the_wrong_kind_is_refused(signed: bytes, edit: dict[str, Any], rule: str) -> None:
    parts = items(signed)
    head = dict(parts[0][0])
    head.update(edit)
    if edit["signer"] is None:
        del head["signer"]
    verdict = judge(pack(head) + join(parts[1:]))
    assert (verdict.kind, verdict.record, verdict.rule) == ("fail", 0, rule), verdict


@pytest.mark.rule("LOG-1", "LOG-2", "LOG-18")
def test_signatures_and_versions_go_together() -> None:
    plain = write_log(game())
    parts = items(plain)
    head = dict(parts[0][0], signer=KEY.public)  # a signer in a 1.0 header: an unknown key
    verdict = judge(pack(head) + join(parts[1:]))
    assert (verdict.rule, verdict.record) == ("LOG-1", 0), verdict
    first = seals(plain)[0]
    extra = list(parts)
    extra[first] = ([*parts[first][0], bytes(64)], pack([*parts[first][0], bytes(64)]))
    verdict = judge(join(extra))
    assert (verdict.rule, verdict.record) == ("LOG-2", first), "a signature in an unsigned log has no form there"
    signed = write_log(game(), key=KEY)
    parts = items(signed)
    short = list(parts)
    short[first] = (parts[first][0][:-1], pack(parts[first][0][:-1]))
    verdict = judge(join(short))
    assert (verdict.rule, verdict.record) == ("LOG-2", first), "a seal of a signed log without its signature"


@pytest.mark.rule("LOG-11", "LOG-18")
def test_a_view_is_signed_by_its_maker_with_its_seat_in_every_seal(signed: bytes) -> None:
    view = redact(signed, 1, key=OTHER, table="t1", made=1_800_000_000)
    header = LogReader(view).header
    assert header.signer == OTHER.public and header.version == (3, 0) and header.view == 1
    assert (header.table, header.made) == ("t1", 1_800_000_000)
    verdict = judge(view, signer=OTHER.public)
    assert verdict.kind == "pass" and verdict.view == 1, verdict
    assert (verdict.table, verdict.made) == (
        "t1",
        1_800_000_000,
    ) and "for table 't1' at 2027-01-15T08:00:00Z" in verdict.message
    unsigned = redact(signed, 1)
    assert LogReader(unsigned).header.version == (1, 0) and LogReader(unsigned).header.signer is None
    assert judge(unsigned).kind == "pass" and judge(unsigned, signer=OTHER.public).rule == "LOG-19"
    # the seat is in every seal's message: p1's seal is no seal of p0's view, nor of the full log
    parts = items(view)
    for i in seals(view):
        value = parts[i][0]
        assert verify_seal(OTHER.public, 1, i, value[0], value[-2], value[-1])
        assert not verify_seal(OTHER.public, 0, i, value[0], value[-2], value[-1])
        assert not verify_seal(OTHER.public, None, i, value[0], value[-2], value[-1])
    parts[0] = (head := dict(parts[0][0], signer=KEY.public), pack(head))  # claimed for the log's own signer
    verdict = judge(join(parts))
    assert (verdict.kind, verdict.rule) == ("fail", "LOG-6"), verdict


@pytest.mark.rule("LOG-23", "LOG-3")
def test_a_signed_view_names_its_table_and_time_and_they_are_signed(signed: bytes) -> None:
    view = redact(signed, 0, key=KEY, table="abc", made=5)
    parts = items(view)
    assert list(parts[0][0])[-3:] == ["table", "made", "view"] and parts[0][0]["version"] == [3, 0]
    for changed in ({"table": "abd"}, {"made": 6}):  # the header is in every seal: a changed name fails at the first
        parts[0] = (head := dict(items(view)[0][0], **changed), pack(head))
        verdict = judge(join(parts))
        assert (verdict.kind, verdict.rule, verdict.record) == ("fail", "LOG-6", seals(view)[0]), verdict
    for bad in ({"table": ""}, {"table": 7}, {"made": -1}, {"made": "now"}, {"made": None}):
        head = {k: v for k, v in dict(items(view)[0][0], **bad).items() if v is not None}
        verdict = judge(pack(head))
        assert (verdict.kind, verdict.rule, verdict.record) == ("fail", "LOG-23", 0), (bad, verdict)
    full = items(signed)[0][0]  # a full log, or an unsigned view, names no table
    for header in (dict(full, version=[3, 0], table="x", made=1), {**dict(items(redact(signed, 0))[0][0],
                   version=[3, 0], table="x", made=1)}):  # fmt: skip
        verdict = judge(pack(header))
        assert (verdict.kind, verdict.rule) == ("fail", "LOG-23"), verdict
    with pytest.raises(LogError, match="LOG-23"):
        redact(signed, 0, key=KEY)  # a signed view must say which table and when
    with pytest.raises(LogError, match="LOG-23"):
        redact(signed, 0, table="abc", made=5)  # only a signed one names them


@pytest.mark.rule("LOG-23", "LOG-3")
def test_a_signed_view_of_format_2_still_passes_naming_neither(signed: bytes) -> None:
    old = resign(redact(signed, 1), KEY)  # how a view was signed before LOG-23
    assert items(old)[0][0]["version"] == [2, 0]
    verdict = judge(old, signer=KEY.public)
    assert verdict.kind == "pass" and verdict.table is None and "names no table and no time" in verdict.message
    head = dict(items(old)[0][0], table="t", made=1)  # a 2.0 header cannot carry them
    assert judge(pack(head)).rule == "LOG-1"


@pytest.mark.rule("LOG-18", "LOG-13")
def test_the_verdict_says_how_far_a_signed_log_is_signed(signed: bytes) -> None:
    parts = items(signed)
    last_seal = seals(signed)[-2]  # the last checkpoint, before game over and the trailer
    cut = join(parts[: last_seal + 2])  # the checkpoint and the record after it
    verdict = judge(cut)
    assert (verdict.kind, verdict.record, verdict.signed_through) == ("unfinished", last_seal + 1, last_seal)
    assert f"signed through record {last_seal}: records {last_seal + 1} … {last_seal + 1} carry no signature" in (
        verdict.message
    )
    assert verdict.to_json()["signed_through"] == last_seal
    early = judge(join(parts[: seals(signed)[0]]))  # before the first seal: nothing is signed yet
    assert early.signed_through is None and "no record is signed yet" in early.message
    whole = judge(signed)
    assert whole.signed_through == whole.record == len(parts) - 1
    assert judge(write_log(game())).signed_through is None  # unsigned


def test_signing_off_changes_nothing() -> None:
    match = game(7, "three_handed")
    assert write_log(match) == write_log(match, key=None)
    assert items(write_log(match))[0][0]["version"] == [1, 0]


@pytest.fixture
def python_backend() -> Iterator[None]:
    before = ed25519.use("python")
    yield
    ed25519.use(before)


@pytest.mark.rule("LOG-18", "LOG-13")
def test_every_verdict_is_the_same_with_and_without_the_extra(signed: bytes) -> None:
    parts = items(signed)
    inputs = [signed, resign(signed, OTHER), signed[:-1], write_log(game())]
    for i in seals(signed):
        start = sum(len(raw) for _, raw in parts[:i])
        damaged = bytearray(signed)
        damaged[start + len(parts[i][1]) - 5] ^= 1
        inputs.append(bytes(damaged))
    answers = {}
    for name in ed25519.available():
        before = ed25519.use(name)
        try:
            answers[name] = [judge(data, signer=KEY.public).to_json() for data in inputs]
            if name == "python":
                assert write_log(game(), key=KEY) == signed, "both backends write the same bytes"
        finally:
            ed25519.use(before)
    assert len({repr(a) for a in answers.values()}) == 1


@pytest.mark.rule("LOG-18", "LOG-13")
def test_a_reader_without_the_extra_installed_gives_the_same_verdicts(signed: bytes, tmp_path: Any) -> None:
    damaged = bytearray(signed)
    damaged[-3] ^= 4  # inside the trailer's signature
    inputs = [signed, bytes(damaged), resign(signed, OTHER)]
    for i, data in enumerate(inputs):
        (tmp_path / f"{i}.knock").write_bytes(data)
    script = (
        "import sys, json; sys.modules['cryptography'] = None\n"
        "from replay import ed25519_verify as ed25519; from replay.verdict import judge\n"
        "assert ed25519.available() == ('python',), ed25519.available()\n"
        f"key = bytes.fromhex('{KEY.public.hex()}')\n"
        f"print(json.dumps([judge(open(f'{tmp_path}/{{i}}.knock', 'rb').read(), signer=key).to_json()"
        f" for i in range({len(inputs)})]))"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    alone = json.loads(out)
    assert alone == [judge(data, signer=KEY.public).to_json() for data in inputs]
    assert [v["verdict"] for v in alone] == ["pass", "fail", "fail"]
    assert [v["rule"] for v in alone[1:]] == ["LOG-18", "LOG-19"]


@pytest.mark.rule("LOG-17", "LOG-5")
def test_a_signed_log_resumes_with_its_key_only() -> None:
    from replay.resume import ResumeError, resume

    bots: list[Bot] = [GreedyBot(), GreedyBot()]
    whole = write_log(play_match(Match.new(seed=7), bots), meta={"seed": 7}, key=KEY)
    cut = len(whole) - sum(r.size for r in list(LogReader(whole).entries())[100:])  # after 100 records
    out = io.BytesIO()
    game = resume(whole[:cut], out, key=KEY)
    assert game.verdict.kind == "unfinished"
    play_match(game.match, bots)
    game.writer.sync()
    assert whole[:cut] + out.getvalue() == whole, "the rest, signed, byte for byte"
    for key in (None, OTHER):
        with pytest.raises(ResumeError, match="LOG-17"):
            resume(whole[:cut], io.BytesIO(), key=key)
    plain = write_log(play_match(Match.new(seed=7), bots), meta={"seed": 7})
    cut = len(plain) - sum(r.size for r in list(LogReader(plain).entries())[100:])
    assert resume(plain[:cut], io.BytesIO(), key=KEY).verdict.kind == "unfinished"  # goes on unsigned


@pytest.mark.rule("LOG-6", "LOG-17", "LOG-18", "LOG-19")
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_flipping_any_byte_of_a_signed_log_fails_with_a_rule(data: st.DataObject) -> None:
    signed = SIGNED
    at = data.draw(st.integers(0, len(signed) - 1), label="byte")
    mask = data.draw(st.integers(1, 255), label="mask")
    damaged = bytearray(signed)
    damaged[at] ^= mask
    verdict = judge(bytes(damaged), signer=KEY.public)
    assert verdict.kind == "fail" and verdict.rule and not verdict.internal, verdict


SIGNED = write_log(game(9), key=KEY)
