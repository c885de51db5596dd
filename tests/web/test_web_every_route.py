"""Every route answers the user who opens it as it should: a walk over ``app.url_map``.

``ANSWERS`` names every rule of the app with a method (``"GET /director/"``) and the status
a user gets from one ordinary request to it. The walk makes those requests in order, as
a visitor, the event's director and an admin, on one public event with a published
knockout (its first match played from a match record) and a drawn Swiss. A rule added
without a line here fails the inventory test, so no route goes unrequested, and none of
them may answer 500. Every HTML page the walk is shown, a director's above all, gives each
``id`` to one element only: a label tied to an id that two fields share names the wrong one.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import col, select

from tourney.store import draws, events, roster, selfservice
from tourney.store.access import ApiToken
from tourney.store.db import read_session, transaction
from tourney.store.queries import UserView
from tourney.store.selfservice_tables import Registration, ResultReport
from tourney.store.tables import (
    Club,
    Entry,
    Event,
    Fixture,
    Flight,
    FlightEntry,
    Match,
    MoneySession,
    Player,
    Round,
    Season,
    UploadedRecord,
    User,
)
from tourney.store.tournament_views import FlightBoard

if TYPE_CHECKING:
    from conftest import BuiltEvent

RECORD = Path(__file__).resolve().parents[1] / "data" / "web" / "gnubg_L03_s1037.mat"
PASSWORD = "correct horse battery staple"
MUTATING = {"POST", "PUT", "PATCH", "DELETE"}

ANSWERS = {
    # A visitor: the public pages of a public event, its printouts and short addresses.
    "GET /": 200,
    "GET /healthz": 200,
    "GET /static/<path:filename>": 200,
    "GET /login": 200,
    "GET /setup": 404,
    "POST /setup": 404,
    "GET /events/<slug>": 200,
    "GET /events/<slug>/players": 200,
    "GET /events/<slug>/players/<int:entry_id>": 200,
    "GET /events/<slug>/players/<int:entry_id>/print": 200,
    # (a club's player pages are private unless the club shows them)
    "GET /clubs/<club_slug>/players/<int:player_id>": 404,
    "GET /clubs/<club_slug>/players/<int:player_id>/rating.svg": 404,
    "GET /events/<slug>/flights/<int:flight_id>": 200,
    "GET /events/<slug>/flights/<int:flight_id>/rounds/<int:number>": 200,
    "GET /events/<slug>/flights/<int:flight_id>/standings": 200,
    "GET /events/<slug>/matches/<int:match_id>": 200,
    "GET /events/<slug>/qr.svg": 200,
    "GET /events/<slug>/downloads/<name>": 200,
    "GET /e/<slug>": 302,
    "GET /e/<slug>/matches/<int:match_id>": 302,
    "GET /api/v1/openapi.json": 200,
    "GET /api/v1/events": 200,
    "GET /api/v1/events/<int:event_id>": 200,
    "GET /api/v1/events/<int:event_id>/flights": 200,
    "GET /api/v1/events/<int:event_id>/players": 200,
    "GET /api/v1/events/<int:event_id>/pairings": 200,
    "GET /api/v1/events/<int:event_id>/standings": 200,
    "GET /api/v1/flights/<int:flight_id>": 200,
    "GET /api/v1/flights/<int:flight_id>/rounds": 200,
    "GET /api/v1/flights/<int:flight_id>/standings": 200,
    "GET /api/v1/matches/<int:match_id>": 200,
    "GET /events/<slug>/flights/<int:flight_id>/fixtures": 200,
    "GET /events/<slug>/fixtures/<int:fixture_id>": 200,
    "GET /api/v1/events/<int:event_id>/teams": 200,
    "GET /api/v1/flights/<int:flight_id>/fixtures": 200,
    "GET /api/v1/fixtures/<int:fixture_id>": 200,
    # The event's director: logs in, keeps the roster and the entries ...
    "POST /login": 302,
    "GET /director/": 200,
    "GET /director/players": 200,
    "POST /director/players": 302,
    "GET /director/players/<int:player_id>/edit": 200,
    "POST /director/players/<int:player_id>/edit": 302,
    "POST /director/clubs": 302,
    "GET /director/clubs/<int:club_id>/ratings": 200,
    "GET /director/clubs/<int:club_id>/ratings.<extension>": 200,
    "GET /director/clubs/<int:club_id>/seasons": 200,
    "POST /director/clubs/<int:club_id>/seasons": 302,
    "POST /director/clubs/<int:club_id>/ratings/options": 302,
    "GET /director/seasons/<int:season_id>": 200,
    "GET /director/seasons/<int:season_id>.<extension>": 200,
    "GET /director/clubs/<int:club_id>/players/<int:player_id>": 404,
    "GET /director/clubs/<int:club_id>/players/<int:player_id>/rating.svg": 404,
    "GET /director/clubs/<int:club_id>/players/<int:player_id>/history.pdf": 404,
    "POST /director/players/import": 200,
    "POST /director/players/import/confirm": 302,
    "GET /director/events/<int:event_id>/entries": 200,
    "POST /director/events/<int:event_id>/entries": 302,
    "POST /director/entries/<int:entry_id>/check-in": 302,
    "POST /director/entries/<int:entry_id>/undo-check-in": 302,
    "POST /director/events/<int:event_id>/entries/check-in-everyone": 302,
    # (an event of no club has no rating list to seed by: refused on the entries page)
    "POST /director/events/<int:event_id>/entries/seed-by-rating": 400,
    "POST /director/events/<int:event_id>/entries/bulk": 302,
    "POST /director/events/<int:event_id>/entries/paste": 302,
    "POST /director/entries/<int:entry_id>/seed": 302,
    "GET /director/entries/<int:entry_id>/withdraw": 200,
    "POST /director/entries/<int:entry_id>/withdraw": 302,
    "POST /director/entries/<int:entry_id>/reinstate": 302,
    # ... runs the event and its flights ...
    "GET /director/events/new": 200,
    "POST /director/events/new": 302,
    "GET /director/events/<int:event_id>": 200,
    "GET /director/events/<int:event_id>/edit": 200,
    "POST /director/events/<int:event_id>/edit": 302,
    "GET /director/events/<int:event_id>/audit": 200,
    "GET /director/events/<int:event_id>/divisions": 200,
    "POST /director/events/<int:event_id>/divisions": 302,
    "POST /director/events/<int:event_id>/divisions/players": 302,
    "POST /director/events/<int:event_id>/divisions/flights/<int:flight_id>": 302,
    "POST /director/events/<int:event_id>/finish": 302,
    "POST /director/events/<int:event_id>/archive": 302,
    "POST /director/events/<int:event_id>/reopen": 302,
    "GET /director/events/<int:event_id>/flights/new": 200,
    "POST /director/events/<int:event_id>/flights/new": 302,
    "GET /director/flights/<int:flight_id>/edit": 200,
    "POST /director/flights/<int:flight_id>/edit": 302,
    "GET /director/flights/<int:flight_id>": 200,
    "POST /director/flights/<int:flight_id>/draw": 302,
    "POST /director/flights/<int:flight_id>/undo": 302,
    "POST /director/flights/<int:flight_id>/publish": 302,
    "POST /director/rounds/<int:round_id>/repair": 302,
    # (round 1 of the Swiss has no results yet: the next round is not due)
    "POST /director/flights/<int:flight_id>/pair-next": 400,
    "POST /director/flights/<int:flight_id>/late-entry": 302,
    # (a knockout of eight has no first-round bye to place a late entrant in)
    "POST /director/flights/<int:flight_id>/late-bye": 400,
    # (the main draw is drawn already: no tie at a cut can change its field)
    "POST /director/flights/<int:flight_id>/cut": 409,
    "POST /director/matches/<int:match_id>/table": 302,
    # ... enters results ...
    "GET /director/matches/<int:match_id>": 200,
    "POST /director/matches/<int:match_id>/upload": 302,
    # (queues the record's analysis for the worker)
    "POST /director/matches/<int:match_id>/analyse": 302,
    "GET /director/events/<int:event_id>/performance": 200,
    # (who is who in a record whose copy came back altered: refused on the match page)
    "POST /director/matches/<int:match_id>/upload/players": 400,
    "POST /director/matches/<int:match_id>/games": 302,
    "POST /director/matches/<int:match_id>/games/<int:number>/edit": 302,
    "POST /director/matches/<int:match_id>/games/<int:number>/delete": 302,
    "POST /director/matches/<int:match_id>/score": 302,
    "POST /director/matches/<int:match_id>/clear": 302,
    # ... starts a match's clock, takes the start back, reads the timetable ...
    "POST /director/matches/<int:match_id>/start": 302,
    "POST /director/matches/<int:match_id>/unstart": 302,
    "GET /director/events/<int:event_id>/timetable": 200,
    # ... sets up the venue screen, which a visitor opens ...
    "GET /director/events/<int:event_id>/screen": 200,
    "POST /director/events/<int:event_id>/screen": 302,
    "GET /events/<slug>/screen": 200,
    "POST /director/matches/<int:match_id>/walkover": 302,
    "POST /director/matches/<int:match_id>/starting-score": 302,
    "GET /events/<slug>/records/<int:record_id>": 200,
    "GET /events/<slug>/matches/<int:match_id>/record.<suffix>": 200,
    "POST /api/v1/matches/<int:match_id>/games": 201,
    "POST /api/v1/matches/<int:match_id>/score": 200,
    # (a record for a match that has its result already, sent without the version the
    # caller saw, is refused as a conflict)
    "POST /api/v1/matches/<int:match_id>/record": 409,
    "POST /api/v1/events/<int:event_id>/players/<int:entry_id>/withdraw": 200,
    # ... runs a team flight: teams, a round of fixtures, a fixture's boards and sheets ...
    "GET /director/events/<int:event_id>/teams": 200,
    "POST /director/events/<int:event_id>/teams": 302,
    "GET /director/flights/<int:flight_id>/fixtures": 200,
    "POST /director/flights/<int:flight_id>/fixtures/draw": 302,
    "GET /director/fixtures/<int:fixture_id>": 200,
    # (the event plays a fixed board order: no line-up per fixture)
    "POST /director/fixtures/<int:fixture_id>": 400,
    "GET /director/fixtures/<int:fixture_id>/scoresheet.pdf": 200,
    "GET /director/flights/<int:flight_id>/fixtures/scoresheets.pdf": 200,
    # ... prints, exports and shares it, keeps API tokens ...
    "GET /director/events/<int:event_id>/downloads/<name>": 200,
    "GET /director/events/<int:event_id>/sharing": 200,
    "POST /director/events/<int:event_id>/sharing/private": 302,
    "POST /director/events/<int:event_id>/sharing/renew": 302,
    "POST /director/events/<int:event_id>/sharing/public": 302,
    # ... runs a money session beside the bracket ...
    "GET /director/events/<int:event_id>/money": 200,
    "POST /director/events/<int:event_id>/money": 302,
    "GET /director/money/<int:session_id>": 200,
    "POST /director/money/<int:session_id>/games": 302,
    "GET /director/money/<int:session_id>/settlement.<extension>": 200,
    "POST /director/money/<int:session_id>/take-back": 302,
    "POST /director/money/<int:session_id>/end": 302,
    "GET /events/<slug>/money/<int:session_id>": 200,
    # ... sets the main draw's fees and prizes, takes fees, prints the payouts ...
    "GET /director/flights/<int:flight_id>/money": 200,
    "POST /director/flights/<int:flight_id>/money": 302,
    "GET /director/events/<int:event_id>/ledger": 200,
    "POST /director/events/<int:event_id>/ledger/take": 302,
    # (a refund is for a player who withdrew: Ann has not)
    "POST /director/events/<int:event_id>/ledger/refund": 400,
    "POST /director/events/<int:event_id>/ledger/undo": 404,
    "GET /director/events/<int:event_id>/ledger.<extension>": 200,
    "GET /director/events/<int:event_id>/payouts": 200,
    "GET /director/events/<int:event_id>/payouts.pdf": 200,
    "GET /events/<slug>/prizes": 200,
    "GET /events/<slug>/performance": 200,
    "GET /account/tokens": 200,
    "POST /account/tokens": 200,
    "POST /account/tokens/<int:token_id>/revoke": 302,
    # Players' own links, the venue's check-in page and the director's self-service pages.
    "GET /p/<slug>/<token>": 200,
    "POST /p/<slug>/<token>/check-in": 302,
    "GET /p/<slug>/<token>/matches/<int:match_id>/report": 200,
    "POST /p/<slug>/<token>/matches/<int:match_id>/report": 302,
    "POST /p/<slug>/<token>/reports/<int:report_id>/confirm": 302,
    "POST /p/<slug>/<token>/reports/<int:report_id>/dispute": 302,
    "GET /events/<slug>/check-in": 200,
    "GET /director/events/<int:event_id>/self-service": 200,
    "GET /director/events/<int:event_id>/self-service/check-ins": 200,
    "GET /director/events/<int:event_id>/check-in-poster": 200,
    "GET /director/events/<int:event_id>/outbox": 200,
    "POST /director/reports/<int:report_id>/decide": 302,
    "POST /director/rounds/<int:round_id>/deadline": 302,
    "POST /director/entries/<int:entry_id>/revoke-link": 302,
    "POST /p/<slug>/<token>/withdraw": 302,
    "GET /director/events/<int:event_id>/registration": 200,
    "POST /director/events/<int:event_id>/registration": 302,
    "GET /events/<slug>/register": 200,
    "POST /events/<slug>/register": 200,
    "GET /events/<slug>/register/confirm/<token>": 200,
    "POST /events/<slug>/register/confirm/<token>": 200,
    "POST /director/registrations/<int:registration_id>/decide": 302,
    # An admin keeps the accounts; the director logs out.
    "GET /director/users": 200,
    "POST /director/users": 302,
    "POST /director/users/<int:user_id>/deactivate": 302,
    # ... and asks to change a password, giving the wrong current one (refused).
    "GET /account/password": 200,
    "POST /account/password": 400,
    "POST /logout": 302,
}


def _rules(app: Flask) -> set[str]:
    return {
        f"{method} {rule.rule}"
        for rule in app.url_map.iter_rules()
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    }


def test_every_rule_of_the_app_has_a_request_in_the_walk(app: Flask) -> None:
    assert _rules(app) == set(ANSWERS)


class _Ids(HTMLParser):
    """The ``id`` attributes of a page's elements, in document order."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids.extend(value or "" for name, value in attrs if name == "id")


def duplicate_ids(page: str) -> list[str]:
    """The ids more than one element of ``page`` carries."""
    parser = _Ids()
    parser.feed(page)
    return sorted(name for name, count in Counter(parser.ids).items() if count > 1)


class Walk:
    """Requests to rules of the app with values for their variables; records the status
    and, for every HTML page it is shown, the ids that page repeats."""

    def __init__(self, app: Flask, **values: object) -> None:
        self.app = app
        self.values = {name: str(value) for name, value in values.items()}
        self.answers: dict[str, int] = {}
        self.repeated_ids: dict[str, list[str]] = {}

    def url(self, rule: str, **values: object) -> str:
        chosen = {**self.values, **{name: str(value) for name, value in values.items()}}
        return re.sub(r"<(?:[^>]*:)?(\w+)>", lambda m: chosen[m.group(1)], rule)

    def __call__(self, client: FlaskClient, method: str, rule: str, **kwargs: Any) -> Any:
        """Request ``rule``; keyword arguments named in it fill it, the others go to the
        client (``data``, ``json``, ``content_type``)."""
        names = re.findall(r"<(?:[^>]*:)?(\w+)>", rule)
        values = {name: kwargs.pop(name) for name in names if name in kwargs}
        response = client.open(self.url(rule, **values), method=method, **kwargs)
        body = response.get_data()  # read a file answer through, so that it is closed
        response.close()
        self.answers[f"{method} {rule}"] = response.status_code
        if response.mimetype == "text/html" and (repeated := duplicate_ids(body.decode())):
            self.repeated_ids[f"{method} {rule}"] = repeated
        return response


def _version(client: FlaskClient, match_id: int) -> str:
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    found = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert found is not None
    return found.group(1)


def _event(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> tuple[BuiltEvent, FlightBoard, FlightBoard]:
    """A public event of eight (the record's two players seeded 1 and 8, so they meet in
    the first round of the seeded knockout) with the knockout published and the Swiss
    drawn for review."""
    built = build_event(
        ["GnubgA", "Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "GnubgB"],
        [
            {"name": "Main", "format": "knockout", "match_length": 3},
            {"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 3},
        ],
        is_public=True,
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        knockout = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
        swiss = draws.make_draw(
            session, actor=actor, flight_id=built.flights["Swiss"], method="seeded"
        )
    return built, knockout, swiss


def test_every_route_answers_as_a_user_expects(
    app: Flask,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., UserView],
) -> None:
    built, knockout, swiss = _event(engine, build_event)
    first, second, third, fourth = (m.id for m in knockout.rounds[0].matches)
    admin = make_user("admin")
    walk = Walk(
        app,
        slug="club-night",
        event_id=built.event_id,
        flight_id=built.flights["Main"],
        match_id=first,
        entry_id=built.entries["Ann"],
        number=1,
        filename="style.css",
        name="pairings.pdf",
    )
    visitor, director, admin_client = app.test_client(), app.test_client(), app.test_client()
    swiss_flight = built.flights["Swiss"]

    walk(director, "POST", "/login", data={"email": built.director.email, "password": PASSWORD})
    # The director: the roster, a late player entered, check-in and withdrawal.
    walk(director, "GET", "/director/players")
    walk(director, "POST", "/director/players", data={"name": "Lena Late", "country": "NO"})
    with read_session(engine) as session:
        late = session.exec(select(Player.id).where(Player.name == "Lena Late")).one()
    walk(director, "GET", "/director/players/<int:player_id>/edit", player_id=late)
    walk(
        director, "POST", "/director/players/<int:player_id>/edit", player_id=late,
        data={"name": "Lena Late", "country": "SE"},
    )
    walk(director, "POST", "/director/clubs", data={"club_name": "Fjordside BG"})
    with read_session(engine) as session:
        club = session.exec(select(Club.id).where(Club.name == "Fjordside BG")).one()
    walk(director, "GET", "/director/clubs/<int:club_id>/ratings", club_id=club)
    for extension in ("csv", "xlsx"):
        walk(
            director, "GET", "/director/clubs/<int:club_id>/ratings.<extension>",
            club_id=club, extension=extension,
        )
    walk(director, "GET", "/director/clubs/<int:club_id>/seasons", club_id=club)
    walk(
        director, "POST", "/director/clubs/<int:club_id>/ratings/options", club_id=club,
        data={"provisional_below": "400"},
    )
    with transaction(engine) as session:
        event_row = session.get(Event, built.event_id)
        assert event_row is not None
        event_row.club_id = club
    walk(
        director, "POST", "/director/clubs/<int:club_id>/seasons", club_id=club,
        data={"name": "Spring", "event_ids": str(built.event_id), "scoring": "place",
              "points_table": "10, 6, 4, 2"},
    )
    with read_session(engine) as session:
        season_id = session.exec(select(Season.id)).one()
    walk(director, "GET", "/director/seasons/<int:season_id>", season_id=season_id)
    for extension in ("csv", "xlsx"):
        walk(
            director, "GET", "/director/seasons/<int:season_id>.<extension>",
            season_id=season_id, extension=extension,
        )
    # (a player with no rated match at the club has no history there)
    for rule in (
        "/director/clubs/<int:club_id>/players/<int:player_id>",
        "/director/clubs/<int:club_id>/players/<int:player_id>/rating.svg",
        "/director/clubs/<int:club_id>/players/<int:player_id>/history.pdf",
    ):
        walk(director, "GET", rule, club_id=club, player_id=late)
    for rule in (
        "/clubs/<club_slug>/players/<int:player_id>",
        "/clubs/<club_slug>/players/<int:player_id>/rating.svg",
    ):
        walk(visitor, "GET", rule, club_slug="fjordside-bg", player_id=late)
    preview = walk(
        director, "POST", "/director/players/import",
        data={"file": (io.BytesIO(b"name,country\nNils Spare,NO\n"), "players.csv")},
        content_type="multipart/form-data",
    ).get_data(as_text=True)
    signed = re.search(r'name="upload" type="hidden" value="([^"]+)"', preview)
    assert signed is not None
    walk(director, "POST", "/director/players/import/confirm", data={"upload": signed.group(1)})
    walk(director, "GET", "/director/events/<int:event_id>/entries")
    walk(director, "POST", "/director/events/<int:event_id>/entries", data={"player_id": late})
    with transaction(engine) as session:
        spare = session.exec(select(Player.id).where(Player.name == "Nils Spare")).one()
        spare_entry = roster.enter_player(
            session, actor=built.director.actor, event_id=built.event_id, player_id=spare
        ).id
    walk(director, "GET", "/director/entries/<int:entry_id>/withdraw", entry_id=spare_entry)
    for action in ("check-in", "undo-check-in", "withdraw", "reinstate"):
        walk(director, "POST", f"/director/entries/<int:entry_id>/{action}", entry_id=spare_entry)
    walk(director, "POST", "/director/events/<int:event_id>/entries/check-in-everyone")
    walk(director, "POST", "/director/events/<int:event_id>/entries/seed-by-rating",
         data={"seeds": "4"})
    with transaction(engine) as session:
        bulk = [
            roster.register_player(
                session, actor=built.director.actor, fields=roster.PlayerFields(name=name)
            ).id
            for name in ("Bo Bulk", "Pia Paste")
        ]
    walk(
        director, "POST", "/director/events/<int:event_id>/entries/bulk",
        data={"player_ids": [bulk[0]]},
    )
    walk(
        director, "POST", "/director/events/<int:event_id>/entries/paste",
        data={"names": "pia paste"},
    )
    with transaction(engine) as session:
        # Seeds change until a flight is drawn: an event with nothing drawn yet.
        undrawn = events.create_event(
            session, actor=built.director.actor, fields=events.EventFields(name="Seeding")
        )
        seeded_entry = roster.enter_player(
            session, actor=built.director.actor, event_id=undrawn.id, player_id=bulk[0]
        ).id
    walk(
        director, "POST", "/director/entries/<int:entry_id>/seed", entry_id=seeded_entry,
        data={"seed": "4"},
    )

    # Events and flights: a second event, settings, a side flight drawn and undone, the
    # Swiss published and paired again, a late entry, a table.
    walk(director, "GET", "/director/")
    walk(director, "GET", "/director/events/new")
    walk(director, "POST", "/director/events/new", data={"name": "Friday Night", "crawford": "y"})
    walk(director, "GET", "/director/events/<int:event_id>")
    walk(director, "GET", "/director/events/<int:event_id>/edit")
    walk(
        director, "POST", "/director/events/<int:event_id>/edit",
        data={"name": "Club Night", "slug": "club-night", "crawford": "y", "is_public": "y"},
    )
    walk(director, "GET", "/director/events/<int:event_id>/audit")
    for closing in ("finish", "archive", "reopen"):
        walk(director, "POST", f"/director/events/<int:event_id>/{closing}")
    walk(director, "GET", "/director/events/<int:event_id>/flights/new")
    side = {"name": "Side", "format": "roundrobin", "match_length": "1", "draw_method": "random"}
    walk(director, "POST", "/director/events/<int:event_id>/flights/new", data=side)
    with read_session(engine) as session:
        side_flight = session.exec(select(Flight.id).where(Flight.name == "Side")).one()
    walk(director, "GET", "/director/flights/<int:flight_id>/edit", flight_id=side_flight)
    walk(director, "GET", "/director/events/<int:event_id>/divisions")
    walk(director, "POST", "/director/events/<int:event_id>/divisions",
         data={"divisions": "Open\nNovice", "draw_scoring": "nothing"})
    walk(director, "POST", "/director/events/<int:event_id>/divisions/players", data={})
    walk(director, "POST", "/director/events/<int:event_id>/divisions/flights/<int:flight_id>",
         flight_id=side_flight, data={"division": "", "handicap": "0"})
    walk(
        director, "POST", "/director/flights/<int:flight_id>/edit", flight_id=side_flight,
        data={**side, "match_length": "3"},
    )
    walk(director, "GET", "/director/flights/<int:flight_id>")
    walk(
        director, "POST", "/director/flights/<int:flight_id>/draw", flight_id=side_flight,
        data={"method": "random", "seed": "7"},
    )
    walk(director, "POST", "/director/flights/<int:flight_id>/undo", flight_id=side_flight)
    walk(director, "POST", "/director/flights/<int:flight_id>/publish", flight_id=swiss_flight)
    walk(director, "POST", "/director/rounds/<int:round_id>/repair", round_id=swiss.rounds[0].id)
    # Pairing the round again makes new matches (new ids on PostgreSQL): read them afresh.
    with read_session(engine) as session:
        swiss_first, swiss_second = session.exec(
            select(Match.id)
            .join(Round, col(Match.round_id) == col(Round.id))
            .where(Round.flight_id == swiss_flight, Round.number == 1)
            .order_by(col(Match.position))
        ).all()[:2]
    walk(director, "POST", "/director/flights/<int:flight_id>/pair-next", flight_id=swiss_flight)
    with read_session(engine) as session:
        late_entry = session.exec(select(Entry.id).where(Entry.player_id == late)).one()
    walk(
        director, "POST", "/director/flights/<int:flight_id>/late-entry",
        flight_id=swiss_flight, data={"entry_id": late_entry, "wins": "0", "losses": "0"},
    )
    walk(
        director, "POST", "/director/flights/<int:flight_id>/late-bye",
        data={"entry_id": spare_entry, "match_id": first},
    )
    walk(director, "POST", "/director/flights/<int:flight_id>/cut", data={})
    walk(
        director, "POST", "/director/matches/<int:match_id>/table", match_id=fourth,
        data={"table": "9"},
    )

    # Results: a record, games entered, corrected and deleted, a final score cleared, a
    # walkover; through the API: a game, a score, a record too late, a withdrawal.
    walk(director, "GET", "/director/matches/<int:match_id>")
    walk(
        director, "POST", "/director/matches/<int:match_id>/upload",
        data={"version": _version(director, first), "record": (io.BytesIO(RECORD.read_bytes()),
                                                               "final.mat")},
        content_type="multipart/form-data",
    )
    walk(director, "POST", "/director/matches/<int:match_id>/analyse", data={})
    walk(director, "GET", "/director/events/<int:event_id>/performance")
    walk(
        director, "POST", "/director/matches/<int:match_id>/upload/players", match_id=second,
        data={"version": _version(director, second), "record": "altered",
              "first_player_side": "a"},
    )
    game = {"winner": "a", "end": "played", "cube": "1", "level": "single"}
    walk(
        director, "POST", "/director/matches/<int:match_id>/games", match_id=second,
        data={**game, "version": _version(director, second)},
    )
    walk(
        director, "POST", "/director/matches/<int:match_id>/games/<int:number>/edit",
        match_id=second, data={**game, "winner": "b", "version": _version(director, second)},
    )
    walk(
        director, "POST", "/director/matches/<int:match_id>/games/<int:number>/delete",
        match_id=second, data={"version": _version(director, second)},
    )
    walk(
        director, "POST", "/director/matches/<int:match_id>/score", match_id=third,
        data={"score": "3-1", "version": _version(director, third)},
    )
    walk(
        director, "POST", "/director/matches/<int:match_id>/clear", match_id=third,
        data={"version": _version(director, third)},
    )
    walk(
        director, "POST", "/director/matches/<int:match_id>/starting-score", match_id=fourth,
        data={"start_a": "0", "start_b": "0"},
    )
    walk(
        director, "POST", "/director/matches/<int:match_id>/walkover", match_id=fourth,
        data={"winner": "b", "version": _version(director, fourth)},
    )
    walk(
        director, "POST", "/director/matches/<int:match_id>/start", match_id=third,
        data={"version": _version(director, third)},
    )
    walk(
        director, "POST", "/director/matches/<int:match_id>/unstart", match_id=third,
        data={"version": _version(director, third)},
    )
    walk(director, "GET", "/director/events/<int:event_id>/timetable")
    walk(director, "GET", "/director/events/<int:event_id>/screen")
    walk(
        director, "POST", "/director/events/<int:event_id>/screen",
        data={"panels": ["pairings", "clock"], "rotation_seconds": "15", "announcement": "Hi"},
    )
    walk(visitor, "GET", "/events/<slug>/screen")
    with read_session(engine) as session:
        record_id = session.exec(select(UploadedRecord.id)).one()
    walk(visitor, "GET", "/events/<slug>/records/<int:record_id>", record_id=record_id)
    walk(visitor, "GET", "/events/<slug>/matches/<int:match_id>/record.<suffix>", suffix="sgf")
    walk(
        director, "POST", "/api/v1/matches/<int:match_id>/games", match_id=swiss_first,
        json={"winner": "a", "end": "played"},
    )
    walk(
        director, "POST", "/api/v1/matches/<int:match_id>/score", match_id=swiss_second,
        json={"score_a": 0, "score_b": 1},
    )
    walk(
        director, "POST", "/api/v1/matches/<int:match_id>/record", match_id=swiss_second,
        json={"filename": "final.mat", "content": RECORD.read_text(encoding="utf-8")},
    )
    walk(
        director, "POST", "/api/v1/events/<int:event_id>/players/<int:entry_id>/withdraw",
        entry_id=spare_entry,
    )

    # A money session beside the bracket: started, a game, its sheets, taken back, ended.
    walk(director, "GET", "/director/events/<int:event_id>/money")
    with read_session(engine) as session:
        ann, bob = (
            session.exec(select(Entry.player_id).where(Entry.id == built.entries[name])).one()
            for name in ("Ann", "Bob")
        )
    walk(
        director, "POST", "/director/events/<int:event_id>/money",
        data={"name": "Side money", "seat_1": ann, "seat_2": bob, "stake_mode": "per-point",
              "stake": "0.50", "currency": "EUR"},
    )
    with read_session(engine) as session:
        walk.values["session_id"] = str(session.exec(select(MoneySession.id)).one())
    walk(director, "GET", "/director/money/<int:session_id>")
    walk(
        director, "POST", "/director/money/<int:session_id>/games",
        data={"games_before": "0", f"winner_{bob}": "box", f"how_{bob}": "gammon",
              f"cube_{bob}": "2"},
    )
    for extension in ("pdf", "xlsx"):
        walk(
            director, "GET", "/director/money/<int:session_id>/settlement.<extension>",
            extension=extension,
        )
    walk(director, "POST", "/director/money/<int:session_id>/take-back")
    walk(director, "POST", "/director/money/<int:session_id>/end", data={"how": "by agreement"})
    # Club money: the main draw's fees and prizes, a fee taken, the payouts printed.
    walk(director, "GET", "/director/flights/<int:flight_id>/money")
    walk(
        director, "POST", "/director/flights/<int:flight_id>/money",
        data={"currency": "EUR", "entry_fee": "20", "buyback_fee": "0", "sponsor": "0",
              "retention_percent": "10", "payout_table": "70/30",
              "side_pools": "Pool A, 5, 100"},
    )
    walk(director, "GET", "/director/events/<int:event_id>/ledger")
    walk(
        director, "POST", "/director/events/<int:event_id>/ledger/take",
        data={"entry_id": built.entries["Ann"], "what": f"{built.flights['Main']}|entry|",
              "method": "cash"},
    )
    walk(
        director, "POST", "/director/events/<int:event_id>/ledger/refund",
        data={"entry_id": built.entries["Ann"], "method": "cash"},
    )
    walk(
        director, "POST", "/director/events/<int:event_id>/ledger/undo",
        data={"item_id": 999999},
    )
    walk(director, "GET", "/director/events/<int:event_id>/ledger.<extension>", extension="xlsx")
    walk(director, "GET", "/director/events/<int:event_id>/payouts")
    walk(director, "GET", "/director/events/<int:event_id>/payouts.pdf")
    walk(visitor, "GET", "/events/<slug>/prizes")

    # A team flight: two teams entered, round 1 drawn, its fixture and score sheets.
    with transaction(engine) as session:
        team_flight = events.add_flight(
            session,
            actor=built.director.actor,
            event_id=built.event_id,
            fields=events.FlightFields(
                name="Teams", format="roundrobin", match_length=1, boards=2
            ),
        ).id
    walk(director, "GET", "/director/events/<int:event_id>/teams")
    for name in ("Rooks", "Knights"):
        walk(
            director, "POST", "/director/events/<int:event_id>/teams",
            data={"name": name, "members": f"{name} One\n{name} Two & {name} Three"},
        )
    walk(director, "GET", "/director/flights/<int:flight_id>/fixtures", flight_id=team_flight)
    walk(
        director, "POST", "/director/flights/<int:flight_id>/fixtures/draw",
        flight_id=team_flight, data={"seed": "3"},
    )
    with read_session(engine) as session:
        fixture_id = session.exec(select(Fixture.id)).one()
    walk(director, "GET", "/director/fixtures/<int:fixture_id>", fixture_id=fixture_id)
    walk(
        director, "POST", "/director/fixtures/<int:fixture_id>", fixture_id=fixture_id,
        data={"side": "a", "players": "Rooks Two & Rooks Three\nRooks One"},
    )
    walk(director, "GET", "/director/fixtures/<int:fixture_id>/scoresheet.pdf",
         fixture_id=fixture_id)
    walk(director, "GET", "/director/flights/<int:flight_id>/fixtures/scoresheets.pdf",
         flight_id=team_flight)
    walk(visitor, "GET", "/events/<slug>/flights/<int:flight_id>/fixtures", flight_id=team_flight)
    walk(visitor, "GET", "/events/<slug>/fixtures/<int:fixture_id>", fixture_id=fixture_id)
    walk(visitor, "GET", "/api/v1/flights/<int:flight_id>/fixtures", flight_id=team_flight)
    walk(visitor, "GET", "/api/v1/fixtures/<int:fixture_id>", fixture_id=fixture_id)

    # Printouts, exports, sharing and tokens.
    for document in ("scoresheets.pdf", "workbook.xlsx", "tables.zip", "event.json"):
        walk(director, "GET", "/director/events/<int:event_id>/downloads/<name>", name=document)
    walk(director, "GET", "/director/events/<int:event_id>/sharing")
    for change in ("private", "renew", "public"):
        walk(director, "POST", f"/director/events/<int:event_id>/sharing/{change}")
    walk(director, "GET", "/account/tokens")
    walk(director, "POST", "/account/tokens", data={"name": "scoreboard"})
    with read_session(engine) as session:
        token = session.exec(select(ApiToken.id)).one()
    walk(director, "POST", "/account/tokens/<int:token_id>/revoke", token_id=token)

    # Ann reports her first match from her link, her opponent confirms; the director's
    # self-service pages; a dispute of a decided report is only refused.
    maker = selfservice.LinkMaker(app.config["SECRET_KEY"], "http://localhost/")
    with read_session(engine) as session:
        tokens = {
            name: selfservice.link_for_entry(session, maker, built.entries[name]).rsplit("/", 1)[1]
            for name in ("Ann", "Fay")
        }
        # Ann's match against Fay, found the same way on every database (no row order is
        # promised without ORDER BY).
        sides = {
            name: list(session.exec(
                select(FlightEntry.id).where(FlightEntry.entry_id == built.entries[name])
            ))
            for name in ("Ann", "Fay")
        }
        side_a, side_b = col(Match.entry_a_id), col(Match.entry_b_id)
        ann_match = session.exec(
            select(Match)
            .where(
                (side_a.in_(sides["Ann"]) & side_b.in_(sides["Fay"]))
                | (side_a.in_(sides["Fay"]) & side_b.in_(sides["Ann"]))
            )
            .order_by(col(Match.id))
        ).first()
        assert ann_match is not None
        round_id, ann_match_id = ann_match.round_id, ann_match.id
    ann = {"token": tokens["Ann"], "match_id": ann_match_id}
    walk(visitor, "GET", "/p/<slug>/<token>", token=tokens["Ann"])
    walk(visitor, "POST", "/p/<slug>/<token>/check-in", token=tokens["Ann"])
    walk(visitor, "GET", "/events/<slug>/check-in")
    walk(visitor, "GET", "/p/<slug>/<token>/matches/<int:match_id>/report", **ann)
    walk(visitor, "POST", "/p/<slug>/<token>/matches/<int:match_id>/report", **ann,
         data={"my_score": "3", "their_score": "0"})
    with read_session(engine) as session:
        report_id = session.exec(select(ResultReport.id)).one()
    walk(visitor, "POST", "/p/<slug>/<token>/reports/<int:report_id>/confirm",
         token=tokens["Fay"], report_id=report_id)
    walk(visitor, "POST", "/p/<slug>/<token>/reports/<int:report_id>/dispute",
         token=tokens["Fay"], report_id=report_id)
    walk(director, "GET", "/director/events/<int:event_id>/self-service")
    walk(director, "GET", "/director/events/<int:event_id>/self-service/check-ins")
    walk(director, "GET", "/director/events/<int:event_id>/check-in-poster")
    walk(director, "GET", "/director/events/<int:event_id>/outbox")
    walk(director, "POST", "/director/reports/<int:report_id>/decide", report_id=report_id,
         data={"decision": "report"})
    walk(director, "POST", "/director/rounds/<int:round_id>/deadline", round_id=round_id,
         data={"deadline": "2030-01-01T20:00"})
    walk(director, "POST", "/director/entries/<int:entry_id>/revoke-link")
    # Ann is in the draw: withdrawing from her link is refused (the director does it).
    walk(visitor, "POST", "/p/<slug>/<token>/withdraw", token=tokens["Fay"])
    walk(director, "POST", "/director/events/<int:event_id>/registration",
         data={"is_open": "on", "capacity": "20"})
    walk(director, "GET", "/director/events/<int:event_id>/registration")
    walk(visitor, "GET", "/events/<slug>/register")
    walk(visitor, "POST", "/events/<slug>/register",
         data={"name": "Zed Zane", "club": "", "email": "zed@example.org"})
    with read_session(engine) as session:
        registration_id = session.exec(select(Registration.id)).one()
    confirm = {"token": maker.registration_token(registration_id or 0)}
    walk(visitor, "GET", "/events/<slug>/register/confirm/<token>", **confirm)
    walk(visitor, "POST", "/events/<slug>/register/confirm/<token>", **confirm)
    walk(director, "POST", "/director/registrations/<int:registration_id>/decide",
         registration_id=registration_id, data={"decision": "approve"})

    # A visitor reads the event; an admin keeps the accounts; the director logs out.
    for rule in sorted(r for r in ANSWERS if r.startswith("GET ")):
        path = rule.split(" ", 1)[1]
        if not path.startswith(("/director", "/account", "/p/")) and rule not in walk.answers:
            walk(visitor, "GET", path)
    walk(visitor, "POST", "/setup", data={"name": "X", "email": "x@example.org"})
    walk(admin_client, "POST", "/login", data={"email": admin.email, "password": PASSWORD})
    walk(admin_client, "GET", "/director/users")
    password = "another long password"
    walk(
        admin_client, "POST", "/director/users",
        data={"name": "Sam Scorer", "email": "sam@example.org", "role": "scorer",
              "password": password, "confirm": password},
    )
    with read_session(engine) as session:
        sam = session.exec(select(User.id).where(User.email == "sam@example.org")).one()
    walk(admin_client, "POST", "/director/users/<int:user_id>/deactivate", user_id=sam)
    walk(director, "GET", "/account/password")
    walk(
        director, "POST", "/account/password",
        data={"current_password": "not the password", "password": password, "confirm": password},
    )
    walk(director, "POST", "/logout")

    assert walk.answers == ANSWERS
    assert walk.repeated_ids == {}
