"""Forging per-seat views for the tests of what a seat checks (LOG-16): games played by a policy, their views as
records, and a view resealed with a recomputed digest chain, so that only the forged record is wrong."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from engine.actions import Action
from engine.match import Match
from engine.rules import RuleSet
from knock.bots import GreedyBot
from replay.codec import T_CHECKPOINT, T_TRAILER, chain, header_digest, pack, unpacked
from replay.grammar import Kind, classify
from replay.log import write_log
from replay.redact import redact
from replay.verdict import Verdict, judge

#: A policy: the action it wants now (one of ``legal``), or None to let a greedy bot choose.
Policy = Callable[[Match, list[Action]], Action | None]


def played(rules: RuleSet, seed: int, policy: Policy | None = None, *, hands: int | None = None) -> Match:
    """A seeded game played by ``policy`` (a greedy bot where it has no opinion), to its end or for ``hands``."""
    m = Match.new(rules, seed=seed, executor="compiled")
    bot = GreedyBot()
    while (seat := m.to_act) is not None and (hands is None or len(m.results) < hands):
        legal = m.legal_actions()
        action = policy(m, legal) if policy is not None else None
        if action is None:
            assert m.hand is not None
            action = bot.choose(m.hand.observation(seat), legal)
        m.apply(action)
    return m


def view(match: Match, seat: int, *, commit_key: bytes | None = None) -> tuple[Any, list[Any]]:
    """The header and the records of ``seat``'s view of the game."""
    header, *body = (v for v, _ in unpacked(io.BytesIO(redact(write_log(match, commit_key=commit_key), seat))))
    return header, body


def reseal(header: Any, body: list[Any]) -> bytes:
    """A view of these records with every checkpoint and the trailer recomputed (the forger's chain)."""
    head = pack(header)
    digest, out = header_digest(head), [head]
    for i, rec in enumerate(body, start=1):
        if type(rec) is list and rec and rec[0] == T_CHECKPOINT:
            rec = [T_CHECKPOINT, digest]
        elif type(rec) is list and rec and rec[0] == T_TRAILER:
            rec = [T_TRAILER, i - 1, digest]
        raw = pack(rec)
        digest = chain(digest, raw)
        out.append(raw)
    return b"".join(out)


def where(body: list[Any], kind: Kind, after: int = 0) -> int:
    """The position in ``body`` of the first record of ``kind`` at or after ``after`` (its record number is one
    more)."""
    return next(i for i in range(after, len(body)) if classify(body[i], view=True) is kind)


def refused(header: Any, body: list[Any]) -> Verdict:
    """The verdict on the resealed view, which must be a failure (not a bug of the reader)."""
    verdict = judge(reseal(header, body))
    assert verdict.kind == "fail" and not verdict.internal, verdict
    return verdict


def honest(header: Any, body: list[Any]) -> Verdict:
    """The verdict on the view resealed unchanged: it must pass or be unfinished (a game stopped by the test)."""
    verdict = judge(reseal(header, body))
    assert verdict.kind in ("pass", "unfinished"), verdict
    return verdict
