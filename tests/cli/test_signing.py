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
    assert run("redact", str(log), "--seat", "1", "-o", str(view), "--key", str(keys / "other")).returncode == 0
    assert run("verify", str(view), "--key", str(keys / "other.pub")).returncode == 0
    assert run("verify", str(view), "--key", str(keys / "k.pub")).returncode == 1
