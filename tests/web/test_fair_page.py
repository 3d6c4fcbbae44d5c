"""The page's fair-dealing check against a malicious server (issue #57's 1.3 hotfix): Node runs the page's own
modules (``knock/web/static/js/fairseat.js``, ``fair.js``) on forged frames — a second commitment for a hand, a seed
acknowledged then dropped, a reload with and without what the page kept, a seed that matches no commitment — and
the page must fail each hand the server cheated on, and pass the honest ones (PROTO-36, PROTO-37, PROTO-39, DEAL-9).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def checks() -> dict[str, Any]:
    node = shutil.which("node")
    assert node is not None, "the page's modules run in Node 20 (globalThis.crypto.subtle)"
    run = subprocess.run([node, str(ROOT / "tests" / "support" / "fair_seat.mjs")], capture_output=True, text=True,
                         timeout=60)  # fmt: skip
    assert run.returncode == 0, run.stderr + run.stdout
    found: dict[str, Any] = json.loads(run.stdout)
    return found


@pytest.mark.rule("PROTO-39", "DEAL-9", "DEAL-10")
def test_an_honest_server_passes_with_and_without_storage_and_across_a_reload(checks: dict[str, Any]) -> None:
    for name in ("honest", "reload", "no_storage"):
        assert checks[name]["ok"], (name, checks[name])
        assert "matches the commitment it sent before the seats' seeds" in checks[name]["text"]
    assert checks["reload_resend"] is None, "a reloaded page sends no second seed for a hand it has sent one for"


@pytest.mark.rule("PROTO-36", "DEAL-9")
def test_a_second_commitment_for_a_hand_fails_it_even_after_a_reload(checks: dict[str, Any]) -> None:
    assert checks["recommit_answer"] is None, "no seed goes out for a changed commitment"
    for name in ("recommit", "reload_recommit"):
        assert not checks[name]["ok"] and "(DEAL-9)" in checks[name]["text"], checks[name]
        assert "second, different commitment" in checks[name]["text"]


@pytest.mark.rule("PROTO-37", "DEAL-9")
def test_a_seed_acknowledged_then_supplied_fails(checks: dict[str, Any]) -> None:
    assert (
        not checks["dropped"]["ok"]
        and "acknowledged your seed and then dealt from a seed it supplied" in (checks["dropped"]["text"])
    )


@pytest.mark.rule("PROTO-36", "DEAL-9", "DEAL-5")
def test_a_page_that_lost_what_it_saw_does_not_claim_the_order(checks: dict[str, Any]) -> None:
    assert (
        not checks["lost"]["ok"]
        and "did not see the server's commitment before the seats' seeds" in (checks["lost"]["text"])
    )
    assert (
        not checks["lost_gathering"]["ok"]
        and "refused this page's seed as a second one" in (checks["lost_gathering"]["text"])
    )
    for name in ("lost", "lost_gathering"):
        assert "matches the commitment" not in checks[name]["text"]


@pytest.mark.rule("DEAL-9")
def test_a_server_seed_that_matches_no_commitment_fails(checks: dict[str, Any]) -> None:
    assert not checks["unmatched"]["ok"] and "does not match its commitment" in checks["unmatched"]["text"]


@pytest.mark.rule("PROTO-39", "DEAL-10", "MATCH-2")
def test_the_draw_for_the_deal_is_checked_from_its_fields(checks: dict[str, Any]) -> None:
    """1.4: the draw's cards reach a client in every view's ``draw``; the page checks them against the first hand's
    seeds (DEAL-8), and a draw the seeds did not give fails the hand (DEAL-10)."""
    assert checks["draw_honest"]["ok"] and "the draw for the deal" in checks["draw_honest"]["text"]
    forged = checks["draw_forged"]
    assert not forged["ok"] and "(DEAL-10)" in forged["text"] and "draw for the deal is not" in forged["text"]
