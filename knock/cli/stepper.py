"""``knock show --step``: a game record by record, each with the position after it, stepped in the terminal.

A *frame* is one record: its number, what it says (the event as the seat saw it), and the position after it —
the cards of every seat the reader may see with their deadwood, the discard pile, the stock, the knock limit and
the scores. In a terminal, Enter or space shows the next frame, ``b`` the one before, ``q`` quits; without one
(a pipe, a file) every frame is printed in turn.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from rich.markup import escape

from engine.cards import Card, from_mask, to_mask
from engine.events import CutDrawn, HandStarted
from engine.match import Match
from engine.melds import deadwood
from engine.visibility import SeatLens
from knock.cli.common import card_markup, console, render
from replay.audit import view_events
from replay.log import Entry, LogError
from replay.narration import Voice, display_names, line_of
from replay.notation import record_text
from replay.public import PublicState
from replay.replayer import Replayer

#: The keys a frame waits for, and what they do.
NEXT, BACK, QUIT = frozenset("\r\n "), frozenset("bB"), frozenset("qQ\x03\x04")
#: How many frames ``b`` can go back through.
BACK_WINDOW = 1000


@dataclass(frozen=True, slots=True)
class Frame:
    """One record of the game and the position after it, as lines of rich markup."""

    record: int
    says: str
    position: tuple[str, ...]


def cards_line(cards: Iterable[Card]) -> str:
    shown = [card_markup(c) for c in sorted(cards)]
    return " ".join(shown) if shown else "[dim](none)[/]"


def log_frames(data: bytes, seat: int | None) -> Iterator[Frame]:
    """The frames of a full log, as every seat or as ``seat`` saw it, one per record, made as they are asked for
    (the replay keeps no history); an unfinished or damaged log's end at its last valid record (its verdict says
    why)."""
    replayer = Replayer(data, history=False)
    names = list(replayer.reader.header.players)
    voice = Voice(display_names(names), symbols=False, seats=replayer.rules.players)
    lens = SeatLens(replayer.rules, seat) if seat is not None else None
    with contextlib.suppress(LogError):
        for state in replayer.states():
            event = state.event
            seen = lens.see(event) if lens is not None and event is not None else event
            says = render(line_of(seen, voice)) if seen is not None else f"[dim]{escape(record_text(state.record))}[/]"
            early = isinstance(event, CutDrawn | HandStarted)  # yielded with the deal after them: no cards yet
            position = _scores(state.match.scores, names) if early else _match_position(state.match, names, seat)
            yield Frame(state.index, says, position)


def _match_position(match: Match, names: list[str], seat: int | None) -> tuple[str, ...]:
    hand = match.hand
    lines = []
    if hand is None:
        return ("[dim]before the first deal[/]",)
    shown: list[tuple[int, tuple[Card, ...]]] = [(s, from_mask(hand.hands[s])) for s in hand.seats]
    if seat is not None:  # what the seat sees: its cards, or the captain's for a sitter (engine.visibility)
        seen = match.observation(seat).hand
        shown = [(seen.seat, seen.hand)] if seen is not None and seen.hand else []
    for s, held in shown:
        lines.append(f"{render(names[s])}: {cards_line(held)}  [dim]deadwood {deadwood(to_mask(held))}[/]")
    top = hand.discards[-1] if hand.discards else None
    to_act = (
        f"{render(names[hand.to_act])} to act ({hand.phase.value})" if hand.to_act is not None else hand.phase.value
    )
    lines.append(f"discard pile {len(hand.discards)}" + (f", top {card_markup(top)}" if top else "")
                 + f" · stock {len(hand.stock)} · knock limit {hand.knock_limit} · {to_act}")  # fmt: skip
    return (*lines, *_scores(match.scores, names))


def _scores(scores: tuple[int, ...], names: list[str]) -> tuple[str]:
    return ("scores " + ", ".join(f"{render(names[i])} {s}" for i, s in enumerate(scores)),)


def view_frames(data: bytes, names: list[str]) -> Iterator[Frame]:
    """The frames of a per-seat view: each record and what the seat sees after it, made as they are asked for, to
    the view's last valid record."""
    voice = Voice(display_names(names), symbols=False, seats=len(names))
    with contextlib.suppress(LogError):
        for entry, st, event in view_events(data):
            says = (
                render(line_of(event, voice)) if event is not None else f"[dim]{escape(record_text(entry.record))}[/]"
            )
            yield Frame(entry.index, says, _view_position(entry, st, names))


def _view_position(entry: Entry, st: PublicState, names: list[str]) -> tuple[str, ...]:
    if st.number == 0 or st.upcard is None:
        return _scores(st.scores, names)
    lines = []
    if st.viewer is not None:
        lines.append(f"{render(names[st.viewer])}: {cards_line(st.own)}  [dim]deadwood {deadwood(to_mask(st.own))}[/]")
    top = st.discard_pile[-1] if st.discard_pile else None
    to_act = f" · {render(names[st.turn])} to act" if st.turn is not None else ""
    lines.append(f"discard pile {len(st.discard_pile)}" + (f", top {card_markup(top)}" if top else "")
                 + f" · stock {st.stock_size} · knock limit {st.knock_limit}{to_act}")  # fmt: skip
    return (*lines, *_scores(st.scores, names))


def show_frame(frame: Frame, count: int, footer: str) -> None:
    console.print(f"[bold]record {frame.record}[/] of {count}: {frame.says}")
    for line in frame.position:
        console.print("  " + line)
    if footer:
        console.print(f"[dim]{footer}[/]")


def step(frames: Iterable[Frame], last: int, read_key: Callable[[], str] | None = None) -> None:
    """Show the frames one at a time in a terminal (or all of them, in turn, without one); ``last`` is the
    log's last record. In a terminal, keys are read one at a time (cbreak mode, restored after)."""
    if read_key is None and not (sys.stdin.isatty() and sys.stdout.isatty()):
        for frame in frames:
            show_frame(frame, last, "")
        return
    if read_key is not None:  # keys from elsewhere (a test, a program): the terminal is left as it is
        _step(iter(frames), last, read_key)
        return
    with _keys() as key:
        _step(iter(frames), last, key)


def _step(frames: Iterator[Frame], last: int, key: Callable[[], str]) -> None:
    """Forward makes the next frame; back returns through the last ``BACK_WINDOW`` frames shown, so a log of any
    length is stepped in the same memory."""
    shown: deque[Frame] = deque(maxlen=BACK_WINDOW)
    i = 0  # the frame on screen, as an index into ``shown``
    first = next(frames, None)
    if first is None:
        return
    shown.append(first)
    while True:
        console.clear()
        show_frame(shown[i], last, "Enter or space: next · b: back · q: quit")
        pressed = key()
        if pressed in QUIT:
            return
        if pressed in BACK:
            i = max(0, i - 1)
        elif pressed in NEXT:
            if i < len(shown) - 1:
                i += 1
                continue
            frame = next(frames, None)
            if frame is None:
                return
            shown.append(frame)  # a full window drops its oldest frame: the one on screen stays the newest
            i = len(shown) - 1


@contextlib.contextmanager
def _keys() -> Iterator[Callable[[], str]]:
    """The terminal in cbreak mode (each key as it is pressed, none lost while a frame is drawn), and a reader."""
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        yield lambda: os.read(fd, 1).decode(errors="replace") or "q"
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
