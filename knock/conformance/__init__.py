"""The conformance suite (spec/conformance.md): cases, Knock's answers, log forms, adapters and coverage.

A *case* is a TOML file (``cases``); Knock answers it by playing it on the engine and by replaying its log
form (``answer``, ``compile``, ``tamper`` for log cases); another implementation answers through an adapter
command (``adapter``); ``run`` compares each answer with the case's expectation; ``coverage`` counts the
cases of each rule id. The suite itself ships with the package: ``default_suite()`` (the cases),
``default_logs()`` (their compiled logs and expected answers) and ``rule_ids()``.
"""

from knock.conformance.adapter import AdapterFailure, ask_adapter
from knock.conformance.answer import answer_case, answer_log, expected_answer
from knock.conformance.cases import (
    Case,
    CaseError,
    CaseHand,
    default_logs,
    default_suite,
    find_cases,
    load_case,
    load_cases,
    rule_ids,
)
from knock.conformance.compile import Compiled, compile_case
from knock.conformance.coverage import Coverage, rule_coverage
from knock.conformance.run import CaseResult, compare, run_case
from knock.conformance.tamper import tamper_log

__all__ = [
    "AdapterFailure",
    "Case",
    "CaseError",
    "CaseHand",
    "CaseResult",
    "Compiled",
    "Coverage",
    "answer_case",
    "answer_log",
    "ask_adapter",
    "compare",
    "compile_case",
    "default_logs",
    "default_suite",
    "expected_answer",
    "find_cases",
    "load_case",
    "load_cases",
    "rule_coverage",
    "rule_ids",
    "run_case",
    "tamper_log",
]
