"""A club's rating list: the FIBS ratings of its players from the results of its events."""

from __future__ import annotations

from flask import render_template
from flask.typing import ResponseReturnValue

from tourney.store.rating_lists import club_rating_list, player_history
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
