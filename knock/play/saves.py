"""The game's log is its save file (event sourcing): written as the game goes, resumed from, branched by undo.

- A new game's log gets a name of its own (``out/play-YYYYMMDD-HHMMSS.knock``, then ``-2``, ``-3`` … in the
  same second) and is never written over: it is created exclusively, like ``-o FILE``.
- The log is flushed after every move (LOG-5 asks for every hand), so a game stopped any way — ``q``, Ctrl-C,
  a crash between two moves — is a valid unfinished log (LOG-13) that ``resume`` continues.
- ``resume`` rebuilds the game with ``replay.resume`` (one strict pass; the deals checked against the seed,
  every bot's move against the bot) and appends to the file: the finished log is byte for byte the log of the
  same game played straight through.
- One save per game: the log ``NAME.knock`` is always the game as it stands, and ``NAME.branches/`` beside it
  (made at the first ``undo``) holds the logs undo leaves behind, ``1.knock``, ``2.knock`` … in the order they
  were left. ``branch`` (undo) moves the log, its bytes untouched, into that folder and starts ``NAME.knock``
  again from the records before the person's last decision; its ``meta`` names the parent log's digest, its
  record count, the records the two share and the parent's path beside it (LOG-14). A single-file save of an
  earlier release, or one of its ``NAME.undo.knock`` logs, is such a log with no branches yet: it resumes.
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any, BinaryIO

from knock.play.session import PlayError, Session, Setup
from replay import ResumeError
from replay.grammar import ACTIONS, classify
from replay.log import Entry, LogError, LogReader, LogTruncated, LogWriter

#: Where a game's log goes when no ``--out`` is given.
FOLDER = Path("out")


def fresh_path(folder: Path = FOLDER, stem: str | None = None, suffix: str = ".knock") -> Path:
    """A name no file has yet: ``play-YYYYMMDD-HHMMSS.knock`` (or ``stem``), then ``-2``, ``-3`` … ."""
    base = stem or time.strftime("play-%Y%m%d-%H%M%S")
    n = 1
    while True:
        path = folder / f"{base}{'' if n == 1 else f'-{n}'}{suffix}"
        if not path.exists():
            return path
        n += 1


def branches_of(path: Path) -> Path:
    """The folder of the logs that ``undo`` left behind in the game logged at ``path``: ``NAME.branches``."""
    return path.with_name(f"{path.stem}.branches")


class Save:
    """A game's log being written (the stream is the file, opened for writing or appending), and the folder of
    the logs undo left behind (``branches``)."""

    def __init__(self, path: Path, stream: BinaryIO, writer: LogWriter) -> None:
        self.path = path
        self.stream = stream
        self.writer = writer

    @property
    def branches(self) -> Path:
        return branches_of(self.path)

    @classmethod
    def create(cls, path: Path, session: Session, meta: dict[str, Any] | None = None) -> Save:
        """A new log of ``session`` at ``path``, which must not exist (it is never written over).

        Raises:
            PlayError: the file exists.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            stream = path.open("xb")
        except FileExistsError:
            raise PlayError(f"{path} exists: a game's log is never written over (choose another --out)") from None
        writer = LogWriter(
            stream, session.match, players=session.setup.players, meta=meta or session.setup.meta(), endings=True
        )  # a person may resign or abort: the log is of format 3.0 (LOG-24)
        save = cls(path, stream, writer)
        save.sync()
        return save

    def sync(self) -> None:
        """Write the records of the moves since the last call, and flush them to the file."""
        self.writer.sync()
        self.stream.flush()

    def close(self) -> None:
        self.stream.close()

    @property
    def records(self) -> int:
        return self.writer.records

    def branch(self, session: Session) -> tuple[Session, Save, Path] | None:
        """Take back the person's last decision in ``session`` (this log's game): the game just before it,
        resumed (``replay.resume``) from this log's records before that decision; this log moved, as it is,
        into ``branches`` (the path returned); and the log started again at the same path — the same setup,
        those records, and ``meta.branch`` naming the log moved. None when there is nothing of the person's
        to take back (whether it may be taken back is ``Session.undo_bar``'s question). Rule: LOG-14."""
        if not session.mine:
            return None
        self.sync()
        data = self.path.read_bytes()
        cut, at = _before_action(data, session.mine[-1])
        earlier, _ = Session.resumed(session.setup, data[:cut], io.BytesIO())
        self.branches.mkdir(parents=True, exist_ok=True)
        left = fresh_path(self.branches, str(1 + sum(1 for _ in self.branches.glob("*.knock"))))
        branch = {"parent": self.writer.digest.hex(), "records": self.writer.records, "at": at,
                  "file": left.relative_to(self.path.parent).as_posix()}  # fmt: skip
        self.close()
        self.path.rename(left)
        return earlier, Save.create(self.path, earlier, {**session.setup.meta(), "branch": branch}), left


def _before_action(data: bytes, n: int) -> tuple[int, int]:
    """Where the log's ``n``-th action record (0 is the first) begins: its byte offset and the records before it."""
    entries: list[Entry] = []
    try:
        entries.extend(LogReader(data).entries())
    except LogTruncated as err:  # a game in play: its log has no trailer yet
        if not err.clean:
            raise
    at = len(data) - sum(e.size for e in entries)
    seen = 0
    for e in entries:
        if classify(e.record) in ACTIONS:
            if seen == n:
                return at, e.index - 1
            seen += 1
        at += e.size
    raise PlayError(f"the log holds {seen} actions, not {n + 1}")


def resume(path: Path) -> tuple[Session, Save]:
    """Continue the unfinished game logged at ``path``, appending to the file (``replay.resume``: one strict
    pass, every bot asked again for its moves, the writer going on with the file's bytes).

    Raises:
        PlayError: the log is finished, fails (with its verdict), or is not a game of ``knock play``.
    """
    try:
        data = path.read_bytes()
    except OSError as err:
        raise PlayError(f"cannot read {path}: {err.strerror or err}") from None
    try:
        header = LogReader(data).header
    except LogError as err:
        raise PlayError(f"cannot resume {path}: the log fails at record {err.record}: {err}") from None
    if header.view is not None:
        raise PlayError(f"cannot resume {path}: it is a per-seat view (LOG-11), which hides the deals")
    setup = Setup.from_header(header)
    stream = path.open("ab")  # nothing is written before the game is rebuilt
    try:
        session, game = Session.resumed(setup, data, stream)
    except ResumeError as err:
        stream.close()
        if err.rule == "MATCH-7":
            raise PlayError(f"cannot resume {path}: its deals are not those of the seed in its meta") from None
        raise PlayError(f"cannot resume {path}: the log fails at record {err.record}: {err}") from None
    except BaseException:
        stream.close()
        raise
    if game.finished:
        stream.close()
        scores = game.verdict.scores
        raise PlayError(f"{path} is a finished game ({game.verdict.hands} hands, totals "
                        f"{', '.join(map(str, scores))}): there is nothing to resume")  # fmt: skip
    save = Save(path, stream, game.writer)
    save.sync()
    return session, save


__all__ = ["FOLDER", "Save", "fresh_path", "resume"]
