"""Compiling a case into its log form: the log of the game it describes, a rejected step written as given.

Rule: CONF-4.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from engine import notation
from engine.actions import Abort, Advise, Claim, MatchAction, Resign
from engine.errors import InvalidDeal, InvalidRules, RuleViolation
from engine.fsm import ExecutorName
from engine.match import Match
from knock.conformance.aliases import resolve
from knock.conformance.answer import deal, parse_action
from knock.conformance.cases import CANONICAL, Case, CaseHand
from knock.conformance.host import ending_record, ends_early, host_step
from knock.conformance.tamper import tamper_log
from replay.codec import (
    T_ADVICE,
    T_CUT,
    T_DEAL,
    T_HAND,
    T_LAYOFF,
    T_SPREAD,
    VERSION,
    action_record,
    chain,
    header_digest,
    pack,
)
from replay.log import Header, LogWriter


@dataclass
class Compiled:
    """A case's log form (CONF-4): the bytes and the answer a reader must give, or why it has none."""

    data: bytes | None
    expect: dict[str, Any]
    why_none: str = ""


class _Raw:
    """Appends records after a header, keeping the digest chain (for the parts the writer cannot produce)."""

    def __init__(self, out: io.BytesIO, digest: bytes, records: int) -> None:
        self.out, self.digest, self.records = out, digest, records

    def write(self, record: Any) -> int:
        data = pack(record)
        self.out.write(data)
        self.digest = chain(self.digest, data)
        self.records += 1
        return self.records


#: The writer named in the suite's compiled logs (LOG-1): the release that first compiled them, pinned so that the
#: shipped logs stay byte-identical from release to release.
SUITE_WRITER = "knock-gin 0.1.0"


def _header_bytes(case: Case, rules: dict[str, Any]) -> bytes:
    names = tuple(f"p{s}" for s in range(case.players))
    header = Header(VERSION, SUITE_WRITER, rules, names, {"case": case.path.stem}, False)
    return pack(header.to_wire())


def _raw_record(text: str) -> Any:
    """The record of a spread or layoff whose melds are invalid, written as given (CONF-4): its cards in the
    order written, as the notation reads them (NOTE-6, NOTE-7)."""
    written = notation.parse(text)
    if written.verb == "spread":
        return [T_SPREAD, *(bytes(m) for m in written.melds)]
    return [T_LAYOFF, [bytes(m) for m in written.melds], [[c, bytes(m)] for c, m in written.layoffs]]


def compile_case(case: Case, *, executor: ExecutorName = "compiled") -> Compiled:
    """The log of a case (CONF-4), built by playing it on the engine and writing what happened; a rejected
    action, deal or rule set is written as given, so a reader must reject it at that record."""
    want = dict(case.expect)
    out = io.BytesIO()
    try:
        rules = case.rule_set()
    except InvalidRules:
        head = _header_bytes(case, {"name": case.preset, **case.options})
        return Compiled(head, {**want, "record": 0})
    if not case.hands:
        return _draw_alone(case, out, want, executor)
    match: Match | None = None
    writer: LogWriter | None = None
    for h, ch in enumerate(case.hands, 1):
        try:
            if match is not None and not match.awaiting_deck:
                return Compiled(None, want, "the case deals a hand while the engine's hand goes on")
            match = deal(case, rules, ch, match, executor)
            if writer is None:
                early = ends_early([a for h in case.hands for a in h.actions])  # a log of version 3.0 (LOG-24)
                writer = LogWriter(out, match, meta={"case": case.path.stem}, engine=SUITE_WRITER, endings=early)
            writer.sync()
        except InvalidDeal as err:
            return _bad_deal(case, ch, h, err, out, writer, want)
        assert writer is not None
        for a, written in enumerate(ch.actions, 1):
            action: MatchAction | None = None
            step = host_step(written)
            if step is not None:  # the host's forfeit, or its record of a seat's presence (END-3, END-4)
                try:
                    step.apply(match)
                    writer.sync()
                    continue
                except RuleViolation:
                    return Compiled(out.getvalue() + pack(step.record()), {**want, "record": writer.records + 1})
            text = resolve(match, written)
            try:
                action = parse_action(case, text, h, a)
                if isinstance(action, Advise) and action.suggestion.seat != match.captain:
                    return Compiled(None, want, "advice for a seat other than the captain has no log form")
                match.apply(action)
                writer.sync()
                continue
            except RuleViolation:  # an illegal action, or cards that are no meld (InvalidMeld, from the text)
                pass
            if isinstance(action, Resign | Abort | Claim):  # an ending carries its seat: any seat may end a game
                return Compiled(out.getvalue() + pack(ending_record(action)), {**want, "record": writer.records + 1})
            if not isinstance(action, Advise) and notation.parse(text).seat != match.to_act:
                return Compiled(None, want, "an action out of turn has no log form (records carry no seat)")
            if action is None:
                rec = _raw_record(text)
            elif isinstance(action, Advise):
                rec = [T_ADVICE, action.seat, action_record(action.suggestion)]
            else:
                rec = action_record(action)
            return Compiled(out.getvalue() + pack(rec), {**want, "record": writer.records + 1})
    data = out.getvalue()
    if case.tamper is not None:
        data = tamper_log(data, case.tamper, case.path)
    return Compiled(data, want)


def _bad_deal(
    case: Case, ch: CaseHand, h: int, err: InvalidDeal, out: io.BytesIO, writer: LogWriter | None, want: dict[str, Any]
) -> Compiled:
    """The log of a case whose draw or deal is rejected: the prefix, then the draw or deal as given."""
    draw_fault = err.rule.startswith("MATCH")
    if ch.dealer not in ch.seats and not draw_fault:
        return Compiled(None, want, f"a dealer who is not dealt in has no log form: {err.reason}")
    deck = bytes(c.index for c in ch.deck) if not draw_fault else b""
    if len(deck) == 52 and len(set(deck)) == 52:
        return Compiled(None, want, f"this faulty deal has no log form: {err.reason}")
    sitter = next((s for s in range(case.players) if s not in ch.seats), None)
    if writer is None:
        raw, last_cut = _draw_records(case, out)
        if draw_fault:  # a reader judges each round, and a tie left unsettled at the record after the draw
            hand_at = raw.write([T_HAND, h, ch.dealer, ch.seats[0], ch.seats[1], sitter])
            raw.write([T_DEAL, bytes(c.index for c in ch.deck)])
            return Compiled(out.getvalue(), {**want, "record": _draw_fault_at(err, last_cut, hand_at)})
    else:
        raw = _Raw(out, writer.digest, writer.records)
    raw.write([T_HAND, h, ch.dealer, ch.seats[0], ch.seats[1], sitter])
    at = raw.write([T_DEAL, deck])
    return Compiled(out.getvalue(), {**want, "record": at})


def _draw_fault_at(err: InvalidDeal, last_cut: int, hand_at: int) -> int:
    """The record a reader names for a draw the engine refuses (LOG-13): the round that breaks MATCH-2 or MATCH-7
    (a case's draw is refused at its last round, CONF-3), or, for a tie no round settles (MATCH-3), the record
    that comes where the redraw is due: the first hand's."""
    return hand_at if err.rule == "MATCH-3" else last_cut


def _draw_records(case: Case, out: io.BytesIO) -> tuple[_Raw, int]:
    """The header and a cut record per round of the case's draw, as given; returns the last cut's number."""
    head = _header_bytes(case, case.rule_set().to_dict())
    out.write(head)
    raw = _Raw(out, header_digest(head), 0)
    seats = list(range(case.players))
    last_cut = 0
    for rnd in case.cuts:
        last_cut = raw.write([T_CUT, seats[: len(rnd)], bytes(c.index for c in rnd)])
    return raw, last_cut


def _draw_alone(case: Case, out: io.BytesIO, want: dict[str, Any], executor: ExecutorName) -> Compiled:
    """The log of a case that deals no hand (CONF-2: rejected at its draw): the header and the draw's rounds.
    A draw the engine refuses is followed by a first hand (the seats p0 and p1, p1 dealing, the deck in canonical
    order) and is rejected at its last round, or, when a tie is left unsettled, at that hand record (LOG-13); a
    draw the engine accepts ends the log there, a game not yet dealt (accepted so far, CONF-5)."""
    if case.draw is None:
        return Compiled(_header_bytes(case, case.rule_set().to_dict()), want)
    raw, last_cut = _draw_records(case, out)
    try:
        Match.scripted(case.rule_set(), cuts=case.cuts, decks=[CANONICAL], executor=executor)
    except InvalidDeal as err:
        hand_at = raw.write([T_HAND, 1, 1, 0, 1, 2 if case.players == 3 else None])
        raw.write([T_DEAL, bytes(c.index for c in CANONICAL)])
        return Compiled(out.getvalue(), {**want, "record": _draw_fault_at(err, last_cut, hand_at)})
    return Compiled(out.getvalue(), want)
