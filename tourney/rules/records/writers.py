"""The record formats a stored match can be downloaded in: one registry.

Each format writes a replayed record with its moves (``from_report``) and a match known
only game by game, without moves (``from_games``). Pages and routes list
``RECORD_WRITERS`` rather than naming formats.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tourney.rules.records.mat_writer import format_mat, format_mat_results
from tourney.rules.records.replay import RecordReport
from tourney.rules.records.sgf_writer import format_sgf, format_sgf_results
from tourney.rules.records.summary import GameSummary, MatchHeader


@dataclass(frozen=True, slots=True)
class RecordWriter:
    """One downloadable record format."""

    suffix: str
    """The file name ending, without the dot; also the format's key."""
    label: str
    mimetype: str
    from_report: Callable[[RecordReport], str]
    from_games: Callable[[MatchHeader, Sequence[GameSummary]], str]


RECORD_WRITERS: dict[str, RecordWriter] = {
    writer.suffix: writer
    for writer in (
        RecordWriter("mat", "Jellyfish / gnubg match (.mat)", "text/plain", format_mat,
                     format_mat_results),
        RecordWriter("sgf", "GNU Backgammon match (.sgf)", "application/x-go-sgf",
                     format_sgf, format_sgf_results),
    )
}
"""Every downloadable record format by its suffix, in the order pages offer them."""
