"""Knock's log library: ``codec`` (records), ``log`` (header, writer, reader), ``grammar`` (the record grammar),
``replayer`` (the one replay loop, and strict replay of full logs), ``resume`` (a game from its log, live, with
a writer that continues the log), ``public`` (per-seat views in public mode), ``redact`` (making per-seat views)
and ``audit`` (reports that never raise)."""

from replay.resume import Resumed, ResumeError, resume

__all__ = ["ResumeError", "Resumed", "resume"]
