#!/usr/bin/env python3
"""Fuzz Knock's log readers: every input must end in a verdict, a report or a ``LogError`` (LOG-13).

    .venv/bin/python tools/fuzz.py --seconds 60                  # a minute on every core, pure Python
    .venv/bin/python tools/fuzz.py --inputs 1000000 --jobs 2 &   # a long run in the background (hours)
    .venv/bin/pip install -e '.[fuzz]' && .venv/bin/python tools/fuzz.py --engine atheris --seconds 600

Entry points (``tests.support.fuzz.TARGETS``): ``judge``, ``verify``, ``audit``, ``verify_view``, the strict
``Replayer``, the ``ViewReplayer`` of views, ``redact`` for every seat and ``view_transcript``; an input whose
header names a view goes to the view readers, any other to the full-log readers (both get ``judge`` and
``audit``). Seeds: the golden logs, every seat's view of each, and the compiled conformance logs.

Executors:
- ``random`` (default, no extra needed): ``--jobs`` worker processes (fork), each drawing inputs from the
  seeds by the mutation mix (``tests.support.fuzz.MIX``: byte edits, structured record edits with the digest
  chain recomputed half the time, and unchanged seeds) with its own seed; no coverage feedback.
- ``atheris`` (``pip install -e '.[fuzz]'``, atheris 3.0.0): libFuzzer's coverage-guided loop over the
  instrumented ``engine`` and ``replay`` packages, its corpus seeded as above, each new input made either by
  the same structured mutations or by libFuzzer's own byte mutations (half and half); ``--jobs`` processes
  by libFuzzer's fork mode.

Every input runs under a time limit (``--timeout``, a hang when over); the report, every ``--report``
seconds and at the end, gives the inputs tried, their rate, distinct crashes and hangs (each saved under
``--out`` with its traceback) and the peak resident memory of any worker (and of an idle worker with the
seeds loaded, for comparison). Exits 1 if anything crashed or hung.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import queue
import random
import resource
import signal
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tests.support.fuzz, run from anywhere


class Hang(Exception):
    """An input ran over the time limit."""


def peak_mb() -> float:
    """This process's peak resident memory, in MB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def worker(number: int, args: argparse.Namespace, results: Any, stop: Any) -> None:
    """One process of the random executor: fuzz until told to stop or out of inputs, reporting as it goes."""
    from tests.support import fuzz

    pool = fuzz.seeds()
    idle = peak_mb()
    rng = random.Random(args.seed * 1000 + number)
    quota = args.inputs // args.jobs + (1 if number < args.inputs % args.jobs else 0) if args.inputs else None

    def alarm(signum: int, frame: object) -> None:
        raise Hang

    signal.signal(signal.SIGALRM, alarm)
    done, last = 0, time.monotonic()
    while not stop.is_set() and (quota is None or done < quota):
        data = fuzz.mutate(rng, pool)
        signal.setitimer(signal.ITIMER_REAL, args.timeout)
        try:
            found = fuzz.check(data, fuzz.targets_for(data))
        except Hang:
            results.put(("hang", fuzz.name_of(data), data, ""))
            found = None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        done += 1
        if found is not None:
            results.put(("crash", found[0], data, found[1]))
        if time.monotonic() - last > 1 or (quota is not None and done == quota):
            results.put(("count", number, done, (peak_mb(), idle)))
            last = time.monotonic()
    results.put(("count", number, done, (peak_mb(), idle)))
    results.put(("done", number, b"", ""))


def random_executor(args: argparse.Namespace) -> int:
    from tests.support import fuzz

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"executor: random structured mutation, {args.jobs} worker processes (fork), seed {args.seed}, "
          f"{args.timeout} s per input")  # fmt: skip
    print(f"input mix: {', '.join(f'{k} {v:.0%}' for k, v in fuzz.MIX.items())}; seeds: {len(fuzz.seeds())} "
          "(golden logs, every seat's view of each, compiled conformance logs)")  # fmt: skip
    print(f"entry points: a view goes to {', '.join(fuzz.FOR_VIEWS)}; any other input to "
          f"{', '.join(fuzz.FOR_LOGS)}; one whose header cannot be read to all of {', '.join(fuzz.TARGETS)}",
          flush=True)  # fmt: skip
    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    stop = ctx.Event()
    procs = [ctx.Process(target=worker, args=(i, args, results, stop), daemon=True) for i in range(args.jobs)]
    start = time.monotonic()
    for p in procs:
        p.start()
    counts = [0] * args.jobs
    memory: dict[int, tuple[float, float]] = {}
    crashes: dict[str, str] = {}
    hangs: dict[str, str] = {}
    finished, last_report = 0, start

    def report(final: bool = False) -> None:
        elapsed = time.monotonic() - start
        total = sum(counts)
        peak = max((m[0] for m in memory.values()), default=0.0)
        idle = max((m[1] for m in memory.values()), default=0.0)
        print(f"{'done' if final else 'running'} {elapsed:7.0f} s: {total:,} inputs ({total / max(elapsed, 1e-9):,.0f}"
              f"/s), {len(crashes)} crashes, {len(hangs)} hangs, peak RSS {peak:.0f} MB per worker "
              f"(idle with the seeds loaded: {idle:.0f} MB)", flush=True)  # fmt: skip

    try:
        while finished < args.jobs:
            if args.seconds and time.monotonic() - start > args.seconds:
                stop.set()
            try:
                kind, key, data, trace = results.get(timeout=1)
            except queue.Empty:
                kind = ""
            if kind == "count":
                counts[key], memory[key] = data, trace
            elif kind == "done":
                finished += 1
            elif kind in ("crash", "hang"):
                name = fuzz.name_of(data)
                path = out / f"{kind}-{name}.knock"
                path.write_bytes(data)
                path.with_suffix(".txt").write_text(f"{key}\n{trace}")
                (crashes if kind == "crash" else hangs).setdefault(
                    f"{key}: {trace.strip().splitlines()[-1:]}", str(path)
                )
            if time.monotonic() - last_report > args.report:
                report()
                last_report = time.monotonic()
    except KeyboardInterrupt:
        stop.set()
    for p in procs:
        p.join(timeout=args.timeout + 5)
    report(final=True)
    for what, found in (("crash", crashes), ("hang", hangs)):
        for key, where in found.items():
            print(f"{what}: {key} -> {where}")
    return 1 if crashes or hangs else 0


#: Set in the processes libFuzzer's fork mode starts (through the wrapper below): they are fuzzing workers.
CHILD = "KNOCK_FUZZ_ATHERIS_CHILD"


def atheris_fuzz(argv: list[str], corpus: Path | None = None) -> None:
    """Run libFuzzer (through atheris) with ``argv`` (its flags and the corpus folder), after writing the seeds
    into ``corpus`` when given; never returns. Nothing of Knock may be imported before: it would not be
    instrumented, and libFuzzer would see no coverage."""
    import atheris

    with atheris.instrument_imports(include=["engine", "replay"]):
        from tests.support import fuzz
    pool = fuzz.seeds()
    if corpus is not None:
        for data in pool:
            (corpus / fuzz.name_of(data)).write_bytes(data)

    def one_input(data: bytes) -> None:
        found = fuzz.check(data, fuzz.targets_for(data))
        if found is not None:
            raise fuzz.Crash(f"{found[0]}\n{found[1]}")

    def mutator(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if rng.random() < 0.5:
            return bytes(atheris.Mutate(data, max_size))
        return fuzz.mutate(rng, [data, *rng.sample(pool, 3)])[:max_size]

    atheris.Setup(argv, one_input, custom_mutator=mutator)
    atheris.Fuzz()


def atheris_executor(args: argparse.Namespace) -> int:
    try:
        import atheris  # noqa: F401 -- only to say clearly that the extra is missing
    except ImportError:
        print("the atheris executor needs the fuzz extra: .venv/bin/pip install -e '.[fuzz]'", file=sys.stderr)
        return 2
    out = Path(args.out).resolve()
    corpus = out / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    # libFuzzer's fork mode starts its workers by running argv[0]: a wrapper that runs this script as a worker.
    wrapper = out / "atheris-worker.sh"
    wrapper.write_text(f'#!/bin/sh\n{CHILD}=1 exec "{sys.executable}" "{Path(__file__).resolve()}" "$@"\n')
    wrapper.chmod(0o755)
    flags = [f"-timeout={max(1, int(args.timeout))}", "-rss_limit_mb=2048", f"-artifact_prefix={out}/",
             "-print_final_stats=1", "-max_len=200000"]  # fmt: skip
    if args.seconds:
        flags.append(f"-max_total_time={int(args.seconds)}")
    if args.inputs:
        flags.append(f"-runs={args.inputs}")
    if args.jobs > 1:
        flags.append(f"-fork={args.jobs}")
    print(f"executor: atheris (libFuzzer, coverage-guided over the instrumented engine and replay), {args.jobs} "
          f"process(es){' (fork mode)' if args.jobs > 1 else ''}, {args.timeout:g} s per input; mutations: half "
          f"structured (tests.support.fuzz.MIX), half libFuzzer's own; corpus {corpus} seeded with "
          "the golden logs, their views and the conformance logs", flush=True)  # fmt: skip
    atheris_fuzz([str(wrapper), *flags, str(corpus)], corpus)
    return 0


def main(argv: list[str]) -> int:
    if os.environ.get(CHILD):  # a worker of libFuzzer's fork mode: its flags are libFuzzer's
        atheris_fuzz([sys.argv[0], *argv])
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", choices=["random", "atheris"], default="random", help="the executor")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    ap.add_argument("--inputs", type=int, default=0, help="stop after this many inputs in all")
    ap.add_argument("--seconds", type=float, default=0, help="stop after this many seconds")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds an input may take (else: a hang)")
    ap.add_argument("--seed", type=int, default=1, help="the random executor's seed")
    ap.add_argument("--out", default=str(ROOT / "out" / "fuzz"), help="where crashes, hangs and the corpus go")
    ap.add_argument("--report", type=float, default=30.0, help="seconds between progress lines")
    args = ap.parse_args(argv)
    if not args.inputs and not args.seconds:
        ap.error("give --inputs or --seconds")
    args.jobs = max(1, args.jobs)
    return atheris_executor(args) if args.engine == "atheris" else random_executor(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
