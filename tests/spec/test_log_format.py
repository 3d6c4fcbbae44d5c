"""spec/log-format.md stands on its own: its options appendix lists every option of ``RuleSet``, and its worked
example, rebuilt from the prose alone, is byte for byte what Knock's writer produces."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pytest

from engine.cards import DECK, cards
from engine.match import Match
from engine.rules import DECK_DEFAULTS, LATER_DEFAULTS, PRESETS, RuleSet
from replay.codec import unpacked
from replay.log import write_log
from replay.verdict import judge

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "spec" / "log-format.md").read_text(encoding="utf-8")


def block(name: str) -> str:
    found = re.search(rf"<!-- generated: {name} -->\n(.*?)<!-- end generated: {name} -->", SPEC, re.DOTALL)
    assert found, f"spec/log-format.md has no generated {name} block"
    return found.group(1)


def example_bytes() -> tuple[bytes, list[int]]:
    """The example's bytes as the document shows them, and the offset each line claims."""
    data, offsets = bytearray(), []
    for line in block("example").splitlines():
        if re.match(r"^ *\d+  [0-9a-f]{2}( |$)", line):
            offsets.append(int(line[:6]))
            assert offsets[-1] == len(data), f"the line at offset {offsets[-1]} follows byte {len(data)}"
            data += bytes.fromhex(line[8:55])
    return bytes(data), offsets


@pytest.mark.rule("LOG-1", "LOG-2", "LOG-4", "LOG-6", "LOG-9")
def test_the_worked_example_rebuilt_from_its_description_is_what_the_writer_writes() -> None:
    shown, _ = example_bytes()
    # The prose: the draw Qs (p0) and Ks (p1); p1 deals; DEAL-3 order, the non-dealer p0 first; upcard Qh;
    # the stock Kc, then every other card in code order.
    p0, p1 = cards("As 2s 3s 4s 5h 6h 7h 9c 9d 9h"), cards("2c 3d 4c 6d 8s Tc Jd Qs Kh Ks")
    deck = [p0[i // 2] if i % 2 == 0 else p1[i // 2] for i in range(20)] + list(cards("Qh Kc"))
    deck += [c for c in DECK if c not in deck]
    match = Match.scripted(RuleSet.preset("standard", target=20), cuts=[cards("Qs Ks")], decks=[deck])
    match.play("p0 pass", "p1 pass", "p0 draw", "p0 knock Kc", "p0 spread As-2s-3s-4s 5h-6h-7h 9c-9d-9h")
    written = write_log(match, players=["p0", "p1"], engine="example")
    assert shown == written
    assert f"{len(written)} bytes" in block("example")
    verdict = judge(shown)
    assert verdict.kind == "pass" and verdict.scores == (98, 0) and verdict.winner == 0
    header, *records = [v for v, _ in unpacked(io.BytesIO(shown))]
    assert header["rules"] == RuleSet.preset("standard", target=20).to_dict()
    assert records[0] == [0, [0, 1], bytes([50, 51])] and records[2][1][20] == 37 and records[2][1][21] == 12


@pytest.mark.rule("LOG-1", "RULES-2")
def test_the_options_appendix_lists_every_option_in_the_headers_order() -> None:
    rows = [line for line in block("options").splitlines() if line.startswith("| ") and "`" in line.split("|")[2]]
    listed = [re.search(r"`(\w+)`", row.split("|")[2]).group(1) for row in rows]  # type: ignore[union-attr]
    fields = [f.name for f in dataclasses.fields(RuleSet)]
    assert listed == fields
    in_logs = [name for name in listed if name not in DECK_DEFAULTS]
    assert [n for n in in_logs if n not in LATER_DEFAULTS] == list(RuleSet().to_dict())  # the header's order (LOG-9)
    other = {"kisses": True, "claim_after": 60}  # a value off each later option's default
    assert set(other) == set(LATER_DEFAULTS)
    assert list(RuleSet().replace(**other).to_dict()) == in_logs
    for row, name in zip(rows, listed, strict=True):
        presets = [cell.strip().strip("`") for cell in row.strip("|").split("|")[3:]]
        assert len(presets) == len(PRESETS)
        for value, preset in zip(presets, PRESETS.values(), strict=True):
            wire = RuleSet.to_dict(preset).get(name, {**DECK_DEFAULTS, **LATER_DEFAULTS}.get(name))
            assert value == ("nil" if wire is None else str(wire).lower() if isinstance(wire, bool) else str(wire))


@pytest.mark.rule("LOG-1", "RULES-1")
@pytest.mark.parametrize("preset", list(PRESETS))
def test_an_option_left_out_of_a_header_takes_the_named_presets_value(preset: str) -> None:
    assert RuleSet.from_dict({"name": preset}) == PRESETS[preset]
    assert RuleSet.from_dict({"name": preset, "target": 50}) == PRESETS[preset].replace(target=50)
    assert RuleSet.from_dict({}) == PRESETS["standard"]
