"""spec/notation.md: the grammar, its examples and the one reader agree, and every action the engine makes prints
and reads back to itself."""

from __future__ import annotations

import functools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import notation
from engine.actions import Action, Advise, MatchAction, parse_action, parse_match_action
from engine.cards import Card
from engine.errors import KnockError, NotationError
from engine.match import Match
from engine.melds import Meld
from engine.rules import PRESETS, RuleSet

ROOT = Path(__file__).resolve().parents[2]
SPEC = (ROOT / "spec" / "notation.md").read_text(encoding="utf-8")
EXAMPLES: list[dict[str, Any]] = json.loads((ROOT / "spec" / "notation-examples.json").read_text("utf-8"))["examples"]
CARD_PRODUCTIONS = {"card", "rank", "suit"}
ABNF_CORE = {"DIGIT": "[0-9]"}


# --- the grammar of spec/notation.md, run as it is written ------------------------------------------------------


def grammar() -> dict[str, str]:
    """The ABNF rules of spec/notation.md's grammar block, by name (comments dropped, continuation lines joined)."""
    block = re.search(r"```abnf\n(.*?)```", SPEC, flags=re.DOTALL)
    assert block, "spec/notation.md has no ```abnf block"
    rules: dict[str, str] = {}
    name = None
    for raw in block.group(1).splitlines():
        line = raw.split(";")[0]  # no quoted string of the grammar holds a semicolon
        if not line.strip():
            continue
        m = re.match(r"^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$", line)
        if m:
            name = m.group(1)
            assert name not in rules, f"the grammar defines {name} twice"
            rules[name] = m.group(2).strip()
        else:
            assert name is not None and line.startswith((" ", "\t")), f"not an ABNF line: {raw!r}"
            rules[name] += " " + line.strip()
    return rules


_TOKEN = re.compile(r'\s*(?:(?P<str>"[^"]*")|(?P<hex>%x[0-9A-Fa-f]+(?:-[0-9A-Fa-f]+)?)|(?P<rep>\d*\*\d*)'
                    r"|(?P<name>[A-Za-z][A-Za-z0-9-]*)|(?P<op>[()\[\]/]))")  # fmt: skip


def to_regex(rules: dict[str, str], name: str, seen: tuple[str, ...] = ()) -> str:
    """A rule of the grammar as a Python regular expression (the grammar is regular: no rule refers to itself)."""
    if name in ABNF_CORE:
        return ABNF_CORE[name]
    assert name in rules, f"the grammar uses {name} and does not define it"
    assert name not in seen, f"the grammar is recursive at {name}"
    tokens = []
    text = rules[name]
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        assert m and m.end() > pos, f"{name}: cannot read {text[pos:]!r}"
        tokens.append((m.lastgroup, m.group(m.lastgroup or "")))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    out, rest = _alternation(tokens, rules, (*seen, name))
    assert not rest, f"{name}: unexpected {rest}"
    return out


Tok = tuple[str | None, str]


def _alternation(toks: list[Tok], rules: dict[str, str], seen: tuple[str, ...]) -> tuple[str, list[Tok]]:
    parts = []
    part, toks = _concatenation(toks, rules, seen)
    parts.append(part)
    while toks and toks[0] == ("op", "/"):
        part, toks = _concatenation(toks[1:], rules, seen)
        parts.append(part)
    return "(?:" + "|".join(parts) + ")", toks


def _concatenation(toks: list[Tok], rules: dict[str, str], seen: tuple[str, ...]) -> tuple[str, list[Tok]]:
    out = ""
    while toks and toks[0] not in (("op", "/"), ("op", ")"), ("op", "]")):
        low, high = 1, 1
        if toks[0][0] == "rep":
            a, _, b = toks[0][1].partition("*")
            low, high = int(a or 0), (int(b) if b else -1)
            toks = toks[1:]
        kind, value = toks[0]
        toks = toks[1:]
        if kind == "str":
            element = "(?i:" + re.escape(value[1:-1]) + ")"
        elif kind == "hex":
            a, _, b = value[2:].partition("-")
            element = f"[\\x{int(a, 16):02x}-\\x{int(b or a, 16):02x}]"
        elif kind == "name":
            element = "(?:" + to_regex(rules, value, seen) + ")"
        elif value in "([":
            element, toks = _alternation(toks, rules, seen)
            assert toks and toks[0] == ("op", ")" if value == "(" else "]"), f"unclosed {value}"
            toks = toks[1:]
            element = element if value == "(" else element + "?"
        else:
            raise AssertionError(f"unexpected {value!r}")
        out += element if (low, high) == (1, 1) else f"(?:{element}){{{low},{'' if high < 0 else high}}}"
    return out, toks


@functools.cache
def compiled(production: str) -> re.Pattern[str]:
    return re.compile(to_regex(grammar(), production))


def matches(production: str, text: str) -> bool:
    return compiled(production).fullmatch(text) is not None


def start(example: dict[str, Any]) -> str:
    """The production an example's whole text is read as: a card, a meld, or an action's text."""
    if example["production"] in CARD_PRODUCTIONS:
        return "card"
    return "meld" if example["production"] == "meld" else "action-text"


# --- the examples --------------------------------------------------------------------------------------------------


def _printed(action: MatchAction) -> str:
    return f"p{action.seat} {action}"


def _rule(call: Any) -> str:
    with pytest.raises(KnockError) as err:
        call()
    return err.value.rule


@pytest.mark.rule("NOTE-1", "NOTE-2", "NOTE-3", "NOTE-4", "NOTE-5", "NOTE-6", "NOTE-7", "NOTE-8", "NOTE-10")
@pytest.mark.parametrize("example", EXAMPLES, ids=[repr(e["text"]) for e in EXAMPLES])
def test_every_example_reads_as_stated(example: dict[str, Any]) -> None:
    text, seat, kind = example["text"], example.get("seat"), start(example)
    parsed, refused = example.get("parse"), example.get("refused")
    assert parsed is not None or refused is not None, "an example states what it reads as, or what refuses it"
    if kind == "card":
        if parsed is None:
            assert _rule(lambda: notation.card_index(text)) == refused == _rule(lambda: Card.parse(text))
        else:
            assert notation.card_text(notation.card_index(text)) == parsed
    elif kind == "meld":
        if parsed is None:
            assert _rule(lambda: notation.meld_cards(text)) == refused == _rule(lambda: Meld.parse(text))
        else:
            assert [notation.card_text(c) for c in notation.meld_cards(text)] == parsed
            if refused is not None:
                assert _rule(lambda: Meld.parse(text)) == refused
    elif parsed is None:
        assert str(refused).startswith("NOTE-")
        assert _rule(lambda: notation.parse(text)) == refused
        assert _rule(lambda: parse_match_action(text, seat)) == refused  # the engine's reader is the same
    else:
        assert notation.parse(text).to_json() == parsed
        if refused is not None:
            assert _rule(lambda: parse_match_action(text, seat)) == refused
    if "canonical" in example:
        canonical = example["canonical"]
        if kind == "card":
            assert str(Card.parse(text)) == canonical
        elif kind == "meld":
            assert str(Meld.parse(text)) == canonical
        else:
            action = parse_match_action(text, seat)
            assert _printed(action) == canonical
            assert parse_match_action(canonical) == action and _printed(parse_match_action(canonical)) == canonical


@pytest.mark.rule("NOTE-1", "NOTE-10")
@pytest.mark.parametrize("example", EXAMPLES, ids=[repr(e["text"]) for e in EXAMPLES])
def test_the_grammar_as_written_accepts_what_the_reader_accepts(example: dict[str, Any]) -> None:
    """The ABNF of notation.md, run as a regular expression: it matches every text the reader accepts and no text
    the reader refuses under a NOTE rule (a refusal after reading, MELD-1 say, is of a text in the notation)."""
    accepted = "parse" in example
    assert matches(start(example), example["text"]) == accepted, example


_SEATS = ["", "p0", "p2", "P1", "p10"]
_VERBS = ["take", "PASS", "draw", "pickup", "big-gin", "biggin", "decline", "discard", "knock", "spread", "layoff",
          "advise", "shout", ""]  # fmt: skip
_ARGS = ["p1", "draw", "Kh", "Kh", "As", "10d", "td", "Xx", "1s", "Kh,", "9s", "4c-5c-6c", "7h-7d-7c", "7c-7d",
         "4c--5c", "-4c", "7c>4c-5c-6c", "8c>4c-5c-6c", "7c>", ">4c-5c", "7c>>4c"]  # fmt: skip
_SEPARATORS = [" ", " ", " ", "  ", "\t", "\r\n", "\u00a0", ""]


@pytest.mark.rule("NOTE-1", "NOTE-10")
@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_SEATS), st.sampled_from(_VERBS), st.lists(st.sampled_from(_ARGS), max_size=4),
       st.lists(st.sampled_from(_SEPARATORS), min_size=8, max_size=8))  # fmt: skip
def test_the_grammar_and_the_reader_agree_on_random_texts(
    seat: str, verb: str, args: list[str], seps: list[str]
) -> None:
    """Texts strung together from words good and bad: the ABNF matches exactly those the reader accepts."""
    words = [w for w in (seat, verb, *args) if w]
    text = seps[0] + "".join(w + sep for w, sep in zip(words, seps[1:], strict=False))
    try:
        notation.parse(text)
        accepted = True
    except NotationError:
        accepted = False
    assert matches("action-text", text) == accepted, text


@pytest.mark.rule("NOTE-1")
def test_every_production_has_an_example_and_every_example_names_one() -> None:
    rules = grammar()
    named = {e["production"] for e in EXAMPLES}
    assert named <= set(rules), f"examples name productions the grammar lacks: {sorted(named - set(rules))}"
    assert set(rules) <= named, f"productions with no example: {sorted(set(rules) - named)}"


@pytest.mark.rule("NOTE-1", "NOTE-10")
def test_every_note_rule_is_in_the_grammar_and_every_refusal_has_an_example() -> None:
    ids = re.findall(r"^- \*\*(NOTE-\d+)\*\* — ", SPEC, flags=re.MULTILINE)
    assert ids == [f"NOTE-{i}" for i in range(1, len(ids) + 1)]
    commented = set(re.findall(r"; (NOTE-\d+):", SPEC))
    assert commented == {f"NOTE-{i}" for i in (*range(1, 9), 11)}, "each rule of the grammar heads its productions"
    refusals = {e["refused"] for e in EXAMPLES if "refused" in e}
    raised = set(re.findall(r'"(NOTE-\d+): ', (ROOT / "engine" / "notation.py").read_text("utf-8")))
    raised |= set(re.findall(r'"(NOTE-\d+): ', (ROOT / "engine" / "actions.py").read_text("utf-8")))
    assert raised - {"NOTE-1"} <= refusals, f"refusals with no example: {sorted(raised - refusals)}"
    assert refusals <= set(ids) | {"MELD-1", "MELD-2"}


@pytest.mark.rule("NOTE-8")
def test_a_hand_takes_no_advice_and_a_value_that_is_no_text_is_refused() -> None:
    with pytest.raises(NotationError) as err:
        parse_action("p2 advise p1 draw")
    assert err.value.rule == "NOTE-8"
    with pytest.raises(NotationError) as err:
        notation.parse(7)  # type: ignore[arg-type]
    assert err.value.rule == "NOTE-1"


# --- every action the engine makes prints and reads back -----------------------------------------------------------


def _round_trip(action: MatchAction) -> None:
    text = str(action)
    words = notation.words(text)
    assert text == " ".join(words) and words[0] == words[0].lower(), text  # one space a word, lower-case verbs
    again = parse_match_action(_printed(action))
    assert again == action and str(again) == text, (action, again)
    assert parse_match_action(text, action.seat) == action  # the protocol's form: the seat from the context
    if not isinstance(action, Advise):
        assert parse_action(_printed(action)) == action


@pytest.mark.rule("NOTE-9")
@settings(max_examples=12, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 2**32 - 1))
def test_every_legal_action_in_random_games_prints_and_reads_back(preset: str, seed: int) -> None:
    rng = random.Random(seed)
    match = Match.new(RuleSet.preset(preset), seed=seed)
    seen = 0
    for _ in range(600):
        if match.is_over or match.to_act is None:
            break
        legal: list[Action] = match.legal_actions()
        for action in [*legal, *match.advice_options()]:
            _round_trip(action)
            seen += 1
        match.apply(rng.choice(legal))
    assert seen > 0
