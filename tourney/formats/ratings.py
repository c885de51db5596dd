"""FIBS ratings: a club's rating list as the replay of its rated matches (DESIGN §8).

:func:`rating_change` is the formula for one match; :func:`compute_ratings` replays a
list of finished matches in order and returns everyone's rating, best first.

Terminology:
    rated match
        a finished match between two players with a winner; walkovers and byes are not
        rated and never reach this module.
    experience
        the sum of the lengths of the rated matches a player has finished. The K factor
        of a match is taken from the experience *before* it (the match being rated does
        not count towards its own K), as FIBS does.
    favourite
        the higher-rated player of a match. With equal ratings the winner counts as the
        favourite; it makes no difference, because then D = 0, P_upset = 1/2 and the
        winner's P is 1/2 whichever side is called the favourite.

The formula: D = |r1 - r2|, n = the match length,
P_upset = 1 / (10^(D * sqrt(n) / 2000) + 1), P = P_upset when the favourite wins and
1 - P_upset when the underdog wins; K = max(1, 5 - experience / 100) per player; the
winner gains 4 * K_w * sqrt(n) * P and the loser loses 4 * K_l * sqrt(n) * P.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from tourney.formats.errors import FormatUserError
from tourney.rules.messages import Message

DEFAULT_START = 1500.0
"""Everyone's rating before their first rated match."""


@dataclass(frozen=True, slots=True)
class RatedMatch:
    """One finished, rated match.

    Raises:
        FormatUserError: the winner is not one of the two players, a player plays
            themselves, or the length is not a positive number of points.
    """

    finished_at: datetime
    """When the match ended: the replay order. Naive and aware times do not compare, so
    one list should use one kind (the readers of files turn every time into UTC)."""
    player_a: str
    player_b: str
    length: int
    """The match length n, in points."""
    winner: str
    """``player_a`` or ``player_b``."""

    def __post_init__(self) -> None:
        if self.player_a == self.player_b:
            raise FormatUserError(Message(
                "%(player)s cannot play a rated match against themselves.",
                player=repr(self.player_a),
            ))
        if self.winner != self.player_a and self.winner != self.player_b:
            raise FormatUserError(Message(
                "The winner %(winner)s is neither %(a)s nor %(b)s.",
                winner=repr(self.winner), a=repr(self.player_a), b=repr(self.player_b),
            ))
        if isinstance(self.length, bool) or not isinstance(self.length, int) or self.length < 1:
            raise FormatUserError(Message(
                "The match length must be a whole number of points from 1: %(length)s.",
                length=repr(self.length),
            ))

    @property
    def loser(self) -> str:
        """The player who did not win."""
        return self.player_b if self.winner == self.player_a else self.player_a


def side_matches(
    finished_at: datetime,
    side_a: Sequence[str],
    side_b: Sequence[str],
    length: int,
    *,
    a_won: bool,
) -> tuple[RatedMatch, ...]:
    """The rated matches of one match whose sides may be pairs (a consultation).

    Both players of a pair get the result: the match counts once for each player of the
    larger side, against the other side's player in the same place (a pair against one
    player: each of the pair against that player, who is rated twice; a pair against a
    pair: first against first, second against second).

    >>> [(m.player_a, m.player_b, m.winner) for m in side_matches(
    ...     datetime(2026, 1, 1), ["Ann", "Al"], ["Ben"], 5, a_won=True)]
    [('Ann', 'Ben', 'Ann'), ('Al', 'Ben', 'Al')]

    Raises:
        FormatUserError: a side without players, or as :class:`RatedMatch` does.
    """
    if not side_a or not side_b:
        raise FormatUserError(Message("A rated match needs a player on each side."))
    count = max(len(side_a), len(side_b))
    out = []
    for i in range(count):
        a, b = side_a[i % len(side_a)], side_b[i % len(side_b)]
        out.append(RatedMatch(finished_at, a, b, length, a if a_won else b))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's line in the rating list."""

    player: str
    rating: float
    experience: int
    """Sum of the lengths of the player's rated matches."""
    matches: int
    """How many rated matches the player finished."""


def k_factor(experience: int) -> float:
    """FIBS's K: 5 for a newcomer, falling by 1 per 100 points of experience, at least 1.

    >>> k_factor(0), k_factor(250), k_factor(400), k_factor(10_000)
    (5.0, 2.5, 1.0, 1.0)
    """
    return max(1.0, 5.0 - experience / 100.0)


def rating_change(
    winner_rating: float,
    loser_rating: float,
    length: int,
    *,
    winner_experience: int = 0,
    loser_experience: int = 0,
) -> tuple[float, float]:
    """What the winner gains and the loser loses (both positive) in one rated match.

    Experience is each player's before this match.

    >>> gain, loss = rating_change(1600.0, 1500.0, 7, winner_experience=400,
    ...                            loser_experience=400)
    >>> round(gain, 2), round(loss, 2)
    (4.49, 4.49)
    """
    root = math.sqrt(length)
    upset = 1.0 / (10.0 ** (abs(winner_rating - loser_rating) * root / 2000.0) + 1.0)
    # The favourite winning is the expected result and earns the small share P_upset;
    # at equal ratings both shares are 1/2, so calling the winner the favourite is safe.
    p = upset if winner_rating >= loser_rating else 1.0 - upset
    return (
        4.0 * k_factor(winner_experience) * root * p,
        4.0 * k_factor(loser_experience) * root * p,
    )


def _by_rating(row: PlayerRating) -> tuple[float, str]:
    return (-row.rating, row.player)


def compute_ratings(
    matches: Iterable[RatedMatch],
    *,
    start: float = DEFAULT_START,
    starts: Mapping[str, float] | None = None,
    experiences: Mapping[str, int] | None = None,
    matches_before: Mapping[str, int] | None = None,
) -> tuple[PlayerRating, ...]:
    """Everyone's rating after replaying ``matches`` from ``start``; highest rating first.

    Matches are replayed in order of ``finished_at``; matches that finished at the same
    time keep the order they are given in (the sort is stable). Players with the same
    rating are listed by name. ``starts`` gives players a starting rating of their own
    (a club's list carried over from before); everyone else starts at ``start``.
    ``experiences`` and ``matches_before`` carry a player's experience and rated matches
    over from before in the same way (the K factor of their first match here starts from
    that experience); everyone else starts from 0. Only players with a match in
    ``matches`` are listed.
    """
    ordered = sorted(matches, key=lambda m: m.finished_at)
    rating: dict[str, float] = dict(starts or {})
    experience: dict[str, int] = dict(experiences or {})
    before = matches_before or {}
    played: dict[str, int] = {}
    sqrt = math.sqrt
    for match in ordered:
        winner, loser, n = match.winner, match.loser, match.length
        r_w = rating.get(winner, start)
        r_l = rating.get(loser, start)
        x_w = experience.get(winner, 0)
        x_l = experience.get(loser, 0)
        root = sqrt(n)
        # rating_change inlined: this loop runs once per match of a club's whole history.
        upset = 1.0 / (10.0 ** (abs(r_w - r_l) * root / 2000.0) + 1.0)
        p = upset if r_w >= r_l else 1.0 - upset
        k_w = 5.0 - x_w / 100.0
        k_l = 5.0 - x_l / 100.0
        rating[winner] = r_w + 4.0 * (k_w if k_w > 1.0 else 1.0) * root * p
        rating[loser] = r_l - 4.0 * (k_l if k_l > 1.0 else 1.0) * root * p
        experience[winner] = x_w + n
        experience[loser] = x_l + n
        played[winner] = played.get(winner, 0) + 1
        played[loser] = played.get(loser, 0) + 1
    rows = [
        PlayerRating(
            player, rating[player], experience[player], played[player] + before.get(player, 0)
        )
        for player in played
    ]
    rows.sort(key=_by_rating)
    return tuple(rows)
