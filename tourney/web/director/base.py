"""The director blueprint and what its area modules share."""

from __future__ import annotations

from flask import Blueprint

from tourney.store import queries
from tourney.store.queries import EventDetail
from tourney.web.deps import actor, reading
from tourney.web.forms import EventForm, PlayerForm, PlayerImportForm, options

bp = Blueprint("director", __name__, url_prefix="/director")


def load_event(event_id: int) -> EventDetail:
    """The event as its staff see it.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or the user is not on its staff.
    """
    with reading() as session:
        return queries.get_event_for(session, actor(), event_id)


def club_choices(form: EventForm | PlayerForm | PlayerImportForm) -> None:
    """Offer the clubs in ``form``'s club box, after "No club"."""
    with reading() as session:
        clubs = queries.list_clubs(session)
    form.club_id.choices = options([("", "No club"), *((c.id, c.name) for c in clubs)])
