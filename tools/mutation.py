#!/usr/bin/env python3
"""A mutation run of the rules kernel and its fast paths with mutmut: how many of the small faults a mutant makes
(a ``<`` for a ``<=``, a dropped ``not``, a ``1`` for a ``0``) the rules' tests catch.

    python tools/mutation.py                       # engine/kernel.py and engine/legal.py, within 40 minutes
    python tools/mutation.py --budget 600 --children 2 --json mutation.json
    python tools/mutation.py --only 'engine.kernel.x_spread_limit*'   # some mutants only (the suite's smoke)

The run is made in a copy of the repository (``--workdir``, a new temporary folder by default), never here:
mutmut writes its mutants into ``mutants/`` beside the code. Each mutant is run against ``TESTS`` (the stated
subset: the kernel's four-way equivalence test, the hand's rules by spec section, the game's endings, the stateful
test of ill-typed and illegal moves, a view's checks, the refusal table), and of those
only the tests that call the mutated function (mutmut's own map). Mutants still running when the budget is spent
are not counted. The figures: killed (a test failed, or the mutant timed out), survived (every test passed),
no tests (no test of the subset calls the function), and the kill rate, killed / (killed + survived). Each survivor
is sorted by what its mutation changed: ``message`` when it changes only the words of a refusal (a string or an
f-string inside a ``Refused``/``raise``, which the tests check by rule id, never by wording) and ``logic`` otherwise;
the rate over the logic mutants is printed beside the whole one. The survivors are listed (``--diffs`` shows them),
to be explained or killed with a test.

Needs the ``mutation`` extra (``pip install -e '.[mutation]'``; the dev extra has it).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
#: What is mutated: the kernel (every rule's decision) and the legal moves' bitmask fast paths.
MUTATED = ("engine/kernel.py", "engine/legal.py")
#: What each mutant is run against.
TESTS = (
    "tests/engine/test_kernel.py",
    "tests/engine/test_showdown.py",
    "tests/engine/test_legal_order.py",
    "tests/engine/test_hand_offer.py",
    "tests/engine/test_hand_turns.py",
    "tests/engine/test_hand_knock.py",
    "tests/engine/test_hand_layoff.py",
    "tests/engine/test_hand_dead.py",
    "tests/engine/test_hand_oklahoma.py",
    "tests/engine/test_hand_rules.py",
    "tests/engine/test_match_three.py",
    "tests/engine/test_match_endings.py",
    "tests/engine/test_stateful.py",
    "tests/replay/test_view_checks.py",
    "tests/replay/test_endings.py",
    "tests/spec/test_refusals.py",
)
#: What the copy holds (the tests import all three libraries and read spec/).
COPIED = ("engine", "replay", "knock", "tests", "spec", "tools", "pyproject.toml")
#: mutmut's statuses that count as caught, and as not.
KILLED = {"killed", "timeout", "caught by type check", "segfault"}
SURVIVED = {"survived", "suspicious"}


def config(mutated: tuple[str, ...], tests: tuple[str, ...]) -> str:
    """The ``[tool.mutmut]`` table the copy's pyproject.toml gets."""

    def toml_list(items: tuple[str, ...]) -> str:
        return "[" + ", ".join(json.dumps(i) for i in items) + "]"

    return (
        "\n[tool.mutmut]\n"
        f"source_paths = {toml_list(mutated)}\n"
        f"pytest_add_cli_args_test_selection = {toml_list(tests)}\n"
        f"also_copy = {toml_list(tuple(c for c in COPIED if c != 'pyproject.toml'))}\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-p", "no:randomly", "-q"]\n'
    )


def prepare(workdir: Path, mutated: tuple[str, ...], tests: tuple[str, ...]) -> None:
    """Copy what the tests need into ``workdir`` and give its pyproject.toml mutmut's table."""
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            ignore = shutil.ignore_patterns("__pycache__", "node_modules", "*.pyc", ".hypothesis")
            shutil.copytree(src, workdir / name, ignore=ignore, dirs_exist_ok=True)
        else:
            shutil.copy2(src, workdir / name)
    with (workdir / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write(config(mutated, tests))


def mutmut(workdir: Path, *args: str, timeout: float | None = None) -> tuple[int, str]:
    """Run ``mutmut args`` in ``workdir`` (its own process group, stopped whole at ``timeout``)."""
    cmd = [sys.executable, "-m", "mutmut", *args]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    with subprocess.Popen(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, start_new_session=True) as proc:  # fmt: skip
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                out, _ = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                out, _ = proc.communicate()
            return -1, out
    return proc.returncode, out


_RESULT = re.compile(r"^\s+(\S+): (.+)$")


def tally(workdir: Path) -> dict[str, list[str]]:
    """Every mutant mutmut has a status for, grouped by status (``mutmut results --all``)."""
    _, out = mutmut(workdir, "results", "--all", "true", timeout=300)
    by: dict[str, list[str]] = {}
    for line in out.splitlines():
        m = _RESULT.match(line)
        if m:
            by.setdefault(m.group(2).strip(), []).append(m.group(1))
    return by


def report(by: dict[str, list[str]], seconds: float, kinds: dict[str, str] | None = None) -> dict[str, object]:
    """The figures of a run from its statuses; ``kinds`` sorts mutants as ``message`` or ``logic`` (``kind_of``)."""
    killed = sum(len(v) for k, v in by.items() if k in KILLED)
    survived = sum(len(v) for k, v in by.items() if k in SURVIVED)
    rate = killed / (killed + survived) if killed + survived else 0.0
    survivors = sorted(m for k, v in by.items() if k in SURVIVED for m in v)
    out: dict[str, object] = {
        "mutated": list(MUTATED), "tests": list(TESTS), "seconds": round(seconds, 1),
        "statuses": {k: len(v) for k, v in sorted(by.items())}, "killed": killed, "survived": survived,
        "kill_rate": round(rate, 4), "survivors": survivors,
    }  # fmt: skip
    if kinds is not None:
        killed_logic = [m for k, v in by.items() if k in KILLED for m in v if kinds.get(m, "logic") == "logic"]
        s_logic = [m for m in survivors if kinds.get(m, "logic") == "logic"]
        tested = len(killed_logic) + len(s_logic)
        out["logic_kill_rate"] = round(len(killed_logic) / tested, 4) if tested else 0.0
        out["logic_survivors"] = s_logic
        out["message_survivors"] = [m for m in survivors if kinds.get(m, "logic") != "logic"]
    return out


def kind_of(workdir: Path, names: list[str]) -> dict[str, str]:
    """``message`` for a mutant that changes only the words of a refusal — string constants and f-strings inside a
    ``raise`` (or a ``Refused(...)`` call) — else ``logic``, by comparing each mutant's function with mutmut's
    copy of the original in ``workdir/mutants``."""
    functions: dict[str, ast.FunctionDef] = {}
    for path in MUTATED:
        source = workdir / "mutants" / path
        if source.exists():
            for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef):
                    functions[node.name] = node
    out = {}
    for name in names:
        mutant = name.rsplit(".", 1)[-1]
        original = functions.get(mutant.rsplit("__mutmut_", 1)[0] + "__mutmut_orig")
        changed = functions.get(mutant)
        out[name] = "logic" if original is None or changed is None else _kind(original, changed)
    return out


def _kind(original: ast.FunctionDef, changed: ast.FunctionDef) -> str:
    """``message`` when the two functions differ only inside the message arguments of their raises."""

    def without_messages(fn: ast.FunctionDef) -> str:
        fn = ast.parse(ast.unparse(fn)).body[0]  # type: ignore[assignment]
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and _is_refusal(node):
                node.args = [a if not isinstance(a, ast.Constant | ast.JoinedStr) or i == 0 else ast.Constant("")
                             for i, a in enumerate(node.args)]  # fmt: skip
        fn.name = "f"
        return ast.dump(fn)

    return "message" if without_messages(original) == without_messages(changed) else "logic"


def _is_refusal(call: ast.Call) -> bool:
    """A call that builds a refusal: its first argument the rule id, the rest its words."""
    func = call.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return name in {"Refused", "illegal", "IllegalAction", "InvalidMeld", "RuleViolation"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--budget", type=float, default=2400, help="seconds for the whole run (default 2400)")
    ap.add_argument("--children", type=int, default=2, help="mutants run at once (default 2)")
    ap.add_argument("--workdir", type=Path, help="where the copy is made (default: a new temporary folder)")
    ap.add_argument("--only", nargs="*", default=[], help="mutant names or globs (mutmut's), default every one")
    ap.add_argument("--tests", nargs="*", default=list(TESTS), help="the test subset (default TESTS)")
    ap.add_argument("--json", type=Path, help="write the figures here as JSON too")
    ap.add_argument("--diffs", action="store_true", help="print each survivor's diff")
    args = ap.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="knock-mutation-"))
    workdir.mkdir(parents=True, exist_ok=True)
    prepare(workdir, MUTATED, tuple(args.tests))
    print(f"mutating {', '.join(MUTATED)} in {workdir}, against {len(args.tests)} test files", flush=True)
    start = time.monotonic()
    rc, out = mutmut(workdir, "run", "--max-children", str(args.children), *args.only, timeout=args.budget)
    seconds = time.monotonic() - start
    if rc not in (0, -1):
        print(out[-4000:])
        print(f"mutmut run failed (exit {rc})", file=sys.stderr)
        return 2
    by = tally(workdir)
    if args.only:  # mutmut keeps every mutant's status; count the ones asked for
        wanted = [re.compile(re.escape(p).replace(r"\*", ".*") + "$") for p in args.only]
        by = {k: [m for m in v if any(w.match(m) for w in wanted)] for k, v in by.items()}
        by = {k: v for k, v in by.items() if v}
    every = [m for v in by.values() for m in v]
    figures = report(by, seconds, kind_of(workdir, every))
    if rc == -1:
        figures["stopped"] = f"the budget ({args.budget:.0f} s) ran out: mutants not yet run are not counted"
    print(f"{seconds:.0f} s; statuses: {figures['statuses']}")
    logic_survivors = cast(list[str], figures["logic_survivors"])
    message_survivors = cast(list[str], figures["message_survivors"])
    print(f"kill rate {figures['kill_rate']:.1%} ({figures['killed']} killed, {figures['survived']} survived); "
          f"over the logic mutants {figures['logic_kill_rate']:.1%} (message-only survivors: "
          f"{len(message_survivors)})")  # fmt: skip
    for name in logic_survivors:
        print(f"survived: {name}")
        if args.diffs:
            print(mutmut(workdir, "show", name, timeout=120)[1])
    if "stopped" in figures:
        print(figures["stopped"])
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
