"""Knock's log library: ``codec`` (records), ``log`` (header, writer, reader), ``grammar`` (the record grammar),
``replayer`` (the one replay loop, and strict replay of full logs), ``public`` (per-seat views in public mode),
``redact`` (making per-seat views) and ``audit`` (reports that never raise)."""
