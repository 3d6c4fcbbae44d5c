"""Who is at a live table, as its host records it: a person gone past the grace period is ``away`` and ``back``
when he says ``hello`` again (PROTO-43, END-4), and a table nobody attends for ``abandon_after`` is abandoned
(PROTO-44, END-6). Each is a host's step of the table's game (``Table.host``), written to its log and stored as any
change is (PROTO-9); the waits are the table's tasks, so a stopped server cancels them and a restarted one begins
them again (``Hub.resume``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from knock.web import fairflow
from knock.web.protocol import ProtocolError
from knock.web.table import Table

log = logging.getLogger("knock.web")


def _claims(table: Table, seat: int) -> bool:
    """Whether the table records ``seat``'s presence: a person's, in a game going on whose rules play claims."""
    game = table.game
    return bool(game and not game.over and game.match.rules.claim_after is not None and table.spec.human(seat))


async def gone(table: Table, seat: int) -> None:
    """Once ``seat``'s last connection has closed and it has not come back within the house's grace period, record
    it away at the time it left, and show the table again when a claim against it opens. Rules: PROTO-43, END-4."""
    left = table.house.clock()
    await asyncio.sleep(table.house.grace)
    async with table.lock:
        game = table.game
        if not _claims(table, seat) or table.present(seat) or game is None or seat in game.match.seen.away:
            return
        await table.host(f"p{seat} away {max(left, game.match.seen.clock)}")
        after = game.match.rules.claim_after
        if seat in game.match.seen.away and after is not None:
            table.spawn(_claim_opens(table, after))


async def returning(table: Table, seat: int) -> None:
    """Under the table's lock, before the seat's connection is welcomed: record it back if the host has it away, so
    that its first view is at the newest record. Rules: PROTO-43, END-4."""
    game = table.game
    if game is not None and _claims(table, seat) and seat in game.match.seen.away:
        await table.host(f"p{seat} back {table.house.clock()}")


def unattended(table: Table) -> None:
    """Start the wait after which a table nobody attends is abandoned, if no person is at it now (at its making,
    after a restart, when the last person's connection closes). Rule: PROTO-44."""
    if table.humans and not any(table.present(s) for s in table.humans):
        table.spawn(_abandon(table, table.attended))


async def _abandon(table: Table, attended: int) -> None:
    """Once ``abandon_after`` has passed with no person at the table (and nobody has taken a seat meanwhile), end
    its game as abandoned at the host's time: it stops counting against the server's tables. Rules: PROTO-44,
    END-6."""
    await asyncio.sleep(table.house.abandon_after)
    async with table.lock:
        if table.attended != attended or any(table.present(s) for s in table.humans):
            return
        seeding = table.seeding
        if seeding is not None and not seeding.committed:  # a fair hand's seeds being gathered, nobody committed:
            with contextlib.suppress(ProtocolError):  # it is dealt with those the server supplies (DEAL-9), then
                seeding.close()  # the game is abandoned
                await fairflow.deal(table)
        elif seeding is not None:  # a seat committed: no seed is supplied for it (DEAL-11); the game is abandoned
            if table.game is None:  # before the hand is dealt, and before the first deal there is none
                await fairflow.end_unplayed(table, "nobody attended the table before its first deal (PROTO-44)")
                return
            table.seeding = None
        game = table.game
        if game is None or game.over:
            return
        await table.host(f"abandon {max(table.house.clock(), game.match.seen.clock)}")
        if game.over:
            log.info("table %s: abandoned after %g s with nobody at it", table.id, table.house.abandon_after)


async def _claim_opens(table: Table, after: int) -> None:
    """Show the table again once a claim may be made (every view's ``endings`` then holds it)."""
    await asyncio.sleep(after + 1)
    async with table.lock:
        game = table.game
        if game is not None and not game.over and game.match.seen.away:
            table.show()
