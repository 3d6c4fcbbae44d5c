#!/usr/bin/env python3
"""A conformance adapter (spec/conformance.md, CONF-6) for RLCard's gin-rummy game (``GinRummyGame``, RLCard 1.2).

    knock conform run --adapter "python tools/adapters/rlcard_gin.py"

It sets RLCard up as close to each case's rules and deal as RLCard allows and plays the case's actions,
answering in case mode. What RLCard has no notion of is answered ``unsupported`` (CONF-6), with the reason:

- RLCard plays one hand of two-player Gin with no first upcard: the non-dealer is dealt eleven cards and
  discards first. A case is expressible only when the non-dealer takes the upcard at once (his eleven cards
  are then his ten and the upcard) — and the upcard may then not be discarded (TURN-4), which RLCard cannot
  tell either.
- RLCard scores no points (its payoffs are learning rewards), lays off nothing and has no undercut: a case
  that states points, scores, a winner, deadwood, a knock or undercut result cannot be answered.
- No big gin, no 50th-card rule, no pickup cap, no three-handed play, no game of several hands.

The knock limit is set per hand (RLCard's ``going_out_deadwood_count``, Oklahoma's from the upcard), the
dealer (``dealer_for_round``) and discarding the card just taken (``is_allowed_to_discard_picked_up_card``).
An action RLCard does not list as legal is a rejection, named by the Knock rule its cause matches (a seat
not to act or an action of the wrong kind TURN-1, a card not held TURN-3, the card just taken TURN-4, a
knock over the limit KNOCK-2); a discard refused because RLCard makes a player go gin whenever he can is
answered with the rule ``RLCARD-GIN`` (a rule Knock does not have).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from engine.actions import Discard as KDiscard
from engine.actions import DrawDiscard, DrawStock, Knock, LayOff, Spread, parse_action
from engine.cards import Card
from engine.errors import KnockError
from engine.kernel import knock_limit_for
from engine.melds import deadwood
from knock.conformance.aliases import VERB_SPELLINGS
from knock.conformance.cases import Case, load_case

PLAY_OPTIONS = {"big_gin_bonus", "wall_pickup_to_knock", "max_consecutive_discard_pickups", "deck_ranks",
                "deck_suits", "hand_size", "players"}  # fmt: skip
GAME_KEYS = {"scores", "game_over", "winner", "totals"}
HAND_KEYS = {"knocker", "knock_limit"}


class Unsupported(Exception):
    """The case asks for something RLCard cannot express."""


def answer(case: Case) -> dict[str, Any]:
    """The case played on RLCard: an answer of CONF-5, or ``unsupported`` with the reason."""
    try:
        return play(case)
    except Unsupported as why:
        return {"outcome": "unsupported", "reason": str(why)}


def play(case: Case) -> dict[str, Any]:
    from rlcard.games.gin_rummy.game import GinRummyGame
    from rlcard.games.gin_rummy.round import GinRummyRound
    from rlcard.games.gin_rummy.utils import action_event as ev
    from rlcard.games.gin_rummy.utils import utils as rc

    if case.tamper is not None:
        raise Unsupported("RLCard reads no Knock log: a log case")
    if case.expect["outcome"] == "reject" and case.expect.get("stage", "action") != "action":
        raise Unsupported(f"RLCard checks no rule set, draw or deal: the case is refused at its {case.expect['stage']}")
    try:
        rules = case.rule_set()
    except ValueError as err:
        raise Unsupported(f"RLCard checks no rule set: {err}") from None
    played = sorted(k for k in case.options if k in PLAY_OPTIONS) + (["three-handed"] if rules.players == 3 else [])
    if played:
        raise Unsupported(f"rules RLCard does not play: {', '.join(played)}")
    if len(case.hands) != 1:
        raise Unsupported(f"RLCard plays one hand: the case is a game of {len(case.hands)} hands")
    stated = sorted(GAME_KEYS & set(case.expect))
    hand = case.hands[0]
    stated += sorted(k for k in hand.expect if k not in HAND_KEYS and not (k == "result" and hand.expect[k] in
                                                                         ("gin", "dead")))  # fmt: skip
    if stated:
        raise Unsupported(f"RLCard scores no points and lays off nothing: the case states {', '.join(stated)}")
    dealer = hand.dealer
    other = 1 - dealer
    texts = [canonical(t, first=i == 0) for i, t in enumerate(hand.actions)]
    verbs = [t.split()[1] if len(t.split()) > 1 else "" for t in texts]
    for verb in ("advise", "big-gin", "decline"):
        if verb in verbs:
            raise Unsupported(f"an action RLCard does not have: {verb}")
    if case.expect["outcome"] == "reject" and verbs[-1] in ("spread", "layoff"):
        raise Unsupported(f"RLCard lays every player's melds itself: the case refuses a {verbs[-1]}")
    for t in texts:
        words = t.split()
        if words[1:2] == ["layoff"] and any("-" not in w for w in words[2:]):  # a layoff, assigned or not
            raise Unsupported("RLCard scores no points and lays off nothing: a defence with layoffs")
    try:
        actions = [parse_action(text) for text in texts]
    except KnockError as err:
        raise Unsupported(f"RLCard has no notation to refuse: {err}") from None
    if not actions or str(actions[0]) != "take" or actions[0].seat != other:
        raise Unsupported("RLCard has no first upcard: only a non-dealer who takes it at once is expressible")
    upcard = hand.upcard
    if len(actions) > 1 and isinstance(actions[1], KDiscard | Knock) and actions[1].card == upcard:
        raise Unsupported("RLCard has no first upcard: its eleventh card cannot be the upcard just taken (TURN-4)")

    def rl(card: Card) -> Any:
        return rc.card_from_text(str(card)[0] + str(card)[1].upper())

    game = GinRummyGame()
    limit = knock_limit_for(rules, upcard)
    game.settings.going_out_deadwood_count = limit
    game.settings.is_allowed_to_discard_picked_up_card = rules.may_discard_taken_card
    game.actions = []
    game.round = GinRummyRound(dealer_id=dealer, np_random=game.np_random)
    deal = [*hand.cards[other], upcard, *hand.cards[dealer], *hand.stock]  # in the order RLCard pops them
    game.round.dealer.stock_pile = [rl(c) for c in reversed(deal)]
    game.round.dealer.deal_cards(player=game.round.players[other], num=11)
    game.round.dealer.deal_cards(player=game.round.players[dealer], num=10)
    game.round.current_player_id = other
    result: str | None = None
    knocker: int | None = None
    for number, action in enumerate(actions[1:], start=2):
        if game.is_over():
            return reject(number, "TURN-1", "the hand is over")
        if isinstance(action, Spread | LayOff):
            if action.seat != (knocker if isinstance(action, Spread) else 1 - (knocker or 0)) or knocker is None:
                return reject(number, "TURN-1", "no spread or layoff is due from this seat")
            if isinstance(action, LayOff) and action.layoffs:
                raise Unsupported("RLCard scores no points and lays off nothing: a defence with layoffs")
            if isinstance(action, LayOff) or result == "gin":
                for kind in (ev.ScoreNorthPlayerAction, ev.ScoreSouthPlayerAction):
                    if any(isinstance(a, kind) for a in game.judge.get_legal_actions()):
                        game.step(kind())
            continue
        legal = game.judge.get_legal_actions()
        if action.seat != game.round.current_player_id:
            return reject(number, "TURN-1", f"p{game.round.current_player_id} is to act")
        held = game.round.players[action.seat].hand
        want: Any
        if isinstance(action, DrawStock):
            want = ev.DrawCardAction()
        elif isinstance(action, DrawDiscard):
            want = ev.PickUpDiscardAction()
        elif isinstance(action, KDiscard | Knock):
            if rl(action.card) not in held:
                return reject(number, "TURN-3", f"p{action.seat} does not hold {action.card}")
            mask = sum(Card.parse(f"{c.rank}{c.suit.lower()}").bit for c in held) & ~action.card.bit
            gin = isinstance(action, Knock) and deadwood(mask) == 0
            want = (
                ev.GinAction()
                if gin
                else (ev.DiscardAction if isinstance(action, KDiscard) else ev.KnockAction)(card=rl(action.card))
            )
            if isinstance(action, KDiscard) and any(isinstance(a, ev.GinAction) for a in legal):
                return reject(number, "RLCARD-GIN", "RLCard makes a player go gin whenever he can")
        else:
            raise Unsupported(f"an action RLCard does not have: {action}")
        if not any(type(a) is type(want) and getattr(a, "card", None) == getattr(want, "card", None) for a in legal):
            return reject(number, *why_not(action, want, legal, game, ev))
        game.step(want)
        if isinstance(want, ev.KnockAction | ev.GinAction):
            knocker, result = action.seat, "gin" if isinstance(want, ev.GinAction) else None
        stock_out = isinstance(game.judge.get_legal_actions()[0], ev.DeclareDeadHandAction)
        if isinstance(want, ev.DiscardAction) and stock_out and number == len(actions):
            game.step(ev.DeclareDeadHandAction())  # Knock's hand dies here (DEAD-1): RLCard's must be declared dead
            result = "dead"
    out: dict[str, Any] = {"outcome": "accept", "hands": [{
        "dealer": f"p{dealer}", "seats": ["p0", "p1"], "sitter": None, "result": result,
        "knocker": None if knocker is None else f"p{knocker}", "knock_limit": limit}]}  # fmt: skip
    if not game.is_over() and knocker is None:
        rnd = game.round
        seat = rnd.current_player_id
        last = game.get_last_action()
        phase = "discard" if last is None or isinstance(last, ev.DrawCardAction | ev.PickUpDiscardAction) else "draw"
        pile = rnd.dealer.discard_pile
        out["state"] = {
            "to_act": f"p{seat}", "phase": phase, "knock_limit": limit, "stock": len(rnd.dealer.stock_pile),
            "discard": text(pile[-1]) if pile else None,
            "holding": {f"p{p.player_id}": " ".join(sorted_text(p.hand)) for p in rnd.players},
        }  # fmt: skip
    return out


def canonical(text: str, *, first: bool) -> str:
    """A case's action respelled in canonical notation (CONF-12): ``pickup`` for the first action is taking
    the upcard; layoff cards without their meld stay as they are (RLCard lays off nothing anyway)."""
    words = text.split()
    if len(words) < 2:
        return text
    words[1] = VERB_SPELLINGS.get(words[1].lower(), words[1])
    if first and words[1] == "pickup" and len(words) == 2:
        words[1] = "take"
    return " ".join(words)


def why_not(action: Any, want: Any, legal: list[Any], game: Any, ev: Any) -> tuple[str, str]:
    """The Knock rule an action RLCard refuses matches."""
    kinds = {type(a) for a in legal}
    if type(want) not in kinds:
        if isinstance(want, ev.KnockAction) and ev.DiscardAction in kinds:
            return "KNOCK-2", f"RLCard does not list the knock (limit {game.settings.going_out_deadwood_count})"
        return "TURN-1", f"RLCard does not take a {type(want).__name__} now"
    return "TURN-4", f"RLCard does not list discarding {action.card} (the card just taken)"


def text(card: Any) -> str:
    return f"{card.rank}{card.suit.lower()}"


def sorted_text(cards: list[Any]) -> list[str]:
    return [str(c) for c in sorted(Card.parse(text(c)) for c in cards)]


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
