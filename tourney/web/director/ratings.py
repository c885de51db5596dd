"""A club's rating list: the FIBS ratings of its players from the results of its events."""

from __future__ import annotations

from flask import Response, abort, render_template
from flask.typing import ResponseReturnValue

from tourney.exports.csv import render_table_csv
from tourney.exports.tables import DataTable
from tourney.exports.xlsx import render_table_xlsx
from tourney.store.events import slugify
from tourney.store.rating_lists import RatingList, club_rating_list, player_history
from tourney.web.auth import ALL_ROLES, requires
from tourney.web.deps import reading
from tourney.web.director.base import bp


@bp.get("/clubs/<int:club_id>/ratings")
@requires(*ALL_ROLES)
def club_ratings(club_id: int) -> ResponseReturnValue:
    """The club's rating list, best first, with each player's move over the latest event."""
    with reading() as session:
        ratings = club_rating_list(session, club_id)
    return render_template("director/club_ratings.html", ratings=ratings)


@bp.get("/clubs/<int:club_id>/players/<int:player_id>")
@requires(*ALL_ROLES)
def club_player(club_id: int, player_id: int) -> ResponseReturnValue:
    """A player's rated matches at the club, newest first, and their head-to-head record."""
    with reading() as session:
        history = player_history(session, club_id, player_id)
    return render_template("director/club_player.html", history=history)


@bp.get("/clubs/<int:club_id>/ratings.<extension>")
@requires(*ALL_ROLES)
def club_ratings_file(club_id: int, extension: str) -> ResponseReturnValue:
    """The club's rating list as a spreadsheet (XLSX) or a CSV file."""
    renderers = {"csv": render_table_csv, "xlsx": render_table_xlsx}
    if extension not in renderers:
        abort(404)
    with reading() as session:
        ratings = club_rating_list(session, club_id)
    rendered = renderers[extension](_list_table(ratings), f"{slugify(ratings.club_name)}-ratings")
    response = Response(rendered.content, content_type=rendered.content_type)
    response.headers.set("Content-Disposition", "attachment", filename=rendered.filename)
    response.headers["Cache-Control"] = "private, no-store"
    return response


def _list_table(ratings: RatingList) -> DataTable:
    """The list as a table: numbers as numbers, ratings to two decimals."""
    return DataTable(
        "Ratings",
        ("Rank", "Player", "Rating", "Change", "Experience", "Matches"),
        tuple(
            (
                row.rank,
                row.name,
                round(row.rating, 2),
                None if row.change is None else round(row.change, 2),
                row.experience,
                row.matches,
            )
            for row in ratings.rows
        ),
    )
