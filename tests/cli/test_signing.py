"""``knock keygen``, and ``--key`` on simulate, demo, redact and verify; ``--digest``/``--digests``
(LOG-17, LOG-18, LOG-19)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from replay.log import LogReader
from replay.signing import load_public_key, load_signing_key
from replay.verdict import judge
from tests.cli.support import run


@pytest.fixture
def keys(tmp_path: Path) -> Path:
    done = run("keygen", "-o", str(tmp_path / "k"), "--json")
    assert done.returncode == 0, done.stderr
    made = json.loads(done.stdout)
    assert load_public_key(str(tmp_path / "k.pub")).hex() == made["key"]
    assert stat.S_IMODE((tmp_path / "k").stat().st_mode) == 0o600
    assert run("keygen", "-o", str(tmp_path / "k")).returncode == 2  # an existing key is never overwritten
    assert run("keygen", "-o", str(tmp_path / "other")).returncode == 0
    return tmp_path


@pytest.mark.rule("LOG-17", "LOG-19")
def test_simulate_signs_every_log_and_verify_requires_the_key(keys: Path) -> None:
    logs = keys / "sim"
    done = run("simulate", "--games", "3", "--bots", "greedy,random", "--logs", str(logs), "--key", str(keys / "k"),
               "--jobs", "1", "-q")  # fmt: skip
    assert done.returncode == 0, done.stderr
    public = load_signing_key(keys / "k").public
    files = sorted(logs.glob("*.knock"))
    assert len(files) == 3 and all(LogReader(f.read_bytes()).header.signer == public for f in files)
    assert run("verify", str(logs), "--key", str(keys / "k.pub"), "-q").returncode == 0
    other = run("verify", str(logs), "--key", str(keys / "other.pub"), "--json")
    assert other.returncode == 1
    assert {json.loads(line)["rule"] for line in other.stdout.splitlines()} == {"LOG-19"}
    assert run("simulate", "--games", "1", "--key", str(keys / "k")).returncode == 2  # no logs to sign


@pytest.mark.rule("LOG-19")
def test_verify_against_published_digests(keys: Path) -> None:
    log = keys / "g.knock"
    assert run("demo", "--seed", "2", "-q", "--key", str(keys / "k"), "-o", str(log)).returncode == 0
    digest = judge(log.read_bytes()).digest
    assert digest is not None
    assert run("verify", str(log), "--digest", digest.hex()).returncode == 0
    assert run("verify", str(log), "--digest", "00" * 32).returncode == 1
    listed = keys / "digests.txt"
    listed.write_text(f"# published\n{'11' * 32}  other\n\n{digest.hex()}  g\n")
    assert run("verify", str(log), "--digests", str(listed), "--key", str(keys / "k.pub")).returncode == 0
    listed.write_text("not a digest\n")
    refused = run("verify", str(log), "--digests", str(listed))
    assert refused.returncode == 2 and "LOG-19" in refused.stderr


@pytest.mark.rule("LOG-17", "LOG-11", "LOG-18")
def test_a_key_file_that_is_not_one_is_refused_naming_the_rule(keys: Path) -> None:
    log = keys / "g.knock"
    assert run("demo", "--seed", "2", "-q", "-o", str(log)).returncode == 0
    (keys / "junk").write_bytes(b"\x00\xff" * 10)
    (keys / "pointless.pub").write_text("knock-ed25519-public-key " + "ff" * 32 + "\n")
    refusals = [
        ("verify", str(log), "--key", str(keys / "junk")),
        ("verify", str(log), "--key", str(keys / "pointless.pub")),
        ("verify", str(log), "--key", str(keys / "missing")),
        ("demo", "-q", "--key", str(keys / "k.pub"), "-o", str(keys / "x.knock")),
        ("redact", str(log), "--seat", "0", "-o", str(keys / "v.knock"), "--key", str(keys / "junk")),
    ]
    for args in refusals:
        done = run(*args)
        assert done.returncode == 2 and "LOG-17" in done.stderr, (args, done.stderr)
    view = keys / "v.knock"
    made = run("redact", str(log), "--seat", "1", "-o", str(view), "--key", str(keys / "other"))
    assert made.returncode == 2 and "LOG-23" in made.stderr and "--table" in made.stderr  # which game it is of
    assert run("redact", str(log), "--seat", "1", "-o", str(view), "--key", str(keys / "other"), "--table", "g1",
               "--time", "1800000000").returncode == 0  # fmt: skip
    checked = run("verify", str(view), "--key", str(keys / "other.pub"))
    assert checked.returncode == 0 and "for table 'g1' at 2027-01-15T08:00:00Z" in checked.stdout, checked.stdout
    assert run("verify", str(view), "--key", str(keys / "k.pub")).returncode == 1
    unsigned = run("redact", str(log), "--seat", "1", "-o", str(view), "--force", "--table", "g1")
    assert unsigned.returncode == 2 and "LOG-23" in unsigned.stderr


@pytest.mark.rule("LOG-17")
def test_keygen_force_replaces_and_never_writes_through_a_link(tmp_path: Path) -> None:
    secret = tmp_path / "k"
    secret.write_text("old\n")
    secret.chmod(0o644)
    assert run("keygen", "-o", str(secret)).returncode == 2 and secret.read_text() == "old\n"
    assert run("keygen", "-o", str(secret), "--force").returncode == 0
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600 and secret.read_text().startswith("knock-ed25519-secret-key")
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep\n")
    linked = tmp_path / "linked"
    linked.symlink_to(target)
    assert run("keygen", "-o", str(linked)).returncode == 2  # a link is an existing file
    assert run("keygen", "-o", str(linked), "--force").returncode == 0
    assert target.read_text() == "keep\n" and not linked.is_symlink()  # the link replaced, its target untouched
    assert stat.S_IMODE(linked.stat().st_mode) == 0o600
    assert not list(tmp_path.glob(".*.tmp"))  # no temporary file left behind


@pytest.mark.rule("LOG-17")
def test_a_secret_key_others_may_read_signs_nothing(keys: Path) -> None:
    (keys / "k").chmod(0o644)
    done = run("demo", "-q", "--key", str(keys / "k"), "-o", str(keys / "x.knock"))
    assert done.returncode == 2 and "LOG-17" in done.stderr and "mode 0644" in done.stderr, done.stderr
    assert not (keys / "x.knock").exists()
    (keys / "k").chmod(0o640)
    assert "mode 0640" in run("demo", "-q", "--key", str(keys / "k"), "-o", str(keys / "x.knock")).stderr
    (keys / "k").chmod(0o600)
    assert run("demo", "-q", "--key", str(keys / "k"), "-o", str(keys / "x.knock")).returncode == 0


@pytest.mark.rule("LOG-17")
def test_a_verifier_refuses_a_secret_key_and_keys_of_small_order(keys: Path) -> None:
    log = keys / "g.knock"
    assert run("demo", "--seed", "2", "-q", "-o", str(log), "--key", str(keys / "k")).returncode == 0
    secret = run("verify", str(log), "--key", str(keys / "k"))
    assert secret.returncode == 2 and "secret key file" in secret.stderr and "LOG-17" in secret.stderr
    vectors = json.loads((Path(__file__).resolve().parents[2] / "spec" / "signature-vectors.json").read_text())
    small = [v["public"] for v in vectors["negative"] if v["why"].startswith("a key of small order")]
    for public in small:
        done = run("verify", str(log), "--key", public)
        assert done.returncode == 2 and "small order" in done.stderr, done.stderr
    forged = next(v for v in vectors["logs"] if "neutral point" in v["why"])
    (keys / "forged.knock").write_bytes(bytes.fromhex(forged["log"]))
    out = run("verify", str(keys / "forged.knock"), "--json")
    assert out.returncode == 1 and json.loads(out.stdout)["rule"] == "LOG-17"


@pytest.mark.rule("LOG-18", "LOG-13")
def test_verify_says_how_far_an_unfinished_signed_log_is_signed(keys: Path) -> None:
    log = keys / "g.knock"
    assert run("demo", "--seed", "2", "-q", "-o", str(log), "--key", str(keys / "k")).returncode == 0
    data = log.read_bytes()
    entries = list(LogReader(data).entries())
    last_seal = [e.index for e in entries if isinstance(e.record, list) and e.record[0] == 8][-1]
    cut = len(data) - sum(e.size for e in entries[last_seal + 1 :])  # through the record after the last seal
    (keys / "cut.knock").write_bytes(data[:cut])
    text = run("verify", str(keys / "cut.knock"))
    assert text.returncode == 3
    assert f"signed through record {last_seal}: records {last_seal + 1} … {last_seal + 1} carry no signature" in (
        text.stdout.replace("\n", " ")
    ), text.stdout
    line = json.loads(run("verify", str(keys / "cut.knock"), "--json").stdout)
    assert (line["verdict"], line["record"], line["signed_through"]) == ("unfinished", last_seal + 1, last_seal)
