"""The two kinds of error a tournament format raises.

A :class:`FormatUserError` is something a director can fix (too few players, a result for
a match that is not ready, everyone has already played everyone); its message says what
to change. A :class:`FormatInvariantError` means the format code itself is wrong: it is
never the director's fault and should surface as a logged server error.
"""

from __future__ import annotations


class FormatError(Exception):
    """Base of every error raised by ``tourney.formats``."""


class FormatUserError(FormatError, ValueError):
    """A draw, pairing or result request that a director can correct."""


class FormatInvariantError(FormatError, RuntimeError):
    """An internal state the format code should never reach (a bug)."""
