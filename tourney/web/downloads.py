"""Downloads: an event's printed documents and spreadsheets, for its staff and the public.

What can be downloaded, by whom and under which address is the exports registry's
(:mod:`tourney.exports.registry`): staff (``/director/events/<id>/downloads/<name>``) get
every export their part in the event allows, printed documents on A4 or US Letter
(``?paper=``); visitors (``/events/<slug>/downloads/<name>``) get the public ones, made
from published rounds only and without ratings or clubs. A private event's downloads
follow its pages' rule (share link, or a login on its staff).

Each view finds the export, checks the reader may have it, renders it and sends its
bytes under the renderer's filename and content type (an export of several files as one
zip). The short addresses the documents print for their QR codes (``/e/<slug>``) are
answered here too, by a redirect to the public pages.
"""

from __future__ import annotations

import io
import zipfile
from typing import Any

from flask import Blueprint, Response, abort, redirect, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext
from sqlmodel import Session

from tourney.exports import ZIP, Rendered
from tourney.exports.registry import (
    PAGE_PAPERS,
    Audience,
    EventSource,
    Export,
    Paper,
    export_downloaded_as,
    exports_offered,
)
from tourney.store import permissions
from tourney.store.event_documents import event_document, public_event_document
from tourney.store.event_json import export_event
from tourney.web.auth import ALL_ROLES, public, requires
from tourney.web.deps import actor, public_root, reading
from tourney.web.i18n import current_language
from tourney.web.live import ShareKeyAccepted, current_address, open_event, viewer

bp = Blueprint("downloads", __name__)

_ZIP_TIME = (2000, 1, 1, 0, 0, 0)
"""A fixed time stamp for the zip's members, so the same event zips to the same bytes."""


def _export(download_name: str, *, public_only: bool) -> Export:
    """The export downloaded under this name (404 if none, or not public when asked)."""
    export = export_downloaded_as(download_name)
    if export is None or (public_only and export.audience is not Audience.PUBLIC):
        abort(404)
    return export


def _paper(export: Export) -> Paper:
    """The paper a paged export is printed on (``?paper=``, A4 by default)."""
    key = request.args.get("paper", PAGE_PAPERS[0].key).lower()
    paper = next((p for p in PAGE_PAPERS if p.key == key), None)
    if paper is None and export.paged:
        abort(
            400,
            gettext(
                "Choose the paper: %(papers)s.",
                papers=", ".join(p.key for p in PAGE_PAPERS),
            ),
        )
    return paper or PAGE_PAPERS[0]


def _stored_source(session: Session, event_id: int, *, public: bool) -> EventSource:
    """The stored event as the exports read it; ``public``: only what its public pages
    show (and no event file: that copies every row)."""
    base_url = public_root()
    if public:
        return EventSource(lambda: public_event_document(session, event_id, base_url=base_url))
    return EventSource(
        lambda: event_document(session, str(event_id), base_url=base_url),
        make_event_file=lambda progress: export_event(session, event_id, progress=progress),
    )


def _one_round(export: Export, source: EventSource) -> EventSource:
    """The source narrowed to the round ``?flight=&round=`` name, or to the matches ready
    to play (``?ready=1``, of the flight ``&flight=`` names if it does), for an export
    printed by round; the whole event otherwise."""
    flight = request.args.get("flight", "")
    number = request.args.get("round", "")
    if export.by_round and request.args.get("ready") == "1":
        return source.ready_to_play(flight or None)
    if not (export.by_round and flight and number.isdigit()):
        return source
    return source.one_round(flight, int(number))


def _send(export: Export, source: EventSource, paper: Paper) -> Response:
    """The export's file as a download under the renderer's name (several files: a zip)."""
    # The documents are written in the language the pages are served in.
    files = export.render(_one_round(export, source.in_language(current_language())), paper)
    if export.several_files:
        rendered = _zip(files, f"{source.document.slug}-{export.identifier}")
    else:
        (rendered,) = files
    return send_rendered(rendered)


def send_rendered(rendered: Rendered) -> Response:
    """A rendered file as a download under its own name."""
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


@bp.app_template_global("downloads_offered")
def downloads_offered(*, staff: bool, manager: bool = False) -> tuple[Export, ...]:
    """The exports a page lists for a reader with these rights on the event."""
    return exports_offered(staff=staff, manager=manager)


@bp.app_template_global("round_exports")
def round_exports() -> tuple[Export, ...]:
    """The exports a flight page offers to print for one round."""
    return tuple(export for export in exports_offered(staff=True) if export.by_round)


@bp.app_template_global("download_papers")
def download_papers() -> tuple[Paper, ...]:
    """The paper sizes a page offers for a printed document."""
    return PAGE_PAPERS


# --- staff ---------------------------------------------------------------------------


@bp.get("/director/events/<int:event_id>/downloads/<name>")
@requires(*ALL_ROLES)
def staff_download(event_id: int, name: str) -> ResponseReturnValue:
    """One of the event's exports, for its staff (``?paper=a4|letter`` for a PDF).

    Raises:
        NotFoundError: no such event.
        AccessDeniedError: the user is not on the event's staff, or the export is for
            those who manage the event.
    """
    export = _export(name, public_only=False)
    paper = _paper(export)
    with reading() as session:
        manage = export.audience is Audience.MANAGERS
        permissions.require_event(session, actor(), event_id, manage=manage)
        source = _stored_source(session, event_id, public=False)
        return _send(export, source, paper)


# --- public --------------------------------------------------------------------------


@bp.get("/events/<slug>/downloads/<name>")
@public
def public_download(slug: str, name: str) -> ResponseReturnValue:
    """A public export of what the event's pages show (``?paper=a4|letter`` for a PDF).

    Raises:
        NotFoundError: no such event, or a private one the visitor has no key or role for.
    """
    export = _export(name, public_only=True)
    paper = _paper(export)
    with reading() as session:
        try:
            access = open_event(session, slug, viewer())
        except ShareKeyAccepted:
            return redirect(current_address())
        source = _stored_source(session, access.id, public=True)
        return _send(export, source, paper)


# --- the short addresses printed on the paper ----------------------------------------


def _key_args() -> dict[str, Any]:
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
