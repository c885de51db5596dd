"""The director blueprint and what its area modules share."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, request
from sqlmodel import Session

from tourney.store import queries
from tourney.store.queries import EventDetail
from tourney.store.rules_change import RulesChangeNeedsConfirmation
from tourney.web.deps import actor, reading
from tourney.web.forms import EventForm, PlayerForm, PlayerImportForm, options
from tourney.web.i18n import lazy_gettext
from tourney.web.submit import Done

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
    form.club_id.choices = options(
        [("", lazy_gettext("No club")), *((c.id, c.name) for c in clubs)]
    )


class RulesChangeConfirmation:
    """A settings form whose change may alter results: it asks, then applies what was confirmed.

    The first submission that would change results is refused with the list of changes;
    the form is shown again with that list (``pending``) and a "Confirm the change" button
    that sends the list's digest back. Only a submission through that button confirms,
    and only for the very list shown (the store compares the digest).
    """

    def __init__(self) -> None:
        self.pending: RulesChangeNeedsConfirmation | None = None

    @staticmethod
    def confirmed() -> str | None:
        """The digest the director confirmed with the button, if they pressed it."""
        if request.form.get("confirm_rules_change") != "y":
            return None
        return request.form.get("confirmed_changes") or None

    def run(self, save: Callable[[Session, str | None], Done]) -> Callable[[Session], Done]:
        """``save`` as a form's change, keeping the list of changes it was refused with."""

        def change(session: Session) -> Done:
            try:
                return save(session, self.confirmed())
            except RulesChangeNeedsConfirmation as asked:
                self.pending = asked
                raise

        return change
