"""A game to the target: two-player Gin, Oklahoma Gin and three-handed Gin "in the box".

Rules: MATCH-1 .. MATCH-7, THREE-1 .. THREE-8, BONUS-1 .. BONUS-5, END-1 .. END-5.

The match is the second machine of ``engine.fsm`` (cut, hand, rotate, game over). Player actions
during a hand go to the hand's own machine through the hand's one validation path; the match adds the
seat checks of three-handed play (the sitter only advises) and takes the dealer steps between hands
by itself: recording the result (whose ``game_won`` guard ends the game or goes on to ``rotate``), then,
on entering ``rotate``, rotating roles or passing the deal and dealing the next hand. The match's
executor (``executor=``, default ``"library"``) is its hands' executor too. A game may also end before the target
(``end_early``: a seat resigns, aborts or claims; ``forfeit``: the host declares one), and the host records when a
seat leaves the table and comes back (``away``, ``back``), which a claim is judged by.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from engine import describe, draw, fsm, kernel
from engine.actions import (
    ACTION_TYPES,
    Abort,
    Action,
    Advise,
    Claim,
    Ending,
    LayOff,
    MatchAction,
    Resign,
    parse_match_action,
)
from engine.cards import Card
from engine.chance import Chance, ScriptedChance, SeededChance
from engine.errors import IllegalAction, InvalidDeal, InvalidRules
from engine.events import (
    FORFEIT_REASONS,
    Abandoned,
    Aborted,
    Advised,
    Claimed,
    CutDrawn,
    EndEvent,
    Forfeited,
    GameOver,
    HandEnded,
    HandStarted,
    MatchEvent,
    Resigned,
    SeatAway,
    SeatBack,
)
from engine.facts import Attendance
from engine.fsm import ExecutorName, MatchPhase, Phase
from engine.hand import Hand
from engine.kernel import Refused
from engine.rules import DeadHandRoles, NextDealer, RuleSet
from engine.scoring import HandResult, ResultKind
from engine.seats import other_seat
from engine.standings import Standings, Tally
from engine.visibility import observe_in_game, observe_match

if TYPE_CHECKING:
    from engine.visibility import MatchObservation, Observation


class Match:
    """A game to the target under one rule set, two or three seats.

    >>> m = Match.new(RuleSet.preset("three_handed"), seed=4)
    >>> m.roles()["box"] == m.dealer, m.to_act == m.roles()["captain"]
    (True, True)
    """

    __slots__ = (
        "chance", "dealer", "dropped", "ended", "events", "executor", "hand", "history", "number", "phase", "results",
        "rules", "seats", "seen", "sitter", "tally",
    )  # fmt: skip

    rules: RuleSet
    chance: Chance
    phase: MatchPhase
    number: int
    dealer: int
    seats: tuple[int, int]
    sitter: int | None
    hand: Hand | None
    results: list[HandResult]
    events: list[MatchEvent]
    executor: fsm.Executor
    history: bool
    dropped: int
    tally: Tally
    ended: EndEvent | None  #: how the game ended before the target (END-1 .. END-4), if it did
    seen: Attendance  #: who has acted in the first hand, who is away and since when, the last time (END-2, END-4)

    def __init__(
        self, rules: RuleSet, chance: Chance, *, executor: ExecutorName = "library", history: bool = True
    ) -> None:
        """Start a game: the draw for the first dealer or the roles (MATCH-2, THREE-2), then the first deal.

        ``executor`` runs the match's machine and its hands' (``"library"``: ``transitions`` itself, or
        ``"compiled"``: the performance mode; see ``engine.fsm``). ``history=False`` keeps no record of the
        game behind it, so that its memory stays the same however long the game runs (a hand may never end
        without a pickup cap, DEAD-3; a game of dead hands never reaches the target): ``events`` then holds
        only the events of the latest step (the start, or the last ``apply`` or ``add_deck``), ``results``
        only the last hand's result, and its hands keep no events either; ``dropped`` counts the events let go
        (a ``LogWriter`` synced after every step still writes them all). The standings are running totals
        (``tally``) either way. A replay that only checks a log (``replay.verdict.judge``) plays this way.

        Raises:
            InvalidRules: the rule set plays a reduced deck (RULES-3), which is for analysing single hands only.
        """
        if rules.reduced:
            raise InvalidRules(
                "RULES-3",
                "a reduced deck (deck_ranks, deck_suits, hand_size) is for analysing single hands (engine.Hand, "
                "tests.support.explore); a game (Match) is not supported with it and plays the standard deck only",
            )
        self.rules = rules
        self.chance = chance
        self.executor = fsm.executor("match", executor)
        self.phase = MatchPhase.CUT
        self.number = 0
        self.dealer = 0
        self.seats = (0, 1)
        self.sitter = None
        self.hand = None
        self.results = []
        self.events = []
        self.history = history
        self.dropped = 0
        self.tally = Tally(rules, rules.players)
        self.ended, self.seen = None, Attendance()
        order = self._draw_order(list(range(rules.players)))
        if rules.players == 2:
            dealer, seats, sitter = order[0], (0, 1), None  # MATCH-2: the higher card deals
        else:
            box, captain, sitter = order  # THREE-2: highest box, middle captain, lowest sits out
            dealer, seats = box, _pair(box, captain)
        self._start_hand("start", dealer, seats, sitter)

    @classmethod
    def new(
        cls, rules: RuleSet | None = None, *, seed: int, executor: ExecutorName = "library", history: bool = True
    ) -> Match:
        """A game whose draws and shuffles all come from ``seed``. Rule: MATCH-7."""
        return cls(rules or RuleSet(), SeededChance(seed), executor=executor, history=history)

    @classmethod
    def scripted(
        cls,
        rules: RuleSet | None = None,
        *,
        cuts: Sequence[Sequence[Card]],
        decks: Sequence[Sequence[Card]],
        executor: ExecutorName = "library",
        history: bool = True,
    ) -> Match:
        """A game from prearranged draw rounds and deck orders (for conformance cases and replays)."""
        return cls(rules or RuleSet(), ScriptedChance(cuts, decks), executor=executor, history=history)

    # --- the draw ------------------------------------------------------------------------------

    def _draw_order(self, seats: list[int]) -> list[int]:
        """Seats ordered from the highest card drawn to the lowest, ties resolved. Rules: MATCH-2, MATCH-3."""
        return draw.settle(self.rules, seats, self._draw_round)

    def _draw_round(self, seats: list[int]) -> tuple[Card, ...]:
        drawn = self.chance.cut(len(seats))
        event = CutDrawn(tuple(seats), drawn)
        self._fire("draw_cut", event, [event])
        return drawn

    # --- public state --------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        hand = self.hand
        return hand.to_act if hand is not None and self.phase is MatchPhase.HAND else None

    @property
    def is_over(self) -> bool:
        return self.phase is MatchPhase.GAME_OVER

    @property
    def awaiting_deck(self) -> bool:
        """True when a scripted game has run out of deck orders between hands (see ``add_deck``)."""
        return self.phase is MatchPhase.ROTATE

    @property
    def captain(self) -> int:
        return other_seat(self.seats, self.dealer)

    def roles(self) -> dict[str, int]:
        """The current roles: box, captain and sitter (three-handed) or dealer and non-dealer."""
        if self.sitter is None:
            return {"dealer": self.dealer, "non_dealer": self.captain}
        return {"box": self.dealer, "captain": self.captain, "sitter": self.sitter}

    def standings(self) -> Standings:
        """Scores, boxes, columns and bonuses so far, from the results entered. Rules: BONUS-1 .. BONUS-5; after an
        early end, the winner it names and the running scores as the totals (END-5)."""
        st = self.tally.standings()
        if self.ended is None:
            return st
        return Standings(st.columns, self._early_winner(), st.running)

    def _early_winner(self) -> int | None:
        """The winner of a game that ended early: none after an abort, else END-1's. Rules: END-1, END-2."""
        end = self.ended
        if end is None or isinstance(end, Aborted | Abandoned):
            return None
        loser = end.absent if isinstance(end, Claimed) else end.seat
        order = (self.dealer, self.captain) + ((self.sitter,) if self.sitter is not None else ())
        return kernel.early_winner(loser, self.tally.standings().running, order)

    @property
    def scores(self) -> tuple[int, ...]:
        """Every seat's running score (what counts toward the target)."""
        return self.standings().running

    @property
    def winner(self) -> int | None:
        return self.standings().winner if self.is_over else None

    def observation(self, seat: int) -> MatchObservation:
        """What ``seat`` may see (``engine.visibility`` decides). Rules: VIS-1, THREE-8."""
        return observe_match(self, seat)

    def seat_observation(self, seat: int) -> Observation:
        """What ``seat``, dealt into the current hand, sees of it with the game's scores (``observation(seat).hand``
        made directly): a bot's view in a game. Rules: VIS-1, VIS-2."""
        return observe_in_game(self, seat)

    def __str__(self) -> str:
        return describe.match_text(self)

    def __repr__(self) -> str:
        return describe.match_repr(self)

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to act (sorted); empty between hands and at the end."""
        hand = self.hand
        return hand.legal_actions() if hand is not None and self.phase is MatchPhase.HAND else []

    def advice_options(self) -> list[Advise]:
        """The suggestions the sitter may make now: one per legal action of the captain. Rule: THREE-7."""
        if self.sitter is None or self.to_act != self.captain:
            return []
        return [Advise(self.sitter, a) for a in self.legal_actions()]

    # --- validation and play -------------------------------------------------------------------

    def check(self, action: MatchAction) -> None:
        """Raise ``IllegalAction`` unless ``action`` is legal now; changes nothing."""
        if isinstance(action, Resign | Abort | Claim):
            self._end_check(action)
            return
        hand = self._seat_check(action)
        if not isinstance(action, Advise):
            hand.check(action)

    def _refuse(self, action: MatchAction, rule: str, reason: str) -> IllegalAction:
        return kernel.illegal(rule, reason, phase=self.phase.value, action=action)

    def _seat_check(self, action: Action | Advise) -> Hand:
        """The match's own checks (a hand in play; the sitter only advises, and only legal suggestions).

        A player's action is then checked by the hand itself, once, on its way through ``Hand.apply``.
        """

        hand = self.hand
        try:
            kernel.verify_action(action, _ACTION_KINDS)
            kernel.verify_seat_in_game(self.rules.players, action.seat)
            if not isinstance(action, Advise) and hand is not None and self.phase is MatchPhase.HAND:
                kernel.verify_plays(self.sitter, action.seat)
                return hand
        except Refused as err:
            raise self._refuse(action, err.rule, err.reason) from None

        def refuse(rule: str, reason: str) -> IllegalAction:
            return self._refuse(action, rule, reason)

        if self.phase is not MatchPhase.HAND or self.hand is None:
            last = self.hand.result if self.hand is not None else None
            gin_ended = last is not None and last.kind in (ResultKind.GIN, ResultKind.BIG_GIN)
            try:
                kernel.verify_no_layoff_after_gin(isinstance(action, LayOff), gin_ended)
            except Refused as err:
                raise refuse(err.rule, err.reason) from None
            raise refuse("MATCH-1", "no hand is being played")
        assert isinstance(action, Advise)
        try:
            kernel.verify_advice(action.suggestion, ACTION_TYPES, action.seat, self.sitter, self.to_act, self.captain)
        except Refused as err:
            raise refuse(err.rule, err.reason) from None
        try:
            self.hand.check(action.suggestion)
        except IllegalAction as err:
            raise refuse(err.rule, f"the suggestion is not legal: {err.reason}") from None
        return self.hand

    def is_legal(self, action: MatchAction) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: MatchAction) -> list[MatchEvent]:
        """Validate and perform ``action``, then the dealer steps that follow (end of hand, rotation, next deal).

        Raises:
            IllegalAction: naming the rule; nothing changed.
        """
        if isinstance(action, Resign | Abort | Claim):
            return self._end(action)
        hand = self._seat_check(action)
        start = len(self.events)
        if isinstance(action, Advise):
            self._fire("advise", action, [Advised(action.seat, action.suggestion)])
            return self._step_done(start)
        events = hand.apply(action)  # the hand's one validation path
        self.seen.acted(self.number, action.seat)  # END-2: an abort is allowed until both have acted
        self.events.extend(events)
        if hand.phase is not Phase.HAND_OVER:
            if not self.history:
                self.dropped += start
                del self.events[:start]
            return cast(list[MatchEvent], events)  # hand events are match events (a wider union)
        self._between_hands()
        return self._step_done(start)

    def play(self, *texts: str) -> list[MatchEvent]:
        """Apply actions written as text (``"p1 discard Kh"``, ``"p2 advise p1 pass"``)."""
        out: list[MatchEvent] = []
        for t in texts:
            out.extend(self.apply(parse_match_action(t, self.to_act)))
        return out

    def add_deck(self, deck: Sequence[Card]) -> list[MatchEvent]:
        """Deal the next hand of a scripted game that ran out of deck orders."""
        if self.phase is not MatchPhase.ROTATE:
            raise kernel.illegal("MATCH-7", "no deal is awaited", phase=self.phase.value, action="add_deck")
        start = len(self.events)
        self._next_hand(tuple(deck))
        return self._step_done(start)

    def _step_done(self, start: int) -> list[MatchEvent]:
        """The events of the step that began at ``events[start]``; without history, the only ones kept."""
        if self.history:
            return self.events[start:]
        self.dropped += start
        del self.events[:start]
        del self.results[:-1]
        return list(self.events)

    # --- a game's end before the target ----------------------------------------------------------

    def _end_check(self, action: Ending) -> None:
        """The checks of a resignation, an abort or a claim (``kernel.verify_end``). Rules: MATCH-1, THREE-1, END-1,
        END-2, END-4."""
        absent, at = (action.absent, action.at) if isinstance(action, Claim) else (None, None)
        try:
            kernel.verify_end(self.rules.players, self.is_over, self.seen, self.rules.claim_after,
                              _ENDING_KIND[type(action)], action.seat, absent, at)  # fmt: skip
        except Refused as err:
            raise kernel.illegal(err.rule, err.reason, phase=self.phase.value, action=action) from None

    def _end(self, action: Ending) -> list[MatchEvent]:
        """End the game at a seat's request (END-1, END-2, END-4)."""
        self._end_check(action)
        if isinstance(action, Claim):
            self.seen.record("claim", action.seat, action.at)
        return self._finish("end_early", ending_event(action))

    def forfeit(self, seat: int, reason: str) -> list[MatchEvent]:
        """The host declares that ``seat`` forfeits (``reason``: ``timeout`` or ``no_reveal``); the game ends.

        Raises:
            IllegalAction: the game is over (MATCH-1), no such seat (THREE-1), no such reason (END-3).
        """
        try:
            kernel.verify_going_on(self.is_over)
            kernel.verify_seat_in_game(self.rules.players, seat)
            kernel.verify_forfeit(reason, FORFEIT_REASONS)
        except Refused as err:
            raise kernel.illegal(err.rule, err.reason, phase=self.phase.value, action="forfeit") from None
        return self._finish("forfeit", Forfeited(seat, reason))

    def abandon(self, at: int) -> list[MatchEvent]:
        """The host ends the game at ``at`` (whole seconds since the epoch): nobody has been at the table for the
        time it allows. No winner; the game does not count. Rule: END-6.

        Raises:
            IllegalAction: the game is over (MATCH-1), a time earlier than the last recorded (END-4).
        """
        try:
            kernel.verify_going_on(self.is_over)
            kernel.verify_time(at, self.seen.clock)
        except Refused as err:
            raise kernel.illegal(err.rule, err.reason, phase=self.phase.value, action="abandon") from None
        self.seen.record("abandon", -1, at)
        return self._finish("forfeit", Abandoned(at))

    def _finish(self, trigger: str, event: EndEvent) -> list[MatchEvent]:
        start = len(self.events)
        self._fire(trigger, event, [event])
        self.ended = event
        st = self.standings()
        self.events.append(GameOver(st.winner, st.totals))
        return self._step_done(start)

    def away(self, seat: int, at: int) -> list[MatchEvent]:
        """The host saw ``seat`` leave the table at ``at`` (whole seconds since the epoch). Rule: END-4."""
        return self._presence(seat, at, leaving=True)

    def back(self, seat: int, at: int) -> list[MatchEvent]:
        """The host saw ``seat``, away, come back at ``at``. Rule: END-4."""
        return self._presence(seat, at, leaving=False)

    def _presence(self, seat: int, at: int, *, leaving: bool) -> list[MatchEvent]:
        kind = "away" if leaving else "back"
        try:
            kernel.verify_end(self.rules.players, self.is_over, self.seen, self.rules.claim_after, kind, seat, at=at)
        except Refused as err:
            raise kernel.illegal(err.rule, err.reason, phase=self.phase.value, action=kind) from None
        start = len(self.events)
        event = SeatAway(seat, at) if leaving else SeatBack(seat, at)
        self._fire("presence", event, [event])
        self.seen.record(kind, seat, at)
        return self._step_done(start)

    # --- dealer steps ----------------------------------------------------------------------------

    def _fire(self, trigger: str, arg: object, events: Sequence[MatchEvent]) -> None:
        """Move the machine by ``trigger`` (its guards see ``arg``); it commits ``events`` on the way."""
        self.executor.fire(self, trigger, arg, events)

    def _record(self, arg: object, events: Sequence[MatchEvent]) -> None:
        """Commit a step's events (the machine's callback, before it leaves ``self.phase``)."""
        self.events.extend(events)

    def _take_step(self, trigger: str) -> None:
        """On entering ``rotate`` (the machine's callback): deal the next hand, unless a scripted game has no
        deck order for it yet (it then waits for ``add_deck``). Rule: MATCH-7."""
        assert trigger == "rotate"
        deck = self.chance.deck()
        if deck is not None:
            self._next_hand(deck)

    def _between_hands(self) -> None:
        """The hand's result is recorded; the ``game_won`` guard decides whether the game is over."""
        assert self.hand is not None and self.hand.result is not None
        result = self.hand.result
        self.results.append(result)
        self.tally.add(result)
        self._fire("end_hand", result, [HandEnded(self.number, result, self.standings().running)])
        if self.phase is MatchPhase.GAME_OVER:
            st = self.standings()
            assert st.winner is not None
            self.events.append(GameOver(st.winner, st.totals))

    def _next_hand(self, deck: tuple[Card, ...]) -> None:
        dealer, seats, sitter = self._next_roles()
        self._start_hand("rotate", dealer, seats, sitter, deck)

    def _next_roles(self) -> tuple[int, tuple[int, int], int | None]:
        """Who deals and plays the next hand. Rules: MATCH-4, MATCH-5, THREE-4, THREE-5."""
        assert self.results
        return next_roles(self.rules, self.dealer, self.seats, self.sitter, self.results[-1].winner)

    def _start_hand(
        self,
        trigger: str,
        dealer: int,
        seats: tuple[int, int],
        sitter: int | None,
        deck: tuple[Card, ...] | None = None,
    ) -> None:
        if deck is None:
            deck = self.chance.deck()
            if deck is None:
                raise InvalidDeal("MATCH-7", "the script has no deck order for the first deal")
        hand = Hand.from_deck(
            self.rules, deck, dealer=dealer, seats=seats, executor=self.executor.name, history=self.history
        )
        number = self.number + 1
        self._fire(trigger, None, [HandStarted(number, dealer, seats, sitter), *hand.events])
        self.number, self.dealer, self.seats, self.sitter, self.hand = number, dealer, seats, sitter, hand


_ACTION_KINDS = frozenset((*ACTION_TYPES, Advise))
#: What ``kernel.verify_end`` calls each ending a seat asks for.
_ENDING_KIND: dict[type, str] = {Resign: "resign", Abort: "abort", Claim: "claim"}


def next_roles(
    rules: RuleSet, dealer: int, seats: tuple[int, int], sitter: int | None, winner: int | None
) -> tuple[int, tuple[int, int], int | None]:
    """The next hand's dealer, seats and sitter after a hand won by ``winner`` (None: no winner), from this
    hand's roles: a question of public facts only (a seat's view checks it too, LOG-16).
    Rules: MATCH-4, MATCH-5, THREE-4, THREE-5."""
    if sitter is None:
        if winner is None:
            return dealer, seats, None  # MATCH-5: the same dealer deals again
        policy = rules.next_dealer
        if policy is NextDealer.WINNER:
            return winner, seats, None
        if policy is NextDealer.LOSER:
            return other_seat(seats, winner), seats, None
        return other_seat(seats, dealer), seats, None
    box, captain = dealer, other_seat(seats, dealer)
    if winner is None:
        if rules.three_handed_dead_hand is DeadHandRoles.REPLAY:
            return box, seats, sitter
        winner = box  # BOX_WINS: rotate as if the box had won
    loser = captain if winner == box else box
    # THREE-4: next box = the winner, next captain = this hand's sitter, next sitter = the loser.
    return winner, _pair(winner, sitter), loser


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def ending_event(action: Ending) -> Resigned | Aborted | Claimed:
    """The event a seat's resignation, abort or claim makes (END-1, END-2, END-4): what the game records, and what a
    log holding the ending writes (``replay.codec.event_record``)."""
    if isinstance(action, Resign):
        return Resigned(action.seat)
    if isinstance(action, Abort):
        return Aborted(action.seat)
    return Claimed(action.seat, action.absent, action.at)
