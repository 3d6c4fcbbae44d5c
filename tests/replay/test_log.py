"""The log format and the replayer (spec/log-format.md): round trips, damage, tampering, truncation."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.match import Match
from engine.rules import RuleSet
from knock.bots import Bot, GreedyBot, RandomBot, play_match
from replay.audit import verify
from replay.codec import T_CHECKPOINT, T_COMMIT, T_RESULT, T_REVEAL, T_TRAILER, chain, header_digest, pack, unpacked
from replay.log import LogError, LogReader, LogTampered, LogTruncated, LogWriter, write_log
from replay.replayer import Replayer, ReplayError

ROOT = Path(__file__).resolve().parents[2]
PRESETS = ["standard", "oklahoma", "three_handed"]


def game(preset: str = "three_handed", seed: int = 3, **options: Any) -> Match:
    rules = RuleSet.preset(preset, **options)
    bots: list[Bot] = [GreedyBot(), RandomBot(seed), GreedyBot()]
    return play_match(Match.new(rules, seed=seed), bots[: rules.players])


def split(data: bytes) -> tuple[bytes, list[bytes]]:
    """A log's header bytes and each record's stored bytes."""
    parts = [raw for _, raw in unpacked(io.BytesIO(data))]
    return parts[0], parts[1:]


def records(data: bytes) -> tuple[Any, list[Any]]:
    values = [v for v, _ in unpacked(io.BytesIO(data))]
    return values[0], values[1:]


def reseal(header: Any, body: list[Any]) -> bytes:
    """Re-encode records with a fresh, valid digest chain: what a forger who recomputes the digests writes."""
    head = pack(header)
    digest = header_digest(head)
    out = [head]
    for i, rec in enumerate(body, start=1):
        if isinstance(rec, list) and rec and rec[0] == T_CHECKPOINT:
            rec = [T_CHECKPOINT, digest]
        elif isinstance(rec, list) and rec and rec[0] == T_TRAILER:
            rec = [T_TRAILER, i - 1, digest]
        raw = pack(rec)
        digest = chain(digest, raw)
        out.append(raw)
    return b"".join(out)


# --- LOG-8: round trips ------------------------------------------------------------------------------


@pytest.mark.rule("LOG-8", "LOG-4")
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", range(4))
def test_play_log_verify_gives_the_same_game(preset: str, seed: int) -> None:
    played = game(preset, seed)
    data = write_log(played)
    rebuilt = Replayer(data).run()
    assert rebuilt.events == played.events
    assert rebuilt.standings() == played.standings()
    report = verify(data)
    assert report.ok, report.error
    assert report.winner == played.winner and report.totals == played.standings().totals
    assert len(report.hands) == played.number
    assert report.checkpoints == played.number


@pytest.mark.rule("LOG-8", "THREE-7")
def test_advice_and_every_option_round_trip() -> None:
    rules = RuleSet.preset("three_handed", wall_pickup_to_knock=True, big_gin_bonus=31, hollywood=True, box_bonus=25)
    m = Match.new(rules, seed=11)
    bots: list[Bot] = [GreedyBot(), RandomBot(5), GreedyBot()]
    while (seat := m.to_act) is not None:
        if m.advice_options():
            m.apply(m.advice_options()[0])
        assert m.hand is not None
        m.apply(bots[seat].choose(m.hand.observation(seat), m.legal_actions()))
    data = write_log(m)
    assert Replayer(data).run().events == m.events


@pytest.mark.rule("LOG-8")
def test_replay_yields_every_state() -> None:
    played = game("standard", 1)
    states = list(Replayer(write_log(played)).states())
    _, body = records(write_log(played))
    assert [s.index for s in states] == list(range(1, len(body) + 1))
    assert states[-1].match.is_over


@pytest.mark.rule("LOG-8", "TURN-3")
def test_an_illegal_action_is_reported_with_its_rule_and_record() -> None:
    data = write_log(game("standard", 2))
    header, body = records(data)
    i = next(k for k, r in enumerate(body) if isinstance(r, int) and 8 <= r < 60)  # the first discard (record i + 1)
    before = next(s for s in Replayer(data).states() if s.index == i)  # the state just before it
    hand = before.match.hand
    assert hand is not None and hand.to_act is not None
    not_held = next(c for c in range(52) if c not in {x.index for x in hand.cards_of(hand.to_act)})
    body[i] = 8 + not_held
    with pytest.raises(ReplayError) as info:
        Replayer(reseal(header, body)).run()
    assert info.value.record == i + 1 and info.value.rule == "TURN-3"
    assert info.value.found == 8 + not_held


@pytest.mark.rule("LOG-8")
def test_a_forged_result_is_caught_even_with_valid_digests() -> None:
    header, body = records(write_log(game("three_handed", 4)))
    i = next(k for k, r in enumerate(body) if isinstance(r, list) and r[0] == T_RESULT)
    forged = list(body[i])
    forged[4] += 1  # one more point to the winner
    body[i] = forged
    with pytest.raises(ReplayError) as info:
        Replayer(reseal(header, body)).run()
    assert info.value.record == i + 1 and info.value.rule == "LOG-8"
    assert info.value.expected is not None and info.value.found == forged


# --- LOG-1 .. LOG-3: header and framing ----------------------------------------------------------------


@pytest.mark.rule("LOG-1")
@pytest.mark.parametrize(
    "header",
    [[1, 2], {"format": "other"}, {"format": "knock-log", "version": [1, 0]}, {"format": "knock-log", "version": "1"}],
)
def test_a_bad_header_is_rejected_at_record_0(header: Any) -> None:
    with pytest.raises(LogError) as info:
        LogReader(pack(header))
    assert info.value.record == 0 and info.value.rule in ("LOG-1", "LOG-3")


@pytest.mark.rule("LOG-3")
def test_an_unknown_major_version_is_rejected_and_a_newer_minor_accepted() -> None:
    header, body = records(write_log(game("standard", 5)))
    header["version"] = [4, 0]  # 2.0 signed or fair (LOG-17, LOG-20), 3.0 the wave's step; 4 no reader knows yet
    with pytest.raises(LogError, match="LOG-3") as info:
        Replayer(reseal(header, body)).run()
    assert info.value.record == 0
    header["version"] = [3, 0]  # a reader of 3.0 reads a log that holds nothing of it (spec/versions.md)
    assert verify(reseal(header, body)).ok
    header["version"] = [1, 7]
    assert verify(reseal(header, body)).ok


@pytest.mark.rule("LOG-1", "LOG-3", "BONUS-6")
def test_a_header_without_an_option_added_later_reads_it_at_its_default() -> None:
    plain = write_log(game("standard", 5, box_bonus=25))
    header, body = records(plain)
    assert "kisses" not in header["rules"] and header["version"] == [1, 0]
    assert Replayer(plain).run().rules.kisses is False
    header["rules"]["kisses"] = False  # written out, the default reads the same
    assert verify(reseal(header, body)).ok
    kissed = write_log(game("standard", 5, box_bonus=25, kisses=True))
    written, _ = records(kissed)
    assert list(written["rules"])[-1] == "kisses" and written["rules"]["kisses"] is True
    assert written["version"] == [1, 0], "a new option does not change the version"
    assert verify(kissed).ok and Replayer(kissed).run().rules.kisses is True
    header["rules"]["kisses_twice"] = True  # an option this reader does not know: refused, not guessed
    with pytest.raises(LogError, match="RULES-2") as info:
        Replayer(reseal(header, body)).run()
    assert info.value.record == 0


@pytest.mark.rule("LOG-2")
@pytest.mark.parametrize("junk", [b"\xc1", pack([99, 1]), pack("text"), pack(list(range(300))), pack([3, b"\x99"])])
def test_a_malformed_record_is_reported_with_its_number(junk: bytes) -> None:
    data = write_log(game("standard", 6))
    head, parts = split(data)
    bad = head + parts[0] + parts[1] + junk + b"".join(parts[2:])
    report = verify(bad)
    assert not report.ok and report.error_record is not None
    assert report.error_record == 3 or report.error_rule in ("LOG-6",)


# --- LOG-5: streaming --------------------------------------------------------------------------------


class CountingStream(io.BytesIO):
    def __init__(self) -> None:
        super().__init__()
        self.flushes = 0

    def flush(self) -> None:
        self.flushes += 1
        super().flush()


@pytest.mark.rule("LOG-5")
def test_the_writer_streams_and_flushes_at_every_hand_end() -> None:
    rules = RuleSet.preset("standard")
    m = Match.new(rules, seed=8)
    out = CountingStream()
    writer = LogWriter(out, m)
    bots: list[Bot] = [GreedyBot(), RandomBot(1)]
    sizes = []
    while (seat := m.to_act) is not None:
        assert m.hand is not None
        m.apply(bots[seat].choose(m.hand.observation(seat), m.legal_actions()))
        writer.sync()
        sizes.append(len(out.getvalue()))
    assert sizes == sorted(sizes) and len(set(sizes)) > m.number  # it grew as the game went
    assert out.flushes == m.number + 1  # every hand end, and the trailer
    assert out.getvalue() == write_log(m)


# --- LOG-6: tampering ----------------------------------------------------------------------------------


def first_seal_at_or_after(body: list[bytes], i: int) -> int:
    values = [v for v, _ in unpacked(io.BytesIO(b"".join(body)))]
    return next(k for k in range(i, len(values)) if isinstance(values[k], list) and values[k][0] in (8, 9)) + 1


@pytest.mark.rule("LOG-6")
def test_every_changed_byte_is_detected() -> None:
    data = write_log(game("standard", 9))
    for pos in range(0, len(data), 7):
        for delta in (1, 0x80):
            bad = bytearray(data)
            bad[pos] = (bad[pos] + delta) % 256
            report = verify(bytes(bad))
            assert not report.ok, f"byte {pos} changed and not detected"
            assert report.error_record is not None


@pytest.mark.rule("LOG-6")
@pytest.mark.parametrize("damage", ["delete", "insert", "duplicate", "swap"])
def test_record_level_tampering_is_detected_by_the_chain(damage: str) -> None:
    data = write_log(game("three_handed", 10))
    head, body = split(data)
    for i in range(0, len(body) - 2, 3):
        parts = list(body)
        if damage == "delete":
            del parts[i]
        elif damage == "insert":
            parts.insert(i, pack(2))
        elif damage == "duplicate":
            parts.insert(i, parts[i])
        else:
            parts[i], parts[i + 1] = parts[i + 1], parts[i]
            if parts[i] == parts[i + 1]:
                continue
        report = verify(head + b"".join(parts))
        assert not report.ok, f"{damage} at record {i + 1} not detected"
        assert report.error_record is not None and report.error_record >= 1


@pytest.mark.rule("LOG-6")
def test_a_changed_record_is_reported_at_the_next_checkpoint_when_it_breaks_no_rule() -> None:
    header, body = records(write_log(game("standard", 12)))
    data = reseal(header, body)
    _, parts = split(data)
    i = next(k for k, r in enumerate(body) if isinstance(r, list) and r[0] == T_RESULT)
    # Swap the meta of the header: no rule is broken, but the chain from record 0 on is different.
    tampered_header = dict(header)
    tampered_header["meta"] = {"note": "edited"}
    with pytest.raises(LogTampered) as info:
        Replayer(pack(tampered_header) + b"".join(parts)).run()
    assert info.value.rule == "LOG-6" and info.value.record == i + 2  # the first checkpoint


# --- LOG-7: truncation ---------------------------------------------------------------------------------


@pytest.mark.rule("LOG-7")
def test_truncation_anywhere_is_reported_after_the_complete_records() -> None:
    data = write_log(game("standard", 13))
    head, body = split(data)
    boundaries = {len(head) + sum(len(p) for p in body[:k]) for k in range(len(body) + 1)}
    for cut in range(1, len(data), 5):
        reader_ok = 0
        with pytest.raises(LogError) as info:
            reader = LogReader(data[:cut])
            for _ in reader.entries():
                reader_ok += 1
        err = info.value
        assert err.rule in ("LOG-7", "LOG-1"), err
        if err.rule == "LOG-7" and cut > len(head):
            assert isinstance(err, LogTruncated)
            complete = max(k for k in range(len(body) + 1) if len(head) + sum(len(p) for p in body[:k]) <= cut)
            assert reader_ok == complete
            assert err.record == complete + 1
        assert (cut in boundaries) or err.rule in ("LOG-7", "LOG-1")


@pytest.mark.rule("LOG-7")
def test_nothing_may_follow_the_trailer() -> None:
    data = write_log(game("standard", 14))
    report = verify(data + pack(2))
    assert not report.ok and report.error_rule == "LOG-7"


# --- LOG-9: determinism --------------------------------------------------------------------------------

SCRIPT = """
import hashlib
from knock.bots import GreedyBot, RandomBot, play_match
from engine.match import Match
from engine.rules import RuleSet
from replay.log import write_log
for preset in ("standard", "oklahoma", "three_handed"):
    r = RuleSet.preset(preset)
    m = play_match(Match.new(r, seed=21), [GreedyBot(), RandomBot(2), GreedyBot()][: r.players])
    print(hashlib.sha256(write_log(m, meta={"b": 1, "a": [1, 2]})).hexdigest())
"""


@pytest.mark.rule("LOG-9")
def test_identical_games_give_identical_bytes_in_any_process() -> None:
    outs = set()
    for hashseed in ("0", "7", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=ROOT)
        assert done.returncode == 0, done.stderr
        outs.add(done.stdout)
    assert len(outs) == 1 and len(outs.pop().split()) == 3


# --- hostile bytes: fuzzing ------------------------------------------------------------------------------

GOLDEN = write_log(game("three_handed", 15))


@pytest.mark.rule("LOG-2", "LOG-7")
@given(st.binary(max_size=400))
def test_random_bytes_end_in_a_log_error(data: bytes) -> None:
    report = verify(data)
    assert not report.ok and report.error and report.error_record is not None


@pytest.mark.rule("LOG-2", "LOG-6", "LOG-7", "LOG-8")
@given(st.lists(st.tuples(st.integers(0, len(GOLDEN) - 1), st.integers(0, 255)), min_size=1, max_size=4))
def test_mutated_golden_logs_end_in_a_log_error(edits: list[tuple[int, int]]) -> None:
    bad = bytearray(GOLDEN)
    for pos, byte in edits:
        bad[pos] = byte
    report = verify(bytes(bad))  # never raises: every damage ends in a report naming the record
    if bytes(bad) != GOLDEN:
        assert not report.ok and report.error_record is not None


# --- LOG-10: shuffle commitments ---------------------------------------------------------------------------


@pytest.mark.rule("LOG-10")
@pytest.mark.parametrize("preset", PRESETS)
def test_commitments_round_trip_and_are_reproducible(preset: str) -> None:
    played = game(preset, 16)
    data = write_log(played, commit_key=b"server secret")
    assert data == write_log(played, commit_key=b"server secret")
    assert data != write_log(played, commit_key=b"another secret")
    header, body = records(data)
    assert header["commitments"] is True
    kinds = [r[0] for r in body if isinstance(r, list)]
    assert kinds.count(T_COMMIT) == kinds.count(T_REVEAL) == played.number
    report = verify(data)
    assert report.ok, report.error
    assert Replayer(data).run().events == played.events


@pytest.mark.rule("LOG-10")
def test_a_wrong_salt_or_deck_breaks_the_commitment_even_with_valid_digests() -> None:
    header, body = records(write_log(game("standard", 17), commit_key=b"k"))
    i = next(k for k, r in enumerate(body) if isinstance(r, list) and r[0] == T_REVEAL)
    forged = list(body)
    forged[i] = [T_REVEAL, b"not the salt"]
    with pytest.raises(ReplayError, match="LOG-10") as info:
        Replayer(reseal(header, forged)).run()
    assert info.value.record == i + 1
    j = next(k for k, r in enumerate(body) if isinstance(r, list) and r[0] == T_COMMIT)
    forged = list(body)
    forged[j] = [T_COMMIT, bytes(32)]
    with pytest.raises(ReplayError, match="LOG-10"):
        Replayer(reseal(header, forged)).run()


@pytest.mark.rule("LOG-10")
def test_missing_or_undeclared_commitments_are_rejected() -> None:
    header, body = records(write_log(game("standard", 18), commit_key=b"k"))
    no_reveal = [r for r in body if not (isinstance(r, list) and r[0] == T_REVEAL)]
    with pytest.raises(ReplayError, match="LOG-10"):
        Replayer(reseal(header, no_reveal)).run()
    no_commit = [r for r in body if not (isinstance(r, list) and r[0] == T_COMMIT)]
    with pytest.raises(ReplayError, match="LOG-10"):
        Replayer(reseal(header, no_commit)).run()
    undeclared = dict(header)
    del undeclared["commitments"]
    with pytest.raises(ReplayError, match="LOG-10"):
        Replayer(reseal(undeclared, body)).run()


@pytest.mark.rule("LOG-1")
def test_the_writer_refuses_a_header_it_could_not_read_back() -> None:
    played = game("standard", 19)
    with pytest.raises(LogError, match="LOG-1"):
        write_log(played, players=["only one"])
    with pytest.raises(LogError, match="LOG-1"):
        write_log(played, meta={"seed": 10**30})
