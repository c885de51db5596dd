"""Every web page in every language: the catalogues are complete, every word of a page
comes from one, and a few translations read as a club in that country writes them.

The catalogues are the ``messages`` domain under ``tourney/translations``: one
``messages.pot`` extracted from the templates and ``tourney/web``, and a ``messages.po``
per language. A page is checked in a pseudo language whose every translation is its English
wrapped in ``⟦ ⟧``: what a page shows outside those marks must be data (names, numbers,
dates, scores). The core catalogue (the rules', formats' and store's words: round, status
and format names, store messages) is made pseudo too, so a core word that a page shows
without translating it is found as well.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from tourney import i18n
from tourney.formats.money import stake_mode_choices
from tourney.store import draws, events
from tourney.store.db import read_session, transaction
from tourney.store.queries import UserView
from tourney.store.tables import Club, Match, MoneySession, Player
from tourney.web.i18n import EXTRA_LANGUAGES_SETTING, LANGUAGES, TRANSLATIONS

if TYPE_CHECKING:
    from conftest import BuiltEvent

REPOSITORY = Path(__file__).resolve().parents[2]
TRANSLATED = [language.code for language in LANGUAGES if language.code != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
PASSWORD = "correct horse battery staple"


def _catalogue(path: Path) -> Catalog:
    with path.open("rb") as source:
        return read_po(source)


def _placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def test_the_template_file_holds_every_word_the_pages_mark() -> None:
    """``messages.pot`` is extracted anew from the sources (``make translations``): a word
    marked in a template or in ``tourney/web`` but missing from it would be shown in
    English in every language."""
    marked = {
        message if isinstance(message, str) else message[0]
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(REPOSITORY),
            method_map=[("tourney/web/**.py", "python"), ("templates/**.html", "jinja2")],
            keywords={
                "_": None,
                "gettext": None,
                "ngettext": (1, 2),
                "lazy_gettext": None,
                "lazy_ngettext": (1, 2),
            },
        )
    }
    extracted = {
        message.id if isinstance(message.id, str) else message.id[0]
        for message in _catalogue(TRANSLATIONS / "messages.pot")
        if message.id
    }
    assert marked - extracted == set()
    assert extracted - marked == set()


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_word_has_a_translation_with_the_same_placeholders(code: str) -> None:
    template = _catalogue(TRANSLATIONS / "messages.pot")
    catalogue = _catalogue(TRANSLATIONS / code / "LC_MESSAGES" / "messages.po")
    problems = []
    for message in template:
        if not message.id:
            continue
        translated = catalogue.get(message.id)
        if translated is None:
            problems.append(f"missing: {message.id!r}")
            continue
        if translated.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        english = message.id if isinstance(message.id, str) else message.id[-1]
        forms = (translated.string,) if isinstance(translated.string, str) else translated.string
        for form in forms:
            if not form or not form.strip():
                problems.append(f"empty: {message.id!r}")
            elif _placeholders(form) != _placeholders(english):
                problems.append(f"placeholders differ: {message.id!r} -> {form!r}")
    stale = {m.id for m in catalogue if m.id} - {m.id for m in template if m.id}
    assert problems == []
    assert stale == set(), "words the pages no longer use"


# --- The pseudo language -------------------------------------------------------------

PSEUDO = "eo"
"""A language the app does not serve, with date and number data in Babel, to carry the
pseudo catalogue."""
OPEN, CLOSE = "⟦", "⟧"
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
CHECKED_ATTRIBUTES = {"title", "aria-label", "alt", "placeholder"}
DATA = re.compile(
    r"https?://\S+"  # addresses
    r"|\b[A-Z]{3} -?\d[\d.,]*"  # amounts of money: EUR 1.00
    r"|\b(?:UTC|PDF|XLSX|CSV|JSON|SVG|TXT|EUR|USD|GBP|CHF|NOK|SEK|DKK|TRY)\b"
    r"|\b\w+(?:\.\w+)+\b"  # stored action and field names: match.final_score
)
DATA_ONLY = re.compile(r"^[\d\s.,:;/–—\-+=%()\[\]#?!·›→←↑↓✓×…|“”\"'«»*_]*$")
"""What may stand outside the marks besides names: numbers, dates, scores, punctuation."""
SKIPPED_CLASSES = {"audit", "changes"}
"""The audit log's lines: the store's sentences about each change, and stored values."""


def _pseudo_catalogue(directory: Path, domain: str = "messages") -> None:
    """Every message of the domain's template (``messages.pot`` or ``core.pot``)
    translated as its English inside ``⟦ ⟧``, compiled for the pseudo language under
    ``directory``."""
    template = _catalogue(TRANSLATIONS / f"{domain}.pot")
    pseudo = Catalog(locale=PSEUDO, domain=domain)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, str):
            pseudo.add(message.id, f"{OPEN}{message.id}{CLOSE}", flags=message.flags)
        else:
            forms = [message.id[0]] + [message.id[1]] * (pseudo.num_plurals - 1)
            pseudo.add(
                message.id, tuple(f"{OPEN}{form}{CLOSE}" for form in forms), flags=message.flags
            )
    target = directory / PSEUDO / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    with (target / f"{domain}.mo").open("wb") as compiled:
        write_mo(compiled, pseudo)


VOID_ELEMENTS = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class _Texts(HTMLParser):
    """A page's text nodes and the attributes read aloud or shown on hover, without its
    scripts and styles."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._open: list[tuple[str, bool]] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = set((dict(attrs).get("class") or "").split())
        skip = tag in ("script", "style") or bool(classes & SKIPPED_CLASSES)
        if tag not in VOID_ELEMENTS:
            self._open.append((tag, skip))
            self._skipping += skip
        if not self._skipping:
            self.texts.extend(v or "" for name, v in attrs if name in CHECKED_ATTRIBUTES)

    def handle_endtag(self, tag: str) -> None:
        while self._open:
            name, skip = self._open.pop()
            self._skipping -= skip
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.texts.append(data)


def _unmarked(text: str) -> str:
    """What of ``text`` stands outside the pseudo translations (marks may nest)."""
    while True:
        stripped = MARKED.sub(" ", text)
        if stripped == text:
            return text
        text = stripped


def _leftovers(page: str, data: Iterable[str]) -> list[str]:
    """The texts of ``page`` that are neither marked as translated nor data: every word
    of the pages' own catalogue and of the core's is marked in the pseudo language, so
    what is left is English that no reader's language would change."""
    parser = _Texts()
    parser.feed(page)
    known = sorted(set(data), key=len, reverse=True)
    # A translation may hold markup (a link in a sentence): its marks close in a later
    # text node, so the page's texts are read as one, a node a line.
    lines = _unmarked("\n".join(text.replace("\n", " ") for text in parser.texts))
    found = []
    for line in lines.split("\n"):
        rest = line
        for word in known:
            rest = rest.replace(word, " ")
        rest = DATA.sub(" ", rest)
        if not DATA_ONLY.match(rest):
            found.append(line.strip())
    return found


@pytest.fixture
def pseudo_app(app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    """The app, also serving the pseudo language from catalogues made for the test: the
    pages' own words and the core's (round, status and format names, store messages), so
    that a core word a page shows without translating it stands out as English."""
    _pseudo_catalogue(tmp_path / "pseudo")
    _pseudo_catalogue(tmp_path / "pseudo", "core")
    with (tmp_path / "pseudo" / PSEUDO / "LC_MESSAGES" / "core.mo").open("rb") as compiled:
        pseudo_core = Translations(compiled, domain="core")
    served_core = i18n.core_catalogue
    monkeypatch.setattr(i18n, "LANGUAGE_CODES", (*i18n.LANGUAGE_CODES, PSEUDO))
    monkeypatch.setattr(
        i18n,
        "core_catalogue",
        lambda code: pseudo_core if code == PSEUDO else served_core(code),
    )
    app.config[EXTRA_LANGUAGES_SETTING] = (PSEUDO,)
    app.extensions["babel"].translation_directories.append(str(tmp_path / "pseudo"))
    return app


def _version(client: FlaskClient, match_id: int) -> str:
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    found = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


PLAYERS = [
    "Ann Berg",
    "Bob Dahl",
    "Cid Eng",
    "Dee Falk",
    "Eve Gran",
    "Fay Holm",
    "Gus Ivar",
    "Hal Juhl",
]


def _busy_event(
    engine: Engine, build_event: Callable[..., BuiltEvent], director: FlaskClient
) -> tuple[BuiltEvent, dict[str, object]]:
    """A public event with a published knockout (one match played, one walkover), a
    Swiss with its first round published and played, pools, a team flight with a round of
    fixtures drawn, a money session and a club with a season; the director logged in.
    Returns the event and the ids its pages are opened with."""
    built = build_event(
        PLAYERS,
        [
            {"name": "Main", "format": "knockout", "match_length": 5},
            {"name": "Consolation", "format": "knockout", "match_length": 3, "feeds_from": "Main"},
            {"name": "Swiss", "format": "swiss", "match_length": 3, "swiss_rounds": 3},
            {"name": "Pools", "format": "roundrobin", "match_length": 1, "pools": 2},
        ],
        is_public=True,
        name="Fjord Open",
        venue_name="Harbour Hall",
    )
    actor = built.director.actor
    with transaction(engine) as session:
        for name, method in (("Main", "seeded"), ("Swiss", "seeded"), ("Pools", "seeded")):
            draws.make_draw(session, actor=actor, flight_id=built.flights[name], method=method)
            draws.publish_draw(session, actor=actor, flight_id=built.flights[name])
        club = events.create_club(session, actor=actor, name="Fjordside BG")
    response = director.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302
    with read_session(engine) as session:
        main = session.exec(
            select(Match.id).where(Match.flight_id == built.flights["Main"]).order_by(Match.id)
        ).all()
        swiss = session.exec(
            select(Match.id).where(Match.flight_id == built.flights["Swiss"]).order_by(Match.id)
        ).all()
    played, walkover = main[0], main[1]
    director.post(
        f"/director/matches/{played}/score",
        data={"score": "5-2", "version": _version(director, played)},
    )
    director.post(
        f"/director/matches/{walkover}/walkover",
        data={"winner": "b", "version": _version(director, walkover)},
    )
    for match_id in swiss:
        director.post(
            f"/director/matches/{match_id}/score",
            data={"score": "3-1", "version": _version(director, match_id)},
        )
    with read_session(engine) as session:
        seats = session.exec(
            select(Player.id).where(col(Player.name).in_(PLAYERS[:3])).order_by(Player.name)
        ).all()
    director.post(
        f"/director/events/{built.event_id}/money",
        data={
            "name": "Table 9",
            "seat_1": seats[0],
            "seat_2": seats[1],
            "seat_3": seats[2],
            "stake_mode": stake_mode_choices()[0][0],
            "stake": "1.00",
            "currency": "EUR",
        },
    )
    with read_session(engine) as session:
        money = session.exec(select(MoneySession.id)).first()
        club_id = session.exec(select(Club.id).where(Club.name == "Fjordside BG")).one()
    return built, {
        "played": played,
        "swiss_match": swiss[0],
        "money": money,
        "club": club_id or club.id,
    }


def _pages(built: BuiltEvent, ids: dict[str, object]) -> tuple[list[str], list[str]]:
    """The public pages and the director's pages of ``built``."""
    slug = "fjord-open"
    flights = built.flights
    ann = built.entries["Ann Berg"]
    public = [
        "/",
        f"/events/{slug}",
        f"/events/{slug}/players",
        f"/events/{slug}/players?q=zz",
        f"/events/{slug}/players/{ann}",
        f"/events/{slug}/players/{ann}/print",
        f"/events/{slug}/prizes",
        f"/events/{slug}/matches/{ids['played']}",
        f"/events/{slug}/matches/{ids['swiss_match']}",
        *(f"/events/{slug}/flights/{flight}" for flight in flights.values()),
        f"/events/{slug}/flights/{flights['Swiss']}/rounds/1",
        f"/events/{slug}/flights/{flights['Swiss']}/standings",
        f"/events/{slug}/flights/{flights['Pools']}/standings",
        "/login",
        "/no-such-page",
    ]
    if ids["money"]:
        public.append(f"/events/{slug}/money/{ids['money']}")
    event = built.event_id
    director = [
        "/director/",
        "/director/players",
        "/director/events/new",
        f"/director/events/{event}",
        f"/director/events/{event}/edit",
        f"/director/events/{event}/entries",
        f"/director/events/{event}/audit",
        f"/director/events/{event}/flights/new",
        f"/director/events/{event}/sharing",
        f"/director/events/{event}/teams",
        f"/director/events/{event}/money",
        f"/director/events/{event}/ledger",
        f"/director/events/{event}/payouts",
        *(f"/director/flights/{flight}" for flight in flights.values()),
        *(f"/director/flights/{flight}/edit" for flight in flights.values()),
        f"/director/flights/{flights['Main']}/money",
        f"/director/matches/{ids['played']}",
        f"/director/matches/{ids['swiss_match']}",
        f"/director/entries/{ann}/withdraw",
        f"/director/clubs/{ids['club']}/ratings",
        f"/director/clubs/{ids['club']}/seasons",
        "/account/tokens",
        "/account/password",
    ]
    if ids["money"]:
        director.append(f"/director/money/{ids['money']}")
    return public, director


def test_every_word_of_every_page_comes_from_a_catalogue(
    pseudo_app: Flask,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., UserView],
) -> None:
    visitor, director = pseudo_app.test_client(), pseudo_app.test_client()
    visitor.get(f"/?lang={PSEUDO}")
    director.get(f"/?lang={PSEUDO}")
    built, ids = _busy_event(engine, build_event, director)
    public, director_pages = _pages(built, ids)
    data = [
        *PLAYERS,
        *built.flights,
        "Fjord Open",
        "Harbour Hall",
        "Fjordside BG",
        "Table 9",
        built.director.name,
        built.director.email,
        "tourney",
        *(language.native_name for language in LANGUAGES),
    ]
    untranslated: dict[str, list[str]] = {}
    for client, paths in ((visitor, public), (director, director_pages)):
        for path in paths:
            response = client.get(path)
            assert response.status_code in (200, 404), path
            assert f'<html lang="{PSEUDO}">' in response.get_data(as_text=True), path
            if leftovers := _leftovers(response.get_data(as_text=True), data):
                untranslated[path] = leftovers
    listed = "\n".join(f"{path}: {texts}" for path, texts in untranslated.items())
    assert untranslated == {}, f"words shown untranslated:\n{listed}"


# --- Translations as a club in each country reads them ------------------------------

SAMPLES = {
    # the find box, the flights heading, a flight's standings link, the event's date (in
    # Russian a narrow no-break space keeps the year and its "г." together)
    "en": ("Find your name", "Flights", ">Standings<", "Thu 6 Mar 2025"),
    "de": ("Finden Sie Ihren Namen", "Klassen", ">Tabelle<", "Do., 6. März 2025"),
    "ru": ("Найдите своё имя", "Турниры", ">Турнирная таблица<", "чт, 6 мар. 2025\u202fг."),
    "el": ("Βρείτε το όνομά σας", "Κατηγορίες", ">Βαθμολογία<", "Πέμ 6 Μαρ 2025"),
    "tr": ("Adınızı bulun", "Kategoriler", ">Puan durumu<", "6 Mar 2025 Per"),
}


@pytest.mark.parametrize("code", sorted(SAMPLES))
def test_the_public_event_page_reads_in_the_language_asked_for(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent], code: str
) -> None:
    built = build_event(
        PLAYERS[:4],
        [{"name": "Swiss", "format": "swiss", "match_length": 3, "swiss_rounds": 2}],
        is_public=True,
        name="Fjord Open",
        starts_on=date(2025, 3, 6),
    )
    with transaction(engine) as session:
        actor = built.director.actor
        draws.make_draw(session, actor=actor, flight_id=built.flights["Swiss"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Swiss"])

    page = client.get(f"/events/fjord-open?lang={code}").get_data(as_text=True)

    assert f'<html lang="{code}">' in page
    for expected in SAMPLES[code]:
        assert expected in page
