"""What every ``knock`` subcommand shares: the Typer app, the console, common options, and card rendering."""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Annotated

from engine.bots import BOT_NAMES
from engine.cards import Card
from engine.events import CutDrawn, Dealt, GameOver, HandDead, HandEnded, HandScored, HandStarted
from engine.visibility import Seen
from knock import __version__

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
console = Console(highlight=False, soft_wrap=True)


def show_version(value: bool) -> None:
    if value:
        console.print(f"knock {__version__}")
        raise typer.Exit()


@app.callback()
def knock(
    version: Annotated[
        bool, typer.Option("--version", callback=show_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Knock: a formally specified Gin Rummy engine with auditable logs."""


SEED = typer.Option(min=0, max=2**63 - 1, help="Seed of the game: the draw and every shuffle come from it.")

SUIT_STYLE = {"c": ("♣", "green"), "d": ("♦", "red"), "h": ("♥", "red"), "s": ("♠", "blue")}


def card_markup(card: Card) -> str:
    symbol, colour = SUIT_STYLE[str(card)[1]]
    return f"[bold {colour}]{str(card)[0]}{symbol}[/]"


CARD_TOKEN = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def render(text: str) -> str:
    """Event text as rich markup, every card in colour with its suit symbol."""
    return CARD_TOKEN.sub(lambda m: card_markup(Card.parse(m.group(0))), escape(text))


def print_events(events: Sequence[Seen], names: list[str], history: bool = True) -> None:
    """Events (all of them, or as a seat saw them) as a readable history."""
    safe = [escape(n) for n in names]

    def text(event: object) -> str:
        """The event as markup: cards in colour, seats by their (escaped) names."""
        return re.sub(r"\bp([0-2])\b", lambda m: safe[int(m.group(1))], render(str(event)))

    for e in events:
        if isinstance(e, HandStarted):
            console.rule(text(e))
        elif isinstance(e, Dealt):
            console.print(text(f"p{e.dealer} deals; upcard {e.upcard}, knock limit {e.knock_limit}"))
            if history:
                for seat, held in zip(e.seats, e.hands, strict=True):
                    shown = " ".join(card_markup(c) for c in sorted(held)) or "[dim](not shown)[/]"
                    console.print(f"  {safe[seat]}: {shown}")
        elif isinstance(e, HandScored | HandDead | GameOver | CutDrawn):
            console.print(text(e), style="bold")
        elif isinstance(e, HandEnded):
            console.print(text(e))
        elif history:
            console.print("  " + text(e))


def bot_names(text: str, count: int | None) -> list[str]:
    """Bot names from ``a,b,c``: all known; exactly ``count`` of them when a count is given."""
    names = [b.strip() for b in text.split(",")]
    for name in names:
        if name not in BOT_NAMES:
            raise typer.BadParameter(f"unknown bot {name!r}; bots: {', '.join(BOT_NAMES)}", param_hint="--bots")
    if count is not None and len(names) != count:
        example = ",".join((["heuristic", "greedy", "random"] * 2)[:count])
        raise typer.BadParameter(f"give {count} bots, one per seat, e.g. {example}", param_hint="--bots")
    return names


def parse_settings(settings: list[str]) -> dict[str, object]:
    """``key=value`` rule-set overrides: integers, true/false, none, or text (enum values)."""
    out: dict[str, object] = {}
    for item in settings:
        key, sep, text = item.partition("=")
        if not sep:
            raise typer.BadParameter(f"{item!r} is not key=value", param_hint="--set")
        low = text.lower()
        out[key] = (
            True if low == "true" else False if low == "false" else None if low == "none"
            else int(text) if text.lstrip("-").isdigit() else text
        )  # fmt: skip
    return out


CLUSTER = typer.Option(help="Run on Dask: a scheduler (tcp://host:8786), or 'local' (a cluster of --jobs processes).")
