"""A club's rating list: the FIBS ratings of its players from the results of its events."""

from __future__ import annotations

from flask import Response, abort, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.exports.charts import rating_chart_svg
from tourney.exports.csv import render_table_csv
from tourney.exports.player_history import render_player_history_pdf
from tourney.exports.tables import DataTable
from tourney.exports.xlsx import render_table_xlsx
from tourney.store import seasons
from tourney.store.club_settings import rating_options, set_rating_options
from tourney.store.events import slugify
from tourney.store.rating_documents import PlayerHistory
from tourney.store.rating_lists import RatingList, club_rating_list, player_history
from tourney.store.seasons import SeasonFields, SeasonView
from tourney.web.auth import ALL_ROLES, DIRECTORS, requires
from tourney.web.deps import actor, reading
from tourney.web.director.base import bp
from tourney.web.downloads import send_rendered
from tourney.web.forms import RatingOptionsForm, SeasonForm, options
from tourney.web.i18n import current_language
from tourney.web.submit import Done, submit_form


@bp.get("/clubs/<int:club_id>/ratings")
@requires(*ALL_ROLES)
def club_ratings(club_id: int) -> ResponseReturnValue:
    """The club's rating list, best first, with each player's move over the latest event."""
    return _ratings_page(club_id, None)


def _ratings_page(club_id: int, form: RatingOptionsForm | None) -> str:
    with reading() as session:
        ratings = club_rating_list(session, club_id)
        settings = rating_options(session, actor(), club_id)
    if form is None:
        form = RatingOptionsForm(
            formdata=None,
            provisional_below=settings.provisional_below,
            public_profiles=settings.public_profiles,
        )
    return render_template(
        "director/club_ratings.html", ratings=ratings, settings=settings, form=form
    )


@bp.post("/clubs/<int:club_id>/ratings/options")
@requires(*DIRECTORS)
def club_rating_options(club_id: int) -> ResponseReturnValue:
    """Change the club's provisional threshold and whether its players' pages are public."""
    form = RatingOptionsForm()

    def change(session: Session) -> Done:
        set_rating_options(
            session,
            actor=actor(),
            club_id=club_id,
            provisional_below=form.provisional_below.data or 0,
            public_profiles=bool(form.public_profiles.data),
        )
        return Done(
            gettext("The rating list's options are saved."),
            url_for(".club_ratings", club_id=club_id),
        )

    return submit_form(form, change, lambda: _ratings_page(club_id, form))


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
    return send_rendered(
        renderers[extension](_list_table(ratings), f"{slugify(ratings.club_name)}-ratings")
    )


def _list_table(ratings: RatingList) -> DataTable:
    """The list as a table: numbers as numbers, ratings to two decimals; with a
    provisional threshold, a last column marks the provisional players."""
    marked = ratings.provisional_below > 0
    heading = (
        (gettext(
            "Provisional (below %(experience)s experience)",
            experience=ratings.provisional_below,
        ),)
        if marked
        else ()
    )
    provisional = gettext("provisional")
    # Sheet name and headings in the page's language, written when the file is asked for.
    return DataTable(
        gettext("Ratings"),
        (gettext("Rank"), gettext("Player"), gettext("Rating"), gettext("Change"),
         gettext("Experience"), gettext("Matches"), *heading),
        tuple(
            (
                row.rank,
                row.name,
                round(row.rating, 2),
                None if row.change is None else round(row.change, 2),
                row.experience,
                row.matches,
                *((provisional if row.provisional else "",) if marked else ()),
            )
            for row in ratings.rows
        ),
    )


@bp.route("/clubs/<int:club_id>/seasons", methods=["GET", "POST"])
@requires(*ALL_ROLES)
def club_seasons(club_id: int) -> ResponseReturnValue:
    """A club's seasons, and the form that makes one."""
    form = SeasonForm()
    with reading() as session:
        ratings = club_rating_list(session, club_id)
        form.event_ids.choices = options(seasons.club_events(session, club_id))
        listed = seasons.club_seasons(session, club_id)
    form.scoring.choices = options(seasons.SCORINGS.items())

    def change(session: Session) -> Done:
        season = seasons.create_season(
            session,
            actor=actor(),
            club_id=club_id,
            fields=SeasonFields(
                name=form.name.data or "",
                event_ids=tuple(form.event_ids.data or ()),
                scoring=form.scoring.data or "",
                points_table=form.points(),
                best=form.best.data,
            ),
        )
        return Done(
            gettext("Season “%(name)s” made.", name=season.name),
            url_for(".season", season_id=season.id),
        )

    return submit_form(
        form,
        change,
        lambda: render_template(
            "director/club_seasons.html",
            club_id=club_id,
            club_name=ratings.club_name,
            seasons=listed,
            form=form,
        ),
    )


@bp.get("/seasons/<int:season_id>")
@requires(*ALL_ROLES)
def season(season_id: int) -> ResponseReturnValue:
    """A season's table: each player's points in each event and the total."""
    with reading() as session:
        view = seasons.season_view(session, season_id)
    return render_template("director/season.html", view=view)


@bp.get("/seasons/<int:season_id>.<extension>")
@requires(*ALL_ROLES)
def season_file(season_id: int, extension: str) -> ResponseReturnValue:
    """A season's table as a spreadsheet (XLSX) or a CSV file."""
    renderers = {"csv": render_table_csv, "xlsx": render_table_xlsx}
    if extension not in renderers:
        abort(404)
    with reading() as session:
        view = seasons.season_view(session, season_id)
    return send_rendered(renderers[extension](_season_table(view), slugify(view.name)))


def _season_table(view: SeasonView) -> DataTable:
    """The season as a table: place, player, total, then each event's points."""
    return DataTable(
        gettext("Season"),
        (gettext("Place"), gettext("Player"), gettext("Total"), *view.event_names),
        tuple((line.display_rank, line.name, line.total, *line.points) for line in view.lines),
    )


@bp.get("/clubs/<int:club_id>/players/<int:player_id>/rating.svg")
@requires(*ALL_ROLES)
def club_player_chart(club_id: int, player_id: int) -> ResponseReturnValue:
    """The player's rating after each rated match at the club, as a chart."""
    with reading() as session:
        history = player_history(session, club_id, player_id)
    chart = rating_chart_svg(
        [line.rating_after for line in reversed(history.lines)],
        start=history.start,
        language=current_language(),
    )
    response = Response(chart, content_type="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/clubs/<int:club_id>/players/<int:player_id>/history.pdf")
@requires(*ALL_ROLES)
def club_player_pdf(club_id: int, player_id: int) -> ResponseReturnValue:
    """The player's rating history at the club, printed: the chart and every match."""
    with reading() as session:
        history = player_history(session, club_id, player_id)
    return send_rendered(render_player_history_pdf(
        history, stem=history_stem(history), language=current_language()
    ))


def history_stem(history: PlayerHistory) -> str:
    """The printed history's file name: ``fjordside-bg-ann-avery-rating-history``."""
    return f"{slugify(history.club_name)}-{slugify(history.name) or 'player'}-rating-history"
