"""PDF renderers: drawsheets, pairing lists, match score sheets and standings.

Each renderer takes an :class:`~tourney.store.documents.EventDocument` and returns
:class:`~tourney.exports.Rendered` bytes. Text is set in DejaVu Sans, embedded, so that
every name players really have prints (accents, Nordic letters, Polish, Cyrillic, Greek,
Turkish); where the font is missing the built-in Helvetica is used with a
:class:`FontFallbackWarning`, and such names then print wrongly.

Terminology: a drawsheet *section* is the part of a large draw that fits one page (32
players); the *finals page* carries the rounds after the sections meet. A *slot line* is
the line a player's name is written on; the two slot lines of a match are joined by a
vertical line, from whose middle the winner's slot line in the next round starts.
"""

from __future__ import annotations

import io
import math
import re
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import segno
from PIL import Image
from reportlab.lib import colors
from reportlab.lib.pagesizes import A3, landscape, portrait
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Frame,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from tourney.exports import PDF, Rendered
from tourney.exports.layout import Placed as _Placed
from tourney.exports.layout import layout as _layout
from tourney.exports.registry import PAPERS
from tourney.formats.rounds import parse_round_name
from tourney.i18n import DEFAULT_LANGUAGE, format_day, translate
from tourney.rules import Level
from tourney.rules.match_forms import match_form_named
from tourney.rules.messages import N_, ListMessage, Message, PluralMessage
from tourney.rules.variants import (
    DEFAULT_OPTIONS,
    DEFAULT_VARIANT,
    VariantOptions,
    variant_named,
)
from tourney.store.documents import (
    EventDocument,
    FlightDocument,
    MatchDocument,
    RoundDocument,
    SideDocument,
    StandingRow,
)

FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
    Path("/usr/local/share/fonts"),
)
"""Where DejaVu Sans is looked for (Debian's ``fonts-dejavu-core`` is the first)."""

INK = colors.black
GREY = colors.Color(0.45, 0.45, 0.45)
LIGHT = colors.Color(0.75, 0.75, 0.75)
SHADE = colors.Color(0.93, 0.93, 0.93)
MARGIN = 28.0


class FontFallbackWarning(UserWarning):
    """DejaVu Sans was not found: names outside Latin-1 will not print correctly."""


@dataclass(frozen=True)
class _Fonts:
    regular: str
    bold: str


_fonts: _Fonts | None = None


def fonts() -> _Fonts:
    """The registered regular and bold font names (DejaVu Sans, else Helvetica)."""
    global _fonts
    if _fonts is None:
        for directory in FONT_DIRS:
            regular, bold = directory / "DejaVuSans.ttf", directory / "DejaVuSans-Bold.ttf"
            if regular.is_file() and bold.is_file():
                pdfmetrics.registerFont(TTFont("TourneySans", str(regular)))
                pdfmetrics.registerFont(TTFont("TourneySans-Bold", str(bold)))
                _fonts = _Fonts("TourneySans", "TourneySans-Bold")
                break
        else:
            warnings.warn(
                "DejaVu Sans not found (install Debian's fonts-dejavu-core); PDFs use "
                "Helvetica and names outside Latin-1 will not print correctly.",
                FontFallbackWarning,
                stacklevel=2,
            )
            _fonts = _Fonts("Helvetica", "Helvetica-Bold")
    return _fonts


def _width(text: str, font: str, size: float) -> float:
    return float(pdfmetrics.stringWidth(text, font, size))


def fit_text(
    text: str, font: str, size: float, width: float, *, smallest: float = 0.0
) -> tuple[str, float]:
    """The text and font size that fit ``width``: shrink down to ``smallest``, then cut with "…"."""
    if width <= 0:
        return "", size
    w = _width(text, font, size)
    if w <= width:
        return text, size
    if smallest and smallest < size:
        shrunk = max(smallest, size * width / w)
        if _width(text, font, shrunk) <= width:
            return text, shrunk
        size = smallest
    while text and _width(text + "…", font, size) > width:
        text = text[:-1]
    return (text.rstrip() + "…") if text else "", size


def _canvas(
    buffer: io.BytesIO, pagesize: tuple[float, float], doc: EventDocument, title: str
) -> Canvas:
    # invariant=1: no creation date or random id, so the same document gives the same bytes.
    c = Canvas(buffer, pagesize=pagesize, invariant=1, pageCompression=1)
    c.setTitle(f"{doc.name} — {title}")
    c.setAuthor("tourney")
    c.setSubject(title)
    return c


def draw_qr(c: Canvas, url: str, x: float, y: float, size: float) -> None:
    """Draw a QR code of ``url``, lower-left corner at (x, y), ``size`` points square.

    The code is embedded as a tiny one-pixel-per-module image scaled up (PDF viewers do
    not smooth images unless asked), far cheaper than hundreds of vector squares. The
    mask is fixed: searching the best one costs more than the whole sheet, and any mask
    gives a valid code.
    """
    qr = segno.make(url, error="m", mask=0, boost_error=False)
    border = 2
    rows = [bytes(0 if dark else 255 for dark in row) for row in qr.matrix]
    n = len(rows) + 2 * border
    blank = bytes([255]) * n
    pixels = (
        blank * border
        + b"".join(bytes([255]) * border + row + bytes([255]) * border for row in rows)
        + blank * border
    )
    image = Image.frombytes("L", (n, n), pixels)
    c.drawImage(ImageReader(image), x, y, size, size)


def _stem(doc: EventDocument, kind: str) -> str:
    return f"{doc.slug}-{kind}"


def _date_text(doc: EventDocument, language: str = DEFAULT_LANGUAGE) -> str:
    """The event's date (as ``language`` writes dates) and venue."""
    parts = [format_day(doc.starts_on, language) if doc.starts_on else "", doc.venue]
    return " · ".join(p for p in parts if p)


# --- drawsheets ----------------------------------------------------------------------

MATCHES_PER_PAGE = 16
"""First-round matches per drawsheet page: 32 players."""
POSTER_MATCHES_PER_PAGE = 32
"""On an A3 poster: 64 players a page."""


@dataclass
class _DrawPage:
    flight: FlightDocument
    matches: list[MatchDocument]
    label: str
    """``""`` for a one-page flight, else ``Section A`` / ``Finals``."""
    section: int
    """Section number, or -1 for the finals page."""
    number: int = 0


def _sections(flight: FlightDocument, per_page: int) -> list[_DrawPage]:
    """Split a flight into pages: one page if its first round fits, else sections + finals."""
    all_matches = [m for r in flight.rounds for m in r.matches]
    first = len(flight.rounds[0].matches) if flight.rounds else 0
    if first <= per_page:
        return [_DrawPage(flight, all_matches, "", 0)]
    count = math.ceil(first / per_page)
    section: dict[str, int] = {}
    for rnd in flight.rounds:
        for m in rnd.matches:
            inside = [section[f] for f in m.feeders if f is not None and f in section]
            if inside:
                s = inside[0] if all(x == inside[0] for x in inside) else -1
            else:
                s = (m.number - 1) * count // max(len(rnd.matches), 1)
            section[m.key] = s
    pages = [
        _DrawPage(
            flight,
            [m for m in all_matches if section[m.key] == s],
            Message("Section %(letter)s", letter=chr(65 + s)),
            s,
        )
        for s in range(count)
    ]
    finals = [m for m in all_matches if section[m.key] == -1]
    if finals:
        pages.append(_DrawPage(flight, finals, N_("Finals"), -1))
    return pages


class _Painter:
    """Text in the document's language on a canvas, measured from the page's top edge."""

    def __init__(
        self,
        c: Canvas,
        doc: EventDocument,
        pagesize: tuple[float, float],
        language: str = DEFAULT_LANGUAGE,
    ) -> None:
        self.c = c
        self.doc = doc
        self.w, self.h = pagesize
        self.f = fonts()
        self.language = language

    def tr(self, text: str) -> str:
        """``text`` (a message or a registry name) in the sheet's language."""
        return translate(text, self.language)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        size: float,
        *,
        bold: bool = False,
        color: Any = INK,
        align: str = "left",
    ) -> None:
        """Write ``s`` with its baseline ``y`` below the top, aligned on ``x``."""
        self.c.setFillColor(color)
        self.c.setFont(self.f.bold if bold else self.f.regular, size)
        draw: Callable[[float, float, str], Any] = {
            "left": self.c.drawString,
            "right": self.c.drawRightString,
            "center": self.c.drawCentredString,
        }[align]
        draw(x, self.h - y, s)


class _DrawsheetPainter(_Painter):
    """Draws drawsheet pages on a canvas."""

    def line(
        self, x1: float, y1: float, x2: float, y2: float, *, color: Any = INK, width: float = 0.7
    ) -> None:
        self.c.setStrokeColor(color)
        self.c.setLineWidth(width)
        self.c.line(x1, self.h - y1, x2, self.h - y2)

    def header(self, page: _DrawPage, total: int, section_pages: dict[int, int]) -> float:
        """Title block; returns the y where the bracket area starts."""
        flight = page.flight
        title = self.tr(Message("%(flight)s — drawsheet", flight=flight.name))
        if page.label:
            title += f" — {self.tr(page.label)}"
        self.text(
            MARGIN,
            MARGIN + 12,
            fit_text(self.doc.name, self.f.bold, 15, self.w / 2)[0],
            15,
            bold=True,
        )
        self.text(
            self.w - MARGIN,
            MARGIN + 12,
            _date_text(self.doc, self.language),
            9,
            color=GREY,
            align="right",
        )
        self.text(MARGIN, MARGIN + 28, title, 11, bold=True)
        notes = []
        if flight.fed_from:
            notes.append(self.tr(flight.fed_from) + ".")
        if page.section >= 0 and page.label:
            finals = section_pages.get(-1)
            if finals:
                notes.append(self.tr(Message(
                    "The winner of this section continues on page %(page)s.", page=finals
                )))
        elif page.section == -1:
            refs = ", ".join(
                f"{chr(65 + s)} p. {p}" for s, p in sorted(section_pages.items()) if s >= 0
            )
            notes.append(self.tr(Message("Continued from the sections: %(refs)s.", refs=refs)))
        if not flight.drawn:
            notes.append(self.tr(Message("Drawn once the matches that feed it are decided.")))
        if notes:
            self.text(
                MARGIN,
                MARGIN + 40,
                fit_text(" ".join(notes), self.f.regular, 8, self.w - 2 * MARGIN)[0],
                8,
                color=GREY,
            )
        self.text(MARGIN, self.h - MARGIN + 14, self.doc.url or self.doc.slug, 7, color=GREY)
        self.text(
            self.w - MARGIN,
            self.h - MARGIN + 14,
            self.tr(Message("Page %(page)s of %(total)s", page=page.number, total=total)),
            7,
            color=GREY,
            align="right",
        )
        return MARGIN + 50

    def page(self, page: _DrawPage, total: int, section_pages: dict[int, int]) -> None:
        top = self.header(page, total, section_pages)
        if not page.matches:
            self.text(MARGIN, top + 20, self.tr(Message("Not drawn yet.")), 11, color=GREY)
            return
        head_h = 36.0
        area_top = top + head_h
        area_h = self.h - MARGIN - 8 - area_top
        rounds = sorted({m.round for m in page.matches})
        by_number = {r.number: r for r in page.flight.rounds}
        gutter = 16.0
        columns = len(rounds) + 1
        col_w = min((self.w - 2 * MARGIN - gutter) / columns, 190.0)
        x_start = MARGIN + gutter
        placed, spacing = _layout(page.matches, area_h, 46.0)
        size = max(6.0, min(8.5, spacing * 0.56))
        # Column heads: round name, match length, where losers go.
        for i, r in enumerate(rounds):
            rnd = by_number[r]
            x = x_start + i * col_w + 2
            title = self.tr(parse_round_name(rnd.name))
            self.text(x, top + 8, fit_text(title, self.f.bold, 9, col_w - 4)[0], 9, bold=True)
            self.text(x, top + 17, self.tr(_length_text(rnd)), 7, color=GREY)
            if rnd.losers_to:
                self.text(
                    x,
                    top + 25,
                    fit_text(
                        self.tr(Message("losers → %(flight)s", flight=rnd.losers_to)),
                        self.f.regular,
                        7,
                        col_w - 4,
                    )[0],
                    7,
                    color=GREY,
                )
        last_round = page.flight.rounds[-1].number if page.flight.rounds else 0
        is_end = last_round in rounds
        xl = x_start + len(rounds) * col_w + 2
        column_head = Message("Winner") if is_end else Message("Continues")
        self.text(xl, top + 8, self.tr(column_head), 9, bold=True)
        if not is_end and section_pages.get(-1):
            on_page = Message("on page %(page)s", page=section_pages[-1])
            self.text(xl, top + 17, self.tr(on_page), 7, color=GREY)
        page_keys = {m.key for m in page.matches}
        for p in placed:
            self.match(p, area_top, x_start + p.column * col_w, col_w, size, page_keys)
        # The winner's line after the last column on this page.
        for p in placed:
            if p.column == len(rounds) - 1 and not any(
                p.match.key in (q.match.feeders or ()) for q in placed
            ):
                x0 = x_start + len(rounds) * col_w
                y = area_top + p.out
                self.line(x0, y, x0 + col_w * 0.92, y, width=1.1 if is_end else 0.7)
                name = p.match.winner_name if p.match.status != "bye" or is_end else None
                if p.match.status in ("finished", "walkover") or (p.match.status == "bye"):
                    name = p.match.winner_name
                if name:
                    s, fs = fit_text(
                        name, self.f.bold, size + (1 if is_end else 0), col_w * 0.92 - 4, smallest=6
                    )
                    self.text(x0 + 3, y - 2.2, s, fs, bold=True)

    def match(
        self,
        p: _Placed,
        area_top: float,
        x0: float,
        col_w: float,
        size: float,
        page_keys: set[str],
    ) -> None:
        m = p.match
        x1 = x0 + col_w
        ya, yb = area_top + p.ya, area_top + p.yb
        void = m.status == "void"
        ink = LIGHT if void else INK
        self.line(x0, ya, x1, ya, color=ink)
        self.line(x0, yb, x1, yb, color=ink)
        self.line(x1, ya, x1, yb, color=ink)
        if p.column == 0 or not any(f in page_keys for f in m.feeders if f):
            self.text(x0 - 3, (ya + yb) / 2 + 2, str(m.number), 5.5, color=GREY, align="right")
        score_w = _width("88", self.f.bold, size) + 4
        for which, side, y in (("a", m.a, ya), ("b", m.b, yb)):
            won = m.winner == which and m.status in ("finished", "walkover")
            text, color, bold = _side_text(side, self.tr)
            if not text:
                continue
            small = color is GREY
            fs0 = size - 1.2 if small else size
            s, fs = fit_text(
                text,
                self.f.bold if won else self.f.regular,
                fs0,
                col_w - score_w - 6,
                smallest=max(6.0, fs0 - 1.5),
            )
            self.text(x0 + 3, y - 2.2, s, fs, bold=won or bold, color=color)
            if m.status == "walkover" and won:
                self.text(x1 - 3, y - 2.2, "w/o", size - 1, color=GREY, align="right")
            elif m.score is not None and m.status == "finished":
                value = m.score[0] if which == "a" else m.score[1]
                self.text(x1 - 3, y - 2.2, str(value), size, bold=won, align="right")


def _length_text(rnd: RoundDocument) -> str:
    return PluralMessage("%(count)s point", "%(count)s points", rnd.length)


def _side_text(side: SideDocument, tr: Callable[[str], str]) -> tuple[str, Any, bool]:
    """What is written on a slot line: the name (with seed), where the side comes from
    while that is open ("Winner of R2 M1", on whichever page that match is), or "bye";
    ``tr`` puts the last two into the sheet's language."""
    if side.name is not None:
        prefix = f"[{side.mark}] " if side.mark else ""
        return prefix + side.name, INK, False
    if side.note:
        return tr(side.note), GREY, False
    return "", INK, False


def render_drawsheets_pdf(
    doc: EventDocument,
    *,
    paper: str = "a4",
    poster: bool = False,
    language: str = DEFAULT_LANGUAGE,
) -> Rendered:
    """Drawsheets of every knockout flight: 32 players a page (64 on an A3 ``poster``),
    headings in ``language``.

    Flights follow each other in event order (main, consolation, last chance); a larger
    draw is split into sections with a finals page, each marked where it continues.
    """
    pagesize = landscape(A3 if poster else PAPERS[paper].size)
    per_page = POSTER_MATCHES_PER_PAGE if poster else MATCHES_PER_PAGE
    pages: list[_DrawPage] = []
    section_pages: dict[tuple[str, int], int] = {}
    for flight in doc.flights:
        if not flight.is_bracket:
            continue
        for page in _sections(flight, per_page):
            page.number = len(pages) + 1
            section_pages[(flight.name, page.section)] = page.number
            pages.append(page)
    buffer = io.BytesIO()
    c = _canvas(buffer, pagesize, doc, translate(N_("Drawsheets"), language))
    painter = _DrawsheetPainter(c, doc, pagesize, language)
    if not pages:
        nothing = Message("%(event)s: no knockout flight.", event=doc.name)
        painter.text(MARGIN, MARGIN + 20, painter.tr(nothing), 12)
        c.showPage()
    for page in pages:
        own = {
            s: n
            for (name, s), n in section_pages.items()
            if name == page.flight.name and page.label
        }
        painter.page(page, len(pages), own)
        c.showPage()
    c.save()
    return Rendered(buffer.getvalue(), _stem(doc, "drawsheets"), "pdf", PDF)


# --- tables (pairings and standings) -------------------------------------------------


def paragraph_styles() -> dict[str, ParagraphStyle]:
    """The paragraph styles of the printed tables: ``h1``, ``h2``, ``note`` and ``cell``."""
    f = fonts()
    return {
        "h1": ParagraphStyle("h1", fontName=f.bold, fontSize=14, leading=17, spaceAfter=2),
        "h2": ParagraphStyle(
            "h2", fontName=f.bold, fontSize=11.5, leading=14, spaceBefore=6, spaceAfter=3
        ),
        "note": ParagraphStyle(
            "note", fontName=f.regular, fontSize=8, leading=10, textColor=GREY, spaceAfter=5
        ),
        "cell": ParagraphStyle("cell", fontName=f.regular, fontSize=9, leading=11),
    }


def table_flowable(
    rows: list[list[Any]],
    widths: Sequence[float],
    *,
    align_right: Iterable[int] = (),
    bold_col: int | None = None,
) -> Table:
    """A table of the printed documents: a bold header row repeated on each page, thin
    rules, every other row shaded; ``align_right`` columns right-aligned."""
    f = fonts()
    style = [
        ("FONT", (0, 0), (-1, 0), f.bold, 8.5),
        ("FONT", (0, 1), (-1, -1), f.regular, 9),
        ("TEXTCOLOR", (0, 0), (-1, 0), GREY),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, LIGHT),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]
    for col in align_right:
        style.append(("ALIGN", (col, 0), (col, -1), "RIGHT"))
    if bold_col is not None:
        style.append(("FONT", (bold_col, 1), (bold_col, -1), f.bold, 9))
    for i in range(2, len(rows), 2):
        style.append(("BACKGROUND", (0, i), (-1, i), SHADE))
    table = Table(rows, colWidths=list(widths), repeatRows=1)
    table.setStyle(TableStyle(style))
    return table


def cut_to_width(text: str, width: float, *, bold: bool = False, size: float = 9) -> str:
    """``text`` shortened (with an ellipsis) to fit a table cell ``width`` points wide."""
    f = fonts()
    return fit_text(text, f.bold if bold else f.regular, size, width - 6)[0]


def _build(
    doc: EventDocument,
    pagesize: tuple[float, float],
    story: list[Any],
    title: str,
    *,
    qr: bool,
    language: str = DEFAULT_LANGUAGE,
) -> bytes:
    """Lay out a story with a running header (event, title, QR code) and page numbers."""
    buffer = io.BytesIO()
    f = fonts()
    w, h = pagesize
    qr_size = 54.0 if qr and doc.url else 0.0
    head = 40.0 + (qr_size - 26 if qr_size else 0)

    def on_page(c: Canvas, template: Any) -> None:
        c.saveState()
        c.setFont(f.bold, 13)
        c.drawString(
            MARGIN,
            h - MARGIN - 12,
            fit_text(doc.name, f.bold, 13, w - 2 * MARGIN - qr_size - 10)[0],
        )
        c.setFont(f.regular, 8.5)
        c.setFillColor(GREY)
        heading = " · ".join(p for p in (title, _date_text(doc, language)) if p)
        c.drawString(MARGIN, h - MARGIN - 25, heading)
        if qr_size and doc.url:
            draw_qr(c, doc.url, w - MARGIN - qr_size, h - MARGIN - qr_size + 4, qr_size)
            c.setFont(f.regular, 6)
            c.drawRightString(w - MARGIN - qr_size - 4, h - MARGIN - 36, doc.url)
        c.setFont(f.regular, 7)
        c.drawString(MARGIN, MARGIN - 12, doc.url or doc.slug)
        page = Message("Page %(page)s", page=c.getPageNumber())
        c.drawRightString(w - MARGIN, MARGIN - 12, translate(page, language))
        c.restoreState()

    template = BaseDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + head,
        bottomMargin=MARGIN,
        title=f"{doc.name} — {title}",
        author="tourney",
        invariant=1,
    )
    frame = Frame(
        MARGIN,
        MARGIN,
        w - 2 * MARGIN,
        h - 2 * MARGIN - head,
        id="body",
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    template.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=on_page)])
    if not story:
        nothing = translate(Message("Nothing to print yet."), language)
        story = [Paragraph(nothing, paragraph_styles()["cell"])]
    template.build(story)
    return buffer.getvalue()


def escape_markup(text: str) -> str:
    """``text`` safe inside a reportlab paragraph's markup."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _name(side: SideDocument) -> str:
    if side.name is None:
        return side.note or "—"
    return f"{side.name} [{side.mark}]" if side.mark else side.name


def _result(m: MatchDocument) -> str:
    if m.status == "walkover":
        return "walkover"
    if m.score is not None and m.status == "finished":
        return f"{m.score[0]}–{m.score[1]}"
    return ""


def _pairing_rounds(
    doc: EventDocument, flight: str | None, round_number: int | None
) -> list[tuple[FlightDocument, RoundDocument]]:
    out = []
    for f in doc.flights:
        if flight is not None and f.name != flight:
            continue
        for r in f.rounds:
            if round_number is not None and r.number != round_number:
                continue
            if any(m.is_playable or m.is_bye for m in r.matches):
                out.append((f, r))
    return out


def render_pairings_pdf(
    doc: EventDocument,
    *,
    paper: str = "a4",
    flight: str | None = None,
    round_number: int | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> Rendered:
    """Pairing lists per round: by table, then alphabetically ("find your name"), in
    ``language``.

    Every page carries a QR code to the event's public page. By default every round of
    every flight with known pairings is printed.
    """
    pagesize = portrait(PAPERS[paper].size)
    width = pagesize[0] - 2 * MARGIN
    st = paragraph_styles()
    story: list[Any] = []

    def tr(text: str) -> str:
        return translate(text, language)

    for f, r in _pairing_rounds(doc, flight, round_number):
        if story:
            story.append(PageBreak())
        round_name = escape_markup(tr(parse_round_name(r.name)))
        heading = tr(Message(
            "%(flight)s — %(round)s — pairings by table",
            flight=escape_markup(f.name), round=round_name,
        ))
        story.append(Paragraph(heading, st["h1"]))
        lengths = tr(Message("Matches to %(length)s.", length=_length_text(r)))
        if r.losers_to:
            lengths += " " + tr(Message(
                "Losers go to %(flight)s.", flight=escape_markup(r.losers_to)
            ))
        story.append(Paragraph(lengths, st["note"]))
        wt, wr = 40.0, 56.0
        wn = (width - wt - wr) / 2
        rows: list[list[Any]] = [
            [tr(N_("Table")), tr(N_("Player")), tr(N_("Opponent")), tr(N_("Result"))]
        ]
        played = sorted(
            (m for m in r.matches if m.is_playable), key=lambda m: (_table_key(m.table), m.number)
        )
        for m in played:
            rows.append(
                [m.table, cut_to_width(_name(m.a), wn), cut_to_width(_name(m.b), wn), _result(m)]
            )
        byes = [m for m in r.matches if m.is_bye]
        for m in byes:
            rows.append(["", cut_to_width(_name(m.a), wn), tr(N_("bye")), ""])
        story.append(table_flowable(rows, [wt, wn, wn, wr], align_right=(0, 3)))
        story.append(PageBreak())
        story.append(Paragraph(tr(Message(
            "%(flight)s — %(round)s — find your name",
            flight=escape_markup(f.name), round=round_name,
        )), st["h1"]))
        alphabetical = Message("Alphabetical. Matches to %(length)s.", length=_length_text(r))
        story.append(Paragraph(tr(alphabetical), st["note"]))
        entries: list[tuple[str, str, str]] = []
        for m in played:
            entries.append((_name(m.a), m.table, _name(m.b)))
            entries.append((_name(m.b), m.table, _name(m.a)))
        for m in byes:
            entries.append((_name(m.a), "", tr(N_("bye"))))
        entries.sort(key=lambda e: (e[0].casefold(), e[1]))
        wn2 = (width - wt) / 2
        alpha: list[list[Any]] = [[tr(N_("Player")), tr(N_("Table")), tr(N_("Opponent"))]]
        alpha.extend(
            [cut_to_width(n, wn2, bold=True), t, cut_to_width(o, wn2)] for n, t, o in entries
        )
        story.append(table_flowable(alpha, [wn2, wt, wn2], align_right=(1,), bold_col=0))
    data = _build(
        doc, pagesize, story, tr(N_("Pairings")), qr=True, language=language
    )
    return Rendered(data, _stem(doc, "pairings"), "pdf", PDF)


def _table_key(table: str) -> tuple[int, str]:
    return (int(table), "") if table.isdigit() else (10**9, table)


HEADING_SIZE = 8.5
"""Font size of table headings (bold); cells are set at 9."""

CELL_PADDING = 6.0
"""reportlab's space either side of a table cell's text."""

PLACE_WIDTH = 38.0
"""The standings' place column ("=13")."""

METRIC_WIDTH = 52.0
"""The narrowest a standings metric column is where the page has room."""

METRIC_PADDING = 4.0
"""Space either side of a metric column's text, a little less than other cells'."""

NAME_ROOM = 120.0
"""What the player column keeps, at least, before metric headings go on one line each."""

NOTE_ROOM = 72.0
"""The narrowest the last column ("Why ahead", "Went out in") is made; its text wraps."""

_HEADING_PIECE = re.compile(r"\S{2,}?-(?=\S{2})|\S+")
"""A heading's unbreakable pieces: words, and hyphenated words split after each hyphen
that joins two words (``Sonneborn-`` ``Berger``, but ``S-B`` whole)."""


def _widest(texts: Iterable[str], font: str, size: float) -> float:
    return max((_width(text, font, size) for text in texts), default=0.0)


def _wrap_heading(label: str, width: float) -> str:
    """``label`` broken into lines no wider than ``width`` (where a piece fits at all), at
    spaces and after hyphens: ``Sonneborn-`` over ``Berger``."""
    bold = fonts().bold
    lines: list[str] = []
    for piece in _HEADING_PIECE.findall(label):
        if lines:
            joined = lines[-1] + ("" if lines[-1].endswith("-") else " ") + piece
            if _width(joined, bold, HEADING_SIZE) <= width:
                lines[-1] = joined
                continue
        lines.append(piece)
    return "\n".join(lines)


def _metric_widths(
    labels: Sequence[str], columns: Sequence[Sequence[str]], room: float
) -> list[float]:
    """Widths of the metric columns within ``room``: each as wide as its longest word or
    value, then widened to put whole headings on one line, those that need least first.

    The longest tiebreak chains (median Buchholz, Buchholz minus worst, Sonneborn-Berger
    and net game points after wins and head-to-head) do not fit one line each on A4.
    """
    f = fonts()
    values = [_widest(column, f.regular, 9) for column in columns]
    widths = [
        max(_widest(_HEADING_PIECE.findall(label), f.bold, HEADING_SIZE), value)
        + 2 * METRIC_PADDING
        for label, value in zip(labels, values, strict=True)
    ]
    whole = [
        max(METRIC_WIDTH, _width(label, f.bold, HEADING_SIZE) + 2 * METRIC_PADDING, narrow)
        for label, narrow in zip(labels, widths, strict=True)
    ]
    spare = room - sum(widths)
    for column in sorted(range(len(widths)), key=lambda c: whole[c] - widths[c]):
        if whole[column] - widths[column] <= spare:
            spare -= whole[column] - widths[column]
            widths[column] = whole[column]
    return widths


def _standings_columns(
    flight: FlightDocument, width: float, language: str = DEFAULT_LANGUAGE
) -> tuple[list[str], list[float]]:
    """The standings table's heading cells (wrapped onto lines) and column widths."""
    labels = [translate(label, language) for label in flight.metric_labels]
    last = translate(N_("Went out in") if flight.is_bracket else N_("Why ahead"), language)
    name_needs = _widest((row.name for row in flight.standings), fonts().regular, 9)
    name_needs += 2 * CELL_PADDING
    values = [[str(row.metrics[i][1]) for row in flight.standings] for i in range(len(labels))]
    room = width - PLACE_WIDTH - min(name_needs, NAME_ROOM) - NOTE_ROOM
    metric_widths = _metric_widths(labels, values, room)
    rest = width - PLACE_WIDTH - sum(metric_widths)
    # The player column takes what its names need; the notes the rest, up to a cap.
    note_width = max(NOTE_ROOM, min(92.0 if flight.is_bracket else 150.0, rest - name_needs))
    widths = [PLACE_WIDTH, rest - note_width, *metric_widths, note_width]
    paddings = [CELL_PADDING, CELL_PADDING, *([METRIC_PADDING] * len(labels)), CELL_PADDING]
    headings = [translate(N_("Place"), language), translate(N_("Player"), language), *labels, last]
    cells = [
        _wrap_heading(heading, column - 2 * padding)
        for heading, column, padding in zip(headings, widths, paddings, strict=True)
    ]
    return cells, widths


def _standings_flowable(
    f: FlightDocument,
    standings: Sequence[StandingRow],
    headings: list[str],
    widths: list[float],
    note_style: ParagraphStyle,
) -> Any:
    """One standings table of a flight (the whole flight's, or one division's)."""
    metrics = len(f.metric_labels)
    rows: list[list[Any]] = [headings]
    for row in standings:
        note = row.note or ("" if f.is_bracket else (row.reason or ""))
        rows.append(
            [
                row.display_rank,
                cut_to_width(row.name, widths[1]),
                *(v for _, v in row.metrics),
                Paragraph(escape_markup(note), note_style),
            ]
        )
    table = table_flowable(rows, widths, align_right=range(2, 2 + metrics))
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
                ("LEFTPADDING", (2, 0), (1 + metrics, -1), METRIC_PADDING),
                ("RIGHTPADDING", (2, 0), (1 + metrics, -1), METRIC_PADDING),
            ]
        )
    )
    return table


def render_standings_pdf(
    doc: EventDocument, *, paper: str = "a4", language: str = DEFAULT_LANGUAGE
) -> Rendered:
    """Standings of every flight: place (``=3`` when shared), wins, tiebreak columns;
    headings in ``language``.

    Column headings wrap onto several lines rather than run into each other, and the
    last column's notes wrap rather than being cut.
    """
    pagesize = portrait(PAPERS[paper].size)
    width = pagesize[0] - 2 * MARGIN
    st = paragraph_styles()
    note_style = ParagraphStyle(
        "standing-note", parent=st["cell"], fontSize=8, leading=9.5, textColor=GREY
    )
    story: list[Any] = []
    for f in doc.flights:
        if not f.standings:
            continue
        story.append(CondPageBreak(120))
        final = f.champion is not None or (not f.is_bracket and f.rounds)
        kind = N_("final standings") if final else N_("standings")
        story.append(
            Paragraph(
                f"{escape_markup(f.name)} — {translate(kind, language)}",
                st["h1"],
            )
        )
        if f.champion:
            winner = Message("Winner: %(name)s", name=escape_markup(f.champion))
            story.append(Paragraph(translate(winner, language), st["note"]))
        headings, widths = _standings_columns(f, width, language)
        story.append(_standings_flowable(f, f.standings, headings, widths, note_style))
        story.append(Spacer(1, 8))
        for division in f.division_standings:
            story.append(CondPageBreak(80))
            title = Message("Division %(division)s", division=escape_markup(division.name))
            story.append(Paragraph(translate(title, language), st["h2"]))
            story.append(
                _standings_flowable(f, division.standings, headings, widths, note_style)
            )
            story.append(Spacer(1, 8))
        shared = translate(Message("“=” marks a shared place."), language)
        story.append(Paragraph(shared, st["note"]))
    data = _build(
        doc, pagesize, story, translate(N_("Standings"), language), qr=False, language=language
    )
    return Rendered(data, _stem(doc, "standings"), "pdf", PDF)


# --- score sheets --------------------------------------------------------------------

HALF_PAGE_ROWS = 17
"""Game rows that fit a half-page score sheet; longer matches get a whole page."""


def _house_rules_note(variant: str, options: VariantOptions) -> str:
    """The event's options for its variant as one line of a score sheet; empty: none."""
    phrases = variant_named(variant).option_phrases(options)
    return Message("House rules: %(rules)s.", rules=ListMessage(phrases)) if phrases else ""


def _rows_needed(m: MatchDocument) -> int:
    # A match to N lasts at most 2N-1 games (every game worth one point); overshoot and
    # cubes only shorten it. Keep the sheet within reason for very long matches.
    return max(min(2 * m.length - 1, 45), len(m.games), 1)


class _SheetPainter(_Painter):
    """Draws score sheets on a canvas."""

    def line(
        self, x1: float, y1: float, x2: float, y2: float, width: float = 0.6, color: Any = INK
    ) -> None:
        self.c.setStrokeColor(color)
        self.c.setLineWidth(width)
        self.c.line(x1, self.h - y1, x2, self.h - y2)

    def sheet(self, m: MatchDocument, top: float, height: float) -> None:
        """One score sheet in the band ``top`` .. ``top + height``."""
        x0, x1 = MARGIN, self.w - MARGIN
        w = x1 - x0
        qr = 62.0 if m.url else 0.0
        y = top + 14
        self.text(x0, y, fit_text(self.doc.name, self.f.bold, 13, w - qr - 10)[0], 13, bold=True)
        y += 15
        where = [m.flight, self.tr(parse_round_name(m.round_name))]
        if m.table:
            where.append(self.tr(Message("Table %(table)s", table=m.table)))
        where.append(self.tr(Message("Match %(number)s", number=m.number)))
        self.text(x0, y, " · ".join(where), 9.5)
        y += 14
        form = match_form_named(self.doc.match_form)
        heading = self.tr(
            PluralMessage("Match to %(count)s point", "Match to %(count)s points", m.length)
        )
        if form.counts_games:
            heading = self.tr(
                Message("Match: %(length)s, each game counts 1", length=form.length_words(m.length))
            )
        if not form.is_single:
            heading += f" · {self.tr(form.title)}"
        elif self.doc.variant != DEFAULT_VARIANT.name:
            summary = self.doc.variant_summary if self.language == DEFAULT_LANGUAGE else ""
            heading += f" · {summary or self.tr(variant_named(self.doc.variant).title)}"
        self.text(x0, y, heading, 11, bold=True)
        if m.clock_text:
            # The clock settings beside the length, where players look before they start.
            self.text(
                x0 + self.c.stringWidth(heading, self.f.bold, 11) + 12, y, m.clock_text, 9.5
            )
        if m.url:
            draw_qr(self.c, m.url, x1 - qr, self.h - (top + 4 + qr), qr)
            self.text(
                x1 - qr / 2, top + qr + 11, self.tr(N_("match page")), 6, color=GREY,
                align="center",
            )
        y += 18
        name_w = w - qr - 40
        for (label, side), start in zip((("A", m.a), ("B", m.b)), m.start, strict=True):
            self.text(x0, y, label, 10, bold=True)
            s, fs = fit_text(_name(side), self.f.bold, 11, name_w, smallest=8)
            self.text(x0 + 16, y, s, fs, bold=True)
            if m.has_handicap:
                # Handicap start: each side's starting points beside its name.
                self.text(x0 + 16 + name_w, y, self.tr(Message("starts at %(score)s", score=start)),
                          9, bold=True, align="right")
            y += 15
        y += 1
        crawford = self.tr(
            _doubling_note(self.doc.variant, m.length, self.doc.variant_options)
        )
        if not form.is_single:
            crawford = self.tr(Message(
                "%(form)s. Each game scores by its own variant's rules.",
                form=Message(form.description),
            ))
        if form.counts_games:
            crawford = self.tr(Message("Every game counts 1: no doubling cube, no gammons."))
        self.text(x0, y, fit_text(crawford, self.f.regular, 8, w)[0], 8, color=GREY)
        house = _house_rules_note(self.doc.variant, self.doc.variant_options)
        if house and self.doc.variant == DEFAULT_VARIANT.name:
            # Backgammon's house rules (other variants name their options in the heading).
            y += 10
            self.text(x0, y, fit_text(self.tr(house), self.f.regular, 8, w)[0], 8, color=GREY)
        y += 6
        # The games grid.
        # A match of several variants names each game's variant beside its number (the
        # "how it ended" heading uses its first game's words).
        first_variant = form.variant_of_game(1, self.doc.variant)
        cols: list[tuple[str, float]] = [
            (self.tr(N_("Game")), 34 if form.is_single else 74),
            (self.tr(N_("Cube")), 36),
            ("C", 20),
            (self.tr(N_("Winner A / B")), 70),
            (self.tr(_ended_heading(first_variant, self.doc.variant_options)), 0),
            (self.tr(N_("Points")), 40),
            (self.tr(N_("Score A")), 46),
            (self.tr(N_("Score B")), 46),
        ]
        fixed = sum(cw for _, cw in cols)
        cols[4] = (cols[4][0], w - fixed)
        rows = _rows_needed(m)
        sig_h = 34.0
        row_h = min(15.0, (top + height - sig_h - (y + 14)) / rows)
        xs = [x0]
        for _, cw in cols:
            xs.append(xs[-1] + cw)
        head_y = y + 12
        for (label, cw), x in zip(cols, xs, strict=False):
            s = fit_text(label, self.f.bold, 7, cw - 4)[0]
            self.text(x + cw / 2, head_y - 3, s, 7, bold=True, color=GREY, align="center")
        self.line(x0, head_y, x1, head_y, width=0.9)
        games = {g.number: g for g in m.games}
        fsz = min(9.0, row_h * 0.62)
        for i in range(rows):
            ry = head_y + (i + 1) * row_h
            self.line(x0, ry, x1, ry, width=0.3, color=LIGHT if i + 1 < rows else INK)
            ty = ry - row_h / 2 + fsz * 0.35
            game_variant = form.variant_of_game(i + 1, self.doc.variant)
            number = str(i + 1)
            if not form.is_single:
                number += f" {self.tr(variant_named(game_variant).title)}"
            self.text(xs[0] + cols[0][1] / 2, ty, number, fsz, color=GREY, align="center")
            g = games.get(i + 1)
            if g is None:
                continue
            how = self.tr(g.end)
            if g.level is not None:
                how += f" · {self.tr(_level_word(game_variant, g.level))}"
            values = [
                None,
                str(g.cube),
                "C" if g.crawford else "",
                "—" if g.winner is None else g.winner.upper(),
                how,
                str(g.points),
                str(g.score_after[0]),
                str(g.score_after[1]),
            ]
            for col, value in enumerate(values):
                if value:
                    self.text(
                        xs[col] + cols[col][1] / 2,
                        ty,
                        value,
                        fsz,
                        align="center",
                        bold=col in (6, 7),
                    )
        bottom = head_y + rows * row_h
        for x in xs:
            self.line(x, head_y - 10, x, bottom, width=0.3, color=LIGHT)
        sy = bottom + sig_h - 6
        half = w / 2
        for k, label in enumerate(
            (
                self.tr(Message("Signature A: %(name)s", name=m.a.name or "")),
                self.tr(Message("Signature B: %(name)s", name=m.b.name or "")),
            )
        ):
            xa = x0 + k * half
            self.line(xa, sy, xa + half - 16, sy, width=0.6)
            self.text(xa, sy + 8, fit_text(label, self.f.regular, 7, half - 16)[0], 7, color=GREY)
        if m.status == "finished" and m.score is not None:
            result = self.tr(Message(
                "Result: %(score)s, won by %(winner)s",
                score=f"{m.score[0]}–{m.score[1]}", winner=m.winner_name,
            ))
            self.text(x0, sy - 14, fit_text(result, self.f.bold, 8, w)[0], 8, bold=True)


def _level_word(variant: str, level: str) -> str:
    """A stored level (``gammon``) in the variant's words (``mars`` in long nardy)."""
    member = Level.__members__.get(level.upper())
    return level if member is None else variant_named(variant).level_names[member]


def _ended_heading(variant: str, options: VariantOptions = DEFAULT_OPTIONS) -> str:
    """The heading of a score sheet's "how it ended" column, in the variant's words and
    with only the ends and levels the event's options allow."""
    chosen = variant_named(variant)
    ends = [N_("played")]
    if chosen.uses_cube(options):
        ends.append(N_("dropped"))
    ends.append(N_("resigned"))
    if chosen.can_draw(options):
        ends.append(N_("drawn"))
    words = [
        Message("bg") if word == "backgammon" else Message(word)
        for word in (chosen.level_names[level] for level in chosen.levels(options))
    ]
    return Message(
        "Ended (%(ends)s · %(levels)s)",
        ends=ListMessage(tuple(Message(end) for end in ends)),
        levels=ListMessage(tuple(words)),
    )


def _doubling_note(variant: str, length: int, options: VariantOptions = DEFAULT_OPTIONS) -> str:
    """The score sheet's line on the cube: Crawford, or why there is no doubling."""
    chosen = variant_named(variant)
    if length == 1:
        return Message("1-point match: no doubling.")
    if not chosen.uses_cube(options):
        points = ListMessage(tuple(
            Message(
                "%(level)s %(points)s",
                level=Message(chosen.level_names[level]),
                points=chosen.level_points(level, options),
            )
            for level in chosen.levels(options)
        ))
        return Message(
            "%(variant)s without the doubling cube: every game at 1 (%(points)s).",
            variant=Message(chosen.title), points=points,
        )
    if not chosen.uses_crawford(options):
        return Message("No Crawford rule: the cube may be used in every game.")
    return Message(
        "Crawford rule: no doubling in the first game after a player reaches %(score)s "
        "(N−1); tick C on that game. Later games: the cube is free again.",
        score=length - 1,
    )


def render_scoresheets_pdf(
    doc: EventDocument,
    *,
    paper: str = "a4",
    per_page: int = 2,
    flight: str | None = None,
    round_number: int | None = None,
    language: str = DEFAULT_LANGUAGE,
) -> Rendered:
    """Match score sheets, ``per_page`` (1 or 2) a page, for every match with two players,
    in ``language``.

    A played match's sheet is filled with its games; a match still to play gets empty
    rows, as many as the longest possible match (2N-1 games).
    """
    pagesize = portrait(PAPERS[paper].size)
    buffer = io.BytesIO()
    c = _canvas(buffer, pagesize, doc, translate(N_("Score sheets"), language))
    painter = _SheetPainter(c, doc, pagesize, language)
    w, h = pagesize
    band = (h - 2 * MARGIN) / 2
    used = 0
    pages = 0
    matches = [
        m for f, r in _pairing_rounds(doc, flight, round_number) for m in r.matches if m.is_playable
    ]
    for m in matches:
        half = per_page == 2 and _rows_needed(m) <= HALF_PAGE_ROWS
        if used and (not half or used == 2):
            c.showPage()
            used = 0
        if used == 0:
            pages += 1
            painter.text(
                w - MARGIN,
                h - MARGIN / 2,
                painter.tr(Message("Page %(page)s", page=pages)),
                6.5,
                color=GREY,
                align="right",
            )
        if half:
            if used == 1:
                # Cut line between the two sheets.
                c.setDash(3, 3)
                painter.line(
                    MARGIN / 2, MARGIN + band, w - MARGIN / 2, MARGIN + band, width=0.4, color=LIGHT
                )
                c.setDash()
            painter.sheet(m, MARGIN + used * band + (8 if used else 0), band - 8)
            used += 1
        else:
            painter.sheet(m, MARGIN, h - 2 * MARGIN)
            used = 2
    if not matches:
        nothing = Message("%(event)s: no match to play yet.", event=doc.name)
        painter.text(MARGIN, MARGIN + 20, painter.tr(nothing), 12)
    c.showPage()
    c.save()
    return Rendered(buffer.getvalue(), _stem(doc, "scoresheets"), "pdf", PDF)
