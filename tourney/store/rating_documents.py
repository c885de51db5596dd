"""The plain documents of a player's rating history at a club: what the player's pages
show and the printed history (:mod:`tourney.exports.player_history`) renders. Nothing
here reads the database; :mod:`tourney.store.rating_lists` fills them in."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class HistoryLine:
    """One of a player's rated matches, with what it did to their rating."""

    finished_at: datetime
    event_name: str
    opponent: str
    won: bool
    score_text: str
    """The player's points first: ``7-3``."""
    length: int
    change: float
    rating_after: float
    event_id: int = 0


@dataclass(frozen=True)
class HeadToHead:
    """A player's record against one opponent."""

    opponent: str
    wins: int
    losses: int


@dataclass(frozen=True)
class PlayerHistory:
    """A player's rated matches across a club's events, newest first."""

    club_id: int
    club_name: str
    player_id: int
    name: str
    start: float
    """The rating the player came in with: the roster's, or 1500."""
    rating: float
    experience: int
    lines: tuple[HistoryLine, ...]
    head_to_head: tuple[HeadToHead, ...]
    """By losses (most first), then wins, then name."""
    provisional: bool = False
    """The player's experience is below the club's threshold."""
    provisional_below: int = 0
    matches: int = 0
    """Rated matches, those carried in counted."""

    @property
    def nemesis(self) -> HeadToHead | None:
        """The opponent the player has lost to most, where they have lost at all."""
        worst = self.head_to_head[0] if self.head_to_head else None
        return worst if worst is not None and worst.losses else None

    @property
    def ratings_in_order(self) -> tuple[float, ...]:
        """The rating after each rated match, oldest first (the chart's points)."""
        return tuple(line.rating_after for line in reversed(self.lines))
