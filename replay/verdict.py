"""Verdicts: what a reader says of any bytes — pass, unfinished or fail (spec/log-format.md, LOG-13).

``judge(data)`` reads a full log (strict replay, LOG-8) or a per-seat view (public replay, LOG-12),
whichever the header says it is, and never raises: every outcome, a bug in the reader included, is a
``Verdict``.

>>> from engine.match import Match
>>> from knock.bots import GreedyBot, play_match
>>> from replay.log import write_log
>>> game = Match.new(seed=4)
>>> judge(write_log(game))  # doctest: +ELLIPSIS
Verdict(kind='unfinished', record=3, rule='', ...)
>>> data = write_log(play_match(game, [GreedyBot(), GreedyBot()]))
>>> judge(data).kind, judge(data[:-1]).kind, judge(data[:-1]).rule
('pass', 'fail', 'LOG-7')
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, BinaryIO, Literal

from engine.errors import render
from replay.log import Header, LogEmpty, LogError, LogReader, LogTruncated
from replay.public import ViewReplayer
from replay.replayer import Replayer, ReplayState

#: A caller's own pass over a full log's states, made by the verdict's one replay (``judge``'s ``walk``).
Walk = Callable[[Iterator[ReplayState]], None]

Kind = Literal["pass", "unfinished", "fail"]

#: The last second ``datetime`` writes (9999-12-31T23:59:59Z): a later ``made`` is shown as this.
MAX_TIME = 253402300799
#: The rule of a log checked against a key or a digest its verifier was given (not one the log names).
REQUIRED_RULE = "LOG-19"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One reader's answer about one input. Rule: LOG-13.

    ``record``: for *pass*, the trailer's number (the records read); for *unfinished*, N, the last record
    (0: the header alone); for *fail*, the record where the input goes wrong (0 is the header), or None when
    there was no input to read. ``digest``: for *pass*, the trailer's digest (the one to compare with a
    published copy, LOG-6); for *unfinished*, the digest of everything read, which the next checkpoint or
    the trailer would hold. ``internal``: the reader itself failed (a bug, reported as a fail).
    """

    kind: Kind
    record: int | None
    rule: str
    message: str
    digest: bytes | None = None
    view: int | None = None  #: the seat, when the input is a per-seat view (LOG-11)
    hands: int = 0  #: hands begun (every deal counts)
    scores: tuple[int, ...] = ()  #: every seat's score: the final totals after a game over, else running
    winner: int | None = None
    internal: bool = False
    signer: bytes | None = None  #: the public key the header names, in a signed log (LOG-17)
    #: In a signed log, the last record whose seal verified: the header and records 1 .. ``signed_through`` are
    #: signed, any later record is not (LOG-18); None when unsigned or before the first seal.
    signed_through: int | None = None
    table: str | None = None  #: the table a signed view names (LOG-23)
    made: int | None = None  #: when a signed view was made, seconds since 1970-01-01 UTC (LOG-23)
    #: In a fair log, whether its hands hold the seats' commitments made before any seed was revealed (LOG-25);
    #: None when the log is not fair or no hand's seeds were read.
    seats_committed: bool | None = None
    #: In a fair log, the seats that signed every seed of their own it holds (LOG-26); None when not fair.
    seats_signed: tuple[int, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        """The verdict as a JSON object (``knock verify --json``)."""
        return {
            "verdict": self.kind,
            "record": self.record,
            "rule": self.rule,
            "message": self.message,
            "digest": self.digest.hex() if self.digest is not None else None,
            "view": self.view,
            "hands": self.hands,
            "scores": list(self.scores),
            "winner": self.winner,
            "internal": self.internal,
            "signer": self.signer.hex() if self.signer is not None else None,
            "signed_through": self.signed_through,
            "table": self.table,
            "made": self.made,
            "seats_committed": self.seats_committed,
            "seats_signed": list(self.seats_signed) if self.seats_signed is not None else None,
        }


def judge(
    source: bytes | BinaryIO,
    *,
    signer: bytes | None = None,
    digests: Collection[bytes] | None = None,
    walk: Walk | None = None,
) -> Verdict:
    """The verdict on a log or a view: pass, unfinished or fail. Never raises. Rule: LOG-13.

    ``source``: the bytes, or a binary stream of them, read a chunk at a time (then only the replay's state is
    in memory: the game as it stands and its running totals, never the records behind it, whatever the length).
    ``signer``: the public key the log must be signed by, and ``digests``: the published digests its own must
    be one of (LOG-19: ``knock verify --key``, ``--digest``, ``--digests``). ``walk``: for a full log, a pass of the
    caller's over the game after every record (``Replayer.states``, the game keeping its history), made by the
    verdict's own replay, which goes on to the log's end after it (a view is judged as ever, ``walk`` not called).
    A ``LogError`` the states raise in ``walk`` is to be let through: it is the verdict's.
    """
    progress = _Progress(signer)
    verdict = _verdict(source, progress, walk)
    if digests is not None and verdict.kind != "fail" and verdict.digest not in digests:
        return replace(verdict, kind="fail", rule=REQUIRED_RULE, message=f"{REQUIRED_RULE}: record "
                       f"{verdict.record}: the log's digest {verdict.digest.hex() if verdict.digest else None} is "
                       "not a published one")  # fmt: skip
    return verdict


def _verdict(source: bytes | BinaryIO, progress: _Progress, walk: Walk | None = None) -> Verdict:
    try:
        return _judge(source, progress, walk)
    except LogEmpty as err:  # nothing to read: no record to name (LOG-13)
        return progress.verdict("fail", None, err.rule, f"{err.rule}: {err.reason}")
    except LogTruncated as err:
        if err.clean:
            n = err.record - 1
            return progress.verdict("unfinished", n, "", f"the log ends after record {n}, before its "
                                    f"trailer: a game in progress, stopped or cut short{progress.tail(n)}")  # fmt: skip
        return progress.verdict("fail", err.record, err.rule, str(err))
    except LogError as err:
        return progress.verdict("fail", err.record, err.rule, str(err))
    except Exception as err:  # a bug in the reader: still one verdict, saying so
        at = progress.reader.index if progress.reader is not None else None
        where = f" at record {at}" if at is not None else ""
        return progress.verdict(
            "fail", at, "", f"internal error{where}: {type(err).__name__}: {render(str(err))}", internal=True
        )


class _Progress:
    """How far a replay got: its reader and its game, for the verdict whatever ends it."""

    def __init__(self, signer: bytes | None = None) -> None:
        self.signer = signer
        self.reader: LogReader | None = None
        self.replayer: Replayer | None = None
        self.public: ViewReplayer | None = None

    def tail(self, last: int) -> str:
        """What of a signed log no signature covers, in words (``signed_words``)."""
        reader = self.reader
        if reader is None or reader.header.signer is None:
            return ""
        return "; " + signed_words(reader.sealed, last)

    def verdict(self, kind: Kind, record: int | None, rule: str, message: str, *, internal: bool = False) -> Verdict:
        reader = self.reader
        view = reader.header.view if reader is not None else None
        digest = None
        if reader is not None and kind == "pass":
            digest = reader.trailer_digest
        elif reader is not None and kind == "unfinished":
            digest = reader.digest
        hands, winner = 0, None
        scores: tuple[int, ...] = ()
        if self.replayer is not None and self.replayer.match is not None:
            match = self.replayer.match
            standings = match.standings()
            hands, winner = match.number, standings.winner
            scores = standings.totals if match.is_over else match.scores
        elif self.public is not None:
            st = self.public.state
            hands, scores, winner = st.number, st.scores, st.winner
        signer = reader.header.signer if reader is not None else None
        sealed = reader.sealed if reader is not None else None
        table = reader.header.table if reader is not None else None
        made = reader.header.made if reader is not None else None
        reading = self.replayer or self.public
        fair = reading.model.fair if reading is not None and reader and reader.header.fair else None
        committed = fair.hands_ordered if fair is not None else None
        signed = fair.seats_signed if fair is not None else None
        return Verdict(kind, record, rule, message, digest, view, hands, tuple(scores), winner, internal, signer,
                       sealed, table, made, committed, signed)  # fmt: skip


def _judge(source: bytes | BinaryIO, progress: _Progress, walk: Walk | None = None) -> Verdict:
    reader = LogReader(source)
    if reader.header.view is None:
        progress.replayer = Replayer(reader, history=walk is not None)
        progress.reader = reader
        _required(reader, progress.signer)
        if walk is None:
            progress.replayer.run()
        else:
            states = progress.replayer.states()
            walk(states)
            for _ in states:  # the rest of the log, for the verdict
                pass
    else:
        progress.public = ViewReplayer(reader)
        progress.reader = reader
        _required(reader, progress.signer)
        progress.public.run()
    what = "strict replay" if reader.header.view is None else f"the view of p{reader.header.view}, public replay"
    if reader.header.signer is not None:
        what += f", signed by {reader.header.signer.hex()[:16]}…{named(reader.header)}"
    if reader.header.fair:
        what += (
            ", fair: every deal recomputed from its seeds"
            if reader.header.view is None
            else (", fair: every card shown recomputed from the seeds")
        )
        reading = progress.replayer or progress.public
        fair = reading.model.fair if reading is not None else None
        what += (
            ", each seed the one its seat committed to before any seed was revealed (DEAL-11)"
            if fair is not None and fair.hands_ordered
            else " (no seats' commitments recorded: the log does not show that each seed was fixed before the others "
            "were seen, DEAL-11)"
        )
        if fair is not None and fair.seats_signed:
            what += f", {' and '.join(f'p{s}' for s in fair.seats_signed)} signed each reveal (DEAL-12)"
    return progress.verdict("pass", reader.index, "", f"{reader.index} records, {reader.checkpoints} checkpoints, "
                            f"{what}")  # fmt: skip


def signed_words(sealed: int | None, last: int) -> str:
    """How far a signed log read up to record ``last`` is signed, for people: ``sealed`` is its last verified seal
    (LOG-18; None before the first)."""
    if sealed is None:
        return f"no record is signed yet (records 1 … {last} come before the first seal)" if last else "nothing signed"
    if sealed >= last:
        return f"signed through record {sealed}"
    return f"signed through record {sealed}: records {sealed + 1} … {last} carry no signature"


def named(header: Header) -> str:
    """What a signed view says of itself (LOG-23), in words: its table and when it was made; for a signed view of
    format 2.0, that it names neither."""
    if header.view is None or header.signer is None:
        return ""
    if header.table is None or header.made is None:
        return " (a format-2.0 view: it names no table and no time)"
    when = datetime.fromtimestamp(min(header.made, MAX_TIME), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return f" for table {render(header.table)} at {when}"


def _required(reader: LogReader, signer: bytes | None) -> None:
    """The header names the signer the verifier requires (LOG-19), once the header itself is sound."""
    if signer is None:
        return
    named = reader.header.signer
    if named is None:
        raise LogError(REQUIRED_RULE, 0, f"the log is not signed (version {reader.header.version[0]}."
                       f"{reader.header.version[1]}), and a signature by {signer.hex()[:16]}… is required")  # fmt: skip
    if named != signer:
        raise LogError(REQUIRED_RULE, 0, f"the log is signed by {named.hex()[:16]}…, not by the key required "
                       f"({signer.hex()[:16]}…)")  # fmt: skip
