"""The JSON API under ``/api/v1`` (DESIGN §5): public reads need no login.

Errors under this prefix are JSON ``{"error": {"status": int, "message": str}}`` (see
``tourney.web.errors``); a change without a session answers 401, a wrong role 403.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, jsonify, url_for
from flask.typing import ResponseReturnValue

from tourney.store import queries
from tourney.store.queries import EventDetail, EventSummary, FlightView
from tourney.web.auth import public
from tourney.web.deps import reading

bp = Blueprint("api", __name__, url_prefix="/api/v1")


def event_json(event: EventSummary) -> dict[str, Any]:
    """One line of ``GET /api/v1/events`` (the contract: ``id``, ``slug``, ``name``, ...)."""
    return {
        "id": event.id,
        "slug": event.slug,
        "name": event.name,
        "starts_on": event.starts_on.isoformat() if event.starts_on else None,
        "status": event.status,
        "venue": event.venue_name or None,
        "club": event.club_name or None,
        "entries": event.entries_count,
        "flights": event.flights_count,
        "url": url_for("public.event", slug=event.slug, _external=True),
    }


def flight_json(flight: FlightView) -> dict[str, Any]:
    """A flight's public settings."""
    return {
        "id": flight.id,
        "name": flight.name,
        "format": flight.format,
        "status": flight.status,
        "match_length": flight.match_length,
        "round_lengths": dict(flight.round_lengths),
        "feeds_from": flight.feeds_from_id,
        "swiss_rounds": flight.swiss_rounds,
        "swiss_lives": flight.swiss_lives,
        "tiebreaks": list(flight.tiebreaks),
        "draw_method": flight.draw_method,
        "draw_seed": flight.draw_seed,
    }


def event_detail_json(event: EventDetail) -> dict[str, Any]:
    """``GET /api/v1/events/{id}``."""
    return {
        "id": event.id,
        "slug": event.slug,
        "name": event.name,
        "starts_on": event.starts_on.isoformat() if event.starts_on else None,
        "ends_on": event.ends_on.isoformat() if event.ends_on else None,
        "status": event.status,
        "venue": event.venue_name or None,
        "club": event.club_name or None,
        "version": event.data_version,
        "rules": {
            "crawford": event.crawford,
            "holland": event.holland,
            "cube_limit": None
            if event.cube_limit_exponent is None
            else 2**event.cube_limit_exponent,
            "money_play": event.money_play,
            "jacoby": event.jacoby,
        },
        "flights": [flight_json(f) for f in event.flights],
    }


@bp.get("/events")
@public
def events() -> ResponseReturnValue:
    """Public events as ``[{"id", "slug", "name", ...}]``."""
    with reading() as session:
        rows = queries.list_public_events(session)
    return jsonify([event_json(e) for e in rows])


@bp.get("/events/<int:event_id>")
@public
def event(event_id: int) -> ResponseReturnValue:
    """One public event with its rules and flights."""
    with reading() as session:
        summary = next((e for e in queries.list_public_events(session) if e.id == event_id), None)
        if summary is None:
            return jsonify({"error": {"status": 404, "message": "No such event."}}), 404
        detail = queries.get_public_event(session, summary.slug)
    return jsonify(event_detail_json(detail))


@bp.get("/openapi.json")
@public
def openapi() -> ResponseReturnValue:
    """The OpenAPI document of what exists so far."""
    event_schema = {
        "type": "object",
        "required": ["id", "slug", "name"],
        "properties": {
            "id": {"type": "integer"},
            "slug": {"type": "string"},
            "name": {"type": "string"},
            "starts_on": {"type": ["string", "null"], "format": "date"},
            "status": {"type": "string"},
        },
    }
    error = {"description": "Error", "content": {"application/json": {}}}
    return jsonify(
        {
            "openapi": "3.1.0",
            "info": {"title": "tourney", "version": "1"},
            "paths": {
                "/api/v1/events": {
                    "get": {
                        "summary": "Public events",
                        "responses": {
                            "200": {
                                "description": "Public events, newest first",
                                "content": {
                                    "application/json": {
                                        "schema": {"type": "array", "items": event_schema}
                                    }
                                },
                            }
                        },
                    }
                },
                "/api/v1/events/{id}": {
                    "get": {
                        "summary": "One public event with its rules and flights",
                        "parameters": [
                            {
                                "name": "id",
                                "in": "path",
                                "required": True,
                                "schema": {"type": "integer"},
                            }
                        ],
                        "responses": {"200": {"description": "The event"}, "404": error},
                    }
                },
            },
        }
    )
