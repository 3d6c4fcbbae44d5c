"""A view's showdowns, results and scores, checked as far as its seat can from what it was shown.

Rule: LOG-16 (spec/log-format.md). A seat does not see its opponent's cards, but it sees the spread, the
defence, how many cards each seat holds, the upcard (so the knock limit and the multiplier) and how the hand
ended; from those a view's reader checks the melds (MELD-1 .. MELD-3, LAY-1 .. LAY-5), that the showdown
shows no card it saw elsewhere, each seat's deadwood (exactly for the cards it holds or advises on, within
bounds for the others: between 1 and 10 points a card left over), the result's kind, winner and points
against that deadwood (SCORE-1 .. SCORE-6, OKLA-4, DEAD-1 .. DEAD-3), the running scores against the results
(MATCH-1, BONUS-1 .. BONUS-6: ``engine.standings.Tally``, the engine's own), the game's end and its totals
(MATCH-1, MATCH-6, BONUS-5), and the roles of every hand (MATCH-2 .. MATCH-5, THREE-2, THREE-4, THREE-5).
Everything here is state of the current hand and running totals: nothing grows with the view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine import kernel
from engine.actions import LayOff, Spread
from engine.cards import DECK, Card, to_mask
from engine.errors import InvalidDeal, InvalidMeld, InvalidRules
from engine.events import CutDrawn
from engine.facts import Facts
from engine.hand import multiplier_for
from engine.kernel import Refused
from engine.match import Match
from engine.melds import Meld, check_disjoint, deadwood
from engine.rules import RuleSet
from engine.scoring import HandResult, ResultKind, dead_result, score_hand
from engine.seats import other_seat
from engine.standings import Tally
from replay.codec import CodecError, action_of, action_record, event_record
from replay.log import Entry, LogError

if TYPE_CHECKING:
    from replay.public import PublicState

_ALL = (1 << 52) - 1
#: The rule that scores each kind of result.
SCORE_RULES = {
    ResultKind.GIN: "SCORE-1",
    ResultKind.KNOCK: "SCORE-2",
    ResultKind.UNDERCUT: "SCORE-3",
    ResultKind.TIE: "SCORE-3",
    ResultKind.BIG_GIN: "SCORE-4",
}


def _shown(melds: Sequence[Meld]) -> int:
    return check_disjoint(melds, _ALL)


def _action(record: Any, seat: int, entry: Entry) -> Spread | LayOff:
    """The spread or layoff a record shows, in its canonical form (LOG-2) and of valid melds (MELD-1, MELD-2)."""
    try:
        action = action_of(record, seat)
    except CodecError as err:
        raise LogError("LOG-2", entry.index, err.reason) from None
    except InvalidMeld as err:
        raise LogError(err.rule, entry.index, f"the showdown shows no meld: {err.reason}") from None
    assert isinstance(action, Spread | LayOff)  # the grammar placed a spread or a layoff record here
    if action_record(action) != record:
        raise LogError("LOG-2", entry.index, "the showdown is not written in its canonical form")
    return action


def _elsewhere(st: PublicState, mask: int, seat: int, entry: Entry) -> None:
    """Refuse a showdown card the seat saw somewhere else: on the pile, in its own hand (when the cards are
    another seat's), as its own knock discard, or in the spread (for the defence)."""
    seen = to_mask(st.discard_pile) | (to_mask(st.own) if seat != st.viewer else 0)
    if st.knock_discard is not None:
        seen |= st.knock_discard.bit
    if seat != st.knocker and st.spread_melds:
        seen |= _shown(st.spread_melds)
    clash = mask & seen
    if clash:
        card = next(c for c in DECK if clash & c.bit)
        raise LogError("LOG-16", entry.index, f"p{seat} shows {card}, which the seat saw elsewhere")


def _bounds(st: PublicState, seat: int, shown: int, entry: Entry, *, known: bool = True) -> tuple[int, int]:
    """The deadwood a seat's cards left over may have: the cards it took from the pile and still holds count
    their value (``known``), every other card 1 to 10 points."""
    left = st.held[seat] - shown.bit_count()
    if left < 0:
        raise LogError("LOG-16", entry.index, f"p{seat} shows {shown.bit_count()} cards and holds {st.held[seat]}")
    held_known = to_mask(st.known.get(seat, ())) & ~shown if known else 0
    points = sum(c.value for c in DECK if held_known & c.bit)
    return kernel.deadwood_bounds(left - held_known.bit_count(), points)


def check_spread(st: PublicState, facts: Facts, entry: Entry) -> bool:
    """The knocker's spread: valid disjoint melds of cards seen nowhere else; the knocker's deadwood, exactly
    when the seat sees his cards. Returns whether it is gin (KNOCK-5: every card melded). Rules: KNOCK-4 .. KNOCK-6."""
    knocker = st.knocker
    assert knocker is not None  # the grammar takes a spread only after a knock
    spread = _action(entry.record, knocker, entry)
    assert isinstance(spread, Spread)
    try:
        shown = _shown(spread.melds)
    except InvalidMeld as err:
        raise LogError(err.rule, entry.index, f"the spread: {err.reason}") from None
    _elsewhere(st, shown, knocker, entry)
    held, melded = st.held[knocker], shown.bit_count()
    if st.big_gin:
        try:
            kernel.verify_big_gin_count(held, melded)
        except Refused as err:
            raise LogError(err.rule, entry.index, err.reason) from None
    if knocker == st.viewer:
        try:
            dw = kernel.check_spread(spread.melds, to_mask(st.own), kernel.spread_limit(facts)).deadwood
        except InvalidMeld as err:
            raise LogError(err.rule, entry.index, f"the spread: {err.reason}") from None
        st.bounds[knocker] = (dw, dw)
    else:  # the knock discard is hidden, and may be a card he took from the pile: count none as known
        st.bounds[knocker] = _bounds(st, knocker, shown, entry, known=False)
    st.spread_melds = spread.melds
    st.spread = tuple(m.cards for m in spread.melds)
    gin = melded == held
    if gin:  # no layoff record follows: the defender's deadwood is his minimum (LAY-2)
        defender = other_seat(st.seats, knocker)
        exact = deadwood(to_mask(st.own)) if defender == st.viewer else None
        unseen = kernel.deadwood_bounds(st.held[defender], may_meld=True)
        st.bounds[defender] = (exact, exact) if exact is not None else unseen
    return gin


def check_layoff(st: PublicState, entry: Entry) -> None:
    """The defender's answer: valid melds, layoffs onto the spread that fit, no card twice (LAY-1 .. LAY-5),
    cards seen nowhere else; his deadwood, exactly when the seat sees his cards (LAY-6)."""
    defender = st.turn
    assert defender is not None  # the defender answers the spread
    answer = _action(entry.record, defender, entry)
    assert isinstance(answer, LayOff)
    laid = tuple(lo.card for lo in answer.layoffs)
    try:
        everything = to_mask(laid) | kernel.check_defence_melds(answer.melds, _ALL)
        mask = to_mask(st.own) if defender == st.viewer else everything
        dw = kernel.check_defence(st.spread_melds, False, mask, answer.melds, answer.layoffs).deadwood
    except InvalidMeld as err:
        raise LogError(err.rule, entry.index, f"the defence: {err.reason}") from None
    _elsewhere(st, everything, defender, entry)
    st.bounds[defender] = (dw, dw) if defender == st.viewer else _bounds(st, defender, everything, entry)
    st.defence = (tuple(m.cards for m in answer.melds), tuple((lo.card, lo.onto.cards) for lo in answer.layoffs))


def _stated(r: HandResult) -> str:
    """A result as its record states it (``str`` is for results the engine gives; a forged one may be none)."""
    by = "" if r.knocker is None else f" by p{r.knocker}"
    who = "no winner" if r.winner is None else f"p{r.winner} scores {r.points}"
    deadwood = "" if r.deadwood is None else f", deadwood {r.deadwood[0]} and {r.deadwood[1]}"
    why = f" ({r.reason})" if r.reason else ""
    return f"{r.kind.value}{by}{why}: {who}{deadwood}, multiplier {r.multiplier}"


def check_result(st: PublicState, facts: Facts, tally: Tally, result: HandResult, record: Any, entry: Entry) -> None:
    """A hand's result against how the hand ended and the deadwood shown, then the running scores against
    every result so far (the result enters ``tally``); ``facts`` are the seat's facts of the hand. Rules:
    DEAD-1 .. DEAD-3, KNOCK-2, SCORE-1 .. SCORE-6, OKLA-4, MATCH-1, BONUS-1."""
    rules = facts.rules
    at = entry.index
    if record[1] != st.number:
        raise LogError("LOG-4", at, f"the result of hand {record[1]} ends hand {st.number}")
    if st.knocker is None:  # the hand died
        want = dead_result(st.dead_reason, st.seats)
        if result != want:
            raise LogError(kernel.DEAD_RULES[st.dead_reason], at, f"the hand died ({st.dead_reason}): its result is "
                           f"'{want}', not '{_stated(result)}'")  # fmt: skip
    else:
        knocker = st.knocker
        multiplier = multiplier_for(rules, st.upcard) if st.upcard is not None else 1
        if result.knocker != knocker or result.deadwood is None or result.kind is ResultKind.DEAD:
            raise LogError(
                "LOG-16", at, f"p{knocker} knocked: the result must score his knock, not '{_stated(result)}'"
            )
        if result.multiplier != multiplier:
            raise LogError("OKLA-4", at, f"the hand's multiplier is {multiplier}, the result says {result.multiplier}")
        try:
            for seat in st.seats:
                kernel.verify_deadwood_shown(seat, result.deadwood_of(seat), st.bounds[seat], knocker=seat == knocker,
                                             defended=st.defence is not None)  # fmt: skip
        except Refused as err:
            raise LogError(err.rule, at, err.reason) from None
        kd, dd = result.deadwood_of(knocker), result.deadwood_of(other_seat(st.seats, knocker))
        if not st.big_gin:
            try:
                kernel.verify_knock_deadwood(facts, kd, knocker)
            except Refused as err:
                raise LogError(err.rule, at, err.reason) from None
        want = score_hand(rules, knocker, kd, dd, big_gin=st.big_gin, multiplier=multiplier, seats=st.seats)
        if result != want:
            rule = "SCORE-6" if (want.kind, want.points) == (result.kind, result.points) else SCORE_RULES[want.kind]
            raise LogError(rule, at, f"the deadwood shown scores '{want}', the result says '{_stated(result)}'")
    tally.add(result)
    running = tally.standings().running
    if tuple(record[10]) != running:
        raise LogError("MATCH-1", at, f"the scores after hand {st.number} are {list(running)}, the result says "
                       f"{record[10]}")  # fmt: skip


def check_game_over(tally: Tally, record: Any, entry: Entry) -> None:
    """The game's end: only once a seat has reached the target, with the winner and totals of the standings.
    Rules: MATCH-1, MATCH-6, BONUS-4, BONUS-5."""
    st = tally.standings()
    if not st.over:
        raise LogError("MATCH-1", entry.index, "the game ends before any seat has reached the target")
    if record[1] != st.winner:
        raise LogError("MATCH-6", entry.index, f"p{st.winner} won the game, not p{record[1]}")
    if tuple(record[2]) != st.totals:
        raise LogError("BONUS-5", entry.index, f"the final totals are {list(st.totals)}, not {record[2]}")


def first_roles(rules: RuleSet, cuts: Sequence[Entry], hand: Entry) -> tuple[int, tuple[int, int], int | None]:
    """The first hand's roles from the draw's records, by the engine's own draw (any deck will do: the roles
    do not depend on it). Rules: MATCH-2, MATCH-3, MATCH-7, THREE-2."""
    rounds = [tuple(Card.from_index(b) for b in c.record[2]) for c in cuts]
    try:
        match = Match.scripted(rules, cuts=rounds, decks=[DECK], executor="compiled", history=False)
    except InvalidDeal as err:
        raise LogError(err.rule, cuts[-1].index if cuts else hand.index, err.reason) from None
    except InvalidRules as err:  # a rule set no game is played under (RULES-3): the header's fault
        raise LogError(err.rule, 0, err.reason) from None
    produced = [event_record(e) for e in match.events if isinstance(e, CutDrawn)]
    for want, got in zip(produced, cuts, strict=False):
        if want != got.record:
            raise LogError("MATCH-2", got.index, f"the draw is {want}, not {got.record}")
    if len(produced) != len(cuts):
        raise LogError("MATCH-3", hand.index, f"{len(cuts)} draw rounds, the draw takes {len(produced)}")
    return match.dealer, match.seats, match.sitter


def check_roles(
    st: PublicState, rules: RuleSet, roles: tuple[int, tuple[int, int], int | None], entry: Entry, first: bool
) -> None:
    """A hand record's roles against the draw (the first hand) or the last hand's roles and winner."""
    if (st.dealer, st.seats, st.sitter) == roles:
        return
    if first:
        rule = "MATCH-2" if rules.players == 2 else "THREE-2"
    elif rules.players == 2:
        rule = "MATCH-4" if st.last_winner is not None else "MATCH-5"
    else:
        rule = "THREE-4" if st.last_winner is not None else "THREE-5"
    dealer, seats, sitter = roles
    raise LogError(rule, entry.index, f"hand {st.number} is dealt by p{dealer} to {seats}" +
                   (f", p{sitter} sitting out" if sitter is not None else ""))  # fmt: skip
