#!/usr/bin/env python3
"""Explore every reachable state of small reduced-deck hands (RULES-3) and check each one (tests.support.explore).

    .venv/bin/python tools/explore.py            # every configuration, full size (about two minutes)
    .venv/bin/python tools/explore.py --quick    # fewer deals per configuration (about half a minute)
    .venv/bin/python tools/explore.py --only 3x4-h3 --only straight-gin

Prints one row per configuration: its deals, the distinct states explored (summed over the deals), the
terminal states and their results, the illegal actions checked to be refused, and the time. Exits 1 on any
violation, printing the property, the deal and the actions leading to the state.

A configuration is a deck of ``suits x ranks`` cards dealt ``h`` cards each, with a pickup cap (DEAD-3):
without one the rules allow endless play, which the ``no-cap`` row shows (its cycles are expected, and there
the explorer checks that an end stays reachable from every state instead).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the explorer and its oracle live in tests/support

from engine.cards import Card
from engine.rules import RuleSet
from tests.support.explore import Report, all_deals, count_deals, explore, sample_deals


@dataclass(frozen=True, slots=True)
class Config:
    """A configuration to explore: a reduced deck, options, and how many deals (None: every deal)."""

    name: str
    suits: int
    ranks: int
    hand: int
    options: dict[str, object] = field(default_factory=dict)
    deals: int | None = 200
    quick: int | None = 10
    allow_cycles: bool = False

    def rules(self) -> RuleSet:
        options: dict[str, object] = {"max_consecutive_discard_pickups": 1, **self.options}
        return RuleSet().replace(deck_suits=self.suits, deck_ranks=self.ranks, hand_size=self.hand, **options)

    def deal_list(self, quick: bool, seed: int) -> Sequence[Sequence[Card]]:
        rules = self.rules()
        count = self.quick if quick else self.deals
        if count is None or count >= count_deals(rules):
            return list(all_deals(rules))
        return sample_deals(rules, count, seed)


CAP2: dict[str, object] = {"max_consecutive_discard_pickups": 2}
OKLAHOMA: dict[str, object] = {"knock_limit": "upcard", **CAP2}
CONFIGS: tuple[Config, ...] = (
    Config("1x6-h1", 1, 6, 1, CAP2, deals=None, quick=None),
    Config("2x3-h1", 2, 3, 1, CAP2, deals=None, quick=None),
    Config("2x4-h2", 2, 4, 2, deals=None, quick=300),
    Config("2x5-h2", 2, 5, 2, {"knock_limit_value": 3}, deals=500, quick=30),
    Config("3x4-h3", 3, 4, 3, deals=200, quick=20),
    Config("3x4-h4", 3, 4, 4, CAP2, deals=300, quick=20),
    Config("3x5-h5", 3, 5, 5, {"knock_limit_value": 5}, deals=150, quick=10),
    Config("4x4-h6", 4, 4, 6, {"knock_limit_value": 5}, deals=150, quick=10),
    Config("straight-gin", 3, 4, 3, {"knock_limit_value": 0}, deals=150, quick=10),
    Config("low-limit", 3, 4, 4, {"knock_limit_value": 2, **CAP2}, deals=150, quick=10),
    Config("oklahoma", 4, 3, 4, OKLAHOMA, deals=150, quick=10),
    Config("oklahoma-extras", 4, 3, 4, {**OKLAHOMA, "oklahoma_ace": "gin_only", "spades_double": True}, 150),
    Config("big-gin", 3, 4, 3, {"big_gin_bonus": 31}, deals=100, quick=10),
    Config("50th-card", 3, 4, 3, {"wall_pickup_to_knock": True}, deals=100, quick=10),
    Config("no-tie-undercut", 2, 5, 2, {"undercut_on_tie": False}, deals=300, quick=20),
    Config("discard-taken", 3, 4, 3, {"may_discard_taken_card": True}, deals=100, quick=10),
    Config("zero-bonuses", 3, 4, 3, {"gin_bonus": 0, "undercut_bonus": 0}, deals=100, quick=10),
    Config("no-cap", 2, 4, 2, {"max_consecutive_discard_pickups": None}, deals=100, quick=15, allow_cycles=True),
)


def describe(config: Config) -> str:
    rules = config.rules()
    cap = rules.max_consecutive_discard_pickups
    extra = [f"{k}={v}" for k, v in config.options.items() if k != "max_consecutive_discard_pickups"]
    return " ".join([f"{config.suits}x{config.ranks} h{config.hand} cap {cap}", *extra])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer deals per configuration")
    ap.add_argument("--only", action="append", metavar="NAME", help="run only these configurations")
    ap.add_argument("--seed", type=int, default=1, help="seed of the sampled deals")
    args = ap.parse_args(argv)
    chosen = [c for c in CONFIGS if not args.only or c.name in args.only]
    unknown = set(args.only or ()) - {c.name for c in CONFIGS}
    if unknown:
        ap.error(f"unknown configuration(s) {', '.join(sorted(unknown))}; known: {', '.join(c.name for c in CONFIGS)}")

    head = f"{'configuration':<16} {'deals':>7} {'states':>10} {'terminal':>9} {'refused':>9} {'cycles':>7} {'secs':>7}"
    print(head + "  results (terminal states by kind) / options")
    total: list[Report] = []
    failed: list[tuple[Config, Report]] = []
    for config in chosen:
        deals = config.deal_list(args.quick, args.seed)
        report = explore(config.rules(), deals, allow_cycles=config.allow_cycles)
        total.append(report)
        every = " (all)" if len(deals) == count_deals(config.rules()) else ""
        results = " ".join(f"{kind} {n}" for kind, n in report.results)
        print(
            f"{config.name:<16} {report.deals:>7} {report.states:>10,} {report.terminal:>9,} {report.refused:>9,}"
            f" {report.cycles:>7} {report.seconds:>7.1f}  {results}{every}\n{'':<16} {describe(config)}",
            flush=True,
        )
        if not report.ok:
            failed.append((config, report))
    states = sum(r.states for r in total)
    secs = sum(r.seconds for r in total)
    print(f"{'total':<16} {sum(r.deals for r in total):>7} {states:>10,} {sum(r.terminal for r in total):>9,}"
          f" {sum(r.refused for r in total):>9,} {'':>7} {secs:>7.1f}")  # fmt: skip
    for config, report in failed:
        print(f"\n{config.name}: {report.violation_count} violation(s); the first {len(report.violations)}:")
        for v in report.violations:
            print(f"- {v}")
    if failed:
        return 1
    print("\nno violation: every state checked (to act, cards conserved, stock, legal actions, illegal refused,"
          " termination, scoring)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
