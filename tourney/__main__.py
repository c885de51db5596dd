"""Run the ``tourney`` command as ``python -m tourney``."""

from tourney.cli import main

if __name__ == "__main__":
    main()
