#!/usr/bin/env python3
"""Load and faults for ``knock serve``: figures printed, nothing passes or fails but the kill test's checks.

    .venv/bin/python tools/load_web.py open              # 200 tables, an action a second each, 60 s (person's pace)
    .venv/bin/python tools/load_web.py closed            # no think time: saturation, synchronous=FULL then NORMAL
    .venv/bin/python tools/load_web.py kill              # SIGKILL the server mid-load, restart, check everything
    .venv/bin/python tools/load_web.py bots              # 50 tables of a person and a bot (heuristic, expert)
    .venv/bin/python tools/load_web.py all --quick       # all three, smaller and shorter

The server runs in its own process (``knock serve`` on a free local port, a fresh store); this process is the
load client: N tables of two seats each (figures taken after a 10 s warm-up), every seat its own WebSocket
played by the wire client (``knock.web.client``). Printed: actions/s, the p50 and p99 latency of an action
from its sending to its acknowledgement (which comes only once it is committed, PROTO-9), the server's
resident memory (and peak), the SQLite ``synchronous`` setting and the machine's load average. The kill test
runs a closed loop, kills the server with SIGKILL, starts it again on the same store, plays every game to its
end, and checks that every acknowledged action is in its game's log at its record, that every game resumed and
finished, and that every finished log verifies; it prints the counts and exits 1 if any check fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import measuring

from knock.web.client import ServerProcess, http, play_async
from replay.replayer import Replayer
from replay.verdict import judge

SEATS = [{"player": "human"}, {"player": "human"}]
#: Every table from this one address, all at once: the server's limit on tables made a minute is lifted (PROTO-17);
#: its limit on tables at once (200) is kept, and the open loop keeps 200 tables playing.
LIMITS = ("--table-rate", "0", "--address-tables", "0")


@dataclass
class Run:
    """What one load run saw."""

    latencies: list[float] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  #: when each latency was measured
    acks: list[tuple[str, int, int, str]] = field(default_factory=list)  #: (table, record, seat, action)
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    games_done: int = 0

    def measured(self, latency: float) -> None:
        self.latencies.append(latency)
        self.times.append(time.monotonic())


def memory(pid: int) -> tuple[float, float]:
    """A process's resident memory now and at its peak, in MiB (Linux)."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def table_loop(
    server: ServerProcess, run: Run, n: int, think: float, deadline: float, renew: bool, seats: list[Any] = SEATS
) -> None:
    """Play one table after another (``renew``) or one only, until the deadline; tables start spread over the
    first second, as people do not all sit down at once. ``seats``: who sits (the load client plays the people)."""
    await asyncio.sleep(random.Random(n).random() if think else 0.0)
    while time.monotonic() < deadline:
        made = await asyncio.to_thread(server.table, {"seed": n * 1000 + run.games_done, "seats": seats,
                                                      "commitments": True, "bot_delay": 0})  # fmt: skip
        run.tables[made["table"]] = made
        await play_table(server, run, made, think, deadline, random.Random(n))
        if not renew:
            return


async def play_table(
    server: ServerProcess, run: Run, made: dict[str, Any], think: float, deadline: float, rng: random.Random
) -> bool:
    """Both seats of a table to the game's end or the deadline; True if the game ended."""
    table = made["table"]

    def on_frame(frame: dict[str, Any]) -> None:
        if frame["type"] == "ack" and not frame["duplicate"]:
            run.acks.append((table, frame["record"], frame["seat"], frame["action"]))

    seats = [
        play_async(
            server.ws, table, s["token"], rng=rng, think=think, on_frame=on_frame, on_ack=run.measured, keep=False
        )
        for s in made["seats"]
        if s.get("token")  # a person's seat: a bot's is the server's to play
    ]
    try:
        await asyncio.wait_for(asyncio.gather(*seats), timeout=max(0.1, deadline - time.monotonic()))
    except (TimeoutError, OSError, ConnectionError):
        return False
    except Exception as err:  # the server went away (the kill test): the seats stop where they are
        if type(err).__name__.startswith("ConnectionClosed"):
            return False
        raise
    run.games_done += 1
    return True


async def load(
    server: ServerProcess, tables: int, think: float, seconds: float, *, renew: bool, seats: list[Any] = SEATS
) -> Run:
    run = Run()
    deadline = time.monotonic() + seconds
    await asyncio.gather(*(table_loop(server, run, n, think, deadline, renew, seats) for n in range(tables)))
    return run


def report(name: str, server: ServerProcess, run: Run, start: float, seconds: float, sync: str) -> None:
    """The figures of the actions acknowledged from ``start`` on, over ``seconds``."""
    rss, peak = memory(server.pid)
    steady = [lat for lat, t in zip(run.latencies, run.times, strict=True) if t >= start]
    rate = len(steady) / seconds
    print(f"{name}: {len(run.tables)} tables, {len(steady)} actions in {seconds:.0f} s = {rate:.0f} actions/s; "
          f"latency p50 {1000 * pct(steady, 0.5):.1f} ms, p99 {1000 * pct(steady, 0.99):.1f} ms "
          f"(with the warm-up: p99 {1000 * pct(run.latencies, 0.99):.1f} ms); "
          f"server memory {rss:.0f} MiB (peak {peak:.0f}); synchronous={sync.upper()}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)  # fmt: skip


#: Seconds of each run before its figures are taken: the tables made, their seats connected.
WARMUP = 10.0


def open_loop(tables: int, seconds: float) -> None:
    """A person's pace: each table an action about every second (a seat thinks 0.5 to 1.5 s before it acts)."""
    with tempfile.TemporaryDirectory() as data, ServerProcess(data, "--bot-delay", "0", *LIMITS) as server:
        start = time.monotonic() + WARMUP
        run = asyncio.run(load(server, tables, 1.0, seconds + WARMUP, renew=True))
        report("open loop", server, run, start, seconds, "full")


def closed_loop(tables: int, seconds: float) -> None:
    """No think time: the throughput at saturation, under each synchronous setting."""
    for sync in ("full", "normal"):
        with tempfile.TemporaryDirectory() as data, ServerProcess(data, "--synchronous", sync, *LIMITS) as server:
            start = time.monotonic() + WARMUP
            run = asyncio.run(load(server, tables, 0.0, seconds + WARMUP, renew=True))
            report(f"closed loop ({sync})", server, run, start, seconds, sync)


def bot_tables(tables: int, seconds: float) -> None:
    """A person against a bot at every table, at a person's pace (a second's thought a move): the person's act to
    its acknowledgement while the bots think, for the heuristic bot and the expert search, with the bots in a
    worker thread of the server (``--bot-workers 0``) and in two processes (the default)."""
    for workers in ("0", "2"):
        for bot in ("heuristic", "expert"):
            seats = [{"player": "human"}, {"player": "bot", "bot": bot}]
            args = ("--bot-delay", "0", "--bot-workers", workers, "--bot-queue", "0", *LIMITS)
            with tempfile.TemporaryDirectory() as data, ServerProcess(data, *args) as server:
                start = time.monotonic() + WARMUP
                run = asyncio.run(load(server, tables, 1.0, seconds + WARMUP, renew=False, seats=seats))
                where = "a worker thread" if workers == "0" else f"{workers} processes"
                report(f"person vs {bot}, bots in {where}", server, run, start, seconds, "full")


def kill_test(tables: int, seconds: float) -> int:
    """SIGKILL mid-load, restart, and check every acknowledged action, every game's end, every log."""
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as data:
        first = ServerProcess(data, "--bot-delay", "0", *LIMITS).start()
        run = Run()

        async def until_killed() -> None:
            deadline = time.monotonic() + seconds * 10
            killer = asyncio.get_running_loop().call_later(seconds, first.kill)
            await asyncio.gather(*(table_loop(first, run, n, 0.0, deadline, False) for n in range(tables)))
            killer.cancel()

        with contextlib.suppress(Exception):
            asyncio.run(until_killed())
        first.kill()
        acked = list(run.acks)
        second = ServerProcess(data, "--bot-delay", "0", *LIMITS).start()
        rebuilt = second.banner.count(" unfinished")
        resumed = Run()

        async def finish() -> None:
            deadline = time.monotonic() + 600
            rng = random.Random(0)
            await asyncio.gather(*(play_table(second, resumed, made, 0.0, deadline, rng)
                                   for made in run.tables.values()))  # fmt: skip

        asyncio.run(finish())
        logs: dict[str, bytes] = {}
        for table in run.tables:
            status, body = http(f"{second.url}/api/tables/{table}/log")
            if status != 200:
                failures.append(f"table {table}: its game did not finish after the restart ({status})")
                continue
            logs[table] = body
            verdict = judge(body)
            if verdict.kind != "pass":
                failures.append(f"table {table}: its log does not verify: {verdict.message}")
        second.stop()
    actions = {t: actions_of(d) for t, d in logs.items()}
    checked = 0
    for table, record, seat, action in acked:
        found = actions.get(table, {}).get(record)
        checked += 1
        if found is None or found[0] != seat or not action.startswith(found[1]):
            failures.append(f"table {table}: the action acknowledged at record {record} ({seat}, {action}) is not "
                            f"in its log ({found})")  # fmt: skip
    finished_before = run.games_done
    print(f"kill test: SIGKILL after {seconds:.0f} s of closed-loop load on {tables} tables; {len(acked)} actions "
          f"acknowledged before the kill, {checked} checked present in the logs; {rebuilt} games rebuilt as "
          f"unfinished at restart ({finished_before} had finished before); {len(logs)} of {len(run.tables)} games "
          f"finished after it, {sum(judge(d).kind == 'pass' for d in logs.values())} logs verify; "
          f"{len(failures)} failures", flush=True)  # fmt: skip
    for f in failures[:20]:
        print("FAIL", f)
    return 1 if failures or len(logs) != len(run.tables) else 0


_VERBS = {"UpcardPassed": "pass", "UpcardTaken": "take", "DrewStock": "draw", "DrewDiscard": "pickup",
          "Discarded": "discard", "Knocked": "knock", "BigGinDeclared": "big-gin", "WallDeclined": "decline",
          "SpreadLaid": "spread", "DefenceLaid": "layoff", "Advised": "advise"}  # fmt: skip


def actions_of(data: bytes) -> dict[int, tuple[int, str]]:
    """A log's actions by the record number each expected: the seat and the action's verb (with its card, for a
    discard or a knock)."""
    out: dict[int, tuple[int, str]] = {}
    for state in Replayer(data).states():
        verb = _VERBS.get(type(state.event).__name__)
        if verb is not None:
            card = getattr(state.event, "card", None)
            text = f"{verb} {card}" if verb in ("discard", "knock") else verb
            out[state.index - 1] = (getattr(state.event, "seat", -1), text)
    return out


def main() -> int:
    measuring.setup(pin=False)  # one BLAS thread here and in the server; both share the cores, as in use
    gc.set_threshold(20_000, 20, 20)  # the client's collector, like the server's, rarely in the way
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["open", "closed", "kill", "bots", "all"])
    parser.add_argument("--tables", type=int, help="tables at once (open 200, closed 50, kill 50)")
    parser.add_argument("--seconds", type=float, help="how long each run lasts (open 60, closed 30, kill 10)")
    parser.add_argument("--quick", action="store_true", help="smaller and shorter runs")
    args = parser.parse_args()
    scale = 0.25 if args.quick else 1.0
    print(measuring.header(clock_name="wall time (time.monotonic()): each action from its sending to its "
                           "acknowledgement, and the runs' lengths", processes="this load client and the server "
                           "(knock serve), neither pinned: they share the machine's cores"), flush=True)  # fmt: skip
    watch = measuring.Threads()
    code = 0
    if args.mode in ("open", "all"):
        open_loop(args.tables or int(200 * scale), args.seconds or 60 * scale)
    if args.mode in ("closed", "all"):
        closed_loop(args.tables or int(50 * scale), args.seconds or 30 * scale)
    if args.mode in ("bots", "all"):
        bot_tables(args.tables or int(50 * scale), args.seconds or 60 * scale)
    if args.mode in ("kill", "all"):
        code = kill_test(args.tables or int(50 * scale), args.seconds or 10 * scale)
    print(f"machine: {os.cpu_count()} cores, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"python {sys.version.split()[0]}; the figures are one run each (its median and p99); the client's "
          f"threads: {len(measuring.thread_cpu())}, {len(watch.busy())} busy besides its event loop "
          "(asyncio.to_thread's, ended by now; the figures are wall time)")  # fmt: skip
    return code


if __name__ == "__main__":
    sys.exit(main())
