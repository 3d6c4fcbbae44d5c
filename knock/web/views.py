"""A table's view as the protocol sends it: the one writer of a view (``write``), for a seat and a spectator at a
live table and for every perspective of replay mode. Rules: PROTO-5, PROTO-6, LOG-12.

Nothing here decides what anyone may see. A seat's view is its ``MatchObservation`` (``observe_match``), a
spectator's the public observations of ``observe_spectator``, a per-seat view's the state its public replay
(``replay.public``) kept, and the events are what the seat's ``SeatLens`` saw; this module only writes them down,
adding what follows from them alone: the best melds of the cards a seat is shown, the score sheet (public
results), the latest advice the lens let through.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any

from engine.actions import parse_match_action, shown_mask
from engine.cards import Card, from_mask, sort_cards, to_mask
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
from engine.match import Match
from engine.melds import Arrangement, Meld, best_arrangement, value
from engine.rules import RuleSet
from engine.scoring import HandResult
from engine.seats import other_seat
from engine.standings import Standings, standings
from engine.visibility import HiddenAdvice, MatchObservation, Seen, observe_spectator
from knock.web.protocol import Message
from replay.grammar import At
from replay.narration import Voice, narrate
from replay.public import PublicState


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


def laid(seat: int, melds: Iterable[Iterable[Card]], deadwood_cards: Iterable[Card], deadwood: int) -> Message:
    """A knocker's spread as every view writes it (KNOCK-4): its melds, the deadwood cards shown, the count."""
    return {"seat": seat, "melds": [card_list(m) for m in melds], "deadwood_cards": card_list(deadwood_cards),
            "deadwood": deadwood}  # fmt: skip


def answered(
    seat: int,
    melds: Iterable[Iterable[Card]],
    layoffs: Iterable[tuple[Card, Iterable[Card]]],
    deadwood_cards: Iterable[Card],
    deadwood: int,
) -> Message:
    """A defender's answer as every view writes it (LAY-5): its melds, its layoffs and the melds they go onto,
    the deadwood cards shown, the count."""
    return {
        "seat": seat, "melds": [card_list(m) for m in melds],
        "layoffs": [{"card": str(card), "onto": card_list(onto)} for card, onto in layoffs],
        "deadwood_cards": card_list(deadwood_cards), "deadwood": deadwood,
    }  # fmt: skip


def spread(s: SpreadLaid | None) -> Message | None:
    if s is None:
        return None
    return laid(s.seat, (m.cards for m in s.melds), s.deadwood_cards, s.deadwood)


def defence(d: DefenceLaid | None) -> Message | None:
    if d is None:
        return None
    return answered(d.seat, (m.cards for m in d.melds), ((lo.card, lo.onto.cards) for lo in d.layoffs),
                    d.deadwood_cards, d.deadwood)  # fmt: skip


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


def write(
    *,
    hand: int,
    phase: str,
    to_act: int | None,
    roles: dict[str, int],
    dealer: int,
    seats: Sequence[int],
    sitter: int | None,
    scores: Sequence[int],
    target: int,
    discard_pile: Sequence[Card],
    stock: int,
    upcard: Card | None,
    knock_limit: int,
    must_knock: bool,
    stock_only: bool,
    knocker: int | None,
    laid: Message | None,
    answer: Message | None,
    outcome: HandResult | None,
    sheet: Message,
    over: bool,
    winner: int | None,
    you: int | None,
    role: str,
    own: Iterable[Card],
    players: list[Message],
    taken: Card | None,
    knock_discard: Card | None,
    advice: Message | None,
) -> Message:
    """The one writer of a table's view (PROTO-5, PROTO-6): every view anyone is shown, a seat's or a spectator's
    at a live table, a full log's or a per-seat view's in replay mode, is these keys in this order, from facts
    its caller read off the game (``engine.visibility``) or off a view's replay (``replay.public``). ``own`` is
    the cards the view shows as the seat's (none for a spectator): their best melds and deadwood are written with
    them; ``laid`` and ``answer`` are the showdown as ``showdown`` writes it."""
    cards = sort_cards(own)
    arr = _best(to_mask(cards)) if cards else None
    return {
        "hand": hand,
        "phase": phase,
        "to_act": to_act,
        "roles": dict(roles),
        "dealer": dealer,
        "seats": list(seats),
        "sitter": sitter,
        "scores": list(scores),
        "target": target,
        "discard_pile": card_list(discard_pile),
        "discard_top": str(discard_pile[-1]) if discard_pile else None,
        "stock": stock,
        "upcard": str(upcard),
        "knock_limit": knock_limit,
        "must_knock": must_knock,
        "stock_only": stock_only,
        "knocker": knocker,
        "spread": laid,
        "defence": answer,
        "result": result(outcome) if outcome is not None else None,
        "sheet": sheet,
        "over": over,
        "winner": winner,
        "you": you,
        "role": role,
        "cards": card_list(cards),
        "melds": meld_list(arr.melds) if arr is not None else None,
        "deadwood_cards": card_list(arr.deadwood_cards) if arr is not None else None,
        "deadwood": arr.deadwood if arr is not None else None,
        "players": sorted(players, key=lambda p: p["seat"]),
        "taken": str(taken) if taken is not None else None,
        "knock_discard": str(knock_discard) if knock_discard is not None else None,
        "advice": advice,
    }


def _live(obs: MatchObservation, pub: Public) -> dict[str, Any]:
    """What a live game's observation gives ``write`` the same way for every seat and spectator."""
    h = obs.hand
    assert h is not None
    return {
        "hand": obs.number, "phase": "game_over" if pub.over else h.phase.value, "to_act": obs.to_act,
        "roles": pub.roles, "dealer": obs.dealer, "seats": sorted((h.seat, _other(pub.roles, obs))),
        "sitter": obs.sitter, "scores": obs.scores, "target": pub.rules.target, "discard_pile": h.discard_pile,
        "stock": h.stock_size, "upcard": h.upcard, "knock_limit": h.knock_limit, "must_knock": h.must_knock,
        "stock_only": h.stock_only, "knocker": h.knocker, "laid": spread(h.spread), "answer": defence(h.defence),
        "outcome": h.result, "sheet": pub.sheet, "over": pub.over, "winner": pub.winner,
    }  # fmt: skip


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
    other = _other(pub.roles, obs)
    players: list[Message] = [
        {"seat": h.seat, "cards": len(h.hand) if h.hand else None, "known": None},
        {"seat": other, "cards": h.opponent_hand_size, "known": card_list(h.opponent_known)},
    ]
    return write(**_live(obs, pub), you=obs.seat, role=obs.role, own=h.hand, players=players, taken=h.taken,
                 knock_discard=h.knock_discard, advice=advice(seen))  # fmt: skip


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
    players: list[Message] = []
    for obs in public:
        h = obs.hand
        assert h is not None
        players.append({"seat": _other(pub.roles, obs), "cards": h.opponent_hand_size,
                        "known": card_list(h.opponent_known)})  # fmt: skip
    return write(**_live(public[0], pub), you=None, role="spectator", own=(), players=players, taken=None,
                 knock_discard=None, advice=advice(seen))  # fmt: skip


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


def full_view(match: Match, pub: Public, seen: Sequence[Seen]) -> Message:
    """The game with every card shown (an auditor of a full log sees it all): the spectator's view with each
    dealt seat's hand, its best melds and deadwood, the stock in order (top first) and the knock's face-down card.
    """
    body = spectator_view(observe_spectator(match), pub, seen)
    hand = match.hand
    assert hand is not None
    hands = []
    for seat in hand.seats:
        cards = sort_cards(from_mask(hand.hands[seat]))
        arr = _best(to_mask(cards)) if cards else None
        hands.append({
            "seat": seat, "cards": card_list(cards),
            "melds": meld_list(arr.melds) if arr is not None else [],
            "deadwood_cards": card_list(arr.deadwood_cards) if arr is not None else [],
            "deadwood": arr.deadwood if arr is not None else 0,
        })  # fmt: skip
    body.update({
        "role": "full",
        "hands": hands,
        "stock_cards": card_list(reversed(hand.stock)),
        "knock_discard": str(hand.knock_card) if hand.knock_card is not None else None,
        "taken": str(hand.taken) if hand.taken is not None else None,
    })  # fmt: skip
    return body


#: The grammar's states in which a hand is being played (a per-seat view's phase; any other is between hands).
_IN_HAND = {At.UPCARD_OFFER, At.DRAW, At.DISCARD, At.WALL, At.KNOCK, At.LAYOFF}


def public_view(st: PublicState, rules: RuleSet, results: Sequence[tuple[int, HandResult]]) -> Message:
    """A per-seat view's seat after a record (LOG-12), from what its replay (``replay.public``) showed it. A view
    does not record the knocker's deadwood cards (only his melds, LOG-11): another seat's spread shows its melds,
    and its deadwood count once the result states it."""
    roles = _roles(st)
    other = other_seat(st.seats, st.position)
    players: list[Message] = [
        {"seat": st.position, "cards": st.held.get(st.position), "known": None},
        {"seat": other, "cards": st.held.get(other, 0), "known": card_list(sort_cards(st.opponent_known))},
    ]
    in_hand = st.phase in _IN_HAND
    return write(
        hand=st.number, phase="game_over" if st.over else (st.phase.value if in_hand else "hand_over"),
        to_act=st.turn if in_hand else None, roles=roles, dealer=st.dealer, seats=st.seats, sitter=st.sitter,
        scores=st.scores, target=rules.target, discard_pile=st.discard_pile, stock=st.stock_size,
        upcard=st.upcard, knock_limit=st.knock_limit, must_knock=st.must_knock, stock_only=st.stock_only,
        knocker=st.knocker, laid=_public_spread(st), answer=_public_defence(st), outcome=st.result,
        sheet=sheet(results, standings(rules, rules.players, [r for _, r in results])), over=st.over,
        winner=st.winner, you=st.seat, role=next(name for name, s in roles.items() if s == st.seat), own=st.own,
        players=players, taken=st.taken if st.turn == st.position else None, knock_discard=st.knock_discard,
        advice=None,
    )  # fmt: skip


def _roles(st: PublicState) -> dict[str, int]:
    other = other_seat(st.seats, st.dealer)
    if st.sitter is None:
        return {"dealer": st.dealer, "non_dealer": other}
    return {"box": st.dealer, "captain": other, "sitter": st.sitter}


def _deadwood_of(st: PublicState, seat: int) -> int | None:
    r = st.result
    if r is None or r.deadwood is None or seat not in r.seats:
        return None
    return r.deadwood_of(seat)


def _public_spread(st: PublicState) -> Message | None:
    if st.spread is None or st.knocker is None:
        return None
    melded = {c for m in st.spread for c in m}
    dead = sort_cards(c for c in st.own if c not in melded) if st.knocker == st.viewer else ()
    count = _deadwood_of(st, st.knocker)
    return laid(st.knocker, map(_in_order, st.spread), dead, count if count is not None else sum(c.value for c in dead))


def _public_defence(st: PublicState) -> Message | None:
    if st.defence is None or st.knocker is None:
        return None
    melds, layoffs = st.defence
    count = _deadwood_of(st, other_seat(st.seats, st.knocker))
    return answered(other_seat(st.seats, st.knocker), map(_in_order, melds),
                    ((c, _in_order(onto)) for c, onto in layoffs), (), count if count is not None else 0)  # fmt: skip


def _in_order(cards: Sequence[Card]) -> Sequence[Card]:
    """A meld's cards in the meld's order (a set by suit, a run by rank), or as given if they are no meld."""
    try:
        return Meld.of(cards).cards
    except ValueError:
        return cards
