"""Terminal play (``knock.play``) in process: what a person types and what the table answers, the options and
their deadwood, the sitter's advice, ``undo`` (a branched log, LOG-14), and resuming a game from its log —
byte for byte the game played straight through, from whatever record boundary the log stopped at."""

from __future__ import annotations

import io
import itertools
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console

from engine.actions import (
    Action,
    Advise,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    PassUpcard,
    TakeUpcard,
)
from engine.cards import Card, cards, to_mask
from engine.fsm import Phase
from engine.melds import deadwood
from engine.rules import RuleSet
from knock.bots import GreedyBot, HeuristicBot
from knock.cli.common import render
from knock.play import PlayError, Quit, Save, Session, Setup, TerminalTable, fresh_path, resume
from knock.play.coach import hint
from knock.play.screen import options
from knock.play.words import Context, Move, Refusal, Typo, Word, card_of, normalise, read
from replay.codec import T_ADVICE, T_HAND, T_RESULT, unpacked
from replay.log import LogReader, write_log
from replay.redact import redact
from replay.verdict import judge
from tests.helpers import deal

RULE_ID = re.compile(r"\b[A-Z]+-\d+\b")


# --- what a person types -----------------------------------------------------------------------------


@pytest.mark.rule("CARD-1")
def test_cards_are_read_in_every_notation_the_screen_shows() -> None:
    js = Card.parse("Js")
    for text in ("J♠", "j♠", "Js", "JS", "js", "jack of spades", "Jack of Spade", "J♤", "J♠\ufe0f"):
        assert card_of(text) == js, text
    for text in ("10s", "Ts", "ten of spades", "10♠", "T♠", "ts"):
        assert card_of(text) == Card.parse("Ts"), text
    assert card_of("as") == Card.parse("As") and card_of("ace of hearts") == Card.parse("Ah")
    for text in ("Zz", "1s", "J", "jack", "11s", "hello"):
        assert card_of(text) is None, text
    assert normalise("lay off 2♥ on 2♣-2♦-2♠") == "lay off 2h on 2c-2d-2s"


def ctx(phase: Phase, legal: list[object], hand: str = "As 2s 3s 4h 4d 4c 9s Tc Jd Kh", top: str = "Qh") -> Context:
    return Context(0, phase, legal, legal, cards(hand), Card.parse(top), 10)  # type: ignore[arg-type]


@pytest.mark.rule("OFFER-1", "TURN-2", "DEAD-2", "KNOCK-1", "KNOCK-6")
def test_moves_are_read_with_their_aliases_as_the_phase_means_them() -> None:
    offer = ctx(Phase.UPCARD_OFFER, [PassUpcard(0), TakeUpcard(0)])
    take, pass_ = TakeUpcard(0), PassUpcard(0)
    cases: list[tuple[str, Action]] = [("take", take), ("pickup", take), ("pass", pass_), ("decline", pass_),
                                       ("Qh", take), ("1", pass_), ("2", take), ("take the upcard", take)]  # fmt: skip
    for text, want in cases:
        assert read(text, offer) == Move(want), text
    draw = ctx(Phase.DRAW, [DrawStock(0), DrawDiscard(0)])
    stock, pickup = DrawStock(0), DrawDiscard(0)
    cases = [("draw", stock), ("stock", stock), ("draw from the stock", stock), ("take", pickup), ("pickup", pickup),
             ("pick up", pickup), ("PICKUP", pickup), ("q♥", pickup)]  # fmt: skip
    for text, want in cases:
        assert read(text, draw) == Move(want), text
    wall = ctx(Phase.WALL, [DrawDiscard(0), DeclineWall(0)])
    assert read("decline", wall) == read("pass", wall) == Move(DeclineWall(0))
    hand = "As 2s 3s 4h 4d 4c 7c 8c 9c 2d Kh"
    discard = ctx(Phase.DISCARD, [Discard(0, c) for c in cards(hand)] + [Knock(0, Card.parse("Kh"))], hand)
    both = read("K♥", discard)
    assert isinstance(both, Typo) and "type 'discard Kh' or 'knock Kh'" in both.message
    assert read("2d", discard) == read("discard 2♦", discard) == Move(Discard(0, Card.parse("2d")))
    assert read("knock", discard) == read("knock K♥", discard) == Move(Knock(0, Card.parse("Kh")))
    assert read("big-gin", discard) == Move(BigGin(0)) and read("gin", discard) == Refusal(
        "KNOCK-5", "no gin: gin leaves no card over, and your best discard, Kh, leaves 2"
    )
    loose = "As 3s 5h 7d 9c Jc Qd Kh 2d 4c 6h"  # no knock at all: still a gin's refusal, not a knock's
    far = ctx(Phase.DISCARD, [Discard(0, c) for c in cards(loose)], loose)
    assert read("gin", far) == Refusal(
        "KNOCK-5", "no gin: gin leaves no card over, and your best discard, Jc, leaves 57"
    )
    assert read("discard Qs", discard) == Move(Discard(0, Card.parse("Qs")))  # the engine refuses it (TURN-3)
    for text in ("?", "help", "hint", "score", "undo", "q", "quit", "none"):
        assert isinstance(read(text, discard), Word), text


@pytest.mark.rule("LAY-5", "MELD-2")
def test_showdowns_are_read_in_notation_or_in_words() -> None:
    layoff = Context(0, Phase.LAYOFF, [], [], cards("9c 9d 9h 7c 2h"), None, 10)
    got = read("show 9♣-9♦-9♥, lay off 7♣ on 4♣-5♣-6♣", layoff)
    assert isinstance(got, Move) and str(got.action) == "layoff 9c-9d-9h 7c>4c-5c-6c"
    assert str(read("layoff 9c-9d-9h 7c>4c-5c-6c", layoff).action) == "layoff 9c-9d-9h 7c>4c-5c-6c"  # type: ignore[union-attr]
    assert read("spread 4c-5c-7c", ctx(Phase.KNOCK, [])).rule == "MELD-2"  # type: ignore[union-attr]


def test_typing_mistakes_get_plain_help_never_a_rule_id() -> None:
    discard = ctx(Phase.DISCARD, [Discard(0, c) for c in cards("As 2s 3s 4h 4d 4c 9s Tc Jd Kh Qh")])
    for text in ("hello", "", "   ", "99", "0", "discard Zz", "discard", "knock Zz", "take Kh Qs", "spread !!"):
        got = read(text, discard)
        assert isinstance(got, Typo), text
        assert not RULE_ID.search(got.message), (text, got.message)


# --- what the table shows ------------------------------------------------------------------------------


P0, P1 = "As 2s 3s 4h 4d 4c 9s Tc Jd Kh", "2c 2d 2h 5c 6c 7c 8h 8d 8s Qs"


@pytest.mark.rule("KNOCK-2", "LAY-5", "TURN-4")
def test_options_show_the_deadwood_they_leave_and_answers_in_plain_words() -> None:
    hand = deal(p0=P0, p1=P1, upcard="9d", stock="3h")
    hand.play("p1 pass", "p0 take")
    shown = {str(a): text for a, text in options(hand.observation(0), hand.legal_actions())}
    assert shown["discard Kh"] == "discard Kh — deadwood 38" and "discard 9d" not in shown  # TURN-4
    assert shown["discard 4c"] == "discard 4c — deadwood 56"
    hand.play("p0 discard Kh")
    shown = {str(a): text for a, text in options(hand.observation(1), hand.legal_actions())}
    assert shown["pickup"] == "pick up Kh — deadwood 10 after your discard"
    assert shown["draw"] == "draw from the stock — an unseen card; your deadwood before it: 10"
    hand.play("p1 draw")
    shown = {str(a): text for a, text in options(hand.observation(1), hand.legal_actions())}
    assert shown["knock Qs"] == "knock Qs — deadwood 3" and shown["discard Qs"] == "discard Qs — deadwood 3"
    hand.play("p1 knock Qs")
    hand.apply(hand.auto_spread())
    answers = [text for _, text in options(hand.observation(0), hand.legal_actions())]
    left = [int(t.rsplit("= ", 1)[1]) for t in answers]
    assert left == sorted(left) and answers[0] == "show As-2s-3s 4c-4d-4h — deadwood 9d 9s Tc Jd = 38"
    assert any(t.startswith("show As-2s-3s; lay off 4c on 5c-6c-7c") for t in answers), answers
    action, why = hint(hand.observation(0), hand.legal_actions())
    assert action == HeuristicBot().choose(hand.observation(0), hand.legal_actions())
    assert why == "the answer that leaves the least deadwood: " + answers[0]


def test_a_hint_is_the_heuristic_bots_move_with_a_reason() -> None:
    hand = deal(p0=P0, p1=P1, upcard="9d", stock="Qc Ks")
    hand.play("p1 pass", "p0 pass", "p1 draw", "p1 discard Qc")
    obs = hand.observation(0)
    action, why = hint(obs, hand.legal_actions())
    assert action == HeuristicBot().choose(obs, hand.legal_actions()) == DrawStock(0)
    assert why == "draw from the stock: Qc would not make a meld, and taking it would not lower your deadwood"
    hand.play("p0 draw")
    obs = hand.observation(0)
    action, why = hint(obs, hand.legal_actions())
    assert action == HeuristicBot().choose(obs, hand.legal_actions()) and isinstance(action, Discard)
    left = deadwood(to_mask(obs.hand) ^ action.card.bit)
    assert re.fullmatch(
        rf"discard {action.card}: it leaves {left} deadwood; \d+ live cards would still make a meld", why
    )


# --- a game at the table, in process -----------------------------------------------------------------------


class Script:
    """The person's lines in order — ``auto`` for the greedy bot's move at the seat, in its text form (and for the
    sitter a suggestion on every other chance) — then ``auto`` to the end, or ``q``."""

    def __init__(self, lines: Iterable[str] = (), then: str = "auto") -> None:
        self.lines = list(lines)
        self.then = then
        self.prompts: list[str] = []
        self.table: TerminalTable | None = None

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        line = self.lines.pop(0) if self.lines else self.then
        if line != "auto":
            return line
        assert self.table is not None
        match = self.table.session.match
        if prompt.startswith("your advice"):
            return "1" if len(match.events) % 2 else ""
        hand = match.hand
        assert hand is not None
        return str(GreedyBot().choose(hand.observation(self.table.session.me), match.legal_actions()))


def sit(path: Path, setup: Setup, script: Script) -> tuple[TerminalTable, io.StringIO]:
    session = Session(setup)
    return seat_at(session, Save.create(path, session), script)


def seat_at(session: Session, save: Save, script: Script, *, new: bool = True) -> tuple[TerminalTable, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False, soft_wrap=True)
    table = TerminalTable(session, save, console, script, render, new=new)
    script.table = table
    return table, out


def run(table: TerminalTable) -> bool:
    """Play on; False when the person stopped."""
    try:
        table.play()
    except Quit:
        return False
    finally:
        table.save.close()
    return True


def glyph(card: Card) -> str:
    """A card as the screen shows it (``K♥``)."""
    return str(card)[0] + "♣♦♥♠"["cdhs".index(str(card)[1])]


def two(seed: int = 1, bots: tuple[str, ...] = ("greedy",), seat: int | None = None, **rules: object) -> Setup:
    rs = RuleSet.preset("standard", **rules)
    from engine.match import Match

    return Setup(rs, seed, Match.new(rs, seed=seed).captain if seat is None else seat, bots)


@pytest.mark.rule("TURN-1", "TURN-3", "TURN-4", "KNOCK-2", "OFFER-4")
def test_each_refusal_shows_the_engines_reason_and_rule(tmp_path: Path) -> None:
    setup = two(seed=1)  # the non-dealer: the upcard is offered to the person first; the greedy dealer passes it
    session = Session(setup)
    hand = session.match.hand
    assert hand is not None
    upcard, held = hand.upcard, hand.cards_of(setup.seat)
    script = Script(["draw", "pass", "pickup", "draw", f"discard {upcard}", f"knock {held[0]}", "q"])
    table, out = sit(tmp_path / "g.knock", setup, script)
    assert not run(table)
    said = out.getvalue()
    assert f"✗ not now — take the upcard {glyph(upcard)} or pass (rule TURN-1)" in said
    assert "✗ after both players pass the upcard the first draw is from the stock (rule OFFER-4)" in said
    assert f"✗ you do not hold {glyph(upcard)} (rule TURN-3)" in said  # it lies in the discard pile
    assert re.search(r"✗ cannot knock with \d+ deadwood \(limit 10\) \(rule KNOCK-2\)", said)
    again = two(seed=2)
    s2 = Session(again)
    assert s2.match.hand is not None
    up = s2.match.hand.upcard
    table, out = sit(tmp_path / "h.knock", again, Script(["take", f"discard {up}", str(up), "q"]))
    assert not run(table)
    assert out.getvalue().count(f"{glyph(up)} was just taken from the discard pile and may not be discarded "
                                "(rule TURN-4)") == 2  # fmt: skip


@pytest.mark.rule("END-1", "END-2", "LOG-24", "NOTE-11")
def test_a_person_resigns_once_asked_again_or_aborts_before_both_have_moved(tmp_path: Path) -> None:
    setup = two(seed=1)  # the person is offered the upcard first: nobody has moved
    table, out = sit(tmp_path / "r.knock", setup, Script(["resign", "n", "pass", "resign", "y"]))
    assert run(table)
    said = out.getvalue()
    assert "resign this game? you lose it (y/N): " in table.ask.prompts  # type: ignore[attr-defined]
    assert "you play on" in said and "you resign" in said and "game over: greedy wins the game, 0 to 0" in said
    data = (tmp_path / "r.knock").read_bytes()
    assert judge(data).kind == "pass" and LogReader(data).header.version == (3, 0)
    table, out = sit(tmp_path / "a.knock", two(seed=1), Script(["abort"]))
    assert run(table)
    assert "game over: no winner (the game was aborted)" in out.getvalue()
    assert judge((tmp_path / "a.knock").read_bytes()).kind == "pass"
    table, out = sit(tmp_path / "late.knock", two(seed=1), Script(["pass", "draw", "abort", "q"], then="q"))
    assert not run(table)
    assert "(rule END-2)" in out.getvalue()


@pytest.mark.rule("THREE-7", "THREE-8")
def test_the_sitter_is_asked_only_when_the_captain_has_a_choice_and_nonsense_advice_is_refused(tmp_path: Path) -> None:
    from engine.match import Match

    rules = RuleSet.preset("three_handed", target=30)
    seat = Match.new(rules, seed=4).sitter
    assert seat is not None
    setup = Setup(rules, 4, seat, ("greedy", "heuristic"))
    script = Script(["hello", "discard 2c", "knock 2c", "spread", "1"])
    table, out = sit(tmp_path / "s.knock", setup, script)
    assert run(table)
    said = out.getvalue()
    assert "is not a move" in said and "(rule TURN-1)" in said and said.count("✗") >= 2
    # Every advice prompt came at a real choice of the captain, and every real choice while sitting out got one.
    game = Session.rebuild(setup, [])
    chances = 0
    for action in table.session.actions:
        m = game.match
        if m.sitter == seat and m.to_act == m.captain and not isinstance(action, Advise):
            chances += len(m.legal_actions()) > 1
        game.follow(action, "")
    advice_prompts = [p for p in script.prompts if p.startswith("your advice")]
    assert chances > 0 and len(advice_prompts) == chances + 4  # the four refused lines asked again
    assert any(isinstance(a, Advise) for a in table.session.actions)
    blind = Setup(rules.replace(sitter_sees_captain_hand=False), 4, seat, ("greedy", "heuristic"))
    script = Script()
    table, out = sit(tmp_path / "blind.knock", blind, script)
    assert run(table) and not any(p.startswith("your advice") for p in script.prompts)  # nothing to advise on


@pytest.mark.rule("MATCH-1", "MATCH-6")
def test_the_score_sheet_comes_between_hands_with_the_players_names(tmp_path: Path) -> None:
    setup = Setup(RuleSet.preset("standard", target=60), 3, 0, ("greedy",), "Ann")
    table, out = sit(tmp_path / "g.knock", setup, Script())
    assert run(table)
    said = out.getvalue()
    assert said.count("score sheet") == table.session.match.number
    first = said.index("score sheet")
    assert first < said.index("hand 2:") and re.search(r"hand +┃ result +┃ Ann +┃ greedy", said)
    assert "p0" not in said and "p1" not in said
    assert LogReader((tmp_path / "g.knock").read_bytes()).header.players == ("Ann", "greedy")


# --- undo: a branched log --------------------------------------------------------------------------------


def records(data: bytes) -> list[bytes]:
    """The stored bytes of every record after the header."""
    return [raw for _, raw in unpacked(io.BytesIO(data))][1:]


@pytest.mark.rule("LOG-14", "LOG-6", "LOG-13")
def test_undo_keeps_one_save_and_the_logs_it_leaves_behind_in_its_branches(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game stays at its one path; each take-back moves the log as it was, bytes untouched, into
    ``NAME.branches/`` (1, 2, …), and the log started again names it as its parent (LOG-14)."""
    setup = two(seed=6, bots=("random",))
    script = Script(["undo", *["auto"] * 7, "undo", "undo", "auto", "undo", *["auto"] * 9, "undo"])
    table, out = sit(tmp_path / "g.knock", setup, script)
    moved: list[bytes] = []
    branch = Save.branch

    def kept(save: Save, session: Session) -> tuple[Session, Save, Path] | None:
        moved.append(save.path.read_bytes())
        return branch(save, session)

    monkeypatch.setattr(Save, "branch", kept)
    assert run(table)
    said = out.getvalue()
    took = said.count("took back your move")
    assert "there is nothing of yours to take back yet" in said and took >= 2 and took == len(moved)
    game, folder = tmp_path / "g.knock", tmp_path / "g.branches"
    assert table.save.path == game and judge(game.read_bytes()).kind == "pass"
    assert sorted(p.name for p in folder.iterdir()) == sorted(f"{n}.knock" for n in range(1, took + 1))
    assert sorted(tmp_path.iterdir()) == [folder, game]  # one save: the log and its branches, nothing else
    chain = [folder / f"{n}.knock" for n in range(1, took + 1)] + [game]
    for n, (old, new) in enumerate(itertools.pairwise(chain)):
        data, branched = old.read_bytes(), new.read_bytes()
        assert data == moved[n]  # moved as it was
        verdict = judge(data)
        assert verdict.kind == "unfinished"
        meta = LogReader(branched).header.meta
        branch_meta = meta["branch"]
        assert meta["seed"] == 6 and meta["tool"] == "knock play" and branch_meta["file"] == f"g.branches/{n + 1}.knock"
        assert branch_meta["parent"] == verdict.digest.hex() and branch_meta["records"] == verdict.record  # type: ignore[union-attr]
        k = branch_meta["at"]
        assert verdict.record is not None and records(branched)[:k] == records(data)[:k] and k < verdict.record


def played(setup: Setup, until: Callable[[Session], bool], limit: int = 400) -> Session | None:
    """The game with the greedy bot at the person's seat too, up to the first point where ``until`` holds."""
    session = Session(setup)
    for _ in range(limit):
        if session.match.is_over:
            return None
        if session.match.to_act == session.me:
            hand = session.match.hand
            assert hand is not None
            session.apply(GreedyBot().choose(hand.observation(session.me), session.match.legal_actions()))
        else:
            session.apply(session.bot_move())
        if session.mine and until(session):
            return session
    return None


@pytest.mark.rule("LOG-14", "MATCH-7")
def test_undo_never_takes_back_a_stock_card_seen_nor_a_scored_hand_unless_asked() -> None:
    from engine.events import Discarded, DrewStock, HandEnded

    def mine_is(kind: type) -> Callable[[Session], bool]:
        return lambda s: isinstance(s.actions[-1], kind) and s.actions[-1].seat == s.me

    drew = played(two(seed=3), mine_is(DrawStock))
    assert drew is not None and "a stock draw cannot be taken back" in (drew.undo_bar() or "")

    def bot_discards_its_draw(s: Session) -> bool:
        events = s.match.events[s.before[s.mine[-1]] :]
        drawn = {e.card for e in events if isinstance(e, DrewStock) and e.seat != s.me}
        return s.match.to_act == s.me and any(isinstance(e, Discarded) and e.card in drawn for e in events)

    seen = next(s for seed in range(1, 40) if (s := played(two(seed=seed), bot_discards_its_draw)) is not None)
    assert "you have seen a card drawn from the stock" in (seen.undo_bar(past_score=True) or "")

    def scored_since(s: Session) -> bool:
        later = s.match.events[s.before[s.mine[-1]] :]
        return any(isinstance(e, HandEnded) for e in later) and not any(isinstance(e, DrewStock) for e in later)

    ended = next(s for seed in range(1, 40) if (s := played(two(seed=seed), scored_since)) is not None)
    assert "type 'undo anyway'" in (ended.undo_bar() or "") and ended.undo_bar(past_score=True) is None
    assert Session(two()).undo_bar() == "there is nothing of yours to take back yet"

    three = RuleSet.preset("three_handed")  # the sitter sees the captain's cards: his stock draw too (THREE-8)
    from engine.match import Match

    sitter = Match.new(three, seed=4).sitter
    assert sitter is not None
    s = Session(Setup(three, 4, sitter, ("greedy", "greedy")))
    for _ in range(200):
        m = s.match
        if s.mine and any(isinstance(e, DrewStock) for e in m.events[s.before[s.mine[-1]] :]):
            break
        captain = m.captain
        if not s.mine and m.sitter == s.me and captain is not None and DrawStock(captain) in m.legal_actions():
            s.apply(Advise(s.me, DrawStock(captain)))
        else:
            s.apply(s.bot_move())
    assert "you have seen a card drawn from the stock" in (s.undo_bar() or "")


@pytest.mark.rule("LOG-14", "THREE-7")
def test_the_sitter_may_take_back_his_advice(tmp_path: Path) -> None:
    from engine.match import Match

    rules = RuleSet.preset("three_handed", target=30)
    seat = Match.new(rules, seed=4).sitter
    assert seat is not None
    script = Script(["1", "undo", "2"])
    table, out = sit(tmp_path / "s.knock", Setup(rules, 4, seat, ("greedy", "greedy")), script)
    assert run(table)
    said = out.getvalue()
    assert "took back your advice 'pass'" in said and "you advise greedy#" in said
    assert [p for p in script.prompts[:3]] == ["your advice (a number, a move, or Enter for none): "] * 3
    advice = [a for a in table.session.actions if isinstance(a, Advise)]
    assert isinstance(advice[0].suggestion, TakeUpcard)  # the second thought, not the first
    assert judge((tmp_path / "s.knock").read_bytes()).kind == "pass"
    assert judge((tmp_path / "s.branches" / "1.knock").read_bytes()).kind == "unfinished"


# --- resuming: the log is the save file ------------------------------------------------------------------------


def straight(tmp_path: Path, setup: Setup, name: str) -> tuple[bytes, int]:
    """The log of the game played straight through, and how many prompts it took."""
    script = Script()
    table, _ = sit(tmp_path / name, setup, script)
    assert run(table)
    return (tmp_path / name).read_bytes(), len(script.prompts)


def finish(path: Path) -> None:
    session, save = resume(path)
    table, _ = seat_at(session, save, Script(), new=False)
    assert run(table)


@pytest.mark.rule("LOG-5", "LOG-7", "LOG-13", "MATCH-7", "THREE-7")
@pytest.mark.parametrize("preset", ["standard", "three_handed"])
def test_a_resumed_game_is_byte_for_byte_the_game_played_straight_through(preset: str, tmp_path: Path) -> None:
    from engine.match import Match

    rules = RuleSet.preset(preset, target=100 if preset == "standard" else 40)
    seat = 0 if preset == "standard" else Match.new(rules, seed=9).sitter
    assert seat is not None
    setup = Setup(rules, 9, seat, ("random", "greedy")[: rules.players - 1])  # the random bot's generator is rebuilt
    whole, prompts = straight(tmp_path, setup, "whole.knock")
    assert judge(whole).kind == "pass" and prompts >= 6
    # Stopped at a prompt (q), twice, then finished.
    table, _ = sit(tmp_path / "stopped.knock", setup, Script(["auto"] * (prompts // 3), then="q"))
    assert not run(table)
    session, save = resume(tmp_path / "stopped.knock")
    table, _ = seat_at(session, save, Script(["auto"] * (prompts // 3), then="q"), new=False)
    assert not run(table)
    finish(tmp_path / "stopped.knock")
    assert (tmp_path / "stopped.knock").read_bytes() == whole
    # Cut short at any record boundary (a crash): after an advice, a hand record, a result, in the draw.
    raws = records(whole)
    kinds = [(v[0] if isinstance(v, list) else None) for v, _ in list(unpacked(io.BytesIO(whole)))[1:]]
    cuts = {1, *(i + 1 for i, k in enumerate(kinds) if k in (T_ADVICE, T_HAND, T_RESULT))}
    assert (T_ADVICE in kinds) is (preset == "three_handed")
    header = len(whole) - sum(map(len, raws))
    for n in sorted(cuts)[:8]:
        cut = tmp_path / f"cut-{n}.knock"
        cut.write_bytes(whole[: header + sum(map(len, raws[:n]))])
        assert judge(cut.read_bytes()).kind == "unfinished"
        finish(cut)
        assert cut.read_bytes() == whole, n


def test_resuming_refuses_what_is_not_an_unfinished_game_of_knock_play(tmp_path: Path) -> None:
    setup = two(seed=3)
    whole, _ = straight(tmp_path, setup, "done.knock")
    with pytest.raises(PlayError, match="is a finished game"):
        resume(tmp_path / "done.knock")
    torn = tmp_path / "torn.knock"
    torn.write_bytes(whole[:-1])
    assert judge(torn.read_bytes()).kind == "fail"
    with pytest.raises(PlayError, match=r"cannot resume .*: the log fails at record \d+"):
        resume(torn)
    table, _ = sit(tmp_path / "part.knock", setup, Script(["auto"] * 5, then="q"))
    run(table)
    part = (tmp_path / "part.knock").read_bytes()
    view = tmp_path / "view.knock"
    view.write_bytes(redact(part, 0))
    with pytest.raises(PlayError, match="per-seat view"):
        resume(view)
    other = tmp_path / "demo.knock"
    other.write_bytes(write_log(Session(setup).match, meta={"seed": 3, "tool": "knock demo"}))
    with pytest.raises(PlayError, match="not a game of knock play"):
        resume(other)
    # A log whose bot moves are not the named bot's (written with random, labelled greedy) is not continued.
    mislabelled = Session(Setup(setup.rules, 3, setup.seat, ("random",)))
    while len(mislabelled.actions) < 12:
        m = mislabelled.match
        mislabelled.apply(mislabelled.bot_move() if m.to_act != setup.seat else m.legal_actions()[0])
    (tmp_path / "edited.knock").write_bytes(write_log(mislabelled.match, players=setup.players, meta=setup.meta()))
    with pytest.raises(PlayError, match="the log was written with other bots"):
        resume(tmp_path / "edited.knock")
    with pytest.raises(PlayError, match="cannot read"):
        resume(tmp_path / "missing.knock")


def test_logs_get_names_of_their_own_and_are_never_written_over(tmp_path: Path) -> None:
    first = fresh_path(tmp_path)
    assert first.parent == tmp_path and re.fullmatch(r"play-\d{8}-\d{6}\.knock", first.name)
    Save.create(first, Session(two())).close()
    second = fresh_path(tmp_path, first.stem)
    assert second != first and second.name == first.stem + "-2.knock"
    with pytest.raises(PlayError, match="exists"):
        Save.create(first, Session(two()))
    with pytest.raises(PlayError, match="a bot's"):
        Setup(RuleSet(), 1, 0, ("greedy",), "greedy")


# --- the command -------------------------------------------------------------------------------------------------


def knock(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    exe = shutil.which("knock", path=str(Path(sys.executable).parent))
    assert exe
    return subprocess.run([exe, *args], input=stdin, capture_output=True, text=True, cwd=cwd,
                          env={"COLUMNS": "200", "PATH": ""}, timeout=120)  # fmt: skip


@pytest.mark.rule("VIS-1", "LOG-5")
def test_play_reads_moves_from_a_pipe_and_refuses_bad_setups_in_one_line(tmp_path: Path) -> None:
    done = knock("play", "--seed", "5", "--bots", "greedy", "--name", "Bo", "--set", "target=30", cwd=tmp_path,
                 stdin="1\n" * 3000)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    logs = list((tmp_path / "out").glob("play-*.knock"))
    assert not list((tmp_path / "out").glob("*.branches"))  # no undo, no branches
    assert len(logs) == 1 and judge(logs[0].read_bytes()).kind == "pass"
    assert LogReader(logs[0].read_bytes()).header.players[0] == "Bo" and "seed 5" in done.stdout
    again = knock("play", "--seed", "5", "-o", str(logs[0]), cwd=tmp_path, stdin="q\n")
    stopped = knock("play", "--seed", "5", "-o", "x.knock", cwd=tmp_path, stdin="q\n")
    assert stopped.returncode == 0 and "go on with: knock play --resume x.knock" in stopped.stdout
    for bad in (again, knock("play", "--resume", "x.knock", "--seat", "1", cwd=tmp_path),
                knock("play", "--resume", str(logs[0]), cwd=tmp_path),
                knock("play", "--preset", "three_handed", "--bots", "greedy,random,greedy", cwd=tmp_path)):  # fmt: skip
        assert bad.returncode != 0 and "Traceback" not in bad.stderr + bad.stdout, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1 and bad.stderr.startswith("error: "), bad.stderr
    assert "seed 5" not in stopped.stdout  # a stopped game keeps its seed to itself


@pytest.mark.rule("MATCH-2", "MATCH-3", "THREE-2")
def test_the_draw_for_the_roles_says_what_it_decides_and_a_redraw_that_it_breaks_a_tie(tmp_path: Path) -> None:
    rules = RuleSet.preset("three_handed", target=10)
    table, out = sit(tmp_path / "t.knock", Setup(rules, 1, 0, ("greedy", "greedy")), Script(["q"]))
    assert not run(table)
    said = out.getvalue()
    assert "— the highest card is in the box, the middle is captain, the lowest sits out" in said
    assert "the draw for the roles again: " in said and "— a tie breaker: the tied seats draw again" in said
    two_out = sit(tmp_path / "d.knock", two(seed=1), Script(["q"]))
    assert not run(two_out[0]) and "— the higher card deals" in two_out[1].getvalue()


@pytest.mark.rule("MATCH-3")
def test_a_tied_draw_for_the_deal_says_it_is_drawn_again(tmp_path: Path) -> None:
    from engine.events import CutDrawn
    from engine.match import Match

    def first_draw(seed: int) -> CutDrawn:
        return next(e for e in Match.new(RuleSet.preset("standard"), seed=seed).events if isinstance(e, CutDrawn))

    seed = next(s for s in range(500) if len({c.rank for c in first_draw(s).cards}) == 1)  # a tie
    table, out = sit(tmp_path / "tie.knock", two(seed=seed), Script(["q"]))
    assert not run(table)
    first, second = [line for line in out.getvalue().splitlines() if "the draw for the deal" in line][:2]
    assert first.endswith("— a tie: both draw again") and second.endswith("— the higher card deals")
