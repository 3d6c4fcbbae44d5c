#!/usr/bin/env python3
"""The leak check of the table protocol: no frame names a card its recipient may not see. Rules: PROTO-5, PROTO-6.

    .venv/bin/python tools/leak_web.py                  # 1,000 games through the socket protocol (minutes)
    .venv/bin/python tools/leak_web.py --games 4        # a smoke (the suite runs this)

Games of every preset (three-handed with and without ``sitter_sees_captain_hand``), each seat played over its
own WebSocket by the wire client (the sitters advise now and then), a spectator at every table. When a game
ends its full log is fetched and replayed strictly; from it this tool works out, independently of
``engine.visibility``, the cards each recipient may know at each record of each hand: its own (every card it
held in the hand; a sitter who sees the captain's cards, the captain's) and the public ones (the upcard, every
card discarded face up, taken from the pile, shown in a spread or a defence; the draw's cards). Every card
named anywhere in a frame — the view, the legal actions, each event (checked against its own hand), a hand's
result, an acknowledgement — must be one of them at the frame's record. Prints the counts; exits 1 on a leak.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.events import (
    CutDrawn,
    Dealt,
    DefenceLaid,
    Discarded,
    DrewDiscard,
    DrewStock,
    HandStarted,
    SpreadLaid,
    UpcardTaken,
)
from engine.rules import RuleSet
from knock.web.client import ServerProcess, http, play_async
from replay.replayer import Replayer

CARD = re.compile(r"(?<![A-Za-z0-9])[A2-9TJQK][cdhs](?![A-Za-z0-9])")

#: The tables the check plays, in turn: preset, options.
KINDS: list[tuple[str, dict[str, Any]]] = [
    ("standard", {}),
    ("oklahoma", {}),
    ("three_handed", {}),
    ("three_handed", {"sitter_sees_captain_hand": False}),
    ("standard", {"big_gin_bonus": 31, "spades_double": True}),
]


@dataclass
class HandSight:
    """What each recipient may know in one hand, after each record: ``records`` ascending, ``known[key][i]``
    the set after ``records[i]`` (key: a seat, or None for the spectators)."""

    records: list[int] = field(default_factory=list)
    known: dict[int | None, list[frozenset[str]]] = field(default_factory=dict)

    def at(self, key: int | None, record: int) -> frozenset[str]:
        i = bisect.bisect_right(self.records, record) - 1
        return self.known[key][max(i, 0)] if self.known.get(key) else frozenset()


def sights(data: bytes, players: int) -> tuple[dict[int, HandSight], list[tuple[int, int]]]:
    """Each hand's sights from the full log, and the record at which each hand starts."""
    replayer = Replayer(data)
    sees_captain = replayer.rules.sitter_sees_captain_hand
    hands: dict[int, HandSight] = {0: HandSight()}
    starts: list[tuple[int, int]] = [(0, 0)]
    number, held, public = 0, {s: set[str]() for s in range(players)}, set[str]()
    sitter: int | None = None
    captain = 0
    for state in replayer.states():
        e = state.event
        match e:
            case HandStarted():
                number, sitter = e.number, e.sitter
                captain = e.seats[0] if e.seats[1] == e.dealer else e.seats[1]
                held, public = {s: set() for s in range(players)}, set()
                hands[number] = HandSight()
                starts.append((state.index, number))
            case CutDrawn():
                public |= {str(c) for c in e.cards}
            case Dealt():
                for seat, cards in zip(e.seats, e.hands, strict=True):
                    held[seat] |= {str(c) for c in cards}
                public.add(str(e.upcard))
            case DrewStock():
                held[e.seat].add(str(e.card))
            case UpcardTaken() | DrewDiscard() | Discarded():
                public.add(str(e.card))
            case SpreadLaid():
                public |= {str(c) for m in e.melds for c in m.cards} | {str(c) for c in e.deadwood_cards}
            case DefenceLaid():
                public |= {str(c) for m in e.melds for c in m.cards} | {str(c) for c in e.deadwood_cards}
                public |= {str(lo.card) for lo in e.layoffs}
            case _:
                pass
        h = hands[number]
        h.records.append(state.index)
        for seat in range(players):
            own = held[seat]
            if seat == sitter:  # THREE-8: the sitter sees the captain's cards, or none
                own = held[captain] if sees_captain else set()
            h.known.setdefault(seat, []).append(frozenset(own | public))
        h.known.setdefault(None, []).append(frozenset(public))
    return hands, starts


@dataclass
class Stats:
    games: int = 0
    frames: int = 0
    cards: int = 0
    leaks: list[str] = field(default_factory=list)
    records: int = 0


def hand_of(starts: list[tuple[int, int]], record: int) -> int:
    i = bisect.bisect_right([r for r, _ in starts], record) - 1
    return starts[max(i, 0)][1]


def cards_in(value: Any, table: str = "") -> Iterator[str]:
    """The cards a value names anywhere (its table's id, which may look like one, aside)."""
    text = json.dumps(value)
    yield from CARD.findall(text.replace(table, "") if table else text)


def check(frames: list[dict[str, Any]], key: int | None, hands: dict[int, HandSight], starts: list[tuple[int, int]],
          stats: Stats, label: str, table: str) -> None:  # fmt: skip
    """Every card in ``frames`` (received by ``key``) must be one it may know at the frame's record."""
    record = 0
    for f in frames:
        stats.frames += 1
        kind = f["type"]
        parts: list[tuple[int, int, Any]] = []  # (hand, record, value) to check
        if kind == "view":
            record = f["record"]
            hand = f["view"]["hand"]
            parts.append((hand, record, {k: f[k] for k in ("view", "legal")}))
            parts += [(e["hand"], record, e["text"]) for e in f["events"]]
        elif kind == "ack":
            record = f["next"]
            parts.append((hand_of(starts, f["record"]), f["next"], f["action"]))
        elif kind == "hand_result":
            end = max(hands[f["hand"]].records)
            parts.append((f["hand"], end, f))
        elif kind == "timed_out":
            parts.append((hand_of(starts, record), record, f))
        elif kind == "refusal":  # the client's own text echoed: its cards are its own to name
            sent = set(cards_in(f["action"]))
            parts.append((hand_of(starts, record), record, [c for c in cards_in(f["reason"]) if c not in sent]))
        else:
            parts.append((hand_of(starts, record), record, f))
        for hand, at, value in parts:
            sight = hands[hand]
            at = min(at, max(sight.records))
            allowed = sight.at(key, at)
            for card in cards_in(value, table):
                stats.cards += 1
                if card not in allowed:
                    who = "the spectator" if key is None else f"p{key}"
                    stats.leaks.append(f"{label}: {who} was sent {card} (hand {hand}, record {at}) in a {kind} frame")


async def one_game(server: ServerProcess, n: int, stats: Stats, seed: int, target: int) -> None:
    preset, options = KINDS[n % len(KINDS)]
    options = {**options, "target": target} if target != 100 else options
    rules = RuleSet.preset(preset, **options)
    seats = [{"player": "human", "name": f"seat{i}"} for i in range(rules.players)]
    if n % 3 == 2:  # some tables with a bot among the people
        seats[0] = {"player": "bot", "bot": "random"}
    made = await asyncio.to_thread(server.table, {"preset": preset, "options": options, "seed": seed + n,
                                                  "seats": seats, "bot_delay": 0})  # fmt: skip
    table = made["table"]
    rng = random.Random(seed * 7919 + n)
    keys: list[int | None] = [s["seat"] for s in made["seats"] if s["token"] is not None]
    tasks = [
        play_async(server.ws, table, made["seats"][k]["token"], rng=rng, advise=0.3) for k in keys if k is not None
    ]
    tasks.append(play_async(server.ws, table, None))
    results = await asyncio.wait_for(asyncio.gather(*tasks), timeout=600)
    status, data = await asyncio.to_thread(http, f"{server.url}/api/tables/{table}/log")
    assert status == 200, status
    hands, starts = await asyncio.to_thread(sights, data, rules.players)
    label = f"game {n} ({preset} {options or ''}, table {table})"
    for key, frames in zip([*keys, None], results, strict=True):
        check(frames, key, hands, starts, stats, label, table)
    stats.games += 1
    stats.records += max(r for h in hands.values() for r in h.records)


async def run(server: ServerProcess, games: int, parallel: int, seed: int, target: int) -> Stats:
    stats = Stats()
    queue = list(range(games))
    started = time.perf_counter()

    async def worker() -> None:
        while queue:
            await one_game(server, queue.pop(0), stats, seed, target)
            if stats.games % 50 == 0:
                print(
                    f"  {stats.games} games, {stats.frames} frames, {len(stats.leaks)} leaks, "
                    f"{time.perf_counter() - started:.0f} s",
                    flush=True,
                )

    await asyncio.gather(*(worker() for _ in range(parallel)))
    return stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=16, help="tables played at once")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target", type=int, default=100, help="the games' target (a smoke plays shorter games)")
    args = parser.parse_args()
    started = time.perf_counter()
    limits = ("--table-rate", "0", "--address-tables", "0")  # a thousand tables from this one address (PROTO-17)
    with tempfile.TemporaryDirectory() as data, ServerProcess(data, "--synchronous", "normal", *limits) as server:
        stats = asyncio.run(run(server, args.games, args.parallel, args.seed, args.target))
    elapsed = time.perf_counter() - started
    print(f"{stats.games} games ({stats.records} records) through the socket protocol in {elapsed:.0f} s: "
          f"{stats.frames} frames to seats and spectators, {stats.cards} cards named, "
          f"{len(stats.leaks)} leaks")  # fmt: skip
    for leak in stats.leaks[:20]:
        print("LEAK", leak)
    return 1 if stats.leaks or stats.games != args.games else 0


if __name__ == "__main__":
    sys.exit(main())
