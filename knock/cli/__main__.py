"""``python -m knock.cli``: the ``knock`` command."""

from knock.cli import main

if __name__ == "__main__":  # not when a worker process started with spawn imports this module (knock serve's bots)
    main()
