"""An event's documents as flat tables: the rows the XLSX sheets and the CSV files hold.

Each :class:`DataTable` has a name (the sheet or file name), a header row and rows of
typed cells: ``int`` for numbers, ``date`` for dates, ``bool`` for flags, ``str`` for text
and ``None`` for an empty cell, so each writer can keep numbers as numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from tourney.formats.rounds import parse_round_name
from tourney.i18n import DEFAULT_LANGUAGE, translate
from tourney.match import as_points
from tourney.rules.messages import N_
from tourney.store.documents import EventDocument, MatchDocument

Cell = str | int | float | bool | date | None

ROUND_NAME_HEADER = N_("Round name")
"""The column of round names, which are translated with the headers."""


@dataclass(frozen=True, slots=True)
class DataTable:
    """One table: a name, column headers and rows of cells."""

    name: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


def _number(text: str) -> int | str | None:
    """A table label as a number when it is one (``"12"`` -> 12)."""
    if not text:
        return None
    return int(text) if text.isdigit() else text


def _side(m: MatchDocument, which: str | None) -> str | None:
    """The name on side ``a`` or ``b``; none for no side (a drawn game has no winner)."""
    if which is None:
        return None
    side = m.a if which == "a" else m.b
    return side.name


def event_tables(doc: EventDocument) -> tuple[DataTable, ...]:
    """Players, Pairings, Matches, Games and Standings of an event, as flat tables."""
    players = DataTable(
        N_("Players"),
        (N_("Id"), N_("Name"), N_("Country"), N_("Rating"), N_("Seed"), N_("Club")),
        tuple(
            (p.id, p.name, p.country or None, p.rating, p.seed, p.club or None) for p in doc.players
        ),
    )
    pairings: list[tuple[Cell, ...]] = []
    matches: list[tuple[Cell, ...]] = []
    games: list[tuple[Cell, ...]] = []
    standings: list[tuple[Cell, ...]] = []
    metric_headers = _all_metric_labels(doc)
    for flight in doc.flights:
        for rnd in flight.rounds:
            for m in rnd.matches:
                if m.status == "void":
                    continue
                if m.is_playable or m.is_bye:
                    pairings.append(
                        (
                            flight.name,
                            rnd.number,
                            rnd.name,
                            _number(m.table),
                            m.a.name,
                            "bye" if m.is_bye else m.b.name,
                            m.length,
                        )
                    )
                score_a = m.score[0] if m.score else None
                score_b = m.score[1] if m.score else None
                matches.append(
                    (
                        flight.name,
                        rnd.number,
                        rnd.name,
                        m.number,
                        _number(m.table),
                        m.a.name or m.a.note or None,
                        m.b.name or m.b.note or None,
                        m.length,
                        score_a,
                        score_b,
                        m.winner_name,
                        m.status,
                        m.loser_to,
                        m.key,
                    )
                )
                for g in m.games:
                    games.append(
                        (
                            flight.name,
                            rnd.number,
                            m.number,
                            m.a.name,
                            m.b.name,
                            g.number,
                            _side(m, g.winner),
                            g.cube,
                            g.end,
                            g.level,
                            g.points,
                            g.score_after[0],
                            g.score_after[1],
                            g.crawford,
                            m.key,
                        )
                    )
        for row in flight.standings:
            values = {k: as_points(v) for k, v in row.metrics}
            standings.append(
                (
                    flight.name,
                    row.display_rank,
                    row.rank,
                    row.tied,
                    row.name,
                    *(values.get(label) for label in metric_headers),
                    row.note or row.reason or None,
                )
            )
    return (
        players,
        DataTable(
            N_("Pairings"),
            (
                N_("Flight"),
                N_("Round"),
                ROUND_NAME_HEADER,
                N_("Table"),
                N_("Player A"),
                N_("Player B"),
                N_("Match length"),
            ),
            tuple(pairings),
        ),
        DataTable(
            N_("Matches"),
            (
                N_("Flight"),
                N_("Round"),
                ROUND_NAME_HEADER,
                N_("Match"),
                N_("Table"),
                N_("Player A"),
                N_("Player B"),
                N_("Match length"),
                N_("Score A"),
                N_("Score B"),
                N_("Winner"),
                N_("Status"),
                N_("Loser to"),
                N_("Key"),
            ),
            tuple(matches),
        ),
        DataTable(
            N_("Games"),
            (
                N_("Flight"),
                N_("Round"),
                N_("Match"),
                N_("Player A"),
                N_("Player B"),
                N_("Game"),
                N_("Winner"),
                N_("Cube"),
                N_("Ended"),
                N_("Level"),
                N_("Points"),
                N_("Score A"),
                N_("Score B"),
                N_("Crawford"),
                N_("Match key"),
            ),
            tuple(games),
        ),
        DataTable(
            N_("Standings"),
            (
                N_("Flight"),
                N_("Place"),
                N_("Rank"),
                N_("Tied"),
                N_("Player"),
                *metric_headers,
                N_("Note"),
            ),
            tuple(standings),
        ),
    )


def _all_metric_labels(doc: EventDocument) -> tuple[str, ...]:
    labels: dict[str, None] = {}
    for flight in doc.flights:
        for label in flight.metric_labels:
            labels.setdefault(label)
    return tuple(labels)


def flight_standings_table(
    doc: EventDocument, flight_name: str, division: str | None = None
) -> DataTable:
    """One flight's standings with its own metric columns (for a sheet per flight), or
    those of one ``division`` of a mixed flight ranked separately (places among the
    division's players).

    Raises:
        KeyError: the flight does not rank that division separately.
    """
    flight = doc.flight(flight_name)
    labels = flight.metric_labels
    standings = flight.standings
    name = flight.name
    if division is not None:
        tables = {d.name: d.standings for d in flight.division_standings}
        standings, name = tables[division], f"{flight.name} {division}"
    rows = tuple(
        (
            row.display_rank,
            row.rank,
            row.tied,
            row.name,
            *(as_points(v) for _, v in row.metrics),
            row.note or row.reason or None,
        )
        for row in standings
    )
    extra = N_("Went out in") if flight.is_bracket else N_("Why ahead")
    headers = (N_("Place"), N_("Rank"), N_("Tied"), flight.entrant_label, *labels, extra)
    return DataTable(name, headers, rows)


def translated_table(table: DataTable, language: str) -> DataTable:
    """``table`` with its column headers (and its round names, where it has them) in
    ``language``; its name, which names files, stays as it is."""
    if language == DEFAULT_LANGUAGE:
        return table
    headers = tuple(translate(header, language) for header in table.headers)
    round_columns = [i for i, h in enumerate(table.headers) if h == ROUND_NAME_HEADER]
    if not round_columns:
        return replace(table, headers=headers)
    rows = tuple(
        tuple(
            translate(parse_round_name(value), language)
            if i in round_columns and isinstance(value, str)
            else value
            for i, value in enumerate(row)
        )
        for row in table.rows
    )
    return replace(table, headers=headers, rows=rows)
