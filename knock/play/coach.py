"""``hint``: what the heuristic bot would play from the seat's own view, and a short reason why.

The hint sees exactly what the person sees (the seat's observation, VIS-2): the reason counts the person's
deadwood and the *live* cards — those not in the person's hand, not in the discard pile and not known to be
in the opponent's — that would make a meld.
"""

from __future__ import annotations

from collections.abc import Sequence

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
)
from engine.cards import DECK, Card, to_mask
from engine.melds import deadwood
from engine.visibility import Observation
from knock.bots import HeuristicBot
from knock.play.screen import after_taking, options
from replay.narration import NOTATION, action_text


def hint(obs: Observation, legal: Sequence[Action], your: str = "your") -> tuple[Action, str]:
    """The heuristic bot's choice for this seat and the reason, in a sentence (``your``: "his" for the captain
    the sitter advises)."""
    choice = HeuristicBot().choose(obs, legal)
    return choice, reason(obs, legal, choice, your)


def live_outs(obs: Observation, mask: int) -> list[Card]:
    """The live cards that would make a meld with ``mask`` (the cards kept)."""
    seen = mask | to_mask(obs.discard_pile) | to_mask(obs.opponent_known)
    now = deadwood(mask)
    return [c for c in DECK if not seen & c.bit and deadwood(mask | c.bit) < now + c.value]


def reason(obs: Observation, legal: Sequence[Action], action: Action, your: str = "your") -> str:
    mask = to_mask(obs.hand)
    top = obs.discard_pile[-1] if obs.discard_pile else None
    match action:
        case Knock(card=c):
            left = deadwood(mask ^ c.bit)
            if left == 0:
                return f"knock {c}: gin — every other card is melded"
            return f"knock {c}: it leaves {left} deadwood, within the limit of {obs.knock_limit}"
        case Discard(card=c):
            rest = mask ^ c.bit
            outs = live_outs(obs, rest)
            text = f"discard {c}: it leaves {deadwood(rest)} deadwood; {len(outs)} live cards would still make a meld"
            knocks = [a for a in legal if isinstance(a, Knock)]
            if knocks:
                best = min(deadwood(mask ^ a.card.bit) for a in knocks)
                who = "you" if your == "your" else "he"
                text += (f"; {who} could knock with {best}, but with {obs.stock_size} cards in the stock gin is "
                         "worth waiting for")  # fmt: skip
            known = obs.opponent_known
            near = [k for k in known if k.rank == c.rank or (k.suit == c.suit and abs(k.rank - c.rank) < 3)]
            if near:
                text += f" (careful: {your} opponent picked up {' '.join(map(str, near))})"
            return text
        case TakeUpcard() | DrawDiscard():
            assert top is not None
            after = after_taking(obs, mask, top)
            melds = deadwood(mask | top.bit) < deadwood(mask) + top.value
            why = "it makes a meld" if melds else f"it lowers {your} deadwood a lot"
            return f"{action_text(action, NOTATION)} {top}: {why} ({deadwood(mask)} now, {after} after {your} discard)"
        case PassUpcard() | DrawStock():
            if top is None or obs.stock_only:
                return f"{action_text(action, NOTATION)}: the only way to draw now"
            now, after = deadwood(mask), after_taking(obs, mask, top)
            gain = (
                f"would only bring {your} deadwood from {now} to {after}"
                if after < now
                else f"would not lower {your} deadwood"
            )
            return f"{action_text(action, NOTATION)}: {top} would not make a meld, and taking it {gain}"
        case Spread() | LayOff():
            shown = dict(options(obs, legal)).get(action, action_text(action, NOTATION))
            kind = "spread" if isinstance(action, Spread) else "answer"
            return f"the {kind} that leaves the least deadwood: {shown}"
        case BigGin():
            return "big gin: all eleven cards meld"
        case DeclineWall():
            return "decline: taking the last discard would not let you knock"
        case _:
            return action_text(action, NOTATION)


__all__ = ["hint", "live_outs", "reason"]
