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
    r"|[€$£₺₽]-?\d[\d.,]*"  # and €1.00
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
    # A name stands as a whole word: "NO" (a country) is no part of "NOK".
    known = [
        re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")
        for word in sorted(set(data), key=len, reverse=True)
    ]
    # A translation may hold markup (a link in a sentence): its marks close in a later
    # text node, so the page's texts are read as one, a node a line.
    lines = _unmarked("\n".join(text.replace("\n", " ") for text in parser.texts))
    found = []
    for line in lines.split("\n"):
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
"""What the pages show that is data, not words: the names the walk's event is made of."""


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


def _play(
    engine: Engine, built: BuiltEvent, director: FlaskClient
) -> dict[str, Any]:
    """Results, a record with its analysis, a clock and a money session: one knockout
    match played, one walkover, one started with a game entered; the Swiss' first round
    played (one match
    from a record whose player names the director matches up, then analysed), its second
    paired as a draft; a money session at Table 9."""
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
    for match_id in swiss[1:]:
        director.post(
            f"/director/matches/{match_id}/score",
            data={"score": "3-1", "version": _version(director, match_id)},
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
    with read_session(engine) as session:
        seats = session.exec(
            select(Player.id).where(col(Player.name).in_(PLAYERS[:3])).order_by(Player.name)
        ).all()
    director.post(
        f"/director/events/{built.event_id}/money",
        data={
            "name": "Bord 9",
            "seat_1": seats[0],
            "seat_2": seats[1],
            "seat_3": seats[2],
            "stake_mode": stake_mode_choices()[0][0],
            "stake": "1.00",
            "currency": "EUR",
        },
    )
    with read_session(engine) as session:
        money = session.exec(select(MoneySession.id)).one()
    return {
        "played": played,
        "walkover": walkover,
        "clocked": clocked,
        "disputed": disputed,
        "swiss_match": swiss[1],
        "recorded": recorded,
        "money": money,
    }


def _arrange(built: BuiltEvent, director: FlaskClient, ids: dict[str, Any]) -> None:
    """The director's settings: the main draw's fees and prizes (Ann's fee taken), two
    divisions, the venue screen, two teams with a round of fixtures, the club's players'
    pages shown and a season."""
    event, flights, club = built.event_id, ids["flights"], ids["club"]
    director.post(
        f"/director/flights/{flights['Hoved']}/money",
        data={
            "currency": "EUR",
            "entry_fee": "20",
            "buyback_fee": "0",
            "sponsor": "0",
            "retention_percent": "10",
            "payout_table": "70/30",
            "side_pools": "",
        },
    )
    director.post(
        f"/director/events/{event}/ledger/take",
        data={
            "entry_id": built.entries["Ann Berg"],
            "what": f"{flights['Hoved']}|entry|",
            "method": "cash",
        },
    )
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


def _busy_event(
    engine: Engine,
    app: Flask,
    build_event: Callable[..., BuiltEvent],
    clients: _Clients,
    admin: UserView,
) -> dict[str, Any]:
    """A public event of a club with every kind of page filled: a knockout with a
    consolation (one match played, one walkover, one started, one disputed), a Swiss (a
    round played, one of its matches from an analysed record, the next paired as a
    draft), pools in two divisions, a team flight with a round of fixtures, a money
    session, fees and prizes, the venue screen, players' links, online registration,
    the club's ratings and a season; a finished second event; a players' file
    previewed; the director and an admin logged in.

    Returns the ids the pages are opened with."""
    built = build_event(
        PLAYERS,
        [
            {"name": "Hoved", "format": "knockout", "match_length": 5},
            {"name": "Trøst", "format": "knockout", "match_length": 3, "feeds_from": "Hoved"},
            {"name": "Sveits", "format": "swiss", "match_length": 3, "swiss_rounds": 3},
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
        teams_flight = events.add_flight(
            session,
            actor=actor,
            event_id=built.event_id,
            fields=events.FlightFields(name="Lag", format="roundrobin", match_length=1, boards=2),
        ).id
        club = events.create_club(session, actor=actor, name="Fjordside BG").id
        event = session.get(Event, built.event_id)
        assert event is not None
        event.club_id = club
    for client, user in ((clients.director, built.director), (clients.admin, admin)):
        response = client.post("/login", data={"email": user.email, "password": PASSWORD})
        assert response.status_code == 302
    ids: dict[str, Any] = {
        "event": built.event_id,
        "flights": {**built.flights, "Lag": teams_flight},
        "entries": built.entries,
        "club": club,
        "director": built.director,
    }
    ids.update(_play(engine, built, clients.director))
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
        f"/events/{slug}/money/{ids['money']}",
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
        f"/director/money/{ids['money']}",
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
    names = [*NAMES, admin.name, admin.email, ids["director"].name, ids["director"].email]
    untranslated: dict[str, list[str]] = {}
    for label, page in pages:
        if label not in untranslated and (leftovers := _leftovers(page, names)):
            untranslated[label] = leftovers
    listed = "\n".join(f"{label}: {texts}" for label, texts in untranslated.items())
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
