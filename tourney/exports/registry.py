"""Every export of an event in one list: its name, the files it makes, who may have it.

The download pages, their links and ``tourney export`` ask :data:`EXPORTS` (by
identifier with :func:`export_named`, by download name with :func:`export_downloaded_as`)
and the paper sizes in :data:`PAPERS`, and never spell an export out, so a new export is
one entry here and its renderer.

Terminology: an export's *audience* says who may download it: anyone who may read the
event's public pages (``PUBLIC``, made from published rounds only and without ratings or
clubs), the event's staff (``STAFF``), or only those who may manage the event
(``MANAGERS``). A *paged* export is printed on a paper size the reader chooses.

Importing this module is cheap: each renderer is imported when it first renders, so a
command line can list the exports without loading reportlab, openpyxl or the database.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING, Any

from reportlab.lib.pagesizes import A3, A4, letter

from tourney.exports import CSV, JSON, PDF, XLSX, Rendered
from tourney.i18n import DEFAULT_LANGUAGE
from tourney.rules.messages import N_

if TYPE_CHECKING:
    from tourney.store.documents import EventDocument


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper size the printed documents come on."""

    key: str
    """How ``--paper`` and ``?paper=`` name it: ``letter``."""
    name: str
    """``US Letter``: a core label, translated where it is shown."""
    short_name: str
    """For a link or a button: ``Letter`` (a core label too)."""
    size: tuple[float, float]
    """Width and height in points, portrait."""
    poster: bool = False
    """Meant for drawsheets hung on a wall (``tourney export --paper a3``): the pages
    offer only the other sizes."""


PAPERS = {
    paper.key: paper
    for paper in (
        Paper("a4", N_("A4"), N_("A4"), A4),
        Paper("letter", N_("US Letter"), N_("Letter"), letter),
        Paper("a3", N_("A3"), N_("A3"), A3, poster=True),
    )
}
"""Every paper size, by key; A4 is the default."""

PAGE_PAPERS = tuple(paper for paper in PAPERS.values() if not paper.poster)
"""The paper sizes the download pages offer."""


def paper_named(key: str) -> Paper:
    """The paper size ``key`` names.

    Raises:
        ValueError: an unknown size (the message lists the known ones).
    """
    try:
        return PAPERS[key]
    except KeyError:
        raise ValueError(f"Unknown paper {key!r}; use one of {', '.join(PAPERS)}.") from None


class Audience(Enum):
    """Who may download an export."""

    PUBLIC = "public"
    STAFF = "staff"
    MANAGERS = "managers"

    def includes(self, *, staff: bool, manager: bool) -> bool:
        """Whether a reader with these rights on the event may have the export."""
        if self is Audience.PUBLIC:
            return True
        return manager if self is Audience.MANAGERS else staff


ProgressFn = Callable[[str, int, int], None]
"""Told ``(step, done, total)`` as a long export goes through an event's tables."""


class EventSource:
    """One event as the exports read it: its printable document, made once on first use,
    and, for a stored event, its event file (the JSON document of every row)."""

    def __init__(
        self,
        make_document: Callable[[], EventDocument],
        *,
        make_event_file: Callable[[ProgressFn | None], dict[str, Any]] | None = None,
    ) -> None:
        self._make_document = make_document
        self._make_event_file = make_event_file
        self.progress: ProgressFn | None = None
        """Told how a long export is going (the event file of a large event)."""
        self.language = DEFAULT_LANGUAGE
        """The language of the documents' headings and words (a code of ``LANGUAGES``)."""

    def in_language(self, language: str) -> EventSource:
        """This source, its documents written in ``language``; returns it."""
        self.language = language
        return self

    @classmethod
    def from_document(cls, document: EventDocument) -> EventSource:
        """A source of an event document only (tests, benchmarks, simulated events)."""
        return cls(lambda: document)

    @cached_property
    def document(self) -> EventDocument:
        """The event's document."""
        return self._make_document()

    def one_round(self, flight: str, round_number: int) -> EventSource:
        """The same event narrowed to one round of one flight (printing the next round)."""
        narrowed = EventSource(lambda: only_round(self.document, flight, round_number))
        return narrowed.in_language(self.language)

    def ready_to_play(self, flight: str | None = None) -> EventSource:
        """The same event narrowed to the matches ready to play (of one flight, if
        named): printing what the players sit down to now."""
        narrowed = EventSource(lambda: only_ready_to_play(self.document, flight))
        return narrowed.in_language(self.language)

    def event_file(self) -> dict[str, Any]:
        """The JSON document of the stored event's rows.

        Raises:
            ValueError: the source is a document only.
        """
        if self._make_event_file is None:
            raise ValueError("This export copies the database rows: export a stored event.")
        return self._make_event_file(self.progress)


def only_round(document: EventDocument, flight: str, round_number: int) -> EventDocument:
    """The document with only round ``round_number`` of the flight named ``flight``."""
    return replace(
        document,
        flights=tuple(
            replace(f, rounds=tuple(r for r in f.rounds if r.number == round_number))
            for f in document.flights
            if f.name == flight
        ),
    )


def only_ready_to_play(document: EventDocument, flight: str | None = None) -> EventDocument:
    """The document with only the matches ready to play: both players known, not
    finished, in a published round (of the flight named ``flight``, if given)."""
    return replace(
        document,
        flights=tuple(
            replace(
                f,
                rounds=tuple(
                    replace(r, matches=ready)
                    for r in f.rounds
                    if not r.is_draft
                    and (ready := tuple(m for m in r.matches if m.is_ready_to_play))
                ),
            )
            for f in document.flights
            if flight is None or f.name == flight
        ),
    )


Renderer = Callable[[EventSource, Paper], tuple[Rendered, ...]]
"""Render an event on a paper size (exports that are not paged ignore it)."""


@dataclass(frozen=True, slots=True)
class Export:
    """One thing an event can be exported as."""

    identifier: str
    """``drawsheets``; ``tourney export --pdf`` takes the printed ones by it."""
    verbose_name: str
    """As the download lists show it: ``Pairing lists``."""
    extension: str
    """Of each file it renders, without the dot: ``pdf``."""
    content_type: str
    """Of each file it renders."""
    audience: Audience
    download_name: str
    """The last part of its download address: ``drawsheets.pdf``, ``tables.zip``."""
    render: Renderer
    paged: bool = False
    """Printed on a paper size the reader chooses."""
    several_files: bool = False
    """Renders one file per table: written into a directory by ``tourney export``,
    downloaded from the pages as one zip."""
    by_round: bool = False
    """Printed for one round too (``?flight=Main&round=2``): the round about to be played;
    and for the matches ready to play (``?ready=1``, of one flight with ``&flight=``)."""

    def __repr__(self) -> str:
        return f"export_named({self.identifier!r})"


# Each renderer is imported when it first renders (see the module docstring).


def _drawsheets(source: EventSource, paper: Paper) -> tuple[Rendered, ...]:
    from tourney.exports.pdf import render_drawsheets_pdf

    return (
        render_drawsheets_pdf(
            source.document, paper=paper.key, poster=paper.poster, language=source.language
        ),
    )


def _pairings(source: EventSource, paper: Paper) -> tuple[Rendered, ...]:
    from tourney.exports.pdf import render_pairings_pdf

    return (render_pairings_pdf(source.document, paper=paper.key, language=source.language),)


def _scoresheets(source: EventSource, paper: Paper) -> tuple[Rendered, ...]:
    from tourney.exports.pdf import render_scoresheets_pdf

    return (render_scoresheets_pdf(source.document, paper=paper.key, language=source.language),)


def _standings(source: EventSource, paper: Paper) -> tuple[Rendered, ...]:
    from tourney.exports.pdf import render_standings_pdf

    return (render_standings_pdf(source.document, paper=paper.key, language=source.language),)


def _workbook(source: EventSource, _paper: Paper) -> tuple[Rendered, ...]:
    from tourney.exports.xlsx import render_xlsx

    return (render_xlsx(source.document, language=source.language),)


def _tables(source: EventSource, _paper: Paper) -> tuple[Rendered, ...]:
    from tourney.exports.csv import render_csv

    return render_csv(source.document, language=source.language)


def _event_file(source: EventSource, _paper: Paper) -> tuple[Rendered, ...]:
    from tourney.exports.event_json import render_event_json

    return (render_event_json(source.event_file()),)


def _printed(
    identifier: str,
    verbose_name: str,
    audience: Audience,
    render: Renderer,
    *,
    by_round: bool = False,
) -> Export:
    """A PDF document, printed on the paper the reader chooses."""
    return Export(
        identifier=identifier,
        verbose_name=verbose_name,
        extension="pdf",
        content_type=PDF,
        audience=audience,
        download_name=f"{identifier}.pdf",
        render=render,
        paged=True,
        by_round=by_round,
    )


EXPORTS: tuple[Export, ...] = (
    _printed("drawsheets", N_("Drawsheets"), Audience.PUBLIC, _drawsheets),
    _printed("pairings", N_("Pairing lists"), Audience.PUBLIC, _pairings, by_round=True),
    _printed("scoresheets", N_("Score sheets"), Audience.STAFF, _scoresheets, by_round=True),
    _printed("standings", N_("Standings"), Audience.PUBLIC, _standings),
    Export(
        identifier="xlsx",
        verbose_name=N_("Workbook"),
        extension="xlsx",
        content_type=XLSX,
        audience=Audience.PUBLIC,
        download_name="workbook.xlsx",
        render=_workbook,
    ),
    Export(
        identifier="csv",
        verbose_name=N_("Tables"),
        extension="csv",
        content_type=CSV,
        audience=Audience.STAFF,
        download_name="tables.zip",
        render=_tables,
        several_files=True,
    ),
    Export(
        identifier="json",
        verbose_name=N_("Event file"),
        extension="json",
        content_type=JSON,
        audience=Audience.MANAGERS,
        download_name="event.json",
        render=_event_file,
    ),
)
"""Every export, in the order the download lists show them."""

PDF_EXPORTS = tuple(export for export in EXPORTS if export.content_type == PDF)
"""The printed documents (``tourney export --pdf KIND FILE``)."""

_BY_IDENTIFIER = {export.identifier: export for export in EXPORTS}
_BY_DOWNLOAD_NAME = {export.download_name: export for export in EXPORTS}


def export_named(identifier: str) -> Export:
    """The export with this identifier.

    Raises:
        ValueError: no export has it (the message lists the identifiers).
    """
    try:
        return _BY_IDENTIFIER[identifier]
    except KeyError:
        known = ", ".join(_BY_IDENTIFIER)
        raise ValueError(f"Unknown export {identifier!r}; use one of {known}.") from None


def export_downloaded_as(download_name: str) -> Export | None:
    """The export whose download address ends in ``download_name``; ``None`` if none."""
    return _BY_DOWNLOAD_NAME.get(download_name)


def exports_offered(*, staff: bool, manager: bool = False) -> tuple[Export, ...]:
    """The exports a reader with these rights on the event may download, in list order."""
    return tuple(e for e in EXPORTS if e.audience.includes(staff=staff, manager=manager))
