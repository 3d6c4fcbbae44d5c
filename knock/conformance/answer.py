"""Answers (CONF-5): what happened in a case, as Knock plays it on the engine (case mode) or replays its log
(log mode), and what the case expects, written the same way.

An answer is one JSON object: a rejection with its rule and position, or the accepted game's hands and
scores. Rules: CONF-3, CONF-5.
"""

from __future__ import annotations

from typing import Any

from engine.actions import MatchAction, parse_match_action
from engine.cards import cards
from engine.errors import InvalidDeal, InvalidMeld, InvalidRules, NotationError, RuleViolation
from engine.events import Dealt, HandEnded, HandStarted
from engine.fsm import ExecutorName
from engine.hand import Hand
from engine.match import Match
from engine.rules import RuleSet
from knock.conformance.aliases import resolve
from knock.conformance.cases import CANONICAL, Case, CaseError, CaseHand
from knock.conformance.host import host_step
from replay.log import LogError, LogReader, LogTruncated
from replay.public import ViewReplayer
from replay.replayer import Replayer
from replay.verdict import REQUIRED_RULE, judge


def _p(seat: int | None) -> str | None:
    return None if seat is None else f"p{seat}"


def summary(match: Match | None, players: int) -> dict[str, Any]:
    """The accept-answer fields (CONF-5) for a game as far as it has gone."""
    out: dict[str, Any] = {"hands": [], "scores": {f"p{s}": 0 for s in range(players)}, "game_over": False}
    if match is None:
        return out
    hands: list[dict[str, Any]] = out["hands"]
    for e in match.events:
        if isinstance(e, Dealt):
            hands[-1]["knock_limit"] = e.knock_limit
        elif isinstance(e, HandStarted):
            hands.append({"dealer": _p(e.dealer), "seats": [_p(s) for s in e.seats], "sitter": _p(e.sitter),
                          "result": None})  # fmt: skip
        elif isinstance(e, HandEnded):
            r = e.result
            hands[-1].update(
                result=r.kind.value,
                winner=_p(r.winner),
                points=r.points,
                knocker=_p(r.knocker),
                deadwood=None if r.deadwood is None else {f"p{s}": d for s, d in zip(r.seats, r.deadwood, strict=True)},
                multiplier=r.multiplier,
                scores={f"p{s}": v for s, v in enumerate(e.scores)},
            )
    hand = match.hand
    out["scores"] = {f"p{s}": v for s, v in enumerate(match.scores)}
    if match.is_over:
        st = match.standings()
        out.update(game_over=True, winner=_p(st.winner), totals={f"p{s}": v for s, v in enumerate(st.totals)})
    elif hand is not None and not hand.is_over:
        out["state"] = {
            "to_act": _p(hand.to_act),
            "phase": hand.phase.value,
            "knock_limit": hand.knock_limit,
            "stock": len(hand.stock),
            "discard": str(hand.discards[-1]) if hand.discards else None,
            "holding": {f"p{s}": " ".join(map(str, sorted(hand.cards_of(s)))) for s in hand.seats},
        }
    return out


def _reject(rule: str, hand: int, action: int, **more: Any) -> dict[str, Any]:
    return {"outcome": "reject", "rule": rule, "hand": hand, "action": action, **more}


def _log_reject(err: LogError) -> dict[str, Any]:
    return {"outcome": "reject", "rule": err.rule, "record": err.record, "reason": err.reason}


# --- playing a case on the engine ---------------------------------------------------------------


def deal(case: Case, rules: RuleSet, ch: CaseHand, match: Match | None, executor: ExecutorName = "library") -> Match:
    """Deal a case's hand: the prearranged deal is checked as one (DEAL-4), then starts the game (on
    ``executor``) or is its next deck. Raises ``InvalidDeal`` for a deal or a draw the rules refuse."""
    Hand.from_deal(rules, dealer=ch.dealer, hands=(ch.cards[ch.seats[0]], ch.cards[ch.seats[1]]),
                   upcard=ch.upcard, stock=ch.stock, seats=ch.seats, executor=executor)  # fmt: skip
    if match is None:
        return Match.scripted(rules, cuts=case.cuts, decks=[ch.deck], executor=executor)
    match.add_deck(ch.deck)
    return match


def parse_action(case: Case, text: str, h: int, a: int) -> MatchAction:
    """The action a case's canonical text asks for (``notation.resolve`` makes it canonical). Cards that are
    no meld raise ``InvalidMeld`` (the engine refuses the action, MELD-1, MELD-2); text in no known notation
    makes the case invalid (CONF-2)."""
    try:
        return parse_match_action(text)
    except NotationError as err:
        raise CaseError(case.path, f"hand {h} action {a}: {err}") from None


def answer_case(case: Case, *, executor: ExecutorName = "library") -> dict[str, Any]:
    """Knock's answer to a case, played on the engine (case mode, CONF-5). Raises ``CaseError`` for an
    action written in no known notation."""
    try:
        rules = case.rule_set()
        if not case.hands:  # rejected at its draw, if anywhere (CONF-2): the draw is judged alone
            if case.draw is not None:
                Match.scripted(rules, cuts=case.cuts, decks=[CANONICAL], executor=executor)
            return {"outcome": "accept", **summary(None, case.players)}
    except (InvalidRules, InvalidDeal) as err:  # a rule set no game is played under (RULES-3), a refused draw
        return _reject(err.rule, 0, 0, reason=err.reason)
    match: Match | None = None
    for h, ch in enumerate(case.hands, 1):
        try:
            if match is not None and not match.awaiting_deck:
                return _reject("CONF-3", h, 0, reason="the case deals a new hand while the engine's hand goes on",
                               **summary(match, case.players))  # fmt: skip
            match = deal(case, rules, ch, match, executor)
        except InvalidDeal as err:
            return _reject(err.rule, 0 if err.rule.startswith("MATCH") else h, 0, reason=err.reason)
        except InvalidRules as err:  # RULES-3: a reduced deck plays single hands, never a game
            return _reject(err.rule, 0, 0, reason=err.reason)
        for a, written in enumerate(ch.actions, 1):
            step = host_step(written)
            if step is not None:  # the host's forfeit, or its record of a seat's presence (END-3, END-4)
                try:
                    step.apply(match)
                    continue
                except RuleViolation as err:
                    return _reject(err.rule, h, a, reason=err.reason, **summary(match, case.players))
            try:
                action = parse_action(case, resolve(match, written), h, a)
            except InvalidMeld as err:
                return _reject(err.rule, h, a, reason=err.reason, **summary(match, case.players))
            try:
                match.apply(action)
            except RuleViolation as err:  # an illegal action (IllegalAction is one)
                return _reject(err.rule, h, a, reason=err.reason, **summary(match, case.players))
    return {"outcome": "accept", **summary(match, case.players)}


# --- replaying a log ----------------------------------------------------------------------------


def answer_log(
    data: bytes,
    players: int | None = None,
    *,
    executor: ExecutorName = "compiled",
    verify: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Knock's answer to a log (log mode, CONF-5): replay it strictly; a log that ends cleanly before its
    trailer is accepted as far as it goes, with ``game_over`` false (LOG-7). ``verify``: a case's ``[verify]``,
    the signer and digests the log must match (LOG-19)."""
    if verify:
        digests = verify.get("digests")
        verdict = judge(data, signer=bytes.fromhex(verify["signer"]) if "signer" in verify else None,
                        digests=None if digests is None else {bytes.fromhex(d) for d in digests})  # fmt: skip
        if verdict.rule == REQUIRED_RULE:
            return {"outcome": "reject", "rule": verdict.rule, "record": verdict.record, "reason": verdict.message}
    try:
        if LogReader(data).header.view is not None:
            return _answer_view(data)
    except LogError as err:
        return _log_reject(err)
    replayer: Replayer | None = None
    try:
        replayer = Replayer(data, executor=executor)
        for _ in replayer.states():
            pass
    except LogTruncated as err:
        if not err.clean or replayer is None:
            return _log_reject(err)
    except LogError as err:
        return _log_reject(err)
    assert replayer is not None
    return {"outcome": "accept", **summary(replayer.match, players or replayer.rules.players)}


def _answer_view(data: bytes) -> dict[str, Any]:
    """A per-seat view is answered in public mode (LOG-12): outcome, scores, game_over and winner; a view
    that ends cleanly before its trailer, of a game in progress, is accepted so far (LOG-7, LOG-13)."""
    try:
        replayer = ViewReplayer(data)
    except LogError as err:
        return _log_reject(err)
    try:
        st = replayer.run()
    except LogTruncated as err:
        if not err.clean:
            return _log_reject(err)
        st = replayer.state
    except LogError as err:
        return _log_reject(err)
    scores = st.scores or (0,) * len(replayer.header.players)  # no hand has ended yet
    return {"outcome": "accept", "view": f"p{st.seat}", "scores": {f"p{s}": v for s, v in enumerate(scores)},
            "game_over": st.over, "winner": _p(st.winner)}  # fmt: skip


# --- the expectation as an answer ---------------------------------------------------------------


def norm_cards(v: Any) -> Any:
    """Cards in the answers' order, rank then suit (a case may list them in any order)."""
    return " ".join(map(str, sorted(cards(v)))) if isinstance(v, str) else v


def _json(value: Any) -> Any:
    """A case's expected value as an answer writes it (CONF-5): ``"none"`` is null."""
    return None if value == "none" else value


def expected_answer(case: Case) -> dict[str, Any]:
    """Everything a case states, as the answer must give it (CONF-5): the ``[expect]`` fields, the holdings
    in answer order, and for an accept case every hand's dealer, seats and stated fields."""
    out: dict[str, Any] = {k: _json(v) for k, v in case.expect.items() if k not in ("stage", "state")}
    if "state" in case.expect:
        state = {k: _json(v) for k, v in case.expect["state"].items()}
        if "holding" in state:
            state["holding"] = {seat: norm_cards(held) for seat, held in state["holding"].items()}
        out["state"] = state
    if case.outcome == "reject":
        out["hand"], out["action"] = case.reject_at
    else:
        out["hands"] = [
            {"dealer": f"p{ch.dealer}", "seats": [f"p{s}" for s in ch.seats]}
            | {k: _json(v) for k, v in ch.expect.items()}
            for ch in case.hands
        ]
    return out
