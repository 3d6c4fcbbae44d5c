#!/usr/bin/env python3
"""Knock's readers on long legal logs: records/s and peak memory, side by side at 1x, 10x and 100x (LOG-15).

    .venv/bin/python tools/bench_reader.py                       # every kind at 1x, 10x, 100x (about 10 minutes)
    .venv/bin/python tools/bench_reader.py --sizes 1,10 --quick  # smaller: a minute or two
    .venv/bin/python tools/bench_reader.py --baseline main       # and Knock at an earlier revision, same logs
    .venv/bin/python tools/bench_reader.py --ordinary 7 --baseline main --sizes 0   # ordinary games only, A/B

The logs (``tests.support.long_logs``): a *trading* loop (two seats trading cards through the discard pile in
one endless hand, DEAD-3), an *advice* flood (a three-handed sitter advising again and again, THREE-7) and a
chain of *dead* hands (DEAD-1), each a complete game that passes; 1x is about 100 KB, so 100x is about 10 MB
(the 10 MB legal log of the target). Each is written to ``--dir`` (default: a temporary folder), then judged
(``replay.verdict.judge``, the verdict of ``knock verify``) in a fresh child process reading the file as a
stream, 64 KB at a time; with ``--views`` (default on) seat 0's view of it (``replay.redact``) too, in public
mode. The child reports the records, its CPU time, and the growth of its peak resident memory (VmHWM) over
the idle interpreter with Knock's modules imported: flat memory and linear time show as equal MB and equal
records/s down a kind's rows. ``--baseline REV`` also judges the logs of sizes up to ``--baseline-max`` with
Knock at revision REV (a temporary git worktree imported through PYTHONPATH), which kept every record's
history: its rows show what bounded memory cost before.

``--ordinary N`` measures, N times interleaved with the baseline, the verdict on ordinary games (40 seeded
bot games of each preset: greedy against random; the best of five rounds in each child) in records/s, and
prints the median of the paired ratios this/baseline: the throughput of ``knock verify`` on the games people
play, and of a strict replay that keeps the game's history (``Replayer.run``). Nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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


def child_judge(path: str, whole: bool) -> int:
    """Judge one log in this (fresh) process, read as a stream (or, ``whole``, as bytes read first: a reader
    that takes only bytes): print its records, CPU time and peak memory growth as JSON."""
    import replay.audit  # every reader module is imported before the idle measure
    import replay.redact  # noqa: F401
    from replay.verdict import judge

    idle = vm_kib("VmHWM")
    t = time.process_time()
    with open(path, "rb") as stream:
        verdict = judge(stream.read() if whole else stream)
    seconds = time.process_time() - t
    grown = vm_kib("VmHWM") - idle
    print(json.dumps({"kind": verdict.kind, "records": verdict.record, "seconds": seconds, "grown_kib": grown,
                      "idle_kib": idle, "message": verdict.message, "engine": engine_home()}))  # fmt: skip
    return 0


def child_ordinary(seed: int) -> int:
    """Judge ordinary games in this process: records/s of ``judge`` and of a strict replay (``Replayer.run``)."""
    from engine.bots import Bot, GreedyBot, RandomBot, play_match
    from engine.match import Match
    from engine.rules import RuleSet
    from replay.log import write_log
    from replay.replayer import Replayer
    from replay.verdict import judge

    logs = []
    for preset in ("standard", "oklahoma", "three_handed"):
        rules = RuleSet.preset(preset)
        for i in range(40):
            bots: list[Bot] = [GreedyBot(), RandomBot(seed + i), GreedyBot()]
            logs.append(
                write_log(play_match(Match.new(rules, seed=seed + i, executor="compiled"), bots[: rules.players]))
            )
    records = sum(judge(data).record or 0 for data in logs)
    judged = replayed = float("inf")
    for _ in range(5):  # the best of five rounds of each, alternating: the machine's noise only slows a round
        t = time.process_time()
        for data in logs:
            judge(data)
        judged = min(judged, time.process_time() - t)
        t = time.process_time()
        for data in logs:
            Replayer(data).run()
        replayed = min(replayed, time.process_time() - t)
    print(json.dumps({"judge": records / judged, "replay": records / replayed, "records": records,
                      "engine": engine_home()}))  # fmt: skip
    return 0


def run_child(tree: Path, *args: str) -> dict[str, Any]:
    """Run this tool's child mode with Knock imported from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, str(Path(__file__).resolve()), *args]
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"the child {' '.join(args)} failed in {tree}:\n{done.stderr}")
    answer: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    if Path(answer["engine"]) != tree / "engine":
        sys.exit(f"the child imported the engine from {answer['engine']}, not from {tree}")
    return answer


def baseline_worktree(rev: str, into: Path) -> tuple[Path, str]:
    """A detached git worktree of ``rev`` in ``into``, and the revision's short hash."""
    short = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", f"{rev}^{{commit}}"],
                           capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    tree = into / f"knock-{short}"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
                   capture_output=True, text=True, check=True)  # fmt: skip
    return tree, short


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
    ap.add_argument("--sizes", default="1,10,100", help="sizes, in units of about 100 KB (0: none)")
    ap.add_argument("--quick", action="store_true", help="sizes 1,10 unless --sizes is given")
    ap.add_argument("--views", action=argparse.BooleanOptionalAction, default=True, help="judge seat 0's views too")
    ap.add_argument("--dir", type=Path, help="where the logs are written and kept (default: a temporary folder)")
    ap.add_argument("--baseline", metavar="REV", help="also judge with Knock at git revision REV")
    ap.add_argument("--baseline-max", type=int, default=10, help="the largest size the baseline judges (default 10)")
    ap.add_argument("--ordinary", type=int, default=0, metavar="N", help="N repeats of the ordinary-games A/B")
    ap.add_argument("--child-judge", help=argparse.SUPPRESS)
    ap.add_argument("--child-ordinary", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--whole", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child_judge:
        return child_judge(args.child_judge, args.whole)
    if args.child_ordinary is not None:
        return child_ordinary(args.child_ordinary)
    sizes_text = "1,10" if args.quick and "--sizes" not in " ".join(argv) else args.sizes
    sizes = [int(s) for s in sizes_text.split(",") if int(s) > 0]
    kinds = [k for k in args.kinds.split(",") if k]
    with tempfile.TemporaryDirectory(prefix="knock-bench-reader-") as tmp:
        folder = args.dir or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        base: tuple[Path, str] | None = baseline_worktree(args.baseline, Path(tmp)) if args.baseline else None
        try:
            logs = build_logs(kinds, sizes, folder, args.views)
            rows = []
            for kind, size, what, path in logs:
                mine = run_child(ROOT, "--child-judge", str(path))
                theirs = None
                if base is not None and size <= args.baseline_max:  # an earlier judge may take bytes only
                    theirs = run_child(base[0], "--child-judge", str(path), "--whole")
                rows.append((kind, size, what, path.stat().st_size, mine, theirs))
                print(f"judged {path.name}", file=sys.stderr, flush=True)
            ordinary = []
            for r in range(args.ordinary):
                pair = (run_child(ROOT, "--child-ordinary", str(1000 * r)),
                        run_child(base[0], "--child-ordinary", str(1000 * r)) if base else None)  # fmt: skip
                ordinary.append(pair)
        finally:
            if base is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base[0])],
                               capture_output=True, check=False)  # fmt: skip
    report(rows, ordinary, base[1] if base else None)
    return 0


def rate(figures: dict[str, Any] | None) -> str:
    """A child's records/s and peak growth, as two cells."""
    if figures is None:
        return f" {'—':>11} {'—':>8}"
    return f" {figures['records'] / max(figures['seconds'], 1e-9):>11.0f} {figures['grown_kib'] / 1024:>8.1f}"


def report(rows: list[Any], ordinary: list[Any], base: str | None) -> None:
    print(f"Knock's readers on long legal logs (replay.verdict.judge on a file stream, a fresh process each; CPU "
          f"time; peak RSS growth over the idle interpreter with the modules imported); Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} cores")  # fmt: skip
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


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
