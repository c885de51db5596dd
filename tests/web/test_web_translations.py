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

import io
import re
import shutil
import subprocess
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
from openpyxl import load_workbook
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
    r"|-?[€£$]\d[\d.,]*"  # and as the club money writes them: €20.00
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
    # A translation may hold markup (a link in a sentence): its marks close in a later
    # text node, so the page's texts are read as one, a node a line.
    return _english_lines("\n".join(text.replace("\n", " ") for text in parser.texts), data)


def _english_lines(text: str, data: Iterable[str]) -> list[str]:
    """The lines of ``text`` with words outside the pseudo translations' marks that are
    not data either (a mark may close on a later line: a sentence wrapped on paper)."""
    known = sorted(set(data), key=len, reverse=True)
    found = []
    for line in _unmarked(text).split("\n"):
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
    Swiss with its first round published and played (one win bigger than the others, so
    the standings give a tiebreak's reason), pools, a team flight with a round of
    fixtures drawn, a chouette with a game played, a money session with every cube
    option ended at its difference, fees and a side pool in the ledger and a club with a
    season; the director logged in. Returns the event and the ids its pages are opened
    with."""
    built = build_event(
        PLAYERS,
        [
            {"name": "Main", "format": "knockout", "match_length": 5},
            {"name": "Consolation", "format": "knockout", "match_length": 3, "feeds_from": "Main"},
            {
                "name": "Swiss",
                "format": "swiss",
                "match_length": 3,
                "swiss_rounds": 3,
                "tiebreaks": ("net_game_points",),
            },
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
    for number, match_id in enumerate(swiss):
        score = "3-0" if number == 0 else "3-1"
        director.post(
            f"/director/matches/{match_id}/score",
            data={"score": score, "version": _version(director, match_id)},
        )
    money, money_ended = _money_sessions(engine, built, director)
    _club_money(built, director)
    with read_session(engine) as session:
        club_id = session.exec(select(Club.id).where(Club.name == "Fjordside BG")).one()
    return built, {
        "played": played,
        "swiss_match": swiss[0],
        "money": money,
        "money_ended": money_ended,
        "club": club_id or club.id,
    }


def _money_sessions(
    engine: Engine, built: BuiltEvent, director: FlaskClient
) -> tuple[int, int]:
    """A chouette (Ann box, Bob captain, Cid) with one game: Ann wins a single against
    Bob and Cid drops her double; and a money session Dee v Eve with every cube option,
    to a difference of 4, ended there by a gammon under the Jacoby rule (1 unit) and a
    resigned gammon on a cube turned to 2 (4 units)."""
    with read_session(engine) as session:
        rows = session.exec(select(Player.name, Player.id).where(col(Player.name).in_(PLAYERS)))
        ids = {name: player_id for name, player_id in rows.all()}
    stake_mode = stake_mode_choices()[0][0]
    director.post(
        f"/director/events/{built.event_id}/money",
        data={
            "name": "Table 9",
            **{f"seat_{n}": ids[name] for n, name in enumerate(PLAYERS[:3], start=1)},
            "stake_mode": stake_mode,
            "stake": "1.00",
            "currency": "EUR",
        },
    )
    director.post(
        f"/director/events/{built.event_id}/money",
        data={
            "name": "Table 10",
            "seat_1": ids["Dee Falk"],
            "seat_2": ids["Eve Gran"],
            "stake_mode": stake_mode,
            "stake": "0.50",
            "currency": "EUR",
            "jacoby": "y",
            "beavers": "y",
            "raccoons": "y",
            "automatic_doubles": "2",
            "cube_limit": "64",
            "end_difference": "4",
            "time_limit": "600",
        },
    )
    with read_session(engine) as session:
        chouette, session_id = session.exec(
            select(MoneySession.id).order_by(col(MoneySession.id))
        ).all()
    assert chouette is not None and session_id is not None
    bob, cid, eve = ids["Bob Dahl"], ids["Cid Eng"], ids["Eve Gran"]
    entered = director.post(
        f"/director/money/{chouette}/games",
        data={
            "games_before": "0",
            f"winner_{bob}": "box", f"how_{bob}": "single", f"cube_{bob}": "1",
            f"centred_{bob}": "y",
            f"winner_{cid}": "box", f"how_{cid}": "dropped", f"cube_{cid}": "1",
            f"centred_{cid}": "y",
        },
    )
    assert entered.status_code == 302
    for number, (how, cube, centred) in enumerate(
        (("gammon", "1", {f"centred_{eve}": "y"}), ("resigned-gammon", "2", {}))
    ):
        entered = director.post(
            f"/director/money/{session_id}/games",
            data={
                "games_before": str(number),
                f"winner_{eve}": "box", f"how_{eve}": how, f"cube_{eve}": cube, **centred,
            },
        )
        assert entered.status_code == 302
    return chouette, session_id


def _club_money(built: BuiltEvent, director: FlaskClient) -> None:
    """Main's money: a €20.00 entry fee, 10% to the house, paid 70/30, and a side pool
    "Pool A" of €5.00; Ann pays both in cash, Bob the entry fee by transfer."""
    main = built.flights["Main"]
    saved = director.post(
        f"/director/flights/{main}/money",
        data={
            "currency": "EUR",
            "entry_fee": "20",
            "buyback_fee": "0",
            "retention_percent": "10",
            "sponsor": "0",
            "payout_table": "70/30",
            "side_pools": "Pool A, 5, 100",
            "refund_policy": "before_draw",
        },
    )
    assert saved.status_code == 302
    for name, what, method in (
        ("Ann Berg", f"{main}|entry|", "cash"),
        ("Ann Berg", f"{main}|pool|Pool A", "cash"),
        ("Bob Dahl", f"{main}|entry|", "transfer"),
    ):
        taken = director.post(
            f"/director/events/{built.event_id}/ledger/take",
            data={"entry_id": built.entries[name], "what": what, "method": method},
        )
        assert taken.status_code == 302


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
    public.extend(f"/events/{slug}/money/{ids[key]}" for key in ("money", "money_ended"))
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
    director.extend(f"/director/money/{ids[key]}" for key in ("money", "money_ended"))
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
    data = _names(built)
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


def _names(built: BuiltEvent) -> list[str]:
    """What the busy event's pages and documents show as it was typed in: names of
    players, flights, the event, its venue, club, money sessions and side pool."""
    return [
        *PLAYERS,
        *built.flights,
        "Fjord Open",
        "Harbour Hall",
        "Fjordside BG",
        "Table 9",
        "Table 10",
        "Table 11",
        "Pool A",
        built.director.name,
        built.director.email,
        "tourney",
        *(language.native_name for language in LANGUAGES),
    ]


def _pdf_text(content: bytes, tmp_path: Path) -> str:
    tool = shutil.which("pdftotext")
    if tool is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    path = tmp_path / "document.pdf"
    path.write_bytes(content)
    return subprocess.run(
        [tool, "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def _workbook_text(content: bytes) -> str:
    """Every sheet's name and every cell of a workbook, a line each."""
    workbook = load_workbook(io.BytesIO(content))
    lines = list(workbook.sheetnames)
    for sheet in workbook:
        for row in sheet.iter_rows(values_only=True):
            lines.extend(str(value) for value in row if value is not None)
    return "\n".join(lines)


def test_every_word_of_the_money_documents_comes_from_a_catalogue(
    pseudo_app: Flask,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    tmp_path: Path,
) -> None:
    """The settlement sheets (a chouette still going on, a session ended at its
    difference, one without games whose tables print "None."), the payout sheet and the
    ledger with a withdrawn player, printed and as workbooks, in the pseudo language:
    outside the marks only names, amounts, numbers and times are left."""
    director = pseudo_app.test_client()
    director.get(f"/?lang={PSEUDO}")
    built, ids = _busy_event(engine, build_event, director)
    with read_session(engine) as session:
        rows = session.exec(select(Player.name, Player.id).where(col(Player.name).in_(PLAYERS)))
        players = {name: player_id for name, player_id in rows.all()}
    started = director.post(
        f"/director/events/{built.event_id}/money",
        data={
            "name": "Table 11",
            "seat_1": players["Fay Holm"],
            "seat_2": players["Gus Ivar"],
            "stake_mode": stake_mode_choices()[0][0],
            "stake": "2.00",
            "currency": "EUR",
        },
    )
    assert started.status_code == 302
    empty = started.headers["Location"].rsplit("/", 1)[-1]
    withdrawn = director.post(f"/director/entries/{built.entries['Hal Juhl']}/withdraw")
    assert withdrawn.status_code == 302
    event, chouette, ended = built.event_id, ids["money"], ids["money_ended"]
    # A word each document must show in the pseudo language, so that none passes by
    # showing nothing; the payouts count Ann's and Bob's entry fees: 2 x €20.00.
    documents = {
        f"/director/money/{chouette}/settlement.pdf": "⟦Chouette at Fjord Open⟧",
        f"/director/money/{chouette}/settlement.xlsx": "⟦Still playing after 1 game⟧",
        f"/director/money/{ended}/settlement.pdf": "⟦Money session at Fjord Open⟧",
        f"/director/money/{ended}/settlement.xlsx": "⟦gammon⟧, ⟦resigned⟧",
        f"/director/money/{empty}/settlement.pdf": "⟦None.⟧",
        f"/director/money/{empty}/settlement.xlsx": "⟦Still playing after 0 games⟧",
        f"/director/events/{event}/payouts.pdf": "⟦⟦Main prizes⟧: taken €40.00",
        f"/director/events/{event}/ledger.xlsx": "⟦yes⟧",
    }

    untranslated: dict[str, list[str]] = {}
    for path, expected in documents.items():
        response = director.get(path)
        assert response.status_code == 200, path
        text = (
            _pdf_text(response.data, tmp_path)
            if path.endswith(".pdf")
            else _workbook_text(response.data)
        )
        assert expected in text, path
        if leftovers := _english_lines(text, _names(built)):
            untranslated[path] = leftovers
    listed = "\n".join(f"{path}: {texts}" for path, texts in untranslated.items())
    assert untranslated == {}, f"words printed untranslated:\n{listed}"


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
