"""The ``knock`` command.

Built now: ``knock demo`` (seeded hands between two bots, printed as a readable history) and
``knock spec`` (the generated state diagram). The other subcommands (play, simulate, show, verify,
redact) come with the log and the match layer; see the README's list of what is not built yet.
"""

from __future__ import annotations

import re
import sys
from typing import Annotated

from engine.bots import BOT_NAMES, make_bot, play_hand
from engine.cards import Card
from engine.errors import KnockError
from engine.events import Dealt, Event, HandDead, HandScored
from engine.fsm import mermaid, table_markdown
from engine.hand import Hand
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


def print_events(events: list[Event], names: list[str]) -> None:
    def named(text: str) -> str:
        return re.sub(r"\bp([01])\b", lambda m: names[int(m.group(1))], text)

    for e in events:
        if isinstance(e, Dealt):
            console.print(named(f"p{e.dealer} deals; upcard {render(str(e.upcard))}, knock limit {e.knock_limit}"))
            for seat, held in zip(e.seats, e.hands, strict=True):
                console.print(f"  {names[seat]}: " + " ".join(card_markup(c) for c in sorted(held)))
        elif isinstance(e, HandScored | HandDead):
            console.print(render(named(str(e))), style="bold")
        else:
            console.print("  " + render(named(str(e))))


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="Seed of the first hand's shuffle; hand i uses seed + i.")] = 1,
    hands: Annotated[int, typer.Option(min=1, max=1000, help="How many hands to play.")] = 3,
    preset: Annotated[str, typer.Option(help=f"Rule set: {', '.join(PRESETS)}.")] = "standard",
    bots: Annotated[str, typer.Option(help=f"Two bots, comma separated ({', '.join(BOT_NAMES)}).")] = "greedy,random",
    quiet: Annotated[bool, typer.Option("--quiet", help="Print only each hand's result.")] = False,
) -> None:
    """Play seeded hands between two bots and print each hand's history.

    Example: knock demo --seed 7 --hands 2 --preset oklahoma --bots greedy,greedy
    """
    rules = RuleSet.preset(preset)
    names = [b.strip() for b in bots.split(",")]
    if len(names) != 2:
        raise typer.BadParameter("give two bots, e.g. greedy,random", param_hint="--bots")
    players = [make_bot(n, seed + i) for i, n in enumerate(names)]
    labels = [f"{n}#{i}" for i, n in enumerate(names)]
    totals = [0, 0]
    dealer = 0
    console.print(f"[bold]Knock demo[/]: {hands} hand(s) of {rules.name} Gin, {labels[0]} v {labels[1]}, seed {seed}")
    for i in range(hands):
        hand = play_hand(Hand.deal(rules, seed=seed + i, dealer=dealer), players)
        result = hand.result
        assert result is not None
        if result.winner is not None:
            totals[result.winner] += result.points
        console.rule(f"hand {i + 1} (seed {seed + i})")
        print_events(hand.events if not quiet else hand.events[-1:], labels)
        # The hand's winner deals the next (the brief's default); otherwise the same dealer deals again.
        dealer = result.winner if result.winner is not None else dealer
    console.rule()
    console.print(f"[bold]Totals[/]: {labels[0]} {totals[0]}, {labels[1]} {totals[1]}")


@app.command()
def spec(
    what: Annotated[str, typer.Argument(help="diagram (Mermaid) or table (Markdown).")] = "diagram",
) -> None:
    """Print the hand state machine, generated from the engine's transition table.

    Example: knock spec diagram > hand.mmd
    """
    if what == "diagram":
        sys.stdout.write(mermaid())
    elif what == "table":
        sys.stdout.write(table_markdown())
    else:
        raise typer.BadParameter("diagram or table", param_hint="WHAT")


def main() -> None:
    """Entry point of the ``knock`` console script: errors are one line and a non-zero exit, never a traceback."""
    try:
        app()
    except KnockError as err:
        console.print(f"[red]error[/]: {err}")
        sys.exit(2)
