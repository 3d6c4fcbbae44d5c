"""Knock's log library (spec/log-format.md). Everything an embedder or an auditor uses is importable from here:

- a verdict on any bytes: ``judge`` and ``Verdict`` (pass, unfinished or fail; LOG-13), and the audit report for
  people, ``verify`` and ``AuditReport``;
- writing and reading: ``LogWriter`` (a game's log as it is played), ``write_log``, ``LogReader``, ``Header`` and
  ``LogError`` (every refusal, naming its record and rule);
- replay: ``Replayer`` and ``iter_states`` (strict replay of a full log, the game after every record, LOG-8),
  ``ViewReplayer`` (a per-seat view in public mode, LOG-12), ``redact`` (making a seat's view, LOG-11);
- resuming a game from its log: ``resume``, ``Resumed`` and ``ResumeError``;
- signed logs (LOG-17 … LOG-19, LOG-23): ``SigningKey``, ``load_signing_key``, ``load_public_key``, ``KeyFileError``
  and ``SigningUnavailable``.

The modules behind them (each of one concept): ``codec`` (records and the digest chain), ``log`` (header, writer,
reader), ``grammar`` (the record grammar), ``replayer`` (the one replay loop), ``public`` (views in public mode),
``redact``, ``resume``, ``verdict``, ``audit``, ``signing`` and ``ed25519_verify`` (verification only), ``fair``
(fair logs' records), ``narration`` (events in words).

>>> from engine import Match
>>> judge(write_log(Match.new(seed=4))).kind  # a game not begun: valid so far
'unfinished'
"""

from replay.audit import AuditReport, verify
from replay.log import Header, LogError, LogReader, LogWriter, write_log
from replay.public import ViewReplayer
from replay.redact import redact
from replay.replayer import Replayer, iter_states
from replay.resume import Resumed, ResumeError, resume
from replay.signing import KeyFileError, SigningKey, SigningUnavailable, load_public_key, load_signing_key
from replay.verdict import Verdict, judge

__all__ = [
    "AuditReport",
    "Header",
    "KeyFileError",
    "LogError",
    "LogReader",
    "LogWriter",
    "Replayer",
    "ResumeError",
    "Resumed",
    "SigningKey",
    "SigningUnavailable",
    "Verdict",
    "ViewReplayer",
    "iter_states",
    "judge",
    "load_public_key",
    "load_signing_key",
    "redact",
    "resume",
    "verify",
    "write_log",
]
