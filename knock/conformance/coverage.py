"""Coverage: which rule ids the cases give evidence for, accepted and rejected, read from the cases alone.

Rule: CONF-8.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from knock.conformance.cases import Case, CaseError, rule_ids


@dataclass(frozen=True)
class Coverage:
    """The cases of each rule id, in spec order."""

    accept: dict[str, list[str]]  #: rule -> the cases it is accepted behaviour in
    reject: dict[str, list[str]]  #: rule -> the cases rejected under it

    def missing(self) -> list[str]:
        """What the suite lacks: the rules without an accept case (CONF-8)."""
        return [f"{r}: no accept case" for r, cs in self.accept.items() if not cs]

    def rows(self) -> Iterator[tuple[str, int, int]]:
        """(rule, accept cases, reject cases) for every rule id."""
        for rule in self.accept:
            yield rule, len(self.accept[rule]), len(self.reject[rule])


def rule_coverage(cases: Sequence[Case], ids: Sequence[str] | None = None) -> Coverage:
    """Which rule ids have accept and reject cases (CONF-8), over ``ids`` (default: every rule id of the spec).
    A reject case that names one rule counts as a reject case for it, whether or not its ``rules`` list it, and
    its other listed rules as accepted behaviour up to the rejection; a reject case that accepts several rules,
    or any, counts for no rule (CONF-9); nor does a case that lists no rules (CONF-10).

    Raises:
        CaseError: a case names a rule outside ``ids``.
    """
    ids = rule_ids() if ids is None else ids
    accept: dict[str, list[str]] = {r: [] for r in ids}
    reject: dict[str, list[str]] = {r: [] for r in ids}
    for c in cases:
        if not c.rules:
            continue
        broken = c.reject_rules if c.outcome == "reject" else ()
        unknown = [r for r in (*c.rules, *(broken or ())) if r not in accept]
        if unknown:
            raise CaseError(c.path, f"names rule {unknown[0]}, which the spec does not define")
        if broken is None or len(broken) > 1:
            continue
        for r in c.rules:
            if r not in broken:
                accept[r].append(c.name)
        for r in broken:
            reject[r].append(c.name)
    return Coverage(accept, reject)
