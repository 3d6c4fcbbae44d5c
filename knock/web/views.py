"""A seat's view as the protocol sends it: ``engine.visibility``'s answers written as JSON. Rules: PROTO-5, PROTO-6.

Nothing here decides what anyone may see. A seat's view is its ``MatchObservation`` (``observe_match``), a
spectator's the public observations of ``observe_spectator``, and the events are what the seat's ``SeatLens``
saw; this module only writes them down, adding what follows from them alone: the best melds of the cards a
seat is shown, the score sheet (public results), the latest advice the lens let through.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from engine.actions import parse_match_action, shown_mask
from engine.cards import Card, sort_cards, to_mask
from engine.events import (
    Advised,
    CutDrawn,
    Dealt,
    DefenceLaid,
    Discarded,
    DrewDiscard,
    HandDead,
    HandEnded,
    HandScored,
    SpreadLaid,
    UpcardTaken,
)
from engine.melds import Arrangement, Meld, best_arrangement, value
from engine.rules import RuleSet
from engine.scoring import HandResult
from engine.standings import Standings
from engine.visibility import HiddenAdvice, MatchObservation, Seen
from knock.web.protocol import Message
from replay.narration import Voice, narrate


def card_list(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in cards]


def meld_list(melds: Iterable[Meld]) -> list[list[str]]:
    return [card_list(m.cards) for m in melds]


def result(r: HandResult) -> Message:
    """A hand's result (SCORE-6): public once the hand is over."""
    return {
        "kind": r.kind.value, "winner": r.winner, "points": r.points, "knocker": r.knocker, "seats": list(r.seats),
        "deadwood": list(r.deadwood) if r.deadwood is not None else None, "multiplier": r.multiplier,
        "reason": r.reason,
    }  # fmt: skip


def spread(s: SpreadLaid | None) -> Message | None:
    if s is None:
        return None
    return {"seat": s.seat, "melds": meld_list(s.melds), "deadwood_cards": card_list(s.deadwood_cards),
            "deadwood": s.deadwood}  # fmt: skip


def defence(d: DefenceLaid | None) -> Message | None:
    if d is None:
        return None
    return {
        "seat": d.seat, "melds": meld_list(d.melds),
        "layoffs": [{"card": str(lo.card), "onto": card_list(lo.onto.cards)} for lo in d.layoffs],
        "deadwood_cards": card_list(d.deadwood_cards), "deadwood": d.deadwood,
    }  # fmt: skip


def sheet(results: Sequence[tuple[int, HandResult]], st: Standings) -> Message:
    """The score sheet: every hand's result by its number, the columns, the totals (BONUS-1 .. BONUS-5)."""
    return {
        "results": [{"hand": n, "result": result(r)} for n, r in results],
        "columns": [
            {"points": list(c.points), "boxes": list(c.boxes), "running": list(c.running), "closed_by": c.closed_by,
             "totals": list(c.totals)}
            for c in st.columns
        ],
        "totals": list(st.totals), "winner": st.winner,
    }  # fmt: skip


_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def event(hand: int, seen: Seen, voice: Voice) -> Message:
    """One event as the seat's lens saw it: its kind, its seat (if it has one), and its text in words for the
    people at the table (``replay.narration``). Rule: PROTO-5."""
    seat = getattr(seen, "seat", None)
    out = {"hand": hand, "kind": _CAMEL.sub("_", type(seen).__name__).lower(),
           "seat": seat if type(seat) is int else None, "text": narrate(seen, voice)}  # fmt: skip
    if isinstance(seen, CutDrawn):  # 1.4: the draw a client checks, in fields (PROTO-37, PROTO-39), not only words
        out["draw"] = {"seats": list(seen.seats), "cards": [str(c) for c in seen.cards]}
    return out


def advice(seen: Sequence[Seen]) -> Message | None:
    """The sitter's latest advice in the current turn, as the lens let it through (THREE-7): the last
    event of the hand so far, if it is advice (any later action ends the turn it was for)."""
    if not seen:
        return None
    last = seen[-1]
    if isinstance(last, Advised):
        return {"seat": last.seat, "action": str(last.suggestion)}
    if isinstance(last, HiddenAdvice):
        return {"seat": last.seat, "action": None}
    return None


class Public:
    """What every view of a game shares, all of it public: the rules, the roles, the scores and the sheet."""

    def __init__(
        self,
        rules: RuleSet,
        roles: dict[str, int],
        results: Sequence[tuple[int, HandResult]],
        st: Standings,
        over: bool,
    ) -> None:
        self.rules = rules
        self.roles = roles
        self.sheet = sheet(results, st)
        self.over = over
        self.winner = st.winner if over else None


def _state(obs: MatchObservation, pub: Public) -> dict[str, Any]:
    """The keys of a view that the observation gives the same way to every seat and spectator."""
    h = obs.hand
    assert h is not None
    return {
        "hand": obs.number,
        "phase": "game_over" if pub.over else h.phase.value,
        "to_act": obs.to_act,
        "roles": dict(pub.roles),
        "dealer": obs.dealer,
        "seats": sorted((h.seat, _other(pub.roles, obs))),
        "sitter": obs.sitter,
        "scores": list(obs.scores),
        "target": pub.rules.target,
        "discard_pile": card_list(h.discard_pile),
        "discard_top": str(h.discard_pile[-1]) if h.discard_pile else None,
        "stock": h.stock_size,
        "upcard": str(h.upcard),
        "knock_limit": h.knock_limit,
        "must_knock": h.must_knock,
        "stock_only": h.stock_only,
        "knocker": h.knocker,
        "spread": spread(h.spread),
        "defence": defence(h.defence),
        "result": result(h.result) if h.result is not None else None,
        "sheet": pub.sheet,
        "over": pub.over,
        "winner": pub.winner,
    }


def _other(roles: dict[str, int], obs: MatchObservation) -> int:
    """The dealt seat that the observation's position is not (from the hand's roles, which are public)."""
    h = obs.hand
    assert h is not None
    dealt = [roles[r] for r in ("dealer", "non_dealer", "box", "captain") if r in roles]
    return next(s for s in dealt if s != h.seat)


@functools.lru_cache(maxsize=4096)
def _best(mask: int) -> Arrangement:
    """The best arrangement of a holding (KNOCK-4's minimum deadwood), remembered: a seat's cards change at most
    once an action, and every view of it shows them."""
    return best_arrangement(mask)


def seat_view(obs: MatchObservation, pub: Public, seen: Sequence[Seen]) -> Message:
    """A seat's view: its observation (``observe_match``) written down, with the best melds of the cards it is
    shown. Rule: PROTO-5."""
    h = obs.hand
    assert h is not None
    shown = sort_cards(h.hand)
    arrangement = _best(to_mask(shown)) if shown else None
    other = _other(pub.roles, obs)
    players = [
        {"seat": h.seat, "cards": len(shown) if shown else None, "known": None},
        {"seat": other, "cards": h.opponent_hand_size, "known": card_list(h.opponent_known)},
    ]
    return {
        **_state(obs, pub),
        "you": obs.seat,
        "role": obs.role,
        "cards": card_list(shown),
        "melds": meld_list(arrangement.melds) if arrangement is not None else None,
        "deadwood_cards": card_list(arrangement.deadwood_cards) if arrangement is not None else None,
        "deadwood": arrangement.deadwood if arrangement is not None else None,
        "players": sorted(players, key=lambda p: p["seat"]),
        "taken": str(h.taken) if h.taken is not None else None,
        "knock_discard": str(h.knock_discard) if h.knock_discard is not None else None,
        "advice": advice(seen),
    }


def defences(legal: Sequence[str], cards: Sequence[str], seat: int | None) -> list[Message]:
    """The defences among ``legal`` ranked by the deadwood each leaves the seat (the value of its cards it neither
    shows in a meld nor lays off), the least first, ties in ``legal``'s order (PROTO-26); ``[]`` when it has
    none to choose. From the seat's own cards and its own actions only. Rule: PROTO-32."""
    if seat is None or not any(a == "layoff" or a.startswith("layoff ") for a in legal):
        return []
    mask = to_mask(Card.parse(c) for c in cards)
    ranked = []
    for at, text in enumerate(legal):
        if text == "layoff" or text.startswith("layoff "):
            ranked.append((value(mask & ~shown_mask(parse_match_action(text, seat))), at, text))
    return [{"action": text, "deadwood": left} for left, _, text in sorted(ranked)]


def discards(seen: Sequence[Seen]) -> list[Message]:
    """Every card put face up on the discard pile in the hand whose events (as a seat's lens saw them) are
    ``seen``, oldest first: the upcard, then each discard and its seat, each with the seat that has picked it up
    since (the pile's top is its last card not picked up). Public events only: a knock's face-down card is not
    one. Rule: PROTO-34."""
    out: list[Message] = []
    for e in seen:
        if isinstance(e, Dealt):
            out = [{"card": str(e.upcard), "seat": None, "taken": None}]
        elif isinstance(e, Discarded):
            out.append({"card": str(e.card), "seat": e.seat, "taken": None})
        elif isinstance(e, UpcardTaken | DrewDiscard):
            top = next(d for d in reversed(out) if d["taken"] is None)
            assert top["card"] == str(e.card), (top, e)
            top["taken"] = e.seat
    return out


def spectator_view(public: Sequence[MatchObservation], pub: Public, seen: Sequence[Seen]) -> Message:
    """A spectator's view: the public observations of ``observe_spectator`` written down. Rule: PROTO-6."""
    first = public[0]
    players = []
    for obs in public:
        h = obs.hand
        assert h is not None
        players.append({"seat": _other(pub.roles, obs), "cards": h.opponent_hand_size,
                        "known": card_list(h.opponent_known)})  # fmt: skip
    return {
        **_state(first, pub),
        "you": None,
        "role": "spectator",
        "cards": [],
        "melds": None,
        "deadwood_cards": None,
        "deadwood": None,
        "players": sorted(players, key=lambda p: p["seat"]),
        "taken": None,
        "knock_discard": None,
        "advice": advice(seen),
    }


def hand_result(seen: Sequence[Seen], number: int) -> Message | None:
    """The ``hand_result`` message, from the events of a hand as the lens saw them (its showdown and result are
    public), or None while the hand has not ended. Rule: PROTO-10."""
    laid: SpreadLaid | None = None
    answer: DefenceLaid | None = None
    outcome: HandResult | None = None
    for e in seen:
        if isinstance(e, SpreadLaid):
            laid = e
        elif isinstance(e, DefenceLaid):
            answer = e
        elif isinstance(e, HandScored | HandDead):
            outcome = e.result
        elif isinstance(e, HandEnded) and outcome is not None:
            return {"type": "hand_result", "hand": number, "result": result(outcome), "spread": spread(laid),
                    "defence": defence(answer), "scores": list(e.scores)}  # fmt: skip
    return None
