"""tools/research/openspiel_cases.py: OpenSpiel games turned into conformance cases, run on Knock, differences reported.

The cases it writes must say what OpenSpiel said: each one, played back on OpenSpiel, gives OpenSpiel's
answer (a reject probe is refused at its last action, a game ends with the points the case expects).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyspiel
import pytest
from openspiel_map import RefusedByOpenSpiel, play_on_openspiel

from engine.actions import parse_match_action
from knock.conformance import answer_case, load_case

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "research" / "openspiel_cases.py"


def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, cwd=ROOT, check=False)


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str]:
    out = tmp_path_factory.mktemp("openspiel")
    done = run_tool("--games", "60", "--seed", "1", "--out", str(out / "cases"), "--json", str(out / "report.json"))
    assert done.returncode == 0, done.stderr
    return out / "cases", json.loads((out / "report.json").read_text()), done.stdout


@pytest.mark.rule("CONF-6", "LAY-4", "SCORE-2")
def test_sixty_games_agree_but_for_openspiels_own_ending_and_its_layoff_chains(
    converted: tuple[Path, dict[str, Any], str],
) -> None:
    _, report, printed = converted
    assert report["games"] == 60
    assert report["differ"] == {}, "every game OpenSpiel finished as Knock would is played alike"
    assert report["agree"] + sum(report["not_expressible"].values()) == 60
    assert any("throw back" in why for why in report["not_expressible"]), "its repeated-move draw is not Knock's"
    assert report["probes_differ"].get("LAY-4", 0) >= 1, "OpenSpiel refuses a third card chained onto a run"
    assert all(d["kind"] == "probe" for d in report["differences"])
    assert "LAY-4    probes/" in printed


@pytest.mark.rule("CONF-6", "CONF-2", "CONF-9")
def test_every_case_says_what_openspiel_said(converted: tuple[Path, dict[str, Any], str]) -> None:
    cases, _, _ = converted
    game = pyspiel.load_game("gin_rummy")
    paths = sorted(cases.rglob("*.toml"))
    assert len(paths) >= 60
    for path in paths:
        case = load_case(path, path.parent)
        (hand,) = case.hands
        actions = [parse_match_action(text) for text in hand.actions]
        deal = (hand.cards[0], hand.cards[1])
        if case.outcome == "reject":
            assert "rule" not in case.expect, "OpenSpiel names no rule"
            with pytest.raises(RefusedByOpenSpiel) as refused:
                play_on_openspiel(game, deal, hand.upcard, hand.stock, actions)
            assert refused.value.index == len(actions) - 1, f"{path.name}: refused at its last action"
            assert answer_case(case)["outcome"] == "accept", "a probe is written only where Knock differs"
            continue
        state = play_on_openspiel(game, deal, hand.upcard, hand.stock, actions)
        if "points" in hand.expect:
            points = int(max(state.returns()))
            assert state.is_terminal() and points == hand.expect["points"], path.name
            winner = hand.expect["winner"]
            assert winner == "none" or state.returns()[int(winner[1])] == points
            assert [state.deadwood()[s] for s in (0, 1)] == [hand.expect["deadwood"][f"p{s}"] for s in (0, 1)]


@pytest.mark.rule("CONF-6")
def test_histories_can_be_read_from_a_file(tmp_path: Path) -> None:
    game, histories = pyspiel.load_game("gin_rummy"), []
    for seed in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
            state.apply_action(legal[(seed * 7 + len(state.history())) % len(legal)])
        histories.append(state.history())
    (tmp_path / "mine.jsonl").write_text("".join(json.dumps(h) + "\n" for h in histories))
    done = run_tool("--histories", str(tmp_path / "mine.jsonl"), "--out", str(tmp_path / "cases"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("3 OpenSpiel games")
    assert sorted(p.name for p in (tmp_path / "cases" / "games").iterdir()) == [f"mine-{i}.toml" for i in (1, 2, 3)]


@pytest.mark.rule("CONF-6", "RULES-3")
def test_openspiels_reduced_decks_are_not_expressible(tmp_path: Path) -> None:
    done = run_tool("--params", "num_ranks=9", "--games", "3", "--out", str(tmp_path))
    assert done.returncode == 0 and "not expressible" in done.stdout and "RULES-3" in done.stdout
    assert not any(tmp_path.iterdir()), "no case is written"
