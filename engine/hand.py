"""One hand of Gin between two seats — standard, Oklahoma, or a three-handed hand (the box against the captain,
the sitter advising): the model driven through the shared state machine.

``seats`` are the two seats dealt in (0 and 1, or any two of 0–2 in three-handed play); ``dealer`` is one of them
and the other is the non-dealer. Every action goes through
``check`` (one validation path: the rules kernel, ``engine.kernel``, decides on the hand's facts, and ``check``
computes the events without touching state), then the machine
fires the action's trigger: its guards pick the row, the events are committed, and entering ``score`` or
``dead_hand`` takes the dealer's step at once (``engine.fsm``). Which executor runs the machine is the
hand's own choice (``executor=``, default ``"library"``: ``transitions`` itself).
A rejected action raises ``IllegalAction`` and leaves the hand exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, assert_never

from engine import describe, fsm, kernel, legal
from engine.actions import (
    ACTION_TYPES,
    Action,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    PassUpcard,
    Spread,
    TakeUpcard,
    parse_action,
)
from engine.cards import DECK, Card, Suit, cards, from_mask, shuffled_deck, to_mask
from engine.deal import check_deal, check_seats
from engine.errors import IllegalAction, InvalidDeal, InvalidMeld
from engine.events import (
    BigGinDeclared,
    Dealt,
    DefenceLaid,
    Discarded,
    DrewDiscard,
    DrewStock,
    Event,
    HandDead,
    HandScored,
    Knocked,
    SpreadLaid,
    UpcardPassed,
    UpcardTaken,
    WallDeclined,
)
from engine.facts import Holding, Step, advance, start
from engine.fsm import ExecutorName, Phase
from engine.kernel import Refused
from engine.melds import deadwood
from engine.rules import RuleSet
from engine.scoring import HandResult, dead_result, score_hand
from engine.seats import other_seat
from engine.visibility import observe_hand

if TYPE_CHECKING:
    from engine.visibility import Observation

HAND_SIZE = 10  #: the standard hand; a rule set's ``hand_size`` may reduce it (RULES-3)


_ACTION_KINDS = frozenset(ACTION_TYPES)
#: The triggers each phase in which a player acts takes (no entry: nobody is to act).
_ACCEPTS = {phase: fsm.TRIGGERS[phase] for phase in fsm.PLAYER_PHASES}
_SEATS = range(3)
# The commonest events of each seat, made once: events are frozen values (as actions are, engine.legal).
_DISCARDED = tuple(tuple(Discarded(s, c) for c in DECK) for s in _SEATS)
_DREW_STOCK = tuple(tuple(DrewStock(s, c) for c in DECK) for s in _SEATS)
_DREW_DISCARD = tuple(tuple(DrewDiscard(s, c) for c in DECK) for s in _SEATS)
_PASS, _TAKE, _TAKE_LAST, _DRAW = Step.PASS, Step.TAKE, Step.TAKE_LAST, Step.DRAW  # read on every step: globals
_DISCARD, _KNOCK, _BIG_GIN, _SPREAD = Step.DISCARD, Step.KNOCK, Step.BIG_GIN, Step.SPREAD


def multiplier_for(rules: RuleSet, upcard: Card) -> int:
    """The hand's score multiplier, fixed at the deal: 2 when ``spades_double`` is on and the first upcard is a
    spade, else 1 (a dead hand's result carries 1). Rule: OKLA-4. The one home of this quantity: the hand, a view's
    reader and the environments' encoding all ask it."""
    return 2 if rules.spades_double and upcard.suit is Suit.SPADES else 1


class Hand:
    """A hand of Gin. Build it with ``Hand.deal`` (seeded), ``Hand.from_deck`` or ``Hand.from_deal``.

    Each takes ``executor="library"`` (the default: ``transitions`` runs every step) or ``"compiled"`` (the
    same machine compiled into a lookup; the performance mode). Copies keep the hand's executor.

    >>> h = Hand.deal(seed=7)
    >>> h.phase, h.to_act
    (<Phase.UPCARD_OFFER: 'upcard_offer'>, 1)
    """

    __slots__ = (
        "big_gin",
        "dead_reason",
        "dealer",
        "defence",
        "discards",
        "events",
        "executor",
        "hands",
        "history",
        "knock_card",
        "knock_limit",
        "knock_taken",
        "knocker",
        "known",
        "multiplier",
        "must_knock",
        "phase",
        "pickups",
        "result",
        "rules",
        "seats",
        "spread",
        "stock",
        "stock_only",
        "taken",
        "turn",
        "upcard",
    )  # fmt: skip

    rules: RuleSet
    seats: tuple[int, int]
    dealer: int
    phase: Phase
    turn: int
    hands: list[int]
    known: list[int]
    stock: list[Card]
    discards: list[Card]
    upcard: Card
    knock_limit: int
    multiplier: int
    taken: Card | None
    stock_only: bool
    must_knock: bool
    pickups: int
    knocker: int | None
    knock_card: Card | None
    knock_taken: bool
    big_gin: bool
    spread: SpreadLaid | None
    defence: DefenceLaid | None
    result: HandResult | None
    dead_reason: str
    events: list[Event]
    history: bool
    executor: fsm.Executor

    # --- construction ------------------------------------------------------------------------

    def __init__(
        self, rules: RuleSet, dealt: Dealt, *, executor: ExecutorName = "library", history: bool = True
    ) -> None:
        """Start a hand from its ``Dealt`` event (prefer the class methods).

        ``history=False``: ``events`` holds only the latest step's events (the deal, or the last ``apply``'s),
        so that a hand that never ends (DEAD-3) keeps the same memory (``engine.match.Match``'s option).
        """
        check_deal(dealt, rules)
        self.executor = fsm.executor("hand", executor)
        self.rules = rules
        self.seats = dealt.seats
        self.dealer = dealt.dealer
        self.phase = fsm.INITIAL
        self.hands = [0] * (max(dealt.seats) + 1)
        self.known = [0] * (max(dealt.seats) + 1)
        self.stock = []
        self.discards = []
        self.upcard = dealt.upcard
        self.multiplier = 1
        self.knock_card = None
        self.knock_taken = False
        self.spread = None
        self.defence = None
        self.result = None
        self.dead_reason = ""
        self.events = []
        self.history = history
        start(self, dealt.knock_limit)  # the counters and flags the rules read (engine.facts)
        self._fire("deal", dealt, [dealt])

    @classmethod
    def deal(
        cls,
        rules: RuleSet | None = None,
        *,
        seed: int,
        dealer: int = 0,
        seats: tuple[int, int] = (0, 1),
        executor: ExecutorName = "library",
    ) -> Hand:
        """A hand dealt from a seeded shuffle of the rule set's deck. Rules: DEAL-2, DEAL-3, RULES-3."""
        rules = rules or RuleSet()
        return cls.from_deck(rules, shuffled_deck(seed, rules.deck), dealer=dealer, seats=seats, executor=executor)

    @classmethod
    def from_deck(
        cls,
        rules: RuleSet | None,
        deck: Sequence[Card],
        *,
        dealer: int = 0,
        seats: tuple[int, int] = (0, 1),
        executor: ExecutorName = "library",
        history: bool = True,
    ) -> Hand:
        """A hand dealt from a deck order (first card dealt first). Rules: DEAL-3, RULES-3.

        ``seats`` are the two players' seat numbers (ascending; a three-handed game deals to two of three).
        The deck is the rule set's: 52 cards, or a reduced deck dealt ``hand_size`` cards each.
        """
        rules = rules or RuleSet()
        full = rules.deck
        held = set(deck)  # 52 distinct cards are the standard deck; a reduced deck needs a look at which
        if len(deck) != len(full) or len(held) != len(full) or (rules.reduced and not held.issubset(full)):
            what = "the 52 cards" if len(full) == 52 else f"the {len(full)} cards of the rule set's reduced deck"
            raise InvalidDeal("DEAL-4", f"a deck order must hold each of {what} once")
        check_seats(seats, dealer)
        size = rules.hand_size
        first, second = deck[0 : 2 * size : 2], deck[1 : 2 * size : 2]  # non-dealer first
        hands = (tuple(second), tuple(first)) if dealer == seats[0] else (tuple(first), tuple(second))
        upcard = deck[2 * size]
        stock = tuple(deck[2 * size + 1 :])
        dealt = Dealt(dealer, hands, upcard, stock, kernel.knock_limit_for(rules, upcard), seats)
        return cls(rules, dealt, executor=executor, history=history)

    @classmethod
    def from_deal(
        cls,
        rules: RuleSet | None = None,
        *,
        dealer: int = 0,
        hands: tuple[str | Sequence[Card], str | Sequence[Card]],
        upcard: str | Card,
        stock: str | Sequence[Card],
        seats: tuple[int, int] = (0, 1),
        executor: ExecutorName = "library",
    ) -> Hand:
        """A prearranged deal: each seat's cards, the upcard and the stock (top first). Rule: DEAL-4.

        >>> h = Hand.from_deal(hands=("As 2s 3s 4s 5s 6s 7s 8s 9s Ts", "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th"),
        ...     upcard="Js", stock="Jh Qs Qh Ks Kh " + " ".join(f"{r}{s}" for s in "cd" for r in "A23456789TJQK"))
        >>> h.knock_limit, len(h.stock)
        (10, 31)
        """
        rules = rules or RuleSet()
        hs = tuple(cards(h) if isinstance(h, str) else tuple(h) for h in hands)
        up = Card.parse(upcard) if isinstance(upcard, str) else upcard
        st = cards(stock) if isinstance(stock, str) else tuple(stock)
        check_seats(seats, dealer)
        return cls(
            rules, Dealt(dealer, (hs[0], hs[1]), up, st, kernel.knock_limit_for(rules, up), seats), executor=executor
        )

    # --- public state --------------------------------------------------------------------------

    def other(self, seat: int) -> int:
        """The other seat of this hand."""
        return other_seat(self.seats, seat)

    @property
    def to_act(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        return self.turn if self.phase in fsm.PLAYER_PHASES else None

    @property
    def is_over(self) -> bool:
        return self.phase is fsm.TERMINAL

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        """A seat's cards, sorted (the engine's view: for referees and tests, not for players)."""
        return from_mask(self.hands[seat])

    def observation(self, seat: int) -> Observation:
        """Exactly what ``seat`` may see (``engine.visibility`` decides). Rules: VIS-1, VIS-2."""
        return observe_hand(self, seat)

    def __str__(self) -> str:
        return describe.hand_text(self)

    def __repr__(self) -> str:
        return describe.hand_repr(self)

    def state_key(self) -> tuple[object, ...]:
        """Everything that defines the hand's state, as one comparable value."""
        return (
            self.rules, self.seats, self.dealer, self.phase, self.turn, tuple(self.hands), tuple(self.known),
            tuple(self.stock), tuple(self.discards), self.upcard, self.knock_limit, self.multiplier, self.taken,
            self.stock_only, self.must_knock, self.pickups, self.knocker, self.knock_card, self.knock_taken,
            self.big_gin, self.spread, self.defence, self.result, self.dead_reason, tuple(self.events),
        )  # fmt: skip

    def copy(self) -> Hand:
        """An independent copy of the live hand."""
        new = object.__new__(Hand)
        for name in Hand.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = list(self.hands)
        new.known = list(self.known)
        new.stock = list(self.stock)
        new.discards = list(self.discards)
        new.events = list(self.events)
        return new

    # --- the one validation path ---------------------------------------------------------------

    def check(self, action: Action) -> list[Event]:
        """The events ``action`` would produce, without changing anything. The rules kernel decides.

        Raises:
            IllegalAction: naming the rule the action breaks.
        """
        try:
            kernel.verify_turn(_ACTION_KINDS, _ACCEPTS.get(self.phase), self.turn, action)
            return self._events_for(action)
        except (InvalidMeld, Refused) as err:
            raise kernel.illegal(err.rule, err.reason, phase=self.phase.value, action=action) from None

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now (the same path as ``apply``)."""
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    def apply(self, action: Action) -> list[Event]:
        """Validate and perform ``action``; returns its events, then any dealer steps that follow.

        Raises:
            IllegalAction: the action is not legal now; nothing changed.
        """
        events = self.check(action)
        start = len(self.events)
        self._fire(action.trigger, action, events)
        if len(self.events) - start != len(events):  # the dealer took steps of his own (score, dead hand)
            events = self.events[start:]
        if not self.history:
            del self.events[:start]
        return events

    def play(self, *texts: str) -> list[Event]:
        """Apply actions written as text (``"p0 discard Kh"``); for tests, tools and doctests."""
        out: list[Event] = []
        for t in texts:
            out.extend(self.apply(parse_action(t, self.to_act)))
        return out

    def _events_for(self, action: Action) -> list[Event]:
        """The events of an action of the seat to act, once the kernel accepts it (``check``)."""
        seat = action.seat
        match action:
            case Discard(card=card):
                kernel.verify_discard(self, seat, card)
                return [_DISCARDED[seat][card.index]]
            case Knock(card=card):
                kernel.verify_knock(self, seat, card)
                return [Knocked(seat, card)]
            case PassUpcard():
                return [UpcardPassed(seat)]
            case TakeUpcard():
                return [UpcardTaken(seat, self.discards[-1])]
            case DrawStock():
                return [_DREW_STOCK[seat][self.stock[-1].index]]
            case DrawDiscard():
                top = self.discards[-1]
                kernel.verify_pickup(self, seat, top, wall=self.phase is Phase.WALL)
                return [_DREW_DISCARD[seat][top.index]]
            case BigGin():
                kernel.verify_big_gin(self, seat)
                return [BigGinDeclared(seat)]
            case DeclineWall():
                return [WallDeclined(seat)]
            case Spread():
                arr = kernel.verify_spread(self, seat, action.melds)
                return [SpreadLaid(seat, arr.melds, arr.deadwood_cards)]
            case LayOff(layoffs=layoffs):
                assert self.spread is not None
                arr = kernel.verify_lay_off(self, seat, action, self.spread.melds, not self.spread.deadwood_cards)
                return [DefenceLaid(seat, arr.melds, layoffs, arr.deadwood_cards)]
            case _:
                assert_never(action)

    # --- the facts the rules kernel reads (engine.kernel.Facts) ----------------------------------

    @property
    def stock_size(self) -> int:
        """The cards left in the stock."""
        return len(self.stock)

    def holds(self, seat: int, card: Card) -> Holding:
        """Whether ``seat`` holds ``card`` (a full hand always knows)."""
        return Holding.YES if self.hands[seat] & card.bit else Holding.NO

    def mask_of(self, seat: int) -> int:
        """The cards ``seat`` holds, as a mask."""
        return self.hands[seat]

    # --- state change: the machine's steps and the facts they commit ----------------------------

    def _fire(self, trigger: str, arg: object, events: list[Event]) -> None:
        """Move the machine by ``trigger`` (its guards see ``arg``); it commits ``events`` on the way."""
        self.executor.fire(self, trigger, arg, events)

    def _record(self, arg: object, events: Sequence[Event]) -> None:
        """Commit a step's events (the machine's callback, before it leaves ``self.phase``)."""
        for e in events:
            self._commit(e)
        self.events.extend(events)

    def _take_step(self, trigger: str) -> None:
        """The dealer's step out of a phase only he leaves (the machine's callback on entering it)."""
        self._fire(trigger, None, _STEP_EVENTS[trigger](self))

    def _scored(self) -> list[Event]:
        assert self.spread is not None and self.knocker is not None
        knocker = self.knocker
        # After gin the defender melds what he can and may not lay off (LAY-2, SCORE-1).
        defender_dw = self.defence.deadwood if self.defence is not None else deadwood(self.hands[self.other(knocker)])
        result = score_hand(
            self.rules,
            knocker,
            self.spread.deadwood,
            defender_dw,
            big_gin=self.big_gin,
            multiplier=self.multiplier,
            seats=self.seats,
        )
        return [HandScored(result)]

    def _died(self) -> list[Event]:
        """Rules: DEAD-1, DEAD-2, DEAD-3. A declined last discard says why itself; a discard died by the
        stock or the pickup cap (the same computation as the ``hand_dies`` guard)."""
        reason = self.dead_reason or kernel.dead_reason(self)
        assert reason is not None
        return [HandDead(dead_result(reason, self.seats))]

    def _commit(self, event: Event) -> None:
        """Apply one event's facts (the machine has chosen the row; ``self.phase`` is still the source)."""
        match event:
            case Discarded(seat=seat, card=card):
                self.hands[seat] &= ~card.bit
                self.known[seat] &= ~card.bit
                self.discards.append(card)
                advance(self, _DISCARD, seat)
            case DrewStock(seat=seat, card=card):
                self.stock.pop()
                self.hands[seat] |= card.bit
                advance(self, _DRAW, seat)
            case UpcardPassed(seat=seat):
                advance(self, _PASS, seat)
            case UpcardTaken(seat=seat, card=card) | DrewDiscard(seat=seat, card=card):
                self.discards.pop()
                self.hands[seat] |= card.bit
                self.known[seat] |= card.bit
                advance(self, _TAKE_LAST if self.phase is Phase.WALL else _TAKE, seat, card)  # DEAD-2
            case Knocked(seat=seat, card=card):
                self.knock_taken = bool(self.known[seat] & card.bit)  # it came from the pile (VIS-1)
                self.hands[seat] &= ~card.bit
                self.known[seat] &= ~card.bit
                self.knock_card = card
                advance(self, _KNOCK, seat)
            case BigGinDeclared(seat=seat):
                advance(self, _BIG_GIN, seat)
            case WallDeclined():
                self.dead_reason = "last discard declined"
            case SpreadLaid(seat=seat):
                self.spread = event
                advance(self, _SPREAD, seat)
            case DefenceLaid():
                self.defence = event
            case Dealt():
                for seat, held in zip(event.seats, event.hands, strict=True):
                    self.hands[seat] = to_mask(held)
                self.stock = list(reversed(event.stock))
                self.discards = [event.upcard]
                self.multiplier = multiplier_for(self.rules, event.upcard)
            case HandScored(result=result):
                self.result = result
            case HandDead(result=result):
                self.result = result
                self.dead_reason = result.reason
            case _:
                assert_never(event)

    # --- legal actions ---------------------------------------------------------------------------

    legal_actions = legal.legal_actions  #: every legal action of the seat to act, sorted (``engine.legal``)

    # --- helpers for bots and referees (they use only what the acting seat knows) ----------------

    def knock_discards(self) -> tuple[Card, ...]:
        """The cards the seat to act may knock with now (sorted); none outside the discard phase.

        The cards of the ``Knock`` actions in ``legal_actions()``. Rules: KNOCK-2, MELD-5, TURN-4.

        >>> held = cards("As 2s 3s 4s 5h 6h 7h 9c 9d 9h"), cards("2c 3d 4c 6d 8s Tc Jd Qs Kh Ks")
        >>> top = cards("Qh Kc")  # the upcard, then the top of the stock
        >>> h = Hand.from_deal(dealer=1, hands=held, upcard=top[0], stock=[top[1], *(c for c in DECK if c not in
        ...     {*held[0], *held[1], *top})])
        >>> _ = h.play("p0 pass", "p1 pass", "p0 draw")
        >>> h.knock_discards(), h.gin_discards()
        ((Card.parse('As'), Card.parse('4s'), Card.parse('Kc')), (Card.parse('Kc'),))
        """
        return self._discards_within(self.knock_limit)

    def gin_discards(self) -> tuple[Card, ...]:
        """The cards the seat to act may knock with now for gin, leaving all ten melded (sorted); none outside
        the discard phase. Rules: KNOCK-5, MELD-5, TURN-4."""
        return self._discards_within(0)

    def _discards_within(self, limit: int) -> tuple[Card, ...]:
        return kernel.knock_discards(self, self.hands[self.turn], limit) if self.phase is Phase.DISCARD else ()

    def auto_spread(self) -> Spread:
        """The knocker's automatic spread (``engine.kernel.auto_spread``). Rule: KNOCK-4."""
        assert self.phase is Phase.KNOCK and self.knocker is not None
        return kernel.auto_spread(self.knocker, self.hands[self.knocker])

    def auto_defence(self) -> LayOff:
        """The defender's best answer to the spread on the table (``engine.kernel.auto_answer``). Rules: LAY-5,
        LAY-6."""
        assert self.phase is Phase.LAYOFF and self.spread is not None
        seat = self.other(self.spread.seat)
        return kernel.auto_answer(seat, self.spread.melds, self.hands[seat])


#: The events of each step the dealer takes by himself on entering a phase (which phases: ``fsm.HAND.automatic``).
_STEP_EVENTS: dict[str, Callable[[Hand], list[Event]]] = {"score": Hand._scored, "end_dead": Hand._died}
