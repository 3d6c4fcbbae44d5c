"""Conformance cases: the case format, reading and checking case files, and the suite shipped with Knock.

A *case* is a TOML file: a rule set, the prearranged draw and deals, the actions in card notation and the
expected outcome. A file that breaks the format makes the case invalid (``CaseError``), never the engine.
Rules: CONF-1, CONF-2, CONF-3.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from engine.cards import Card, cards
from engine.errors import KnockError, NotationError
from engine.events import CutDrawn
from engine.match import Match
from engine.rules import RuleSet
from knock.conformance.aliases import canonical_options

#: Every card in canonical order (clubs, diamonds, hearts, spades; ace to king in each): the filler of a stock.
CANONICAL: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
CASE_KEYS = {
    "title",
    "rules",
    "preset",
    "options",
    "draw",
    "box",
    "captain",
    "sitter",
    "hand",
    "expect",
    "tamper",
    "verify",
    "note",
}
ROLES = ("box", "captain", "sitter")
#: The draw that gives each role (THREE-2): the highest card is the box's, the lowest the sitter's.
ROLE_CARDS = {"box": "Ks", "captain": "Qs", "sitter": "Js"}
HAND_KEYS = {"dealer", "upcard", "stock", "actions", "expect", "p0", "p1", "p2"}
EXPECT_KEYS = {"outcome", "rule", "stage", "scores", "game_over", "winner", "totals", "state", "record"}
HAND_EXPECT_KEYS = {"result", "winner", "points", "knocker", "deadwood", "multiplier", "scores", "knock_limit"}
STATE_KEYS = {"to_act", "phase", "knock_limit", "stock", "discard", "holding"}
STAGES = ("rules", "draw", "deal", "action")
TAMPER_KEYS = {
    "fair", "view", "truncate", "flip", "replace", "delete", "insert", "append", "append_bytes", "header", "rechain",
    "sign",
}  # fmt: skip


class CaseError(KnockError):
    """A case file that does not follow the case format (CONF-2): the case is broken, not the engine."""

    def __init__(self, path: Path | str, reason: str) -> None:
        super().__init__(f"CONF-2: {path}: {reason}", rule="CONF-2")
        self.path = str(path)
        self.reason = reason


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
    verify: dict[str, Any] | None = None  #: what the reader is given besides the log (LOG-19: signer, digests)

    @property
    def outcome(self) -> str:
        return str(self.expect["outcome"])

    @property
    def reject_rules(self) -> tuple[str, ...] | None:
        """The rules a rejection may name (CONF-9): one, any of a list, or ``None`` for any rule."""
        rule = self.expect.get("rule")
        if rule is None:
            return None
        return (rule,) if isinstance(rule, str) else tuple(rule)

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

    def rule_set(self) -> RuleSet:
        """The case's rule set, as RULES-1 builds it. Raises ``InvalidRules`` for options the rules refuse."""
        return RuleSet.preset(self.preset, **self.options)

    @property
    def cuts(self) -> tuple[tuple[Card, ...], ...]:
        """The draw for the first dealer or the roles: the case's, else the default (CONF-2): the first hand's
        dealer (the box) draws ``Ks``, the other dealt seat (the captain) ``Qs`` and the sitter ``Js``."""
        if self.draw is not None:
            return self.draw
        first = self.hands[0]
        other = next(s for s in first.seats if s != first.dealer)
        rank = {first.dealer: "Ks", other: "Qs"}
        return (tuple(Card.parse(rank.get(s, "Js")) for s in range(self.players)),)


# --- reading a case file ------------------------------------------------------------------------


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
    rules = data.get("rules", [])
    if not (isinstance(rules, list) and ("rules" not in data or rules) and all(isinstance(r, str) for r in rules)):
        raise CaseError(path, "'rules' lists the rule ids the case is evidence for, e.g. rules = ['LAY-4']")
    preset = data.get("preset", "standard")
    options = data.get("options", {})
    if not isinstance(preset, str) or not isinstance(options, dict):
        raise CaseError(path, "'preset' is a name and 'options' a table")
    try:
        options = canonical_options(options)
    except ValueError as err:
        raise CaseError(path, str(err)) from None
    players = 3 if preset == "three_handed" or options.get("players") == 3 else 2
    draw, box = _draw(data, players == 3, path)
    drawn = None if draw is None else _drawn(preset, options, draw, path)
    raw_hands = data.get("hand", [])
    if not isinstance(raw_hands, list):
        raise CaseError(path, "hands are written [[hand]]")
    hands = tuple(_load_hand(h, i + 1, path, box, drawn) for i, h in enumerate(raw_hands))
    tamper = None if "tamper" not in data else _load_tamper(data["tamper"], players, path)
    expect = _load_expect(data.get("expect"), hands, path, tamper is not None)
    verify = None if "verify" not in data else _load_verify(data["verify"], tamper is not None, path)
    return Case(path, name, str(data.get("title", "")), tuple(rules), preset, options, draw, hands, expect, tamper,
                verify)  # fmt: skip


def _load_verify(table: object, log_case: bool, path: Path) -> dict[str, Any]:
    """A case's ``[verify]`` (CONF-7): ``signer``, a public key, and ``digests``, published digests, each 32 bytes
    in hex; only in a log case (it is what a reader of the log is given, LOG-19)."""
    if not log_case:
        raise CaseError(path, "[verify] is for log cases: give [tamper] too (tamper = {} changes nothing)")
    t = dict(_check_keys(table, {"signer", "digests"}, "[verify]", path))
    if "signer" in t and len(_hex(t["signer"], "[verify] signer", path)) != 32:
        raise CaseError(path, "[verify] signer is a public key: 32 bytes in hex (64 digits)")
    digests = t.get("digests", [])
    if not isinstance(digests, list) or any(len(_hex(d, "[verify] digests", path)) != 32 for d in digests):
        raise CaseError(path, "[verify] digests is a list of digests, each 32 bytes in hex (64 digits)")
    return t


Draw = tuple[tuple[Card, ...], ...]  #: the draw's rounds, each a card per seat drawing


def _drawn(preset: str, options: dict[str, Any], draw: Draw, path: Path) -> tuple[int, tuple[int, int]] | None:
    """The first hand's dealer and seats that a draw gives (MATCH-2, MATCH-3, THREE-2), as the engine decides
    them; None when the rule set or the draw is refused (the case is then rejected there, CONF-3). A round
    the draw does not reach makes the case invalid."""
    try:
        match = Match.scripted(RuleSet.preset(preset, **options), cuts=draw, decks=[CANONICAL])
    except KnockError:
        return None
    used = sum(isinstance(e, CutDrawn) for e in match.events)
    if used < len(draw):
        raise CaseError(path, f"the draw is decided after {used} round(s); round {used + 1} is never drawn "
                        "(MATCH-3: only tied seats draw again)")  # fmt: skip
    return match.dealer, match.seats


def _draw(data: dict[str, Any], three: bool, path: Path) -> tuple[tuple[tuple[Card, ...], ...] | None, int | None]:
    """The draw a case gives, directly or as the roles it decides (CONF-11), and the box when roles are given."""
    given = {role: seat_of(data[role], role, path) for role in ROLES if role in data}
    if not given:
        if "draw" not in data:
            return None, None
        if not isinstance(data["draw"], list):
            raise CaseError(path, "'draw' is a list of rounds, e.g. draw = ['Ks 2c']")
        return tuple(_cards_of(r, f"draw round {i + 1}", path) for i, r in enumerate(data["draw"])), None
    if not three:
        raise CaseError(path, "box, captain and sitter are the roles of a three-handed game")
    if "draw" in data:
        raise CaseError(path, "give the roles or the draw that decides them, not both")
    if len(given) < 2 or len(set(given.values())) != len(given):
        raise CaseError(path, "the roles name two or three different seats, e.g. box = 'p1', captain = 'p2'")
    for role in ROLES:  # the one role left out goes to the seat left over
        if role not in given:
            given[role] = next(s for s in range(3) if s not in given.values())
    role_of = {seat: role for role, seat in given.items()}
    return (tuple(Card.parse(ROLE_CARDS[role_of[s]]) for s in range(3)),), given["box"]


def _load_expect(table: object, hands: tuple[CaseHand, ...], path: Path, log_case: bool = False) -> dict[str, Any]:
    """The case's ``[expect]`` (CONF-2, CONF-3, CONF-7, CONF-9): a log case's rejection is placed by its
    ``record`` alone, and ``stage`` does not apply to it."""
    expect = _check_keys(table, EXPECT_KEYS, "[expect]", path)
    outcome = expect.get("outcome")
    if outcome not in ("accept", "reject"):
        raise CaseError(path, "[expect] needs outcome = 'accept' or 'reject'")
    rule = expect.get("rule")
    if outcome == "accept" and rule is not None:
        raise CaseError(path, "only a reject case names a rule in [expect]")
    if not (rule is None or isinstance(rule, str) or (isinstance(rule, list) and rule and all(
            isinstance(r, str) for r in rule))):  # fmt: skip
        raise CaseError(
            path, "a reject case's rule is a rule id, a list of them, or absent (any rule): rule = 'TURN-3'"
        )
    stage = expect.get("stage", "action")
    if stage not in STAGES:
        raise CaseError(path, f"stage is one of {', '.join(STAGES)}")
    if "state" in expect:
        _check_keys(expect["state"], STATE_KEYS, "[expect.state]", path)
    if not hands and not (outcome == "reject" and stage in ("rules", "draw") and not log_case):
        raise CaseError(path, "a case deals at least one [[hand]]")
    if log_case:
        if "stage" in expect:
            raise CaseError(path, "a log case is rejected by the reader at its record: it gives no stage (CONF-7)")
        if outcome == "reject" and "record" not in expect:
            raise CaseError(path, "a tampered log's rejection gives its record: record = N")
    elif outcome == "reject" and stage == "action" and not hands[-1].actions:
        raise CaseError(path, "a case rejected at an action ends with that action")
    return expect


def _load_tamper(table: object, players: int, path: Path) -> dict[str, Any]:
    """A log case's ``[tamper]`` (CONF-7), every value checked for its form (a value of another form makes the
    case invalid, CONF-2); ``view`` becomes the seat's number."""
    t = dict(_check_keys(table, TAMPER_KEYS, "[tamper]", path))

    def number(value: object, what: str) -> int:
        if type(value) is not int or value < 0:
            raise CaseError(path, f"[tamper] {what} is a whole number, 0 or more, not {value!r}")
        return value

    def fields(value: object, what: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
        tab = _check_keys(value, {*required, *optional}, f"[tamper] {what}", path)
        missing = [k for k in required if k not in tab]
        if missing:
            raise CaseError(path, f"[tamper] {what} is a table with {' and '.join(required)}, e.g. "
                            f"{what} = {{ {', '.join(f'{k} = 3' for k in required)} }}")  # fmt: skip
        return tab

    if "fair" in t:
        tab = fields(t["fair"], "fair", ("server", "sent"), ("committed", "signers"))
        servers, sent = tab["server"], tab["sent"]
        if type(tab.get("committed", False)) is not bool:
            raise CaseError(path, "[tamper] fair's committed is true or false (the seats commit first, LOG-25)")
        signers = tab.get("signers", [""] * players)
        if not tab.get("committed", False) and "signers" in tab:
            raise CaseError(path, "[tamper] fair's signers need committed = true (a statement signs the set, LOG-26)")
        if not isinstance(signers, list) or len(signers) != players:
            raise CaseError(path, "[tamper] fair's signers: for each seat the 32-byte seed of its statement key, or ''")
        if any(x and len(_hex(x, "fair signers", path)) != 32 for x in signers):
            raise CaseError(path, "[tamper] fair's signers: a key's seed is 32 bytes in hex, or '' for none")
        if not isinstance(servers, list) or not isinstance(sent, list) or len(servers) != len(sent) or not servers:
            raise CaseError(path, "[tamper] fair gives each hand's server seed and the seeds its seats sent: fair = "
                            "{ server = ['hex'], sent = [['hex', '']] } ('': the server supplies it)")  # fmt: skip
        for hand, (server, seats) in enumerate(zip(servers, sent, strict=True), 1):
            size = len(_hex(server, f"fair server {hand}", path))
            if size != 32 or not isinstance(seats, list) or len(seats) != players:
                raise CaseError(path, f"[tamper] fair: hand {hand}: a 32-byte server seed and one seed a seat")
            if any(x and len(_hex(x, f"fair sent {hand}", path)) != 32 for x in seats):
                raise CaseError(path, f"[tamper] fair: hand {hand}: a seat's seed is 32 bytes, or '' for none")
    if "view" in t:
        view = t["view"]
        seat = view if type(view) is int else seat_of(view, "[tamper] view", path)
        if not 0 <= seat < players:
            raise CaseError(path, f"[tamper] view: a seat of this game, p0 to p{players - 1}, not {view!r}")
        t["view"] = seat
    if "header" in t:
        if not isinstance(t["header"], dict):
            raise CaseError(path, "[tamper] header is a table of the header keys to set: header = { version = [3, 0] }")
        _record_value(t["header"], "header", path)
    for key, at in (("replace", "record"), ("insert", "before")):
        if key in t:
            tab = fields(t[key], key, (at, "value"))
            number(tab[at], f"{key} {at}")
            _record_value(tab["value"], key, path)
    if "delete" in t:
        number(t["delete"], "delete")
    if "rechain" in t and not isinstance(t["rechain"], bool):
        raise CaseError(path, "[tamper] rechain is true or false")
    if "sign" in t and len(_hex(t["sign"], "sign", path)) != 32:
        raise CaseError(path, "[tamper] sign is a secret key: 32 bytes in hex (64 digits)")
    if "append" in t:
        _record_value(t["append"], "append", path)
    if "flip" in t:
        tab = fields(t["flip"], "flip", ("record",), ("byte", "mask"))
        number(tab["record"], "flip record")
        number(tab.get("byte", 0), "flip byte")
        if number(tab.get("mask", 1), "flip mask") not in range(1, 256):
            raise CaseError(path, f"[tamper] flip mask is a byte, 1 to 255, not {tab['mask']!r}")
    if "append_bytes" in t:
        _hex(t["append_bytes"], "append_bytes", path)
    if "truncate" in t:
        if isinstance(t["truncate"], dict):
            tab = fields(t["truncate"], "truncate", ("record", "keep"))
            number(tab["record"], "truncate record")
            number(tab["keep"], "truncate keep")
        else:
            number(t["truncate"], "truncate")
    return t


def _hex(value: object, what: str, path: Path) -> bytes:
    try:
        if isinstance(value, str):
            return bytes.fromhex(value)
    except ValueError:
        pass
    raise CaseError(path, f"[tamper] {what}: bytes are written in hex, e.g. 'c0ff', not {value!r}")


def _record_value(value: object, what: str, path: Path) -> None:
    """Check a value a log case writes into a log: TOML text, numbers, booleans, arrays and tables, with
    ``{bin = "hex"}`` for bytes (CONF-7); a date or a time has no msgpack form."""
    if isinstance(value, dict):
        if set(value) == {"bin"}:
            _hex(value["bin"], what, path)
        for v in value.values():
            _record_value(v, what, path)
    elif isinstance(value, list):
        for v in value:
            _record_value(v, what, path)
    elif not isinstance(value, str | int | float | bool):
        raise CaseError(path, f"[tamper] {what}: a log holds no {type(value).__name__} ({value!r})")


def _load_hand(
    table: object,
    number: int,
    path: Path,
    box: int | None = None,
    drawn: tuple[int, tuple[int, int]] | None = None,
) -> CaseHand:
    """One ``[[hand]]``. The first hand's dealer and seats are those the draw gives (``drawn``), when the case
    gives a draw or the roles and the engine accepts it (CONF-2, CONF-11)."""
    where = f"hand {number}"
    t = _check_keys(table, HAND_KEYS, where, path)
    seats = sorted(int(k[1]) for k in t if re.fullmatch(r"p[0-2]", k))
    if len(seats) != 2:
        raise CaseError(path, f"{where}: give the cards of exactly the two seats dealt in (p0 = '...', p1 = '...')")
    given = {s: _cards_of(t[f"p{s}"], f"{where} p{s}", path) for s in seats}
    if "dealer" in t:
        dealer = seat_of(t["dealer"], f"{where} dealer", path)
    elif number == 1:
        dealer = drawn[0] if drawn is not None else seats[1] if box is None else box
    else:
        raise CaseError(path, f"{where}: every hand after the first names its dealer")
    if number == 1 and drawn is not None and (dealer, tuple(seats)) != drawn:
        d, (a, b) = drawn
        raise CaseError(path, f"{where}: the draw has p{d} deal to p{a} and p{b} (MATCH-2, THREE-2), not p{dealer} "
                        f"to p{seats[0]} and p{seats[1]}: leave the dealer out or write the draw's")  # fmt: skip
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


# --- finding and loading suites -----------------------------------------------------------------


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
                named = {*case.rules, *(case.reject_rules or ())}
                if known is not None and not named <= known:
                    unknown = " ".join(sorted(named - known))
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


def _shipped(name: str) -> Path:
    """A file or folder of the suite shipped in this package (``knock/conformance/suite``)."""
    found = resources.files(__package__ or "knock.conformance").joinpath("suite", name)
    if not isinstance(found, Path):  # pragma: no cover - only a zipped install gets here
        raise CaseError(str(found), "the shipped suite must be installed as files, not inside an archive")
    return found


def default_suite() -> Path:
    """The folder of the suite's cases shipped with Knock (CONF-1)."""
    return _shipped("cases")


def default_logs() -> Path:
    """The folder of the suite's compiled logs, their expected answers and ``case-only.txt`` (CONF-4)."""
    return _shipped("logs")


def rule_ids() -> list[str]:
    """The rule ids a case may name, in spec order: those of rules.md and log-format.md (CONF-2, CONF-8), as
    ``tools/conform.py`` copies them into the package (``suite/rule-ids.txt``)."""
    text = _shipped("rule-ids.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]
