"""``python -m knock.cli``: the ``knock`` command."""

from knock.cli import main

main()
