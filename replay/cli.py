"""The ``knock`` command (placeholder replaced below)."""
