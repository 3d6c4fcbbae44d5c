#!/usr/bin/env python3
"""Turn OpenSpiel ``gin_rummy`` games into Knock conformance cases, run them on Knock, report the differences.

    # cases in out/openspiel-cases, a report:
    .venv/bin/python tools/research/openspiel_cases.py --games 200 --seed 1
    .venv/bin/python tools/research/openspiel_cases.py --params knock_card=7,oklahoma=true --games 50
    # OpenSpiel histories, a JSON list a line:
    .venv/bin/python tools/research/openspiel_cases.py --histories games.jsonl
    .venv/bin/python tools/research/openspiel_cases.py --json report.json        # the report for machines too

Needs OpenSpiel (the ``peers`` extra: ``.venv/bin/pip install -e '.[peers]'``); it uses only its public API
(``pyspiel.load_game("gin_rummy", params)``, the state's legal actions, phases, history and ``returns()``).

Every game becomes a case (spec/conformance.md) whose expectations are OpenSpiel's own: the actions it
accepted, its returns (winner and points), the knocker and each seat's deadwood as it counts them. At
the knock, the wall and the layoffs the tool also asks both engines what else was legal there, and
writes a *probe* case for each difference: an action OpenSpiel refuses and Knock offers is a reject case
(OpenSpiel refuses it; it names no rule), one OpenSpiel offers and Knock refuses an accept case. The cases
are then run on Knock (case mode, ``knock.conformance``) and every one Knock answers differently is
reported with the rule involved. Nothing of a case comes from Knock.

OpenSpiel's rules are mapped to Knock's options: ``undercut_on_tie = false`` (OpenSpiel pays nobody on equal
deadwood), ``may_discard_taken_card = true``, ``wall_pickup_to_knock = true`` (its wall), its bonuses, its
knock card as ``knock_limit_value``, its ``oklahoma`` as ``knock_limit = upcard`` with ``oklahoma_ace =
gin_only``. Its ending rules Knock does not have are *not expressible*, not failures: a hand ends drawn when
both players in succession take the discard and throw it back (its "repeated move"), or at the 50th draw
from the discard pile in a hand; a reduced deck (``num_ranks``, ``num_suits``, ``hand_size``) is not a game
Knock plays (RULES-3), nor a knock card above 10. A game ended by one of them is written up to its last
expressible action, and counted as not expressible.

The players are plain greedy ones by default (they take the discard when it lowers their deadwood,
discard to the least deadwood, knock whenever OpenSpiel lets them, lay their best melds, and make one draw
or discard in ten at random), so that hands reach the knock and the showdown, where the engines differ.
``--policy random`` plays uniformly at random over OpenSpiel's legal actions: such hands seldom get to a
knock, and after gin OpenSpiel's defender may then lay fewer melds than he could, at his own cost, where
Knock scores his best arrangement (LAY-2): those games differ under LAY-2.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyspiel

from engine.actions import DrawDiscard, LayOff, parse_action
from engine.cards import Card, to_mask
from engine.errors import KnockError
from engine.fsm import Phase
from engine.hand import Hand
from engine.melds import MeldKind, deadwood, knock_deadwood
from engine.rules import RuleSet
from knock.conformance import answer_case, compare, load_case

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adapters"))  # tools/adapters/openspiel_map.py
from openspiel_map import (
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    PASS,
    HistoryReader,
    assign_layoffs,
    best_melds,
    card_from_openspiel,
)

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_PARAMS: dict[str, Any] = {"knock_card": 10, "gin_bonus": 25, "undercut_bonus": 25, "oklahoma": False,
                                  "num_ranks": 13, "num_suits": 4, "hand_size": 10}  # fmt: skip


@dataclass
class Probe:
    """A difference in what is legal at one point of a game: ``action`` (a Knock action text) after the first
    ``at`` actions is legal in ``legal_in`` only."""

    at: int
    action: str
    legal_in: str  # "openspiel" or "knock"
    rule: str
    what: str


@dataclass
class Game:
    """One OpenSpiel game read into Knock's notation, with what OpenSpiel said about it."""

    name: str
    reader: HistoryReader
    returns: tuple[float, float]
    knocked: tuple[bool, bool]
    deadwood: tuple[int, int]
    ending: str  # "knock", "wall" (the last discard passed) or an ending Knock does not have
    expressible: bool
    os_knocks: dict[int, set[Card]] = field(default_factory=dict)  #: knock discards OpenSpiel offered, by action index
    os_walls: dict[int, bool] = field(default_factory=dict)  #: whether OpenSpiel let the player knock at the wall
    os_layoffs: dict[int, set[frozenset[Card]]] = field(default_factory=dict)  #: the layoff sets OpenSpiel reaches


# --- OpenSpiel's side -----------------------------------------------------------------------------------


def options_for(params: dict[str, Any]) -> dict[str, Any] | str:
    """Knock's options for OpenSpiel's parameters, or why they cannot be expressed."""
    if (params["num_ranks"], params["num_suits"], params["hand_size"]) != (13, 4, 10):
        return "a reduced deck or hand size: Knock plays those in single hands for analysis, not in games (RULES-3)"
    if not 0 <= params["knock_card"] <= 10:
        return f"knock card {params['knock_card']}: Knock's limit is 0..10 (RULES-2)"
    options: dict[str, Any] = {
        "gin_bonus": params["gin_bonus"],
        "undercut_bonus": params["undercut_bonus"],
        "undercut_on_tie": False,  # OpenSpiel pays nobody on equal deadwood
        "may_discard_taken_card": True,
        "wall_pickup_to_knock": True,  # OpenSpiel's wall
    }
    if params["oklahoma"]:
        options.update(knock_limit="upcard", oklahoma_ace="gin_only")
    elif params["knock_card"] != 10:
        options["knock_limit_value"] = params["knock_card"]
    return options


def phase_of(state: Any) -> str:
    return str(state.current_phase().name)


def layoff_sets(state: Any) -> set[frozenset[Card]]:
    """Every set of cards OpenSpiel lets the defender lay off from here, one card at a time."""
    seen: set[frozenset[Card]] = set()

    def walk(s: Any, laid: frozenset[Card]) -> None:
        if laid in seen:
            return
        seen.add(laid)
        for a in s.legal_actions():
            if a != PASS:
                child = s.clone()
                child.apply_action(a)
                walk(child, laid | {card_from_openspiel(a)})

    walk(state, frozenset())
    return seen


def held(state: Any, player: int) -> int:
    """A player's cards as Knock's card mask."""
    return to_mask(card_from_openspiel(c) for c in state.hands()[player])


def greedy(state: Any, rng: random.Random) -> list[int]:
    """A plain player: takes the discard when it lowers his deadwood, discards to the least deadwood, knocks
    whenever OpenSpiel lets him, lays his best melds; a tenth of his draws and discards are random."""
    phase, player, legal = phase_of(state), state.current_player(), state.legal_actions()
    if phase in ("FIRST_UPCARD", "DRAW", "DISCARD") and rng.random() < 0.1:
        return [rng.choice(legal)]
    if phase in ("FIRST_UPCARD", "DRAW"):
        if DRAW_UPCARD in legal:
            mask, up = held(state, player), to_mask([card_from_openspiel(state.upcard())])
            if knock_deadwood(mask | up) < deadwood(mask):
                return [DRAW_UPCARD]
        return [PASS if PASS in legal else DRAW_STOCK]
    if phase in ("DISCARD", "WALL") and KNOCK in legal:
        return [KNOCK]
    if phase == "DISCARD" or (phase == "KNOCK" and len(state.hands()[player]) == 11):
        mask = held(state, player)
        cards = [a for a in legal if a < 52]
        return [min(cards, key=lambda a: (deadwood(mask & ~to_mask([card_from_openspiel(a)])), rng.random()))]
    if phase == "KNOCK" or (phase == "LAYOFF" and state.finished_layoffs()):
        return best_melds(state)
    return [rng.choice(legal)]  # the wall's pass, and the defender's layoffs


def play(game: Any, rng: random.Random, policy: str) -> list[int]:
    """An OpenSpiel game's history (chance outcomes and actions) between two players of the policy."""
    state = game.new_initial_state()
    plan: list[int] = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            state.apply_action(rng.choice(outcomes))
            continue
        if not plan:
            plan = greedy(state, rng) if policy == "greedy" else [rng.choice(state.legal_actions())]
        state.apply_action(plan.pop(0))
    return list(state.history())


def read(game: Any, history: Sequence[int], name: str) -> Game:
    """Replay an OpenSpiel history, reading it into Knock's notation and asking OpenSpiel what was legal."""
    state = game.new_initial_state()
    reader = HistoryReader()
    knocks: dict[int, set[Card]] = {}
    walls: dict[int, bool] = {}
    layoffs: dict[int, set[frozenset[Card]]] = {}
    ending = "knock"
    for action in history:
        if state.is_chance_node():
            reader.chance(action)
            state.apply_action(action)
            continue
        phase, player, at = phase_of(state), state.current_player(), len(reader.actions)
        legal = state.legal_actions()
        if phase == "DISCARD" and at not in knocks:
            knocks[at] = set()
            if KNOCK in legal:
                after = state.clone()
                after.apply_action(KNOCK)
                knocks[at] = {card_from_openspiel(a) for a in after.legal_actions()}
        elif phase == "WALL":
            walls[at] = KNOCK in legal
        elif phase == "LAYOFF" and not state.finished_layoffs() and at not in layoffs:
            layoffs[at] = layoff_sets(state)
        reader.move(phase, player, action)
        state.apply_action(action)
        if state.is_terminal() and not any(state.knocked()):
            if phase == "WALL":
                ending = "wall"
            elif phase == "DRAW" and action == DRAW_UPCARD:
                ending = "OpenSpiel ends a hand at its 50th draw from the discard pile (kMaxNumDrawUpcardActions)"
                reader.actions.pop()
            else:
                ending = "OpenSpiel ends a hand when both players in succession throw back the discard they took"
                reader.actions.pop()
    returns = state.returns()
    knocked = state.knocked()
    dw = state.deadwood()
    expressible = ending in ("knock", "wall")
    return Game(name, reader, (returns[0], returns[1]), (knocked[0], knocked[1]), (dw[0], dw[1]), ending,
                expressible, knocks, walls, layoffs)  # fmt: skip


# --- Knock's notation: the cases ---------------------------------------------------------------------


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(value)


def case_text(title: str, rules: list[str], note: str, options: dict[str, Any], hand: dict[str, Any],
              hand_expect: dict[str, Any], expect: dict[str, Any]) -> str:  # fmt: skip
    lines = [f"title = {toml_value(title)}", f"rules = {toml_value(rules)}", f"note = {toml_value(note)}",
             f"options = {toml_value(options)}", "", "[[hand]]"]  # fmt: skip
    lines += [f"{k} = {toml_value(v)}" for k, v in hand.items() if k != "actions"]
    lines.append("actions = [")
    lines += [f"  {toml_value(a)}," for a in hand["actions"]]
    lines.append("]")
    if hand_expect:
        lines += ["[hand.expect]", *(f"{k} = {toml_value(v)}" for k, v in hand_expect.items())]
    lines += ["", "[expect]", *(f"{k} = {toml_value(v)}" for k, v in expect.items())]
    return "\n".join(lines) + "\n"


def the_deal(g: Game, actions: Sequence[str]) -> dict[str, Any]:
    r = g.reader
    assert r.upcard is not None
    return {"p0": " ".join(map(str, r.hands[0])), "p1": " ".join(map(str, r.hands[1])), "upcard": str(r.upcard),
            "stock": " ".join([*map(str, r.stock), "..."]), "actions": list(actions)}  # fmt: skip


def outcome(g: Game) -> tuple[dict[str, Any], list[str]]:
    """The hand's expectations from OpenSpiel's returns and deadwood counts, and the rules they are evidence for."""
    if g.ending == "wall":
        return {"result": "dead"}, ["DEAD-2", "DEAD-1"]
    knocker = 0 if g.knocked[0] else 1
    won = g.returns[knocker]
    if g.deadwood[knocker] == 0:
        kind, rules = "gin", ["SCORE-1", "KNOCK-5"]
    elif won > 0:
        kind, rules = "knock", ["SCORE-2"]
    elif won < 0:
        kind, rules = "undercut", ["SCORE-3"]
    else:
        kind, rules = "tie", ["SCORE-3", "SCORE-6"]
    winner = None if won == 0 else (knocker if won > 0 else 1 - knocker)
    expect = {"result": kind, "winner": "none" if winner is None else f"p{winner}", "points": int(abs(won)),
              "knocker": f"p{knocker}", "deadwood": {"p0": g.deadwood[0], "p1": g.deadwood[1]}}  # fmt: skip
    return expect, rules


@dataclass
class Written:
    """A case written for a game or a probe, and what is known about it before Knock runs it."""

    path: Path
    kind: str  # "game", "prefix" (an ending Knock does not have), "probe"
    rule: str  #: the rule to report if Knock answers otherwise (a rejection names its own)
    ending: str = ""


def write_game(g: Game, out: Path, options: dict[str, Any], params: str) -> Written:
    version = importlib.metadata.version("open_spiel")
    note = f"OpenSpiel {version} gin_rummy ({params}); OpenSpiel's returns {list(g.returns)}."
    if g.expressible:
        hand_expect, rules = outcome(g)
        title = f"OpenSpiel game {g.name}: {hand_expect['result']}"
        text = case_text(title, rules, note, options, the_deal(g, g.reader.actions), hand_expect,
                         {"outcome": "accept"})  # fmt: skip
        written = Written(out / "games" / f"{g.name}.toml", "game", rules[0])
    else:
        title = f"OpenSpiel game {g.name} up to its end, which Knock does not have"
        note += f" Not expressible: {g.ending}; the case stops before that last action."
        text = case_text(title, ["TURN-2"], note, options, the_deal(g, g.reader.actions), {}, {"outcome": "accept"})
        written = Written(out / "games" / f"{g.name}.toml", "prefix", "TURN-2", g.ending)
    written.path.parent.mkdir(parents=True, exist_ok=True)
    written.path.write_text(text, encoding="utf-8")
    return written


def knock_probes(g: Game, options: dict[str, Any]) -> list[Probe]:
    """Replay the game on Knock and compare what each engine allowed at the knock, the wall and the layoffs."""
    r = g.reader
    assert r.upcard is not None
    used = {*r.hands[0], *r.hands[1], r.upcard, *r.stock}
    stock = [*r.stock, *(Card.from_index(i) for i in range(52) if Card.from_index(i) not in used)]
    hand = Hand.from_deal(RuleSet.preset("standard", **options), dealer=1, hands=(r.hands[0], r.hands[1]),
                          upcard=r.upcard, stock=stock)  # fmt: skip
    probes: list[Probe] = []
    for at, text in enumerate(r.actions):
        seat = hand.to_act
        if at in g.os_knocks and hand.phase is Phase.DISCARD:
            ours, theirs = set(hand.knock_discards()), g.os_knocks[at]
            for card, where in [(c, "knock") for c in sorted(ours - theirs)][:1] + [
                (c, "openspiel") for c in sorted(theirs - ours)
            ][:1]:
                probes.append(Probe(at, f"p{seat} knock {card}", where, "MELD-5", "a knock discard"))
        if at in g.os_walls and hand.phase is Phase.WALL:
            ours_w = DrawDiscard(hand.turn) in hand.legal_actions()
            if ours_w != g.os_walls[at]:
                where = "knock" if ours_w else "openspiel"
                probes.append(Probe(at, f"p{seat} pickup", where, "DEAD-2", "taking the last discard to knock"))
        if at in g.os_layoffs and hand.phase is Phase.LAYOFF:
            probes += layoff_probes(hand, at, g.os_layoffs[at])
        try:
            hand.apply(parse_action(text))
        except KnockError:
            break  # the game case itself reports this
    return probes


def layoff_probes(hand: Hand, at: int, theirs: set[frozenset[Card]]) -> list[Probe]:
    seat = hand.turn
    offered: dict[frozenset[Card], LayOff] = {}
    for a in hand.legal_actions():
        if isinstance(a, LayOff):
            offered.setdefault(frozenset(lo.card for lo in a.layoffs), a)
    out: list[Probe] = []
    ours_only = sorted(set(offered) - theirs, key=lambda s: (len(s), sorted(s)))
    if ours_only:
        a = offered[ours_only[0]]
        rule = "LAY-4" if any(lo.onto.kind is MeldKind.RUN for lo in a.layoffs) else "LAY-3"
        out.append(Probe(at, f"p{seat} {a}", "knock", rule, "a set of layoffs"))
    theirs_only = sorted(theirs - set(offered), key=lambda s: (len(s), sorted(s)))
    if theirs_only and hand.spread is not None:
        targets = assign_layoffs(hand.spread.melds, theirs_only[0])
        laid = " ".join(f"{c}>{m}" for c, m in targets or ((c, hand.spread.melds[0]) for c in theirs_only[0]))
        out.append(Probe(at, f"p{seat} layoff {laid}", "openspiel", "LAY-3", "a set of layoffs"))
    return out


def write_probe(g: Game, p: Probe, n: int, out: Path, options: dict[str, Any]) -> Written:
    actions = [*g.reader.actions[: p.at], p.action]
    if p.legal_in == "knock":
        title = f"OpenSpiel game {g.name}: OpenSpiel refuses {p.action} ({p.what})"
        expect: dict[str, Any] = {"outcome": "reject"}  # OpenSpiel names no rule
    else:
        title = f"OpenSpiel game {g.name}: OpenSpiel allows {p.action} ({p.what})"
        expect = {"outcome": "accept"}
    note = f"A probe of what OpenSpiel allows after the first {p.at} actions of game {g.name}."
    text = case_text(title, [p.rule], note, options, the_deal(g, actions), {}, expect)
    path = out / "probes" / f"{g.name}-{n}.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return Written(path, "probe", p.rule)


# --- running the cases on Knock ----------------------------------------------------------------------


@dataclass
class Verdict:
    case: str
    kind: str
    agrees: bool
    rule: str
    detail: str


def judge(w: Written) -> Verdict:
    """Knock's answer to a written case against OpenSpiel's expectation; a difference names the rule: the one
    Knock's rejection names, else the case's."""
    case = load_case(w.path, w.path.parent)
    answer = answer_case(case)
    problems = compare(case, answer, log=False)
    rule = str(answer.get("rule", w.rule)) if answer.get("outcome") == "reject" else w.rule
    detail = "; ".join(problems) or ("" if not w.ending else w.ending)
    return Verdict(str(w.path.relative_to(w.path.parent.parent)), w.kind, not problems, rule, detail)


def convert(games: Iterable[tuple[str, list[int]]], game: Any, out: Path, params: dict[str, Any],
            progress: Callable[[str], None] = lambda _: None) -> list[Verdict]:  # fmt: skip
    """Write the cases of every game and its probes, run them on Knock, and return the verdicts."""
    options = options_for(params)
    if isinstance(options, str):
        raise ValueError(f"OpenSpiel's parameters are not expressible: {options}")
    text = ",".join(f"{k}={v}" for k, v in params.items() if DEFAULT_PARAMS.get(k) != v) or "default parameters"
    verdicts: list[Verdict] = []
    for name, history in games:
        g = read(game, history, name)
        verdicts.append(judge(write_game(g, out, options, text)))
        for n, probe in enumerate(knock_probes(g, options), 1):
            verdicts.append(judge(write_probe(g, probe, n, out, options)))
        progress(name)
    return verdicts


def report(verdicts: Sequence[Verdict]) -> dict[str, Any]:
    games = [v for v in verdicts if v.kind in ("game", "prefix")]
    probes = [v for v in verdicts if v.kind == "probe"]
    return {
        "games": len(games),
        "agree": sum(1 for v in games if v.kind == "game" and v.agrees),
        "differ": dict(Counter(v.rule for v in games if not v.agrees)),
        "not_expressible": dict(Counter(v.detail for v in games if v.kind == "prefix" and v.agrees)),
        "probes": len(probes),
        "probes_differ": dict(Counter(v.rule for v in probes if not v.agrees)),
        "differences": [v.__dict__ for v in verdicts if not v.agrees],
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="random games to play (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    parser.add_argument("--params", default="", help="OpenSpiel parameters, e.g. knock_card=7,oklahoma=true")
    parser.add_argument("--histories", type=Path, help="read OpenSpiel histories (a JSON list of ids a line) instead")
    parser.add_argument(
        "--policy",
        choices=("greedy", "random"),
        default="greedy",
        help="the players: 'greedy' (default) or uniformly 'random' over the legal actions",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "openspiel-cases", help="where to write the cases")
    parser.add_argument("--json", type=Path, help="also write the report as JSON")
    args = parser.parse_args(argv)
    params = dict(DEFAULT_PARAMS)
    for item in filter(None, args.params.split(",")):
        key, _, value = item.partition("=")
        if key not in params:
            parser.error(f"unknown OpenSpiel parameter {key!r}; parameters: {', '.join(params)}")
        params[key] = value.lower() == "true" if isinstance(params[key], bool) else int(value)
    game = pyspiel.load_game("gin_rummy", params)
    if isinstance(options_for(params), str):  # no game with these parameters can be written as a case
        print(f"not expressible: {options_for(params)}")
        return 0
    if args.histories:
        lines = args.histories.read_text(encoding="utf-8").splitlines()
        games = [(f"{args.histories.stem}-{i}", json.loads(line)) for i, line in enumerate(lines, 1) if line.strip()]
    else:
        rng = random.Random(args.seed)
        games = [(f"s{args.seed}-{i}", play(game, rng, args.policy)) for i in range(1, args.games + 1)]
    verdicts = convert(games, game, args.out, params)
    summary = report(verdicts)
    print(f"{summary['games']} OpenSpiel games -> cases in {args.out}")
    print(f"  agree with Knock: {summary['agree']}")
    print(f"  differ: {sum(summary['differ'].values())} {summary['differ']}")
    for why, n in summary["not_expressible"].items():
        print(f"  not expressible: {n} ({why})")
    print(f"  probes of what is legal: {summary['probes']}, differ: {summary['probes_differ']}")
    for d in summary["differences"]:
        print(f"    {d['rule']:8} {d['case']}: {d['detail'][:150]}")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
