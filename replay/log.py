"""Writing and reading Knock logs: a header, then one record per event, with a chained digest (and, in a signed
log, every checkpoint and the trailer signed).

Rules: LOG-1 .. LOG-8, LOG-17, LOG-18, LOG-20 (spec/log-format.md).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Protocol

from engine import __version__ as ENGINE_VERSION
from engine.cards import Card
from engine.errors import InvalidRules, KnockError, render
from engine.events import (
    CutDrawn,
    Dealt,
    Discarded,
    DrewDiscard,
    DrewStock,
    EndEvent,
    GameOver,
    HandEnded,
    HandStarted,
    MatchEvent,
    Presence,
)
from engine.fairdeal import FairSeeds
from engine.match import Match
from engine.rules import RuleSet
from replay.codec import (
    DIGEST_SIZE,
    FORMAT,
    NAMED_VERSION,
    SIGNATURE_SIZE,
    SIGNED_VERSION,
    T_CHECKPOINT,
    T_COMMIT,
    T_FAIR_COMMIT,
    T_FAIR_REVEAL,
    T_REVEAL,
    T_SEAT_COMMITS,
    T_SEEDS,
    T_STATEMENT,
    T_TRAILER,
    VERSION,
    CodecError,
    Record,
    chain,
    commitment,
    deck_of,
    event_record,
    header_digest,
    pack,
    salt_for,
    unpacked,
)
from replay.ed25519_verify import is_public_key
from replay.forms import ACTION_CODES, check_form
from replay.signing import SigningKey, verify_seal


class FairSource(Protocol):
    """Where a fair log's writer finds each hand's seeds (``engine.fairdeal.FairChance`` is one)."""

    def seeds(self, number: int) -> FairSeeds: ...


class LogError(KnockError, ValueError):
    """A log that is damaged, truncated, tampered with or wrong. ``record`` is the index of the record where
    it goes wrong (0 is the header, 1 the first record after it); ``rule`` the spec rule it breaks.
    """

    def __init__(self, rule: str, record: int, reason: str) -> None:
        super().__init__(f"{rule}: record {record}: {reason}", rule=rule)
        self.record = record
        self.reason = reason


class LogTruncated(LogError):
    """The log ends before its trailer, or in the middle of a record (LOG-7).

    ``clean`` is true when it ends between two records: every record read is whole and valid so far.
    """

    def __init__(self, rule: str, record: int, reason: str, *, clean: bool = False) -> None:
        super().__init__(rule, record, reason)
        self.clean = clean


class LogEmpty(LogTruncated):
    """No bytes at all: not even a header to read (LOG-7; LOG-13 names no record for it)."""


class LogTampered(LogError):
    """A checkpoint or the trailer disagrees with the digest of the bytes before it (LOG-6), or its signature
    with the header's signer (LOG-18)."""


@dataclass(frozen=True, slots=True)
class Header:
    """The log's header: format version, engine version, the complete rule set, the players, free metadata."""

    version: tuple[int, int]
    engine: str
    rules: dict[str, Any]
    players: tuple[str, ...]
    meta: dict[str, Any] = field(default_factory=dict)
    commitments: bool = False
    view: int | None = None  #: the seat a per-seat view was made for (LOG-11); None for a full log
    signer: bytes | None = None  #: the Ed25519 public key that signs every seal (LOG-17); None: unsigned
    fair: bool = False  #: every hand is dealt fairly, from its seeds (LOG-20, DEAL-5)
    table: str | None = None  #: a signed view's table (LOG-23, format 3.0); None otherwise
    made: int | None = None  #: when a signed view was made, seconds since 1970-01-01 UTC (LOG-23); None otherwise

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "format": FORMAT,
            "version": list(self.version),
            "engine": self.engine,
            "rules": self.rules,
            "players": list(self.players),
            "meta": self.meta,
        }
        if self.commitments:
            wire["commitments"] = True
        if self.fair:
            wire["fair"] = True
        if self.signer is not None:
            wire["signer"] = self.signer
        if self.table is not None:
            wire["table"] = self.table
        if self.made is not None:
            wire["made"] = self.made
        if self.view is not None:
            wire["view"] = self.view
        return wire

    @staticmethod
    def from_wire(value: Any) -> Header:
        """Validate a decoded header (its map keys are text, each once: the codec saw to that). Rules: LOG-1, LOG-3."""
        if type(value) is not dict or value.get("format") != FORMAT:
            raise LogError("LOG-1", 0, f"not a Knock log (the header must be a map whose format is {FORMAT!r})")
        version = value.get("version")
        if not (isinstance(version, list) and len(version) == 2 and all(type(v) is int and v >= 0 for v in version)):
            raise LogError("LOG-3", 0, "the header's version must be [major, minor]")
        known = KNOWN_VERSIONS.get(version[0])
        if known is None:
            raise LogError("LOG-3", 0, f"log format version {version[0]}.{version[1]} is not readable by this "
                           f"reader (major versions {', '.join(str(v) for v in KNOWN_VERSIONS)})")  # fmt: skip
        unknown = sorted(set(value) - KEYS_OF[version[0]])
        if unknown and version[1] <= known[1]:  # a later minor version may add keys an older reader ignores
            raise LogError("LOG-1", 0, f"unknown header key {unknown[0]!r:.60} in a version {version[0]}.{version[1]} "
                           "log")  # fmt: skip
        rules, players, meta, engine = (
            value.get("rules"),
            value.get("players"),
            value.get("meta", {}),
            value.get("engine"),
        )
        if type(rules) is not dict or type(engine) is not str or type(meta) is not dict:
            raise LogError("LOG-1", 0, "the header needs 'rules' (a map), 'engine' (text) and 'meta' (a map)")
        if type(players) is not list or not 2 <= len(players) <= 3 or not all(type(p) is str for p in players):
            raise LogError("LOG-1", 0, "the header's 'players' must be a list of two or three names")
        commitments = value.get("commitments", False)
        if type(commitments) is not bool:
            raise LogError("LOG-1", 0, "the header's 'commitments' must be true or false")
        view = value.get("view")
        if view is not None and (type(view) is not int or not 0 <= view < len(players)):
            raise LogError("LOG-11", 0, "the header's 'view' must name a seat")
        signer = value.get("signer")
        fair = value.get("fair", False)
        if type(fair) is not bool:
            raise LogError("LOG-20", 0, "the header's 'fair' must be true or false")
        if fair and commitments:
            raise LogError("LOG-20", 0, "a fair log commits to each hand's server seed: it declares no shuffle "
                           "commitments (LOG-10) as well")  # fmt: skip
        if (version[0] == SIGNED_VERSION[0] and signer is None and not fair) or (
            signer is not None and (type(signer) is not bytes or not is_public_key(signer))
        ):
            raise LogError("LOG-17", 0, "a version-2 log names its signer: 'signer', the 32 bytes of an Ed25519 "
                           "public key (a canonical encoding of a point of the curve, not of small order), unless "
                           "it is fair (LOG-20)")  # fmt: skip
        table, made = value.get("table"), value.get("made")
        named = version[0] >= NAMED_VERSION[0] and view is not None and signer is not None
        if named and (type(table) is not str or not table or type(made) is not int or made < 0):
            raise LogError("LOG-23", 0, "a signed view of version 3 names its table ('table', text that is not "
                           "empty) and the time it was made ('made', a number: seconds since 1970, UTC)")  # fmt: skip
        if not named and (table is not None or made is not None):
            raise LogError("LOG-23", 0, "'table' and 'made' are for a signed per-seat view only")
        return Header((version[0], version[1]), engine, rules, tuple(players), meta, commitments, view, signer, fair,
                      table, made)  # fmt: skip

    def rule_set(self) -> RuleSet:
        """The game's rule set, as a reader judges the header's ``rules`` (LOG-13's order): the preset (RULES-1),
        then every option (RULES-2: unknown, of another kind, out of range), then the deck: a game is never of a
        reduced one (RULES-3); then the players named, one a seat (LOG-1).

        Raises:
            LogError: at record 0, naming the first of these rules the header breaks.
        """
        try:
            rules = RuleSet.from_dict(self.rules)
        except InvalidRules as err:
            raise LogError(err.rule, 0, f"the header's rule set is not valid: {err.reason}") from None
        except TypeError as err:
            raise LogError("LOG-1", 0, f"the header's rule set is not valid: {err}") from None
        if rules.reduced:
            raise LogError("RULES-3", 0, "a reduced deck (deck_ranks, deck_suits, hand_size) is for analysing single "
                           "hands: no game, and no log, is of one")  # fmt: skip
        if len(self.players) != rules.players:
            raise LogError("LOG-1", 0, f"{len(self.players)} players named for a {rules.players}-seat game")
        return rules


#: The header's keys (LOG-1), in the order a writer puts them; a version-2.0 log's add ``fair`` (LOG-20) and
#: ``signer`` (LOG-17); a version-3.0 log's ``table`` and ``made`` (LOG-23).
HEADER_KEYS = frozenset(("format", "version", "engine", "rules", "players", "meta", "commitments", "view"))
SIGNED_HEADER_KEYS = HEADER_KEYS | {"signer", "fair"}
NAMED_HEADER_KEYS = SIGNED_HEADER_KEYS | {"table", "made"}
#: The versions this reader knows, by major version (LOG-3): unsigned logs are 1.0, signed or fair ones 2.0, and
#: those holding something of the wave's step 3.0 (spec/versions.md).
KNOWN_VERSIONS = {VERSION[0]: VERSION, SIGNED_VERSION[0]: SIGNED_VERSION, NAMED_VERSION[0]: NAMED_VERSION}
KEYS_OF = {VERSION[0]: HEADER_KEYS, SIGNED_VERSION[0]: SIGNED_HEADER_KEYS, NAMED_VERSION[0]: NAMED_HEADER_KEYS}


class LogWriter:
    """Streams a game's log as it is played: call ``sync()`` after each ``apply`` (or once at the end).

    Records are written as the events happen; the stream is flushed at every hand end, so a crash loses at
    most the hand in progress. Rule: LOG-5.
    """

    def __init__(
        self,
        stream: BinaryIO,
        match: Match,
        *,
        players: Sequence[str] | None = None,
        meta: dict[str, Any] | None = None,
        commit_key: bytes | None = None,
        engine: str = f"knock-gin {ENGINE_VERSION}",
        key: SigningKey | None = None,
        fair: FairSource | None = None,
        endings: bool | None = None,
    ) -> None:
        """``endings`` writes a log of version 3.0, which may hold a game's end before the target and the host's
        record of seats leaving and coming back (LOG-24); None (the default): only when the game holds one already
        (``write_log`` of a game that ended early). A writer that may have to write one (a server's table) says so
        from the start: the header, written first, names the version. ``fair`` (the game's
        ``engine.fairdeal.FairChance``, or any source of each hand's seeds) writes a fair log: version 2.0, ``fair:
        true`` in the header, each hand's server commitment and seats' seeds before it and the server's seed after
        its result (LOG-20 .. LOG-22). ``commit_key`` (a secret) turns on shuffle commitments (LOG-10): each hand's
        salt is derived from it. ``engine`` is the header's name of the writer (LOG-1). ``key`` signs the log: a
        version-2.0 log whose header names the key's public half and whose every checkpoint and trailer is signed
        (LOG-17, LOG-18); without ``key`` and ``fair`` the log is version 1.0, byte for byte as before.

        Raises:
            LogError: among others, for a reduced-deck rule set (RULES-3): logs of reduced decks are not supported.
        """
        if match.rules.reduced:
            raise LogError("RULES-3", 0, "a reduced deck (deck_ranks, deck_suits, hand_size) is not supported in "
                           "logs: reduced decks are for analysis and are not logged")  # fmt: skip
        self.stream = stream
        self.match = match
        self.commit_key = commit_key
        self.key = key
        self.fair = fair
        if fair is not None and commit_key is not None:
            raise LogError("LOG-20", 0, "a fair log commits to each hand's server seed: it takes no commit_key")
        names = tuple(players) if players is not None else tuple(f"p{i}" for i in range(match.rules.players))
        if len(names) != match.rules.players:
            raise LogError("LOG-1", 0, f"{len(names)} player names for a {match.rules.players}-seat game")
        if endings is None:
            endings = any(isinstance(e, EndEvent | Presence) for e in match.events)
        self.endings = endings
        version = NAMED_VERSION if endings else VERSION if key is None and fair is None else SIGNED_VERSION
        header = Header(
            version,
            engine,
            match.rules.to_dict(),
            names,
            dict(meta or {}),
            commit_key is not None,
            signer=None if key is None else key.public,
            fair=fair is not None,
        )
        try:
            data = pack(header.to_wire())
            next(unpacked(io.BytesIO(data)))  # within the format's limits, so that every reader reads it back
        except (TypeError, ValueError, OverflowError) as err:
            raise LogError("LOG-1", 0, f"the header cannot be written ({render(str(err))})") from None
        self.stream.write(data)
        self._start(header_digest(data), 0, len(data))
        self.sync()

    def _start(self, digest: bytes, records: int, size: int) -> None:
        self._digest = digest
        self._unhashed: list[bytes] = []  # records written whose links of the chain are not computed yet
        self.records = records
        self.bytes = size
        self._seen = 0
        self._skip = 0  # records of the events from ``_seen`` on that the stream already holds (``continuing``)
        self._drawn: set[Card] = set()  # the cards of the draw rounds so far (MATCH-7)

    @classmethod
    def continuing(
        cls,
        stream: BinaryIO,
        match: Match,
        *,
        digest: bytes,
        records: int,
        size: int,
        event: int,
        written: int,
        commit_key: bytes | None = None,
        key: SigningKey | None = None,
        endings: bool = False,
    ) -> LogWriter:
        """A writer that goes on with a log whose first bytes ``stream`` already holds: ``size`` bytes, the
        header and ``records`` records, whose digest chain is ``digest`` (LOG-6). The log's records so far are
        those of ``match``'s events before ``event`` (an index counting the events a game without history let
        go), and the first ``written`` records the writer makes of the events from ``event`` on (a hand's end
        is written as its result, salt and checkpoint: the log may stop inside them). The next ``sync()``
        writes the rest, byte for byte what one writer would have written of the whole game.
        ``replay.resume`` builds one from a log; call this only with figures a replay of the log gave.
        ``endings``: the log is of version 3.0 and may hold a game's early end (LOG-24). Rule: LOG-5.
        """
        writer = cls.__new__(cls)
        writer.stream = stream
        writer.match = match
        writer.commit_key = commit_key
        writer.key = key
        writer.fair = None
        writer.endings = endings
        writer._start(digest, records, size)
        writer._seen = event
        writer._skip = written
        first = match.dropped
        for e in match.events[: max(0, event - first)]:
            if isinstance(e, CutDrawn):
                writer._drawn |= set(e.cards)
            elif isinstance(e, HandStarted):
                break
        return writer

    def _write(self, record: Record) -> None:
        data = pack(record)
        self.stream.write(data)
        self._unhashed.append(data)
        self.records += 1
        self.bytes += len(data)

    @property
    def digest(self) -> bytes:
        """The digest chain over everything written so far (LOG-6). Its links are computed when it is read —
        at every checkpoint and the trailer — in one tight loop rather than one call per record."""
        if self._unhashed:
            d = self._digest
            for data in self._unhashed:
                d = chain(d, data)
            self._digest = d
            self._unhashed.clear()
        return self._digest

    def _check_draw(self, cut: CutDrawn) -> None:
        """Refuse a draw round that repeats a card of an earlier one: a draw deck reshuffled because the draw
        used it up (MATCH-7). Format 1 has no record for a second draw deck, and its readers refuse a repeated
        card, so such a game is not written (it needs about 25 tied rounds in a row: below 1e-25 a game)."""
        again = self._drawn & set(cut.cards)
        if again:
            raise LogError("MATCH-7", self.records + 1, f"the draw repeats {' '.join(map(str, sorted(again)))}: "
                           "a reshuffled draw deck cannot be logged in format 1")  # fmt: skip
        self._drawn |= set(cut.cards)

    def sync(self) -> None:
        """Write the records of every event since the last call (of a game without history, ``Match``'s
        ``history=False``, call it after every step: the game keeps only its last step's events).

        Raises:
            KnockError: events of a game without history were let go before they were written (a misuse of
                the writer, not a fault of the game: nothing is written).
        """
        events = self.match.events
        first = self.match.dropped  # the number of events before events[0]
        if self._seen < first:
            raise KnockError(f"LOG-5: {first - self._seen} events were let go before they were written: a game "
                             "without history is synced after every step", rule="LOG-5")  # fmt: skip
        key = self.commit_key
        for i in range(self._seen - first, len(events)):
            event = events[i]
            kind = type(event)
            if self._skip:  # a continued log: the stream holds the first records of these events already
                for record in self._records(events, i, key):
                    if self._skip:
                        self._skip -= 1
                    else:
                        self._write(record)
                if kind is HandEnded or kind is GameOver:
                    self.stream.flush()
                continue
            if not self.endings and isinstance(event, EndEvent | Presence):
                raise KnockError(f"LOG-24: a {type(event).__name__} event in a log begun as version "
                                 f"{VERSION[0]} or {SIGNED_VERSION[0]}: a game that may end early is written with "
                                 "endings=True", rule="LOG-24")  # fmt: skip
            if kind is Discarded or kind is DrewStock or kind is DrewDiscard:  # the commonest: one byte each
                self._write(event_record(event))  # type: ignore[arg-type]
                continue
            for record in self._records(events, i, key):
                self._write(record)
            if kind is HandEnded or kind is GameOver:
                self.stream.flush()
        self._seen = first + len(events)

    def _records(self, events: Sequence[MatchEvent], i: int, key: bytes | None) -> Iterator[Record]:
        """The records of ``events[i]``, in order; lazily, so that a seal's digest covers the records before it."""
        event = events[i]
        fair = self.fair
        if fair is not None and (
            (isinstance(event, CutDrawn) and not self._drawn) or (isinstance(event, HandStarted) and event.number > 1)
        ):
            seeds = fair.seeds(1 if isinstance(event, CutDrawn) else event.number)
            yield [T_FAIR_COMMIT, seeds.commitment]
            if seeds.commitments is not None:  # the seats committed first (version 3.0, LOG-25)
                yield [T_SEAT_COMMITS, list(seeds.commitments)]
            yield [T_SEEDS, list(seeds.seats), list(seeds.supplied)]
            for seat, public, signature in seeds.statements:  # each seat's signed word of what it saw (LOG-26)
                yield [T_STATEMENT, seat, public, signature]
        if isinstance(event, CutDrawn):
            self._check_draw(event)
        if key is not None and isinstance(event, HandStarted):
            dealt = events[i + 1]
            assert isinstance(dealt, Dealt)
            deck = bytes(c.index for c in deck_of(dealt))
            yield [T_COMMIT, commitment(deck, salt_for(key, event.number))]
        record = event_record(event)
        if record is not None:
            yield record
        if isinstance(event, HandEnded):
            if key is not None:
                yield [T_REVEAL, salt_for(key, event.number)]
            if fair is not None:
                yield [T_FAIR_REVEAL, fair.seeds(event.number).server]
            yield self._sealed([T_CHECKPOINT, self.digest])
        elif isinstance(event, GameOver):
            yield self._sealed([T_TRAILER, self.records, self.digest])

    def _sealed(self, record: list[Any]) -> list[Any]:
        """A checkpoint or the trailer, with its signature in a signed log (LOG-18): the seal is record
        ``self.records + 1``."""
        if self.key is not None:
            record.append(self.key.sign_seal(None, self.records + 1, record[0], record[-1]))
        return record


def write_log(
    match: Match,
    *,
    players: Sequence[str] | None = None,
    meta: dict[str, Any] | None = None,
    commit_key: bytes | None = None,
    engine: str = f"knock-gin {ENGINE_VERSION}",
    key: SigningKey | None = None,
    fair: FairSource | None = None,
    endings: bool | None = None,
) -> bytes:
    """The complete log of a game so far, as bytes (signed with ``key``, LOG-17; fair with ``fair``, LOG-20)."""
    out = io.BytesIO()
    LogWriter(out, match, players=players, meta=meta, commit_key=commit_key, engine=engine, key=key, fair=fair,
              endings=endings)  # fmt: skip
    return out.getvalue()


@dataclass(frozen=True, slots=True)
class Entry:
    """One record read back: its index (1 = the first after the header), value and stored size."""

    index: int
    record: Any
    size: int


class LogReader:
    """Reads a log in constant memory, checking the digest chain; ``header`` first, then ``entries()``.

    Every damaged, truncated or tampered log ends in a ``LogError`` naming the record. Rules: LOG-1 .. LOG-7.
    """

    def __init__(self, source: BinaryIO | bytes) -> None:
        stream = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
        self._values = unpacked(stream)
        self.index = 0
        try:
            first = next(self._values, None)
        except EOFError as err:
            raise LogTruncated("LOG-7", 0, f"the log is cut inside its header ({err})") from None
        except CodecError as err:  # bytes come before the header's keys (LOG-13's precedence)
            raise LogError("LOG-2", 0, f"unreadable header: {err.reason}") from None
        if first is None:
            raise LogEmpty("LOG-7", 0, "the log is empty: nothing to read")
        value, raw = first
        self.header = Header.from_wire(value)
        self.digest = header_digest(raw)
        self.trailer_seen = False
        self.trailer_digest: bytes | None = None  #: the trailer's digest, once it is read (LOG-6)
        self.checkpoints = 0
        #: In a signed log, the last record whose seal's signature verified: the header and records 1 .. ``sealed``
        #: are signed (LOG-18); None before the first (and in an unsigned log).
        self.sealed: int | None = None

    def entries(self) -> Iterator[Entry]:
        """Every record after the header, each of a form of the format's table (LOG-2; a view's forms in a view)
        and verified against the digest chain as it goes."""
        view = self.header.view is not None
        while True:
            index = self.index + 1
            try:
                item = next(self._values, None)
            except (EOFError, CodecError) as err:
                if self.trailer_seen:  # whatever the bytes after the trailer are, they follow it (LOG-13)
                    raise LogError("LOG-7", index, "bytes after the trailer") from None
                if isinstance(err, EOFError):
                    raise LogTruncated("LOG-7", index, f"the log is cut inside a record ({err})") from None
                raise LogError("LOG-2", index, err.reason) from None
            if item is None:
                if not self.trailer_seen:
                    raise LogTruncated("LOG-7", index, "the log ends without its trailer (truncated?)", clean=True)
                return
            value, raw = item
            self.index = index
            if self.trailer_seen:
                raise LogError("LOG-7", index, "a record after the trailer")
            if type(value) is not int or value not in ACTION_CODES:  # a one-byte action is well formed already
                try:
                    check_form(value, view)
                except CodecError as err:
                    raise LogError("LOG-2", index, err.reason) from None
                if type(value) is list and (value[0] == T_CHECKPOINT or value[0] == T_TRAILER):
                    self._check_seal(index, value)
            self.digest = chain(self.digest, raw)
            yield Entry(index, value, len(raw))

    def _check_seal(self, index: int, value: list[Any]) -> None:
        """A checkpoint or the trailer: its form in this log (LOG-2, LOG-18), its digest (LOG-6), then its
        signature (LOG-18), the order of LOG-13."""
        signer = self.header.signer
        checkpoint = value[0] == T_CHECKPOINT
        digest_at = 1 if checkpoint else 2  # the digest's field; a signed log's signature follows it
        sizes = [DIGEST_SIZE] if signer is None else [DIGEST_SIZE, SIGNATURE_SIZE]
        if [len(v) for v in value[digest_at:]] != sizes:
            form = "[8, 32-byte digest" if checkpoint else "[9, record count, 32-byte digest"
            what = "a checkpoint" if checkpoint else "the trailer"
            raise LogError("LOG-2", index, f"{what} is {form}{', 64-byte signature' if signer else ''}] in "
                           f"{'a signed' if signer else 'an unsigned'} log")  # fmt: skip
        if checkpoint:
            if value[1] != self.digest:
                raise LogTampered("LOG-6", index, "checkpoint digest does not match the records before it "
                                  "(a record was changed, removed, inserted or reordered)")  # fmt: skip
        else:
            if value[1] != index - 1:
                raise LogTampered("LOG-6", index, f"the trailer counts {value[1]} records, the log has {index - 1}")
            if value[2] != self.digest:
                raise LogTampered("LOG-6", index, "trailer digest does not match the records before it")
        if signer is not None and not verify_seal(signer, self.header.view, index, value[0], self.digest, value[-1]):
            raise LogTampered("LOG-18", index, f"the {'checkpoint' if checkpoint else 'trailer'}'s signature is "
                              "not the header's signer's signature of it")  # fmt: skip
        if signer is not None:
            self.sealed = index
        if checkpoint:
            self.checkpoints += 1
            return
        self.trailer_seen = True
        self.trailer_digest = value[2]
