#!/usr/bin/env python3
"""Run the conformance suite through the peers' adapters and write the report ``docs/peers.md``.

    .venv/bin/python tools/peers.py                 # every case through every adapter (about 3 minutes on
                                                    # 2 cores): writes docs/peers.json and docs/peers.md
    .venv/bin/python tools/peers.py --check         # exit 1 unless docs/peers.md is what docs/peers.json
                                                    # renders and the record is today's (see below)
    .venv/bin/python tools/peers.py --render        # docs/peers.md again from docs/peers.json, nothing run
    .venv/bin/python tools/peers.py --only LAY-4    # the cases whose name holds LAY-4; the report printed

The adapters (``tools/adapters/``) play each case on another Gin implementation set up as close to the case's
rules as it allows, and answer ``unsupported`` where it cannot express the case (CONF-6). The report gives,
per rule id, how many of its cases pass, fail and cannot be expressed, and explains the first failing case
of each rule that fails: what the peer did and what the rules say.

``docs/peers.json`` records every case's result with what it was run on: the digest of each case file, the
digest of each adapter (and the modules it is built on) and each peer's version. ``--check`` (run by the test
suite) fails when the report is not the record's rendering, when a case, an adapter or a peer's version
has changed since the record was made (run this tool again), or when the recorded failures and a few
other cases, run again, do not give the recorded results.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from knock.conformance import Case, CaseResult, default_suite, load_cases, rule_ids, run_case

ROOT = Path(__file__).resolve().parent.parent
ADAPTERS = ROOT / "tools" / "adapters"
REPORT = ROOT / "docs" / "peers.md"
RECORD = ROOT / "docs" / "peers.json"
RULE_LINE = re.compile(r"^- \*\*([A-Z]+-\d+)\*\* — (.*)$", flags=re.MULTILINE)


@dataclass(frozen=True)
class Peer:
    name: str
    package: str  #: the distribution whose version is reported
    adapter: str  #: the adapter's file in tools/adapters
    built_on: tuple[str, ...]  #: other files the adapter's answers depend on (paths from the root)
    what: str
    #: Rules of Knock's the peer has no notion of (a rule id, or a prefix ending in "-"), with why: a case that
    #: is evidence for one of them says nothing of the peer there (the adapter took the draw, the seeded deck
    #: or the rule set from the case), so the rule is reported as not played.
    not_played: tuple[tuple[str, str], ...] = ()

    def plays(self, rule: str) -> str | None:
        """Why the peer does not play ``rule``, or None when it does."""
        return next((why for r, why in self.not_played if rule == r or (r.endswith("-") and rule.startswith(r))), None)

    def version(self) -> str:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version(self.package)
        except PackageNotFoundError:
            return "not installed"

    def digest(self) -> str:
        """The digest of the adapter and the files it is built on: a change to any of them makes the record stale."""
        h = hashlib.sha256()
        for path in (f"tools/adapters/{self.adapter}", *self.built_on):
            h.update(path.encode() + b"\0" + (ROOT / path).read_bytes())
        return h.hexdigest()


#: What neither peer plays: a game of hands to a target, its dealer draw and bonuses, three players, Knock's
#: seeded shuffle and its log.
ONE_HAND = (("MATCH-", "one hand: no game to a target, no dealer draw"), ("BONUS-", "one hand: no game bonuses"),
            ("THREE-", "two players"), ("DEAL-2", "its own deal: not Knock's seeded shuffle"),
            ("LOG-", "no Knock log"))  # fmt: skip
PEERS = (
    Peer("RLCard", "rlcard", "rlcard_gin.py", (),
         "RLCard's `GinRummyGame` (`rlcard.games.gin_rummy`), the game behind PettingZoo's `gin_rummy_v4`",
         ONE_HAND),
    Peer("OpenSpiel", "open_spiel", "openspiel_gin.py", ("tools/adapters/openspiel_map.py",),
         "OpenSpiel's `gin_rummy` (C++, through `pyspiel`), its chance nodes given the case's deal", ONE_HAND),
)  # fmt: skip


def suite_cases(only: str = "") -> list[Case]:
    return [c for c in load_cases([default_suite()]) if only in c.name]


def case_digest(case: Case) -> str:
    return hashlib.sha256(case.path.read_bytes()).hexdigest()


def run_peer(peer: Peer, cases: list[Case], jobs: int) -> list[CaseResult]:
    command = f"{sys.executable} {ADAPTERS / peer.adapter}"
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(lambda case: run_case(case, command, Path(tmp)), cases))


def status(result: CaseResult) -> str:
    return "n/a" if result.unsupported else "pass" if result.passed else "fail"


# --- the record ----------------------------------------------------------------------------------------------


def record(results: dict[Peer, list[CaseResult]], cases: list[Case]) -> str:
    """The text of docs/peers.json: one line per case and per result (``[status]``, ``["fail", problem, …]`` or
    ``["n/a", reason]``), so that a new run's changes read as a diff."""

    def block(items: dict[str, Any]) -> str:
        return (
            "{\n"
            + ",\n".join(f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in items.items())
            + "\n }"
        )

    def entry(r: CaseResult) -> list[str]:
        return [status(r), *([r.unsupported] if r.unsupported else r.problems if not r.passed else [])]

    parts = {
        "generated_by": json.dumps("tools/peers.py"),
        "peers": block({p.name: {"version": p.version(), "adapter": p.digest()} for p in results}),
        "cases": block({c.name: case_digest(c) for c in cases}),
        **{f"results {p.name}": block({r.name: entry(r) for r in rs}) for p, rs in results.items()},
    }
    return "{\n" + ",\n".join(f" {json.dumps(k)}: {v}" for k, v in parts.items()) + "\n}\n"


def from_record(data: dict[str, Any], cases: list[Case]) -> tuple[dict[Peer, list[CaseResult]], dict[str, str]]:
    """The recorded results by peer (in the suite's order), and the recorded version of each."""
    results = {}
    for peer in PEERS:
        recorded = data.get(f"results {peer.name}", {})
        rs = []
        for case in cases:
            if case.name not in recorded:
                continue
            state, *text = recorded[case.name]
            rs.append(CaseResult(case.name, case.rules, case.outcome, state != "fail", {"adapter": state},
                                 text if state == "fail" else [], text[0] if state == "n/a" else ""))  # fmt: skip
        results[peer] = rs
    return results, {name: info["version"] for name, info in data["peers"].items()}


# --- the report ----------------------------------------------------------------------------------------------


def rule_texts() -> dict[str, str]:
    """The first sentence of every rule of spec/rules.md and spec/log-format.md."""
    out = {}
    for name in ("rules.md", "log-format.md"):
        for rule, text in RULE_LINE.findall((ROOT / "spec" / name).read_text(encoding="utf-8")):
            text = re.sub(r"\s*\*\((brief|seed)[^)]*\)\*", "", text)  # the brief's references
            out[rule] = re.split(r"(?<=[.)])\s+(?=[A-Z(*])", text.strip(), maxsplit=1)[0].rstrip("* ")
    return out


def explain(peer: Peer, result: CaseResult, case: Case) -> str:
    """What the peer did with a failing case, and what the rules say."""
    problems = [p.removeprefix("adapter: ") for p in result.problems]
    refused = re.match(r"rejected at hand (\d+) action (\d+) with (\S+): (.*)", problems[-1])
    if result.outcome == "accept" and refused:
        h, a, rule, reason = int(refused[1]), int(refused[2]), refused[3], refused[4]
        act = f"action {a}, `{case.hands[h - 1].actions[a - 1]}`" if a and h else "the deal"
        return f"{peer.name} refuses {act} (naming {rule}: {reason}); the rules accept every action of the case."
    if result.outcome == "reject" and problems[0].startswith("outcome:"):
        h, a = case.reject_at
        act = f"its last action, `{case.hands[h - 1].actions[a - 1]}`" if a and h else f"its {case.expect['stage']}"
        rule = case.expect.get("rule")
        return f"{peer.name} accepts {act}; the rules refuse it" + (f" under {rule}." if rule else ".")
    return f"{peer.name}'s answer differs from what the rules give: " + "; ".join(problems) + "."


def report(results: dict[Peer, list[CaseResult]], versions: dict[str, str], cases: Iterable[Case]) -> str:
    """The markdown of docs/peers.md."""
    by_name = {c.name: c for c in cases}
    texts = rule_texts()
    lines = [
        "# The peers through Knock's conformance suite",
        "",
        "Generated by `tools/peers.py` from its record `docs/peers.json` (do not edit): every case of the",
        "conformance suite ([spec/conformance.md](../spec/conformance.md)) played on another Gin implementation",
        'through its adapter in `tools/adapters/` (`knock conform run --adapter "python tools/adapters/NAME.py"`),',
        "set up as close to the case's rules and deal as that implementation allows. A case it cannot express —",
        "a rule option, a deal, an action or an expected field it has no notion of — is *not expressible*",
        "(n/a), neither passed nor failed (CONF-6). A rule *fails* when a case that is evidence for it fails.",
        "",
    ]
    for peer, rs in results.items():
        counts = Counter(status(r) for r in rs)
        lines += [f"- **{peer.name}** {versions[peer.name]}: {peer.what}. {len(rs)} cases: {counts['pass']} pass, "
                  f"{counts['fail']} fail, {counts['n/a']} not expressible."]  # fmt: skip
    lines += ["", "## Per rule", ""]
    lines += ["| rule | " + " | ".join(f"{p.name}: pass / fail / n/a" for p in results) + " |"]
    lines += ["|---|" + "---|" * len(results)]
    for rule in rule_ids():
        cells = []
        for peer, rs in results.items():
            c = Counter(status(r) for r in rs if rule in r.rules)
            verdict = "**fail**" if c["fail"] else "pass" if c["pass"] else "not expressible" if c else "no case"
            if peer.plays(rule):
                verdict = "not played"
            cells.append(f"{verdict} ({c['pass']} / {c['fail']} / {c['n/a']})" if c else verdict)
        lines.append(f"| {rule} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "*Not played*: a rule the peer has no notion of; its cases' counts are shown, but say nothing of "
        "the peer there (the adapter takes the draw, the seeded deck or the game from the case):",
    ]
    for peer in results:
        lines.append(f"- {peer.name}: " + "; ".join(f"{r}{'*' if r.endswith('-') else ''} ({why})"
                                                  for r, why in peer.not_played) + ".")  # fmt: skip
    for peer, rs in results.items():
        lines += ["", f"## {peer.name}: the first failing case of each rule", ""]
        explained: set[str] = set()
        for rule in rule_ids():
            first = next((r for r in rs if rule in r.rules and status(r) == "fail"), None)
            if first is None or peer.plays(rule):
                continue
            if first.name in explained:
                lines.append(f"- **{rule}** ({texts.get(rule, '')}): `{first.name}` (above).")
                continue
            explained.add(first.name)
            case = by_name[first.name]
            lines.append(f"- **{rule}** ({texts.get(rule, '')}): `{first.name}`, “{case.title}”. "
                         f"{explain(peer, first, case)}")  # fmt: skip
        if not explained:
            lines.append("None: every case it can express passes.")
        lines += ["", f"## {peer.name}: why cases are not expressible", ""]
        reasons = Counter(r.unsupported.split(":")[0].strip() for r in rs if r.unsupported)
        lines += [f"- {n} × {reason}" for reason, n in reasons.most_common()]
    return "\n".join(lines) + "\n"


# --- checking the record against today's suite, adapters and peers -------------------------------------------


def check(data: dict[str, Any], jobs: int) -> list[str]:
    """Why docs/peers.md and its record are not today's (empty when they are)."""
    cases = suite_cases()
    problems: list[str] = []
    now = {c.name: case_digest(c) for c in cases}
    for name in sorted(set(now) | set(data["cases"])):
        if now.get(name) != data["cases"].get(name):
            what = "new" if name not in data["cases"] else "gone" if name not in now else "changed"
            problems.append(f"case {name} is {what} since the record was made")
    for peer in PEERS:
        info = data["peers"].get(peer.name)
        if set(data.get(f"results {peer.name}", {})) != set(data["cases"]):
            problems.append(f"the record has no result of {peer.name} for some cases")
        if info is None:
            problems.append(f"{peer.name} is not in the record")
        elif info["adapter"] != peer.digest():
            problems.append(f"{peer.name}'s adapter (or what it is built on) changed since the record was made")
        elif info["version"] != peer.version():
            problems.append(f"{peer.name} is {peer.version()} here, {info['version']} in the record")
    if problems:
        return [*problems, "run tools/peers.py again"]
    results, versions = from_record(data, cases)
    if REPORT.read_text(encoding="utf-8") != report(results, versions, cases):
        problems.append("docs/peers.md is not what docs/peers.json renders: run tools/peers.py --render")
    by_name = {c.name: c for c in cases}
    for peer, rs in results.items():
        sample = [r for r in rs if status(r) == "fail"]
        sample += [next(r for r in rs if status(r) == s) for s in ("pass", "n/a") if any(status(r) == s for r in rs)]
        for old, new in zip(sample, run_peer(peer, [by_name[r.name] for r in sample], jobs), strict=True):
            if (status(new), new.problems, new.unsupported) != (status(old), old.problems, old.unsupported):
                problems.append(f"{peer.name} on {old.name}: recorded {status(old)}, now {status(new)} "
                                f"{'; '.join(new.problems) or new.unsupported}")  # fmt: skip
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="check docs/peers.md and its record; run nothing new")
    parser.add_argument("--render", action="store_true", help="write docs/peers.md from docs/peers.json")
    parser.add_argument("--jobs", type=int, default=2, help="adapters run at once")
    parser.add_argument("--only", default="", help="only the cases whose name holds this text (the report printed)")
    args = parser.parse_args(argv)
    if args.check or args.render:
        data = json.loads(RECORD.read_text(encoding="utf-8"))
        if args.check:
            problems = check(data, args.jobs)
            print("\n".join(problems) or "docs/peers.md and docs/peers.json are up to date")
            return 1 if problems else 0
        cases = suite_cases()
        REPORT.write_text(report(*from_record(data, cases), cases), encoding="utf-8")
        print(f"wrote {REPORT.relative_to(ROOT)}")
        return 0
    cases = suite_cases(args.only)
    results = {peer: run_peer(peer, cases, args.jobs) for peer in PEERS}
    text = report(results, {p.name: p.version() for p in PEERS}, cases)
    if args.only:
        print(text, end="")
        return 0
    RECORD.write_text(record(results, cases), encoding="utf-8")
    REPORT.write_text(text, encoding="utf-8")
    print(f"wrote {RECORD.relative_to(ROOT)} and {REPORT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
