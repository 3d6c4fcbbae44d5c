"""The fair dealing of ``knock serve``'s tables: the wait for each hand's seeds, the deal, a restart. Rules:
PROTO-35 .. PROTO-40.

``FairDealing`` is a part of ``knock.web.hub.Hub`` (its base class), kept apart to keep each module to one concept:
before each hand of a fair table the hub sends the server's commitment (``fair_commit``) to every connection,
takes each human seat's ``seed`` (stored before it is acknowledged, PROTO-9), and deals once every one is in or the
seed timeout has passed, supplying the others (DEAL-9). The table's secret, from which its server seeds come, is in
the store's record of the table only.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from knock.web import protocol
from knock.web.fairtable import Seeding, SeedRefused, TableChance, fair_commit, read_seed, seed_taken
from knock.web.live import Connection, Live
from knock.web.protocol import Message, ProtocolError
from knock.web.recovery import rebuild_fair
from knock.web.store import Dealt, SeedSent
from knock.web.tables import ServerTable, TableSpec


class FairDealing:
    """The hub's fair dealing (see the module's docstring); ``Hub`` provides the attributes below."""

    if TYPE_CHECKING:
        from knock.web.store import GroupCommit, Store
        from replay.signing import SigningKey

        store: Store
        committer: GroupCommit
        key: SigningKey | None
        tables: dict[str, Live]
        _secrets: dict[str, bytes | None]

        def _spawn(self, live: Live, work: Any) -> None: ...
        def _schedule(self, live: Live) -> None: ...
        def _show(self, live: Live) -> None: ...
        def _turn_left(self, live: Live) -> float | None: ...
        def _reload(self, live: Live) -> None: ...

    def _rebuild_fair(self, game: str, spec: TableSpec, records: int, secret: bytes | None) -> Live:
        """A fair table after a restart: before its first deal, the wait for the first hand's seeds with those
        stored; else its game played again from its stored seeds and actions (``rebuild_fair``) and, between
        hands, the wait for the next. Rule: PROTO-40."""
        assert secret is not None
        chance = TableChance(spec.rules.players, secret)
        humans = tuple(i for i in range(len(spec.seats)) if spec.human(i))
        if records == 0:
            seeding = chance.seeding(1, humans)
            seeding.sent.update(self.store.seeds(game, 1))
            return Live(game, None, pending_summary(game, spec), seeding=seeding, spec=spec)
        table = rebuild_fair(game, spec, self.store.log(game), records, self.store.applied(game), secret, self.key)
        live = Live(game, table, table.summary())
        hand = table.awaiting_seeds
        if hand is not None:
            live.seeding = chance.seeding(hand, humans)
            live.seeding.sent.update(self.store.seeds(game, hand))
        return live

    # --- fair dealing ----------------------------------------------------------------------------

    def _commit_message(self, live: Live) -> Message:
        seeding = live.seeding
        spec = live.table.spec if live.table is not None else live.spec
        assert seeding is not None and spec is not None
        left = None if seeding.deadline is None else round(max(0.0, seeding.deadline - time.monotonic()), 1)
        return fair_commit(live.id, seeding, spec.seed_timeout, left)

    def _start_seeding(self, live: Live, *, fresh: bool = False, announce: bool = True) -> None:
        """Begin the wait for a fair hand's seeds (``fresh``: the next hand's, the one before dealt): its timer,
        and its commitment sent to every connection at the table. Rules: PROTO-36, PROTO-37."""
        table = live.table
        spec = table.spec if table is not None else live.spec
        assert spec is not None
        if fresh:
            assert table is not None and table.fair is not None
            hand = table.awaiting_seeds
            assert hand is not None
            live.seeding = table.fair.seeding(hand, table.humans)
        seeding = live.seeding
        assert seeding is not None
        seeding.deadline = time.monotonic() + spec.seed_timeout
        self._spawn(live, self._seed_timer(live, seeding))
        if announce:
            message = self._commit_message(live)
            for conns in live.conns.values():
                for conn in list(conns):
                    conn.send(message)

    async def seed(self, conn: Connection, message: protocol.Seed) -> None:
        """A seat's seed for the hand being seeded: checked, stored, acknowledged (``seed_taken``); the deal once
        every human seat's is in. Rules: PROTO-37, PROTO-38.

        Raises:
            ProtocolError: ``bad_seed`` (PROTO-38): not hex of 32 bytes, no seeds gathered now, another hand's,
                a second one, a spectator's; nothing changes.
        """
        live = self.tables[conn.table or ""]
        async with live.lock:
            seeding = live.seeding
            try:
                seed = read_seed(message.seed)
                if seeding is None:
                    fair = live.table is not None and live.table.fair is not None
                    raise SeedRefused("no hand's seeds are being gathered now" if fair else "this table does not "
                                      "deal fairly")  # fmt: skip
                seeding.check(conn.seat, message.hand, seed)
            except SeedRefused as err:
                raise ProtocolError("bad_seed", err.reason, rule=err.rule) from None
            assert conn.seat is not None
            try:
                await self.committer.write(SeedSent(live.id, seeding.number, conn.seat, seed))
            except Exception:  # not stored: not taken (PROTO-9)
                raise ProtocolError("internal", "the seed could not be stored; it was not taken") from None
            seeding.sent[conn.seat] = seed
            conn.send(seed_taken(seeding.number, conn.seat, seed))
            if seeding.complete:
                await self._deal(live)

    async def _seed_timer(self, live: Live, seeding: Seeding) -> None:
        assert seeding.deadline is not None
        await asyncio.sleep(max(0.0, seeding.deadline - time.monotonic()))
        async with live.lock:
            if live.seeding is seeding:
                with contextlib.suppress(ProtocolError):  # not stored: the wait starts again (``_deal``)
                    await self._deal(live)

    async def _deal(self, live: Live) -> None:
        """Under the table's lock: deal the hand being seeded from the seeds sent and those the server supplies
        (DEAL-9), store it, show it. Rule: PROTO-37."""
        seeding = live.seeding
        assert seeding is not None
        seeds = seeding.seeds()
        if live.table is None:
            assert live.spec is not None
            table, chunk = ServerTable.new(live.id, live.spec, self._secrets[live.id], self.key, seeds)
            first = 0
        else:
            table, first = live.table, live.table.record
            chunk = table.deal(seeds)
        try:
            await self.committer.write(Dealt(live.id, first, table.record, chunk))
        except Exception:  # not stored: the game goes back to what the store holds, and the wait starts again
            if live.table is not None:
                self._reload(live)
            self._start_seeding(live, announce=False)
            raise ProtocolError("internal", "the deal could not be stored; the seeds are gathered again") from None
        live.seeding, live.spec = None, None
        if live.table is None:
            live.table = table
            live.summary = table.summary()
            self._schedule(live)
            for key, conns in live.conns.items():
                for conn in list(conns):
                    conn.send(table.full_view(key, self._turn_left(live)))
            return
        live.summary = table.summary()
        self._schedule(live)
        self._show(live)


def pending_summary(table: str, spec: TableSpec) -> dict[str, Any]:
    """The summary of a fair table before its first deal (PROTO-23)."""
    n = len(spec.seats)
    return {"table": table, "preset": spec.preset, "rules": spec.rules.to_dict(),
            "seats": protocol.seat_info(spec.seats), "hand": 0, "scores": [0] * n, "over": False, "winner": None,
            "record": 0, "turn_timeout": spec.turn_timeout}  # fmt: skip
