"""Per-seat views (LOG-11) and their public replay (LOG-12): no hidden card ever reaches a seat's view."""

from __future__ import annotations

import io
from typing import Any

import pytest

from engine.cards import Card
from engine.match import Match
from engine.rules import RuleSet
from engine.seats import other_seat
from engine.visibility import MatchObservation
from knock.bots import Bot, GreedyBot, RandomBot
from replay.codec import (
    DISCARD_BASE,
    KNOCK_BASE,
    KNOCK_HIDDEN,
    T_DEAL,
    T_LAYOFF,
    T_SEEN_DRAW,
    T_SPREAD,
    UNKNOWN,
    chain,
    header_digest,
    pack,
    unpacked,
)
from replay.grammar import PLAYING, At
from replay.log import LogError, LogReader, write_log
from replay.public import PublicState, ViewReplayer
from replay.redact import redact
from replay.replayer import Replayer

CASES = [("standard", 1), ("oklahoma", 2), ("three_handed", 3), ("three_handed", 4), ("standard", 5)]


def game(preset: str, seed: int, advise: bool = False, **options: Any) -> Match:
    """A seeded bot game; with ``advise``, the sitter suggests the captain's last option whenever he may."""
    rules = RuleSet.preset(preset, **options)
    bots: list[Bot] = [RandomBot(seed), GreedyBot(), RandomBot(seed + 1)]
    m = Match.new(rules, seed=seed)
    while (seat := m.to_act) is not None:
        if advise and m.advice_options():
            m.apply(m.advice_options()[-1])
        assert m.hand is not None
        m.apply(bots[seat].choose(m.hand.observation(seat), m.legal_actions()))
    return m


def values(data: bytes) -> list[Any]:
    return [v for v, _ in unpacked(io.BytesIO(data))]


def cards_in(record: Any) -> set[int]:
    """The card codes a view's record shows."""
    if isinstance(record, int):
        if DISCARD_BASE <= record < DISCARD_BASE + 52:
            return {record - DISCARD_BASE}
        if KNOCK_BASE <= record < KNOCK_BASE + 52:
            return {record - KNOCK_BASE}
        return set()
    if isinstance(record, list) and record and record[0] == T_DEAL:
        return {c for c in record[1] if c != UNKNOWN}
    if isinstance(record, list) and record and record[0] == T_SEEN_DRAW:
        return {record[1]}
    if isinstance(record, list) and record and record[0] == 5:  # advice: the suggested action's cards
        return cards_in(record[2]) if record[2] is not None else set()
    if isinstance(record, list) and record and record[0] in (T_SPREAD, T_LAYOFF):
        out: set[int] = set()
        stack = list(record[1:])
        while stack:
            x = stack.pop()
            if isinstance(x, bytes):
                out |= set(x)
            elif isinstance(x, list):
                stack += x
            elif isinstance(x, int):
                out.add(x)
        return out
    return set()


def shown_to(match: Match, seat: int) -> set[int]:
    """Every card the engine lets ``seat`` see now (VIS-1, THREE-8)."""
    obs = match.observation(seat).hand
    if obs is None:
        return set()
    cs: set[Card] = {*obs.hand, *obs.discard_pile, *obs.opponent_known, obs.upcard}
    if obs.knock_discard is not None:
        cs.add(obs.knock_discard)
    if obs.spread is not None:
        cs |= {c for m in obs.spread.melds for c in m.cards} | set(obs.spread.deadwood_cards)
    if obs.defence is not None:
        cs |= {c for m in obs.defence.melds for c in m.cards} | {lo.card for lo in obs.defence.layoffs}
    return {c.index for c in cs}


@pytest.mark.rule("LOG-11", "VIS-1", "THREE-8")
@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_no_hidden_card_ever_reaches_a_seats_view(preset: str, seed: int) -> None:
    played = game(preset, seed, advise=True)
    data = write_log(played)
    for seat in range(played.rules.players):
        view = values(redact(data, seat))[1:]
        seen: set[int] = set()
        number = 0
        for state, record in zip(Replayer(data).states(), view, strict=True):
            if state.match.number != number:
                number, seen = state.match.number, set()  # a new hand: judge it by what is shown in it
            seen |= shown_to(state.match, seat)
            if isinstance(record, list) and record and record[0] == 0:
                continue  # the cut is public
            leaked = cards_in(record) - seen
            assert not leaked, f"p{seat} sees {sorted(leaked)} at record {state.index}: {record!r}"


@pytest.mark.rule("LOG-11")
def test_a_view_hides_the_deck_the_opponents_draws_and_knock_discard() -> None:
    played = game("standard", 6)
    full = values(write_log(played))
    for seat in (0, 1):
        data = redact(write_log(played), seat)
        reader = LogReader(data)
        assert reader.header.view == seat
        assert sum(1 for _ in reader.entries()) == len(full) - 1  # record for record, digests re-chained
        view = values(data)[1:]
        deals = [r for r in view if isinstance(r, list) and r[0] == T_DEAL]
        assert deals and all(list(r[1]).count(UNKNOWN) == 52 - 11 for r in deals)
        knocks = [r for r in view if isinstance(r, int) and KNOCK_BASE <= r <= KNOCK_HIDDEN]
        full_knocks = [r for r in full[1:] if isinstance(r, int) and KNOCK_BASE <= r < KNOCK_BASE + 52]
        assert len(knocks) == len(full_knocks)


@pytest.mark.rule("LOG-12")
@pytest.mark.parametrize(("preset", "seed"), CASES)
def test_a_view_replays_in_public_mode_to_the_public_state(preset: str, seed: int) -> None:
    played = game(preset, seed, sitter_sees_captain_hand=seed % 2 == 0)
    data = write_log(played, commit_key=b"k")
    for seat in range(played.rules.players):
        public = ViewReplayer(redact(data, seat))
        for pub, state in zip(public.states(), Replayer(data).states(), strict=True):
            m = state.match
            hand = m.hand
            before_deal = isinstance(state.record, list) and state.record[0] in (0, 1, 10)  # cut, hand, commit
            if hand is None or hand.is_over or before_deal or pub.number != m.number or pub.viewer is None:
                continue
            assert pub.turn == hand.to_act
            assert pub.own == set(hand.cards_of(pub.viewer))
            assert pub.discard_pile == list(hand.discards)
            assert pub.stock_size == len(hand.stock)
        assert public.state.over and public.state.scores == played.standings().running


@pytest.mark.rule("LOG-11", "LOG-12")
def test_a_view_is_not_a_full_log_and_a_full_log_is_not_a_view() -> None:
    data = write_log(game("standard", 7))
    with pytest.raises(LogError, match="LOG-11"):
        Replayer(redact(data, 0)).run()
    with pytest.raises(LogError, match="LOG-12"):
        ViewReplayer(data)
    with pytest.raises(LogError, match="LOG-11"):
        redact(data, 5)


def reseal(header: Any, body: list[Any]) -> bytes:
    head = pack(header)
    digest, out = header_digest(head), [head]
    for i, rec in enumerate(body, start=1):
        if isinstance(rec, list) and rec and rec[0] == 8:
            rec = [8, digest]
        elif isinstance(rec, list) and rec and rec[0] == 9:
            rec = [9, i - 1, digest]
        raw = pack(rec)
        digest = chain(digest, raw)
        out.append(raw)
    return b"".join(out)


@pytest.mark.rule("LOG-12")
def test_a_forged_view_is_caught_in_public_mode() -> None:
    data = redact(write_log(game("standard", 8)), 0)
    header, *body = values(data)
    draws = [i for i, r in enumerate(body) if isinstance(r, list) and r[0] == T_SEEN_DRAW]
    deal = next(r for r in body if isinstance(r, list) and r[0] == T_DEAL)
    own_card = next(c for c in deal[1][:20] if c != UNKNOWN)
    forged = list(body)
    forged[draws[0]] = [T_SEEN_DRAW, own_card]  # a card the seat already holds
    with pytest.raises(LogError, match="LOG-12") as info:
        ViewReplayer(reseal(header, forged)).run()
    assert info.value.record == draws[0] + 1


@pytest.mark.rule("LOG-11", "THREE-8")
def test_a_view_drops_free_metadata_and_hides_advice_from_the_box() -> None:
    played = game("three_handed", 9, advise=True)
    data = write_log(played, meta={"seed": 9})
    for seat in range(3):
        view = redact(data, seat)
        assert LogReader(view).header.meta == {}
        box = -1
        heard = hidden = 0
        for r in values(view)[1:]:
            if isinstance(r, list) and r[0] == 1:  # a hand record: [1, number, dealer (the box), a, b, sitter]
                box = r[2]
            elif isinstance(r, list) and r[0] == 5:
                assert (r[2] is None) == (seat == box), f"p{seat}, box p{box}: {r}"
                heard += r[2] is not None
                hidden += r[2] is None
        assert heard + hidden > 0


# --- one visibility: a seat's observation is what its view replays to -----------------------------------------

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("standard", {}),
    ("standard", {"wall_pickup_to_knock": True}),
    ("standard", {"max_consecutive_discard_pickups": 2, "may_discard_taken_card": True}),
    ("oklahoma", {"big_gin_bonus": 31, "spades_double": True}),
    ("three_handed", {}),
    ("three_handed", {"sitter_sees_captain_hand": False, "wall_pickup_to_knock": True}),
    ("three_handed", {"three_handed_dead_hand": "box_wins", "immediate_boxes": True, "box_bonus": 25}),
]


def mixed_game(preset: str, seed: int, **options: Any) -> Match:
    """A seeded game of random and greedy bots, the sitter advising now and then."""
    rules = RuleSet.preset(preset, **options)
    bots: list[Bot] = (
        [RandomBot(seed), GreedyBot(), RandomBot(seed + 7)] if seed % 2 else [GreedyBot(), RandomBot(seed), GreedyBot()]
    )
    m = Match.new(rules, seed=seed)
    n = 0
    while (seat := m.to_act) is not None:
        n += 1
        options_ = m.advice_options()
        if options_ and n % 3 == 0:
            m.apply(options_[n % len(options_)])
        assert m.hand is not None
        m.apply(bots[seat].choose(m.hand.observation(seat), m.legal_actions()))
    return m


def agrees(obs: MatchObservation, pub: PublicState) -> None:
    """Everything a seat's observation holds that a view's records carry equals its public replay (the log
    carries the melds of a spread and a defence, not the cards left over)."""
    assert (obs.number, obs.dealer, obs.sitter, obs.scores) == (pub.number, pub.dealer, pub.sitter, pub.scores)
    h = obs.hand
    assert h is not None
    playing = pub.phase in PLAYING.values()
    assert obs.to_act == (pub.turn if playing else None)
    if playing:
        assert h.phase.value == pub.phase.value
    shown = pub.viewer == pub.position
    assert h.seat == pub.position
    assert h.hand == tuple(sorted(pub.own))
    assert (h.discard_pile, h.stock_size, h.upcard, h.knock_limit) == (
        tuple(pub.discard_pile), pub.stock_size, pub.upcard, pub.knock_limit)  # fmt: skip
    assert h.opponent_hand_size == pub.held[other_seat(pub.seats, pub.position)]
    assert set(h.opponent_known) == pub.opponent_known
    assert h.taken == (pub.taken if shown and pub.turn == pub.position else None)
    assert (h.knocker, h.knock_discard) == (pub.knocker, pub.knock_discard)
    assert (h.stock_only, h.must_knock) == (pub.stock_only, pub.must_knock and pub.turn == pub.position)
    assert (h.spread and tuple(m.cards for m in h.spread.melds)) == pub.spread
    d = h.defence
    assert (d and (tuple(m.cards for m in d.melds), tuple((lo.card, lo.onto.cards) for lo in d.layoffs))) == pub.defence
    assert h.result == pub.result


@pytest.mark.rule("VIS-1", "THREE-8", "LOG-11", "LOG-12")
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize(("preset", "options"), VARIANTS, ids=[f"{p}-{i}" for i, (p, _) in enumerate(VARIANTS)])
def test_each_seats_observation_is_what_its_view_replays_to(preset: str, options: dict[str, Any], seed: int) -> None:
    played = mixed_game(preset, seed, **options)
    data = write_log(played, commit_key=b"k" if seed == 2 else None)
    for seat in range(played.rules.players):
        full = Replayer(data).states()
        compared = 0
        for (entry, pub), state in zip(ViewReplayer(redact(data, seat)).records(), full, strict=True):
            assert entry.index == state.index
            if pub.phase in PLAYING.values() or pub.phase in (At.ROTATE, At.END):
                agrees(state.match.observation(seat), pub)
                compared += 1
        assert compared > len(played.events) // 2


@pytest.mark.rule("LOG-11", "THREE-8", "THREE-7")
def test_the_sitter_hears_his_own_advice_even_when_he_does_not_see_the_captains_cards() -> None:
    played = game("three_handed", 9, advise=True, sitter_sees_captain_hand=False)
    data = write_log(played)
    box = sitter = -1
    heard = 0
    for seat in range(3):
        for r in values(redact(data, seat))[1:]:
            if isinstance(r, list) and r[0] == 1:
                box, sitter = r[2], r[5]
            elif isinstance(r, list) and r[0] == 5:
                assert (r[2] is None) == (seat == box), f"p{seat}, box p{box}, sitter p{sitter}: {r}"
                heard += seat == sitter
    assert heard > 0


@pytest.mark.rule("LOG-12")
@pytest.mark.rule("LOG-11", "VIS-1")
def test_a_views_showdown_gives_the_viewers_own_deadwood_as_the_full_history_does() -> None:
    """``replay.audit.view_events``: the spread and the answer of the seat whose cards a view holds (its own, or
    the captain's for a sitter who sees them) print with their deadwood exactly as ``SeatLens`` gives them from
    the full log; another seat's deadwood cards are not in a view, and are not made up."""
    from pathlib import Path

    from engine.events import DefenceLaid, SpreadLaid
    from engine.visibility import SeatLens
    from replay.audit import ShownDefence, ShownSpread, view_events

    own = other = 0
    for path in sorted((Path(__file__).parent.parent / "golden").glob("*.knock")):
        data = path.read_bytes()
        rules = Replayer(data).rules
        for seat in range(rules.players):
            lens = SeatLens(rules, seat)
            full = [e for s in Replayer(data, history=False).states() if s.event is not None
                    for e in [lens.see(s.event)] if isinstance(e, SpreadLaid | DefenceLaid)]  # fmt: skip
            shown = [e for _, _, e in view_events(redact(data, seat)) if isinstance(e, ShownSpread | ShownDefence)]
            assert len(shown) == len(full), (path.name, seat)
            for mine, theirs in zip(shown, full, strict=True):
                if mine.deadwood_cards is None:
                    other += 1
                    assert "deadwood" not in str(mine)
                else:
                    own += 1
                    assert str(mine) == str(theirs), (path.name, seat)
    assert own > 100 and other > 100
