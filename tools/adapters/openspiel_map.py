"""OpenSpiel's ``gin_rummy`` in Knock's notation: its cards, meld ids and actions, both ways.

OpenSpiel (``open_spiel/games/gin_rummy``, PyPI ``open_spiel``) plays one hand of two-player Gin. Its numbers:

- A card is ``suit * 13 + rank - 1`` with the suits in the order spades, clubs, diamonds, hearts (``scdh``)
  and ranks ace = 1 … king = 13: ``As`` is 0, ``Ks`` 12, ``Ac`` 13, ``Kh`` 51. (Knock's card code orders
  the suits ``c d h s``, log-format.md, so the two numbers of a card differ.)
- Actions 0–51 are a card: a discard, a knock's discard, or a layoff. 52 draws the upcard (the first
  upcard, or the top of the discard pile), 53 draws from the stock, 54 passes (the first upcard, the
  wall; it also ends the knocker's spread, the defender's layoffs and then his melds), 55 knocks (in the
  discard phase; at the wall it takes the last discard and knocks at once), and ``56 + id`` lays meld
  ``id``.
- Meld ids 0–184: 65 sets, five a rank from the ace up (the four sets of three by the suit each lacks, in
  ``scdh`` order, then the set of four), then 120 runs of three, four and five cards, by length, suit
  (``scdh``) and lowest rank. A longer run is laid as pieces of three to five cards.
- Player 0 acts first on the upcard: he is Knock's non-dealer ``p0``, and player 1 the dealer ``p1``.
  The deal's chance outcomes give player 0 the first ten cards, player 1 the next ten, then the upcard;
  every later chance outcome is the card a stock draw takes.

``HistoryReader`` turns OpenSpiel's moves into Knock's actions in the case notation (spec/conformance.md);
``ActionWriter`` turns Knock's actions into OpenSpiel action ids, and ``play_on_openspiel`` plays a deal and
Knock's actions on an OpenSpiel state. None of them imports ``pyspiel`` (an optional extra, ``peers``): the
caller passes the game (``pyspiel.load_game("gin_rummy", ...)``). The converter ``tools/research/openspiel_cases.py``
and a conformance adapter share them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.actions import (
    Advise,
    BigGin,
    DeclineWall,
    Discard,
    DrawDiscard,
    DrawStock,
    Knock,
    LayOff,
    MatchAction,
    PassUpcard,
    Spread,
    TakeUpcard,
)
from engine.cards import SUITS, Card, Suit, to_mask
from engine.melds import Meld, MeldKind, best_arrangement

#: OpenSpiel's suit order: its card number is ``OS_SUITS.index(suit) * 13 + rank - 1``.
OS_SUITS = "scdh"
DRAW_UPCARD = 52
DRAW_STOCK = 53
PASS = 54
KNOCK = 55
MELD_BASE = 56
NUM_MELDS = 185
#: OpenSpiel's phases, by the names of ``pyspiel.gin_rummy.Phase`` (``state.current_phase().name``).
PHASES = ("DEAL", "FIRST_UPCARD", "DRAW", "DISCARD", "KNOCK", "LAYOFF", "WALL", "GAME_OVER")


class NotExpressible(ValueError):
    """An action or a rule one side has and the other cannot say (big gin, advice, a run laid as one meld of
    more than five cards in one OpenSpiel action)."""


class RefusedByOpenSpiel(ValueError):
    """OpenSpiel does not offer an action: ``index`` is the Knock action (from 0), ``ids`` its OpenSpiel ids."""

    def __init__(self, index: int, action: MatchAction, ids: Sequence[int]) -> None:
        super().__init__(f"OpenSpiel refuses action {index + 1} ({action}): ids {list(ids)}")
        self.index, self.action, self.ids = index, action, tuple(ids)


# --- cards and melds --------------------------------------------------------------------------------


def card_from_openspiel(number: int) -> Card:
    """The card OpenSpiel numbers ``number`` (0–51).

    >>> card_from_openspiel(0), card_from_openspiel(13), card_from_openspiel(51)
    (Card.parse('As'), Card.parse('Ac'), Card.parse('Kh'))
    """
    if not 0 <= number < 52:
        raise ValueError(f"OpenSpiel numbers cards 0..51, not {number!r}")
    return Card(number % 13 + 1, Suit(SUITS.index(OS_SUITS[number // 13])))


def card_to_openspiel(card: Card) -> int:
    """OpenSpiel's number of a card.

    >>> card_to_openspiel(Card.parse("Kh"))
    51
    """
    return OS_SUITS.index(card.suit.letter) * 13 + card.rank - 1


def _os_suit(card: Card) -> int:
    return OS_SUITS.index(card.suit.letter)


def _meld_id(meld: Meld) -> int:
    """OpenSpiel's ``MeldToInt`` for a set or a run of three to five cards."""
    low = meld.cards[0] if meld.kind is MeldKind.RUN else min(meld.cards, key=lambda c: c.rank)
    if meld.kind is MeldKind.SET:
        if len(meld.cards) == 4:
            return (low.rank - 1) * 5 + 4
        missing = next(s for s in range(4) if s not in {_os_suit(c) for c in meld.cards})
        return (low.rank - 1) * 5 + missing
    size = len(meld.cards)
    if size == 3:
        return 65 + _os_suit(low) * 11 + low.rank - 1
    if size == 4:
        return 65 + 44 + _os_suit(low) * 10 + low.rank - 1
    if size == 5:
        return 65 + 44 + 40 + _os_suit(low) * 9 + low.rank - 1
    raise NotExpressible(f"OpenSpiel lays a run of {size} cards as pieces, not as one meld: {meld}")


def _all_melds() -> tuple[Meld, ...]:
    melds = [Meld.of(Card(rank, s) for s in suits) for rank in range(1, 14) for n in (3, 4)
             for suits in itertools.combinations(Suit, n)]  # fmt: skip
    melds += [Meld.of(Card(r, s) for r in range(low, low + n)) for n in (3, 4, 5) for s in Suit
              for low in range(1, 15 - n)]  # fmt: skip
    return tuple(sorted(melds, key=_meld_id))


#: Every meld OpenSpiel can lay, by its id.
MELDS: tuple[Meld, ...] = _all_melds()


def meld_from_openspiel(meld_id: int) -> Meld:
    """The meld of OpenSpiel's meld id (0–184; the action is ``56 + id``).

    >>> meld_from_openspiel(0), meld_from_openspiel(4), meld_from_openspiel(65)
    (Meld.parse('Ac-Ad-Ah'), Meld.parse('Ac-Ad-Ah-As'), Meld.parse('As-2s-3s'))
    """
    if not 0 <= meld_id < NUM_MELDS:
        raise ValueError(f"OpenSpiel's meld ids are 0..{NUM_MELDS - 1}, not {meld_id!r}")
    return MELDS[meld_id]


def meld_to_openspiel(meld: Meld) -> tuple[int, ...]:
    """OpenSpiel's meld ids for one of Knock's melds: one id, or a long run's pieces of three to five cards.

    >>> meld_to_openspiel(Meld.parse("As-2s-3s")), meld_to_openspiel(Meld.parse("As-2s-3s-4s-5s-6s-7s"))
    ((65,), (109, 69))
    """
    if meld.kind is MeldKind.SET or len(meld.cards) <= 5:
        return (_meld_id(meld),)
    ids: list[int] = []
    rest = meld.cards
    while len(rest) > 5:
        take = 5 if len(rest) - 5 >= 3 else len(rest) - 3
        ids.append(_meld_id(Meld(MeldKind.RUN, rest[:take])))
        rest = rest[take:]
    return (*ids, _meld_id(Meld(MeldKind.RUN, rest)))


def assign_layoffs(spread: Sequence[Meld], cards: Iterable[Card]) -> tuple[tuple[Card, Meld], ...] | None:
    """A target meld of the spread for every laid-off card, so that each meld with its cards is one meld
    (LAY-3, LAY-4: chains at both ends of a run, the fourth card of a set); None if there is none.

    OpenSpiel records a layoff as the card alone; Knock's layoff names its target. Where several
    assignments place every card, the first in the spread's order is taken (each places the same cards).
    """
    laid = sorted(cards)
    for targets in itertools.product(range(len(spread)), repeat=len(laid)):
        groups: dict[int, list[Card]] = {}
        for card, t in zip(laid, targets, strict=True):
            groups.setdefault(t, []).append(card)
        if all(spread[t].fits(extra) for t, extra in groups.items()):
            return tuple((card, spread[t]) for card, t in zip(laid, targets, strict=True))
    return None


def layoff_order(layoffs: Iterable[tuple[Card, Meld]]) -> tuple[Card, ...]:
    """The layoffs in an order OpenSpiel can lay them one by one: onto each run, nearest card first."""

    def distance(item: tuple[Card, Meld]) -> tuple[int, int]:
        card, meld = item
        if meld.kind is MeldKind.SET:
            return (0, card.index)
        low, high = meld.cards[0].rank, meld.cards[-1].rank
        return (low - card.rank if card.rank < low else card.rank - high, card.index)

    return tuple(card for card, _ in sorted(layoffs, key=distance))


# --- OpenSpiel history -> Knock actions ----------------------------------------------------------------


@dataclass
class HistoryReader:
    """Reads an OpenSpiel ``gin_rummy`` game move by move and writes it in Knock's case notation.

    Feed it every move in order: ``chance(card_number)`` for a chance outcome, ``move(phase, player,
    action)`` for a player's (``phase`` by its name, as ``PHASES``). ``hands``, ``upcard`` and ``stock``
    are then the deal (each hand in the order dealt, the stock as far as it was drawn, top first), and
    ``actions`` Knock's actions (``"p0 pass"``, ``"p1 layoff 2c-2d-2h 7c>4c-5c-6c"``, …). A spread or a
    defence is written when OpenSpiel's pass ends it; after a gin spread Knock's defender has no action
    (his best arrangement is scored, SCORE-1), and his melds are kept in ``defence_after_gin``.
    """

    hands: tuple[list[Card], list[Card]] = field(default_factory=lambda: ([], []))
    upcard: Card | None = None
    stock: list[Card] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    knocker: int | None = None
    spread: list[Meld] = field(default_factory=list)
    layoffs: list[Card] = field(default_factory=list)
    defence: list[Meld] = field(default_factory=list)
    defence_after_gin: list[Meld] = field(default_factory=list)
    held: tuple[set[Card], set[Card]] = field(default_factory=lambda: (set(), set()))
    pile: list[Card] = field(default_factory=list)
    _drawer: int = -1
    _knock_pending: bool = False
    _layoffs_done: bool = False

    def chance(self, number: int) -> None:
        """A chance outcome: a card dealt, the upcard, or the card a stock draw takes."""
        card = card_from_openspiel(number)
        if len(self.hands[0]) < 10:
            self.hands[0].append(card)
            self.held[0].add(card)
        elif len(self.hands[1]) < 10:
            self.hands[1].append(card)
            self.held[1].add(card)
        elif self.upcard is None:
            self.upcard = card
            self.pile.append(card)
        else:
            self.stock.append(card)
            self.held[self._drawer].add(card)

    def move(self, phase: str, player: int, action: int) -> None:
        """A player's move in OpenSpiel's ``phase``."""
        say = self.actions.append
        p = f"p{player}"
        if phase in ("FIRST_UPCARD", "DRAW"):
            if action == PASS:
                say(f"{p} pass")
            elif action == DRAW_STOCK:
                self._drawer = player
                say(f"{p} draw")
            elif action == DRAW_UPCARD:
                self.held[player].add(self.pile.pop())
                say(f"{p} {'take' if phase == 'FIRST_UPCARD' else 'pickup'}")
            else:
                raise ValueError(f"OpenSpiel action {action} in phase {phase}")
        elif phase == "DISCARD":
            if action == KNOCK:
                self.knocker, self._knock_pending = player, True
            else:
                card = card_from_openspiel(action)
                self.held[player].remove(card)
                self.pile.append(card)
                say(f"{p} discard {card}")
        elif phase == "WALL":
            if action == KNOCK:  # takes the last discard and knocks at once
                self.held[player].add(self.pile.pop())
                self.knocker, self._knock_pending = player, True
                say(f"{p} pickup")
            elif action == PASS:
                say(f"{p} decline")
            else:
                raise ValueError(f"OpenSpiel action {action} in phase WALL")
        elif phase == "KNOCK":
            self._knock_move(p, player, action)
        elif phase == "LAYOFF":
            self._layoff_move(p, player, action)
        else:
            raise ValueError(f"no player moves in OpenSpiel's phase {phase}")

    @property
    def gin(self) -> bool:
        """Whether the knocker's spread melds every card he kept (KNOCK-5)."""
        if self.knocker is None:
            return False
        melded = {c for m in self.spread for c in m.cards}
        return not self.held[self.knocker] - melded

    def _knock_move(self, p: str, player: int, action: int) -> None:
        if self._knock_pending:
            card = card_from_openspiel(action)
            self.held[player].remove(card)
            self._knock_pending = False
            self.actions.append(f"{p} knock {card}")
        elif action == PASS:
            self.actions.append(f"{p} spread {' '.join(map(str, self.spread))}".rstrip())
            self._layoffs_done = self.gin  # OpenSpiel: no layoffs onto gin
        else:
            self.spread.append(meld_from_openspiel(action - MELD_BASE))

    def _layoff_move(self, p: str, player: int, action: int) -> None:
        if not self._layoffs_done:
            if action == PASS:
                self._layoffs_done = True
            else:
                self.layoffs.append(card_from_openspiel(action))
        elif action == PASS:
            if self.gin:
                return  # Knock scores the defender's best arrangement after gin: no action (SCORE-1)
            targets = assign_layoffs(self.spread, self.layoffs)
            if targets is None:  # OpenSpiel placed cards no assignment places: write them onto the first meld
                targets = tuple((c, self.spread[0]) for c in self.layoffs)
            parts = [*map(str, self.defence), *(f"{c}>{m}" for c, m in targets)]
            self.actions.append(f"{p} layoff {' '.join(parts)}".rstrip())
        else:
            (self.defence_after_gin if self.gin else self.defence).append(meld_from_openspiel(action - MELD_BASE))


# --- OpenSpiel states ----------------------------------------------------------------------------------


def best_melds(state: Any) -> list[int]:
    """The meld actions, ending with the pass, that leave the player to act on an OpenSpiel state (the knocker
    or the defender, laying his melds) the least deadwood, as OpenSpiel counts it: a search over its own
    legal meld actions, each collection once."""
    player = state.current_player()
    best: tuple[int, list[int]] = (10**6, [PASS])

    def walk(s: Any, path: list[int], low: int) -> None:
        nonlocal best
        legal = s.legal_actions()
        if PASS in legal:
            done = s.clone()
            done.apply_action(PASS)
            dw = done.deadwood()[player]
            if dw < best[0]:
                best = (dw, [*path, PASS])
        for a in legal:
            if a != PASS and a > low:  # melds in ascending id order: each collection once
                child = s.clone()
                child.apply_action(a)
                walk(child, [*path, a], a)

    walk(state, [], -1)
    return best[1]


# --- Knock actions -> OpenSpiel action ids ---------------------------------------------------------------


class ActionWriter:
    """Writes Knock's actions as OpenSpiel action ids, one hand at a time (it remembers a pickup at the wall,
    which OpenSpiel folds into its knock).

    >>> w = ActionWriter()
    >>> w.write(TakeUpcard(0)), w.write(Knock(0, Card.parse("Kh"))), w.write(Spread(0, (Meld.parse("As-2s-3s"),)))
    ([52], [55, 51], [121, 54])
    """

    def __init__(self) -> None:
        self._wall_taken = False

    def write(self, action: MatchAction, *, at_wall: bool = False, gin: bool = False) -> list[int]:
        """The OpenSpiel actions for one Knock action. ``at_wall``: a ``DrawDiscard`` takes the last discard
        under DEAD-2 (OpenSpiel's wall); ``gin``: a ``LayOff`` answers a gin spread (OpenSpiel has no layoff
        step then).

        Raises:
            NotExpressible: big gin and advice, which OpenSpiel does not have.
        """
        match action:
            case PassUpcard() | DeclineWall():
                return [PASS]
            case TakeUpcard():
                return [DRAW_UPCARD]
            case DrawStock():
                return [DRAW_STOCK]
            case DrawDiscard():
                if at_wall:
                    self._wall_taken = True
                    return [KNOCK]
                return [DRAW_UPCARD]
            case Discard(card=card):
                return [card_to_openspiel(card)]
            case Knock(card=card):
                taken, self._wall_taken = self._wall_taken, False
                return [card_to_openspiel(card)] if taken else [KNOCK, card_to_openspiel(card)]
            case Spread(melds=melds):
                return [*self._melds(melds), PASS]
            case LayOff(melds=melds, layoffs=layoffs):
                cards = layoff_order((lo.card, lo.onto) for lo in layoffs)
                laid = [] if gin else [*map(card_to_openspiel, cards), PASS]
                return [*laid, *self._melds(melds), PASS]
            case BigGin():
                raise NotExpressible("OpenSpiel has no big gin (KNOCK-6)")
            case Advise():
                raise NotExpressible("OpenSpiel has no three-handed play or advice (THREE-7)")
        raise NotExpressible(f"no OpenSpiel action for {action!r}")

    @staticmethod
    def _melds(melds: Iterable[Meld]) -> list[int]:
        return [MELD_BASE + i for m in melds for i in meld_to_openspiel(m)]


# --- playing Knock's actions on OpenSpiel --------------------------------------------------------------------


def play_on_openspiel(
    game: Any, hands: tuple[Sequence[Card], Sequence[Card]], upcard: Card, stock: Sequence[Card],
    actions: Iterable[MatchAction],
) -> Any:  # fmt: skip
    """Deal (``hands`` of p0 and p1, the upcard, the stock top first) and play Knock's actions on a new state
    of ``game`` (OpenSpiel's ``gin_rummy``), and return the state. After a gin spread, where Knock's defender
    has no action, the defender lays his best melds (LAY-2), so the state ends as Knock scores it.

    Raises:
        RefusedByOpenSpiel: OpenSpiel does not offer one of the actions (nothing after it is played).
        NotExpressible: an action OpenSpiel does not have (big gin, advice).
    """
    state = game.new_initial_state()
    for card in (*hands[0], *hands[1], upcard):
        state.apply_action(card_to_openspiel(card))
    draws = iter(stock)
    writer = ActionWriter()

    def apply(ids: Sequence[int], index: int, action: MatchAction) -> None:
        for a in ids:
            if state.is_terminal() or a not in state.legal_actions():
                raise RefusedByOpenSpiel(index, action, ids)
            state.apply_action(a)
            if state.is_chance_node():
                state.apply_action(card_to_openspiel(next(draws)))

    for index, action in enumerate(actions):
        phase = state.current_phase().name if not state.is_terminal() else "GAME_OVER"
        gin = phase == "LAYOFF" and bool(state.finished_layoffs())
        apply(writer.write(action, at_wall=phase == "WALL", gin=gin), index, action)
        if isinstance(action, Spread) and not state.is_terminal() and state.finished_layoffs():
            defender = state.current_player()
            held = to_mask(card_from_openspiel(c) for c in state.hands()[defender])
            apply(writer.write(LayOff(defender, best_arrangement(held).melds), gin=True), index, action)
    return state
