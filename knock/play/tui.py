"""``knock play`` on a terminal: the board (``knock.play.board``) redrawn in place with Textual. Rules: VIS-1, THREE-8.

The game is the line mode's own table (``TerminalTable``: the same reading, refusals, hint, undo and saves), run
in a worker thread; only where it would print the options and the status, the board shows them instead, and
what it says goes to the board's log. A line typed in the input box is the line the table reads. Textual is the
``board`` extra; ``engine`` and ``replay`` never import it.
"""

from __future__ import annotations

import contextlib
import io
import queue
import threading
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import Console
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Input, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from engine.actions import Action
from engine.fsm import Phase
from engine.visibility import Observation
from knock.play.board import Board, build
from knock.play.screen import options
from knock.play.session import BOT_CHOICES
from knock.play.table import Quit, TerminalTable

Markup = Callable[[str], str]
#: How the board ends: the game played out, stopped (``q``), or interrupted (Ctrl-C).
OVER, STOPPED, INTERRUPTED = "over", "stopped", "interrupted"


class BoardTable(TerminalTable):
    """The line mode's table, its options and status shown on the board rather than printed."""

    offered: Sequence[tuple[Action, str]] = ()
    turn_text = ""
    cards_shown: Observation | None = None

    def offer(self, obs: Observation, legal: Sequence[Action], cards: str, your: str) -> list[tuple[Action, str]]:
        offered = options(obs, legal, your)
        self.offered, self.cards_shown = offered, obs
        turn = "your move" if your == "your" else f"{cards.split(';')[0]}: your advice, or Enter for none"
        if obs.spread is not None and obs.phase is Phase.LAYOFF:
            turn += f" │ {self.names.whose(obs.spread.seat)} spread: {self.names.melds(obs.spread.melds)}"
        if len(legal) > len(offered):
            turn += f" │ {len(legal) - len(offered)} more, typed (e.g. 'layoff 9c-9d-9h 7c>4c-5c-6c')"
        self.turn_text = turn
        return offered

    def choices(self, offered: Sequence[tuple[Action, str]], obs: Observation) -> None:
        """Nothing to reprint: the choices stay on the board."""

    def board(self) -> Board:
        shown = self.cards_shown.hand if self.cards_shown is not None else None
        return build(self.session, self.names, self.offered, self.turn_text, shown)


class BoardApp(App[str]):
    """One person at one game, on a board redrawn in place; ``run()`` returns how it ended (``OVER`` …)."""

    CSS = """
    Screen { layout: vertical; }
    #head { background: $boost; text-style: bold; }
    #turn { color: $warning; text-style: bold; }
    #facts { height: auto; }
    #choices { height: auto; border-top: solid $primary; }
    #log { height: 1fr; min-height: 3; border-top: solid $primary; }
    #input { border: none; height: 1; padding: 0 1; }
    #pick { height: auto; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("ctrl+c", "interrupt", "stop", priority=True)
    ]

    def __init__(self, markup: Markup, *, table: Callable[[Console, Callable[[str], str]], BoardTable] | None = None,
                 choose: Callable[[str], Callable[[Console, Callable[[str], str]], BoardTable]] | None = None,
                 resumed: bool = False) -> None:  # fmt: skip
        """``table`` makes the table (given the console it speaks to and how it asks); ``choose``, when the bot is
        still to be chosen, makes that maker from the bot's name; ``resumed``: tell the game so far first."""
        super().__init__()
        self.markup = markup
        self.maker, self.choose, self.was_resumed = table, choose, resumed
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.out = io.StringIO()
        self.console_ = Console(file=self.out, width=200, color_system=None, highlight=False, soft_wrap=True)
        self.table: BoardTable | None = None
        self.prompt = ""
        self.waiting = False  #: the table is waiting for a line (the board shows the state it asks from)
        self.over = False
        self.how: str | None = None  #: how the board ended, once it has
        self.error: BaseException | None = None
        self.said: list[str] = []  #: every line of the board's log, as plain text
        self.done = threading.Event()  #: set once the table's thread has ended (and written its last record)

    def compose(self) -> ComposeResult:
        yield Static(id="head")
        yield Static(id="turn")
        yield Static(id="facts")
        yield Static(id="choices")
        yield RichLog(id="log", wrap=True, markup=False)
        if self.choose is not None:
            yield OptionList(*(Option(f"{name:<10} {line}", id=name) for name, line in BOT_CHOICES), id="pick")
        yield Input(id="input", placeholder="a number, a move (discard K♥), hint, score, undo, ? or q")

    def on_mount(self) -> None:
        if self.choose is not None:
            self.query_one("#head", Static).update("Knock: choose the bot you play against (↑ ↓, Enter)")
            self.query_one("#pick", OptionList).focus()
            self.query_one("#input", Input).display = False
            return
        self.call_after_refresh(self.start)  # once the screen has its size

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        assert self.choose is not None and event.option.id is not None
        self.maker = self.choose(event.option.id)
        self.choose = None
        event.option_list.remove()
        self.query_one("#input", Input).display = True
        self.start()

    def on_resize(self) -> None:
        self.console_.width = max(40, self.size.width - 3)  # what the table prints (rules, the sheet) fits the log

    def start(self) -> None:
        assert self.maker is not None
        self.on_resize()
        self.table = self.maker(self.console_, self.ask)
        self.query_one("#input", Input).focus()
        self.run_worker(self.play, thread=True, exit_on_error=False)

    # --- the worker thread: the table ----------------------------------------------------------------------

    def play(self) -> None:
        assert self.table is not None
        then: Callable[[], object] = self.finished
        try:
            if self.was_resumed:
                self.table.resumed()
            self.table.play()
        except Quit:
            then = lambda: self.end(STOPPED)  # noqa: E731
        except BaseException as err:  # shown after the board closes, by the command
            self.error = err
            then = lambda: self.end(STOPPED)  # noqa: E731
        finally:
            self.done.set()
        with contextlib.suppress(RuntimeError):  # the board may have closed already (Ctrl-C)
            self.call_from_thread(then)

    def ask(self, prompt: str) -> str:
        """The table's question: the board redrawn, then the next line typed (``Quit`` once the board closes)."""
        if self.how is not None:
            raise Quit
        try:
            self.call_from_thread(self.redraw, prompt)
        except RuntimeError:  # the board closed while the bots moved
            raise Quit from None
        line = self.lines.get()
        if line is None:
            raise Quit
        return line

    # --- the board (the app's thread) ---------------------------------------------------------------------

    def redraw(self, prompt: str = "") -> None:
        """Show the table's state and what it said since the last redraw."""
        self.prompt, self.waiting = prompt, bool(prompt)
        said = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        log = self.query_one("#log", RichLog)
        for line in said.splitlines():
            if line.strip():
                self.said.append(line)
                log.write(Text.from_markup(self.markup(line)), width=self.console_.width)
        if self.table is None:
            return
        board = self.table.board()

        def render(text: str) -> Text:
            return Text.from_markup(self.markup(text))

        self.query_one("#head", Static).update(render(board.head))
        # the table's own question (resign? y/N) in place of the turn's line, which every move's prompt shows
        asked = prompt.strip() if prompt and not prompt.startswith(("your move", "your advice")) else None
        self.query_one("#turn", Static).update(render(asked or (board.turn if prompt else "…")))
        facts = [f"{board.whose}  {board.melds}   {board.deadwood}".rstrip(), board.pile,
                 "discards " + (" ".join(board.discards) or "none yet"), *board.known,
                 "   ".join(board.score), board.last, board.advice]  # fmt: skip
        self.query_one("#facts", Static).update(render("\n".join(f for f in facts if f)))
        self.query_one("#choices", Static).update(render("\n".join(board.choices) or "(no choice to make)"))

    def finished(self) -> None:
        self.over = True
        if self.table is not None:  # nothing left to choose
            self.table.offered, self.table.turn_text = (), "game over"
        self.redraw()
        self.query_one("#turn", Static).update("game over: the score sheet is in the log; press Enter to leave")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        if self.over:
            self.end(OVER)
            return
        if not self.waiting:
            return
        self.waiting = False
        self.query_one("#turn", Static).update("…")
        self.said.append(f"> {event.value}")
        self.query_one("#log", RichLog).write(Text(f"> {event.value}", style="dim"))
        self.lines.put(event.value)

    def action_interrupt(self) -> None:
        self.end(INTERRUPTED)

    def end(self, how: str) -> None:
        """Close the board, ended ``how``: the first reason given stands (the table's thread, stopping because
        the board closes, does not turn a Ctrl-C into a q)."""
        if self.how is None:
            self.how = how
            self.exit(how)

    def on_unmount(self) -> None:
        self.lines.put(None)  # a table still waiting for a line stops (Quit)


def text_of(app: App[str]) -> str:
    """The screen as plain text, a line a row (what a text snapshot holds)."""
    console = Console(width=app.size.width, height=app.size.height, file=io.StringIO(), record=True,
                      color_system=None, legacy_windows=False)  # fmt: skip
    console.print(app.screen._compositor.render_update(full=True))
    return "\n".join(line.rstrip() for line in console.export_text(styles=False).splitlines())


__all__ = ["INTERRUPTED", "OVER", "STOPPED", "BoardApp", "BoardTable", "text_of"]
