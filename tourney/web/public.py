"""Public pages: the list of public events and each event's page. No login needed."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template
from flask.typing import ResponseReturnValue

from tourney.store import queries
from tourney.store.db import ping
from tourney.web.auth import public
from tourney.web.deps import reading, state

bp = Blueprint("public", __name__)


@bp.get("/")
@public
def index() -> ResponseReturnValue:
    """Public events, newest first."""
    with reading() as session:
        events = queries.list_public_events(session)
    return render_template("public/index.html", events=events)


@bp.get("/events/<slug>")
@public
def event(slug: str) -> ResponseReturnValue:
    """A public event: rules, flights and the field."""
    with reading() as session:
        detail = queries.get_public_event(session, slug)
        entries = [e for e in queries.list_entries(session, detail.id) if e.is_active]
    return render_template("public/event.html", event=detail, entries=entries)


@bp.get("/healthz")
@public
def healthz() -> ResponseReturnValue:
    """200 ``{"status": "ok"}`` when the database answers, 503 otherwise."""
    if ping(state().engine):
        return jsonify({"status": "ok"})
    return jsonify({"status": "unavailable", "reason": "database unreachable"}), 503
