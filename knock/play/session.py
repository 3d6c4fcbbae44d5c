"""A game in play: its setup, the match, the bots at the other seats, and every action so far.

The setup (rule set, seed, the person's seat, the bots, the person's name) is what a log's header holds —
the rules, the players and the free ``meta`` of LOG-1 — so a game can be rebuilt from its log: the seed gives
every draw and deal (MATCH-7), the action records every move. The bots are rebuilt with it: each bot starts
from its seed and is asked again for every move it made, so a bot with a random generator (``random``) is
where it was, and a log whose bot moves are not the bots' own is refused rather than continued differently.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from engine.actions import Action, Advise, DrawStock, MatchAction
from engine.chance import SeededChance
from engine.errors import KnockError
from engine.events import Discarded, DrewStock, HandEnded, MatchEvent
from engine.match import Match
from engine.rules import RuleSet
from engine.visibility import SeatLens, Seen
from knock.bots import BOT_NAMES, Bot, make_bot
from replay import Resumed, resume
from replay.log import Header

#: The ``tool`` a log of terminal play names in its ``meta``.
TOOL = "knock play"

#: The bots a person may choose from when a game starts, the default first (then the search levels strongest first),
#: each with a line saying how it plays.
#: A bot that joins ``knock.bots`` (a search bot's levels, say) joins this list, and the board offers it.
BOT_CHOICES: tuple[tuple[str, str], ...] = (
    ("heuristic", "keeps and builds melds, counts live cards, reads your pickups (the default)"),
    ("expert", "searches many sampled deals before each draw, discard and knock (the largest budget; slower)"),
    ("hard", "plays as the heuristic bot does, without searching (the level below expert)"),
    ("medium", "a short search: sometimes misled by the luck of its few samples"),
    ("easy", "a very short search that follows the luck of a few samples"),
    ("simple", "the EAAI challenge's public baseline"),
    ("greedy", "keeps its deadwood low and knocks as soon as it may"),
    ("random", "any legal move, at random"),
)


class PlayError(KnockError, ValueError):
    """A game that cannot be started, resumed or continued as asked (the message says why)."""


@dataclass(frozen=True, slots=True)
class Setup:
    """How a game of terminal play is set up: everything its log's header says of it (LOG-1 ``meta``)."""

    rules: RuleSet
    seed: int
    seat: int  #: the person's seat
    bots: tuple[str, ...]  #: the bots of the other seats, in seat order
    name: str = "you"

    def __post_init__(self) -> None:
        if not 0 <= self.seat < self.rules.players:
            raise PlayError(f"{self.rules.name} has seats 0..{self.rules.players - 1}, not {self.seat}")
        if len(self.bots) != self.rules.players - 1 or any(b not in BOT_NAMES for b in self.bots):
            raise PlayError(f"give {self.rules.players - 1} bots ({', '.join(BOT_NAMES)}), one per other seat")
        if not self.name.strip() or self.name in self.players[: self.seat] + self.players[self.seat + 1 :]:
            raise PlayError(f"the name {self.name!r} is empty or a bot's")

    @property
    def others(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.rules.players) if s != self.seat)

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names in the log: the person's, and each bot's (with its seat when two are alike)."""
        names: dict[int, str] = dict(zip(self.others, self.bots, strict=True))
        return tuple(
            self.name if s == self.seat else names[s] if self.bots.count(names[s]) == 1 else f"{names[s]}#{s}"
            for s in range(self.rules.players)
        )

    def meta(self) -> dict[str, Any]:
        """The log's free metadata: what it takes to rebuild the game (and its bots) from the log alone."""
        return {"tool": TOOL, "seed": self.seed, "seat": self.seat, "bots": list(self.bots)}

    @staticmethod
    def from_header(header: Header) -> Setup:
        """The setup a log of terminal play was written with.

        Raises:
            PlayError: the log was not written by ``knock play`` (its ``meta`` does not say how to go on).
        """
        meta = header.meta
        seed, seat, bots = meta.get("seed"), meta.get("seat"), meta.get("bots")
        if meta.get("tool") != TOOL or type(seed) is not int or type(seat) is not int or type(bots) is not list:
            raise PlayError(f"not a game of {TOOL}: its meta does not hold the seed, the seat and the bots "
                            f"(meta: {sorted(meta)})")  # fmt: skip
        try:
            rules = RuleSet.from_dict(header.rules)
            if not 0 <= seat < len(header.players):
                raise PlayError(f"the meta's seat {seat} is not a seat of this game")
            return Setup(rules, seed, seat, tuple(map(str, bots)), header.players[seat])
        except (KnockError, TypeError) as err:
            raise PlayError(f"the log's setup is not playable: {err}") from None


class Session:
    """A game between the person and bots: the match, the bots, and every action in order (the person's
    decisions marked, for ``undo``)."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.match = Match.new(setup.rules, seed=setup.seed)
        pairs = zip(setup.others, setup.bots, strict=True)
        self.bots: dict[int, Bot] = {s: make_bot(n, setup.seed + s) for s, n in pairs}
        self.actions: list[MatchAction] = []
        self.mine: list[int] = []  #: indices in ``actions`` of the person's own decisions
        self.before: list[int] = []  #: for each action, how many of the match's events came before it

    @property
    def me(self) -> int:
        return self.setup.seat

    def bot_move(self, match: Match | None = None) -> Action:
        """The move of the bot whose seat is to act (in ``match``, by default the session's), from that seat's
        observation alone (VIS-2)."""
        match = match if match is not None else self.match
        seat, hand = match.to_act, match.hand
        assert seat is not None and hand is not None and seat in self.bots
        return self.bots[seat].choose(match.seat_observation(seat), match.legal_actions())

    def apply(self, action: MatchAction) -> None:
        """Apply a move through the match's one validation path (IllegalAction: nothing changed)."""
        start = len(self.match.events)
        self.match.apply(action)
        self._note(action, start)

    def _note(self, action: MatchAction, start: int) -> None:
        self.actions.append(action)
        self.before.append(start)
        if action.seat == self.me:
            self.mine.append(len(self.actions) - 1)

    def follow(self, action: MatchAction, where: str) -> None:
        """Apply a move read from a log; a bot's move must be the one the bot makes now.

        Raises:
            PlayError: the bot would have played otherwise (the log was written with other bots or edited).
        """
        self._check_bot(self.match, action, where)
        try:
            self.apply(action)
        except KnockError as err:
            raise PlayError(f"{where}: {err}") from None

    def _check_bot(self, match: Match, action: MatchAction, where: str) -> None:
        seat = match.to_act
        if not isinstance(action, Advise) and seat in self.bots:
            mine = self.bot_move(match)
            if mine != action:
                name = self.setup.players[seat]
                raise PlayError(f"{where}: {name} played {action}, but the bot plays {mine} here: the log was "
                                "written with other bots, or edited, and cannot go on as it would have")  # fmt: skip

    @classmethod
    def resumed(cls, setup: Setup, data: bytes, stream: BinaryIO) -> tuple[Session, Resumed]:
        """The game logged in ``data`` (a log of ``setup``), rebuilt in one strict pass by ``replay.resume``, every
        bot asked again for its moves as they are replayed; the writer it gives appends to ``stream``.

        Raises:
            PlayError: a bot's move in the log is not the bot's.
            replay.ResumeError: the log cannot be resumed (it fails, or its deals are not the seed's).
        """
        session = cls(setup)

        def noted(match: Match, action: MatchAction) -> None:
            session._check_bot(match, action, f"move {len(session.actions) + 1}")
            session._note(action, len(match.events))

        game = resume(data, stream, chance=SeededChance(setup.seed), executor="library", before=noted)
        session.match = game.match
        return session, game

    @property
    def advised(self) -> bool:
        """Whether the person's last move was advice that the captain has not yet acted on."""
        return bool(self.actions) and isinstance(self.actions[-1], Advise) and self.actions[-1].seat == self.me

    @classmethod
    def rebuild(cls, setup: Setup, actions: Iterable[MatchAction]) -> Session:
        """The game after ``actions`` (every bot asked again for its moves)."""
        session = cls(setup)
        for i, action in enumerate(actions, start=1):
            session.follow(action, f"move {i}")
        return session

    def last_mine(self) -> MatchAction | None:
        return self.actions[self.mine[-1]] if self.mine else None

    def undo_bar(self, *, past_score: bool = False) -> str | None:
        """Why the person's last decision may not be taken back, or None when it may.

        Never past a stock card the person has seen — his own draw, or a card another seat drew and then laid
        face up — for the deck is fixed in the hand's deal (MATCH-7): taken back, the same stock would show him
        what is coming. Past a hand already scored only when ``past_score`` (``undo anyway``)."""
        if not self.mine:
            return "there is nothing of yours to take back yet"
        i = self.mine[-1]
        if isinstance(self.actions[i], DrawStock):
            return ("you have seen the card you drew from the stock, and the stock would give it again: "
                    "a stock draw cannot be taken back")  # fmt: skip
        start, events = self.before[i], self.match.events
        later = events[start:]
        if _stock_seen(later, SeatLens(self.match.rules, self.me).see_all(events)[start:], self.me):
            return ("since that move you have seen a card drawn from the stock, which the same stock would give "
                    "again: it cannot be taken back")  # fmt: skip
        scored = sum(isinstance(e, HandEnded) for e in later)
        if scored and not past_score:
            return (f"that move was in a hand already scored (hand {self.match.number - scored}): type "
                    "'undo anyway' to take it back and play that hand again from there")  # fmt: skip
        return None


def _stock_seen(events: Sequence[MatchEvent], seen: Sequence[Seen], me: int) -> bool:
    """Whether a card another seat drew from the stock in ``events`` (``seen``: as the person's seat saw them)
    came into the person's sight: drawn in his sight (the sitter sees the captain's cards, THREE-8), discarded
    face up, or laid out when its hand ended (the showdown shows every card but the sitter's)."""
    drawn: set[object] = set()
    for e, sight in zip(events, seen, strict=True):
        if isinstance(e, DrewStock) and e.seat != me:
            if isinstance(sight, DrewStock):
                return True
            drawn.add(e.card)
        elif (isinstance(e, Discarded) and e.card in drawn) or (isinstance(e, HandEnded) and drawn):
            return True
    return False


__all__ = ["BOT_CHOICES", "TOOL", "PlayError", "Session", "Setup"]
