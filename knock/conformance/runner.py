"""The conformance suite: read cases (spec/conformance.md), run them, compile them into logs, compare answers.

A *case* is a TOML file: a rule set, the prearranged draw and deals, the actions in card notation and the
expected outcome. An *answer* is what an implementation says happened (a JSON object, CONF-5). Knock answers
a case in two ways, and both must match the expectation: by playing the case on the engine (case mode) and
by replaying the case's compiled log (log mode). Another implementation answers through an adapter command
(CONF-6). Rules: CONF-1, CONF-2, CONF-3, CONF-4, CONF-5, CONF-6, CONF-7, CONF-8.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import shlex
import signal
import subprocess
import tomllib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import engine
from engine.actions import Advise, MatchAction, parse_match_action
from engine.cards import Card, cards
from engine.errors import (
    IllegalAction,
    InvalidDeal,
    InvalidMeld,
    InvalidRules,
    KnockError,
    NotationError,
    RuleViolation,
)
from engine.events import Dealt, HandEnded, HandStarted
from engine.hand import Hand
from engine.match import Match
from engine.rules import RuleSet
from replay.codec import (
    T_ADVICE,
    T_CHECKPOINT,
    T_CUT,
    T_DEAL,
    T_HAND,
    T_LAYOFF,
    T_SPREAD,
    T_TRAILER,
    VERSION,
    action_record,
    chain,
    header_digest,
    pack,
    unpacked,
)
from replay.log import Header, LogError, LogReader, LogTruncated, LogWriter
from replay.redact import PublicReplayer, redact
from replay.replayer import Replayer

#: Every card in canonical order (clubs, diamonds, hearts, spades; ace to king in each): the filler of a stock.
CANONICAL: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
CASE_KEYS = {"title", "rules", "preset", "options", "draw", "hand", "expect", "tamper", "note"}
HAND_KEYS = {"dealer", "upcard", "stock", "actions", "expect", "p0", "p1", "p2"}
EXPECT_KEYS = {"outcome", "rule", "stage", "scores", "game_over", "winner", "totals", "state", "record"}
HAND_EXPECT_KEYS = {"result", "winner", "points", "knocker", "deadwood", "multiplier", "scores", "knock_limit"}
STATE_KEYS = {"to_act", "phase", "knock_limit", "stock", "discard", "holding"}
STAGES = ("rules", "draw", "deal", "action")
TAMPER_KEYS = {"view", "truncate", "flip", "replace", "delete", "insert", "append", "append_bytes", "header", "rechain"}


class CaseError(KnockError):
    """A case file that does not follow the case format (CONF-2): the case is broken, not the engine."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"CONF-2: {path}: {reason}", rule="CONF-2")
        self.path = str(path)
        self.reason = reason


# --- the case format ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseHand:
    """One deal of a case and the actions played on it."""

    dealer: int
    cards: dict[int, tuple[Card, ...]]  #: each seat dealt in, its cards in the order dealt
    upcard: Card
    stock: tuple[Card, ...]  #: top first, completed in canonical order when the case ends it with ``...``
    actions: tuple[str, ...]
    expect: dict[str, Any]

    @property
    def seats(self) -> tuple[int, int]:
        a, b = sorted(self.cards)
        return a, b

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck order that deals this hand (DEAL-3): alternately non-dealer and dealer, upcard, stock."""
        nd = self.cards[next(s for s in self.seats if s != self.dealer)]
        d = self.cards[self.dealer]
        out: list[Card] = []
        for i in range(max(len(nd), len(d))):
            out += [*nd[i : i + 1], *d[i : i + 1]]
        return (*out, self.upcard, *self.stock)


@dataclass(frozen=True)
class Case:
    """A conformance case (CONF-2)."""

    path: Path
    name: str
    title: str
    rules: tuple[str, ...]
    preset: str
    options: dict[str, Any]
    draw: tuple[tuple[Card, ...], ...] | None
    hands: tuple[CaseHand, ...]
    expect: dict[str, Any]
    tamper: dict[str, Any] | None

    @property
    def outcome(self) -> str:
        return str(self.expect["outcome"])

    @property
    def players(self) -> int:
        return 3 if self.preset == "three_handed" or self.options.get("players") == 3 else 2

    @property
    def reject_at(self) -> tuple[int, int]:
        """Where a reject case expects its rejection (CONF-3): (hand, action); hand 0 is before the first deal,
        action 0 the deal itself."""
        stage = self.expect.get("stage", "action")
        if stage in ("rules", "draw"):
            return (0, 0)
        if stage == "deal":
            return (len(self.hands), 0)
        return (len(self.hands), len(self.hands[-1].actions) if self.hands else 0)


def seat_of(text: object, where: str, path: Path) -> int:
    if not (isinstance(text, str) and re.fullmatch(r"p[0-2]", text)):
        raise CaseError(path, f"{where}: a seat is written p0, p1 or p2, not {text!r}")
    return int(text[1])


def _cards_of(text: object, where: str, path: Path) -> tuple[Card, ...]:
    if not isinstance(text, str):
        raise CaseError(path, f"{where}: cards are a string such as 'As Td Kh'")
    try:
        return cards(text)
    except NotationError as err:
        raise CaseError(path, f"{where}: {err}") from None


def _check_keys(table: object, allowed: set[str], where: str, path: Path) -> dict[str, Any]:
    if not isinstance(table, dict):
        raise CaseError(path, f"{where} must be a table")
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise CaseError(path, f"{where}: unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")
    return table


def load_case(path: Path, root: Path | None = None) -> Case:
    """Read and check one case file. Raises ``CaseError`` for anything the format does not allow (CONF-2)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise CaseError(path, f"not a readable TOML file ({err})") from None
    _check_keys(data, CASE_KEYS, "the case", path)
    root = root or suite_root(path, path.parent)
    name = path.resolve().relative_to(root.resolve()).with_suffix("").as_posix()
    rules = data.get("rules")
    if not (isinstance(rules, list) and rules and all(isinstance(r, str) for r in rules)):
        raise CaseError(path, "'rules' lists the rule ids the case is evidence for, e.g. rules = ['LAY-4']")
    preset = data.get("preset", "standard")
    options = data.get("options", {})
    if not isinstance(preset, str) or not isinstance(options, dict):
        raise CaseError(path, "'preset' is a name and 'options' a table")
    draw = None
    if "draw" in data:
        if not isinstance(data["draw"], list):
            raise CaseError(path, "'draw' is a list of rounds, e.g. draw = ['Ks 2c']")
        draw = tuple(_cards_of(r, f"draw round {i + 1}", path) for i, r in enumerate(data["draw"]))
    raw_hands = data.get("hand", [])
    if not isinstance(raw_hands, list):
        raise CaseError(path, "hands are written [[hand]]")
    hands = tuple(_load_hand(h, i + 1, path) for i, h in enumerate(raw_hands))
    expect = _check_keys(data.get("expect"), EXPECT_KEYS, "[expect]", path)
    if expect.get("outcome") not in ("accept", "reject"):
        raise CaseError(path, "[expect] needs outcome = 'accept' or 'reject'")
    if expect["outcome"] == "reject" and not isinstance(expect.get("rule"), str):
        raise CaseError(path, "a reject case names the rule of the rejection: rule = 'TURN-3'")
    if expect.get("stage", "action") not in STAGES:
        raise CaseError(path, f"stage is one of {', '.join(STAGES)}")
    if "state" in expect:
        _check_keys(expect["state"], STATE_KEYS, "[expect.state]", path)
    tamper = data.get("tamper")
    if tamper is not None:
        _check_keys(tamper, TAMPER_KEYS, "[tamper]", path)
        if "record" not in expect and expect["outcome"] == "reject":
            raise CaseError(path, "a tampered log's rejection gives its record: record = N")
    if not hands and not (expect["outcome"] == "reject" and expect.get("stage") in ("rules", "draw")):
        raise CaseError(path, "a case deals at least one [[hand]]")
    if expect["outcome"] == "reject" and expect.get("stage", "action") == "action" and not hands[-1].actions:
        raise CaseError(path, "a case rejected at an action ends with that action")
    return Case(path, name, str(data.get("title", "")), tuple(rules), preset, options, draw, hands, expect, tamper)


def _load_hand(table: object, number: int, path: Path) -> CaseHand:
    where = f"hand {number}"
    t = _check_keys(table, HAND_KEYS, where, path)
    seats = sorted(int(k[1]) for k in t if re.fullmatch(r"p[0-2]", k))
    if len(seats) != 2:
        raise CaseError(path, f"{where}: give the cards of exactly the two seats dealt in (p0 = '...', p1 = '...')")
    given = {s: _cards_of(t[f"p{s}"], f"{where} p{s}", path) for s in seats}
    if "dealer" in t:
        dealer = seat_of(t["dealer"], f"{where} dealer", path)
    elif number == 1:
        dealer = seats[1]
    else:
        raise CaseError(path, f"{where}: every hand after the first names its dealer")
    if "upcard" not in t:
        raise CaseError(path, f"{where}: no upcard")
    upcard = _cards_of(t["upcard"], f"{where} upcard", path)
    if len(upcard) != 1:
        raise CaseError(path, f"{where}: the upcard is one card")
    stock_text = t.get("stock", "...")
    if not isinstance(stock_text, str):
        raise CaseError(path, f"{where}: the stock is a string of cards, top first, optionally ending with ...")
    fill = stock_text.rstrip().endswith("...")
    stock = _cards_of(stock_text.rstrip().removesuffix("...") if fill else stock_text, f"{where} stock", path)
    if fill:
        used = {*given[seats[0]], *given[seats[1]], upcard[0], *stock}
        stock += tuple(c for c in CANONICAL if c not in used)
    actions = t.get("actions", [])
    if not (isinstance(actions, list) and all(isinstance(a, str) for a in actions)):
        raise CaseError(path, f"{where}: actions are a list of strings, e.g. ['p0 pass', 'p1 take', 'p1 discard Kh']")
    expect = _check_keys(t.get("expect", {}), HAND_EXPECT_KEYS, f"[hand.expect] of {where}", path)
    return CaseHand(dealer, given, upcard[0], stock, tuple(actions), expect)


def find_cases(paths: Iterable[Path]) -> list[Path]:
    """Every ``*.toml`` case under the given folders (and the files given), sorted."""
    found: list[Path] = []
    for p in paths:
        if p.is_dir():
            found += sorted(p.rglob("*.toml"))
        elif p.is_file():
            found.append(p)
        else:
            raise CaseError(p, "no such case file or folder")
    return found


def suite_root(path: Path, given: Path) -> Path:
    """The folder case names are relative to (CONF-1): the nearest folder named ``cases`` above the file,
    else the folder given."""
    for parent in path.resolve().parents:
        if parent.name == "cases":
            return parent
    return given.resolve() if given.is_dir() else given.resolve().parent


def load_cases(
    paths: Iterable[Path], invalid: list[CaseError] | None = None, known: set[str] | None = None
) -> list[Case]:
    """Load every case; names must be unique. With ``known``, a case naming another rule id is invalid. With
    ``invalid``, a case that breaks the format is collected there and the others still load (CONF-2);
    without it, the first one raises."""
    out: list[Case] = []
    for p in paths:
        for f in find_cases([p]):
            try:
                case = load_case(f, suite_root(f, p))
                if known is not None and not set(case.rules) <= known:
                    unknown = " ".join(sorted(set(case.rules) - known))
                    raise CaseError(case.name, f"names rule ids the spec does not define: {unknown}")
                out.append(case)
            except CaseError as err:
                if invalid is None:
                    raise
                invalid.append(err)
    names = [c.name for c in out]
    if len(names) != len(set(names)):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise CaseError(dup[0], "two cases have the same name")
    return out


def default_suite() -> Path:
    """The suite of this checkout (``tests/conformance/cases`` beside the packages), else of the folder."""
    here = Path(__file__).resolve().parents[2] / "tests" / "conformance" / "cases"
    return here if here.is_dir() else Path("tests/conformance/cases")


def default_spec() -> Path:
    here = Path(__file__).resolve().parents[2] / "spec"
    return here if here.is_dir() else Path("spec")


# --- answers ------------------------------------------------------------------------------------


def _p(seat: int | None) -> str | None:
    return None if seat is None else f"p{seat}"


def summary(match: Match | None, players: int) -> dict[str, Any]:
    """The accept-answer fields (CONF-5) for a game as far as it has gone."""
    out: dict[str, Any] = {"hands": [], "scores": {f"p{s}": 0 for s in range(players)}, "game_over": False}
    if match is None:
        return out
    hands: list[dict[str, Any]] = out["hands"]
    for e in match.events:
        if isinstance(e, Dealt):
            hands[-1]["knock_limit"] = e.knock_limit
        elif isinstance(e, HandStarted):
            hands.append({"dealer": _p(e.dealer), "seats": [_p(s) for s in e.seats], "sitter": _p(e.sitter),
                          "result": None})  # fmt: skip
        elif isinstance(e, HandEnded):
            r = e.result
            hands[-1].update(
                result=r.kind.value,
                winner=_p(r.winner),
                points=r.points,
                knocker=_p(r.knocker),
                deadwood=None if r.deadwood is None else {f"p{s}": d for s, d in zip(r.seats, r.deadwood, strict=True)},
                multiplier=r.multiplier,
                scores={f"p{s}": v for s, v in enumerate(e.scores)},
            )
    hand = match.hand
    out["scores"] = {f"p{s}": v for s, v in enumerate(match.scores)}
    if match.is_over:
        st = match.standings()
        out.update(game_over=True, winner=_p(st.winner), totals={f"p{s}": v for s, v in enumerate(st.totals)})
    elif hand is not None and not hand.is_over:
        out["state"] = {
            "to_act": _p(hand.to_act),
            "phase": hand.phase.value,
            "knock_limit": hand.knock_limit,
            "stock": len(hand.stock),
            "discard": str(hand.discards[-1]) if hand.discards else None,
            "holding": {f"p{s}": " ".join(map(str, sorted(hand.cards_of(s)))) for s in hand.seats},
        }
    return out


def _reject(rule: str, hand: int, action: int, **more: Any) -> dict[str, Any]:
    return {"outcome": "reject", "rule": rule, "hand": hand, "action": action, **more}


def rule_set(case: Case) -> RuleSet:
    return RuleSet.preset(case.preset, **case.options)


def default_draw(case: Case) -> tuple[tuple[Card, ...], ...]:
    """The draw a case gets when it gives none: the first hand's dealer (the box) draws ``Ks``, the other
    dealt seat (the captain) ``Qs`` and the sitter ``Js`` (CONF-2)."""
    first = case.hands[0]
    other = next(s for s in first.seats if s != first.dealer)
    rank = {first.dealer: "Ks", other: "Qs"}
    return (tuple(Card.parse(rank.get(s, "Js")) for s in range(case.players)),)


def deal(case: Case, rules: RuleSet, ch: CaseHand, match: Match | None) -> Match:
    """Deal a case's hand: the prearranged deal is checked as one (DEAL-4), then starts the game or is its
    next deck. Raises ``InvalidDeal`` for a deal or a draw the rules refuse."""
    Hand.from_deal(rules, dealer=ch.dealer, hands=(ch.cards[ch.seats[0]], ch.cards[ch.seats[1]]),
                   upcard=ch.upcard, stock=ch.stock, seats=ch.seats)  # fmt: skip
    if match is None:
        return Match.scripted(rules, cuts=case.draw or default_draw(case), decks=[ch.deck])
    match.add_deck(ch.deck)
    return match


def answer_case(case: Case) -> dict[str, Any]:
    """Knock's answer to a case, played on the engine (case mode, CONF-5). Raises ``CaseError`` for an
    action written in no known notation."""
    try:
        rules = rule_set(case)
    except InvalidRules as err:
        return _reject(err.rule, 0, 0, reason=err.reason)
    match: Match | None = None
    for h, ch in enumerate(case.hands, 1):
        try:
            if match is not None and not match.awaiting_deck:
                return _reject("CONF-3", h, 0, reason="the case deals a new hand while the engine's hand goes on",
                               **summary(match, case.players))  # fmt: skip
            match = deal(case, rules, ch, match)
        except InvalidDeal as err:
            return _reject(err.rule, 0 if err.rule.startswith("MATCH") else h, 0, reason=err.reason)
        for a, text in enumerate(ch.actions, 1):
            try:
                action = _parse(case, text, h, a)
            except InvalidMeld as err:
                return _reject(err.rule, h, a, reason=err.reason, **summary(match, case.players))
            try:
                match.apply(action)
            except (IllegalAction, RuleViolation) as err:
                return _reject(err.rule, h, a, reason=err.reason, **summary(match, case.players))
    return {"outcome": "accept", **summary(match, case.players)}


def _parse(case: Case, text: str, h: int, a: int) -> MatchAction:
    """The action a case's text asks for. Cards that are no meld raise ``InvalidMeld`` (the engine refuses
    the action, MELD-1, MELD-2); text in no known notation makes the case invalid (CONF-2)."""
    try:
        return parse_match_action(text)
    except NotationError as err:
        raise CaseError(case.path, f"hand {h} action {a}: {err}") from None


def _raw_record(text: str) -> Any:
    """The record of a spread or layoff whose melds are invalid, written as given (CONF-4)."""
    words = text.split()[1:]
    verb, args = words[0].lower(), words[1:]

    def codes(meld: str) -> bytes:
        return bytes(Card.parse(c).index for c in meld.split("-"))

    if verb == "spread":
        return [T_SPREAD, *(codes(m) for m in args)]
    melds = [codes(m) for m in args if ">" not in m]
    layoffs = [[Card.parse(m.split(">")[0]).index, codes(m.split(">")[1])] for m in args if ">" in m]
    return [T_LAYOFF, melds, layoffs]


# --- compiling a case into a log ---------------------------------------------------------------


@dataclass
class Compiled:
    """A case's log form (CONF-4): the bytes and the answer a reader must give, or why it has none."""

    data: bytes | None
    expect: dict[str, Any]
    why_none: str = ""


class _Raw:
    """Appends records after a header, keeping the digest chain (for the parts the writer cannot produce)."""

    def __init__(self, out: io.BytesIO, digest: bytes, records: int) -> None:
        self.out, self.digest, self.records = out, digest, records

    def write(self, record: Any) -> int:
        data = pack(record)
        self.out.write(data)
        self.digest = chain(self.digest, data)
        self.records += 1
        return self.records


def _header_bytes(case: Case, rules: dict[str, Any]) -> bytes:
    names = tuple(f"p{s}" for s in range(case.players))
    header = Header(VERSION, f"knock-gin {engine.__version__}", rules, names, {"case": case.path.stem}, False)
    return pack(header.to_wire())


def _json(value: Any) -> Any:
    """A case's expected value as an answer writes it (CONF-5): ``"none"`` is null."""
    return None if value == "none" else value


def expected_answer(case: Case) -> dict[str, Any]:
    """Everything a case states, as the answer must give it (CONF-5): the ``[expect]`` fields, the holdings
    in answer order, and for an accept case every hand's dealer, seats and stated fields."""
    out: dict[str, Any] = {k: _json(v) for k, v in case.expect.items() if k not in ("stage", "state")}
    if "state" in case.expect:
        state = {k: _json(v) for k, v in case.expect["state"].items()}
        if "holding" in state:
            state["holding"] = {seat: _norm_cards(held) for seat, held in state["holding"].items()}
        out["state"] = state
    if case.outcome == "reject":
        out["hand"], out["action"] = case.reject_at
    else:
        out["hands"] = [
            {"dealer": f"p{ch.dealer}", "seats": [f"p{s}" for s in ch.seats]}
            | {k: _json(v) for k, v in ch.expect.items()}
            for ch in case.hands
        ]
    return out


def compile_case(case: Case) -> Compiled:
    """The log of a case (CONF-4), built by playing it on the engine and writing what happened; a rejected
    action, deal or rule set is written as given, so a reader must reject it at that record."""
    want = dict(case.expect)
    out = io.BytesIO()
    try:
        rules = rule_set(case)
    except InvalidRules:
        head = _header_bytes(case, {"name": case.preset, **case.options})
        return Compiled(head, {**want, "record": 0})
    match: Match | None = None
    writer: LogWriter | None = None
    for h, ch in enumerate(case.hands, 1):
        try:
            if match is not None and not match.awaiting_deck:
                return Compiled(None, want, "the case deals a hand while the engine's hand goes on")
            match = deal(case, rules, ch, match)
            if writer is None:
                writer = LogWriter(out, match, meta={"case": case.path.stem})
            writer.sync()
        except InvalidDeal as err:
            return _bad_deal(case, ch, h, err, out, writer, want)
        assert writer is not None
        for a, text in enumerate(ch.actions, 1):
            action: MatchAction | None = None
            try:
                action = _parse(case, text, h, a)
                if isinstance(action, Advise) and action.suggestion.seat != match.captain:
                    return Compiled(None, want, "advice for a seat other than the captain has no log form")
                match.apply(action)
                writer.sync()
                continue
            except (IllegalAction, RuleViolation):  # cards that are no meld too (InvalidMeld, from the text)
                pass
            if not isinstance(action, Advise) and text.split()[0] != f"p{match.to_act}":
                return Compiled(None, want, "an action out of turn has no log form (records carry no seat)")
            if action is None:
                rec = _raw_record(text)
            elif isinstance(action, Advise):
                rec = [T_ADVICE, action.seat, action_record(action.suggestion)]
            else:
                rec = action_record(action)
            return Compiled(out.getvalue() + pack(rec), {**want, "record": writer.records + 1})
    data = out.getvalue()
    if case.tamper is not None:
        data = tamper(data, case.tamper, case.path)
    return Compiled(data, want)


def _bad_deal(
    case: Case, ch: CaseHand, h: int, err: InvalidDeal, out: io.BytesIO, writer: LogWriter | None, want: dict[str, Any]
) -> Compiled:
    """The log of a case whose draw or deal is rejected: the prefix, then the draw or deal as given."""
    draw_fault = err.rule.startswith("MATCH")
    if ch.dealer not in ch.seats and not draw_fault:
        return Compiled(None, want, f"a dealer who is not dealt in has no log form: {err.reason}")
    deck = bytes(c.index for c in ch.deck) if not draw_fault else b""
    if len(deck) == 52 and len(set(deck)) == 52:
        return Compiled(None, want, f"this faulty deal has no log form: {err.reason}")
    if writer is None:
        head = _header_bytes(case, rule_set(case).to_dict())
        out.write(head)
        raw = _Raw(out, header_digest(head), 0)
        draw = case.draw or default_draw(case)
        seats = list(range(case.players))
        last_cut = 0
        for rnd in draw:
            last_cut = raw.write([T_CUT, seats[: len(rnd)], bytes(c.index for c in rnd)])
        if draw_fault:  # the draw is judged when the first hand is dealt: write that hand, expect the last cut
            sitter = next((s for s in range(case.players) if s not in ch.seats), None)
            raw.write([T_HAND, h, ch.dealer, ch.seats[0], ch.seats[1], sitter])
            raw.write([T_DEAL, bytes(c.index for c in ch.deck)])
            return Compiled(out.getvalue(), {**want, "record": last_cut})
    else:
        raw = _Raw(out, writer.digest, writer.records)
    sitter = next((s for s in range(case.players) if s not in ch.seats), None)
    raw.write([T_HAND, h, ch.dealer, ch.seats[0], ch.seats[1], sitter])
    at = raw.write([T_DEAL, deck])
    return Compiled(out.getvalue(), {**want, "record": at})


# --- tampering (log cases, CONF-7) --------------------------------------------------------------


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


def rechain(items: list[tuple[Any, bytes]]) -> list[tuple[Any, bytes]]:
    """Recompute every checkpoint and the trailer over the records as they now are."""
    out = [items[0]]
    digest = header_digest(items[0][1])
    for i, (value, raw) in enumerate(items[1:], 1):
        if isinstance(value, list) and value and value[0] == T_CHECKPOINT:
            value = [T_CHECKPOINT, digest]
            raw = pack(value)
        elif isinstance(value, list) and value and value[0] == T_TRAILER:
            value = [T_TRAILER, i - 1, digest]
            raw = pack(value)
        out.append((value, raw))
        digest = chain(digest, raw)
    return out


def tamper(data: bytes, spec: dict[str, Any], path: Path) -> bytes:
    """Apply a case's ``[tamper]`` edits to its compiled log (CONF-7), in the order the format lists them."""
    if "view" in spec:
        data = redact(data, int(spec["view"]))
    items = _split(data)
    n = len(items)

    def index(v: Any, what: str) -> int:
        if type(v) is not int or not 0 <= v < n:
            raise CaseError(path, f"[tamper] {what}: a record number 0..{n - 1}, not {v!r}")
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
        items = rechain(items)
    if "append" in spec:
        items.append((_value(spec["append"]), pack(_value(spec["append"]))))
    out = bytearray(b"".join(raw for _, raw in items))
    if "flip" in spec:
        at = sum(len(raw) for _, raw in items[: index(spec["flip"].get("record"), "flip")])
        out[at + int(spec["flip"].get("byte", 0))] ^= int(spec["flip"].get("mask", 1))
    if "append_bytes" in spec:
        out += bytes.fromhex(spec["append_bytes"])
    if "truncate" in spec:
        out = out[: len(out) - int(spec["truncate"])]
    return bytes(out)


def answer_log(data: bytes, players: int | None = None) -> dict[str, Any]:
    """Knock's answer to a log (log mode, CONF-5): replay it strictly; a log that ends cleanly before its
    trailer is accepted as far as it goes, with ``game_over`` false (LOG-7)."""
    try:
        if LogReader(data).header.view is not None:
            return _answer_view(data)
    except LogError as err:
        return {"outcome": "reject", "rule": err.rule, "record": err.record, "reason": err.reason}
    replayer: Replayer | None = None
    try:
        replayer = Replayer(data)
        for _ in replayer.states():
            pass
    except LogTruncated as err:
        if not err.clean or replayer is None:
            return {"outcome": "reject", "rule": err.rule, "record": err.record, "reason": err.reason}
    except LogError as err:
        return {"outcome": "reject", "rule": err.rule, "record": err.record, "reason": err.reason}
    assert replayer is not None
    return {"outcome": "accept", **summary(replayer.match, players or replayer.rules.players)}


def _answer_view(data: bytes) -> dict[str, Any]:
    """A per-seat view is answered in public mode (LOG-12): outcome, scores, game_over and winner."""
    try:
        st = PublicReplayer(data).run()
    except LogError as err:
        return {"outcome": "reject", "rule": err.rule, "record": err.record, "reason": err.reason}
    return {"outcome": "accept", "view": f"p{st.seat}", "scores": {f"p{s}": v for s, v in enumerate(st.scores)},
            "game_over": st.over, "winner": _p(st.winner)}  # fmt: skip


# --- comparing answers with the expectation -----------------------------------------------------


def _norm_cards(v: Any) -> Any:
    """Cards in the answers' order, rank then suit (a case may list them in any order)."""
    return " ".join(map(str, sorted(cards(v)))) if isinstance(v, str) else v


def compare(case: Case, answer: dict[str, Any], *, log: bool) -> list[str]:
    """What in an answer differs from the case's expectation (CONF-5); empty when the answer passes."""
    want = case.expect
    problems: list[str] = []

    def check(what: str, expected: Any, got: Any) -> None:
        if expected == "none":
            expected = None
        if expected != got:
            problems.append(f"{what}: expected {json.dumps(expected)}, got {json.dumps(got)}")

    check("outcome", want["outcome"], answer.get("outcome"))
    if problems:
        if answer.get("outcome") == "reject":
            hand, action = answer.get("hand"), answer.get("action")
            where = f"record {answer.get('record')}" if log else f"hand {hand} action {action}"
            problems.append(f"rejected at {where} with {answer.get('rule')}: {answer.get('reason', '')}")
        return problems
    if want["outcome"] == "reject":
        check("rule", want["rule"], answer.get("rule"))
        if log and "record" in want:
            check("record", want["record"], answer.get("record"))
        elif not log:
            check("position (hand, action)", list(case.reject_at), [answer.get("hand"), answer.get("action")])
        return problems
    for key in ("scores", "game_over", "winner", "totals"):
        if key in want:
            check(key, want[key], answer.get(key))
    if "view" in answer:  # a per-seat view shows no more than these (CONF-5)
        return problems
    if "state" in want:
        got = answer.get("state") or {}
        for key, value in want["state"].items():
            if key == "holding":
                for seat, held in value.items():
                    check(f"state.holding.{seat}", _norm_cards(held), (got.get("holding") or {}).get(seat))
            else:
                check(f"state.{key}", value, got.get(key))
    got_hands = answer.get("hands") or []
    if len(got_hands) != len(case.hands):
        problems.append(f"hands: the case deals {len(case.hands)}, the answer has {len(got_hands)}")
        return problems
    for i, (ch, gh) in enumerate(zip(case.hands, got_hands, strict=True), 1):
        check(f"hand {i} dealer", f"p{ch.dealer}", gh.get("dealer"))
        check(f"hand {i} seats", [f"p{s}" for s in ch.seats], gh.get("seats"))
        for key, value in ch.expect.items():
            check(f"hand {i} {key}", value, gh.get(key))
    return problems


# --- running the suite ---------------------------------------------------------------------------


@dataclass
class CaseResult:
    name: str
    rules: tuple[str, ...]
    outcome: str
    passed: bool
    modes: dict[str, str] = field(default_factory=dict)  #: mode -> "pass" | "fail" | "skip"
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def run_case(case: Case, adapter: str | None = None, workdir: Path | None = None, timeout: float = 60) -> CaseResult:
    """Run one case: with Knock in both modes, or through an adapter command (CONF-6)."""
    result = CaseResult(case.name, case.rules, case.outcome, True)

    def record(mode: str, problems: list[str]) -> None:
        result.modes[mode] = "fail" if problems else "pass"
        result.problems += [f"{mode}: {p}" for p in problems]
        result.passed = result.passed and not problems

    try:
        compiled = compile_case(case)
    except CaseError as err:
        record("case", [err.reason])
        return result
    except KnockError as err:  # e.g. a view of a game that is not over cannot be made (LOG-11)
        record("log", [f"the log form cannot be made: {err}"])
        return result
    if adapter is not None:
        record("adapter", _run_adapter(adapter, case, compiled, workdir or Path("."), timeout))
        return result
    if case.tamper is None:
        try:
            record("case", compare(case, answer_case(case), log=False))
        except CaseError as err:
            record("case", [err.reason])
    else:
        result.modes["case"] = "skip"
    if compiled.data is None:
        result.modes["log"] = "skip"
    else:
        record("log", compare(dataclasses.replace(case, expect=compiled.expect), answer_log(compiled.data), log=True))
    return result


def _run_adapter(command: str, case: Case, compiled: Compiled, workdir: Path, timeout: float = 60) -> list[str]:
    log_path = "-"
    if compiled.data is not None:
        target = workdir / (case.name.replace("/", "__") + ".knock")
        target.write_bytes(compiled.data)
        log_path = str(target)
    try:
        proc = subprocess.Popen(
            [*shlex.split(command), str(case.path), log_path],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own process group: a timeout ends the adapter and its children
        )
    except OSError as err:
        return [f"the adapter could not be started: {err}"]
    try:
        out, err_text = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return [f"the adapter gave no answer within {timeout:g} s (stopped)"]
    try:
        answer = json.loads(out)
    except json.JSONDecodeError:
        tail = err_text.strip()[-300:]
        return [f"the adapter printed no JSON answer (exit {proc.returncode}): stdout {out.strip()[:120]!r}"
                + (f"; stderr ...{tail}" if tail else "")]  # fmt: skip
    if not isinstance(answer, dict):
        return ["the adapter's answer is not a JSON object"]
    uses_log = "record" in answer or case.tamper is not None
    if uses_log and compiled.data is None:
        return [f"the case has no log form ({compiled.why_none}): answer in case mode, with hand and action"]
    expected_case = dataclasses.replace(case, expect=compiled.expect) if uses_log else case
    return compare(expected_case, answer, log=uses_log)


# --- coverage ----------------------------------------------------------------------------------

#: Refusals of API calls, not of game input: asking for the view of a seat not dealt in (CONF-8).
NOT_INPUT = {"VIS-1"}
RULE_LINE = re.compile(r"^- \*\*([A-Z]+-\d+)\*\* — \S", flags=re.MULTILINE)
REFUSAL = re.compile(
    r"\b(?:Refused|InvalidDeal|InvalidRules|InvalidMeld|InvalidSeat|IllegalAction|LogError|LogTruncated|"
    r"LogTampered|ReplayError|refuse|_refuse|fail)\(\s*\"([A-Z]+-\d+)\""
)


def spec_rules(spec_dir: Path) -> list[str]:
    """The rule ids the suite must cover: the game's rules and the log format's (CONF-8)."""
    return [i for name in ("rules.md", "log-format.md") for i in RULE_LINE.findall((spec_dir / name).read_text())]


def forbidding_rules() -> set[str]:
    """The rules the engine or the replayer rejects input under: each needs a reject case (CONF-8)."""
    import replay

    found: set[str] = set()
    for package in (engine, replay):
        for p in Path(package.__file__ or "").parent.glob("*.py"):
            found |= set(REFUSAL.findall(p.read_text(encoding="utf-8")))
    return {r for r in found if not r.startswith("CONF")} - NOT_INPUT


@dataclass(frozen=True)
class Coverage:
    accept: dict[str, list[str]]  #: rule -> accept cases
    reject: dict[str, list[str]]  #: rule -> reject cases
    forbidding: frozenset[str]

    def missing(self) -> list[str]:
        """What the suite lacks: rules without an accept case, forbidding rules without a reject case."""
        out = [f"{r}: no accept case" for r, cs in self.accept.items() if not cs]
        out += [f"{r}: no reject case" for r in sorted(self.forbidding) if not self.reject.get(r)]
        return out

    def rows(self) -> Iterator[tuple[str, int, int, bool]]:
        for rule in self.accept:
            yield rule, len(self.accept[rule]), len(self.reject.get(rule, [])), rule in self.forbidding


def coverage(cases: Sequence[Case], spec_dir: Path) -> Coverage:
    """Which rule ids have accept and reject cases (CONF-8). A reject case counts for the rule it expects to
    be broken; its other listed rules count as accepted behaviour up to the rejection."""
    ids = spec_rules(spec_dir)
    accept: dict[str, list[str]] = {r: [] for r in ids}
    reject: dict[str, list[str]] = {r: [] for r in ids}
    for c in cases:
        for r in c.rules:
            if r not in accept:
                raise CaseError(c.path, f"names rule {r}, which the spec does not define")
            if c.outcome == "reject" and r == c.expect["rule"]:
                reject[r].append(c.name)
            else:
                accept[r].append(c.name)
        if c.outcome == "reject" and c.expect["rule"] not in c.rules:
            raise CaseError(c.path, f"rejects under {c.expect['rule']} but does not list it in 'rules'")
    return Coverage(accept, reject, frozenset(forbidding_rules() & set(ids)))
