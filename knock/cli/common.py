"""What every ``knock`` subcommand shares: the Typer app, the console, the common options, and card rendering.

The common options have one spelling everywhere: ``--seed N``, ``--preset NAME``, ``--set KEY=VALUE``,
``--bots LIST``, ``-o/--out FILE`` (one output file, refused when it exists unless ``--force``), ``--logs DIR``
(a folder of logs), ``--json[=FILE]`` (JSON to stdout, or to FILE), ``-q/--quiet``, ``-h/--help``. Help is plain
text (no Rich panels) as wide as the terminal, every option with a metavar that says what it takes, and every
choice listed (at most 120 columns, as the terminal allows). What commands write (files, JSON, tables, a closed
pipe) is ``knock.cli.output``'s. Numbers of four digits and more are written with thousands
separators (``1,060``); identifiers (seeds, record numbers, ports) are not, so they can be typed back.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

from engine.cards import Card
from engine.errors import InvalidRules
from engine.events import CutDrawn, Dealt, GameOver, HandDead, HandEnded, HandScored, HandStarted
from engine.rules import PRESETS, RuleSet, options
from knock import __version__
from knock.bots import BOT_NAMES
from knock.bots.external import is_reference, make_external
from replay.audit import ViewEvent
from replay.narration import NOTATION, PLAIN, Voice, deal_text, display_names, narrate, symbols_for
from replay.signing import KeyFileError, SigningKey, SigningUnavailable, load_signing_key

try:
    import typer
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress, ProgressColumn
    from typer.core import TyperArgument, TyperCommand, TyperGroup
    from typer.models import CommandFunctionType
except ImportError:  # pragma: no cover - the cli extra is not installed
    sys.exit("the knock command needs the cli extra: pip install 'knock-gin[cli]'")

#: Options whose value is optional, with the value they take alone: ``--json`` is ``--json=-`` (stdout), and
#: ``--json=FILE`` names a file. A value is only ever given after ``=`` (``knock verify --json out/`` judges
#: ``out/``), so an optional value can never swallow an argument.
OPTIONAL_VALUES: dict[str, str] = {"--json": "-"}
STDOUT = "-"


def expand_optional(argv: Sequence[str]) -> list[str]:
    """The command line with every bare option of ``OPTIONAL_VALUES`` given its value alone (before ``--``)."""
    out: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--":
            return [*out, arg, *args]
        out.append(f"{arg}={OPTIONAL_VALUES[arg]}" if arg in OPTIONAL_VALUES else arg)
    return out


class KnockCommand(TyperCommand):
    """A subcommand whose help names each argument by its metavar (``PATH...``), without Typer's type labels."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                pieces.append(argument_label(param) if param.required else f"[{argument_label(param)}]")
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        args: list[tuple[str, str]] = []
        opts: list[tuple[str, str]] = []
        for param in self.get_params(ctx):
            if isinstance(param, TyperArgument):
                if not param.hidden:
                    args.append((argument_label(param), param.help or ""))
                continue
            record = param.get_help_record(ctx)
            if record is not None:
                name, text = plain_record(*record)
                for option in OPTIONAL_VALUES:  # ``--json[=FILE]``: the value only after ``=``
                    if name.startswith(f"{option} "):
                        name = f"{option}[={name.split(' ', 1)[1]}]"
                opts.append((name, text))
        if args:
            with formatter.section("Arguments"):
                formatter.write_dl(args)
        if opts:
            with formatter.section("Options"):
                formatter.write_dl(opts)


#: Typer's type labels, for an option given no metavar, as the metavar a person reads (a flag takes none).
TYPE_METAVARS = {"bool": "", "int": "N", "int range": "N", "float": "NUMBER", "float range": "NUMBER", "path": "FILE",
                 "str": "TEXT", "list[str]": "TEXT", "list[path]": "FILE"}  # fmt: skip
RANGE_TEXT = re.compile(r"(; )?(-?\d+<=)?x(<=-?\d+)?(?=[;\]])|(; )?x>=-?\d+(?=[;\]])")


def plain_record(name: str, text: str) -> tuple[str, str]:
    """An option's help line without Typer's type labels (``<int>``) and number ranges (``[0<=x<=9…]``)."""
    label = re.search(r" <([^<>]+)>$", name)
    if label:
        metavar = TYPE_METAVARS.get(label.group(1), "VALUE")
        name = name[: label.start()] + (f" {metavar}" if metavar else "")
    text = RANGE_TEXT.sub("", text).replace("  []", "").replace("[; ", "[")
    return name, text


class KnockGroup(TyperGroup):
    """A group whose command list gives each command's whole summary (its docstring's first line), wrapped to the
    terminal's width rather than cut at 45 characters."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit=10_000)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def argument_label(param: TyperArgument) -> str:
    name = param.metavar or (param.name or "arg").upper()
    return name + ("..." if param.nargs != 1 and not name.endswith("...") else "")


class KnockApp(typer.Typer):
    """A Typer app whose commands are ``KnockCommand``s and whose help is plain text with ``-h`` and ``--help``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("rich_markup_mode", None)
        kwargs.setdefault("add_completion", False)
        kwargs.setdefault("pretty_exceptions_enable", False)
        kwargs.setdefault("no_args_is_help", True)
        kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"], "max_content_width": 120})
        kwargs.setdefault("cls", KnockGroup)
        super().__init__(**kwargs)

    def command(  # every keyword of Typer's, with our command class as the default
        self, name: str | None = None, *, cls: type[TyperCommand] | None = None, **kwargs: Any
    ) -> Callable[[CommandFunctionType], CommandFunctionType]:
        return super().command(name, cls=cls or KnockCommand, **kwargs)


app = KnockApp(
    help="Knock: a formally specified Gin Rummy engine with auditable logs.\n\nknock COMMAND -h shows a command's "
    "options and an example; knock rules lists the rule-set options (--set KEY=VALUE).\n\nExit status: 0 success "
    "(knock alone prints this help); 1 a failure the command names (a log that fails, a case that fails); 2 a usage "
    "error; 3 knock verify and knock view: no log fails and some are unfinished; 130 stopped by Ctrl-C. A closed "
    "pipe (knock verify out/ | head -1) ends quietly with the status of what was judged.",
)
console = Console(highlight=False, soft_wrap=True)


def progress_bar(*columns: str | ProgressColumn, hidden: bool = False) -> Progress:
    """A progress bar on the console, gone when done; none when ``hidden`` or when the output is not a terminal
    (a pipe or a file gets only the results, not a stray line)."""
    return Progress(*columns, console=console, transient=True, disable=hidden or not console.is_terminal)


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


# --- values of the common options: parsed here, so that help shows a metavar and never a type or a range ------


def whole(low: int = 0, high: int = 2**63 - 1, what: str = "a whole number") -> Callable[[object], int]:
    """A parser for a whole number in ``low..high`` (help shows the option's metavar, not the range)."""

    def parse(value: object) -> int:
        text = str(value).strip()
        if not re.fullmatch(r"[+-]?\d{1,30}", text) or not low <= int(text) <= high:
            bounds = f"of at least {low}" if high >= 2**62 else f"from {low} to {high}"
            raise typer.BadParameter(f"{text[:40]!r} is not {what} {bounds}")
        return int(text)

    return parse


def choice(names: Sequence[str], what: str) -> Callable[[object], str]:
    """A parser for one of ``names`` (listed in the error; the option's metavar lists them in help)."""

    def parse(value: object) -> str:
        text = str(value)
        if text not in names:
            raise typer.BadParameter(f"no {what} {text[:40]!r}; {what}s: {', '.join(names)}")
        return text

    return parse


def one_of(names: Sequence[str]) -> str:
    """A metavar listing the choices: ``[standard|oklahoma|three_handed]``."""
    return "[" + "|".join(names) + "]"


DEFAULT_PRESET = "standard"  #: the same default rule set for every subcommand
SEED = typer.Option("--seed", parser=whole(), metavar="N", help="Seed: the draw and every shuffle come from it.")
PRESET = typer.Option(
    "--preset", parser=choice(tuple(PRESETS), "preset"), metavar="NAME", help=f"The rule set: {' | '.join(PRESETS)}."
)
SETTINGS = typer.Option(
    "--set", metavar="KEY=VALUE", help="A rule-set option (repeatable): knock rules lists them, e.g. target=50."
)
QUIET = typer.Option("-q", "--quiet", help="Print less: no progress, only failures and the totals.")
FORCE = typer.Option(
    "--force", help="Write over the output file if it exists (without it, an existing one is refused)."
)
JSON_DOC = typer.Option(
    "--json", metavar="FILE", help="JSON instead of text: one document (an object), to stdout or FILE."
)
JOBS = typer.Option("--jobs", parser=whole(), metavar="N", help="Processes (0: one per core).")
SIGN_KEY = typer.Option(
    "--key", metavar="FILE", help="Sign the logs with this secret key file (knock keygen): format 2.0, LOG-17."
)


def signing_key(path: Path | None) -> SigningKey | None:
    """The secret key of a ``--key FILE`` option; a file that is not one (or one others may read), or no library to
    sign with, is a usage error naming LOG-17."""
    if path is None:
        return None
    try:
        return load_signing_key(path)
    except (KeyFileError, SigningUnavailable) as err:
        raise typer.BadParameter(str(err), param_hint="--key") from None


CLUSTER = typer.Option(
    "--cluster",
    metavar="ADDRESS",
    parser=lambda value: cluster_address(value),
    help="Run on Dask: a scheduler (tcp://host:8786), or 'local' (--jobs processes).",
)
CLUSTER_ADDRESS = re.compile(r"((tcp|tls|inproc|ucx|ws|wss)://)?[\w.\-\[\]:]+:\d{1,5}")  #: Dask's: tcp:// by default


def cluster_address(value: object) -> str:
    """``--cluster``: ``local``, or a Dask scheduler's address with its port (``tcp://host:8786``)."""
    text = str(value).strip()
    if text == "local" or CLUSTER_ADDRESS.fullmatch(text):
        return text
    raise typer.BadParameter(
        f"{text[:60]!r} is not a cluster: give 'local' or a scheduler's address with its port, e.g. tcp://host:8786"
    )


BOTS_HELP = (
    f"Bots, comma separated, in seat order ({', '.join(BOT_NAMES)}; easy, medium, hard and expert are the "
    "search bot's levels, hard the heuristic bot's play: docs/bots.md)"
)


def rules_title(rules: RuleSet) -> str:
    """The rules a run plays, for a heading: the preset's name and every option set apart from the preset, in
    ``--set``'s form (``standard Gin (undercut_bonus=25, next_dealer=alternate)``). The target is left to the
    heading's "to N". Rule: RULES-1."""
    base = PRESETS[rules.name].to_dict()
    changed = [f"{k}={v}" for k, v in rules.to_dict().items() if k not in ("name", "target") and base.get(k) != v]
    return f"{rules.name} Gin" + (f" ({', '.join(changed)})" if changed else "")


def rule_set(preset: str, settings: Sequence[str] | None) -> RuleSet:
    """The rule set a command plays: the preset with the ``--set`` overrides.

    Raises:
        typer.BadParameter: an option that is not one (a typing mistake, without a rule id), or a value the rules
            refuse (with its rule id, RULES-2, and what the option takes).
    """
    given = list(settings or [])
    overrides = parse_settings(given)
    known = {o.name: o for o in options() if o.name != "name"}
    texts = {item.partition("=")[0].strip(): item.partition("=")[2].strip() for item in given}
    for key, value in overrides.items():
        if key not in known:
            close = [k for k in sorted(known) if key.lower().replace("-", "_") in k][:3]
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise typer.BadParameter(f"no rule-set option {key!r}{hint}; knock rules lists them", param_hint="--set")
        try:
            RuleSet.preset(preset, **{key: value})
        except InvalidRules as err:
            rule = getattr(err, "rule", "RULES-2")
            raise typer.BadParameter(f"{rule}: {key} must be {allowed(known[key].values)}; got {texts[key][:40]!r}",
                                     param_hint="--set") from None  # fmt: skip
    try:
        return RuleSet.preset(preset, **overrides)
    except InvalidRules as err:  # options that are each allowed but not together
        raise typer.BadParameter(str(err), param_hint="--set") from None


def allowed(values: str) -> str:
    """An option's values (``none | 1..1000``) as words: ``none or a whole number from 1 to 1,000``.

    >>> allowed("0..1000000")
    'a whole number from 0 to 1,000,000'
    >>> allowed("fixed | upcard")
    'fixed or upcard'
    """

    def word(v: str) -> str:
        m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", v)
        return f"a whole number from {int(m.group(1)):,} to {int(m.group(2)):,}" if m else v

    names = [word(v.strip()) for v in values.split("|")]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def seat_bots(text: str, players: int) -> list[str]:
    """The bot of each seat from ``--bots``: names in seat order, repeated in order when fewer than the seats;
    more than the seats are refused."""
    names = bot_names(text, None)
    if len(names) > players:
        raise typer.BadParameter(f"{len(names)} bots for {players} seats; give at most {players}", param_hint="--bots")
    return [names[i % len(names)] for i in range(players)]


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 hand``, ``2 hands``."""
    return f"{count:,} {word if count == 1 else many or word + 's'}"


SUIT_COLOUR = {"c": "green", "d": "red", "h": "red", "s": "blue"}


def card_markup(card: Card) -> str:
    """A card in colour, with its suit symbol when the console can print it (else in notation)."""
    voice = _VOICE[symbols_for(console.file)]
    return f"[bold {SUIT_COLOUR[str(card)[1]]}]{voice.card(card)}[/]"


_VOICE = {True: PLAIN, False: NOTATION}
CARD_TOKEN = re.compile(r"\b[A2-9TJQK][cdhs]\b")


def render(text: str) -> str:
    """Text in card notation as rich markup, every card in colour (with its suit symbol, where it prints)."""
    return CARD_TOKEN.sub(lambda m: card_markup(Card.parse(m.group(0))), escape(text))


def print_events(events: Sequence[ViewEvent], names: list[str], history: bool = True) -> None:
    """Events (all of them, or as a seat saw them) as a readable history, in ``replay.narration``'s words; without
    ``history``, only the hands' starts, deals (without their cards) and results."""
    voice = Voice(display_names(names), symbols=False, seats=len(names))
    for e in events:
        if isinstance(e, HandStarted):
            console.rule(render(narrate(e, voice)))
        elif isinstance(e, Dealt):
            console.print(render(deal_text(e, voice, hands=history)))
        elif isinstance(e, HandScored | HandDead | GameOver | CutDrawn):
            console.print(render(narrate(e, voice)), style="bold")
        elif isinstance(e, HandEnded) or history:
            console.print(("" if isinstance(e, HandEnded) else "  ") + render(narrate(e, voice)))


def bot_names(text: str, count: int | None) -> list[str]:
    """Bot names from ``a,b,c`` (in any case: ``Expert`` is ``expert``), or bots of one's own by reference
    (``package.module:Class``, ``file.py:Class``, an entry point: ``knock.bots.external``, as written): all
    known; exactly ``count`` of them when a count is given."""
    names = [b.strip() if is_reference(b.strip()) else b.strip().lower() for b in text.split(",")]
    for name in names:
        if name in BOT_NAMES:
            continue
        if not is_reference(name):
            raise typer.BadParameter(f"no bot {name!r}; bots: {', '.join(BOT_NAMES)}, or MODULE:NAME / FILE.py:NAME "
                                     "(a bot of your own)", param_hint="--bots")  # fmt: skip
        try:
            make_external(name)  # refused now, in words, rather than in a worker
        except ValueError as err:
            raise typer.BadParameter(str(err), param_hint="--bots") from None
    if count is not None and len(names) != count:
        example = ",".join((["heuristic", "greedy", "random"] * 2)[:count])
        raise typer.BadParameter(f"give {count} bots, one per seat, e.g. {example}", param_hint="--bots")
    return names


def parse_settings(settings: list[str]) -> dict[str, object]:
    """``key=value`` rule-set overrides: integers, true/false, none, or text (enum values)."""
    out: dict[str, object] = {}
    for item in settings:
        key, sep, text = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{item!r} is not KEY=VALUE (e.g. target=50)", param_hint="--set")
        low = text.strip().lower()
        out[key.strip()] = (
            True if low == "true" else False if low == "false" else None if low == "none"
            else int(low) if re.fullmatch(r"-?\d{1,30}", low) else text.strip()
        )  # fmt: skip
    return out
