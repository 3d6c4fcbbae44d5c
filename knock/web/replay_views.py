"""A per-seat view (LOG-11) drawn for the replay client: its records replayed in public mode, the seat's view
after each one. Rules: LOG-12, PROTO-5.

A view's reader (``replay.public.ViewReplayer``) knows what the seat knew and nothing more; this module writes
that state with the same keys as the protocol's ``view``. A view does not record the knocker's deadwood cards
(only his melds, LOG-11): another seat's spread shows its melds, and its deadwood count once the result states it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.cards import sort_cards, to_mask
from engine.melds import Meld, best_arrangement
from engine.rules import RuleSet
from engine.scoring import HandResult
from engine.seats import other_seat
from engine.standings import standings
from knock.web import views
from knock.web.protocol import Message
from replay.audit import view_events
from replay.grammar import At, Kind, classify
from replay.log import Header
from replay.narration import Voice, framing_text, line_of
from replay.public import PublicState

if TYPE_CHECKING:
    from knock.web.transcript import Builder

_IN_HAND = {At.UPCARD_OFFER, At.DRAW, At.DISCARD, At.WALL, At.KNOCK, At.LAYOFF}


def view_log(data: bytes, header: Header, out: Builder) -> bool:
    """The steps of a per-seat view: every record replayed, those in the window drawn with the seat's view after
    them (LOG-12), each told by ``replay.narration`` from the event it records as the seat saw it; True if the
    view's end was reached.

    Raises:
        LogError: where the view goes wrong (the steps stop before it).
    """
    rules = RuleSet.from_dict(header.rules)
    voice = Voice(seats=rules.players)
    key = str(header.view)
    results: list[tuple[int, HandResult]] = []
    started = False
    body: Message | None = None
    for entry, st, event in view_events(data):
        kind = classify(entry.record, view=True)
        if kind is Kind.RESULT and st.result is not None:
            results.append((st.number, st.result))
        started = started or kind is Kind.DEAL
        drawn = out.wanted()
        # A hand record's roles are drawn with its deal, the next record: it shows the view before it, so the
        # record before the window is drawn too (and none before that: the state is not kept).
        if started and kind is not Kind.HAND and out.start - 1 <= out.seen < out.start + out.count:
            body = _view(st, rules, results)
        label = "" if not drawn else line_of(event, voice) if event is not None else framing_text(entry.record)
        if not out.step(entry.index, st.number, label, {key: [label]}, {key: body if drawn else None}):
            return False
    return True


def _roles(st: PublicState) -> dict[str, int]:
    other = other_seat(st.seats, st.dealer)
    if st.sitter is None:
        return {"dealer": st.dealer, "non_dealer": other}
    return {"box": st.dealer, "captain": other, "sitter": st.sitter}


def _view(st: PublicState, rules: RuleSet, results: list[tuple[int, HandResult]]) -> Message:
    """The seat's view after a record, with the protocol's keys (PROTO-5), from what the view showed it."""
    roles = _roles(st)
    sheet = views.sheet(results, standings(rules, rules.players, [r for _, r in results]))
    own = sort_cards(st.own)
    arr = best_arrangement(to_mask(own)) if own else None
    other = other_seat(st.seats, st.position)
    players = [
        {"seat": st.position, "cards": st.held.get(st.position), "known": None},
        {"seat": other, "cards": st.held.get(other, 0), "known": views.card_list(sort_cards(st.opponent_known))},
    ]
    in_hand = st.phase in _IN_HAND
    return {
        "hand": st.number,
        "phase": "game_over" if st.over else (st.phase.value if in_hand else "hand_over"),
        "to_act": st.turn if in_hand else None,
        "you": st.seat,
        "role": next(name for name, s in roles.items() if s == st.seat),
        "roles": roles,
        "dealer": st.dealer,
        "seats": list(st.seats),
        "sitter": st.sitter,
        "scores": list(st.scores),
        "target": rules.target,
        "cards": views.card_list(own),
        "melds": views.meld_list(arr.melds) if arr is not None else None,
        "deadwood_cards": views.card_list(arr.deadwood_cards) if arr is not None else None,
        "deadwood": arr.deadwood if arr is not None else None,
        "discard_pile": views.card_list(st.discard_pile),
        "discard_top": str(st.discard_pile[-1]) if st.discard_pile else None,
        "stock": st.stock_size,
        "upcard": str(st.upcard),
        "knock_limit": st.knock_limit,
        "players": sorted(players, key=lambda p: p["seat"]),
        "taken": str(st.taken) if st.taken is not None and st.turn == st.position else None,
        "must_knock": st.must_knock,
        "stock_only": st.stock_only,
        "knocker": st.knocker,
        "knock_discard": str(st.knock_discard) if st.knock_discard is not None else None,
        "spread": _spread(st),
        "defence": _defence(st),
        "result": views.result(st.result) if st.result is not None else None,
        "advice": None,
        "sheet": sheet,
        "over": st.over,
        "winner": st.winner,
    }


def _deadwood_of(st: PublicState, seat: int) -> int | None:
    r = st.result
    if r is None or r.deadwood is None or seat not in r.seats:
        return None
    return r.deadwood_of(seat)


def _spread(st: PublicState) -> Message | None:
    if st.spread is None or st.knocker is None:
        return None
    mine = st.knocker == st.viewer
    melded = {c for m in st.spread for c in m}
    dead = sort_cards(c for c in st.own if c not in melded) if mine else ()
    count = _deadwood_of(st, st.knocker)
    return {"seat": st.knocker, "melds": [_cards(m) for m in st.spread], "deadwood_cards": views.card_list(dead),
            "deadwood": count if count is not None else sum(c.value for c in dead)}  # fmt: skip


def _defence(st: PublicState) -> Message | None:
    if st.defence is None or st.knocker is None:
        return None
    melds, layoffs = st.defence
    seat = other_seat(st.seats, st.knocker)
    count = _deadwood_of(st, seat)
    return {"seat": seat, "melds": [_cards(m) for m in melds],
            "layoffs": [{"card": str(c), "onto": _cards(onto)} for c, onto in layoffs],
            "deadwood_cards": [], "deadwood": count if count is not None else 0}  # fmt: skip


def _cards(cards: Any) -> list[str]:
    try:
        return views.card_list(Meld.of(cards).cards)
    except ValueError:
        return views.card_list(cards)
