"""Running a case: Knock answers it in case mode and in log mode, or another implementation answers it through
an adapter, and each answer is compared with what the case expects.

Rules: CONF-3, CONF-5, CONF-6, CONF-7.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import KnockError
from engine.fsm import ExecutorName
from knock.conformance.adapter import AdapterFailure, ask_adapter
from knock.conformance.answer import answer_case, answer_log, norm_cards
from knock.conformance.cases import Case, CaseError
from knock.conformance.compile import Compiled, compile_case


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
        acceptable = case.reject_rules
        if acceptable is not None and len(acceptable) > 1 and answer.get("rule") not in acceptable:
            problems.append(
                f"rule: expected one of {json.dumps(list(acceptable))}, got {json.dumps(answer.get('rule'))}"
            )
        elif acceptable is not None and len(acceptable) == 1:
            check("rule", acceptable[0], answer.get("rule"))
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
                    check(f"state.holding.{seat}", norm_cards(held), (got.get("holding") or {}).get(seat))
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


@dataclass
class CaseResult:
    name: str
    rules: tuple[str, ...]
    outcome: str
    passed: bool
    modes: dict[str, str] = field(default_factory=dict)  #: mode -> "pass" | "fail" | "skip" | "unsupported"
    problems: list[str] = field(default_factory=list)
    unsupported: str = ""  #: why the adapter's implementation cannot express the case (CONF-6), else empty

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def run_case(
    case: Case,
    adapter: str | None = None,
    workdir: Path | None = None,
    timeout: float = 60,
    *,
    executor: ExecutorName | None = None,
) -> CaseResult:
    """Run one case: with Knock in both modes, or through an adapter command (CONF-6).

    ``executor`` runs every game of the case (by default the case mode plays on the engine's default,
    ``"library"``, and the log is compiled and replayed in the ``"compiled"`` mode). Whatever the case holds,
    the result is its pass or fail: an error nothing else expects (a bug) fails the case, saying so, and
    the runner goes on with the others (CONF-2).
    """
    result = CaseResult(case.name, case.rules, case.outcome, True)
    try:
        _run(case, result, adapter, workdir, timeout, executor)
    except Exception as err:  # the runner's last resort: one case fails, never the run
        result.passed = False
        for mode in ("adapter",) if adapter is not None else ("case", "log"):
            result.modes.setdefault(mode, "fail")  # the mode that met the error, and those it stopped
        result.problems.append(f"internal error (a bug in Knock): {type(err).__name__}: {err}")
    return result


def _run(
    case: Case,
    result: CaseResult,
    adapter: str | None,
    workdir: Path | None,
    timeout: float,
    executor: ExecutorName | None,
) -> None:
    """Fill ``result`` with the case's modes and problems (``run_case``)."""

    def record(mode: str, problems: list[str]) -> None:
        result.modes[mode] = "fail" if problems else "pass"
        result.problems += [f"{mode}: {p}" for p in problems]
        result.passed = result.passed and not problems

    try:
        compiled = compile_case(case, executor=executor or "compiled")
    except CaseError as err:
        record("case", [err.reason])
        return
    except KnockError as err:  # e.g. a view of a log that does not replay cannot be made (LOG-11)
        record("log", [f"the log form cannot be made: {err}"])
        return
    if adapter is not None:
        problems = _adapter_problems(adapter, case, compiled, workdir or Path("."), timeout)
        if isinstance(problems, Unsupported):
            result.modes["adapter"] = "unsupported"
            result.unsupported = problems.reason
        else:
            record("adapter", problems)
        return
    if case.tamper is None:
        try:
            record("case", compare(case, answer_case(case, executor=executor or "library"), log=False))
        except CaseError as err:
            record("case", [err.reason])
    else:
        result.modes["case"] = "skip"
    if compiled.data is None:
        result.modes["log"] = "skip"
    else:
        answer = answer_log(compiled.data, executor=executor or "compiled", verify=case.verify)
        record("log", compare(dataclasses.replace(case, expect=compiled.expect), answer, log=True))


@dataclass(frozen=True)
class Unsupported:
    """An adapter's answer that its implementation cannot express the case (CONF-6)."""

    reason: str


def _adapter_problems(
    command: str, case: Case, compiled: Compiled, workdir: Path, timeout: float
) -> list[str] | Unsupported:
    """The adapter's answer compared in the mode it answered in: log mode when it gives a record (CONF-6)."""
    try:
        answer = ask_adapter(command, case, compiled.data, workdir, timeout)
    except AdapterFailure as err:
        return [err.reason]
    if answer.get("outcome") == "unsupported":
        return Unsupported(str(answer.get("reason", "")))
    uses_log = "record" in answer or case.tamper is not None
    if uses_log and compiled.data is None:
        return [f"the case has no log form ({compiled.why_none}): answer in case mode, with hand and action"]
    expected_case = dataclasses.replace(case, expect=compiled.expect) if uses_log else case
    return compare(expected_case, answer, log=uses_log)
