"""Every rule id in the spec (rules, log format, conformance, environments, the table protocol) has a test and is
cited by the code; code and tests cite only ids that exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE_LINE = re.compile(r"^- \*\*([A-Z]+-\d+)\*\* — \S", flags=re.MULTILINE)


SPEC_FILES = ("rules.md", "log-format.md", "conformance.md", "environments.md", "protocol.md", "notation.md")


def spec_ids() -> list[str]:
    return [i for name in SPEC_FILES for i in RULE_LINE.findall((ROOT / "spec" / name).read_text(encoding="utf-8"))]


def prefixes() -> set[str]:
    return {i.split("-")[0] for i in spec_ids()}


def cited_in(paths: list[Path]) -> dict[str, set[str]]:
    """Rule ids mentioned in source files (any token PREFIX-N with a spec prefix), by id."""
    pattern = re.compile(r"\b(" + "|".join(sorted(prefixes())) + r")-(\d+)\b")
    found: dict[str, set[str]] = {}
    for p in paths:
        for m in pattern.finditer(p.read_text(encoding="utf-8")):
            found.setdefault(f"{m.group(1)}-{m.group(2)}", set()).add(str(p.relative_to(ROOT)))
    return found


def marked_in_tests() -> dict[str, set[str]]:
    """Rule ids named in ``pytest.mark.rule(...)`` in the tests, by id."""
    found: dict[str, set[str]] = {}
    for p in (ROOT / "tests").rglob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "rule"
                and isinstance(node.func.value, ast.Attribute)
                and node.func.value.attr == "mark"
            ):
                for arg in node.args:
                    assert isinstance(arg, ast.Constant) and isinstance(arg.value, str), f"{p}: rule ids are literals"
                    found.setdefault(arg.value, set()).add(str(p.relative_to(ROOT)))
    return found


def code_files() -> list[Path]:
    return [p for d in ("engine", "replay", "tools") for p in (ROOT / d).rglob("*.py")]


def test_rule_ids_are_unique_and_well_formed() -> None:
    ids = spec_ids()
    assert ids, "no rules found in spec/rules.md"
    assert len(ids) == len(set(ids)), "a rule id appears twice"
    for prefix in prefixes():
        numbers = sorted(int(i.split("-")[1]) for i in ids if i.startswith(prefix + "-"))
        assert numbers == list(range(1, len(numbers) + 1)), f"{prefix} ids are not 1..n: {numbers}"


def test_every_rule_has_a_test() -> None:
    missing = sorted(set(spec_ids()) - set(marked_in_tests()))
    assert not missing, f"rules with no test marked @pytest.mark.rule: {missing}"


def test_tests_mark_only_existing_rules() -> None:
    unknown = {i: f for i, f in marked_in_tests().items() if i not in set(spec_ids())}
    assert not unknown, f"tests mark rule ids that spec/rules.md does not define: {unknown}"


def test_code_cites_only_existing_rules() -> None:
    unknown = {i: f for i, f in cited_in(code_files()).items() if i not in set(spec_ids())}
    assert not unknown, f"code cites rule ids that spec/rules.md does not define: {unknown}"


def test_every_rule_is_cited_by_the_code() -> None:
    cited = cited_in([p for d in ("engine", "replay", "knock") for p in (ROOT / d).rglob("*.py")])
    missing = sorted(set(spec_ids()) - set(cited))
    assert not missing, f"rules that no engine or replay code cites: {missing}"
