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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

import flask_wtf.i18n
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
from werkzeug.exceptions import HTTPException
from werkzeug.test import TestResponse
from wtforms.i18n import messages_path as wtforms_messages_path

from tourney import i18n
from tourney.formats.money import stake_mode_choices
from tourney.store import analyses, draws, events, registration, results, roster, selfservice
from tourney.store.audit import Actor
from tourney.store.db import read_session, transaction
from tourney.store.queries import UserView
from tourney.store.selfservice_tables import Registration, ResultReport
from tourney.store.tables import (
    Entry,
    Event,
    Fixture,
    FlightEntry,
    Match,
    MoneySession,
    Player,
    Season,
)
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
            # pybabel's own keywords (N_ among them) and the lazy ones `make translations`
            # adds.
            keywords={
                "_": None,
                "gettext": None,
                "ngettext": (1, 2),
                "N_": None,
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
    r"|-?[€£$₺₽]\d[\d.,]*"  # and as the club money writes them: €20.00
    r"|\b(?:UTC|PDF|XLSX|CSV|JSON|SVG|TXT|EUR|USD|GBP|CHF|NOK|SEK|DKK|TRY)\b"
    r"|\b\w+(?:\.\w+)+\b"  # stored action and field names: match.final_score
)
DATA_ONLY = re.compile(r"^[\d½\s.,:;/–—\-+=%()\[\]#?!·›→←↑↓✓×…|“”\"'«»*_]*$")
"""What may stand outside the marks besides names: numbers, dates, scores, punctuation."""
SKIPPED_CLASSES = {"audit", "changes", "diagram", "as-sent"}
"""The audit log's lines (the store's sentences about each change, and stored values);
positions drawn in text as gnubg draws them, to be read beside gnubg; and the outbox's
mails as they went out (a subject in its reader's language, a mail server's error)."""


def _pseudo_catalogue(
    directory: Path, domain: str = "messages", template_path: Path | None = None
) -> None:
    """Every message of the domain's template (``messages.pot`` or ``core.pot``, or the
    one at ``template_path``) translated as its English inside ``⟦ ⟧``, compiled for the
    pseudo language under ``directory``."""
    template = _catalogue(template_path or TRANSLATIONS / f"{domain}.pot")
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
    # A name stands as a whole word: "NO" (a country) is no part of "NOK".
    known = [
        re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
        for word in sorted(set(data), key=len, reverse=True)
    ]
    found = []
    for line in _unmarked(text).split("\n"):
        rest = line
        for word in known:
            rest = word.sub(" ", rest)
        rest = DATA.sub(" ", rest)
        if not DATA_ONLY.match(rest):
            found.append(line.strip())
    return found


@pytest.fixture
def pseudo_app(app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    """The app, also serving the pseudo language from catalogues made for the test: the
    pages' own words, the core's (round, status and format names, store messages) and
    WTForms' own (a form's "This field is required."), so that a word a page shows
    without translating it stands out as English."""
    _pseudo_catalogue(tmp_path / "pseudo")
    _pseudo_catalogue(tmp_path / "pseudo", "core")
    _pseudo_catalogue(
        tmp_path / "wtforms", "wtforms", Path(wtforms_messages_path()) / "wtforms.pot"
    )
    monkeypatch.setattr(flask_wtf.i18n, "messages_path", lambda: str(tmp_path / "wtforms"))
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
FLIGHTS = ("Hoved", "Trøst", "Sveits", "Pulje", "Lag")
TEAMS = {"Ravn": ("Ivo Kant", "Jon Lund"), "Ulv": ("Kai Moe", "Lia Nes")}
REGISTRANTS = {"Zed Zane": "zed@example.org", "Yan Ytre": "yan@example.org"}
DIVISIONS = ("Fjell", "Strand")
RECORD = REPOSITORY / "tests" / "data" / "web" / "gnubg_L03_s1037.mat"
RECORD_PLAYERS = ("GnubgA", "GnubgB")
"""The names the match record gives its players (its analysis names them so)."""
IMPORTED = (
    "name,country,rating,email\n"
    "Nils Spare,NO,1500,nils@example.org\n"
    ",SE,,\n"
    "Ann Berg,,,\n"
    "Ola Dobbel,NOR,høy,ola-at-example\n"
    "Ola Dobbel,NOR,,\n"
).encode()
"""A players' file to preview: one good row, and rows with each kind of problem."""
NAMES = [
    *PLAYERS,
    *FLIGHTS,
    *TEAMS,
    *(member for members in TEAMS.values() for member in members),
    *REGISTRANTS,
    *REGISTRANTS.values(),
    *DIVISIONS,
    *RECORD_PLAYERS,
    "Fjord Open",
    "Vinterspill",
    "Harbour Hall",
    "Fjordside BG",
    "Bord 9",
    "Bord 10",
    "Bord 11",
    "Pott A",
    "Velkommen",
    "Vinter",
    "Nils Spare",  # and the rest of the players' file
    "Ola Dobbel",
    "Per Dobbel",
    "Ingen Her",
    "nils@example.org",
    "ola-at-example",
    "NO",
    "SE",
    "NOR",
    "høy",
    "tourney",
    *(language.native_name for language in LANGUAGES),
]
"""What the pages and documents show as it was typed in: the names of the players,
flights, events, venue, club, money sessions, side pool and the rest the walk enters."""


class _Recording(FlaskClient):
    """A test client that keeps every page it is answered: the walk's pages, and the
    pages on the way (a form's preview or refusal, a message after a change)."""

    pages: list[tuple[str, str]]

    def open(self, *args: Any, **kwargs: Any) -> TestResponse:
        response = super().open(*args, **kwargs)
        if response.mimetype == "text/html" and response.status_code != 302:
            request = response.request
            self.pages.append(
                (f"{request.method} {request.full_path.rstrip('?')}", response.get_data(True))
            )
        return response


@dataclass(frozen=True)
class _Clients:
    """Who opens the pages: a visitor; a player on their phone, who opened their own link
    (the venue's check-in page knows them); the event's director; an admin."""

    visitor: FlaskClient
    player: FlaskClient
    director: FlaskClient
    admin: FlaskClient

    def by_role(self) -> dict[str, FlaskClient]:
        return {
            "visitor": self.visitor,
            "player": self.player,
            "director": self.director,
            "admin": self.admin,
        }


def _match_ids(engine: Engine, flight_id: int) -> list[int]:
    with read_session(engine) as session:
        return list(
            session.exec(
                select(Match.id).where(Match.flight_id == flight_id).order_by(col(Match.id))
            ).all()
        )


def _sides(engine: Engine, match_id: int) -> tuple[int, int]:
    """The entries (of the event) playing a match, side a first."""
    with read_session(engine) as session:
        match = session.get(Match, match_id)
        assert match is not None
        return tuple(  # type: ignore[return-value]
            session.exec(select(FlightEntry.entry_id).where(FlightEntry.id == side)).one()
            for side in (match.entry_a_id, match.entry_b_id)
        )


def _link(engine: Engine, app: Flask, entry_id: int) -> str:
    """The path of a player's own link."""
    maker = selfservice.LinkMaker(app.config["SECRET_KEY"], "http://localhost/")
    with read_session(engine) as session:
        url = selfservice.link_for_entry(session, maker, entry_id)
    return url.removeprefix("http://localhost")


def _play(engine: Engine, built: BuiltEvent, director: FlaskClient) -> dict[str, Any]:
    """Results, a record with its analysis and a clock: one knockout match played, one
    walkover, one started with a game entered; the Swiss' first round played (one match
    from a record whose player names the director matches up, then analysed; one win
    bigger than the others, so the standings give a tiebreak's reason), its second
    paired as a draft."""
    flights = built.flights
    played, walkover, clocked, disputed = _match_ids(engine, flights["Hoved"])[:4]
    swiss = _match_ids(engine, flights["Sveits"])
    director.post(
        f"/director/matches/{played}/score",
        data={"score": "5-2", "version": _version(director, played)},
    )
    director.post(
        f"/director/matches/{walkover}/walkover",
        data={"winner": "b", "version": _version(director, walkover)},
    )
    recorded = swiss[0]
    upload = f"/director/matches/{recorded}/upload"
    refused = director.post(
        upload,
        data={
            "version": _version(director, recorded),
            "record": (io.BytesIO(RECORD.read_bytes()), RECORD.name),
        },
        content_type="multipart/form-data",
    ).get_data(as_text=True)
    signed = re.search(r'name="record" type="hidden" value="([^"]+)"', refused)
    assert signed is not None
    response = director.post(
        f"{upload}/players",
        data={
            "version": _version(director, recorded),
            "record": signed.group(1),
            "first_player_side": "a",
        },
    )
    assert response.status_code == 302
    for number, match_id in enumerate(swiss[1:]):
        score = "3-0" if number == 0 else "3-1"
        director.post(
            f"/director/matches/{match_id}/score",
            data={"score": score, "version": _version(director, match_id)},
        )
    director.post(f"/director/flights/{flights['Sveits']}/pair-next", data={})
    director.post(f"/director/matches/{recorded}/analyse", data={})
    assert analyses.run_next_job(engine) is not None
    director.post(
        f"/director/matches/{clocked}/start", data={"version": _version(director, clocked)}
    )
    director.post(
        f"/director/matches/{clocked}/games",
        data={
            "winner": "a",
            "end": "played",
            "cube": "2",
            "level": "gammon",
            "version": _version(director, clocked),
        },
    )
    return {
        "played": played,
        "walkover": walkover,
        "clocked": clocked,
        "disputed": disputed,
        "swiss_match": swiss[1],
        "recorded": recorded,
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
            "name": "Bord 9",
            **{f"seat_{n}": ids[name] for n, name in enumerate(PLAYERS[:3], start=1)},
            "stake_mode": stake_mode,
            "stake": "1.00",
            "currency": "EUR",
        },
    )
    director.post(
        f"/director/events/{built.event_id}/money",
        data={
            "name": "Bord 10",
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
    """Hoved's money: a €20.00 entry fee, 10% to the house, paid 70/30, and a side pool
    "Pott A" of €5.00; Ann pays both in cash, Bob the entry fee by transfer."""
    main = built.flights["Hoved"]
    saved = director.post(
        f"/director/flights/{main}/money",
        data={
            "currency": "EUR",
            "entry_fee": "20",
            "buyback_fee": "0",
            "retention_percent": "10",
            "sponsor": "0",
            "payout_table": "70/30",
            "side_pools": "Pott A, 5, 100",
            "refund_policy": "before_draw",
        },
    )
    assert saved.status_code == 302
    for name, what, method in (
        ("Ann Berg", f"{main}|entry|", "cash"),
        ("Ann Berg", f"{main}|pool|Pott A", "cash"),
        ("Bob Dahl", f"{main}|entry|", "transfer"),
    ):
        taken = director.post(
            f"/director/events/{built.event_id}/ledger/take",
            data={"entry_id": built.entries[name], "what": what, "method": method},
        )
        assert taken.status_code == 302


def _arrange(built: BuiltEvent, director: FlaskClient, ids: dict[str, Any]) -> None:
    """The director's settings: two divisions, the venue screen, two teams with a round
    of fixtures, the club's players' pages shown and a season."""
    event, flights, club = built.event_id, ids["flights"], ids["club"]
    director.post(
        f"/director/events/{event}/divisions",
        data={"divisions": "\n".join(DIVISIONS), "draw_scoring": "nothing"},
    )
    director.post(
        f"/director/events/{event}/divisions/players",
        data={f"entry-{entry}": DIVISIONS[n % 2] for n, entry in enumerate(built.entries.values())},
    )
    director.post(
        f"/director/events/{event}/divisions/flights/{flights['Pulje']}",
        data={"division": "", "handicap": "1", "division_standings": "y"},
    )
    director.post(
        f"/director/events/{event}/screen",
        data={
            "panels": ["pairings", "bracket", "standings", "clock", "announcement"],
            "rotation_seconds": "15",
            "announcement": "Velkommen",
            "clock_minutes": "30",
        },
    )
    for name, members in TEAMS.items():
        director.post(
            f"/director/events/{event}/teams",
            data={"name": name, "members": "\n".join(members)},
        )
    director.post(f"/director/flights/{flights['Lag']}/fixtures/draw", data={"seed": "3"})
    director.post(
        f"/director/clubs/{club}/ratings/options",
        data={"provisional_below": "0", "public_profiles": "y"},
    )
    director.post(
        f"/director/clubs/{club}/seasons",
        data={
            "name": "Vinter",
            "event_ids": str(event),
            "scoring": "place",
            "points_table": "10, 6, 4, 2",
        },
    )


def _serve_themselves(
    engine: Engine,
    app: Flask,
    built: BuiltEvent,
    clients: _Clients,
    ids: dict[str, Any],
) -> None:
    """Players' own links, and online registration: a pools result reported from one
    player's link for the other (the player, on their phone, checked in) to confirm; a
    knockout result disputed; the first round's deadline passed; registration open with
    approval, one sign-up confirmed and one not."""
    event = built.event_id
    pools_match = _match_ids(engine, ids["flights"]["Pulje"])[0]
    reporter, player = _sides(engine, pools_match)
    reporter_link, player_link = _link(engine, app, reporter), _link(engine, app, player)
    clients.visitor.post(
        f"{reporter_link}/matches/{pools_match}/report",
        data={"my_score": "1", "their_score": "0"},
    )
    clients.player.get(player_link)
    clients.player.post(f"{player_link}/check-in")
    claimant, disputer = (_link(engine, app, e) for e in _sides(engine, ids["disputed"]))
    clients.visitor.post(
        f"{claimant}/matches/{ids['disputed']}/report",
        data={"my_score": "5", "their_score": "0"},
    )
    with read_session(engine) as session:
        disputed_report = session.exec(
            select(ResultReport.id).where(ResultReport.match_id == ids["disputed"])
        ).one()
        first_round = session.exec(
            select(Match.round_id).where(Match.id == ids["disputed"])
        ).one()
    clients.visitor.post(
        f"{disputer}/reports/{disputed_report}/dispute",
        data={"my_score": "5", "their_score": "1"},
    )
    clients.director.post(
        f"/director/rounds/{first_round}/deadline", data={"deadline": "2020-01-01T20:00"}
    )
    with transaction(engine) as session:
        registration.set_registration(
            session,
            actor=built.director.actor,
            event_id=event,
            is_open=True,
            capacity=20,
            needs_approval=True,
            closes_at=None,
        )
    for name, email in REGISTRANTS.items():
        clients.visitor.post(
            "/events/fjord-open/register", data={"name": name, "club": "", "email": email}
        )
    maker = selfservice.LinkMaker(app.config["SECRET_KEY"], "http://localhost/")
    with read_session(engine) as session:
        signed_up = {
            row.name: maker.registration_token(row.id or 0)
            for row in session.exec(select(Registration))
        }
        awaiting = session.exec(
            select(Registration.id).where(Registration.name == "Zed Zane")
        ).one()
    confirm = f"/events/fjord-open/register/confirm/{signed_up['Zed Zane']}"
    clients.visitor.post(confirm)
    with read_session(engine) as session:
        pools_report = session.exec(
            select(ResultReport.id).where(ResultReport.match_id == pools_match)
        ).one()
    ids.update(
        player_link=player_link,
        disputer_link=disputer,
        pools_match=pools_match,
        pools_report=pools_report,
        disputed_report=disputed_report,
        unconfirmed=signed_up["Yan Ytre"],
        awaiting_approval=awaiting,
    )


def _finished_event(engine: Engine, actor: Actor, director: FlaskClient) -> dict[str, Any]:
    """A second event of the director's, Vinterspill: a final of two played and the
    event finished, its registration left open (the sign-up page says it is over)."""
    with transaction(engine) as session:
        event = events.create_event(
            session, actor=actor, fields=events.EventFields(name="Vinterspill", is_public=True)
        ).id
        flight = events.add_flight(
            session,
            actor=actor,
            event_id=event,
            fields=events.FlightFields(name="Hoved", format="knockout", match_length=3),
        ).id
        players = session.exec(
            select(Player.id).where(col(Player.name).in_(PLAYERS[:2])).order_by(Player.name)
        ).all()
        for seed, player in enumerate(players, start=1):
            roster.enter_player(session, actor=actor, event_id=event, player_id=player, seed=seed)
        draws.make_draw(session, actor=actor, flight_id=flight, method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=flight)
        results.record_final_score(
            session, actor=actor, match_id=board.rounds[0].matches[0].id, score_a=3, score_b=1
        )
        registration.set_registration(
            session,
            actor=actor,
            event_id=event,
            is_open=True,
            capacity=None,
            needs_approval=False,
            closes_at=None,
        )
    assert director.post(f"/director/events/{event}/finish").status_code == 302
    return {"finished_event": event, "finished_flight": flight}


def _settle(clients: _Clients, ids: dict[str, Any]) -> None:
    """After the walk, what ends the open questions, each followed by the page that
    says how it ended: the player confirms the pools result, the director decides the
    dispute for the reporter and approves the sign-up waiting for approval."""
    player, disputer, event = ids["player_link"], ids["disputer_link"], ids["event"]
    clients.player.post(f"{player}/reports/{ids['pools_report']}/confirm")
    clients.player.get(player)
    clients.director.post(
        f"/director/reports/{ids['disputed_report']}/decide", data={"decision": "report"}
    )
    clients.director.get(f"/director/events/{event}/self-service")
    clients.visitor.get(disputer)
    with_approval = ids["awaiting_approval"]
    clients.director.post(
        f"/director/registrations/{with_approval}/decide", data={"decision": "approve"}
    )
    clients.director.get(f"/director/events/{event}/registration")


def _refusals(clients: _Clients, ids: dict[str, Any]) -> None:
    """Forms sent wrong, each answered by its page with what to correct: a wrong
    password, forms left empty or filled with what their fields do not take, a score
    the rules refuse, a pasted list of names naming nobody, someone entered already and
    two players of one name, a sign-up and a player's report without what they need."""
    event, flights = ids["event"], ids["flights"]
    clients.visitor.post("/login", data={"email": "nobody@example.org", "password": "x"})
    for path, data in (
        ("/director/events/new", {"name": ""}),
        (f"/director/events/{event}/edit", {"name": "", "slug": "Not a slug!"}),
        (
            f"/director/events/{event}/flights/new",
            {"name": "", "format": "knockout", "match_length": "0", "swiss_rounds": "x"},
        ),
        (f"/director/flights/{flights['Hoved']}/edit", {"name": "", "match_length": "x"}),
        ("/director/players", {"name": "", "country": "Norway", "rating": "x", "email": "x"}),
        (f"/director/players/{ids['ann_player']}/edit", {"name": "", "country": "N"}),
        (f"/director/events/{event}/teams", {"name": "", "members": ""}),
        (f"/director/events/{event}/money", {"name": "", "stake": "x"}),
        (
            f"/director/flights/{flights['Hoved']}/money",
            {"entry_fee": "x", "payout_table": "70/50"},
        ),
        (f"/director/clubs/{ids['club']}/seasons", {"name": "", "points_table": "x"}),
        (f"/director/events/{event}/screen", {"panels": [], "rotation_seconds": "1"}),
        (
            f"/director/matches/{ids['clocked']}/score",
            {"score": "9-9", "version": _version(clients.director, ids["clocked"])},
        ),
        ("/account/password", {"current_password": "x", "password": "y", "confirm": "z"}),
        ("/account/tokens", {"name": ""}),
    ):
        clients.director.post(path, data=data)
    for country in ("NO", "SE"):
        clients.director.post(
            "/director/players", data={"name": "Per Dobbel", "country": country, "add_as_new": "y"}
        )
    clients.director.post(
        f"/director/events/{event}/entries/paste",
        data={"names": "Ingen Her\nAnn Berg\nPer Dobbel"},
    )
    clients.admin.post("/director/users", data={"name": "", "email": "x", "password": "y"})
    clients.visitor.post(
        "/events/fjord-open/register", data={"name": "", "club": "", "email": "x"}
    )
    clients.player.post(
        f"{ids['player_link']}/matches/{ids['pools_match']}/report",
        data={"my_score": "x", "their_score": ""},
    )


def _fjord_open(
    engine: Engine, build_event: Callable[..., BuiltEvent], director: FlaskClient
) -> BuiltEvent:
    """Fjord Open, a public event of a club: a knockout of eight with a consolation fed
    from it, a Swiss (its tiebreak net game points) and pools, each drawn and published
    but the consolation, and a team flight of two boards; its director logged in."""
    built = build_event(
        PLAYERS,
        [
            {"name": "Hoved", "format": "knockout", "match_length": 5},
            {"name": "Trøst", "format": "knockout", "match_length": 3, "feeds_from": "Hoved"},
            {
                "name": "Sveits",
                "format": "swiss",
                "match_length": 3,
                "swiss_rounds": 3,
                "tiebreaks": ("net_game_points",),
            },
            {"name": "Pulje", "format": "roundrobin", "match_length": 1, "pools": 2},
        ],
        is_public=True,
        name="Fjord Open",
        venue_name="Harbour Hall",
    )
    actor = built.director.actor
    with transaction(engine) as session:
        for name in ("Hoved", "Sveits", "Pulje"):
            draws.make_draw(session, actor=actor, flight_id=built.flights[name], method="seeded")
            draws.publish_draw(session, actor=actor, flight_id=built.flights[name])
        built.flights["Lag"] = events.add_flight(
            session,
            actor=actor,
            event_id=built.event_id,
            fields=events.FlightFields(name="Lag", format="roundrobin", match_length=1, boards=2),
        ).id
        club = events.create_club(session, actor=actor, name="Fjordside BG")
        event = session.get(Event, built.event_id)
        assert event is not None
        event.club_id = club.id
    response = director.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302
    return built


def _busy_event(
    engine: Engine,
    app: Flask,
    build_event: Callable[..., BuiltEvent],
    clients: _Clients,
    admin: UserView,
) -> dict[str, Any]:
    """Fjord Open (``_fjord_open``) with every kind of page filled: knockout matches
    played, by walkover, started and disputed, a Swiss round played (one match from an
    analysed record) and the next paired as a draft, pools in two divisions, a round of
    fixtures, a chouette and a money session ended at its difference, fees and a side
    pool in the ledger, the venue screen, players' links, online registration, the
    club's ratings and a season; a finished second event; a players' file previewed;
    forms sent wrong; an admin logged in too.

    Returns the ids the pages are opened with."""
    built = _fjord_open(engine, build_event, clients.director)
    response = clients.admin.post("/login", data={"email": admin.email, "password": PASSWORD})
    assert response.status_code == 302
    with read_session(engine) as session:
        club = session.exec(select(Event.club_id).where(Event.id == built.event_id)).one()
    ids: dict[str, Any] = {
        "event": built.event_id,
        "flights": built.flights,
        "entries": built.entries,
        "club": club,
        "director": built.director,
    }
    ids.update(_play(engine, built, clients.director))
    ids["money"], ids["money_ended"] = _money_sessions(engine, built, clients.director)
    _club_money(built, clients.director)
    _arrange(built, clients.director, ids)
    _serve_themselves(engine, app, built, clients, ids)
    ids.update(_finished_event(engine, built.director.actor, clients.director))
    clients.director.post(
        "/director/players/import",
        data={"file": (io.BytesIO(IMPORTED), "players.csv")},
        content_type="multipart/form-data",
    )
    with read_session(engine) as session:
        ids["ann_player"] = session.exec(
            select(Entry.player_id).where(Entry.id == built.entries["Ann Berg"])
        ).one()
        ids["season"] = session.exec(select(Season.id)).one()
        ids["fixture"] = session.exec(select(Fixture.id).order_by(col(Fixture.id))).first()
    _refusals(clients, ids)
    return ids


NEWCOMER_PAGES = ["/setup"]
"""What the first visitor of a new installation sees, before any account exists."""
STATUSES = {
    ("visitor", "/no-such-page"): 404,
    ("director", "/director/users"): 403,
}
"""The pages the walk opens that answer with an error page (others answer 200)."""


def _pages(ids: Mapping[str, Any]) -> dict[str, list[str]]:
    """The pages of the busy event (see ``_busy_event``) each of the walk's users opens."""
    slug = "fjord-open"
    flights: dict[str, int] = ids["flights"]
    event, club = ids["event"], ids["club"]
    ann = ids["entries"]["Ann Berg"]
    player_link = ids["player_link"]
    matches = [
        ids[name]
        for name in ("played", "walkover", "clocked", "disputed", "recorded", "swiss_match")
    ]
    finished = ids["finished_event"]
    visitor = [
        "/",
        "/login",
        "/no-such-page",
        f"/events/{slug}",
        f"/events/{slug}/players",
        f"/events/{slug}/players?q=zz",
        f"/events/{slug}/players/{ann}",
        f"/events/{slug}/players/{ann}/print",
        f"/events/{slug}/prizes",
        f"/events/{slug}/performance",
        f"/events/{slug}/screen",
        *(f"/events/{slug}/money/{ids[key]}" for key in ("money", "money_ended")),
        f"/events/{slug}/check-in",
        f"/events/{slug}/register",
        f"/events/{slug}/register/confirm/{ids['unconfirmed']}",
        *(f"/events/{slug}/matches/{match}" for match in matches),
        *(f"/events/{slug}/flights/{flight}" for flight in flights.values()),
        f"/events/{slug}/flights/{flights['Sveits']}/rounds/1",
        f"/events/{slug}/flights/{flights['Sveits']}/standings",
        f"/events/{slug}/flights/{flights['Pulje']}/standings",
        f"/events/{slug}/flights/{flights['Lag']}/fixtures",
        f"/events/{slug}/fixtures/{ids['fixture']}",
        f"/clubs/fjordside-bg/players/{ids['ann_player']}",
        "/events/vinterspill",
        f"/events/vinterspill/flights/{ids['finished_flight']}",
        "/events/vinterspill/register",
    ]
    player = [
        player_link,
        f"{player_link}/matches/{ids['pools_match']}/report",
        f"/events/{slug}/check-in",
    ]
    director = [
        "/director/",
        "/director/players",
        f"/director/players/{ids['ann_player']}/edit",
        "/director/events/new",
        "/director/users",
        f"/director/events/{event}",
        f"/director/events/{finished}",
        f"/director/events/{event}/edit",
        f"/director/events/{event}/entries",
        f"/director/events/{event}/audit",
        f"/director/events/{event}/flights/new",
        f"/director/events/{event}/divisions",
        f"/director/events/{event}/sharing",
        f"/director/events/{event}/teams",
        f"/director/events/{event}/timetable",
        f"/director/events/{event}/screen",
        f"/director/events/{event}/performance",
        f"/director/events/{event}/self-service",
        f"/director/events/{event}/self-service/check-ins",
        f"/director/events/{event}/check-in-poster",
        f"/director/events/{event}/outbox",
        f"/director/events/{event}/registration",
        f"/director/events/{event}/money",
        f"/director/events/{event}/ledger",
        f"/director/events/{event}/payouts",
        *(f"/director/flights/{flight}" for flight in flights.values()),
        *(f"/director/flights/{flight}/edit" for flight in flights.values()),
        f"/director/flights/{flights['Hoved']}/money",
        f"/director/flights/{flights['Lag']}/fixtures",
        f"/director/fixtures/{ids['fixture']}",
        *(f"/director/matches/{match}" for match in matches),
        *(f"/director/money/{ids[key]}" for key in ("money", "money_ended")),
        f"/director/entries/{ann}/withdraw",
        f"/director/clubs/{club}/ratings",
        f"/director/clubs/{club}/seasons",
        f"/director/clubs/{club}/players/{ids['ann_player']}",
        f"/director/seasons/{ids['season']}",
        "/account/tokens",
        "/account/password",
    ]
    admin = ["/director/users"]
    return {"visitor": visitor, "player": player, "director": director, "admin": admin}


FRAGMENTS = {"/director/events/<int:event_id>/self-service/check-ins"}
"""Rules answering a part of a page (polled by the page that holds it), not a page."""
NOT_WALKED = {
    # Not pages: JSON, images, files to download, redirects, the stylesheet.
    "/healthz",
    "/static/<path:filename>",
    "/api/v1/openapi.json",
    "/api/v1/events",
    "/api/v1/events/<int:event_id>",
    "/api/v1/events/<int:event_id>/flights",
    "/api/v1/events/<int:event_id>/pairings",
    "/api/v1/events/<int:event_id>/players",
    "/api/v1/events/<int:event_id>/standings",
    "/api/v1/events/<int:event_id>/teams",
    "/api/v1/fixtures/<int:fixture_id>",
    "/api/v1/flights/<int:flight_id>",
    "/api/v1/flights/<int:flight_id>/fixtures",
    "/api/v1/flights/<int:flight_id>/rounds",
    "/api/v1/flights/<int:flight_id>/standings",
    "/api/v1/matches/<int:match_id>",
    "/events/<slug>/qr.svg",
    "/clubs/<club_slug>/players/<int:player_id>/rating.svg",
    "/director/clubs/<int:club_id>/players/<int:player_id>/rating.svg",
    "/director/clubs/<int:club_id>/players/<int:player_id>/history.pdf",
    "/director/clubs/<int:club_id>/ratings.<extension>",
    "/director/seasons/<int:season_id>.<extension>",
    "/director/events/<int:event_id>/ledger.<extension>",
    "/director/events/<int:event_id>/payouts.pdf",
    "/director/money/<int:session_id>/settlement.<extension>",
    "/director/fixtures/<int:fixture_id>/scoresheet.pdf",
    "/director/flights/<int:flight_id>/fixtures/scoresheets.pdf",
    "/events/<slug>/downloads/<name>",
    "/director/events/<int:event_id>/downloads/<name>",
    "/events/<slug>/records/<int:record_id>",
    "/events/<slug>/matches/<int:match_id>/record.<suffix>",
    "/e/<slug>",
    "/e/<slug>/matches/<int:match_id>",
}
"""The GET rules the walk leaves out, none of them an HTML page (the documents' own words
are checked by the exports' tests)."""


def _account(user: UserView) -> tuple[str, str]:
    """An account's name and address, as the pages show who is logged in."""
    return user.name, user.email


def _rule(app: Flask, path: str) -> str | None:
    """The rule of the app that answers ``path``; none for an address it does not know."""
    adapter = app.url_map.bind("localhost")
    try:
        rule, _values = adapter.match(path.split("?", 1)[0], method="GET", return_rule=True)
    except HTTPException:
        return None
    return rule.rule


class _AnyIds(dict[str, Any]):
    """Ids for spelling the walk's addresses without an event: every id is 1."""

    def __missing__(self, key: str) -> Any:
        return 1


def test_the_walk_opens_every_page_of_the_app(app: Flask) -> None:
    """Every GET rule that answers a page is opened by the page walk below, so a page
    added to the app is checked for untranslated words from the start."""
    ids = _AnyIds(
        flights={name: n for n, name in enumerate(("Hoved", "Sveits", "Pulje", "Lag"), 1)},
        entries={"Ann Berg": 1},
        player_link="/p/fjord-open/token",
    )
    walked = {
        _rule(app, path)
        for paths in (NEWCOMER_PAGES, *_pages(ids).values())
        for path in paths
    }
    pages = {
        rule.rule
        for rule in app.url_map.iter_rules()
        if "GET" in (rule.methods or set())
    }
    assert NOT_WALKED - pages == set(), "rules the app no longer has"
    assert pages - NOT_WALKED - walked == set()


def test_every_word_of_every_page_comes_from_a_catalogue(
    pseudo_app: Flask,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., UserView],
) -> None:
    """Every page of the walk, as each of its users opens it, in the pseudo language,
    and every page shown on the way to it: what is left outside the marks is data (the
    event's names, numbers, dates)."""
    pages: list[tuple[str, str]] = []
    pseudo_app.test_client_class = _Recording
    clients = _Clients(*(pseudo_app.test_client() for _ in range(4)))
    for client in clients.by_role().values():
        assert isinstance(client, _Recording)
        client.pages = pages
        client.get(f"/?lang={PSEUDO}")
    for path in NEWCOMER_PAGES:
        assert clients.visitor.get(path).status_code == 200, path
    admin = make_user("admin")
    ids = _busy_event(engine, pseudo_app, build_event, clients, admin)
    answered: dict[str, int] = {}
    for role, paths in _pages(ids).items():
        client = clients.by_role()[role]
        for path in paths:
            response = client.get(path)
            page = response.get_data(as_text=True)
            if response.status_code != STATUSES.get((role, path), 200):
                answered[f"{role} {path}"] = response.status_code
            if _rule(pseudo_app, path) not in FRAGMENTS:
                assert f'<html lang="{PSEUDO}"' in page, path
    assert answered == {}, "pages that did not answer as expected"
    _settle(clients, ids)
    names = [*NAMES, admin.name, admin.email, *_account(ids["director"])]
    untranslated: dict[str, list[str]] = {}
    for label, page in pages:
        if label not in untranslated and (leftovers := _leftovers(page, names)):
            untranslated[label] = leftovers
    listed = "\n".join(f"{label}: {texts}" for label, texts in untranslated.items())
    assert untranslated == {}, f"words shown untranslated:\n{listed}"


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
    built = _fjord_open(engine, build_event, director)
    chouette, ended = _money_sessions(engine, built, director)
    _club_money(built, director)
    with read_session(engine) as session:
        rows = session.exec(select(Player.name, Player.id).where(col(Player.name).in_(PLAYERS)))
        players = {name: player_id for name, player_id in rows.all()}
    started = director.post(
        f"/director/events/{built.event_id}/money",
        data={
            "name": "Bord 11",
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
    event = built.event_id
    # A word each document must show in the pseudo language, so that none passes by
    # showing nothing; the payouts count Ann's and Bob's entry fees: 2 x €20.00.
    documents = {
        f"/director/money/{chouette}/settlement.pdf": "⟦Chouette at Fjord Open⟧",
        f"/director/money/{chouette}/settlement.xlsx": "⟦Still playing after 1 game⟧",
        f"/director/money/{ended}/settlement.pdf": "⟦Money session at Fjord Open⟧",
        f"/director/money/{ended}/settlement.xlsx": "⟦gammon⟧, ⟦resigned⟧",
        f"/director/money/{empty}/settlement.pdf": "⟦None.⟧",
        f"/director/money/{empty}/settlement.xlsx": "⟦Still playing after 0 games⟧",
        f"/director/events/{event}/payouts.pdf": "⟦⟦Hoved prizes⟧: taken €40.00",
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
        if leftovers := _english_lines(text, [*NAMES, *_account(built.director)]):
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
