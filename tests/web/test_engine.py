"""``knock engine``: the protocol as JSON lines over a subprocess's standard input and output."""

from __future__ import annotations

import base64
import json
import random
import subprocess
import sys
from typing import Any

import pytest

from knock.web.client import choose
from knock.web.protocol import PROTOCOL
from replay.verdict import judge
from tests.web.support import valid


class Engine:
    """``knock engine`` in a subprocess, one line in, its answers out (each validated)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "knock.cli", "engine"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)  # fmt: skip
        self.lines = 0

    def say(self, message: dict[str, Any] | str) -> list[dict[str, Any]]:
        """Send a line; its answers, read up to the ``done`` that ends them (PROTO-15)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        self.proc.stdin.flush()
        self.lines += 1
        out: list[dict[str, Any]] = []
        while True:
            frame = valid(json.loads(self.proc.stdout.readline()))
            if frame["type"] == "done":
                assert frame == {"type": "done", "line": self.lines}
                return out
            assert frame["type"] != "error" or frame["close"] is False  # nothing closes on knock engine
            out.append(frame)

    def close(self) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        assert self.say({"type": "quit"}) == []  # answered by its done alone, then the end
        assert self.proc.stdout.read() == ""
        self.proc.stdin.close()
        return self.proc.wait(timeout=30)


@pytest.mark.rule("PROTO-15", "PROTO-10", "PROTO-22", "THREE-1")
def test_a_whole_three_handed_game_through_knock_engine() -> None:
    engine = Engine()
    seats = [{"player": "human", "name": "ann"}, {"player": "human", "name": "bob"}, {"player": "bot"}]
    frames = engine.say({"type": "new", "protocol": list(PROTOCOL), "preset": "three_handed", "seed": 21,
                         "options": {"target": 60}, "seats": seats})  # fmt: skip
    assert frames[0]["type"] == "started" and frames[0]["players"] == ["ann", "bob", "heuristic#2"]
    latest = {f["seat"]: f for f in frames if f["type"] == "view"}
    assert set(latest) == {0, 1}
    rng = random.Random(4)
    results, acts = 0, 0
    while True:
        to_act = next((v for v in latest.values() if v["legal"] and not v["legal"][0].startswith("advise")), None)
        if to_act is None:
            break
        action = choose(to_act, rng)
        assert action is not None
        frames = engine.say({"type": "act", "seat": to_act["seat"], "action": action, "record": to_act["record"]})
        assert frames[0]["type"] == "ack", frames[0]
        acts += 1
        results += sum(f["type"] == "hand_result" for f in frames)
        latest.update({f["seat"]: f for f in frames if f["type"] == "view"})
        if frames[-1]["type"] == "log_offered":
            break
    assert frames[-1]["type"] == "log_offered" and frames[-1]["verdict"] == "pass" and results >= 2
    assert [f.get("seat") for f in frames if f["type"] == "game_result"] == [0, 1]  # once per human seat (PROTO-10)
    last = frames[-2]["record"]
    after = engine.say({"type": "act", "seat": 0, "action": "draw", "record": last})  # the game is over (PROTO-22)
    assert [(f["type"], f["rule"]) for f in after] == [("refusal", "MATCH-1")]
    log = engine.say({"type": "log"})[0]
    data = base64.b64decode(log["data"])
    verdict = judge(data)
    assert verdict.kind == "pass" and log["digest"] == verdict.digest.hex() and verdict.hands >= 2  # type: ignore[union-attr]
    assert acts > 20 and engine.close() == 0


@pytest.mark.rule("PROTO-15", "PROTO-11", "PROTO-21", "PROTO-35")
def test_every_line_gets_an_answer_and_nothing_ends_the_engine() -> None:
    engine = Engine()
    assert engine.say("this is not json")[0]["code"] == "bad_json"
    assert engine.say({"type": "act", "seat": 0, "action": "draw", "record": 0})[0]["code"] == "no_game"
    assert engine.say({"type": "hello", "protocol": [1, 0], "table": "x", "token": "y"})[0]["code"] == "unknown_type"
    assert engine.say("")[0]["code"] == "bad_json" and engine.say("   ")[0]["code"] == "bad_json"
    long = engine.say("x" * 200_000)  # a line over the limit: refused, never read whole, and the engine goes on
    assert [(f["code"], f["rule"]) for f in long] == [("bad_message", "PROTO-15")] and "65,536" in long[0]["message"]
    assert engine.say({"type": "view"})[0]["code"] == "no_game"
    refused = engine.say({"type": "new", "protocol": [1, 0], "options": {"jokers": 2},
                          "seats": [{"player": "human"}, {"player": "bot"}]})  # fmt: skip
    assert [(f["type"], f["code"], f["rule"]) for f in refused] == [("error", "bad_table", "RULES-2")]
    three = engine.say({"type": "new", "protocol": [1, 0], "preset": "three_handed",
                        "seats": [{"player": "human"}, {"player": "bot"}]})  # fmt: skip
    assert [(f["code"], f["rule"]) for f in three] == [("bad_table", "PROTO-2")]
    fair = engine.say({"type": "new", "protocol": [1, 3], "fair": True, "seats": [{"player": "human"},
                                                                                 {"player": "bot"}]})  # fmt: skip
    assert [(f["code"], f["rule"], f["close"]) for f in fair] == [("bad_message", "PROTO-35", False)]
    other = engine.say({"type": "new", "protocol": [2, 0], "seats": [{"player": "human"}, {"player": "bot"}]})
    assert [(f["code"], f["close"]) for f in other] == [("unsupported_protocol", False)]
    started = engine.say({"type": "new", "protocol": [1, 0], "seed": 1, "seats": [{"player": "human"},
                                                                                  {"player": "human"}]})  # fmt: skip
    view = started[1]
    assert engine.say({"type": "act", "action": "pass", "record": view["record"]})[0]["code"] == "bad_message"
    wrong = engine.say({"type": "act", "seat": 1 - view["view"]["to_act"], "action": "pass", "record": view["record"]})
    assert wrong[0]["rule"] == "TURN-1"
    assert engine.say({"type": "view"})[0]["view"]["role"] == "spectator"
    assert engine.say({"type": "log"})[0]["verdict"] == "unfinished"
    assert engine.close() == 0


_KINDS = ["pass", "take", "draw", "pickup", "discard", "knock", "big-gin", "decline", "spread", "layoff", "advise"]


def _card(text: str) -> tuple[int, int]:
    return ("A23456789TJQK".index(text[0]), "cdhs".index(text[1]))


def _meld(text: str) -> tuple[int, int, int]:
    cards = text.split("-")
    return (*_card(cards[0]), len(cards))


def _order(action: str) -> tuple[Any, ...]:
    """PROTO-26's order of an action's text, written from the spec's words alone (not from the engine's key)."""
    words = action.split()
    if words[0] == "advise":
        return (_KINDS.index("advise"), _order(" ".join(words[2:])))
    kind = _KINDS.index(words[0])
    if words[0] in ("discard", "knock"):
        return (kind, _card(words[1]))
    if words[0] in ("spread", "layoff"):
        melds = [_meld(w) for w in words[1:] if ">" not in w]
        assert melds == sorted(melds), f"melds in canonical order: {action}"
        layoffs = [(_meld(w.split(">")[1]), _card(w.split(">")[0])) for w in words[1:] if ">" in w]
        return (kind, melds, layoffs)
    return (kind,)


@pytest.mark.rule("PROTO-26", "PROTO-5")
@pytest.mark.parametrize(("preset", "seed"), [("three_handed", 5), ("standard", 2), ("oklahoma", 9)])
def test_legal_comes_in_the_order_the_spec_gives(preset: str, seed: int) -> None:
    from knock.web.engine_io import Engine as InProcess  # the same engine, in this process: quicker

    engine = InProcess()
    seats = [{"player": "human"}] * (3 if preset == "three_handed" else 2)
    out, _ = engine.handle(json.dumps({"type": "new", "protocol": list(PROTOCOL), "preset": preset, "seed": seed,
                                       "options": {"target": 30}, "seats": seats}))  # fmt: skip
    latest = {f["seat"]: f for f in out if f["type"] == "view"}
    rng, kinds, checked = random.Random(seed), set(), 0
    for _ in range(3000):
        for v in latest.values():
            assert v["legal"] == sorted(v["legal"], key=_order), v["legal"]
            assert v["view"]["to_act"] == v["seat"] or all(a.startswith("advise") for a in v["legal"])
            kinds |= {a.split()[0] for a in v["legal"]}
            checked += len(v["legal"]) > 1
        to_act = next((v for v in latest.values() if v["legal"] and not v["legal"][0].startswith("advise")), None)
        if to_act is None:
            break
        out, _ = engine.handle(json.dumps({"type": "act", "seat": to_act["seat"], "action": choose(to_act, rng),
                                           "record": to_act["record"]}))  # fmt: skip
        latest.update({f["seat"]: f for f in out if f["type"] == "view"})
    assert {"pass", "take", "draw", "pickup", "discard", "knock", "spread", "layoff"} <= kinds and checked > 10
    assert preset != "three_handed" or "advise" in kinds
