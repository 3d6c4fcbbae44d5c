"""A fair table's hands' seeds, gathered in two rounds and dealt: the server's commitment, every human seat's
commitment, the set, the seeds revealed, the deal; a seat that committed and does not reveal forfeits, and before
the first deal the table ends with no game. Each step runs under the table's lock and stores what it takes before
it answers (PROTO-9). Rules: PROTO-36 .. PROTO-38, PROTO-45 (spec/protocol.md, "Fair dealing"), DEAL-11
(spec/rules.md). ``knock.web.fairtable`` holds the values (``Seeding``) and the messages; this module the flow.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING

from knock.web import protocol
from knock.web.fairtable import Seeding, SeedRefused, commit_taken, fair_commit, fair_set, read_seed, seed_taken
from knock.web.game import Game
from knock.web.protocol import Message, ProtocolError
from knock.web.store import Committed, Dealt, Fail, SeedSent

if TYPE_CHECKING:
    from knock.web.table import Connection, Table


def fair_messages(table: Table) -> list[Message]:
    """What a connection is sent of the hand being seeded: the server's commitment, and once the commitments
    are closed, the set (PROTO-36, PROTO-45)."""
    seeding = table.seeding
    assert seeding is not None
    left = None if seeding.deadline is None else round(max(0.0, seeding.deadline - time.monotonic()), 1)
    timeout = table.spec.seed_timeout
    out = [fair_commit(table.id, seeding, timeout, left)]
    if seeding.closed:
        out.append(fair_set(table.id, seeding, timeout, left))
    return out


def send_fair(table: Table, conn: Connection) -> None:
    for message in fair_messages(table):
        conn.send(message)


def start_seeding(table: Table, *, fresh: bool = False, announce: bool = True) -> None:
    """Begin the wait for a fair hand's seeds (``fresh``: the next hand's, the one before dealt), or begin it
    again (a restart, a deal not stored): its timer, and what it has gathered sent to every connection at the
    table. Rules: PROTO-36, PROTO-37, PROTO-45."""
    game = table.game
    if fresh:
        assert game is not None and game.fair is not None
        hand = game.awaiting_seeds
        assert hand is not None
        table.seeding = game.fair.seeding(hand, game.humans)
    seeding = table.seeding
    assert seeding is not None
    _wait(table, seeding)
    if announce:
        for message in fair_messages(table):
            table.send_all(message)


def _wait(table: Table, seeding: Seeding) -> None:
    seeding.deadline = time.monotonic() + table.spec.seed_timeout
    table.spawn(_seed_timer(table, seeding, seeding.deadline))


async def take_commit(table: Table, conn: Connection, message: protocol.Commit) -> None:
    """A seat's commitment to its seed for the hand being seeded: checked, stored, acknowledged
    (``commit_taken``); the set closed once every human seat's is in. Rules: PROTO-38, PROTO-45.

    Raises:
        ProtocolError: ``bad_seed``: not hex of 32 bytes, no commitments gathered now, another hand's, another
            commitment than the seat's first, a spectator's; nothing changes.
    """
    async with table.lock:
        seeding = table.seeding
        try:
            made = read_seed(message.commitment, "commitment")
            again = _gathering(table, seeding).check_commit(conn.seat, message.hand, made)
        except SeedRefused as err:
            raise ProtocolError("bad_seed", err.reason, rule=err.rule) from None
        assert seeding is not None and conn.seat is not None
        if not again:
            try:
                await table.house.committer.write(Committed(table.id, seeding.number, conn.seat, made))
            except Exception:  # not stored: not taken (PROTO-9)
                raise ProtocolError("internal", "the commitment could not be stored; it was not taken") from None
            seeding.commits[conn.seat] = made
        conn.send(commit_taken(seeding, conn.seat, made, table.receipts))
        if not again and seeding.closed:
            await close_set(table)


def _gathering(table: Table, seeding: Seeding | None) -> Seeding:
    if seeding is None:
        fair = table.game is not None and table.game.fair is not None
        raise SeedRefused("no hand's seeds are being gathered now" if fair else "this table does not deal fairly")
    return seeding


async def close_set(table: Table) -> None:
    """Under the lock: close the hand's commitments (a human seat that sent none gets a supplied seed, stored
    as such first), send every connection the set, and wait for the reveals; deal at once when nobody owes
    one. Rules: PROTO-45, DEAL-11."""
    seeding = table.seeding
    assert seeding is not None
    for seat in [s for s in seeding.humans if s not in seeding.commits]:
        await table.house.committer.write(Committed(table.id, seeding.number, seat, None))
    seeding.close()
    _wait(table, seeding)
    table.send_all(fair_set(table.id, seeding, table.spec.seed_timeout, table.spec.seed_timeout))
    if seeding.complete:
        await deal(table)


async def take_seed(table: Table, conn: Connection, message: protocol.Seed) -> None:
    """A seat's seed for the hand being seeded, revealed once the set is closed: checked against its
    commitment, stored, acknowledged (``seed_taken``); the deal once every seat that committed has revealed.
    With the seed, the seat's signed statement of what it saw, where its connection named a key (PROTO-47), stored
    with it. Rules: PROTO-37, PROTO-38, PROTO-45, PROTO-47, DEAL-11, DEAL-12.

    Raises:
        ProtocolError: ``bad_seed``: not hex of 32 bytes, no seeds gathered now, before the set, another
            hand's or set's, a seed that does not match the seat's commitment, a statement missing or false, a
            spectator's; nothing changes.
    """
    async with table.lock:
        seeding = table.seeding
        try:
            seed = read_seed(message.seed)
            again = _gathering(table, seeding).check_seed(conn.seat, message.hand, seed, message.set)
            assert seeding is not None and conn.seat is not None and seed is not None
            signature = None if again else seeding.check_statement(conn.seat, seed, conn.signer, message.statement)
        except SeedRefused as err:
            raise ProtocolError("bad_seed", err.reason, rule=err.rule) from None
        if not again:
            stated = (conn.signer, signature) if signature is not None and conn.signer is not None else None
            try:
                await table.house.committer.write(SeedSent(table.id, seeding.number, conn.seat, seed, stated))
            except Exception:  # not stored: not taken (PROTO-9)
                raise ProtocolError("internal", "the seed could not be stored; it was not taken") from None
            seeding.sent[conn.seat] = seed
            if stated is not None:
                seeding.statements[conn.seat] = stated
        conn.send(seed_taken(seeding, conn.seat, seed, table.receipts))
        if not again and seeding.complete:
            await deal(table)


async def _seed_timer(table: Table, seeding: Seeding, deadline: float) -> None:
    await asyncio.sleep(max(0.0, deadline - time.monotonic()))
    async with table.lock:
        if table.seeding is not seeding or seeding.deadline != deadline:  # dealt, or a later wait runs
            return
        with contextlib.suppress(ProtocolError):  # not stored: the wait starts again (``deal``)
            if not seeding.closed:
                await close_set(table)
            elif seeding.missing:
                await no_reveal(table)
            else:
                await deal(table)


async def no_reveal(table: Table) -> None:
    """Under the lock: a seat that committed has not revealed its seed in time: it forfeits (END-3,
    ``no_reveal``) — no seed is supplied for it — and before the first deal the table ends with no game.
    Rules: DEAL-11, PROTO-45."""
    seeding = table.seeding
    assert seeding is not None and seeding.missing
    seat = seeding.missing[0]
    if table.game is None:
        await end_unplayed(table, f"p{seat} committed to a seed for hand 1 and did not reveal it in time (DEAL-11): "
                                "no game was played")  # fmt: skip
        return
    table.seeding = None
    await table.host(f"p{seat} forfeit no_reveal")


async def end_unplayed(table: Table, note: str) -> None:
    """Under the lock: end a fair table before its first deal, with no game (stored first): every connection
    is told and closed. Rules: PROTO-44, PROTO-45."""
    await table.house.committer.write(Fail(table.id, note))
    table.seeding, table.failed = None, note
    table.summary = {"table": table.id, "failed": note}  # the lobby's entry of a failed table (PROTO-23)
    for conns in table.conns.values():
        for conn in list(conns):
            conn.close(protocol.CLOSE_POLICY, ProtocolError("table_failed", f"this table cannot go on: {note}",
                                                            close=True, rule="DEAL-11"))  # fmt: skip


async def deal(table: Table) -> None:
    """Under the lock: deal the hand being seeded from the seeds sent and those the server supplies (DEAL-9),
    store it, show it. Rule: PROTO-37."""
    seeding = table.seeding
    assert seeding is not None
    seeds = seeding.seeds()
    if table.game is None:
        game, chunk = Game.new(table.id, table.spec, table.secret, table.house.key, seeds)
        first = 0
    else:
        game, first = table.game, table.game.record
        chunk = game.deal(seeds)
    try:
        await table.house.committer.write(Dealt(table.id, first, game.record, chunk))
    except Exception:  # not stored: the game goes back to what the store holds, and the wait starts again
        if table.game is not None:
            table.reload()
        start_seeding(table, announce=False)
        raise ProtocolError("internal", "the deal could not be stored; the seeds are gathered again") from None
    table.seeding = None
    first_deal = table.game is None
    if first_deal:
        table.adopt(game)
    table.summary = game.summary()
    table.schedule()
    if not first_deal:
        table.show()
        return
    for key, conns in table.conns.items():  # the first view, with the draw and the deal (PROTO-37)
        for conn in list(conns):
            conn.send(game.full_view(key, table.turn_left()))
