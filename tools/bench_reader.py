#!/usr/bin/env python3
"""Knock's readers on long legal logs: records/s and peak memory, side by side at 1x, 10x and 100x (LOG-15).

    .venv/bin/python tools/bench_reader.py                       # every kind at 1x, 10x, 100x (15 to 40 minutes)
    .venv/bin/python tools/bench_reader.py --sizes 1,10 --quick  # smaller: a minute or two
    .venv/bin/python tools/bench_reader.py --baseline main       # and Knock at an earlier revision, same logs
    .venv/bin/python tools/bench_reader.py --sizes 0 --ordinary 7 --instructions --baseline main  # ordinary games

The logs (``tests.support.long_logs``): a *trading* loop (two seats trading cards through the discard pile in
one endless hand, DEAD-3), an *advice* flood (a three-handed sitter advising again and again, THREE-7) and a
chain of *dead* hands (DEAD-1), each a complete game that passes; 1x is about 100 KB, so 100x is about 10 MB
(the 10 MB legal log of the target). Each is written to ``--dir`` (default: a temporary folder), then judged
(``replay.verdict.judge``, the verdict of ``knock verify``) in a fresh child process reading the file as a
stream, 64 KB at a time; with ``--views`` (default on) seat 0's view of it (``replay.redact``) too, in public
mode; with ``--audit``, the audit report is made instead (``replay.audit``: every hand and action, up to its
limits). The child reports the records, its CPU time, and the growth of its peak resident memory (VmHWM) over
the idle interpreter with Knock's modules imported: flat memory and linear time show as equal MB and equal
records/s down a kind's rows. ``--baseline REV`` also judges the logs of sizes up to ``--baseline-max`` with
Knock at revision REV (a temporary git worktree imported through PYTHONPATH), which kept every record's
history: its rows show what bounded memory cost before.

``--ordinary N`` measures, N times interleaved with the baseline, the verdict on ordinary games (40 seeded
bot games of each preset: greedy against random; the best of five rounds in each child) in records/s, and
prints the median of the paired ratios this/baseline: the throughput of ``knock verify`` on the games people
play (at a revision before verdicts, the audit it ran), and of a strict replay that keeps the game's history
(``Replayer.run``). On a shared machine those ratios move by a few per cent from run to run; ``--instructions``
counts instead the instructions each runs per record, under valgrind's callgrind (a few minutes a tree),
which the machine's load does not change. Nothing here passes or fails.

Every child measures under the conditions of ``tools/measuring.py`` (stated in the header): the measuring
thread's own CPU time, the child pinned to one core, one BLAS thread, a fixed hash seed; a warning names a child
that had another busy thread.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import measuring
from measuring import clock

ROOT = Path(__file__).resolve().parent.parent


def vm_kib(key: str) -> int:
    """A line of /proc/self/status, in KiB: VmHWM (the peak resident memory so far) or VmRSS."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} in /proc/self/status")


def engine_home() -> str:
    import engine

    return str(Path(engine.__file__).resolve().parent)


def child_judge(path: str, whole: bool, audit: bool) -> int:
    """Judge one log in this (fresh) process, read as a stream (or, ``whole``, as bytes read first: a reader
    that takes only bytes), or with ``audit`` make its audit report (``replay.audit.verify`` or ``verify_view``):
    print its records, CPU time and peak memory growth as JSON."""
    measuring.setup(pin=True)
    import replay.audit  # every reader module is imported before the idle measure
    import replay.redact
    from replay.log import LogReader
    from replay.verdict import judge

    with open(path, "rb") as stream:
        view = LogReader(stream).header.view is not None
    idle = vm_kib("VmHWM")
    watch = measuring.Threads()
    t = clock()
    records: int | None
    with open(path, "rb") as stream:
        source = stream.read() if whole else stream
        if audit:
            report = (replay.audit.verify_view if view else replay.audit.verify)(source)
            kind, records, message = "pass" if report.ok else "fail", report.records, report.error
        else:
            verdict = judge(source)
            kind, records, message = verdict.kind, verdict.record, verdict.message
    seconds = clock() - t
    grown = vm_kib("VmHWM") - idle
    print(json.dumps({"kind": kind, "records": records, "seconds": seconds, "grown_kib": grown, "idle_kib": idle,
                      "message": message, "engine": engine_home(), **watch.report()}))  # fmt: skip
    return 0


def verdict_function() -> Any:
    """What ``knock verify`` runs on one log in this tree: ``judge`` (or, before verdicts, the audit)."""
    try:
        from replay.verdict import judge
    except ImportError:  # a revision before verdicts (LOG-13)
        from replay.redact import audit  # type: ignore[attr-defined]  # an old revision's

        return audit
    return judge


def ordinary_logs(seed: int) -> list[bytes]:
    """40 seeded bot games of each preset (greedy against random), as logs."""
    from engine.match import Match
    from engine.rules import RuleSet

    try:  # a --baseline revision before the bots' move (#58) has them in engine.bots
        from knock.bots import Bot, GreedyBot, RandomBot, play_match
    except ImportError:
        from engine.bots import Bot, GreedyBot, RandomBot, play_match  # type: ignore[import-not-found,no-redef]
    from replay.log import write_log

    logs = []
    for preset in ("standard", "oklahoma", "three_handed"):
        rules = RuleSet.preset(preset)
        for i in range(40):
            bots: list[Bot] = [GreedyBot(), RandomBot(seed + i), GreedyBot()]
            game = Match.new(rules, seed=seed + i, executor="compiled")
            logs.append(write_log(play_match(game, bots[: rules.players])))
    return logs


def child_ordinary(seed: int, work: str) -> int:
    """Judge ordinary games in this process: records/s of the verdict and of a strict replay (``Replayer.run``),
    the best of five rounds (``work`` "time"); or one pass of one of them, or none, for an instruction count."""
    measuring.setup(pin=True)
    from replay.log import LogReader
    from replay.replayer import Replayer

    verdict = verdict_function()
    logs = ordinary_logs(seed)
    records = sum(1 for data in logs for _ in LogReader(data).entries())
    jobs = {"judge": verdict, "replay": lambda data: Replayer(data).run()}
    if work != "time":
        for data in logs if work in jobs else ():
            jobs[work](data)
        print(json.dumps({"records": records, "engine": engine_home()}))
        return 0
    watch = measuring.Threads()
    best = dict.fromkeys(jobs, float("inf"))
    for _ in range(5):  # the best of five rounds of each, alternating: the machine's noise only slows a round
        for name, job in jobs.items():
            t = clock()
            for data in logs:
                job(data)
            best[name] = min(best[name], clock() - t)
    print(json.dumps({"judge": records / best["judge"], "replay": records / best["replay"], "records": records,
                      "engine": engine_home(), **watch.report()}))  # fmt: skip
    return 0


def instructions(tree: Path, work: str) -> tuple[int, int]:
    """The instructions (callgrind's Ir) a child runs for ``work`` beyond generating the games, and the records."""
    counts = []
    for job in ("none", work):
        answer = run_child(tree, "--child-ordinary", "0", "--work", job, valgrind=True)
        counts.append(answer["instructions"])
    return counts[1] - counts[0], answer["records"]


def run_child(tree: Path, *args: str, valgrind: bool = False) -> dict[str, Any]:
    """Run this tool's child mode with Knock imported from ``tree`` (``valgrind``: under callgrind, counting the
    instructions it runs, whatever else the machine is doing)."""
    env = measuring.environment({**os.environ, "PYTHONPATH": str(tree)})
    command = [sys.executable, str(Path(__file__).resolve()), *args]
    if valgrind:
        command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the child {' '.join(args)} failed in {tree}:\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    if valgrind:
        answer["instructions"] = int(re.search(r"Collected : (\d+)", done.stderr).group(1))  # type: ignore[union-attr]
    if Path(answer["engine"]) != tree / "engine":
        sys.exit(f"the child imported the engine from {answer['engine']}, not from {tree}")
    measuring.warn_busy(f"the child {' '.join(args)} in {tree}", answer.get("busy", []))
    return answer


def build_logs(kinds: list[str], sizes: list[int], folder: Path, views: bool) -> list[tuple[str, int, str, Path]]:
    """Write every log (and its view) that is not in ``folder`` yet: (kind, size, "log" or "view", path)."""
    sys.path.insert(0, str(ROOT))  # tests.support.long_logs, run from anywhere (the children import their own tree)
    from replay.redact import redact
    from tests.support import long_logs

    out = []
    for kind in kinds:
        build, unit = long_logs.KINDS[kind]
        for size in sizes:
            path = folder / f"{kind}-{size}x.knock"
            if not path.exists():
                t = time.monotonic()
                with open(path.with_suffix(".tmp"), "wb") as stream:
                    build(stream, unit * size, 1)
                path.with_suffix(".tmp").rename(path)
                print(f"wrote {path.name}: {path.stat().st_size / 1e6:.1f} MB in {time.monotonic() - t:.0f} s",
                      file=sys.stderr, flush=True)  # fmt: skip
            out.append((kind, size, "log", path))
            if views:
                seen = path.with_name(path.stem + "-view0.knock")
                if not seen.exists():
                    with open(path, "rb") as stream:
                        seen.write_bytes(redact(stream, 0))
                out.append((kind, size, "view", seen))
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kinds", default="trading,advice,dead", help="kinds of long log (tests.support.long_logs)")
    ap.add_argument("--sizes", help="sizes, in units of about 100 KB (default 1,10,100; 0: none)")
    ap.add_argument("--quick", action="store_true", help="sizes 1,10 unless --sizes is given")
    ap.add_argument("--views", action=argparse.BooleanOptionalAction, default=True, help="judge seat 0's views too")
    ap.add_argument("--dir", type=Path, help="where the logs are written and kept (default: a temporary folder)")
    ap.add_argument("--baseline", metavar="REV", help="also judge with Knock at git revision REV")
    ap.add_argument("--baseline-max", type=int, default=10, help="the largest size the baseline judges (default 10)")
    ap.add_argument("--ordinary", type=int, default=0, metavar="N", help="N repeats of the ordinary-games A/B")
    ap.add_argument("--child-judge", help=argparse.SUPPRESS)
    ap.add_argument(
        "--instructions",
        action="store_true",
        help="count the instructions of the ordinary-games A/B under valgrind (callgrind)",
    )
    ap.add_argument("--child-ordinary", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--work", default="time", help=argparse.SUPPRESS)
    ap.add_argument("--whole", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--audit", action="store_true", help="make the audit report (replay.audit) instead of a verdict")
    args = ap.parse_args(argv)
    if args.child_judge:
        return child_judge(args.child_judge, args.whole, args.audit)
    if args.child_ordinary is not None:
        return child_ordinary(args.child_ordinary, args.work)
    measuring.setup(pin=False)  # the children inherit the conditions and pin themselves
    sizes = [int(s) for s in (args.sizes or ("1,10" if args.quick else "1,10,100")).split(",") if int(s) > 0]
    kinds = [k for k in args.kinds.split(",") if k]
    with tempfile.TemporaryDirectory(prefix="knock-bench-reader-") as tmp:
        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        base: tuple[Path, str] | None = measuring.baseline_worktree(args.baseline, Path(tmp)) if args.baseline else None
        try:
            logs = build_logs(kinds, sizes, folder, args.views)
            rows = []
            for kind, size, what, path in logs:
                audit = ["--audit"] if args.audit else []
                mine = run_child(ROOT, "--child-judge", str(path), *audit)
                theirs = None
                if base is not None and size <= args.baseline_max:  # an earlier judge may take bytes only
                    theirs = run_child(base[0], "--child-judge", str(path), "--whole", *audit)
                rows.append((kind, size, what, path.stat().st_size, mine, theirs))
                print(f"judged {path.name}", file=sys.stderr, flush=True)
            ordinary = []
            for r in range(args.ordinary):
                pair = (run_child(ROOT, "--child-ordinary", str(1000 * r)),
                        run_child(base[0], "--child-ordinary", str(1000 * r)) if base else None)  # fmt: skip
                ordinary.append(pair)
            counted = {}
            if args.instructions:
                for work in ("judge", "replay"):
                    counted[work] = (instructions(ROOT, work), instructions(base[0], work) if base else None)
        finally:
            if base is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base[0])],
                               capture_output=True, check=False)  # fmt: skip
    report(rows, ordinary, counted, base[1] if base else None, "replay.audit" if args.audit else "replay.verdict.judge")
    return 0


def rate(figures: dict[str, Any] | None) -> str:
    """A child's records/s and peak growth, as two cells."""
    if figures is None:
        return f" {'—':>11} {'—':>8}"
    return f" {figures['records'] / max(figures['seconds'], 1e-9):>11.0f} {figures['grown_kib'] / 1024:>8.1f}"


def report(rows: list[Any], ordinary: list[Any], counted: dict[str, Any], base: str | None, reader: str) -> None:
    print(f"Knock's readers on long legal logs ({reader} on a file stream, a fresh process each; peak RSS growth "
          "over the idle interpreter with the modules imported)")  # fmt: skip
    children = [r[4] for r in rows] + [m for m, _ in ordinary]
    busy = sum(len(c.get("busy", [])) for c in children)
    pinned = children[0]["pinning"] if children else "the children pinned to one core"
    print(measuring.header(processes=f"{len(children)} timed children of this tree, {pinned}, "
                           f"{busy} busy extra threads"))  # fmt: skip
    if rows:
        head = f"{'log':<8} {'size':>5} {'read':<5} {'MB':>6} {'records':>10} {'verdict':<8}"
        head += f" {'records/s':>11} {'peak MB':>8}"
        if base:
            head += f" {'@' + base:>11} {'peak MB':>8}  (the baseline reads the file whole first)"
        print(head)
        print("-" * len(head))
        for kind, size, what, nbytes, mine, theirs in rows:
            line = f"{kind:<8} {size:>4}x {what:<5} {nbytes / 1e6:>6.1f} {mine['records']:>10} {mine['kind']:<8}"
            print(line + rate(mine) + (rate(theirs) if base else ""))
        print(f"(the idle interpreter with Knock's readers imported: {rows[0][4]['idle_kib'] / 1024:.1f} MB resident)")
    if ordinary:
        print(f"\nordinary games: {ordinary[0][0]['records']} records of 120 bot games, {len(ordinary)} repeats, "
              "medians, records/s")  # fmt: skip
        for key, name in (("judge", "judge (knock verify)"), ("replay", "strict replay (Replayer.run)")):
            line = f"  {name:<30} {statistics.median(m[key] for m, _ in ordinary):>9.0f}"
            if base:
                theirs = statistics.median(b[key] for _, b in ordinary)
                ratio = statistics.median(m[key] / b[key] for m, b in ordinary)
                line += f"   @{base} {theirs:>9.0f}   this/baseline {ratio:.3f} (median of the paired ratios)"
            print(line)
    if counted:
        print("\nordinary games, instructions per record (callgrind, one pass; the machine's load does not count)")
        for work, ((mine, records), theirs) in counted.items():
            line = f"  {work:<8} {mine / records:>9.0f}"
            if theirs is not None:
                line += f"   @{base} {theirs[0] / theirs[1]:>9.0f}   this/baseline {mine / theirs[0]:.3f}"
            print(line)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
