"""The rules core's error family.

Every error here is a ``ValueError`` a user can act on; the subclass says whether the
input could not be read at all (``NotationError``) or was read but breaks a rule in the
position it was played in (``IllegalPlayError``, ``CubeActionError``).
"""

from __future__ import annotations

from enum import Enum


class RulesError(ValueError):
    """Base class for every error the rules core raises on bad input."""


class NotationError(RulesError):
    """Text that does not parse: a position ID, dice, or a play written wrongly."""


class PlayRule(Enum):
    """The rule an illegal play breaks, for callers that group or count errors."""

    NO_CHECKER = "no checker on the starting point"
    BLOCKED = "the landing point is blocked"
    BAR_FIRST = "a checker on the bar must enter first"
    NOT_ALL_HOME = "bearing off with a checker outside the home board"
    HIGHER_POINT_OCCUPIED = "bearing off with a higher number while a checker stands higher"
    DIE_MISMATCH = "the move does not match the dice"
    TOO_MANY_MOVES = "more moves than the roll allows"
    MORE_DICE_PLAYABLE = "more of the roll could have been played"
    LARGER_DIE = "the larger die could have been played"
    NOT_A_LEGAL_RESULT = "the play reaches a position no legal play reaches"
    HEAD_RULE = "only one checker may leave the head in a turn (long nardy)"
    SIX_BLOCK = "a six-point block with no opposing checker ahead of it (long nardy)"
    HOUSE_RULE = "a local restriction the event plays (five-checker limit, no hit-and-run)"


class IllegalPlayError(RulesError):
    """A play that parses but is not legal in the position and roll it was made with."""

    def __init__(self, message: str, rule: PlayRule) -> None:
        super().__init__(message)
        self.rule = rule


class TooManyPlaysError(RulesError):
    """A turn whose possible plays are more than the work limit lets a check explore (a
    cascade of doublets in Gioul or Gul bara can reach millions of positions)."""


class CubeActionError(RulesError):
    """A cube action the cube state does not allow (double out of turn, take without offer)."""
