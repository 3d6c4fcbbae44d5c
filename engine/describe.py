"""Hands, games and observations as text for people: what ``print(hand)``, ``print(match)`` and
``print(match.observation(seat))`` show, and the one-line ``repr`` of the live objects.

A ``Hand`` or a ``Match`` is the engine's (the referee's) view, so its text shows every seat's cards; an
observation's text shows only what it holds, which is what its seat may see (``engine.visibility``).

>>> from engine.match import Match
>>> game = Match.new(seed=3)
>>> print(game)  # doctest: +NORMALIZE_WHITESPACE
standard game to 100 · hand 1 · p1 deals · scores p0 0, p1 0
hand: phase upcard_offer · p0 to act · knock limit 10 · upcard Jc
  p0: Ah As 2d 3d 4h 6c 7c Qh Kh Ks  (deadwood 54)
  p1: Ac 3h 3s 4s 6d 7d 7s Jh Qd Kc  (deadwood 61)
  discard pile: Jc · stock 31
>>> game
<Match standard hand=1 phase=hand to_act=p0 scores=(0, 0)>
>>> print(game.observation(0))  # doctest: +NORMALIZE_WHITESPACE
p0 (non_dealer) · hand 1 · p1 deals · scores p0 0, p1 0
hand seen from p0: phase upcard_offer · p0 to act · knock limit 10
  own cards: Ah As 2d 3d 4h 6c 7c Qh Kh Ks  (deadwood 54)
  opponent: 10 cards
  discard pile: Jc · stock 31
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.cards import Card, fmt, to_mask
from engine.melds import deadwood

if TYPE_CHECKING:
    from engine.hand import Hand
    from engine.match import Match
    from engine.visibility import MatchObservation, Observation


def _cards(cards: tuple[Card, ...]) -> str:
    return f"{fmt(cards)}  (deadwood {deadwood(to_mask(cards))})" if cards else "(none)"


def _turn(to_act: int | None) -> str:
    return f"p{to_act} to act" if to_act is not None else "nobody to act"


def _pile(discards: tuple[Card, ...] | list[Card], stock: int) -> str:
    shown = fmt(discards[-5:]) if discards else "(empty)"
    return f"  discard pile: {'… ' if len(discards) > 5 else ''}{shown} · stock {stock}"


def hand_text(hand: Hand) -> str:
    """A hand as the referee sees it: phase, seat to act, knock limit, every seat's cards and deadwood, the pile."""
    lines = [f"hand: phase {hand.phase.value} · {_turn(hand.to_act)} · knock limit {hand.knock_limit}"
             f" · upcard {hand.upcard}"]  # fmt: skip
    lines += [f"  p{seat}: {_cards(hand.cards_of(seat))}" for seat in hand.seats]
    lines.append(_pile(hand.discards, len(hand.stock)))
    if hand.result is not None:
        lines.append(f"  result: {hand.result}")
    return "\n".join(lines)


def hand_repr(hand: Hand) -> str:
    top = hand.discards[-1] if hand.discards else None
    return (f"<Hand {hand.rules.name} phase={hand.phase.value} to_act={_seat(hand.to_act)} dealer=p{hand.dealer} "
            f"stock={len(hand.stock)} top={top} knock_limit={hand.knock_limit}>")  # fmt: skip


def _seat(seat: int | None) -> str:
    return f"p{seat}" if seat is not None else "None"


def _game_line(match: Match) -> str:
    rules = match.rules
    roles = f"p{match.dealer} deals" if match.sitter is None else (
        f"p{match.dealer} in the box, p{match.captain} captain, p{match.sitter} sits out")  # fmt: skip
    scores = ", ".join(f"p{i} {s}" for i, s in enumerate(match.scores))
    over = f" · game over, p{match.winner} wins" if match.is_over else ""
    return f"{rules.name} game to {rules.target} · hand {match.number} · {roles} · scores {scores}{over}"


def match_text(match: Match) -> str:
    """A game as the referee sees it: the game's line (hand, roles, scores), then the current hand."""
    return _game_line(match) + (f"\n{hand_text(match.hand)}" if match.hand is not None else "")


def match_repr(match: Match) -> str:
    return (f"<Match {match.rules.name} hand={match.number} phase={match.phase.value} to_act={_seat(match.to_act)} "
            f"scores={match.scores}>")  # fmt: skip


def observation_text(obs: Observation) -> str:
    """What one seat sees of a hand: its own cards (or none), the opponent's count and known cards, the pile."""
    lines = [f"hand seen from p{obs.seat}: phase {obs.phase.value} · {_turn(obs.to_act)} · knock limit "
             f"{obs.knock_limit}", f"  own cards: {_cards(obs.hand)}"]  # fmt: skip
    known = f" (known: {fmt(obs.opponent_known)})" if obs.opponent_known else ""
    lines.append(f"  opponent: {obs.opponent_hand_size} cards{known}")
    lines.append(_pile(obs.discard_pile, obs.stock_size))
    if obs.result is not None:
        lines.append(f"  result: {obs.result}")
    return "\n".join(lines)


def match_observation_text(obs: MatchObservation) -> str:
    scores = ", ".join(f"p{i} {s}" for i, s in enumerate(obs.scores))
    roles = f"p{obs.dealer} deals" if obs.sitter is None else f"p{obs.dealer} in the box, p{obs.sitter} sits out"
    head = f"p{obs.seat} ({obs.role}) · hand {obs.number} · {roles} · scores {scores}"
    return head + (f"\n{observation_text(obs.hand)}" if obs.hand is not None else "")
