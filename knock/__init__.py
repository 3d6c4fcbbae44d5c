"""Knock, the application: the ``knock`` command, terminal play, simulation and the conformance runner.

It imports the two libraries, ``engine`` (the rules) and ``replay`` (the log); they never import it.
"""

from engine import __version__

__all__ = ["__version__"]
