"""A team flight in the standings exports: XLSX and CSV list the teams with fixtures won,
boards won and board points; the standings PDF prints them."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from openpyxl import load_workbook
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.exports.csv import render_csv
from tourney.exports.pdf import (
    render_drawsheets_pdf,
    render_pairings_pdf,
    render_scoresheets_pdf,
    render_standings_pdf,
)
from tourney.exports.xlsx import render_xlsx
from tourney.store import results, teams
from tourney.store.db import transaction
from tourney.store.documents import EventDocument
from tourney.store.event_documents import event_document

if TYPE_CHECKING:
    from conftest import BuiltEvent

LEAGUE = {"name": "League", "format": "roundrobin", "match_length": 3, "boards": 3}


def league(engine: Engine, build_event: Callable[..., BuiltEvent]) -> tuple[EventDocument, str]:
    """Two teams, one fixture: team a wins boards 1 and 2 (3-1, 3-0), loses board 3 (2-3):
    2-1 on boards, board points 3+3+2 = 8 to 1+0+3 = 4."""
    built = build_event([], [LEAGUE])
    actor = built.director.actor
    with transaction(engine) as session:
        for name, first in (("Rooks", "R"), ("Knights", "K")):
            teams.add_team(
                session,
                actor=actor,
                event_id=built.event_id,
                name=name,
                members=[(f"{first}{n}",) for n in (1, 2, 3)],
            )
        teams.draw_team_round(session, actor=actor, flight_id=built.flights["League"], seed=1)
    with Session(engine) as session:
        fixture = teams.team_flight_view(session, built.flights["League"]).rounds[0].fixtures[0]
    for board, (a, b) in zip(fixture.boards, [(3, 1), (3, 0), (2, 3)], strict=True):
        with transaction(engine) as session:
            results.record_final_score(
                session, actor=actor, match_id=board.match_id, score_a=a, score_b=b
            )
    with Session(engine) as session:
        return event_document(session, str(built.event_id)), fixture.a


def test_xlsx_standings_sheet_lists_teams_with_fixture_and_board_wins(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    doc, winner = league(engine, build_event)
    loser = "Knights" if winner == "Rooks" else "Rooks"

    sheet = load_workbook(io.BytesIO(render_xlsx(doc).content))["Standings League"]

    rows = [[c.value for c in row] for row in sheet.iter_rows()]
    assert rows == [
        [
            "Place",
            "Rank",
            "Tied",
            "Team",
            "Fixtures won",
            "Boards won",
            "Board points",
            "Why ahead",
        ],
        ["1", 1, False, winner, 1, 2, 8, None],
        ["2", 2, False, loser, 0, 1, 4, None],
    ]


def test_csv_standings_list_teams_with_fixture_and_board_wins(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    doc, winner = league(engine, build_event)
    loser = "Knights" if winner == "Rooks" else "Rooks"

    files = {r.filename: r.content for r in render_csv(doc)}
    standings = next(content for name, content in files.items() if "standings" in name)

    rows = list(csv.reader(io.StringIO(standings.decode("utf-8-sig"))))
    assert rows[0][:8] == [
        "Flight",
        "Place",
        "Rank",
        "Tied",
        "Player",
        "Fixtures won",
        "Boards won",
        "Board points",
    ]
    assert [row[:8] for row in rows[1:]] == [
        ["League", "1", "1", "false", winner, "1", "2", "8"],
        ["League", "2", "2", "false", loser, "0", "1", "4"],
    ]


def test_standings_pdf_prints_the_team_standings(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    doc, _ = league(engine, build_event)

    rendered = render_standings_pdf(doc)

    assert rendered.content.startswith(b"%PDF")


def test_every_printed_document_of_a_team_knockout_renders(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event([], [{**LEAGUE, "format": "knockout"}])
    actor = built.director.actor
    with transaction(engine) as session:
        for name in ("Rooks", "Knights", "Bishops"):
            teams.add_team(
                session,
                actor=actor,
                event_id=built.event_id,
                name=name,
                members=[(f"{name} {n}",) for n in (1, 2, 3)],
            )
        teams.draw_team_round(session, actor=actor, flight_id=built.flights["League"], seed=1)
    with Session(engine) as session:
        doc = event_document(session, str(built.event_id))

    rendered = [
        render_drawsheets_pdf(doc),
        render_pairings_pdf(doc),
        render_scoresheets_pdf(doc),
        render_standings_pdf(doc),
        render_xlsx(doc),
    ]

    assert [r.extension for r in rendered] == ["pdf", "pdf", "pdf", "pdf", "xlsx"]
