"""Knock's log replayer (the event log and the audit: see the README's list of what is not built yet)."""
