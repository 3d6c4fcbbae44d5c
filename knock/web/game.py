"""A table's game: the match, its log as it is written, and what each recipient is sent. Rules: PROTO-2, PROTO-5,
PROTO-7, PROTO-8, PROTO-10, PROTO-14.

A ``Game`` knows nothing of sockets, processes or databases: ``knock serve`` (its live tables,
``knock.web.table``) and ``knock engine`` (``knock.web.engine_io``) both drive it. ``act`` is the one way an action
reaches the game: it checks the record number the action expects, reads the action in the seat's name, applies it
through the engine's one validation path and returns the log's new bytes for the caller to store before it
acknowledges. ``advance`` then shows every seat (and the spectators) what happened, through each one's ``SeatLens``,
and ``frames`` writes a seat's messages: its view, the results of hands that ended, the game's result. A bot's
move is asked as a ``BotMove`` (``bot_move``), which any bot runner (``knock.web.botwork``) answers, in this
process or another."""

from __future__ import annotations

import hashlib
import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

from engine.actions import Abort, Advise, Claim, Resign, parse_match_action
from engine.errors import IllegalAction, NotationError, RuleViolation
from engine.events import Abandoned, Aborted, Claimed, CutDrawn, Forfeited, GameOver, HandEnded, HandStarted, Resigned
from engine.fairdeal import FairSeeds
from engine.kernel import NOT_AN_ACTION
from engine.match import Match
from engine.rules import RuleSet
from engine.visibility import SeatLens, Seen, advice_shown, blind_advice, observe_spectator
from knock.conformance.host import host_step
from knock.web import protocol, views
from knock.web.botwork import BotMove, choose
from knock.web.fairtable import TableChance, fair_info, fair_reveal
from knock.web.protocol import Message
from knock.web.tablespec import TableSpec, commit_key_of, meta_of, players_of
from replay.log import LogWriter
from replay.narration import Voice, display_names
from replay.signing import SigningKey

#: A recipient of frames: a seat, or None for the spectators.
Key: TypeAlias = int | None

#: The seat a host's step of no seat is kept under (``abandon``, END-6): no seat of any game.
HOST = -1

#: The host's clock: whole seconds since 1970-01-01T00:00:00 UTC (END-4, PROTO-43).
Clock: TypeAlias = Callable[[], int]


def wall_clock() -> int:
    return int(time.time())


@dataclass(frozen=True, slots=True)
class Applied:
    """An action applied: who, its text (canonical), and the record numbers before and after (PROTO-7)."""

    seat: int
    action: str
    record: int
    after: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What ``act`` did: the reply for the actor, and, when applied, the log bytes to store before sending it."""

    reply: Message
    applied: Applied | None = None
    chunk: bytes = b""


class Sink(io.BytesIO):
    """A table's log stream: it keeps the bytes written since they were last taken (for the store)."""

    def take(self) -> bytes:
        data = self.getvalue()
        self.seek(0)
        self.truncate()
        return data


class Lens:
    """What one recipient (a seat, or the spectators) has seen of the game: its ``SeatLens``, the current hand's
    events as it saw them, and those not yet sent."""

    def __init__(self, rules: RuleSet, key: Key, names: tuple[str, ...]) -> None:
        self.lens = SeatLens(rules, key)
        #: how its events are told: the seats by their names, the recipient's own as "you", cards with symbols
        self.voice = Voice(display_names(names), me=key, seats=rules.players)
        self.hand = 0
        self.seen: list[Seen] = []  #: the current hand's events as seen (the draw's before the first hand)
        self.fresh: list[Message] = []  #: events not sent yet, as messages
        self.results: list[Message] = []  #: hand and game results not sent yet


class Game:
    """One game at one table (see the module's docstring)."""

    def __init__(
        self, table: str, spec: TableSpec, match: Match, writer: LogWriter, sink: Sink, fair: TableChance | None = None
    ) -> None:
        self.id = table
        self.clock: Clock = wall_clock  #: the host's time, for a view's ``away`` (PROTO-43)
        self.spec = spec
        self.fair = fair  #: a fair table's chance: each hand's seeds (PROTO-35)
        self.match = match
        self.writer = writer
        self.sink = sink
        self.applied: dict[int, Applied] = {}  #: by the record number each action expected (PROTO-7)
        names = tuple(seat.name for seat in spec.seats)
        self.lenses: dict[Key, Lens] = {k: Lens(spec.rules, k, names) for k in (*self.humans, None)}
        self._fed = 0
        self._pub: tuple[int, views.Public] | None = None
        #: The game's draw for the deal, public: each round's seats and cards, in every view (1.4, PROTO-39)
        self.draw: list[Message] = []
        self.advance()
        for lens in self.lenses.values():  # a fresh connection is sent the whole hand; nothing is pending
            lens.fresh.clear()

    @classmethod
    def new(
        cls,
        table: str,
        spec: TableSpec,
        secret: bytes | None = None,
        key: SigningKey | None = None,
        seeds: FairSeeds | None = None,
    ) -> tuple[Game, bytes]:
        """A table's game dealt from its seed, and the log's first bytes (header, draw, first deal) to store;
        with ``key``, the log is signed (LOG-17). A fair table's (``spec.fair``) is dealt from the first hand's
        ``seeds``, its server seeds from ``secret`` (PROTO-35, PROTO-40)."""
        sink = Sink()
        chance = None
        if spec.fair:
            assert secret is not None and seeds is not None and seeds.number == 1
            chance = TableChance(spec.rules.players, secret)
            chance.settle(seeds)
            match = Match(spec.rules, chance, executor=spec.executor)
        else:
            match = Match.new(spec.rules, seed=spec.seed, executor=spec.executor)
        writer = LogWriter(sink, match, players=players_of(spec), meta=meta_of(table, spec),
                           commit_key=commit_key_of(secret, spec), key=key, fair=chance, endings=True)  # fmt: skip
        return cls(table, spec, match, writer, sink, chance), sink.take()

    @property
    def humans(self) -> tuple[int, ...]:
        return tuple(i for i in range(len(self.spec.seats)) if self.spec.human(i))

    @property
    def record(self) -> int:
        """The game's record number: the records in its log after the header (PROTO-7)."""
        return self.writer.records

    @property
    def over(self) -> bool:
        return self.match.is_over

    @property
    def awaiting_seeds(self) -> int | None:
        """At a fair table between hands: the number of the hand whose seeds the deal waits for. Rule: PROTO-36."""
        m = self.match
        return m.number + 1 if self.fair is not None and not m.is_over and m.awaiting_deck else None

    def deal(self, seeds: FairSeeds) -> bytes:
        """Deal the hand ``seeds`` are for (the one awaited), and return the log's new bytes to store. Rule:
        PROTO-37."""
        assert self.fair is not None and self.awaiting_seeds == seeds.number
        self.fair.settle(seeds)
        deck = self.fair.deck()
        assert deck is not None
        self.match.add_deck(deck)
        self.writer.sync()
        return self.sink.take()

    def fair_view(self) -> Message | None:
        """A view's ``fair``: the current hand's seeds, and its server seed once the hand has its result. Rule:
        PROTO-39."""
        m = self.match
        if self.fair is None:
            return None
        seeds = self.fair.hands.get(m.number)
        assert seeds is not None
        return fair_info(seeds, m.hand is not None and m.hand.result is not None)

    # --- acting ------------------------------------------------------------------------------------

    def act(self, seat: int, text: str, record: int, *, host_time: bool = False) -> Outcome:
        """Apply ``text`` as ``seat``'s action if the game is at ``record``. Rules: PROTO-7, PROTO-8, PROTO-41.

        The checks run in PROTO-22's order: the game is not over (MATCH-1); the record number (a resend of an
        action already applied at ``record`` is acknowledged again, ``duplicate``, and not applied; any other
        record number is stale, PROTO-7); the text is an action (spec/notation.md); it is the seat's own
        (PROTO-3); it is no claim, whose time is the host's (PROTO-41: a client asks with ``claim``, ``claim``
        here; ``host_time``: the text's time is the host's own); a blind sitter's advice names no card (THREE-8);
        then the engine's rules.
        """
        if self.over:
            return Outcome(protocol.refusal(seat, text, "MATCH-1", "the game is over", self.record))
        if record != self.record:
            done = self.applied.get(record)
            if done is not None and done.seat == seat and _same(text, seat, done.action):
                return Outcome(protocol.ack(seat, done.action, done.record, done.after, duplicate=True))
            return self._stale(seat, text, record)
        try:
            action = parse_match_action(text, seat)
        except NotationError as err:
            rule = err.rule if err.rule[:1].isalpha() and "-" in err.rule else NOT_AN_ACTION
            return Outcome(protocol.refusal(seat, text, rule, str(err).split(": ", 1)[-1], self.record))
        except RuleViolation as err:  # cards written as a meld that make none (MELD-1, MELD-2)
            return Outcome(protocol.refusal(seat, text, err.rule, err.reason, self.record))
        if action.seat != seat:
            reason = f"a seat acts only for itself: p{seat} cannot act as p{action.seat}"
            return Outcome(protocol.refusal(seat, text, "PROTO-3", reason, self.record))
        if isinstance(action, Claim) and not host_time:
            reason = "a claim's time is the host's: ask for it with the message claim (PROTO-42), not as an action"
            return Outcome(protocol.refusal(seat, text, "PROTO-41", reason, self.record))
        if isinstance(action, Advise) and blind_advice(self.match, action):
            reason = "the sitter does not see the captain's cards and may advise only actions that name none"
            return Outcome(protocol.refusal(seat, text, "THREE-8", reason, self.record))
        try:
            self.match.apply(action)
        except RuleViolation as err:  # an illegal action, or cards that are no meld
            return Outcome(protocol.refusal(seat, text, err.rule, err.reason, self.record))
        return self._done(seat, str(action), record)

    def claim(self, seat: int, against: int, record: int, at: int) -> Outcome:
        """``seat`` claims the game against the away seat ``against`` at the host's time ``at``: the action
        ``claim pA at T``, judged as an ``act`` (its resend, the same seat, seat claimed against and record, is a
        duplicate whatever its time). Rules: PROTO-42, END-4."""
        text = f"claim p{against} at {at}"
        done = self.applied.get(record) if record != self.record else None
        resent = done is not None and done.seat == seat and done.action.startswith(f"claim p{against} at ")
        if done is not None and resent:
            return Outcome(protocol.ack(seat, done.action, done.record, done.after, duplicate=True))
        return self.act(seat, text, record, host_time=True)

    def host(self, text: str) -> Outcome:
        """The host's step ``text`` (``pN away T``, ``pN back T``, ``pN forfeit REASON``: a seat gone from the
        table, back, or forfeiting; ``abandon T``: a game nobody attends ended), taken at the game's record. Rules:
        PROTO-43, END-3, END-4, END-6."""
        step = host_step(text)
        if step is None:
            reason = "a host's step is 'pN away T', 'pN back T', 'pN forfeit REASON' or 'abandon T'"
            return Outcome(protocol.refusal(None, text, "PROTO-43", reason, self.record))
        if self.over:
            return Outcome(protocol.refusal(step.seat, text, "MATCH-1", "the game is over", self.record))
        try:
            step.apply(self.match)
        except RuleViolation as err:
            return Outcome(protocol.refusal(step.seat, text, err.rule, err.reason, self.record))
        return self._done(step.seat, str(step), self.record)

    def _done(self, seat: int | None, action: str, record: int) -> Outcome:
        """What was applied, kept and acknowledged (``seat`` None: a host's step of no seat, kept as ``HOST``'s)."""
        self.writer.sync()
        done = Applied(HOST if seat is None else seat, action, record, self.record)
        self.applied[record] = done
        return Outcome(protocol.ack(seat, done.action, record, done.after), done, self.sink.take())

    def _stale(self, seat: int, text: str, record: int) -> Outcome:
        reason = f"the action expects record {record}, the game is at record {self.record} (act on the newest view)"
        return Outcome(protocol.refusal(seat, text, "PROTO-7", reason, self.record))

    def bot_move(self, seat: int, *, stand_in: bool = False) -> BotMove:
        """The choice the seat's bot (or, ``stand_in``, the heuristic bot standing in for a person whose turn
        timed out) is asked to make now: from the seat's own observation alone. Rules: VIS-2, PROTO-12, PROTO-14."""
        hand = self.match.hand
        assert hand is not None and self.match.to_act == seat
        name = "heuristic" if stand_in else self.spec.seats[seat].bot or "heuristic"
        seed = bot_seed(self.spec.seed, seat, self.record)
        return BotMove(name, seed, self.match.seat_observation(seat), tuple(self.match.legal_actions()))

    def bot_action(self, seat: int, *, stand_in: bool = False) -> str:
        """The action of ``bot_move``, chosen here (``knock engine``; a server asks its bot runner)."""
        return choose(self.bot_move(seat, stand_in=stand_in))

    def bot_to_move(self) -> int | None:
        """The bot seat to act now, if any."""
        seat = self.match.to_act
        return seat if seat is not None and not self.spec.human(seat) else None

    def legal(self, key: Key) -> list[str]:
        """What ``key`` may do now, as text: the seat to act's legal actions, the sitter's advice, in the engine's
        order (PROTO-26). Rules: PROTO-5, PROTO-26."""
        m = self.match
        if key is None or m.to_act is None:
            return []
        if key == m.to_act:
            return [str(a) for a in m.legal_actions()]
        return [str(a) for a in advice_shown(m, key)]

    def endings(self, key: Key) -> list[str]:
        """The endings ``key`` may ask for now, as the rules judge them (``Match.check``): ``resign``, ``abort``,
        and ``claim pN`` for each seat it may claim against at the host's time now. Rules: PROTO-43, END-1, END-2,
        END-4."""
        m = self.match
        if key is None or m.is_over:
            return []
        now = self.clock()
        asks: list[tuple[str, Resign | Abort | Claim]] = [("resign", Resign(key)), ("abort", Abort(key))]
        asks += [(f"claim p{a}", Claim(key, a, now)) for a in sorted(m.seen.away) if a != key]
        out = []
        for text, action in asks:
            try:
                m.check(action)
            except IllegalAction:
                continue
            out.append(text)
        return out

    def away(self) -> list[Message]:
        """The seats away by the host's record, since when, and the seconds until a claim against each is allowed
        (0: now; None: claims are not played). Rule: PROTO-43."""
        m = self.match
        after, now = m.rules.claim_after, self.clock()
        return [{"seat": s, "since": t, "claim_in": None if after is None else max(0, t + after - now)}
                for s, t in sorted(m.seen.away.items())]  # fmt: skip

    # --- what each recipient is sent ---------------------------------------------------------------

    def advance(self) -> None:
        """Show every recipient the events since the last call, through its lens. Rule: PROTO-5."""
        events = self.match.events
        new = events[self._fed :]
        self._fed = len(events)
        self.draw += [
            {"seats": list(e.seats), "cards": [str(c) for c in e.cards]} for e in new if isinstance(e, CutDrawn)
        ]
        for lens in self.lenses.values():
            for e in new:
                seen = lens.lens.see(e)
                if isinstance(e, HandStarted):
                    lens.hand = e.number
                    lens.seen = []
                lens.seen.append(seen)
                lens.fresh.append(views.event(lens.hand, seen, lens.voice))
                if isinstance(e, HandEnded):
                    done = views.hand_result(lens.seen, e.number)
                    if done is not None:
                        lens.results.append(done)
                    if self.fair is not None:  # the server's seed, once the hand has its result (PROTO-39)
                        lens.results.append(fair_reveal(self.fair.seeds(e.number)))
                elif isinstance(e, GameOver):
                    lens.results.append(self.game_result())

    def view(self, key: Key, events: Sequence[Message], turn_left: float | None = None) -> Message:
        """``key``'s view now, with ``events`` and the seconds left of the turn by the hub's timer (``turn_left``).
        Rules: PROTO-5, PROTO-6, PROTO-33, PROTO-34."""
        m = self.match
        lens = self.lenses[key]
        pub = self._public()
        if key is None:
            body = views.spectator_view(observe_spectator(m), pub, lens.seen)
        else:
            body = views.seat_view(m.observation(key), pub, lens.seen)
        legal = self.legal(key)
        ranked = views.defences(legal, body["cards"], key) if body["role"] != "sitter" else []
        seen = views.discards(lens.seen)
        return protocol.view(self.id, key, self.record, body, legal, events, ranked, turn_left, seen, self.fair_view(),
                             self.draw, self.endings(key), self.away())  # fmt: skip

    def _public(self) -> views.Public:
        """What every view shares (the roles, the sheet), made once per change of the game."""
        m = self.match
        if self._pub is None or self._pub[0] != len(m.events):
            self._pub = (len(m.events), views.Public(m.rules, m.roles(), _numbered(m), m.standings(), m.is_over))
        return self._pub[1]

    def frames(self, key: Key, turn_left: float | None = None) -> list[Message]:
        """What ``key`` is sent after a change: the results of hands (and the game) that ended, then its view
        with the events since its last. Rule: PROTO-10."""
        lens = self.lenses[key]
        out = [addressed(r, key) for r in lens.results]
        out.append(self.view(key, lens.fresh, turn_left))
        lens.results, lens.fresh = [], []
        return out

    def full_view(self, key: Key, turn_left: float | None = None) -> Message:
        """``key``'s view with the whole current hand's events: for a connection that has just (re)joined."""
        lens = self.lenses[key]
        return self.view(key, [views.event(lens.hand, s, lens.voice) for s in lens.seen], turn_left)

    def game_result(self, key: Key = None) -> Message:
        """The ``game_result`` message for ``key`` (a seat, None for the spectators): the winner (None after an
        abort), the totals, and how the game ended before the target, if it did. Rules: PROTO-10, PROTO-43."""
        m = self.match
        st = m.standings()
        sheet = views.sheet(list(_numbered(m)), st)
        return {"type": "game_result", "seat": key, "winner": m.winner, "totals": list(st.totals),
                "hands": m.number, "sheet": sheet, "ending": ending(m)}  # fmt: skip

    def summary(self) -> Message:
        """What anyone may know of the table (``GET /api/tables``): rules, seats, progress. Rule: PROTO-2."""
        m = self.match
        return {
            "table": self.id, "preset": self.spec.preset, "rules": m.rules.to_dict(),
            "seats": protocol.seat_info(self.spec.seats), "hand": m.number, "scores": list(m.scores),
            "over": m.is_over, "winner": m.winner, "record": self.record, "turn_timeout": self.spec.turn_timeout,
        }  # fmt: skip


def ending(m: Match) -> Message | None:
    """How a game ended before the target (None: at the target, or not over): the kind, the seat that resigned,
    aborted, forfeited or claimed (none when the host abandoned it), the seat claimed against, a forfeit's reason.
    Rules: PROTO-43, END-1 .. END-4, END-6."""
    end = m.ended
    if end is None:
        return None
    if isinstance(end, Abandoned):  # the host's end of a game nobody attends: no seat (END-6)
        return {"kind": "abandon", "seat": None, "against": None, "reason": None}
    kinds = {Resigned: "resign", Aborted: "abort", Forfeited: "forfeit", Claimed: "claim"}
    return {"kind": kinds[type(end)], "seat": end.seat, "against": end.absent if isinstance(end, Claimed) else None,
            "reason": end.reason if isinstance(end, Forfeited) else None}  # fmt: skip


def addressed(message: Message, key: Key) -> Message:
    """A result message with the seat it is sent to (None: a spectator) after its type (PROTO-10)."""
    return {"type": message["type"], "seat": key, **{k: v for k, v in message.items() if k not in ("type", "seat")}}


def _numbered(m: Match) -> list[tuple[int, Any]]:
    """Each recorded hand result with its hand's number (every deal counts)."""
    numbers = [e.number for e in m.events if isinstance(e, HandEnded)]
    return list(zip(numbers, m.results, strict=True))


def _same(text: str, seat: int, applied: str) -> bool:
    """Whether ``text`` is, in ``seat``'s name, the action applied (its canonical text)."""
    try:
        action = parse_match_action(text, seat)
    except NotationError:
        return False
    return str(action) == applied and (not isinstance(action, Advise) or action.seat == seat)


def bot_seed(seed: int, seat: int, record: int) -> int:
    """The random bot's seed for one choice: from the table's seed, the seat and the record number alone, so a
    game rebuilt after a restart goes on as it would have (PROTO-14). SHA-256: the same in every process."""
    digest = hashlib.sha256(f"knock-bot:{seed}:{seat}:{record}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
