"""Knock's log library. What an embedder needs is importable from here:

- ``judge`` and ``Verdict``: the verdict on any bytes (pass, unfinished or fail; LOG-13);
- ``Replayer``: strict replay of a full log, the game after every record (LOG-8);
- ``LogWriter``, ``write_log`` and ``LogReader``: writing a game's log as it is played, and reading one back;
- ``resume``, ``Resumed`` and ``ResumeError``: a game from its log, live, with a writer that continues the log.

The modules: ``codec`` (records), ``log`` (header, writer, reader), ``grammar`` (the record grammar),
``replayer`` (the one replay loop, and strict replay of full logs), ``resume`` (resuming a game), ``verdict``,
``public`` (per-seat views in public mode), ``redact`` (making per-seat views) and ``audit`` (reports that never
raise).
"""

from replay.log import LogReader, LogWriter, write_log
from replay.replayer import Replayer
from replay.resume import Resumed, ResumeError, resume
from replay.verdict import Verdict, judge

__all__ = ["LogReader", "LogWriter", "Replayer", "ResumeError", "Resumed", "Verdict", "judge", "resume", "write_log"]
