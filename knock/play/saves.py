"""The game's log is its save file (event sourcing): written as the game goes, resumed from, branched by undo.

- A new game's log gets a name of its own (``out/play-YYYYMMDD-HHMMSS.knock``, then ``-2``, ``-3`` … in the
  same second) and is never written over: it is created exclusively, like ``-o FILE``.
- The log is flushed after every move (LOG-5 asks for every hand), so a game stopped any way — ``q``, Ctrl-C,
  a crash between two moves — is a valid unfinished log (LOG-13) that ``resume`` continues.
- ``resume`` rebuilds the game with ``replay.resume`` (one strict pass; the deals checked against the seed,
  every bot's move against the bot) and appends to the file: the finished log is byte for byte the log of the
  same game played straight through.
- ``branch`` (undo) starts a new log from the records before the person's last decision; its ``meta`` names the
  parent log's digest, its record count and the records the two share (LOG-14). The parent stays as it was.
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


class Save:
    """A game's log being written (the stream is the file, opened for writing or appending)."""

    def __init__(self, path: Path, stream: BinaryIO, writer: LogWriter) -> None:
        self.path = path
        self.stream = stream
        self.writer = writer

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
        writer = LogWriter(stream, session.match, players=session.setup.players, meta=meta or session.setup.meta())
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

    def branch(self, session: Session) -> tuple[Session, Save] | None:
        """Take back the person's last decision in ``session`` (this log's game): the game just before it,
        resumed (``replay.resume``) from this log's records before that decision, and a new log for it — the
        same setup, those records, and ``meta.branch`` naming this log. None when there is nothing of the
        person's to take back. Rule: LOG-14."""
        if not session.mine:
            return None
        self.sync()
        data = self.path.read_bytes()
        cut, at = _before_action(data, session.mine[-1])
        earlier, _ = Session.resumed(session.setup, data[:cut], io.BytesIO())
        branch = {"parent": self.writer.digest.hex(), "records": self.writer.records, "at": at,
                  "file": self.path.name}  # fmt: skip
        stem = self.path.stem.split(".undo")[0]
        path = fresh_path(self.path.parent, f"{stem}.undo", self.path.suffix or ".knock")
        self.close()
        return earlier, Save.create(path, earlier, {**session.setup.meta(), "branch": branch})


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
