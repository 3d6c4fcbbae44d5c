"""One rule, one place: no refusal under a rule of play is written outside the rules kernel (``engine.kernel``).

The rules of play that judge a player's action — TURN-1, TURN-3, TURN-4, OFFER-4, DEAD-1 .. DEAD-3, KNOCK-2,
KNOCK-4 .. KNOCK-6, LAY-*, and the seat's part in a three-handed game, THREE-1 and THREE-7 — are decided by the
kernel; everything else that refuses under them (``Hand.check``, ``Match``, the per-seat view's checks, the
reckoning of a view's showdown, the terminal, the web) asks it and passes its refusal on. The scan reads the
syntax tree of every module of ``engine``, ``replay`` and ``knock`` and fails on any string that is exactly such
a rule id outside the kernel: a refusal raised with it, a refusal returned or built with it, or a rule chosen as
a value (``rule = "LAY-3" if ... else "LAY-4"``); on a rule id built from pieces; on a refusal (``Refused``,
``IllegalAction``) built outside the kernel (``kernel.illegal`` makes the one an action's caller sees); and on a
legality option read outside it. The exceptions are data that names rules without deciding them: the
transition table's rows (``engine.fsm``), the options' one-line descriptions (``engine.rules.OPTION_RULES``), and
the log's codec and grammar, which own the format rules. Docstrings are prose and are not read."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "replay", "knock")
#: The rules of play the kernel decides (issue 23).
KERNEL_RULES = re.compile(r"(?:TURN-[134]|OFFER-4|DEAD-[123]|KNOCK-[2456]|LAY-\d+|THREE-[17])")
#: The kernel, and the format's own modules (the codec and the grammar may cite format rules).
KERNEL = {"engine/kernel.py", "replay/codec.py", "replay/grammar.py"}
#: Data that names rules without deciding them: (module, the call or assignment that holds them).
DATA = {("engine/fsm.py", "Row"), ("engine/rules.py", "OPTION_RULES")}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that are docstrings."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _holders(tree: ast.AST) -> dict[int, set[str]]:
    """For each node, the names of the calls and of the assigned names it sits inside."""
    out: dict[int, set[str]] = {}

    def mark(node: ast.AST, name: str) -> None:
        for sub in ast.walk(node):
            out.setdefault(id(sub), set()).add(name)

    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            mark(node, node.func.id)
        elif isinstance(node, ast.AnnAssign | ast.Assign):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            for t in targets:
                if isinstance(t, ast.Name):
                    mark(node, t.id)
    return out


def rule_ids_outside_the_kernel(source: str, module: str) -> list[tuple[int, str]]:
    """The (line, rule id) of every string that is exactly a kernel rule's id in ``source``, data aside."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    holders = _holders(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
            continue
        held_in = {(module, name) for name in holders.get(id(node), ())}
        if KERNEL_RULES.fullmatch(node.value) and not held_in & DATA:
            found.append((node.lineno, node.value))
    return sorted(found)


def modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


@pytest.mark.rule("TURN-1", "TURN-3", "TURN-4", "OFFER-4", "DEAD-2", "KNOCK-2", "KNOCK-5", "KNOCK-6", "LAY-5")
def test_no_rule_of_play_is_decided_outside_the_kernel() -> None:
    faults = []
    for p in modules():
        module = p.relative_to(ROOT).as_posix()
        if module in KERNEL:
            continue
        faults += [f"{module}:{line}: {rule}" for line, rule in rule_ids_outside_the_kernel(p.read_text(), module)]
    assert not faults, "refusals under the kernel's rules outside engine/kernel.py:\n" + "\n".join(faults)


@pytest.mark.rule("TURN-4", "LAY-3", "DEAD-1")
def test_the_scan_sees_every_way_a_rule_is_cited() -> None:
    """The scan cannot pass by missing a form: a raise, a returned refusal, a chosen rule, a mapping to a rule."""
    source = '''
"""A module's docstring may say TURN-4 freely."""
def f(x):
    """So may a function's: KNOCK-2."""
    if x:
        raise LogError("TURN-4", 0, "the card just taken")
    rule = "LAY-3" if x else "LAY-4"
    REASONS = {"stock": "DEAD-1"}
    return Refusal("KNOCK-5", "no gin")
'''
    found = rule_ids_outside_the_kernel(source, "replay/public.py")
    assert [rule for _, rule in found] == ["TURN-4", "LAY-3", "LAY-4", "DEAD-1", "KNOCK-5"]
    assert rule_ids_outside_the_kernel('Row("discard", 1, 2, None, "player", ("TURN-3",))', "engine/fsm.py") == []
    assert rule_ids_outside_the_kernel('Row("discard", ("TURN-3",))', "engine/hand.py") == [(1, "TURN-3")]
    assert rule_ids_outside_the_kernel('x = "TURN-2"; y = "LOG-12"; z = "KNOCK-3"', "engine/hand.py") == []


@pytest.mark.rule("TURN-1", "TURN-3", "KNOCK-2", "LAY-5")
def test_the_kernel_is_where_the_refusals_are() -> None:
    """The kernel itself cites every rule the scan keeps out of the other modules (so the scan is not vacuous)."""
    tree = ast.parse((ROOT / "engine" / "kernel.py").read_text())
    cited = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    want = {"TURN-1", "TURN-3", "TURN-4", "OFFER-4", "DEAD-1", "DEAD-2", "DEAD-3", "KNOCK-2", "KNOCK-4", "KNOCK-5",
            "KNOCK-6", "LAY-1", "LAY-2", "LAY-3", "LAY-4", "LAY-5", "LAY-6", "THREE-1", "THREE-7"}  # fmt: skip
    assert want <= cited, sorted(want - cited)


#: The quantities of the rules kept in one function each (issue #60): the option that decides each, and the modules
#: that may read it — its one function, and the places that read the option for another purpose (said why).
ONE_HOME = {
    "spades_double": {
        "engine/hand.py",  # multiplier_for: the hand's multiplier (OKLA-4), asked by the hand, views and encoders
        "knock/envs/episode.py",  # the bound of an episode's reward (the largest a hand can score), not a hand's
    },
}


@pytest.mark.rule("OKLA-4")
def test_each_quantity_is_read_from_its_option_in_one_place() -> None:
    for option, allowed in ONE_HOME.items():
        readers = set()
        for package in PACKAGES:
            for path in (ROOT / package).rglob("*.py"):
                tree = ast.parse(path.read_text(encoding="utf-8"))
                if any(isinstance(n, ast.Attribute) and n.attr == option for n in ast.walk(tree)):
                    readers.add(path.relative_to(ROOT).as_posix())
        assert readers == allowed, (option, sorted(readers - allowed), sorted(allowed - readers))


# --- decisions, not citations (issue #60) ---------------------------------------------------------------------------

#: The kernel rules' prefixes: a string that begins a rule id of one without being one is a rule id built from pieces.
PIECE = re.compile(r"(?:TURN|OFFER|DEAD|KNOCK|LAY|THREE)-(?!\d+\Z)")
BARE = re.compile(r"(?:TURN|OFFER|DEAD|KNOCK|LAY|THREE)-?")
#: The rule-set options that decide whether an action is legal (or what a seat sees), and the only modules that read
#: them: the kernel and its fast path (``engine.legal``), ``engine.visibility`` for what a seat sees; and the reads
#: for another purpose, each said why.
LEGALITY = {"may_discard_taken_card", "wall_pickup_to_knock", "max_consecutive_discard_pickups", "big_gin_bonus",
            "knock_limit", "knock_limit_value", "oklahoma_ace", "sitter_sees_captain_hand"}  # fmt: skip
READERS = {
    "engine/kernel.py": LEGALITY,
    "engine/visibility.py": {"sitter_sees_captain_hand"},  # what a seat sees (VIS-1, THREE-8)
    "engine/scoring.py": {"big_gin_bonus"},  # the bonus's points when big gin is scored (SCORE-4), not whether
    "knock/envs/episode.py": {"big_gin_bonus"},  # the bound of an episode's reward, not a hand's legality
    "knock/envs/openspiel.py": {"max_consecutive_discard_pickups"},  # OpenSpiel's own parameter, mapped
}


#: The refusals of an action: built only in the kernel (``IllegalAction`` by ``kernel.illegal``).
REFUSALS = {"Refused", "IllegalAction"}


def decisions_outside_the_kernel(source: str, module: str) -> list[tuple[int, str]]:
    """What decides a rule of play outside the kernel: a rule id of one built from pieces (``+``, an f-string,
    ``join``, ``%``, ``format``), a refusal (``Refused``) built, a legality option read from a rule set."""
    tree = ast.parse(source)
    docs = _docstrings(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if PIECE.match(node.value):
                found.append((node.lineno, f"a rule id from pieces: {node.value!r}"))
        elif isinstance(node, ast.JoinedStr) and re.search(
            r"(?:TURN|OFFER|DEAD|KNOCK|LAY|THREE)-\Z", _before_first_value(node)
        ):
            found.append((node.lineno, "a rule id from an f-string"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            for side in (node.left, node.right):
                if isinstance(side, ast.Constant) and isinstance(side.value, str) and BARE.fullmatch(side.value):
                    found.append((node.lineno, f"a rule id from pieces: {side.value!r} + …"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
            for arg in node.args:
                items = arg.elts if isinstance(arg, ast.List | ast.Tuple) else []
                if any(
                    isinstance(i, ast.Constant) and isinstance(i.value, str) and BARE.fullmatch(i.value) for i in items
                ):
                    found.append((node.lineno, "a rule id joined from pieces"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
            name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            if name in REFUSALS and module != "engine/kernel.py":
                found.append((node.lineno, f"a refusal ({name}) built outside the kernel"))
        if isinstance(node, ast.Attribute) and node.attr in LEGALITY:
            owner = node.value.attr if isinstance(node.value, ast.Attribute) else getattr(node.value, "id", None)
            if owner == "rules" and node.attr not in READERS.get(module, set()):
                found.append((node.lineno, f"the legality option {node.attr} read outside the kernel"))
    return sorted(found)


def _before_first_value(node: ast.JoinedStr) -> str:
    """An f-string's text up to its first replacement field."""
    out = ""
    for v in node.values:
        if isinstance(v, ast.FormattedValue):
            break
        if isinstance(v, ast.Constant) and isinstance(v.value, str):
            out += v.value
    return out


@pytest.mark.rule("TURN-4", "OFFER-4", "KNOCK-6", "KNOCK-3", "DEAD-2")
def test_no_rule_of_play_is_decided_outside_the_kernel_however_it_is_written() -> None:
    faults = []
    for p in modules():
        module = p.relative_to(ROOT).as_posix()
        faults += [f"{module}:{line}: {what}" for line, what in decisions_outside_the_kernel(p.read_text(), module)]
    assert not faults, "decisions of the rules of play outside engine/kernel.py:\n" + "\n".join(faults)


@pytest.mark.rule("TURN-4", "OFFER-4", "KNOCK-6")
@pytest.mark.parametrize(
    "fixture",
    [
        'raise kernel.Refused("OFFER" + "-4", "after both passed")',
        'raise kernel.Refused(f"OFFER-{4}", "after both passed")',
        'rule = "-".join(["OFFER", "4"])',
        'rule = "OFFER-%d" % 4',
        'rule = "OFFER-{}".format(4)',
        'raise Refused("MATCH-1", "a refusal of any rule, built outside the kernel")',
        'raise IllegalAction(err.rule, err.reason, phase="discard", action=a)',
        'raise errors.IllegalAction("ENV-2", "no such id", phase="draw", action=9)',
        'rule = "THREE" + "-7"',
        "free = obs.rules.may_discard_taken_card",
        "if hand.rules.big_gin_bonus is None: pass",
        "limit = self.rules.knock_limit_value",
    ],
    ids=[
        "plus",
        "f-string",
        "join",
        "percent",
        "format",
        "refusal",
        "illegal",
        "illegal-2",
        "three",
        "option",
        "option-2",
        "option-3",
    ],
)
def test_the_guard_fails_every_way_of_deciding_a_rule_outside_the_kernel(fixture: str) -> None:
    assert decisions_outside_the_kernel(fixture, "engine/legal.py"), fixture
    assert decisions_outside_the_kernel('rule = "OFFER-4"; label = "KNOCK"; x = f"p{1} knocks"', "knock/x.py") == []
