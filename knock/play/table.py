"""The table: a person plays a game against bots, one prompt at a time. Rules: VIS-1, THREE-7, THREE-8.

The person sees what the seat sees; every move typed goes to the engine's one validation path, and a refusal
is shown with the engine's reason and rule id. The log is written after every move (``knock.play.saves``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.table import Table as Grid

from engine.actions import Abort, Action, Advise, MatchAction, Resign
from engine.cards import Card
from engine.errors import IllegalAction
from engine.events import CutDrawn, HandEnded, HandStarted, MatchEvent
from engine.fsm import Phase
from engine.rules import CutTiebreak, RuleSet
from engine.visibility import Observation, SeatLens
from knock.play.coach import hint
from knock.play.saves import Save
from knock.play.screen import (
    cards_text,
    option_lines,
    options,
    sheet,
    status,
)
from knock.play.session import Session
from knock.play.words import ADVICE_HELP, HELP, Context, Move, Refusal, Typo, Word, read
from replay.narration import Voice, action_text, hand_title, narrate

Ask = Callable[[str], str]
Markup = Callable[[str], str]


class Quit(Exception):
    """The person stopped the game (``q``, or the input ended)."""


#: What each player phase asks for, in words (added to a refusal of a move the phase does not take).
NOW = {
    Phase.UPCARD_OFFER: "take the upcard {top} or pass",
    Phase.DRAW: "draw from the stock, or pick up {top}",
    Phase.DISCARD: "discard a card, or knock",
    Phase.WALL: "pick up {top} to knock, or decline it",
    Phase.KNOCK: "lay out your spread",
    Phase.LAYOFF: "answer the spread: show your melds and lay off",
}


class TerminalTable:
    """One person at one game: ``play()`` runs it to its end (or raises ``Quit``, or KeyboardInterrupt)."""

    def __init__(
        self, session: Session, save: Save, console: Console, ask: Ask, markup: Markup, *, new: bool = True
    ) -> None:
        """``new``: the game starts here, and its first events are still to be told (not a resumed game)."""
        self.console, self.ask, self.markup = console, ask, markup
        self._seat(session, save, told=not new)

    def _seat(self, session: Session, save: Save, *, told: bool = True) -> None:
        """Sit at ``session`` (a new game, a resumed one, or one taken back); ``told``: its events so far are known."""
        self.session, self.save = session, save
        match = session.match
        self.names = Voice(session.setup.players, session.me, symbols=False, seats=match.rules.players)
        self.lens = SeatLens(match.rules, session.me)
        self.shown = 0
        if told:
            self.lens.see_all(match.events)
            self.shown = len(match.events)
        self.asked_at = len(match.events) if session.advised else -1  # the sitter's last chance to advise

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(self.markup(text), style=style)

    # --- the game ----------------------------------------------------------------------------------

    def play(self) -> None:
        """Play to the game's end."""
        while True:
            self.catch_up()
            game = self.session.match
            if game.is_over:
                return
            seat = game.to_act
            assert seat is not None
            me = self.session.me
            if seat == me:
                self.turn()
            elif game.sitter == me and seat == game.captain and self.asked_at != len(game.events):
                self.advise()
            else:
                self.session.apply(self.session.bot_move())
            self.save.sync()

    def catch_up(self) -> None:
        """Tell the events since the last call, as the seat saw them."""
        events = self.session.match.events
        for i in range(self.shown, len(events)):
            event = events[i]
            seen = self.lens.see(event)
            if isinstance(seen, HandStarted):
                self.console.rule(self.markup(hand_title(seen, self.names)))
            elif isinstance(event, HandEnded):
                self.score_sheet(events[: i + 2])  # the game's end, when it comes, follows the hand's
            else:
                text = narrate(seen, self.names) + _why(seen, self.session.match.rules)
                bold = "bold" if "points" in text or "no score" in text or "game over" in text else None
                self.say(("" if bold else "  ") + text, bold)
        self.shown = len(events)

    def resumed(self) -> None:
        """On resuming: the score sheet so far and the current hand's events, as the seat saw them."""
        events = self.session.match.events
        if any(isinstance(e, HandEnded) for e in events):
            self.score_sheet(events)
        start = max(i for i, e in enumerate(events) if isinstance(e, HandStarted))
        lens = SeatLens(self.session.match.rules, self.session.me)
        seen = lens.see_all(events)
        for e in seen[start:]:
            if isinstance(e, HandStarted):
                self.console.rule(self.markup(hand_title(e, self.names)))
            elif not isinstance(e, HandEnded):  # the score sheet above says it
                self.say("  " + narrate(e, self.names) + _why(e, self.session.match.rules))

    def score_sheet(self, events: Sequence[MatchEvent]) -> None:
        head, rows = sheet(events, self.names)
        if not rows:
            self.say("no hand has been scored yet")
            return
        grid = Grid(title="score sheet", title_justify="left", show_edge=False)
        for i, col in enumerate(head):
            grid.add_column(col, justify="left" if i == 1 else "right")
        for row in rows:
            grid.add_row(*(self.markup(cell) for cell in row))
        self.console.print(grid)

    # --- the person's turn ---------------------------------------------------------------------------

    def turn(self) -> None:
        """Ask for the person's move until one is legal (or ``undo`` takes the game back)."""
        game, me = self.session.match, self.session.me
        hand = game.hand
        assert hand is not None
        self.decide(hand.observation(me), me, "your cards", advising=False)

    def decide(self, obs: Observation, seat: int, cards: str, *, advising: bool) -> bool:
        """Show the options and ask until the person makes a legal move (as the sitter: gives legal advice, or none).
        False when ``undo`` took the game back instead."""
        legal = self.session.match.legal_actions()
        offered = self.offer(obs, legal, cards, "his" if advising else "your")
        ctx = Context(seat, obs.phase, [a for a, _ in offered], legal, obs.hand, _top(obs), obs.knock_limit)
        prompt, help_text = ("your advice (a number, a move, or Enter for none): ", ADVICE_HELP) if advising else (
            "your move: ", HELP)  # fmt: skip
        while True:
            text = self.ask(prompt)
            command = Word("none") if advising and not text.strip() else read(text, ctx)
            match command:
                case Move(action=action):
                    move: MatchAction = Advise(self.session.me, action) if advising else action
                    try:
                        self.session.match.check(move)
                    except IllegalAction as err:
                        self.refuse(err.rule, err.reason, obs)
                        self.choices(offered, obs)
                        continue
                    self.session.apply(move)
                    return True
                case Refusal(rule=rule, reason=reason):
                    self.refuse(rule, reason, obs)
                case Typo(message=message):
                    self.say(message.replace("a move such as", "advice such as") if advising else message, "yellow")
                case Word(name="none") if advising:
                    return True
                case Word(name="none"):
                    self.say("there is no advice to give: it is your move", "yellow")
                case Word(name="resign" | "abort" as name):
                    if self.end(name, obs):
                        return True
                case Word(name=name):
                    if self.word(name, obs, legal, offered, help_text):
                        return False
            self.choices(offered, obs)

    def offer(self, obs: Observation, legal: Sequence[Action], cards: str, your: str) -> list[tuple[Action, str]]:
        """Show the status line, the cards, the spread to answer, and the numbered options."""
        session = self.session
        self.say(status(session.match, obs, self.names), "dim")
        self.say(f"{cards}: {cards_text(obs)}")
        if obs.spread is not None and obs.phase is Phase.LAYOFF:
            self.say(f"{self.names.whose(obs.spread.seat)} spread: {self.names.melds(obs.spread.melds)}")
        offered = options(obs, legal, your)
        for line in option_lines(offered, obs):
            self.say(line)
        if len(legal) > len(offered):
            more = len(legal) - len(offered)
            self.say(f"      … and {more} more (type one, e.g. 'layoff 9c-9d-9h 7c>4c-5c-6c')", "dim")
        return offered

    def choices(self, offered: Sequence[tuple[Action, str]], obs: Observation) -> None:
        """The numbered choices again, after a command that was not a move (so they never scroll away)."""
        self.say("still to choose:", "dim")
        for line in option_lines(offered, obs):
            self.say(line)

    def word(self, name: str, obs: Observation, legal: Sequence[Action], offered: Sequence[tuple[Action, str]],
             help_text: str) -> bool:  # fmt: skip
        """One of the table's words; True when it ends the turn (``undo``)."""
        if name == "help":
            self.console.print(help_text, markup=False)  # as written: the notations it lists stay as typed
        elif name == "hint":
            choice, why = hint(obs, legal, "your" if obs.seat == self.session.me else "his")
            number = next((f"{i}. " for i, (a, _) in enumerate(offered, start=1) if a == choice), "")
            self.say(f"hint: {number}{why}", "cyan")
        elif name == "score":
            self.score_sheet(self.session.match.events)
        elif name in ("undo", "undo anyway"):
            return self.undo(past_score=name == "undo anyway")
        elif name == "quit":
            raise Quit
        return False

    def end(self, name: str, obs: Observation) -> bool:
        """The person resigns (once asked again) or aborts the game, if the rules let him now (END-1, END-2);
        whether the game ended."""
        if not self.save.writer.endings:
            self.say(f"this game's log is of an earlier format ({self.save.path}), which holds no {name}: play on, "
                     "or stop with q", "yellow")  # fmt: skip
            return False
        action = Resign(self.session.me) if name == "resign" else Abort(self.session.me)
        try:
            self.session.match.check(action)
        except IllegalAction as err:
            self.refuse(err.rule, err.reason, obs)
            return False
        if name == "resign" and self.ask("resign this game? you lose it (y/N): ").strip().lower() not in ("y", "yes"):
            self.say("you play on", "dim")
            return False
        self.session.apply(action)
        return True

    def refuse(self, rule: str, reason: str, obs: Observation) -> None:
        """The engine's refusal, in words from the person's seat, with its rule id."""
        text = self.personal(reason)
        if "the phase does not take this action" in reason:
            text = "not now — " + NOW.get(obs.phase, "wait for your turn").format(top=_top(obs))
        self.say(f"✗ {text} (rule {rule})", "red")

    def personal(self, reason: str) -> str:
        """An engine reason with seats by name, and the person's own as "you"."""
        me = self.session.me
        text = re.sub(rf"\bp{me} (does|is|sits|may)\b", lambda m: "you " + _SECOND[m.group(1)], reason)
        return re.sub(r"\bp([0-2])\b", lambda m: self.names.who(int(m.group(1))), text)

    def undo(self, *, past_score: bool = False) -> bool:
        """Take back the person's last decision: the game goes on from just before it in the same save, and the
        log as it was is kept in the save's branches (LOG-14). Refused past a stock card the person has seen, and
        past a scored hand unless ``past_score``."""
        taken = self.session.last_mine()
        bar = self.session.undo_bar(past_score=past_score)
        branched = self.save.branch(self.session) if bar is None else None
        if branched is None or taken is None:
            self.say(bar or "there is nothing of yours to take back yet", "yellow")
            return False
        session, save, left = branched
        self._seat(session, save)
        what = "advice" if isinstance(taken, Advise) else "move"
        told = action_text(taken, self.names)
        self.say(f"took back your {what} '{told}': choose again below; the game goes on in {self.save.path} "
                 f"(the game as it was is kept in {left})", "cyan")  # fmt: skip
        return True

    # --- the sitter's advice -------------------------------------------------------------------------

    def advise(self) -> None:
        """Offer the sitter a say when the captain has a real choice (and the sitter sees his cards, THREE-8)."""
        game = self.session.match
        hand = game.hand
        view = game.observation(self.session.me).hand
        choices = game.advice_options()
        self.asked_at = len(game.events)
        if hand is None or view is None or not view.hand or len(choices) <= 1:
            return
        captain = self.names.who(game.captain)
        if self.decide(view, game.captain, f"{captain} (captain) is to act; his cards", advising=True):
            self.asked_at = len(self.session.match.events)


def _why(event: object, rules: RuleSet) -> str:
    """What a draw for the deal or the roles decides, said where it is drawn (MATCH-2, MATCH-3, THREE-2)."""
    if not isinstance(event, CutDrawn):
        return ""
    players = rules.players
    ranks = [c.rank for c in event.cards]
    if len(set(ranks)) < len(ranks) and rules.cut_tiebreak is CutTiebreak.REDRAW:
        if players == 3:
            return f"{_ROLES}; tied cards draw again"
        return " — a tie: both draw again"
    if len(event.seats) < players:
        return " — a tie breaker: the tied seats draw again to settle their order"
    return _ROLES if players == 3 else " — the higher card deals"


_ROLES = " — the highest card is in the box, the middle is captain, the lowest sits out"


_SECOND = {"does": "do", "is": "are", "sits": "sit", "may": "may"}


def _top(obs: Observation) -> Card | None:
    return obs.discard_pile[-1] if obs.discard_pile else None


__all__ = ["Quit", "TerminalTable"]
