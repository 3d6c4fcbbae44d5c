"""The replayer: one driver reads a log through the record grammar; a model gives each record its meaning.

Rules: LOG-8, LOG-9, LOG-12. ``drive`` is the one replay loop, for full logs and per-seat views alike: it
reads each record, asks the grammar (``replay.grammar``) whether the reader's state accepts its kind, lets the
model take it, and moves to the state the model picks among the row's. A full log is replayed strictly by
``Replayer``: the engine re-applies every action through its one validation path and recomputes every derived
record, and replay never calls a random number generator (the draws and deck orders come from the records,
through ``Match.scripted``). Replay runs the engine's compiled executor (its performance mode, ``engine.fsm``)
unless asked for ``executor="library"``; both give the same game. A per-seat view is replayed in public mode
by ``replay.public.ViewReplayer``. The audits built on both are in ``replay.audit``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, Protocol

from engine.actions import Abort, Advise, Claim, MatchAction, Resign
from engine.cards import Card
from engine.chance import Chance, ScriptedChance
from engine.errors import IllegalAction, InternalError, InvalidDeal, InvalidMeld, InvalidRules, render
from engine.events import GameOver, HandEnded, HandScored, MatchEvent
from engine.fsm import ExecutorName
from engine.match import Match
from engine.rules import RuleSet
from replay.codec import (
    T_ABANDON,
    T_ABORT,
    T_ADVICE,
    T_AWAY,
    T_BACK,
    T_CLAIM,
    T_CUT,
    T_DEAL,
    T_FORFEIT,
    T_RESIGN,
    CodecError,
    action_of,
    commitment,
    event_record,
    record_type,
)
from replay.endings import check_version, forfeit_reason
from replay.fair import FairCheck
from replay.grammar import ACCEPTS, ACTIONS, ENDINGS, PLAYING, PRESENCE, At, Kind, Row, classify
from replay.log import Entry, LogError, LogReader
from replay.notation import record_text
from replay.reading import Handler, Reading


class Model(Protocol):
    """What a record means to a replay: a handler per record kind, and the error for a record out of place."""

    handlers: dict[Kind, Handler]

    def refuse(self, at: At, kind: Kind, entry: Entry) -> LogError:
        """The error for a record of ``kind`` where the grammar does not accept it (``at``)."""
        ...

    def unfinished(self, at: At, index: int) -> LogError:
        """The error for a log that ends at ``at``, before its trailer."""
        ...


def drive(reader: LogReader, model: Model, *, view: bool = False) -> Iterator[tuple[Entry, At]]:
    """The one replay loop: every record through the grammar and the model; yields each with the state after it.

    Raises:
        LogError: the first record the reader, the grammar or the model refuses, with its number.
    """
    at = At.CUT
    accepts = ACCEPTS
    handlers = model.handlers
    for entry in reader.entries():
        kind = classify(entry.record, view)
        row = accepts[at].get(kind)
        if row is None:
            raise model.refuse(at, kind, entry)
        after = handlers[kind](row, entry)
        if after not in row.next:
            raise InternalError(f"record {entry.index}: {kind.value} leads from {at.value} to {row.next}, "
                                f"not to {after.value}")  # fmt: skip
        at = after
        yield entry, at
    if at is not At.END:
        raise model.unfinished(at, reader.index)


class ReplayError(LogError):
    """The log disagrees with the rules: an illegal action, or a derived record that differs from the
    engine's. Carries what the engine expected and what the log holds.
    """

    def __init__(self, rule: str, record: int, reason: str, *, expected: Any = None, found: Any = None) -> None:
        want, got = _shown(expected), _shown(found)
        if want == got:  # they differ where words do not look: show the values
            want, got = render(expected), render(found)
        parts = [f"expected {want}" if expected is not None else "", f"found {got}" if found is not None else ""]
        detail = f" ({', '.join(p for p in parts if p)})" if any(parts) else ""
        super().__init__(rule, record, reason + detail)
        self.expected = expected
        self.found = found


def _a(word: str) -> str:
    """``word`` with its indefinite article."""
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _shown(value: Any) -> str:
    """A record (or a record's kind, already in words) for a message: cards in their notation, never raw bytes."""
    return value if isinstance(value, str) else record_text(value)


@dataclass(frozen=True, slots=True)
class ReplayState:
    """The game after one record: the record's index and value, the live match (read it, don't change it), and
    the engine's event the record stands for (None for the log's own framing: commitments, salts, seals)."""

    index: int
    record: Any
    match: Match
    event: MatchEvent | None = None


class Replayer:
    """Replays one full log strictly: ``states()`` yields the game after every record; ``run()`` replays it all.

    >>> from knock.bots import GreedyBot, play_match
    >>> from replay.log import write_log
    >>> game = play_match(Match.new(seed=5), [GreedyBot(), GreedyBot()])
    >>> Replayer(write_log(game)).run().events == game.events
    True
    """

    def __init__(
        self,
        source: BinaryIO | bytes | LogReader,
        *,
        executor: ExecutorName = "compiled",
        history: bool = True,
        then: Chance | None = None,
        before: Callable[[Match, MatchAction], None] | None = None,
    ) -> None:
        """``source``: the log's bytes, a binary stream of them (read a chunk at a time), or a reader that has
        read the header. ``history=False`` replays without keeping the game's history (``Match``'s option): the
        memory of a replay then stays the same however long the log, and ``run()`` returns a game whose
        ``events`` are only its last step's; checking a log needs no more (``replay.verdict.judge``).

        ``then``: the chance the rebuilt game goes on with after ``go_on()`` (the log's own draws and deals
        serve it until then). ``before``: called with the game and each action the log holds, before the
        action is applied (what it raises ends the replay: a caller's own check, such as a bot's move).
        ``replay.resume`` uses both."""
        self.executor: ExecutorName = executor
        self.reader = source if isinstance(source, LogReader) else LogReader(source)
        header = self.reader.header
        if header.view is not None:
            raise LogError("LOG-11", 0, f"a per-seat view (for p{header.view}) replays in public mode only")
        self.rules = header.rule_set()
        self.model = Strict(self.reader, self.rules, executor, history, then=then, before=before)

    def go_on(self) -> Match | None:
        """After the replay: the rebuilt game draws from ``then`` from now on, and deals the hand a log
        stopped before (as a game dealing from ``then`` all along would have). None before the first deal."""
        relay = self.model.relay
        if relay is None:
            raise ValueError("go_on needs the chance to go on with (Replayer's then)")
        relay.live = True
        match = self.model.match
        if match is not None and match.awaiting_deck:
            deck = relay.then.deck()
            if deck is None:
                raise InvalidDeal("MATCH-7", "the chance to go on with has no deck order for the next deal")
            match.add_deck(deck)
        return match

    @property
    def match(self) -> Match | None:
        """The game rebuilt so far (None before the first deal)."""
        return self.model.match

    def states(self) -> Iterator[ReplayState]:
        """The game after every record, in order (the draw's records are yielded once the first hand is dealt,
        a hand's record with its deal)."""
        model = self.model
        ready = model.ready
        for _ in drive(self.reader, model):
            if ready:
                match = model.match
                assert match is not None
                for entry, event in ready:
                    yield ReplayState(entry.index, entry.record, match, event)
                ready.clear()

    def run(self) -> Match:
        """Replay to the end; returns the rebuilt game.

        Raises:
            LogError: the first thing wrong with the log, with its record index.
        """
        ready = self.model.ready
        for _ in drive(self.reader, self.model):
            ready.clear()
        assert self.model.match is not None
        return self.model.match


def iter_states(
    source: BinaryIO | bytes, *, executor: ExecutorName = "compiled", history: bool = True
) -> Iterator[ReplayState]:
    """The game after every record of a log, replayed strictly (LOG-8); raises ``LogError`` where it goes wrong.
    ``history=False``: the game keeps no history (each state's ``match.events`` are its last step's only)."""
    return Replayer(source, executor=executor, history=history).states()


class _Relay:
    """A replayed game's chance: the log's draws and deals while it is replayed, then ``then``'s (``go_on``)."""

    def __init__(self, then: Chance) -> None:
        self.then = then
        self.script: Chance | None = None
        self.live = False

    def cut(self, count: int) -> tuple[Card, ...]:
        source = self.then if self.live or self.script is None else self.script
        return source.cut(count)

    def deck(self) -> tuple[Card, ...] | None:
        if self.live:
            return self.then.deck()
        return self.script.deck() if self.script is not None else None


class Strict(Reading):
    """A full log's records as the engine sees them (LOG-8): each action re-applied through the match's one
    validation path, each derived record compared with the engine's event. Keeps the live match, the engine's
    events the log still owes (a result, the game's end) and the pending shuffle commitment (LOG-10). The records
    it reads as a view's reader does (the draw, a fair hand's, the checkpoint) are ``Reading``'s.
    """

    error = ReplayError

    def __init__(
        self,
        reader: LogReader,
        rules: RuleSet,
        executor: ExecutorName = "compiled",
        history: bool = True,
        *,
        then: Chance | None = None,
        before: Callable[[Match, MatchAction], None] | None = None,
    ) -> None:
        self.reader = reader
        self.relay = _Relay(then) if then is not None else None
        self.before = before
        self.rules = rules
        self.executor: ExecutorName = executor
        self.history = history
        self.match: Match | None = None
        self.ready: list[tuple[Entry, MatchEvent | None]] = []  #: records replayed, for ``Replayer.states``
        self._held: list[Entry] = []  # the draw's records (and a commitment) before the first deal
        self._hand: Entry | None = None  # a hand record waiting for its deal
        self._due: list[MatchEvent] = []  # the engine's events whose records come next: a result, the game's end
        self._commit: tuple[int, bytes] | None = None  # the pending shuffle commitment (LOG-10)
        self._deck_codes = b""
        self.fair = FairCheck(reader.header.fair, rules.players, reader.header.version)  # seeds and deals (LOG-20)
        self.cuts: list[Entry] = []
        self.handlers: dict[Kind, Handler] = {
            **self.shared_handlers(),
            **dict.fromkeys(ACTIONS, self._act),
            Kind.COMMIT: self._take_commitment,
            Kind.HAND: self._hand_record,
            Kind.DEAL: self._deal,
            Kind.RESULT: self._derived,
            Kind.REVEAL: self._reveal,
            Kind.GAME_OVER: self._game_over,
            **dict.fromkeys(ENDINGS | PRESENCE, self._end),
        }

    # --- the draw and the deals ------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.match is not None

    def check_going_on(self, entry: Entry) -> None:
        if self._due:  # the game is over: its end is due, not another hand
            raise self._differs(entry)

    def salt_pending(self) -> bool:
        return self._commit is not None

    def keep(self, entry: Entry) -> None:
        """Records before the first deal wait for the engine's draw and deal (``_deal``); later ones are ready."""
        if self.match is None:
            self._held.append(entry)
        else:
            self.ready.append((entry, None))

    def _take_commitment(self, row: Row | None, entry: Entry) -> At:
        rec = entry.record
        if len(rec) != 2 or not isinstance(rec[1], bytes) or len(rec[1]) != 32:
            raise ReplayError("LOG-2", entry.index, "a commitment is [10, 32-byte digest]")
        if not self.reader.header.commitments:
            raise ReplayError("LOG-10", entry.index, "a shuffle commitment in a log whose header declares none")
        self.check_going_on(entry)
        self.check_drawn(entry)
        self._commit = (entry.index, rec[1])
        self.keep(entry)
        return At.COMMITTED

    def _hand_record(self, row: Row, entry: Entry) -> At:
        self.check_going_on(entry)
        self.check_drawn(entry)
        self.check_fair(entry, lambda: self.fair.hand(entry.record[1]))
        self._hand = entry  # checked with its deal, which must come next
        return At.DEAL

    def _deal(self, row: Row | None, entry: Entry) -> At:
        """A hand and its deal: the first deal starts the game (the draw with it), a later one is the next hand."""
        hand = self._hand
        assert hand is not None
        self._hand = None
        if self.reader.header.commitments and self._commit is None:
            raise ReplayError("LOG-10", hand.index, "a hand without its shuffle commitment")
        if isinstance(entry.record, list) and len(entry.record) == 2:
            self._deck_codes = entry.record[1] if isinstance(entry.record[1], bytes) else b""
            self.fair.deal(entry.record[1])
        if self.match is None:
            match = self._start(hand, entry)
            events = iter(match.events)
            for held in self._held:
                self.ready.append((held, next(events) if held.record[0] == T_CUT else None))
            self.ready += zip((hand, entry), events, strict=True)
        else:
            match, dealt = self._next_hand(hand, entry)
            self.ready += zip((hand, entry), dealt, strict=True)
        assert match.hand is not None
        return PLAYING[match.hand.phase]

    def _start(self, hand: Entry, deal: Entry) -> Match:
        deck = self._deck(hand, deal)
        cuts = self.cuts
        rounds = []
        for c in cuts:
            rec = c.record
            if len(rec) != 3 or not isinstance(rec[2], bytes) or any(b > 51 for b in rec[2]):
                raise ReplayError("LOG-2", c.index, "a cut record is [0, [seats], card codes]")
            rounds.append(tuple(Card.from_index(b) for b in rec[2]))
        try:
            script = ScriptedChance(rounds, [deck])
            chance: Chance = script
            if self.relay is not None:
                self.relay.script = chance = script
                chance = self.relay
            match = Match(self.rules, chance, executor=self.executor, history=self.history)
        except InvalidDeal as err:
            at = cuts[-1].index if cuts and err.rule.startswith("MATCH") else hand.index
            raise ReplayError(err.rule, at, err.reason) from None
        except InvalidRules as err:  # a rule set a game cannot be played under (RULES-3): the header's fault
            raise ReplayError(err.rule, 0, err.reason) from None
        produced = [event_record(e) for e in match.events]
        logged = [*cuts, hand]
        for want, got in zip(produced, logged, strict=False):
            if want != got.record:
                raise ReplayError("LOG-8", got.index, "the draw or the first hand differs from the engine's",
                                  expected=want, found=got.record)  # fmt: skip
        if len(produced) - 1 != len(logged):  # the engine's Dealt is the deal record itself
            raise ReplayError("LOG-8", hand.index, f"{len(cuts)} draw rounds logged, the engine drew "
                              f"{len(produced) - 2}")  # fmt: skip
        self.match = match
        return match

    def _next_hand(self, hand: Entry, deal: Entry) -> tuple[Match, list[MatchEvent]]:
        match = self.match
        assert match is not None
        if not match.awaiting_deck:
            raise ReplayError("LOG-8", hand.index, "a new hand while the engine is not between hands")
        events = match.add_deck(self._deck(hand, deal))
        want = event_record(events[0])
        if want != hand.record:
            raise ReplayError(
                "LOG-8", hand.index, "the next hand's roles differ from the engine's", expected=want, found=hand.record
            )
        return match, events

    def _deck(self, hand: Entry, deal: Entry) -> tuple[Card, ...]:
        rec = deal.record
        if not (isinstance(rec, list) and len(rec) == 2 and rec[0] == T_DEAL and isinstance(rec[1], bytes)):
            raise ReplayError("LOG-8", deal.index, "a hand record must be followed by its deal record", found=rec)
        if len(rec[1]) != 52 or len(set(rec[1])) != 52 or max(rec[1]) > 51:
            raise ReplayError("DEAL-4", deal.index, "a deck order holds each of the 52 card codes once")
        return tuple(Card.from_index(b) for b in rec[1])

    # --- play --------------------------------------------------------------------------------------

    def _act(self, row: Row | None, entry: Entry) -> At:
        """A player's action (or the sitter's advice) through the match's one validation path."""
        match = self.match
        rec = entry.record
        seat = match.to_act if match is not None else None
        if match is None or seat is None:
            raise ReplayError("LOG-8", entry.index, "an action while nobody is to act")
        try:
            if type(rec) is list and rec[0] == T_ADVICE:
                if len(rec) != 3 or type(rec[1]) is not int:
                    raise CodecError("an advice record is [5, seat, action]")
                action: MatchAction = Advise(rec[1], action_of(rec[2], match.captain))
            else:
                action = action_of(rec, seat)
            if self.before is not None:
                self.before(match, action)
            events = match.apply(action)
        except CodecError as err:
            raise ReplayError("LOG-2", entry.index, err.reason) from None
        except InvalidMeld as err:  # a well-formed spread or layoff of cards that are no meld
            raise ReplayError(err.rule, entry.index, f"illegal action: {err.reason}", found=rec) from None
        except IllegalAction as err:
            raise ReplayError(err.rule, entry.index, f"illegal action: {err.reason}", found=rec) from None
        first = events[0]
        if type(rec) is list:  # an integer record is its action's only form; an array must be the canonical one
            want = event_record(first)
            if want != rec:
                raise ReplayError("LOG-2", entry.index, "the action is not written in its canonical form",
                                  expected=want, found=rec)  # fmt: skip
        self.ready.append((entry, first))
        hand = match.hand
        assert hand is not None
        at = PLAYING.get(hand.phase)
        if at is not None:
            return at
        # The hand ended: the engine scored it (or it died), entered its result and perhaps ended the game.
        self._due = [e for e in events if isinstance(e, HandEnded | GameOver)]
        return At.SCORE if any(isinstance(e, HandScored) for e in events) else At.DEAD_HAND

    # --- the hand's end and the game's -----------------------------------------------------------

    def _derived(self, row: Row, entry: Entry) -> At:
        """A record the engine derives (a result, the game's end): it must be the engine's, exactly."""
        want = self._due[0]
        if event_record(want) != entry.record:
            raise self._differs(entry)
        del self._due[0]
        self.ready.append((entry, want))
        return row.next[0]

    def _end(self, row: Row, entry: Entry) -> At:
        """A game's end before the target, or the host's record of a seat leaving or coming back, through the
        match (END-1 .. END-4); a record of version 3.0 only (LOG-24)."""
        check_version(self.reader.header.version, entry)
        match, rec = self.match, entry.record
        assert match is not None  # the grammar takes these only once a hand has begun
        kind, seat = rec[0], rec[1]
        try:
            if kind == T_ABANDON:
                events = match.abandon(rec[1])
            elif kind == T_RESIGN:
                events = match.apply(Resign(seat))
            elif kind == T_ABORT:
                events = match.apply(Abort(seat))
            elif kind == T_CLAIM:
                events = match.apply(Claim(seat, rec[2], rec[3]))
            elif kind == T_FORFEIT:
                events = match.forfeit(seat, forfeit_reason(entry))
            else:
                events = match.away(seat, rec[2]) if kind == T_AWAY else match.back(seat, rec[2])
        except IllegalAction as err:
            raise ReplayError(err.rule, entry.index, f"{record_type(rec)}: {err.reason}", found=rec) from None
        self.ready.append((entry, events[0]))
        if kind in (T_AWAY, T_BACK):
            return row.state
        self._due = [e for e in events if isinstance(e, GameOver)]
        return At.ENDED

    def _game_over(self, row: Row, entry: Entry) -> At:
        if not self._due:
            raise ReplayError("LOG-8", entry.index, "a game-over record where the engine expects an action")
        return self._derived(row, entry)

    def _reveal(self, row: Row | None, entry: Entry) -> At:
        rec = entry.record
        if self._commit is None or row is None:
            raise ReplayError("LOG-10", entry.index, "a salt is revealed only after its hand's result")
        if len(rec) != 2 or not isinstance(rec[1], bytes):
            raise ReplayError("LOG-2", entry.index, "a reveal is [11, salt bytes]")
        at, digest = self._commit
        if commitment(self._deck_codes, rec[1]) != digest:
            raise ReplayError("LOG-10", entry.index, f"the deck and salt do not match the commitment of record {at}")
        self._commit = None
        self.ready.append((entry, None))
        return At.REVEALED

    # --- records out of place ----------------------------------------------------------------------

    def refuse(self, at: At, kind: Kind, entry: Entry) -> LogError:
        """The error for a record the grammar does not accept here (LOG-13's precedence): an action while a
        player is to act is the engine's to judge (TURN-1, or the rule the action breaks); any other record out
        of place breaks the order of LOG-4."""
        if kind in ACTIONS and at in PLAYING.values():
            self._act(None, entry)  # the engine names the rule the action breaks
            raise InternalError(f"record {entry.index}: the grammar refuses a {kind.value} at {at.value}, the "
                                "engine takes it")  # fmt: skip
        return ReplayError("LOG-4", entry.index, f"{_a(kind.value)} record where the log has {self._expects(at)} "
                           "next")  # fmt: skip

    def unfinished(self, at: At, index: int) -> LogError:
        return ReplayError("LOG-8", index, "the log ends before the game is over")

    def _expects(self, at: At) -> str:
        """What the log holds next at ``at``, in words (for messages)."""
        words = {
            At.CUT: "the draw or the first hand",
            At.COMMITTED: "the hand",
            At.FAIR_COMMITTED: "the seats' seeds",
            At.SEEDED: "the hand (the first hand's draw before it)",
            At.DEAL: "the hand's deal",
            At.HAND_OVER: "a salt, the server's seed or a checkpoint",
            At.REVEALED: "a checkpoint",
            At.ROTATE: "the next hand or the game's end",
            At.ENDED: "the game's end",
            At.GAME_OVER: "the trailer",
            At.END: "nothing",
        }
        if self._due and at in (At.SCORE, At.DEAD_HAND, At.ROTATE):
            return f"a {record_type(event_record(self._due[0]))} record"
        return words.get(at, "an action")

    def _differs(self, entry: Entry) -> ReplayError:
        want = event_record(self._due[0])
        return ReplayError("LOG-8", entry.index, f"the {record_type(want)} record differs from the engine's",
                           expected=want, found=entry.record)  # fmt: skip
