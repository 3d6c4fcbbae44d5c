#!/usr/bin/env python3
"""Compile the conformance cases into their log forms (CONF-4), copy the spec's rule ids into the package, and
print the rule coverage (CONF-8).

    .venv/bin/python tools/conform.py            # write the suite's logs/NAME.knock, NAME.json and rule-ids.txt
    .venv/bin/python tools/conform.py --check    # exit 1 if a compiled log, an answer or the rule ids would change
    .venv/bin/python tools/conform.py --coverage # the coverage table and the gaps

The suite is package data under ``knock/conformance/suite``: ``cases/`` (written by hand), ``logs/`` and
``rule-ids.txt`` (written by this tool). ``NAME.json`` is the answer a log reader must give for ``NAME.knock``
(CONF-5, log mode); the cases without a log form are listed in ``logs/case-only.txt``. ``rule-ids.txt`` lists
the rule ids of spec/rules.md and spec/log-format.md, so that an installed Knock checks and counts the rule ids
of cases without the spec beside it. Run the cases with ``knock conform run``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from knock.conformance import compile_case, expected_answer, load_cases, rule_coverage

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "knock" / "conformance" / "suite"
CASES = SUITE / "cases"
LOGS = SUITE / "logs"
RULE_IDS = SUITE / "rule-ids.txt"
#: A rule's line in the spec: ``- **KNOCK-2** — text``.
RULE_LINE = re.compile(r"^- \*\*([A-Z]+-\d+)\*\* — \S", flags=re.MULTILINE)
RULE_SOURCES = ("rules.md", "log-format.md")


def spec_rule_ids() -> list[str]:
    """The rule ids cases may name (CONF-2, CONF-8): the game's rules and the log format's, in spec order."""
    return [i for name in RULE_SOURCES for i in RULE_LINE.findall((ROOT / "spec" / name).read_text("utf-8"))]


def rule_ids_text() -> str:
    head = f"# The rule ids of spec/{' and spec/'.join(RULE_SOURCES)}, written by tools/conform.py: do not edit.\n"
    return head + "".join(f"{i}\n" for i in spec_rule_ids())


def outputs() -> dict[Path, bytes]:
    """Every file this tool writes, by path: the compiled suite and the rule ids."""
    out: dict[Path, bytes] = {RULE_IDS: rule_ids_text().encode()}
    case_only: list[str] = []
    for case in load_cases([CASES]):
        compiled = compile_case(case, executor="compiled")  # the performance mode; the suite checks both agree
        if compiled.data is None:
            case_only.append(f"{case.name}: {compiled.why_none}")
            continue
        stem = LOGS / case.name
        out[stem.with_suffix(".knock")] = compiled.data
        answer = expected_answer(case) | ({"record": compiled.expect["record"]} if "record" in compiled.expect else {})
        if "record" in answer:
            answer.pop("hand", None), answer.pop("action", None)
        out[stem.with_suffix(".json")] = (json.dumps(answer, indent=1, sort_keys=True) + "\n").encode()
    out[LOGS / "case-only.txt"] = "".join(f"{line}\n" for line in case_only).encode()
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="exit 1 if a compiled log, answer or rule id would change")
    parser.add_argument("--coverage", action="store_true", help="print the rule coverage and the gaps")
    args = parser.parse_args(argv)
    if args.coverage:
        cov = rule_coverage(load_cases([CASES]), spec_rule_ids())
        for rule, acc, rej in cov.rows():
            print(f"{rule:10} accept {acc:3}  reject {rej:3}")
        for gap in cov.missing():
            print(f"missing {gap}")
        return 1 if cov.missing() else 0
    want = outputs()
    have = {p for p in LOGS.rglob("*") if p.is_file()} if LOGS.exists() else set()
    stale = sorted(p for p, data in want.items() if not p.exists() or p.read_bytes() != data)
    extra = sorted(have - set(want))
    if args.check:
        for p in stale:
            print(f"would change: {p.relative_to(ROOT)}")
        for p in extra:
            print(f"would remove: {p.relative_to(ROOT)}")
        if not stale and not extra:
            print(f"{SUITE.relative_to(ROOT)} is up to date ({len(want)} files)")
        return 1 if stale or extra else 0
    for p in stale:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(want[p])
        print(f"wrote {p.relative_to(ROOT)}")
    for p in extra:
        p.unlink()
        print(f"removed {p.relative_to(ROOT)}")
    print(f"{len(want) - 2} files for {sum(1 for p in want if p.suffix == '.knock')} logs, and the rule ids")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
