"""The board of ``knock play`` (``knock.play.board``, drawn by ``knock.play.tui``): what it shows, driven with
Textual's own pilot (``App.run_test``), and text snapshots of the whole screen at 80x24 and 120x40 that fail on
any change. To write them again on purpose: ``KNOCK_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest -n 0
tests/cli/test_board.py`` (then read the diff before committing it)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from engine.actions import DrawDiscard, TakeUpcard
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import BOT_NAMES, GreedyBot
from knock.cli.common import render
from knock.play import BOT_CHOICES, Save, Session, Setup
from knock.play.board import build
from knock.play.tui import OVER, STOPPED, BoardApp, BoardTable, text_of
from replay.narration import Voice
from replay.verdict import judge

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("KNOCK_UPDATE_SNAPSHOTS") == "1"


def at_table(path: Path, setup: Setup) -> BoardApp:
    session = Session(setup)
    save = Save.create(path, session)
    return BoardApp(render, table=lambda con, ask: BoardTable(session, save, con, ask, render, new=True))


async def settle(app: BoardApp, pilot: Pilot[str]) -> None:
    """Wait until the table asks again (or the game is over), and the board is drawn."""
    for _ in range(1500):
        if app.waiting or app.over or app.done.is_set():
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("the table did not ask within 30 s")


async def typed(app: BoardApp, pilot: Pilot[str], *lines: str) -> None:
    for line in lines:
        await settle(app, pilot)
        await pilot.press(*("space" if ch == " " else ch for ch in line), "enter")
    await settle(app, pilot)


def run(app: BoardApp, size: tuple[int, int], script: Callable[[Pilot[str]], Awaitable[None]]) -> None:
    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await script(pilot)

    asyncio.run(go())


def matches_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if UPDATE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"no snapshot {path}: write it with KNOCK_UPDATE_SNAPSHOTS=1"
    assert text + "\n" == path.read_text(encoding="utf-8"), f"the board differs from {path}"


def log_text(app: BoardApp) -> str:
    return "\n".join(app.said)


@pytest.mark.rule("VIS-1")
@pytest.mark.parametrize(
    ("size", "preset", "seat", "lines"),
    [((80, 24), "standard", 0, ["1", "1", "1"]), ((120, 40), "three_handed", 1, ["1", "1", "hint"])],
)
def test_the_board_matches_its_text_snapshot(
    tmp_path: Path, size: tuple[int, int], preset: str, seat: int, lines: list[str]
) -> None:
    rules = RuleSet.preset(preset)
    bots = ("greedy",) * (rules.players - 1)
    app = at_table(tmp_path / "g.knock", Setup(rules, 5, seat, bots))
    shot: list[str] = []

    async def script(pilot: Pilot[str]) -> None:
        await typed(app, pilot, *lines)
        shot.append(text_of(app))

    run(app, size, script)
    screen = shot[0]
    assert len(screen.splitlines()) <= size[1] and max(map(len, screen.splitlines())) <= size[0]
    for panel in ("Knock │", "your move", "hand ", "pile top", "discards ", "holds:", "score (to", "1. "):
        assert panel in screen, (panel, screen)
    matches_snapshot(f"board-{size[0]}x{size[1]}.txt", screen)


@pytest.mark.rule("TURN-1", "LOG-14")
def test_a_refusal_and_a_word_leave_the_choices_on_the_board_and_q_stops(tmp_path: Path) -> None:
    rules = RuleSet.preset("standard", target=30)
    setup = Setup(rules, 6, Match.new(rules, seed=6).captain, ("greedy",))  # the first to act: the upcard's offer
    app = at_table(tmp_path / "g.knock", setup)
    seen: dict[str, str] = {}

    async def script(pilot: Pilot[str]) -> None:
        await typed(app, pilot, "pass", "undo")
        seen["undone"] = log_text(app)
        table = app.table
        assert table is not None
        while not any(a.__class__.__name__ == "Discard" for a, _ in table.offered):  # to the first discard
            await typed(app, pilot, "1")
        await typed(app, pilot, "take", "score")
        seen["refused"] = text_of(app)
        await typed(app, pilot, "q")

    run(app, (100, 40), script)
    assert "(rule TURN-1)" in log_text(app) and "no hand has been scored yet" in log_text(app)
    assert "discard (the deadwood it leaves):" in seen["refused"]  # still there, after the refusal and the word
    assert "took back your move 'pass': choose again below; the game goes on in " in seen["undone"]
    assert app.return_value == STOPPED
    assert judge((tmp_path / "g.knock").read_bytes()).kind == "unfinished"
    assert judge((tmp_path / "g.branches" / "1.knock").read_bytes()).kind == "unfinished"


@pytest.mark.rule("VIS-1", "LOG-5")
def test_a_game_on_the_board_is_played_out_and_its_log_verifies(tmp_path: Path) -> None:
    setup = Setup(RuleSet.preset("standard", target=1), 57, 0, ("greedy",))  # one short hand
    app = at_table(tmp_path / "g.knock", setup)

    async def script(pilot: Pilot[str]) -> None:
        while not app.over:
            await settle(app, pilot)
            table = app.table
            if app.over or table is None:
                break
            hand = table.session.match.hand
            assert hand is not None
            move = GreedyBot().choose(hand.observation(table.session.me), table.session.match.legal_actions())
            number = next(i for i, (a, _) in enumerate(table.offered, start=1) if a == move)
            await typed(app, pilot, str(number))
        assert "game over" in text_of(app)
        await pilot.press("enter")

    run(app, (80, 24), script)
    assert app.return_value == OVER and "score sheet" in log_text(app)
    assert judge((tmp_path / "g.knock").read_bytes()).kind == "pass"


@pytest.mark.rule("VIS-1")
def test_the_bot_is_chosen_from_a_list_that_holds_every_bot(tmp_path: Path) -> None:
    assert sorted(name for name, _ in BOT_CHOICES) == sorted(BOT_NAMES)
    chosen: list[str] = []
    setups: list[Session] = []

    def choose(bot: str) -> Callable[..., BoardTable]:
        chosen.append(bot)
        session = Session(Setup(RuleSet.preset("standard"), 5, 0, (bot,)))
        save = Save.create(tmp_path / "c.knock", session)
        setups.append(session)
        return lambda con, ask: BoardTable(session, save, con, ask, render, new=True)

    app = BoardApp(render, choose=choose)

    async def script(pilot: Pilot[str]) -> None:
        await pilot.pause()
        assert "choose the bot you play against" in text_of(app)
        assert all(name in text_of(app) for name, _ in BOT_CHOICES)
        await pilot.press("down", "enter")
        await settle(app, pilot)
        assert "your move" in text_of(app)
        await typed(app, pilot, "q")

    run(app, (80, 24), script)
    assert chosen == [BOT_CHOICES[1][0]] and setups[0].setup.players == ("you", BOT_CHOICES[1][0])


@pytest.mark.rule("VIS-1", "THREE-8")
def test_the_board_shows_the_pile_the_cards_known_held_the_last_move_and_the_roles() -> None:
    rules = RuleSet.preset("standard")
    seed = next(s for s in range(1, 200) if picked(rules, s))
    session = picked(rules, seed)
    assert session is not None
    names = Voice(session.setup.players, session.me, symbols=False, seats=2)
    board = build(session, names, [], "your move")
    assert board.known[0].startswith("greedy holds: ") and "nothing known" not in board.known[0], board.known
    assert any(">greedy" in d for d in board.discards), board.discards
    assert board.last.startswith("▶ last: greedy "), board.last
    three = RuleSet.preset("three_handed")
    captain = Match.new(three, seed=4).captain
    s3 = Session(Setup(three, 4, captain, ("greedy", "greedy")))
    head = build(s3, Voice(s3.setup.players, captain, symbols=False, seats=3), [], "").head
    assert "you are captain v greedy#" in head and "sits out (bots give no advice)" in head
    sitter = Match.new(three, seed=4).sitter
    assert sitter is not None
    s4 = Session(Setup(three, 4, sitter, ("greedy", "greedy")))
    sat = build(s4, Voice(s4.setup.players, sitter, symbols=False, seats=3), [], "")
    assert sat.whose == f"{s4.setup.players[s4.match.captain]}'s hand" and "you sit out, advising" in sat.head


def picked(rules: RuleSet, seed: int) -> Session | None:
    """A game where the greedy bot at seat 1 has just picked up from the pile, the person's move next."""
    session = Session(Setup(rules, seed, 0, ("greedy",)))
    for _ in range(60):
        match = session.match
        if match.is_over or match.hand is None:
            return None
        if match.to_act == session.me:
            last = session.actions[-2:] if len(session.actions) >= 2 else []
            if any(isinstance(a, DrawDiscard | TakeUpcard) and a.seat != session.me for a in last):
                return session
            session.apply(GreedyBot().choose(match.hand.observation(session.me), match.legal_actions()))
        else:
            session.apply(session.bot_move())
    return None


@pytest.mark.rule("LOG-5", "LOG-13")
def test_a_game_resumed_on_the_board_tells_the_hand_so_far_and_goes_on(tmp_path: Path) -> None:
    from knock.play import resume

    path = tmp_path / "r.knock"
    app = at_table(path, Setup(RuleSet.preset("standard"), 5, 0, ("greedy",)))

    async def first(pilot: Pilot[str]) -> None:
        await typed(app, pilot, "1", "1", "q")

    run(app, (80, 24), first)
    session, save = resume(path)
    again = BoardApp(render, table=lambda con, ask: BoardTable(session, save, con, ask, render, new=False),
                     resumed=True)  # fmt: skip
    screens: list[str] = []

    async def second(pilot: Pilot[str]) -> None:
        await typed(again, pilot, "1")
        screens.append(text_of(again))
        await typed(again, pilot, "q")

    run(again, (80, 24), second)
    told = log_text(again)
    assert "you pass the upcard" in told and "you draw Td from the stock" in told and "your move" in screens[0]
    save.close()
    assert judge(path.read_bytes()).kind == "unfinished"
