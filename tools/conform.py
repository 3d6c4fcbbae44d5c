#!/usr/bin/env python3
"""Compile the conformance cases into their log forms (CONF-4) and print the rule coverage (CONF-8).

    .venv/bin/python tools/conform.py            # write tests/conformance/logs/NAME.knock and NAME.json
    .venv/bin/python tools/conform.py --check    # exit 1 if a compiled log or answer would change
    .venv/bin/python tools/conform.py --coverage # the coverage table and the gaps

``NAME.json`` is the answer a log reader must give for ``NAME.knock`` (CONF-5, log mode); the cases without
a log form are listed in ``case-only.txt``. Run the cases with ``knock conform run``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from knock.conformance import compile_case, coverage, expected_answer, load_cases

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "conformance" / "cases"
LOGS = ROOT / "tests" / "conformance" / "logs"


def outputs() -> dict[Path, bytes]:
    """Every file of the compiled suite, by path."""
    out: dict[Path, bytes] = {}
    case_only: list[str] = []
    for case in load_cases([CASES]):
        compiled = compile_case(case)
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
    parser.add_argument("--check", action="store_true", help="exit 1 if a compiled log or answer would change")
    parser.add_argument("--coverage", action="store_true", help="print the rule coverage and the gaps")
    args = parser.parse_args(argv)
    if args.coverage:
        cov = coverage(load_cases([CASES]), ROOT / "spec")
        for rule, acc, rej, forbids in cov.rows():
            print(f"{rule:10} accept {acc:3}  reject {rej:3}{'  (forbids)' if forbids else ''}")
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
            print(f"{LOGS.relative_to(ROOT)} is up to date ({len(want)} files)")
        return 1 if stale or extra else 0
    for p in stale:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(want[p])
        print(f"wrote {p.relative_to(ROOT)}")
    for p in extra:
        p.unlink()
        print(f"removed {p.relative_to(ROOT)}")
    print(f"{len(want) - 1} files for {sum(1 for p in want if p.suffix == '.knock')} logs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
