#!/usr/bin/env python3
"""A conformance adapter (spec/conformance.md, CONF-6) for OpenSpiel's ``gin_rummy`` (``pyspiel``, extra ``peers``).

    knock conform run --adapter "python tools/adapters/openspiel_gin.py"

It loads ``gin_rummy`` with the game parameters nearest the case's rules, forces the case's deal through
OpenSpiel's chance nodes (each dealt card, the upcard and every stock draw is the chance outcome applied,
checked against OpenSpiel's legal outcomes), plays the case's actions as OpenSpiel action ids
(``openspiel_map``, beside it) and answers in case mode from OpenSpiel's own state: its legal actions, phase,
hands, returns and deadwood counts. OpenSpiel's player 0 is the non-dealer, who is offered the upcard first.

- **Parameters**: ``knock_card`` is the hand's knock limit (``knock_limit_value``; under ``knock_limit =
  upcard`` OpenSpiel's ``oklahoma``, whose ace gives 0 like ``oklahoma_ace = gin_only``; for an ace under
  ``oklahoma_ace = one`` the knock card 1), ``gin_bonus``, ``undercut_bonus`` and ``hand_size``.
- **Not expressible** (``unsupported``, CONF-6), with the reason: log cases, rule sets and dealer draws
  refused before play, three-handed play, games of several hands and what only a game has (its end, winner
  and totals; ``game_over = false`` in a case that is evidence for a MATCH or BONUS rule), reduced decks
  (``hand_size`` alone is OpenSpiel's), big gin and advice, a deal whose sizes are not OpenSpiel's,
  and, where a case depends on it, a rule OpenSpiel plays otherwise with no parameter to change it:
  discarding the card just taken is allowed (TURN-4 under ``may_discard_taken_card = false``), equal
  deadwood scores nothing (SCORE-3 under ``undercut_on_tie = true``), no doubling on a spade upcard
  (OKLA-4), no cap on pickups in a row (DEAD-3), its own ends of a hand (both players throwing back the
  discard they took; the 50th pickup), and an action after the hand's end. A layoff names no target meld
  in OpenSpiel, so a case whose assigned targets cannot take their cards while OpenSpiel places them
  elsewhere is not expressible either; a spread of cards that are no meld has no OpenSpiel action.
- **Rules Knock has and OpenSpiel plays its own way**: without the 50th-card rule (``wall_pickup_to_knock
  = false``) the player at OpenSpiel's wall passes, which is the dead hand of DEAD-1; after gin the defender
  lays the melds that leave him OpenSpiel's least deadwood (Knock scores his least deadwood, LAY-2).
- **Refusals**: an action OpenSpiel does not offer is a rejection, named by the Knock rule its cause
  matches (TURN-1 a seat not to act or an action of another phase, TURN-3 a card not held, OFFER-4 the
  declined upcard, KNOCK-2 a knock or knock discard OpenSpiel does not list, KNOCK-4 a spread it does not
  take, MELD-3 a meld of cards not held, DEAD-2 the last discard, LAY-1 … LAY-5 layoffs and the defender's
  melds, LAY-2 an answer to gin, DEAL-4 a dealt card OpenSpiel has already dealt).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from openspiel_map import (  # beside this script: tools/adapters/openspiel_map.py
    DRAW_STOCK,
    DRAW_UPCARD,
    KNOCK,
    MELD_BASE,
    PASS,
    best_melds,
    card_from_openspiel,
    card_to_openspiel,
    meld_from_openspiel,
    meld_to_openspiel,
)

from engine.actions import (
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
from engine.cards import Card, Suit
from engine.errors import KnockError
from engine.melds import Meld, MeldKind
from engine.rules import KnockLimit, OklahomaAce, RuleSet
from knock.conformance.aliases import VERB_SPELLINGS
from knock.conformance.cases import Case, CaseHand, load_case

OPENSPIEL_PHASES = {"FIRST_UPCARD": "upcard_offer", "DRAW": "draw", "DISCARD": "discard", "WALL": "wall",
                    "KNOCK": "knock", "LAYOFF": "layoff"}  # fmt: skip
Refusal = tuple[str, str]  #: the Knock rule a refusal matches, and why OpenSpiel refuses


class Unsupported(Exception):
    """The case asks for something OpenSpiel cannot express."""


def answer(case: Case) -> dict[str, Any]:
    """The case played on OpenSpiel: an answer of CONF-5, or ``unsupported`` with the reason."""
    try:
        return play(case)
    except Unsupported as why:
        return {"outcome": "unsupported", "reason": str(why)}


def play(case: Case) -> dict[str, Any]:
    import pyspiel

    rules = expressible(case)
    hand = case.hands[0]
    table = Table(pyspiel.load_game("gin_rummy", parameters(rules, hand.upcard)), rules, hand)
    refused = table.deal()
    if refused is not None:
        return reject(0, *refused)
    for number, text in enumerate(hand.actions, 1):
        refused = table.play(*read(text))
        if refused is not None:
            return reject(number, *refused)
    return table.answer(case)


def expressible(case: Case) -> RuleSet:
    """The case's rule set, once the case is one OpenSpiel can play at all. Raises ``Unsupported``."""
    if case.tamper is not None:
        raise Unsupported("OpenSpiel reads no Knock log: a log case")
    stage = case.expect.get("stage", "action") if case.outcome == "reject" else "action"
    if stage in ("rules", "draw"):
        raise Unsupported(f"OpenSpiel checks no Knock rule set or dealer draw: the case is refused at its {stage}")
    try:
        rules = case.rule_set()
    except ValueError as err:
        raise Unsupported(f"OpenSpiel checks no Knock rule set: {err}") from None
    if rules.players == 3:
        raise Unsupported("OpenSpiel plays two players: a three-handed case")
    if len(case.hands) != 1:
        raise Unsupported(f"OpenSpiel plays one hand: the case is a game of {len(case.hands)} hands")
    if (rules.deck_ranks, rules.deck_suits) != (13, 4):
        raise Unsupported("a reduced deck: not mapped to OpenSpiel's num_ranks and num_suits (RULES-3)")
    stated = [k for k in ("winner", "totals") if k in case.expect] + ["game_over"] * (
        case.expect.get("game_over") is True
    )
    if stated:
        raise Unsupported(f"OpenSpiel plays one hand, not a game to a target: the case states {', '.join(stated)}")
    game_rules = [r for r in case.rules if r.startswith(("MATCH-", "BONUS-"))]
    if "game_over" in case.expect and game_rules:
        raise Unsupported(f"OpenSpiel plays one hand, not a game to a target: the case is evidence for "
                          f"{', '.join(game_rules)}")  # fmt: skip
    hand = case.hands[0]
    if ("scores" in case.expect or "scores" in hand.expect) and rules.immediate_boxes and rules.box_bonus:
        raise Unsupported("OpenSpiel has no boxes: the scores hold box bonuses (BONUS-1)")
    if hand.seats != (0, 1) or hand.dealer not in hand.seats:
        raise Unsupported("OpenSpiel's players are the non-dealer and the dealer: the deal has other seats")
    sizes = [len(hand.cards[s]) for s in hand.seats]
    if sizes != [rules.hand_size] * 2:
        raise Unsupported(f"OpenSpiel deals {rules.hand_size} cards to each player: the deal gives {sizes}")
    return rules


def parameters(rules: RuleSet, upcard: Card) -> dict[str, Any]:
    """OpenSpiel's game parameters for the rule set (and, under Oklahoma, the upcard)."""
    params: dict[str, Any] = {"gin_bonus": rules.gin_bonus, "undercut_bonus": rules.undercut_bonus,
                              "hand_size": rules.hand_size, "oklahoma": False,
                              "knock_card": rules.knock_limit_value}  # fmt: skip
    if rules.knock_limit is KnockLimit.UPCARD:
        if upcard.rank == 1 and rules.oklahoma_ace is OklahomaAce.ONE:
            params["knock_card"] = 1  # OpenSpiel's Oklahoma ace is gin only
        else:
            params.update(oklahoma=True, knock_card=10)
    return params


def read(text: str) -> tuple[Action, tuple[Card, ...]]:
    """A case's action, respelled canonically (CONF-12), and the layoff cards it gives without their target meld
    (CONF-13: OpenSpiel lays off cards, not cards onto melds). Raises ``Unsupported`` for actions OpenSpiel
    does not have and for cards that are no meld."""
    words = text.split()
    if len(words) > 1:
        words[1] = VERB_SPELLINGS.get(words[1].lower(), words[1].lower())
    if len(words) > 1 and words[1] in ("advise", "big-gin"):
        raise Unsupported(f"an action OpenSpiel does not have: {words[1]} (THREE-7, KNOCK-6)")
    loose = [w for w in words[2:] if words[1] == "layoff" and "-" not in w and ">" not in w]
    try:
        action = parse_action(" ".join(w for w in words if w not in loose))
        extra = tuple(Card.parse(w) for w in loose)
    except KnockError as err:
        raise Unsupported(f"no OpenSpiel action says it: {err}") from None
    if isinstance(action, BigGin):
        raise Unsupported("an action OpenSpiel does not have: big gin (KNOCK-6)")
    return action, extra


class Table:
    """One hand on an OpenSpiel state, with what Knock's actions need that OpenSpiel does not keep."""

    def __init__(self, game: Any, rules: RuleSet, hand: CaseHand) -> None:
        self.state = game.new_initial_state()
        self.rules, self.hand = rules, hand
        self.player = {s: 0 if s != hand.dealer else 1 for s in hand.seats}  #: Knock seat -> OpenSpiel player
        self.stock = iter(hand.stock)
        self.taken: Card | None = None  #: the card taken from the pile this turn
        self.pickups = 0  #: draws from the pile in a row (DEAD-3)
        self.spread: tuple[Meld, ...] = ()
        self.gin = False
        self.dead = False  #: the hand ended at the wall (DEAD-1, DEAD-2)

    # --- the deal and the chance outcomes ---

    def deal(self) -> Refusal | None:
        """The case's deal as OpenSpiel's chance outcomes: player 0's cards, player 1's, the upcard."""
        nd = next(s for s in self.hand.seats if s != self.hand.dealer)
        for card in (*self.hand.cards[nd], *self.hand.cards[self.hand.dealer], self.hand.upcard):
            if card_to_openspiel(card) not in self.state.legal_actions():
                return "DEAL-4", f"OpenSpiel has dealt {card} already: its chance outcomes are the cards left"
            self.state.apply_action(card_to_openspiel(card))
        left = {card_from_openspiel(c) for c in range(52)} - {card_from_openspiel(c) for h in self.state.hands()
                                                               for c in h} - {self.hand.upcard}  # fmt: skip
        if sorted(self.hand.stock) != sorted(left):
            return "DEAL-4", "the stock is not an order of the cards OpenSpiel has left to draw"
        return None

    def apply(self, ids: list[int]) -> None:
        """Apply OpenSpiel actions the caller knows it offers (checked); a stock draw's card is the next card
        of the case's stock."""
        for a in ids:
            assert a in self.state.legal_actions(), f"OpenSpiel does not offer {a} here"
            self.state.apply_action(a)
            if self.state.is_chance_node():
                self.state.apply_action(card_to_openspiel(next(self.stock)))

    # --- one Knock action ---

    def play(self, action: Action, loose: tuple[Card, ...] = ()) -> Refusal | None:
        s = self.state
        if action.seat not in self.player:
            return "THREE-1", f"OpenSpiel has two players: no seat p{action.seat}"
        if s.is_terminal():
            if isinstance(action, LayOff) and self.gin:
                return "LAY-2", "after gin OpenSpiel's defender lays off nothing; his melds were laid at the gin"
            raise Unsupported("OpenSpiel plays one hand: an action after the hand's end belongs to a game")
        if self.player[action.seat] != s.current_player():
            return "TURN-1", f"OpenSpiel's player {s.current_player()} is to act"
        phase = s.current_phase().name
        if phase == "LAYOFF":
            return self.layoff(action, loose)
        handler = {"FIRST_UPCARD": self.offer, "DRAW": self.draw, "DISCARD": self.discard, "WALL": self.wall,
                   "KNOCK": self.knock}[phase]  # fmt: skip
        refused = handler(action)
        if refused is None and s.is_terminal() and not any(s.knocked()) and not self.dead:
            why = "the 50th pickup" if phase == "DRAW" else "both players in succession threw back the card they took"
            raise Unsupported(f"OpenSpiel ended the hand by a rule Knock does not have: {why}")
        return refused

    def offer(self, action: Action) -> Refusal | None:
        if all(self.state.pass_on_first_upcard()):  # both passed: the non-dealer draws (OFFER-4)
            if isinstance(action, DrawStock):
                return self.draw(action)
            if isinstance(action, DrawDiscard):
                return "OFFER-4", "OpenSpiel offers only the stock once both have passed the upcard"
            return "TURN-1", "OpenSpiel's upcard offer is over: the non-dealer draws from the stock"
        if isinstance(action, TakeUpcard | DrawDiscard):
            return self.take()
        if isinstance(action, PassUpcard | DeclineWall):
            self.apply([PASS])
            return None
        return "TURN-1", "OpenSpiel offers the upcard: take it or pass"

    def draw(self, action: Action) -> Refusal | None:
        if isinstance(action, DrawStock):
            self.pickups = 0
            self.apply([DRAW_STOCK])
            return None
        if isinstance(action, DrawDiscard | TakeUpcard):
            return self.take()
        return "TURN-1", "OpenSpiel's player is to draw"

    def take(self) -> Refusal | None:
        self.taken = card_from_openspiel(self.state.upcard())
        self.pickups += 1
        self.apply([DRAW_UPCARD])
        return None

    def discard(self, action: Action) -> Refusal | None:
        if not isinstance(action, Discard | Knock):
            return "TURN-1", "OpenSpiel's player is to discard or knock"
        refused = self.check_card(action)
        if refused is not None:
            return refused
        cap = self.rules.max_consecutive_discard_pickups
        if isinstance(action, Discard):
            if cap is not None and self.pickups >= cap:
                raise Unsupported(f"OpenSpiel has no cap on pickups in a row: {self.pickups} of {cap} (DEAD-3)")
            self.taken = None
            self.apply([card_to_openspiel(action.card)])
            if self.state.current_phase().name == "WALL" and not self.rules.wall_pickup_to_knock:
                self.apply([PASS])  # no 50th-card rule: the hand is dead (DEAD-1)
                self.dead = True
            return None
        if KNOCK not in self.state.legal_actions():
            counted = self.state.deadwood()[self.state.current_player()]
            return "KNOCK-2", f"OpenSpiel does not offer the knock: it counts {counted} deadwood for these cards, " \
                              f"against its knock card {self.state.knock_card()}"  # fmt: skip
        self.apply([KNOCK])
        return self.knock_discard(action.card)

    def check_card(self, action: Discard | Knock) -> Refusal | None:
        held = self.state.hands()[self.state.current_player()]
        if card_to_openspiel(action.card) not in held:
            return "TURN-3", f"OpenSpiel's player does not hold {action.card}"
        if action.card == self.taken and not self.rules.may_discard_taken_card:
            raise Unsupported(f"OpenSpiel lets a player discard the card he has just taken: {action.card} (it has no "
                              "TURN-4, may_discard_taken_card = false)")  # fmt: skip
        return None

    def knock_discard(self, card: Card) -> Refusal | None:
        if card_to_openspiel(card) not in self.state.legal_actions():
            legal = " ".join(str(card_from_openspiel(a)) for a in self.state.legal_actions())
            return "KNOCK-2", f"OpenSpiel does not offer {card} as the knock discard (it offers: {legal or 'none'})"
        self.taken = None
        self.apply([card_to_openspiel(card)])
        return None

    def wall(self, action: Action) -> Refusal | None:
        if isinstance(action, DeclineWall | PassUpcard):
            self.apply([PASS])
            self.dead = True
            return None
        if not isinstance(action, DrawDiscard | TakeUpcard):
            return "TURN-1", "OpenSpiel's player at the wall takes the last discard to knock, or passes"
        if KNOCK not in self.state.legal_actions():
            return "DEAD-2", "OpenSpiel does not offer taking the last discard to knock"
        wall_card = card_from_openspiel(self.state.upcard())
        if not self.rules.may_discard_taken_card:
            after = self.state.clone()
            after.apply_action(KNOCK)
            if {card_from_openspiel(a) for a in after.legal_actions()} <= {wall_card}:
                raise Unsupported(f"OpenSpiel lets a player discard the card he has just taken: {wall_card}, taken "
                                  "at the wall as the only knock discard (no TURN-4, may_discard_taken_card = "
                                  "false)")  # fmt: skip
        self.taken = wall_card
        self.apply([KNOCK])
        return None

    def knock(self, action: Action) -> Refusal | None:
        s = self.state
        if len(s.hands()[s.current_player()]) == self.rules.hand_size + 1:  # took the last discard at the wall
            if isinstance(action, Discard):
                return "DEAD-2", "OpenSpiel's player who took the last discard must knock"
            if not isinstance(action, Knock):
                return "TURN-1", "OpenSpiel's player who took the last discard must knock"
            return self.check_card(action) or self.knock_discard(action.card)
        if not isinstance(action, Spread):
            return "TURN-1", "OpenSpiel's knocker is to lay his melds"
        fault = meld_fault(action.melds, {card_from_openspiel(c) for c in s.hands()[s.current_player()]}, "MELD-3")
        refused = self.melds(action.melds, "KNOCK-4", "OpenSpiel's knocker", fault)
        if refused is not None:
            return refused
        if PASS not in s.legal_actions():
            return "KNOCK-4", f"OpenSpiel's knocker cannot stop: his deadwood is {s.deadwood()[s.current_player()]}"
        self.apply([PASS])
        self.spread = action.melds
        if s.current_phase().name == "LAYOFF" and s.finished_layoffs():  # gin: the defender's melds, no layoffs
            self.gin = True
            self.apply(best_melds(s))
        return None

    def melds(self, melds: tuple[Meld, ...], rule: str, who: str, fault: Refusal | None) -> Refusal | None:
        """Lay melds as OpenSpiel's actions (a long run as its pieces), each checked against what OpenSpiel
        offers. A refusal is ``fault`` when the answer itself is at fault (cards not held, or held twice), else
        ``rule``."""
        for meld in melds:
            for a in (MELD_BASE + i for i in meld_to_openspiel(meld)):
                if a not in self.state.legal_actions():
                    return fault or (rule, f"OpenSpiel does not offer {who} the meld {meld}")
                self.apply([a])
        return None

    def layoff(self, action: Action, loose: tuple[Card, ...]) -> Refusal | None:
        if not isinstance(action, LayOff):
            return "TURN-1", "OpenSpiel's defender is to lay off and lay his melds"
        s = self.state
        targets: dict[Card, Meld | None] = {lo.card: lo.onto for lo in action.layoffs}
        targets.update((c, None) for c in loose)
        cards = [lo.card for lo in action.layoffs] + list(loose)
        fault = defence_fault(action.melds, cards, {card_from_openspiel(c) for c in s.hands()[s.current_player()]})
        left = sorted(cards)
        while left:  # OpenSpiel lays off one card at a time, each onto whatever meld takes it
            next_card = next((c for c in left if card_to_openspiel(c) in s.legal_actions()), None)
            if next_card is None:
                why = f"OpenSpiel does not offer laying off {' '.join(map(str, left))}"
                target = targets[left[0]]
                if target is not None and target not in self.spread:
                    return fault or ("LAY-1", f"{why}: {target} is not one of the knocker's melds")
                return fault or (layoff_rule(left[0], target, self.spread), why)
            self.apply([card_to_openspiel(next_card)])
            left.remove(next_card)
        if not assigned_fit(action, self.spread):
            raise Unsupported("OpenSpiel's layoffs name no target meld: it lays these cards off, onto melds other "
                              "than the case's")  # fmt: skip
        self.apply([PASS])
        refused = self.melds(action.melds, "LAY-5", "OpenSpiel's defender", fault)
        if refused is None:
            self.apply([PASS])
        return refused

    # --- the answer ---

    def answer(self, case: Case) -> dict[str, Any]:
        s, dealer = self.state, self.hand.dealer
        seat = {p: k for k, p in self.player.items()}  # OpenSpiel player -> Knock seat
        out: dict[str, Any] = {"dealer": f"p{dealer}", "seats": ["p0", "p1"], "sitter": None, "result": None,
                               "knock_limit": s.knock_card()}  # fmt: skip
        if not s.is_terminal():
            return {"outcome": "accept", "hands": [out], "scores": {"p0": 0, "p1": 0}, "game_over": False,
                    "state": self.in_play(seat)}  # fmt: skip
        multiplier = 2 if self.rules.spades_double and self.hand.upcard.suit is Suit.SPADES else 1
        stated = {**self.hand.expect, **case.expect}
        if multiplier == 2 and {"points", "scores", "multiplier"} & set(stated):
            raise Unsupported("OpenSpiel doubles no hand: the first upcard is a spade under spades_double (OKLA-4)")
        knocked = list(s.knocked())
        if not any(knocked):
            out.update(result="dead", winner=None, points=0, knocker=None, deadwood=None, multiplier=1,
                       scores={"p0": 0, "p1": 0})  # fmt: skip
            return {"outcome": "accept", "hands": [out], "scores": out["scores"], "game_over": False}
        k = knocked.index(True)
        won = int(s.returns()[k])
        dw = list(s.deadwood())
        result = "gin" if dw[k] == 0 else "knock" if won > 0 else "undercut" if won < 0 else "tie"
        if result == "tie" and self.rules.undercut_on_tie and {"result", "winner", "points", "scores"} & set(stated):
            raise Unsupported("OpenSpiel scores nothing on equal deadwood: it has no undercut on a tie (SCORE-3, "
                              "undercut_on_tie = true)")  # fmt: skip
        winner = None if won == 0 else seat[k] if won > 0 else seat[1 - k]
        scores = {f"p{q}": abs(won) if q == winner else 0 for q in (0, 1)}
        out.update(result=result, winner=None if winner is None else f"p{winner}", points=abs(won),
                   knocker=f"p{seat[k]}", deadwood={f"p{seat[p]}": dw[p] for p in (0, 1)}, multiplier=1,
                   scores=scores)  # fmt: skip
        return {"outcome": "accept", "hands": [out], "scores": scores, "game_over": False}

    def in_play(self, seat: dict[int, int]) -> dict[str, Any]:
        """The state of the hand in play (CONF-2 ``state``), from OpenSpiel's: the cards a player has laid in
        melds are still his (Knock's holdings), and the knock discard lies face down, under no card."""
        s = self.state
        pile = list(s.discard_pile())
        if any(s.knocked()):
            pile = pile[:-1]  # OpenSpiel puts the knock discard on the pile; Knock keeps it face down (KNOCK-1)
        top = s.upcard() if s.upcard() is not None else pile[-1] if pile else None
        phase = s.current_phase().name
        holding = {}
        for p in (0, 1):
            cards = {card_from_openspiel(c) for c in s.hands()[p]}
            cards |= {c for m in s.layed_melds()[p] for c in meld_from_openspiel(m).cards}
            holding[f"p{seat[p]}"] = " ".join(map(str, sorted(cards)))
        both_passed = phase == "FIRST_UPCARD" and all(s.pass_on_first_upcard())
        return {"to_act": f"p{seat[s.current_player()]}", "phase": "draw" if both_passed else OPENSPIEL_PHASES[phase],
                "knock_limit": s.knock_card(), "stock": s.stock_size(),
                "discard": None if top is None else str(card_from_openspiel(top)), "holding": holding}  # fmt: skip


def meld_fault(melds: tuple[Meld, ...], held: set[Card], rule: str) -> Refusal | None:
    """``rule`` when the melds use a card not held or a card twice (MELD-3; the defender's melds LAY-5)."""
    used: set[Card] = set()
    for meld in melds:
        if not set(meld.cards) <= held - used:
            return rule, f"{meld} uses a card not held, or held by another meld"
        used |= set(meld.cards)
    return None


def defence_fault(melds: tuple[Meld, ...], cards: list[Card], held: set[Card]) -> Refusal | None:
    """LAY-5 when the defender's answer lays off a card not held, a card twice or a card he also melds."""
    melded = {c for m in melds for c in m.cards}
    for card in cards:
        if card not in held or cards.count(card) > 1 or card in melded:
            return "LAY-5", f"{card} is not the defender's to lay off (not held, laid off twice or melded)"
    return meld_fault(melds, held, "LAY-5")


def layoff_rule(card: Card, target: Meld | None, spread: tuple[Meld, ...]) -> str:
    """The rule a refused layoff breaks, by its target: LAY-3 onto a set, LAY-4 onto a run (a card without its
    target: LAY-3 if the spread has a set of its rank, else LAY-4)."""
    if target is None:
        kinds = {m.kind for m in spread if m.kind is MeldKind.SET and m.cards[0].rank == card.rank}
        return "LAY-3" if kinds else "LAY-4"
    return "LAY-3" if target.kind is MeldKind.SET else "LAY-4"


def assigned_fit(action: LayOff, spread: tuple[Meld, ...]) -> bool:
    """Whether every target the case names is one of the knocker's melds and takes the cards it assigns it
    (LAY-1, LAY-3, LAY-4)."""
    groups: dict[Meld, list[Card]] = defaultdict(list)
    for lo in action.layoffs:
        groups[lo.onto].append(lo.card)
    return all(target in spread and target.fits(extra) for target, extra in groups.items())


def reject(action: int, rule: str, reason: str) -> dict[str, Any]:
    return {"outcome": "reject", "rule": rule, "hand": 1, "action": action, "reason": reason}


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(answer(load_case(Path(argv[0])))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
