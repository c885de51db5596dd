"""The ``tourney`` command: thin wrappers over the rules core, the store and the exports.

Every user error becomes one line on stderr and the exit status the contracts name:
0 success, 1 a finding (an invalid record), 2 a usage error or unreadable input.
"""

from __future__ import annotations

import sys

import click

from tourney import __version__


class UsageFailure(click.ClickException):
    """A user error: printed as one line on stderr, exit status 2."""

    exit_code = 2

    def show(self, file: object = None) -> None:
        click.echo(f"tourney: {self.format_message()}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tourney")
def cli() -> None:
    """Backgammon tournaments: rules, records, draws, results."""


# --- rules -------------------------------------------------------------------------


@cli.group()
def rules() -> None:
    """Positions and legal plays."""


def main() -> None:
    """Entry point of the console script."""
    try:
        cli.main(standalone_mode=True)
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        sys.exit(130)
