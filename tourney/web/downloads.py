"""Downloads: an event's printed documents and spreadsheets, for its staff and the public.

Staff (``/director/events/<id>/downloads/…``) get every PDF (drawsheets, pairing lists,
score sheets, standings) on A4 or US Letter, the XLSX workbook, the CSV tables in one zip
and, directors only, the event JSON. Visitors (``/events/<slug>/downloads/…``) get what
the public pages show: drawsheets, pairing lists and standings as PDF and the workbook,
made from published rounds only and without ratings or clubs. A private event's
downloads follow its pages' rule (share link, or a login on its staff).

Each view loads the event's document, calls one renderer and sends its bytes under the
renderer's filename and content type. The short addresses the documents print for their
QR codes (``/e/<slug>``) are answered here too, by a redirect to the public pages.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace

from flask import Blueprint, Response, abort, redirect, request, url_for
from flask.typing import ResponseReturnValue
from sqlmodel import Session

from tourney.exports import Rendered
from tourney.exports.csv import render_csv
from tourney.exports.event_json import render_event_json
from tourney.exports.pdf import render_pdf
from tourney.exports.xlsx import render_xlsx
from tourney.store import queries, tournament_views
from tourney.store.documents import EventDocument
from tourney.store.event_documents import event_document
from tourney.store.event_json import export_event
from tourney.web.auth import ALL_ROLES, DIRECTORS, public, requires
from tourney.web.deps import actor, reading
from tourney.web.live import ShareKeyAccepted, open_event, viewer

bp = Blueprint("downloads", __name__)

STAFF_PDFS = "any(drawsheets, pairings, scoresheets, standings)"
PUBLIC_PDFS = "any(drawsheets, pairings, standings)"
PAPERS = ("a4", "letter")
ZIP = "application/zip"
_ZIP_TIME = (2000, 1, 1, 0, 0, 0)
"""A fixed time stamp for the zip's members, so the same event zips to the same bytes."""


def _paper() -> str:
    paper = request.args.get("paper", "a4").lower()
    if paper not in PAPERS:
        abort(400, "Choose the paper: a4 or letter.")
    return paper


def _send(rendered: Rendered) -> Response:
    """The rendered bytes as a file download under the renderer's name."""
    response = Response(rendered.content, content_type=rendered.content_type)
    response.headers.set("Content-Disposition", "attachment", filename=rendered.filename)
    # A private event's files must never land in a shared cache.
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _zip(files: tuple[Rendered, ...], stem: str) -> Rendered:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for rendered in files:
            archive.writestr(zipfile.ZipInfo(rendered.filename, _ZIP_TIME), rendered.content)
    return Rendered(buffer.getvalue(), stem, "zip", ZIP)


# --- staff ---------------------------------------------------------------------------


def _staff_document(event_id: int) -> EventDocument:
    """The whole event, for its staff.

    Raises:
        NotFoundError: no such event.
        AccessDeniedError: the user is not on the event's staff.
    """
    with reading() as session:
        queries.get_event_for(session, actor(), event_id)
        return event_document(session, str(event_id), base_url=request.url_root)


@bp.get(f"/director/events/<int:event_id>/downloads/<{STAFF_PDFS}:kind>.pdf")
@requires(*ALL_ROLES)
def staff_pdf(event_id: int, kind: str) -> ResponseReturnValue:
    """A PDF of the event (``?paper=a4|letter``)."""
    paper = _paper()
    return _send(render_pdf(_staff_document(event_id), kind, paper=paper))


@bp.get("/director/events/<int:event_id>/downloads/workbook.xlsx")
@requires(*ALL_ROLES)
def staff_xlsx(event_id: int) -> ResponseReturnValue:
    """The event workbook."""
    return _send(render_xlsx(_staff_document(event_id)))


@bp.get("/director/events/<int:event_id>/downloads/tables.zip")
@requires(*ALL_ROLES)
def staff_csv(event_id: int) -> ResponseReturnValue:
    """Every table of the event as CSV, in one zip."""
    doc = _staff_document(event_id)
    return _send(_zip(render_csv(doc), f"{doc.slug}-csv"))


@bp.get("/director/events/<int:event_id>/downloads/event.json")
@requires(*DIRECTORS)
def staff_json(event_id: int) -> ResponseReturnValue:
    """The whole event as one JSON document (for ``tourney import``); its directors only."""
    with reading() as session:
        queries.require_event(session, actor(), event_id, manage=True)
        document = export_event(session, event_id)
    return _send(render_event_json(document))


# --- public --------------------------------------------------------------------------


def public_document(
    doc: EventDocument, boards: tuple[tournament_views.FlightBoard, ...]
) -> EventDocument:
    """``doc`` cut to what the public pages show: published rounds, no ratings or clubs.

    ``boards`` are the event's flights as the public sees them (published rounds only).
    """
    shown = {b.flight.name: {r.number for r in b.rounds} for b in boards}
    flights = tuple(
        replace(
            f,
            rounds=tuple(r for r in f.rounds if r.number in shown.get(f.name, ())),
            standings=f.standings if shown.get(f.name) else (),
        )
        for f in doc.flights
    )
    players = tuple(replace(p, rating=None, club="") for p in doc.players)
    return replace(doc, flights=flights, players=players)


def _without_key() -> ResponseReturnValue:
    args = {k: v for k, v in request.args.items() if k != "key"}
    return redirect(
        url_for(request.endpoint or "public.index", **(request.view_args or {}), **args)
    )


def _public_document(db: Session, slug: str) -> EventDocument:
    """The public part of the event, if this visitor may see it.

    Raises:
        NotFoundError: no such event, or a private one the visitor has no key or role for.
        ShareKeyAccepted: a valid ``?key=`` was remembered; the caller redirects.
    """
    access = open_event(db, slug, viewer())
    doc = event_document(db, str(access.id), base_url=request.url_root)
    return public_document(doc, tournament_views.event_boards(db, access.id))


@bp.get(f"/events/<slug>/downloads/<{PUBLIC_PDFS}:kind>.pdf")
@public
def public_pdf(slug: str, kind: str) -> ResponseReturnValue:
    """A PDF of what the event's public pages show (``?paper=a4|letter``)."""
    paper = _paper()
    with reading() as db:
        try:
            doc = _public_document(db, slug)
        except ShareKeyAccepted:
            return _without_key()
    return _send(render_pdf(doc, kind, paper=paper))


@bp.get("/events/<slug>/downloads/workbook.xlsx")
@public
def public_xlsx(slug: str) -> ResponseReturnValue:
    """The event workbook without ratings, clubs or unpublished rounds."""
    with reading() as db:
        try:
            doc = _public_document(db, slug)
        except ShareKeyAccepted:
            return _without_key()
    return _send(render_xlsx(doc))


# --- the short addresses printed on the paper ----------------------------------------


def _key_args() -> dict[str, str]:
    key = request.args.get("key", "")
    return {"key": key} if key else {}


@bp.get("/e/<slug>")
@public
def short_event(slug: str) -> ResponseReturnValue:
    """The printed short address of an event: on to its public page."""
    return redirect(url_for("public.event", slug=slug, **_key_args()))


@bp.get("/e/<slug>/matches/<int:match_id>")
@public
def short_match(slug: str, match_id: int) -> ResponseReturnValue:
    """The printed short address of a match (its score sheet's QR code)."""
    return redirect(url_for("public.match", slug=slug, match_id=match_id, **_key_args()))
