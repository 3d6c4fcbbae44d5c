"""``knock arena``: paired seeds with seats swapped, figures over seed pairs, an Elo ladder, --resume."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.hand import Hand
from engine.rules import RuleSet
from knock import arena
from knock.bots import EAAI_RULES, make_bot, play_hand
from knock.cli.common import rules_title
from knock.sequential import Sprt, parse_sprt, score_of
from tests.cli.support import run as knock
from tests.helpers import tool_check

HANDS = arena.Config(RuleSet().to_dict(), ("greedy", "simple", "heuristic"), "hands", arena.ACCEPTANCE_SEED)


def test_a_seed_pair_plays_the_same_deal_twice_with_the_seats_swapped() -> None:
    seed = arena.ACCEPTANCE_SEED + 3
    pair = arena.play_pair(HANDS, "greedy", "simple", seed)
    for a_seat, unit in enumerate(pair.units):
        bots = [make_bot("greedy", seed * 7 + a_seat), make_bot("simple", seed * 7 + 1 - a_seat)]
        if a_seat:
            bots.reverse()
        hand = play_hand(Hand.deal(RuleSet(), seed=seed, dealer=seed % 2), bots)
        assert hand.result is not None
        won = 0.5 if hand.result.winner is None else float(hand.result.winner == a_seat)
        assert unit.score == won
        assert unit.points == (hand.result.points if hand.result.winner == a_seat else 0)
        assert unit.stats[0][0] == unit.stats[1][0] == 1  # one hand each, counted for both bots


def test_the_figures_do_not_depend_on_the_order_results_come_in() -> None:
    results = [r for t in arena.plan(HANDS, 6, ()) for r in arena.play_task(t)]
    assert len(results) == 18 and len({r.key for r in results}) == 18  # every pairing, every seed, once
    once = arena.summarise(HANDS, results, bootstrap=50)
    random.Random(1).shuffle(results)
    again = arena.summarise(HANDS, results, bootstrap=50)
    assert (once.pairings, once.ladder, once.hands) == (again.pairings, again.ladder, again.hands)
    assert once.units == 36 and [line.bot for line in once.ladder] == sorted(
        HANDS.bots, key=lambda b: -next(x.elo for x in once.ladder if x.bot == b)
    )
    assert abs(sum(line.elo for line in once.ladder) / 3 - 1500) < 1e-6
    for line in once.ladder:
        assert line.low <= line.elo <= line.high


def test_win_rate_intervals_and_elo_follow_their_formulas() -> None:
    mean, low, high = arena.mean_interval([1.0, 0.5, 0.0, 1.0])
    half = 1.959964 * math.sqrt(sum((v - 0.625) ** 2 for v in (1.0, 0.5, 0.0, 1.0)) / 3) / 2
    assert mean == 0.625 and math.isclose(high - mean, half) and math.isclose(mean - low, half)
    elo = arena.bradley_terry(["a", "b"], {("a", "b"): (750.0, 1000.0)})
    assert math.isclose(elo["a"] - elo["b"], 400 * math.log10(750.5 / 250.5), abs_tol=1e-3)  # one drawn game added
    assert math.isclose(elo["a"] + elo["b"], 3000)


def test_knock_arena_prints_its_tables_and_resumes_a_results_file(tmp_path: Path) -> None:
    common = ("arena", "--bots", "greedy,simple", "--jobs", "1", "--seed", "1000000000", "-q")
    whole = knock(*common, "--games", "8", "--json")
    assert whole.returncode == 0, whole.stderr
    fresh = json.loads(whole.stdout)
    assert fresh["pairs"] == 4 and fresh["units"] == 8 and fresh["mode"] == "games"
    results = tmp_path / "r.jsonl"
    first = knock(*common, "--games", "4", "--results", str(results))
    assert first.returncode == 0, first.stderr
    assert "Elo ladder" in first.stdout and "greedy\tsimple\t2" in first.stdout
    assert len(results.read_text().splitlines()) == 3  # the config, then a line per seed pair
    refused = knock(*common, "--games", "8", "--results", str(results))
    assert refused.returncode == 2 and "--resume" in refused.stderr
    csv_file = tmp_path / "r.csv"
    resumed = knock(*common, "--games", "8", "--results", str(results), "--resume", "--json", "--csv", str(csv_file))
    assert resumed.returncode == 0, resumed.stderr
    doc = json.loads(resumed.stdout)
    assert len(results.read_text().splitlines()) == 5
    for key in ("pairings", "ladder", "hands", "units"):
        assert doc[key] == fresh[key], key  # resumed or played at once: the same figures
    rows = csv_file.read_text().splitlines()
    assert rows[0].startswith("kind,bot,against,pairs,win_rate") and len(rows) == 4  # one pairing, two bots


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "simple"), "two or more different bots"),
        (("--preset", "three_handed"), "two-player rule sets"),
        (("--resume",), "give one"),
    ],
)
def test_knock_arena_refuses_what_it_cannot_pair(args: tuple[str, ...], message: str) -> None:
    done = knock("arena", "--games", "2", *args)
    assert done.returncode == 2 and message in done.stderr, done.stderr


def test_the_ladder_in_docs_bots_md_is_its_record_rendered() -> None:
    tool_check("ladder.py")


@pytest.mark.rule("RULES-1")
def test_the_heading_names_the_options_set_apart_from_the_preset() -> None:
    assert rules_title(RuleSet.preset("oklahoma")) == "oklahoma Gin"
    assert rules_title(RuleSet.preset("standard", target=250)) == "standard Gin"  # the heading says "to 250"
    eaai = RuleSet.preset("standard", undercut_bonus=25, next_dealer="alternate")
    assert rules_title(eaai) == "standard Gin (undercut_bonus=25, next_dealer=alternate)"
    done = knock("arena", "--bots", "greedy,simple", "--hands", "--games", "2", "--jobs", "1", "-q",
                 "--set", "undercut_bonus=25")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "single hands of standard Gin (undercut_bonus=25)" in done.stdout.splitlines()[0]


def test_a_results_file_is_continued_only_by_the_bots_that_began_it(tmp_path: Path) -> None:
    common = ("arena", "--bots", "greedy,simple", "--hands", "--jobs", "1", "-q", "--results")
    results = tmp_path / "r.jsonl"
    assert knock(*common, str(results), "--games", "2").returncode == 0
    head, *rows = results.read_text().splitlines()
    prints = json.loads(head)["prints"]
    rules = RuleSet().to_dict()
    assert prints == {"greedy": arena.bot_print(rules, "greedy"), "simple": arena.bot_print(rules, "simple")}
    assert arena.bot_print(rules, "greedy") != arena.bot_print(rules, "heuristic")  # their moves differ
    changed = dict(json.loads(head), prints=prints | {"simple": "0" * 16})  # as if simple had played otherwise
    results.write_text("\n".join([json.dumps(changed), *rows]) + "\n")
    refused = knock(*common, str(results), "--games", "4", "--resume")
    assert refused.returncode == 2 and "simple now plays other moves" in refused.stderr, refused.stderr
    assert len(results.read_text().splitlines()) == 2  # nothing added
    old = {k: v for k, v in json.loads(head).items() if k != "prints"}  # a file begun before the fingerprints
    results.write_text("\n".join([json.dumps(old), *rows]) + "\n")
    resumed = knock(*common, str(results), "--games", "4", "--resume")
    assert resumed.returncode == 0 and "not checked" in resumed.stderr, resumed.stderr
    assert len(results.read_text().splitlines()) == 3


# --- #65: any bot, the EAAI protocol, the sequential test ---------------------------------------------------

#: A bot of one's own in a file: a legal action at random from its seed (a trained or external bot in its place).
OWN_BOT = """
import random


class Mine:
    name = "mine"

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def choose(self, obs, legal):
        return self.rng.choice(legal)
"""


@pytest.mark.rule("VIS-2")
def test_the_arena_takes_a_bot_of_ones_own_by_module_or_file(tmp_path: Path) -> None:
    own = tmp_path / "own_bot.py"
    own.write_text(OWN_BOT)
    results = tmp_path / "r.jsonl"
    bots = f"{own}:Mine,knock.bots.base:RandomBot,greedy"
    done = knock("arena", "--bots", bots, "--hands", "--games", "4", "--jobs", "2", "-q", "--json",
                 "--results", str(results))  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["bots"] == [f"{own}:Mine", "knock.bots.base:RandomBot", "greedy"] and doc["units"] == 12
    prints = json.loads(results.read_text().splitlines()[0])["prints"]
    assert set(prints) == set(doc["bots"])  # fingerprinted like the project's bots: --resume checks them
    resumed = knock("arena", "--bots", bots, "--hands", "--games", "6", "--jobs", "1", "-q", "--json",
                    "--results", str(results), "--resume")  # fmt: skip
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["units"] == 18, resumed.stderr
    assert make_bot(f"{own}:Mine", 5).name == "mine"
    marjj = Path(__file__).resolve().parents[2] / "tools" / "opponents" / "marjj.py"  # its dataclasses load too
    assert make_bot(f"{marjj}:MarjjBot", 5).name == "marjj"


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        ("no_such_module_x:Bot", "cannot import 'no_such_module_x'"),
        ("knock.bots.base:NoSuchBot", "has no 'NoSuchBot'"),
        ("engine.rules:PRESETS", "not a class or a function"),
        ("engine.cards:Card", "could not be made"),
        ("knock.bots.base:play_hand", "could not be made"),
        ("missing/file.py:Bot", "no file 'missing/file.py'"),
    ],
)
def test_a_bot_that_cannot_be_made_is_refused_in_words(bot: str, message: str) -> None:
    done = knock("arena", "--bots", f"{bot},greedy", "--games", "2")
    assert done.returncode == 2 and message in done.stderr, done.stderr


@pytest.mark.rule("MATCH-4", "MATCH-5", "SCORE-3")
def test_the_eaai_protocol_is_the_challenges_option_set_and_named_in_the_report() -> None:
    done = knock("arena", "--bots", "greedy,simple", "--games", "2", "--jobs", "1", "-q", "--protocol", "eaai",
                 "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["protocol"] == "eaai" and RuleSet.from_dict(doc["rules"]) == EAAI_RULES
    text = knock("arena", "--bots", "greedy,simple", "--games", "2", "--jobs", "1", "-q", "--protocol", "eaai")
    assert "the EAAI protocol" in text.stdout.splitlines()[0], text.stdout
    refused = knock("arena", "--bots", "greedy,simple", "--games", "2", "--protocol", "wsop")
    assert refused.returncode == 2 and "no protocol 'wsop'" in refused.stderr


def test_the_sequential_test_follows_its_formula_and_bounds() -> None:
    test = Sprt(0, 20)
    assert math.isclose(test.upper, math.log(19)) and math.isclose(test.lower, -math.log(19))
    scores = [1.0, 0.5, 0.75, 0.25, 0.5, 1.0]
    n, total = len(scores) + 1, sum(scores) + 0.5  # one even pair added
    mean, var = total / n, (sum(x * x for x in scores) + 0.25) / n - (total / n) ** 2
    s0, s1 = score_of(0), score_of(20)
    assert math.isclose(test.llr(scores), n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var))
    assert score_of(0) == 0.5 and math.isclose(score_of(400), 10 / 11)
    even = test.decide([0.5, 0.25, 0.75, 0.5] * 300)
    assert even.verdict == "H0" and even.llr <= test.lower
    assert test.decide([0.5, 0.25, 0.75, 0.5][:3]).verdict is None  # too few pairs to decide
    for bad in ("20,0", "0", "0,20,0.7,0.05", "a,b", "0,inf"):
        with pytest.raises(ValueError):
            parse_sprt(bad)
    assert parse_sprt("0,20,0.1,0.2") == Sprt(0, 20, 0.1, 0.2)


def test_the_arena_stops_when_the_sequential_test_decides_at_the_same_pair_on_any_worker_count() -> None:
    common = ("arena", "--bots", "random,heuristic", "--hands", "--games", "400", "--sprt", "0,50", "-q", "--json")
    one, two = (knock(*common, "--jobs", jobs) for jobs in ("1", "2"))
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a["sprt"]["verdict"] == "H0" and a["sprt"]["pairs"] < 200  # decided before the 200 pairs ran out
    assert a["pairs"] == a["sprt"]["pairs"] and a["pairings"] == b["pairings"] and a["sprt"] == b["sprt"]
    text = knock(*common[:-1], "--jobs", "1")
    assert "random is not better than heuristic by 0 Elo (H0 accepted)" in text.stdout, text.stdout
    refused = knock("arena", "--bots", "random,heuristic,greedy", "--games", "2", "--sprt", "0,20")
    assert refused.returncode == 2 and "compares two bots" in refused.stderr


def test_a_unit_that_never_ends_stops_with_an_error_naming_its_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    config = arena.Config(RuleSet().to_dict(), ("random", "greedy"), "hands")
    monkeypatch.setattr(arena, "MAX_MOVES", 20)  # as if the bots had cycled on the discard pile for 200,000
    with pytest.raises(RuntimeError, match=r"random against greedy, seed 7: no end after 20 decisions"):
        arena.play_unit(config, ("random", "greedy"), 7)
    monkeypatch.setattr(arena, "MAX_MOVES", 200_000)
    assert arena.play_unit(config, ("random", "greedy"), 7)[2]  # a hand's result


def test_a_huge_run_is_planned_as_it_goes_in_flat_memory() -> None:
    """``--games 999999999999`` plans lazily (#66: it planned every seed pair first, 1.5 GB in 45 s): here the
    sequential test stops it after a few pairs, in a process no bigger than one asked for four games."""

    def peak(games: str) -> tuple[dict[str, Any], int]:
        code = (
            "import resource, sys\n"
            "from knock.cli import main\n"
            f"sys.argv = ['knock', 'arena', '--bots', 'random,heuristic', '--hands', '--games', '{games}',\n"
            "            '--sprt', '0,50', '--jobs', '1', '-q', '--json', '--bootstrap', '10']\n"
            "try:\n    main()\nexcept SystemExit as done:\n    assert not done.code, done.code\n"
            "print('peak', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        doc: dict[str, Any] = json.loads(done.stdout)
        return doc, int(done.stderr.split("peak ")[1].split()[0])

    huge, huge_kib = peak("999999999999")
    _, small_kib = peak("4")
    assert huge["sprt"]["verdict"] == "H0" and huge["pairs"] == huge["sprt"]["pairs"] < 100
    assert huge_kib < small_kib + 64 * 1024, (huge_kib, small_kib)  # the same memory, give or take the pairs played
    assert next(iter(arena.plan(arena.Config(RuleSet().to_dict(), ("random", "greedy")), 10**15, ()))).seeds
