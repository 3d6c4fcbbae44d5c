"""The rules kernel: every rule of play that judges a player's action, decided in one place.

PokerKit's shape: ``verify_<action>(facts, seat, ...)`` raises ``Refused`` naming the rule the action breaks,
and ``can_<action>`` is built on it. Everything that judges a move asks these functions: ``Hand.check`` (with
the hand as its facts), the legal-action makers (``engine.legal``: their bitmask fast paths are proven equal
to the kernel by ``tests/engine/test_kernel.py``), the machine's guards (``engine.fsm``: where a discard leads,
whether a spread is gin), the per-seat view's checks (``replay.public``, with what the seat sees as its facts),
its showdown and result checks (``replay.reckoning``), and the terminal's words (``knock.play.words``).

A rule needs a few facts, and ``engine.facts.Facts`` names them (the hand and the view keep the counters among
them with one bookkeeping, ``engine.facts.advance``). A full hand knows everything; a seat's view knows its own
cards and what was shown, and a rule it cannot decide on those facts it accepts (the view's reader checks the
rest at the showdown, LOG-16). The rules: TURN-1, TURN-3, TURN-4, OFFER-4,
DEAD-1 .. DEAD-3, KNOCK-2, KNOCK-4 .. KNOCK-6, LAY-1 .. LAY-6 (spec/rules.md).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from engine.actions import Action, LayOff, Spread
from engine.cards import Card, from_mask
from engine.errors import IllegalAction, InvalidMeld, RuleViolation, render
from engine.facts import Attendance, Facts, Holding
from engine.melds import (
    Arrangement,
    Meld,
    MeldKind,
    best_arrangement,
    canonical,
    check_disjoint,
    deadwood,
    discards_within,
    well_formed,
)
from engine.rules import KnockLimit, OklahomaAce, RuleSet
from engine.showdown import Layoff, best_defence, valid, well_formed_layoffs

STOCK_FLOOR = 2  #: DEAD-1: the hand dies when a non-knock discard leaves this many cards in the stock
#: The rule that refuses a value that is not an action (text that does not parse as one, too).
NOT_AN_ACTION = "TURN-1"
#: The rule a dead hand's result follows, by the reason it died (``dead_reason``, and a declined last discard).
DEAD_RULES = {"stock": "DEAD-1", "last discard declined": "DEAD-2", "pickup cap": "DEAD-3"}


class Refused(RuleViolation):
    """A rule refuses an action: the rule id and the reason (``Hand.check`` adds the phase and the action)."""


def illegal(rule: str, reason: str, *, phase: str, action: object) -> IllegalAction:
    """The error an action the rules refuse raises to its caller (``Hand``, ``Match``, the environments): the
    rule, the reason, the phase and the action. The one place an ``IllegalAction`` is made."""
    return IllegalAction(rule, reason, phase=phase, action=action)


_NO = Holding.NO  # read on every discard: a global, not an attribute lookup


# --- TURN-1: an action, of the phase, by the seat to act -------------------------------------------------------


def verify_form(action: object, kinds: Collection[type]) -> None:
    """An action is a value of one of the action kinds (``kinds``). Rule: TURN-1."""
    if type(action) not in kinds:
        hint = " (text? use engine.parse_action or Hand.play)" if isinstance(action, str) else ""
        raise Refused("TURN-1", f"not an action: {render(action)}{hint}")


def verify_action(action: object, kinds: Collection[type]) -> None:
    """An action of one of ``kinds`` with a seat number (``verify_form``, then ``verify_seat_number``). Rule: TURN-1."""
    if type(action) not in kinds:
        verify_form(action, kinds)
    if type(getattr(action, "seat", None)) is not int:
        verify_seat_number(getattr(action, "seat", None))


def verify_seat_number(seat: object) -> None:
    """A seat is a seat number: an ``int`` (``True`` is not seat 1). Rule: TURN-1."""
    if type(seat) is not int:
        raise Refused("TURN-1", f"not an action: its seat {render(seat)} is not a seat number")


def verify_turn(kinds: Collection[type], accepts: Collection[str] | None, turn: int, action: Action) -> None:
    """An action (a value of one of ``kinds``) that the phase takes (``accepts``: its triggers; None when no
    player is to act), by the seat to act. Rule: TURN-1."""
    if type(action) not in kinds:
        verify_form(action, kinds)
    if accepts is None:
        raise Refused("TURN-1", "no player is to act (the hand is over)")
    if action.trigger not in accepts:
        raise Refused("TURN-1", "not allowed (the phase does not take this action)")
    seat = action.seat
    # Identity, not equality: seat numbers are small ints, one object each in CPython, so this one test
    # refuses both another seat and a seat of another type (True == 1, 1.0 == 1, but neither is 1).
    if seat is not turn:
        verify_seat_number(seat)
        raise Refused("TURN-1", f"p{turn} is to act, not p{seat}")


def out_of_phase(what: str, phase: str) -> Refused:
    """The refusal of a logged action in a phase that does not take it (a record out of place). Rule: TURN-1."""
    return Refused("TURN-1", f"a {what} in the {phase} phase, which does not take it")


def verify_card(card: object) -> None:
    """A discard or a knock names a card. Rule: TURN-1."""
    if type(card) is not Card:
        raise Refused("TURN-1", f"not an action: {render(card)} is not a card")


def verify_melds(melds: object) -> None:
    """A spread or a defence lays a tuple of melds. Rule: TURN-1."""
    if type(melds) is not tuple or not well_formed(melds):
        raise Refused("TURN-1", f"not an action: the melds {render(melds)} are not a tuple of melds")


def verify_layoffs(layoffs: object) -> None:
    """A defence lays off a tuple of layoffs. Rule: TURN-1."""
    if type(layoffs) is not tuple or not well_formed_layoffs(layoffs):
        raise Refused("TURN-1", f"not an action: the layoffs {render(layoffs)} are not a tuple of layoffs")


# --- a seat of the game, and the sitter's part: THREE-1, THREE-7 -----------------------------------------------------


def verify_seat_in_game(players: int, seat: int) -> None:
    """A seat of the game: 0 .. players - 1. Rule: THREE-1."""
    if not 0 <= seat < players:
        raise Refused("THREE-1", f"no seat p{seat} in a game of {players}")


def verify_plays(sitter: int | None, seat: int) -> None:
    """A player's action by a seat that plays the hand: the sitter only advises. Rule: THREE-7."""
    if seat == sitter:
        raise Refused("THREE-7", f"p{seat} sits out this hand and may only advise")


def verify_adviser(sitter: int | None, seat: int, to_act: int | None, captain: int) -> None:
    """Advice: by the sitter, while the captain is to act. Rule: THREE-7."""
    if seat != sitter:
        raise Refused("THREE-7", f"only the sitter may advise, not p{seat}")
    if to_act != captain:
        raise Refused("THREE-7", "the sitter advises only while the captain is to act")


def verify_advice(suggestion: object, kinds: Collection[type], seat: int, sitter: int | None, to_act: int | None,
                  captain: int) -> None:  # fmt: skip
    """Advice by ``seat``: a suggestion of an action (a value of one of ``kinds``), by the sitter while the
    captain is to act (``verify_adviser``), for the captain. Rules: THREE-7, TURN-1."""
    if type(suggestion) not in kinds:
        raise Refused("THREE-7", f"advice suggests an action, not {render(suggestion)}")
    verify_adviser(sitter, seat, to_act, captain)
    who = getattr(suggestion, "seat", None)
    if type(who) is not int:
        raise Refused("TURN-1", f"the suggestion is not an action: its seat {render(who)} is not a seat number")
    if who != captain:
        raise Refused("THREE-7", f"advice is for the captain p{captain}")


def verify_suggested(takes: bool, what: str, phase: str) -> None:
    """Advice a view shows: a kind of action the captain's phase takes (``takes``). Rule: THREE-7."""
    if not takes:
        raise Refused("THREE-7", f"the captain cannot {what} in the {phase} phase: no suggestion")


# --- the draw: OFFER-4, DEAD-2 -----------------------------------------------------------------------------------


def verify_pickup(f: Facts, seat: int, top: Card | None, *, wall: bool) -> None:
    """Taking the top of the discard pile (``top``): not as the first draw after both seats passed the upcard
    (OFFER-4); at the last discard (``wall``), only to knock with it (DEAD-2). Rules: OFFER-4, DEAD-2."""
    if f.stock_only:
        raise Refused("OFFER-4", "after both players pass the upcard the first draw is from the stock")
    if wall and top is not None:
        mask = f.mask_of(seat)
        if mask is not None and not can_knock_after(f, mask | top.bit, top):
            raise Refused("DEAD-2", f"the last discard {top} may only be taken to knock")


def can_pickup(f: Facts, seat: int, top: Card | None, *, wall: bool) -> bool:
    try:
        verify_pickup(f, seat, top, wall=wall)
    except Refused:
        return False
    return True


def knock_limit_for(rules: RuleSet, upcard: Card) -> int:
    """The hand's knock limit, fixed at the deal for that deal only. Rules: KNOCK-3, OKLA-1, OKLA-2, OKLA-3."""
    if rules.knock_limit is KnockLimit.FIXED:
        return rules.knock_limit_value
    if upcard.rank == 1 and rules.oklahoma_ace is OklahomaAce.GIN_ONLY:
        return 0
    return upcard.value


def may_discard_taken(rules: RuleSet) -> bool:
    """Whether a card taken from the discard pile may be discarded (or knocked with) in the same turn: the one
    reading of the option that decides it. Rule: TURN-4."""
    return rules.may_discard_taken_card


def big_gin_allowed(rules: RuleSet) -> bool:
    """Whether big gin (eleven cards melded) is played at all: the one reading of its option. Rule: KNOCK-6."""
    return rules.big_gin_bonus is not None


def can_knock_after(f: Facts, mask11: int, taken: Card) -> bool:
    """Whether an 11-card holding, ``taken`` just picked up, has a legal knock or big gin. Rule: DEAD-2."""
    if big_gin_allowed(f.rules) and deadwood(mask11) == 0:
        return True
    barred = None if may_discard_taken(f.rules) else taken
    return any(c != barred for c in discards_within(mask11, f.knock_limit))


# --- the discard and the knock: TURN-3, TURN-4, DEAD-2, KNOCK-2 ---------------------------------------------------


def barred_card(f: Facts) -> Card | None:
    """The card the seat to act may not discard or knock with now: the one just taken from the pile (else None).
    Rule: TURN-4."""
    return None if may_discard_taken(f.rules) else f.taken


def verify_discard(f: Facts, seat: int, card: Card, knocking: bool = False) -> None:
    """A discard: a card the seat holds (TURN-3), not the one just taken (TURN-4), and not while the seat must
    knock (DEAD-2; ``knocking``: the knock's discard, face down, which the seat that must knock makes).
    Rules: TURN-1, TURN-3, TURN-4, DEAD-2."""
    if type(card) is not Card:
        verify_card(card)
    if f.holds(seat, card) is _NO:
        raise Refused("TURN-3", f"p{seat} does not hold {card}")
    taken = f.taken
    if taken is not None and card.index == taken.index and not may_discard_taken(f.rules):
        raise Refused("TURN-4", f"{card} was just taken from the discard pile and may not be discarded")
    if not knocking and f.must_knock:
        raise Refused("DEAD-2", "the last discard was taken: the player must knock")


def can_discard(f: Facts, seat: int, card: Card) -> bool:
    try:
        verify_discard(f, seat, card)
    except Refused:
        return False
    return True


def verify_knock(f: Facts, seat: int, card: Card) -> None:
    """A knock discards ``card`` face down: a card the seat holds and may discard (TURN-3, TURN-4), leaving
    deadwood within the knock limit (KNOCK-2, when the facts show the seat's cards). Rules: TURN-1, TURN-3,
    TURN-4, KNOCK-2."""
    verify_discard(f, seat, card, True)
    mask = f.mask_of(seat)
    if mask is not None:
        verify_knock_deadwood(f, deadwood(mask ^ card.bit))


def can_knock(f: Facts, seat: int, card: Card) -> bool:
    try:
        verify_knock(f, seat, card)
    except Refused:
        return False
    return True


def verify_knock_deadwood(f: Facts, dw: int, knocker: int | None = None) -> None:
    """A knock leaves at most the knock limit in deadwood; ``knocker`` names the seat when a result is checked
    after the fact. Rule: KNOCK-2."""
    if dw > f.knock_limit:
        if knocker is None:
            raise Refused("KNOCK-2", f"cannot knock with {dw} deadwood (limit {f.knock_limit})")
        raise Refused("KNOCK-2", f"p{knocker} knocked with {dw} deadwood (limit {f.knock_limit})")


def knock_discards(f: Facts, mask: int, limit: int | None = None) -> tuple[Card, ...]:
    """The cards of ``mask`` (the seat to act's) it may knock with now, sorted: those leaving deadwood within
    ``limit`` (the knock limit unless given; 0 lists the gin discards), the card just taken aside unless the
    rules let it go. Rules: KNOCK-2, KNOCK-5, TURN-4, MELD-5."""
    within = discards_within(mask, f.knock_limit if limit is None else limit)
    barred = barred_card(f)
    return within if barred is None else tuple(c for c in within if c.index != barred.index)


def verify_gin_knock(mask11: int, card: Card) -> None:
    """Gin: the knock discard ``card`` leaves every other card melded. Rule: KNOCK-5."""
    dw = deadwood(mask11 ^ card.bit)
    if dw:
        raise Refused("KNOCK-5", f"no gin: gin leaves no card over, and your best discard, {card}, leaves {dw}")


# --- big gin: KNOCK-6 ----------------------------------------------------------------------------------------------


def verify_big_gin(f: Facts, seat: int) -> None:
    """Big gin: played under these rules, and all eleven cards melded (when the facts show them). Rule: KNOCK-6."""
    if not big_gin_allowed(f.rules):
        raise Refused("KNOCK-6", "big gin is not played under these rules")
    mask = f.mask_of(seat)
    if mask is not None and deadwood(mask) != 0:
        raise Refused("KNOCK-6", f"big gin needs all {f.rules.hand_size + 1} cards melded")


def can_big_gin(f: Facts, seat: int) -> bool:
    try:
        verify_big_gin(f, seat)
    except Refused:
        return False
    return True


def verify_big_gin_count(held: int, melded: int) -> None:
    """A big gin's spread melds every card the knocker holds (counted, for a seat that does not see them).
    Rule: KNOCK-6."""
    if melded != held:
        raise Refused("KNOCK-6", f"a big gin melds all {held} cards, the spread {melded}")


# --- the showdown: KNOCK-4, KNOCK-5, KNOCK-6, LAY-1 .. LAY-6 ---------------------------------------------------------


def verify_spread(f: Facts, seat: int, melds: object) -> Arrangement:
    """The knocker's spread: disjoint melds of his cards within the knock limit, every card after a big gin.
    Returns the arrangement laid. Rules: TURN-1, KNOCK-4, KNOCK-6, MELD-3.

    Raises:
        Refused: not a tuple of melds (TURN-1), a big gin not all melded (KNOCK-6).
        InvalidMeld: a meld that is none, melds that overlap or use cards not held, too much deadwood.
    """
    verify_melds(melds)
    assert isinstance(melds, tuple)
    mask = f.mask_of(seat)
    assert mask is not None  # the knocker's own cards: only a full hand's facts check a spread as an action
    # KNOCK-6: after big gin every card must be melded; the knock limit's check (KNOCK-4) may not pre-empt that error.
    arr = check_spread(melds, mask, None if f.big_gin else spread_limit(f))
    if f.big_gin and arr.deadwood_cards:
        raise Refused("KNOCK-6", f"a big gin spread melds all {f.rules.hand_size + 1} cards")
    return arr


def spread_limit(f: Facts) -> int:
    """The most deadwood a knocker's spread may leave: the hand's knock limit, or none after a big gin (every
    card melded). Rules: KNOCK-4, KNOCK-6."""
    return 0 if f.big_gin else f.knock_limit


def auto_spread(seat: int, hand_mask: int) -> Spread:
    """The automatic spread of ``seat``'s cards (for bots and helpers; the knocker may lay any legal spread):
    minimum deadwood, then the fewest open layoff targets, then the first in canonical order. Rule: KNOCK-4."""
    return Spread(seat, best_arrangement(hand_mask).melds)


def auto_answer(seat: int, knocker_melds: tuple[Meld, ...], hand_mask: int) -> LayOff:
    """The defender's automatic answer to ``knocker_melds``: the melds and layoffs that leave him the least
    deadwood (``engine.showdown.best_defence``). Rules: LAY-5, LAY-6."""
    d = best_defence(knocker_melds, hand_mask)
    return LayOff(seat, d.melds, d.layoffs)


def check_spread(melds: Iterable[Meld], hand_mask: int, limit: int | None) -> Arrangement:
    """Validate a knocker's spread: disjoint melds of his cards leaving deadwood at most the limit (``limit``:
    ``spread_limit``; None: not checked here).

    Rules: KNOCK-4, MELD-3.
    Raises:
        InvalidMeld: overlapping melds, cards not held, or deadwood over the limit.
    """
    ms = canonical(valid(melds))
    used = check_disjoint(ms, hand_mask)
    arr = Arrangement(ms, from_mask(hand_mask & ~used))
    if limit is not None and arr.deadwood > limit:
        raise InvalidMeld("KNOCK-4", f"the spread leaves {arr.deadwood} deadwood, over the knock limit {limit}")
    return arr


def spread_is_gin(hand_mask: int, melds: Iterable[Meld]) -> bool:
    """Whether a spread leaves no card of the knocker's over. Rules: KNOCK-5, KNOCK-6."""
    melded = 0
    for meld in melds:
        melded |= meld.mask
    return hand_mask & ~melded == 0


def verify_lay_off(f: Facts, seat: int, action: LayOff, knocker_melds: tuple[Meld, ...], gin: bool) -> Arrangement:
    """The defender's whole answer to ``knocker_melds``: his melds and layoffs, validated as a set. Returns his
    melds and deadwood. Rules: TURN-1, LAY-1 .. LAY-6.

    Raises:
        Refused: not a tuple of melds or of layoffs (TURN-1).
        InvalidMeld: as ``check_defence``.
    """
    verify_melds(action.melds)
    verify_layoffs(action.layoffs)
    mask = f.mask_of(seat)
    assert mask is not None  # the defender's own cards
    return check_defence(knocker_melds, gin, mask, action.melds, action.layoffs)


def check_defence_melds(melds: Iterable[Meld], hand_mask: int) -> int:
    """The defender's own melds: disjoint, of his cards; returns the cards they use. Rule: LAY-5.

    Raises:
        InvalidMeld: melds that overlap or use a card not held.
    """
    return check_disjoint(melds, hand_mask, "LAY-5")


def check_defence(
    knocker_melds: tuple[Meld, ...],
    gin: bool,
    hand_mask: int,
    melds: Iterable[Meld],
    layoffs: Iterable[Layoff],
) -> Arrangement:
    """Validate the defender's whole answer as a set; returns his melds and deadwood. Rules: LAY-1 .. LAY-6.

    Raises:
        InvalidMeld: a layoff after gin, onto something that is not a knocker meld, or that does not fit;
            a card used twice; a card not held.
    """
    ms = canonical(valid(melds))
    used = check_defence_melds(ms, hand_mask)
    los = tuple(layoffs)
    if gin and los:
        raise InvalidMeld("LAY-2", "no layoffs after gin")
    per_target: dict[Meld, list[Card]] = {}
    for lo in los:
        bit = lo.card.bit
        if not hand_mask & bit:
            raise InvalidMeld("LAY-5", f"cannot lay off {lo.card}: not held")
        if used & bit:
            raise InvalidMeld("LAY-5", f"{lo.card} is laid off and also melded or laid off twice")
        used |= bit
        if lo.onto not in knocker_melds:
            raise InvalidMeld("LAY-1", f"{lo.onto} is not one of the knocker's melds")
        per_target.setdefault(lo.onto, []).append(lo.card)
    for target, extra in per_target.items():
        if not target.fits(extra):
            rule = "LAY-3" if target.kind is MeldKind.SET else "LAY-4"
            raise InvalidMeld(rule, f"{' '.join(map(str, sorted(extra)))} cannot be laid off onto {target}")
    return Arrangement(ms, from_mask(hand_mask & ~used))


def verify_no_layoff_after_gin(is_layoff: bool, gin_ended: bool) -> None:
    """No layoffs once the hand has ended on a gin: the defender laid his melds with it. Rule: LAY-2."""
    if is_layoff and gin_ended:
        raise Refused("LAY-2", "no layoffs after gin: the hand ended when the gin was spread")


def deadwood_bounds(unseen: int, seen: int = 0, *, may_meld: bool = False) -> tuple[int, int]:
    """The least and the most deadwood a seat's cards left over can count, as far as a view shows them: ``seen``
    points of cards known to be left over, and ``unseen`` cards more, each an ace (1) to a ten or a face card
    (10), or melded (0) when they ``may_meld`` (a gin's defender melds what he can, LAY-2). Rules: CARD-3, MELD-4."""
    return seen + (0 if may_meld else unseen), seen + 10 * unseen


def verify_deadwood_shown(seat: int, deadwood: int, bounds: tuple[int, int], *, knocker: bool, defended: bool) -> None:
    """A result's deadwood for ``seat`` within the ``bounds`` its showdown allows. The rule that fixes it: the
    knocker's spread (KNOCK-4), the defender's answer (LAY-6), or after gin his best melds without layoffs (LAY-2)."""
    lo, hi = bounds
    if not lo <= deadwood <= hi:
        rule = "KNOCK-4" if knocker else "LAY-6" if defended else "LAY-2"
        shown = f"{lo}" if lo == hi else f"{lo} to {hi}"
        raise Refused(rule, f"p{seat}'s deadwood is {deadwood} in the result, {shown} by the showdown")


# --- where a discard leads: DEAD-1 .. DEAD-3 -------------------------------------------------------------------------


def dead_reason(f: Facts) -> str | None:
    """Why a non-knock discard now ends the hand: ``"stock"`` (two cards left and the 50th-card rule off, DEAD-1),
    ``"pickup cap"`` (DEAD-3; with the 50th-card rule on only the cap ends it here), or None.

    The one computation behind the machine's guards on a discard, the dead hand's result and a view's phase
    (the discard itself changes neither the stock nor the pickup count).
    """
    if f.stock_size <= STOCK_FLOOR and not f.rules.wall_pickup_to_knock:
        return "stock"
    return "pickup cap" if _capped(f) else None


def _capped(f: Facts) -> bool:
    """The pickups in a row have reached the cap. Rule: DEAD-3."""
    cap = f.rules.max_consecutive_discard_pickups
    return cap is not None and f.pickups >= cap


def play_goes_on(f: Facts) -> bool:
    """After a non-knock discard: more than two cards in the stock and the pickup cap not reached (``dead_reason``
    is None and no wall). Rule: TURN-2."""
    if f.stock_size <= STOCK_FLOOR:
        return False
    cap = f.rules.max_consecutive_discard_pickups  # _capped, inline: this guard runs on every discard
    return cap is None or f.pickups < cap


def wall_offered(f: Facts) -> bool:
    """After a non-knock discard: two cards in the stock, the 50th-card rule on, the cap not reached. Rule: DEAD-2."""
    return f.stock_size <= STOCK_FLOOR and dead_reason(f) is None


# --- a game's end before the target (END-1 .. END-5) ------------------------------------------------------------


def verify_going_on(over: bool) -> None:
    """Nothing is done in a game that is over, an early end included. Rules: MATCH-1, END-5."""
    if over:
        raise Refused("MATCH-1", "the game is over")


def verify_abort(moved: int) -> None:
    """An abort while fewer than both seats dealt into the first hand have acted (``moved``). Rule: END-2."""
    if moved >= 2:
        raise Refused("END-2", "both seats of the first hand have acted: the game can no longer be aborted (resign)")


def verify_forfeit(reason: object, reasons: Collection[str]) -> None:
    """A forfeit the host declares names one of the stated reasons. Rule: END-3."""
    if reason not in reasons:
        raise Refused("END-3", f"a forfeit's reason is one of {', '.join(reasons)}, not {render(reason)}")


def verify_time(at: object, clock: int) -> None:
    """A time the host records: whole seconds since the epoch, not earlier than the last one recorded (``clock``).
    Rule: END-4."""
    if type(at) is not int or at < 0:
        raise Refused("END-4", f"a time is whole seconds since 1970, not {render(at)}")
    if at < clock:
        raise Refused("END-4", f"time {at} is earlier than the last time recorded, {clock}")


def verify_presence(seat: int, away: Collection[int], leaving: bool) -> None:
    """A seat leaves the table only when present, and comes back only when away. Rule: END-4."""
    if leaving and seat in away:
        raise Refused("END-4", f"p{seat} is away already")
    if not leaving and seat not in away:
        raise Refused("END-4", f"p{seat} is not away")


def verify_claim(claim_after: int | None, seat: int, absent: int, away: dict[int, int], at: int) -> None:
    """A claim against a seat away for at least ``claim_after`` seconds at ``at``, by another seat that is not away
    (``away``: each away seat and the time it left). Rule: END-4."""
    if claim_after is None:
        raise Refused("END-4", "claims are not played at this table (claim_after is none)")
    if seat == absent:
        raise Refused("END-4", f"p{seat} cannot claim against itself")
    if seat in away:
        raise Refused("END-4", f"p{seat} is away: a seat that is away cannot claim")
    if absent not in away:
        raise Refused("END-4", f"p{absent} is not away")
    if at - away[absent] < claim_after:
        raise Refused("END-4", f"p{absent} has been away {at - away[absent]} s of the {claim_after} s a claim needs")


def verify_end(
    players: int,
    over: bool,
    seen: Attendance,
    claim_after: int | None,
    kind: str,
    seat: int,
    absent: int | None = None,
    at: int | None = None,
) -> None:
    """A game's end a seat asks for (``resign``, ``abort``, ``claim`` against ``absent`` at ``at``) or the host's
    record of presence (``away``, ``back`` at ``at``), judged in order: the game goes on, the seat is of the game,
    then the kind's own rule, over the facts ``seen``. Rules: MATCH-1, THREE-1, END-2, END-4."""
    verify_going_on(over)
    verify_seat_in_game(players, seat)
    if kind in ("away", "back"):
        verify_time(at, seen.clock)
        verify_presence(seat, seen.away, kind == "away")
    elif kind == "abort":
        verify_abort(len(seen.moved))
    elif kind == "claim":
        assert absent is not None and at is not None
        verify_seat_in_game(players, absent)
        verify_time(at, seen.clock)
        verify_claim(claim_after, seat, absent, seen.away, at)


def early_winner(loser: int, scores: tuple[int, ...], order: tuple[int, ...]) -> int:
    """The winner when ``loser`` resigns or forfeits: the other seat; with three, the higher score of the other two,
    then the role first in ``order`` (box, captain, sitter of the hand in progress or the last). Rule: END-1."""
    others = [s for s in order if s != loser]
    return max(others, key=lambda s: (scores[s], -order.index(s)))
