"""Public pages: events, flights (brackets, pairings, standings), players, matches, and the
players' pages at clubs that show them. No login.

Every event page is live (see ``tourney.web.live``): its region is rendered once per data
version and polled by the open page. Private events answer 404 unless the visitor has the
share link or works on the event.
"""

from __future__ import annotations

import io

import segno
from flask import Blueprint, Response, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.exports.charts import rating_chart_svg
from tourney.store import (
    analyses,
    clocks,
    club_money,
    event_lifecycle,
    money_sessions,
    player_profiles,
    screens,
    teams,
)
from tourney.store import public_views as pv
from tourney.store.db import ping
from tourney.store.errors import NotFoundError
from tourney.store.paging import Page, page_of
from tourney.store.tournament_views import MatchDetail, MatchSummary
from tourney.web.auth import public
from tourney.web.deps import public_url_for, reading, state
from tourney.web.i18n import current_language
from tourney.web.live import ShareKeyAccepted, live_page, open_event, profile_cache, viewer

bp = Blueprint("public", __name__)

BRACKET_WINDOW = 128
"""Matches a public flight page shows at once; a bigger bracket shows a round at a time."""


@bp.get("/")
@public
def index() -> ResponseReturnValue:
    """Public events, newest first (archived ones only by their address)."""
    with reading() as session:
        events = event_lifecycle.listed_public_events(session)
    return render_template("public/index.html", events=events)


@bp.get("/events/<slug>")
@public
def event(slug: str) -> ResponseReturnValue:
    """An event's home: flights with their current round, find your name, the field, a QR code."""
    return live_page(
        slug,
        page="home",
        template="public/_event.html",
        build=lambda db, access: {"home": pv.event_home(db, access.id), "slug": slug},
        title=lambda c: c["home"].event.name,
    )


@bp.get("/events/<slug>/flights/<int:flight_id>")
@public
def flight(slug: str, flight_id: int) -> ResponseReturnValue:
    """A flight: the bracket of a knockout, the current round's pairings otherwise."""
    return _flight_page(slug, flight_id, None)


@bp.get("/events/<slug>/flights/<int:flight_id>/rounds/<int:number>")
@public
def flight_round(slug: str, flight_id: int, number: int) -> ResponseReturnValue:
    """One round's pairings with tables and scores."""
    return _flight_page(slug, flight_id, number)


def _part() -> int:
    """The part of a long list asked for (``?part=``), from 1."""
    text = request.args.get("part", "1")
    return int(text) if text.isdigit() and 0 < len(text) < 6 else 1


def _flight_page(slug: str, flight_id: int, number: int | None) -> ResponseReturnValue:
    part = _part()

    def build(db: Session, access: pv.EventAccess) -> dict[str, object]:
        board = pv.flight_board(db, access.id, flight_id)
        shown = pv.current_round(board)
        if number is not None:
            shown = next((r for r in board.rounds if r.number == number), None)
            if shown is None:
                raise NotFoundError(gettext("No such round."))
        # A big bracket shows one round, and a long round a part of it, at a time: a
        # phone gets a page it can load, and the region stays cheap to render.
        whole = sum(len(r.matches) for r in board.rounds) <= BRACKET_WINDOW
        window = [(r, r.matches) for r in board.rounds] if whole and board.is_knockout else []
        matches: Page[MatchSummary] = page_of((), 1, per_page=BRACKET_WINDOW)
        if shown is not None and not window:
            bouts = [m for m in shown.matches if not (board.is_knockout and m.is_void)]
            matches = page_of(bouts, part, per_page=BRACKET_WINDOW)
            window = [(shown, matches.rows)]
        return {
            "board": board,
            "shown": shown,
            "slug": slug,
            "window": window,
            "windowed": not whole,
            "matches": matches,
        }

    return live_page(
        slug,
        page=f"flight:{flight_id}:{number}:{part}",
        template="public/_flight.html",
        build=build,
        title=lambda c: f"{c['board'].flight.name} · {c['board'].event_name}",
    )


@bp.get("/events/<slug>/flights/<int:flight_id>/standings")
@public
def standings(slug: str, flight_id: int) -> ResponseReturnValue:
    """A flight's standings with its tiebreaks spelled out."""
    part = _part()

    def build(db: Session, access: pv.EventAccess) -> dict[str, object]:
        board = pv.flight_board(db, access.id, flight_id)
        rows = page_of(board.standings, part)
        # A long table comes in parts: each division's table shows the players of this part.
        shown = {row.player.flight_entry_id for row in rows.rows}
        divisions = [
            (table.name, [r for r in table.rows if r.player.flight_entry_id in shown])
            for table in board.division_tables
        ]
        return {"board": board, "slug": slug, "rows": rows,
                "divisions": [(name, part_rows) for name, part_rows in divisions if part_rows]}

    return live_page(
        slug,
        page=f"standings:{flight_id}:{part}",
        template="public/_standings.html",
        build=build,
        title=lambda c: (
            f"{gettext('Standings')} · {c['board'].flight.name} · {c['board'].event_name}"
        ),
    )


@bp.get("/events/<slug>/flights/<int:flight_id>/fixtures")
@public
def team_flight(slug: str, flight_id: int) -> ResponseReturnValue:
    """A team flight: team standings and each round's fixtures."""
    return live_page(
        slug,
        page=f"fixtures:{flight_id}",
        template="public/_team_flight.html",
        build=lambda db, access: {
            "view": teams.public_team_flight(db, access.id, flight_id),
            "slug": slug,
        },
        title=lambda c: f"{c['view'].name} · {c['view'].event_name}",
    )


@bp.get("/events/<slug>/fixtures/<int:fixture_id>")
@public
def fixture(slug: str, fixture_id: int) -> ResponseReturnValue:
    """A fixture: its result and its boards."""
    return live_page(
        slug,
        page=f"fixture:{fixture_id}",
        template="public/_fixture.html",
        build=lambda db, access: {
            "fixture": teams.public_fixture(db, access.id, fixture_id),
            "slug": slug,
        },
        title=lambda c: gettext(
            "%(team_a)s v %(team_b)s",
            team_a=c["fixture"].a,
            team_b=c["fixture"].b or gettext("bye"),
        ),
    )


@bp.get("/events/<slug>/players")
@public
def players(slug: str) -> ResponseReturnValue:
    """Find your name: the players whose name contains the search."""
    query = request.args.get("q", "")[:80]
    return live_page(
        slug,
        page=f"players:{query.casefold()}",
        template="public/_players.html",
        build=lambda db, access: {
            "entries": pv.find_entries(db, access.id, query),
            "query": query,
            "event_name": access.name,
            "slug": slug,
        },
        title=lambda c: f"{gettext('Players')} · {c['event_name']}",
    )


@bp.get("/events/<slug>/players/<int:entry_id>")
@public
def player(slug: str, entry_id: int) -> ResponseReturnValue:
    """A player's matches, with the current or next one first."""
    return live_page(
        slug,
        page=f"player:{entry_id}",
        template="public/_player.html",
        build=lambda db, access: _player_context(db, access, slug, entry_id),
        title=lambda c: f"{c['player'].name} · {c['event_name']}",
    )


def _player_context(
    db: Session, access: pv.EventAccess, slug: str, entry_id: int
) -> dict[str, object]:
    """The player page's context, with when their next match is expected to start."""
    player = pv.player_page(db, access.id, entry_id)
    plan = None
    if player.next_match is not None:
        # One timetable per event and data version, however many players look.
        key = ("timetable", access.id, access.data_version)
        times: clocks.EventTimes | None = profile_cache().get(key)
        if times is None:
            times = clocks.event_times(db, access.id)
            profile_cache().put(key, times)
        plan = times.match(player.next_match.match.id)
    return {
        "player": player,
        "next_plan": plan,
        "event_name": access.name,
        "slug": slug,
    }


@bp.get("/events/<slug>/players/<int:entry_id>/print")
@public
def player_print(slug: str, entry_id: int) -> ResponseReturnValue:
    """A printable "my matches" sheet (no polling)."""
    who = viewer()
    with reading() as db:
        try:
            access = open_event(db, slug, who)
        except ShareKeyAccepted:
            return redirect(url_for("public.player_print", slug=slug, entry_id=entry_id))
        page = pv.player_page(db, access.id, entry_id)
    return render_template(
        "public/player_print.html", player=page, event_name=access.name, slug=slug
    )


@bp.get("/events/<slug>/matches/<int:match_id>")
@public
def match(slug: str, match_id: int) -> ResponseReturnValue:
    """A match's score sheet: games with cube, result and Crawford marks."""
    return live_page(
        slug,
        page=f"match:{match_id}",
        template="public/_match.html",
        build=lambda db, access: _match_context(
            db, pv.match_page(db, access.id, match_id), slug, clocks.match_clock(db, match_id)
        ),
        title=lambda c: _match_title(c["detail"]),
    )


@bp.get("/events/<slug>/performance")
@public
def performance(slug: str) -> ResponseReturnValue:
    """The performance rating (PR) of each player whose recorded matches were analysed."""
    return live_page(
        slug,
        page="performance",
        template="public/_performance.html",
        build=lambda db, access: {
            "performance": analyses.event_performance(db, access.id),
            "event_name": access.name,
            "slug": slug,
        },
        title=lambda c: f"{gettext('Performance')} · {c['event_name']}",
    )


@bp.get("/events/<slug>/money/<int:session_id>")
@public
def money_session(slug: str, session_id: int) -> ResponseReturnValue:
    """A money session or chouette as the players at the table follow it on a phone: who
    is box and captain, the totals and the games."""
    return live_page(
        slug,
        page=f"money:{session_id}",
        template="public/_money.html",
        build=lambda db, access: {
            "view": money_sessions.public_session_view(db, access.id, session_id)
        },
        title=lambda c: f"{c['view'].name} · {c['view'].event_name}",
    )


@bp.get("/events/<slug>/screen")
@public
def screen(slug: str) -> ResponseReturnValue:
    """The venue screen: a full-screen, large-type rotation of pairings, brackets,
    standings, the round clock and the director's announcement, for a projector."""
    return live_page(
        slug,
        page="screen",
        template="screen/_slides.html",
        build=lambda db, access: {"screen": screens.screen_view(db, access.id)},
        title=lambda c: c["screen"].event_name,
        frame="screen/page.html",
        wrapper="screen/_live.html",
    )


@bp.get("/events/<slug>/prizes")
@public
def prizes(slug: str) -> ResponseReturnValue:
    """The prize structure of each flight (entry, retention, payout table) and, once the
    event is finished, who won what; amounts hidden where the director hides them."""
    return live_page(
        slug,
        page="prizes",
        template="public/_prizes.html",
        build=lambda db, access: {"sheet": club_money.public_prizes(db, access.id), "slug": slug},
        title=lambda c: f"{gettext('Prizes')} · {c['sheet'].event_name}",
    )


def _match_context(
    db: Session, detail: MatchDetail, slug: str, clock: clocks.MatchClock | None = None
) -> dict[str, object]:
    return {
        "detail": detail,
        "slug": slug,
        "record_downloads": pv.record_downloads(detail),
        "analysis": analyses.match_analysis(db, detail.match.id),
        "chances": analyses.match_chances(db, detail.match.id),
        "clock": clock,
    }


def _match_title(detail: MatchDetail) -> str:
    m = detail.match
    a = m.a.name if m.a else m.a_placeholder or "?"
    b = m.b.name if m.b else (gettext("bye") if m.is_bye else m.b_placeholder or "?")
    return f"{gettext('%(player_a)s v %(player_b)s', player_a=a, player_b=b)} · {detail.event_name}"


@bp.get("/events/<slug>/records/<int:record_id>")
@public
def record(slug: str, record_id: int) -> ResponseReturnValue:
    """Download the validated match record of a match."""
    who = viewer()
    with reading() as db:
        try:
            access = open_event(db, slug, who)
        except ShareKeyAccepted:
            return redirect(url_for("public.record", slug=slug, record_id=record_id))
        found = pv.record_file(db, access.id, record_id)
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in found.filename) or "match.mat"
    return Response(
        found.text,
        mimetype="text/plain",
        headers={"Content-Disposition": f'attachment; filename="{safe}"'},
    )


@bp.get("/events/<slug>/matches/<int:match_id>/record.<suffix>")
@public
def match_record(slug: str, match_id: int, suffix: str) -> ResponseReturnValue:
    """Download a match as a record file in one of the written formats: with its moves
    where a validated record was uploaded, else its games as entered."""
    who = viewer()
    with reading() as db:
        try:
            access = open_event(db, slug, who)
        except ShareKeyAccepted:
            return redirect(url_for("public.match_record", slug=slug, match_id=match_id,
                                    suffix=suffix))
        found = pv.match_record_export(db, access.id, match_id, suffix)
    return Response(
        found.text,
        mimetype=found.mimetype,
        headers={"Content-Disposition": f'attachment; filename="{found.filename}"'},
    )


@bp.get("/events/<slug>/qr.svg")
@public
def qr(slug: str) -> ResponseReturnValue:
    """A QR code of the event's address (with the share key while private)."""
    who = viewer()
    with reading() as db:
        try:
            access = open_event(db, slug, who)
        except ShareKeyAccepted:
            return redirect(url_for("public.qr", slug=slug))
        token = None if access.is_public else pv.share_token(db, access.id)
    args = {} if token is None else {"key": token}
    target = public_url_for("public.event", slug=slug, **args)
    buffer = io.BytesIO()
    segno.make(target, error="m").save(
        buffer, kind="svg", scale=4, dark="#1d232a", light="#ffffff", title=access.name
    )
    response = Response(buffer.getvalue(), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "private, max-age=300"
    return response


@bp.get("/clubs/<club_slug>/players/<int:player_id>")
@public
def club_player(club_slug: str, player_id: int) -> ResponseReturnValue:
    """A player's page at a club that shows them: events, results, rating, chart, nemesis."""
    profile = _profile(club_slug, player_id)
    response = Response(render_template("public/club_player.html", profile=profile))
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@bp.get("/clubs/<club_slug>/players/<int:player_id>/rating.svg")
@public
def club_player_chart(club_slug: str, player_id: int) -> ResponseReturnValue:
    """The public page's chart: the player's rating after each rated match at the club."""
    profile = _profile(club_slug, player_id)
    if profile.history is None:
        raise NotFoundError(gettext("No rated match at the club yet."))
    chart = rating_chart_svg(
        profile.chart_points, start=profile.chart_start, language=current_language()
    )
    response = Response(chart, content_type="image/svg+xml")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _profile(club_slug: str, player_id: int) -> player_profiles.PublicProfile:
    """The player's public page at the club, replayed once per version of the club's data
    (a club's whole history takes a second or more at 100,000 matches)."""
    with reading() as db:
        version = player_profiles.club_data_version(db, club_slug)
        key = (club_slug, player_id, version)
        found: player_profiles.PublicProfile | None = profile_cache().get(key)
        if found is None:
            found = player_profiles.public_profile(db, club_slug, player_id)
            profile_cache().put(key, found)
    return found


@bp.get("/healthz")
@public
def healthz() -> ResponseReturnValue:
    """200 ``{"status": "ok"}`` when the database answers, 503 otherwise."""
    if ping(state().engine):
        return jsonify({"status": "ok"})
    return jsonify({"status": "unavailable", "reason": "database unreachable"}), 503
