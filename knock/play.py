"""A person plays in the terminal against bots: the engine behind ``knock play``.

The person sees only what the seat sees (VIS-1, THREE-8); the game is logged as it goes (LOG-5).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

from engine.actions import Action, Advise, LayOff, Spread, parse_action
from engine.bots import Bot
from engine.cards import to_mask
from engine.errors import IllegalAction, NotationError
from engine.events import HandEnded, HandStarted, MatchEvent
from engine.match import Match
from engine.melds import best_arrangement
from engine.visibility import Observation

Ask = Callable[[str], str]
Show = Callable[[list[MatchEvent]], None]


class Quit(Exception):
    """The person ended the game (``quit``, or the input ended)."""


def describe_hand(obs: Observation, markup: Callable[[str], str]) -> str:
    """The seat's cards grouped by melds (its best arrangement), with the deadwood."""
    if not obs.hand:
        return "(no cards)"
    arr = best_arrangement(to_mask(obs.hand))
    melds = "  ".join("[" + " ".join(map(str, m.cards)) + "]" for m in arr.melds)
    dead = " ".join(map(str, arr.deadwood_cards)) or "-"
    return markup(f"{melds}  deadwood: {dead} = {arr.deadwood}".strip())


def choose(
    console: Console,
    ask: Ask,
    obs: Observation,
    legal: list[Action],
    markup: Callable[[str], str],
    auto: Callable[[], Action],
) -> Action:
    """Offer the legal actions by number (0 = the automatic best choice where there is one) or in card
    notation (``discard Kh``); repeat on anything illegal, with the reason."""
    many = isinstance(legal[0], Spread | LayOff)
    shown = legal[:30] if many else legal
    console.print(f"your cards: {describe_hand(obs, markup)}")
    if obs.spread is not None and isinstance(legal[0], LayOff):
        console.print(markup(f"the knocker's spread: {' '.join(map(str, obs.spread.melds))}"))
    for i, a in enumerate(shown, start=1):
        console.print(markup(f"  {i:>2}. {a}"))
    if many:
        console.print(
            "   0. the best choice, worked out for you" + (f" ({len(legal)} in all)" if len(legal) > 30 else "")
        )
    while True:
        text = ask("your move: ").strip()
        if text.lower() in ("q", "quit", "exit"):
            raise Quit
        if many and text in ("0", ""):
            return auto()
        if text.isdigit() and 1 <= int(text) <= len(shown):
            return shown[int(text) - 1]
        try:
            action = parse_action(text, obs.seat)
        except NotationError as err:
            console.print(f"[red]{err}[/] — give a number from the list or an action like 'discard Kh'")
            continue
        if action in legal:
            return action
        console.print(f"[red]not legal now:[/] {text!r} — choose from the list")


def play_game(
    match: Match,
    seat: int,
    bots: dict[int, Bot],
    console: Console,
    ask: Ask,
    show: Show,
    markup: Callable[[str], str],
    on_step: Callable[[], None] = lambda: None,
) -> None:
    """Play to the end: the person at ``seat``, bots elsewhere. As sitter, the person may advise the captain."""
    shown = 0

    def catch_up() -> None:
        nonlocal shown
        new = match.events[shown:]
        shown = len(match.events)
        if new:
            show(new)
            if any(isinstance(e, HandEnded) for e in new):
                table = Table(title="scores", title_justify="left")
                for i in range(match.rules.players):
                    table.add_column(f"p{i}" + (" (you)" if i == seat else ""), justify="right")
                table.add_row(*(str(x) for x in match.scores))
                console.print(table)
            if any(isinstance(e, HandStarted) for e in new) and not match.is_over:
                console.print(f"[bold]you are p{seat}: {_role(match, seat)}[/]")

    while not match.is_over:
        catch_up()
        to_act = match.to_act
        if to_act is None:
            break
        hand = match.hand
        assert hand is not None
        if to_act == seat:
            legal = match.legal_actions()
            obs = hand.observation(seat)
            auto_fn = hand.auto_spread if isinstance(legal[0], Spread) else hand.auto_defence
            action: Action | Advise = choose(console, ask, obs, legal, markup, auto_fn)
        else:
            if match.sitter == seat and to_act == match.captain:
                _advise(match, seat, console, ask, markup)
            action = bots[to_act].choose(hand.observation(to_act), match.legal_actions())
        try:
            match.apply(action)
        except IllegalAction as err:  # pragma: no cover - choices come from legal_actions()
            console.print(f"[red]{err}[/]")
        on_step()
    catch_up()


def _advise(match: Match, seat: int, console: Console, ask: Ask, markup: Callable[[str], str]) -> None:
    obs = match.observation(seat).hand
    if obs is None or not obs.hand:
        return  # THREE-8: a sitter who is not shown the captain's cards has nothing to advise on
    options = match.advice_options()
    console.print(f"the captain p{match.captain} is to act; his cards: {describe_hand(obs, markup)}")
    for i, a in enumerate(options[:30], start=1):
        console.print(markup(f"  {i:>2}. suggest {a.suggestion}"))
    text = ask("your advice (a number, or Enter for none): ").strip()
    if text.lower() in ("q", "quit", "exit"):
        raise Quit
    if text.isdigit() and 1 <= int(text) <= min(len(options), 30):
        match.apply(options[int(text) - 1])


def _role(match: Match, seat: int) -> str:
    return next(name for name, s in match.roles().items() if s == seat).replace("_", "-")


def log_path(path: Path | None, seed: int) -> Path:
    return path or Path("out") / f"play-{seed}.knock"
