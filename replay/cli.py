"""The ``knock`` command.

Built now: ``knock demo`` (a complete seeded game between bots, printed as a readable history) and
``knock spec`` (the generated state diagrams). The other subcommands (play, simulate, show, verify,
redact) come with the log; see the README's list of what is not built yet.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Annotated

from engine.bots import BOT_NAMES, make_bot, play_match
from engine.cards import Card
from engine.errors import KnockError
from engine.events import CutDrawn, Dealt, GameOver, HandDead, HandEnded, HandScored, HandStarted, MatchEvent
from engine.fsm import SPECS, mermaid, table_markdown
from engine.match import Match
from engine.rules import PRESETS, RuleSet

try:
    import typer
    from rich.console import Console
    from rich.markup import escape
except ImportError:  # pragma: no cover - the cli extra is not installed
    sys.exit("the knock command needs the cli extra: pip install 'knock-gin[cli]'")

app = typer.Typer(
    help="Knock: a formally specified Gin Rummy engine with auditable logs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console(highlight=False)

SUIT_STYLE = {"c": ("♣", "green"), "d": ("♦", "red"), "h": ("♥", "red"), "s": ("♠", "blue")}


def card_markup(card: Card) -> str:
    symbol, colour = SUIT_STYLE[str(card)[1]]
    return f"[bold {colour}]{str(card)[0]}{symbol}[/]"


CARD_TOKEN = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def render(text: str) -> str:
    """Event text as rich markup, every card in colour with its suit symbol."""
    return CARD_TOKEN.sub(lambda m: card_markup(Card.parse(m.group(0))), escape(text))


def print_events(events: Sequence[MatchEvent], names: list[str], history: bool = True) -> None:
    def named(text: str) -> str:
        return re.sub(r"\bp([0-2])\b", lambda m: names[int(m.group(1))], text)

    for e in events:
        if isinstance(e, HandStarted):
            console.rule(named(str(e)))
        elif isinstance(e, Dealt):
            console.print(named(f"p{e.dealer} deals; upcard {render(str(e.upcard))}, knock limit {e.knock_limit}"))
            if history:
                for seat, held in zip(e.seats, e.hands, strict=True):
                    console.print(f"  {names[seat]}: " + " ".join(card_markup(c) for c in sorted(held)))
        elif isinstance(e, HandScored | HandDead | GameOver | CutDrawn):
            console.print(render(named(str(e))), style="bold")
        elif isinstance(e, HandEnded):
            console.print(named(str(e)))
        elif history:
            console.print("  " + render(named(str(e))))


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Seed of the game: the draw and every shuffle come from it.")] = 1,
    preset: Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")] = "three_handed",
    bots: Annotated[
        str, typer.Option(help=f"One bot per seat, comma separated ({', '.join(BOT_NAMES)}).")
    ] = "greedy,greedy,random",
    history: Annotated[bool, typer.Option("--history/--summary", help="Print every action, or results only.")] = True,
) -> None:
    """Play a complete seeded game to the target between bots and print it as a readable history.

    Example: knock demo --preset oklahoma --bots greedy,random --seed 7 --summary
    """
    rules = RuleSet.preset(preset)
    names = [b.strip() for b in bots.split(",")]
    if len(names) < rules.players:
        raise typer.BadParameter(f"{rules.name} needs {rules.players} bots, e.g. greedy,random", param_hint="--bots")
    names = names[: rules.players]
    labels = [f"{n}#{i}" for i, n in enumerate(names)]
    match = play_match(Match.new(rules, seed=seed), [make_bot(n, seed + i) for i, n in enumerate(names)])
    console.print(
        f"[bold]Knock demo[/]: a game of {rules.name} Gin to {rules.target}, "
        + ", ".join(f"p{i} = {label}" for i, label in enumerate(labels))
        + f", seed {seed}"
    )
    print_events(match.events, labels, history)
    console.rule()
    st = match.standings()
    assert st.winner is not None
    console.print(
        f"[bold]{labels[st.winner]} wins[/] after {match.number} hands; totals "
        + ", ".join(f"{labels[i]} {t}" for i, t in enumerate(st.totals))
    )


@app.command()
def spec(
    what: Annotated[str, typer.Argument(help="diagram (Mermaid) or table (Markdown).")] = "diagram",
    machine: Annotated[str, typer.Option(help="hand or match.")] = "hand",
) -> None:
    """Print a state machine, generated from the engine's transition table.

    Example: knock spec diagram --machine match > match.mmd
    """
    specs = {s.name: s for s in SPECS}
    if machine not in specs:
        raise typer.BadParameter("hand or match", param_hint="--machine")
    if what == "diagram":
        sys.stdout.write(mermaid(specs[machine]))
    elif what == "table":
        sys.stdout.write(table_markdown(specs[machine]))
    else:
        raise typer.BadParameter("diagram or table", param_hint="WHAT")


def main() -> None:
    """Entry point of the ``knock`` console script: errors are one line and a non-zero exit, never a traceback."""
    try:
        app()
    except KnockError as err:
        console.print(f"[red]error[/]: {err}")
        sys.exit(2)
