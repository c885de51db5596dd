"""A player's public page at a club: off by default (404, nothing shown), on when the
club's director allows it, linked from the public event pages only then. Club Night is
worked by hand in ``club_ratings_builders``: Ann beat Dee and then Ben (1552.54, 14
experience), Ben beat Cid and lost to Ann (1500.37)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from club_ratings_builders import PASSWORD, PlayedClub, club_night, play_round
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from tourney.store import draws, events, results, roster
from tourney.store.db import read_session, transaction
from tourney.store.tables import Club, Entry, Event
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent


def _ids(engine: Engine, club: PlayedClub) -> tuple[str, str, dict[str, int]]:
    """The club's short name, the event's, and the players' roster ids."""
    with read_session(engine) as session:
        club_slug = session.exec(select(Club.slug).where(Club.id == club.club_id)).one()
        event_slug = session.exec(select(Event.slug).where(Event.id == club.built.event_id)).one()
        players = {
            name: session.exec(select(Entry.player_id).where(Entry.id == entry)).one()
            for name, entry in club.built.entries.items()
        }
    return club_slug, event_slug, players


def _allow(app: Flask, club: PlayedClub, *, on: bool) -> None:
    director = app.test_client()
    director.post("/login", data={"email": club.director_email, "password": PASSWORD})
    data = {"provisional_below": "0", **({"public_profiles": "y"} if on else {})}
    assert director.post(f"/director/clubs/{club.club_id}/ratings/options",
                         data=data).status_code == 302


def test_a_clubs_player_pages_are_not_found_by_default_and_say_nothing(
    app: Flask,
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club, is_public=True)
    club_slug, event_slug, players = _ids(engine, club)

    page = client.get(f"/clubs/{club_slug}/players/{players['Ann']}")
    chart = client.get(f"/clubs/{club_slug}/players/{players['Ann']}/rating.svg")
    no_club = client.get(f"/clubs/no-such-club/players/{players['Ann']}")
    event_page = client.get(f"/events/{event_slug}/players/{club.built.entries['Ann']}").text

    assert (page.status_code, chart.status_code, no_club.status_code) == (404, 404, 404)
    assert page.text == no_club.text
    assert "Ann" not in page.text and "1552" not in page.text and "Fjordside" not in page.text
    assert "/clubs/" not in event_page


def test_allowed_the_page_shows_events_results_rating_chart_and_nemesis(
    app: Flask,
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club, is_public=True)
    club_slug, event_slug, players = _ids(engine, club)
    _allow(app, club, on=True)

    event_page = client.get(f"/events/{event_slug}/players/{club.built.entries['Ben']}").text
    link = re.search(r'<h1><a href="([^"]+)"[^>]*>Ben</a>', event_page)
    assert link is not None
    ben = client.get(link.group(1))
    ann = client.get(f"/clubs/{club_slug}/players/{players['Ann']}")
    chart = client.get(f"/clubs/{club_slug}/players/{players['Ben']}/rating.svg")
    text = " ".join(re.sub(r"<[^>]+>", " ", ben.text).split())

    assert link.group(1) == f"/clubs/{club_slug}/players/{players['Ben']}"
    assert ben.status_code == 200
    assert "Rating 1500.37 Experience 14" in text
    assert "Nemesis: Ann (0-1)" in text
    assert "Club Night 1 1" in text  # the event: one won, one lost
    assert "Club Night Ann Lost 0-7 (to 7) -26.09 1500.37" in text
    assert "Club Night Cid Won 7-0 (to 7) +26.46 1526.46" in text
    assert "Rating 1552.54" in ann.text and "Nemesis" not in ann.text
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    # Two matches: the axis counts 0, 1, 2 (no half matches).
    labels = re.findall(r"<text[^>]*>([^<]*)</text>", chart.text)
    assert labels[: labels.index("Rated matches played")] == ["0", "1", "2"]


def test_turned_off_again_the_page_and_the_link_go(
    app: Flask,
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club, is_public=True)
    club_slug, event_slug, players = _ids(engine, club)
    _allow(app, club, on=True)
    address = f"/events/{event_slug}/players/{club.built.entries['Ann']}"
    linked = client.get(address).text
    _allow(app, club, on=False)

    unlinked = client.get(address).text
    page = client.get(f"/clubs/{club_slug}/players/{players['Ann']}")

    assert f'href="/clubs/{club_slug}/players/{players["Ann"]}"' in linked
    assert "/clubs/" not in unlinked
    assert page.status_code == 404


def test_private_events_are_neither_a_way_in_nor_listed(
    app: Flask,
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    club = club_night(engine, build_event, into_club, is_public=True)
    club_slug, _, players = _ids(engine, club)
    actor = club.built.director.actor
    with transaction(engine) as session:
        hidden = events.create_event(session, actor=actor, fields=events.EventFields(
            name="Members Only Night", club_id=club.club_id))
        flight = events.add_flight(session, actor=actor, event_id=hidden.id,
                                   fields=events.FlightFields(name="Main", format="knockout",
                                                              match_length=7)).id or 0
        newcomer = roster.register_player(session, actor=actor,
                                          fields=roster.PlayerFields(name="Zed"))
        players["Zed"] = newcomer.id
        # Seeds 1 v 4 and 2 v 3: Ann v Cid, Zed v Dee.
        for seed, name in enumerate(("Ann", "Zed", "Dee", "Cid"), start=1):
            roster.enter_player(session, actor=actor, event_id=hidden.id,
                                player_id=players[name], seed=seed)
        draws.make_draw(session, actor=actor, flight_id=flight, method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=flight)
    play_round(engine, actor, flight, 1, {"Cid", "Zed"})
    _allow(app, club, on=True)
    director = app.test_client()
    director.post("/login", data={"email": club.director_email, "password": PASSWORD})
    listing = director.get(f"/director/clubs/{club.club_id}/ratings.csv").data.decode(
        "utf-8-sig")
    ann_on_list = next(line for line in listing.splitlines() if ",Ann," in line).split(",")[2]

    ann = client.get(f"/clubs/{club_slug}/players/{players['Ann']}").text
    zed = client.get(f"/clubs/{club_slug}/players/{newcomer.id}")

    assert "Members Only Night" not in ann and "Cid" not in ann.split("Head to head")[1]
    assert f"Rating {ann_on_list}" in ann  # the rating counts every rated match
    assert zed.status_code == 404


def test_a_corrected_result_shows_on_the_page_at_once(
    app: Flask,
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    into_club: Callable[..., int],
) -> None:
    # The final corrected to Ben 7-0: the same sums with the two swapped (see the
    # builder): Ben 1552.54, Ann 1500.37.
    club = club_night(engine, build_event, into_club, is_public=True)
    club_slug, _, players = _ids(engine, club)
    _allow(app, club, on=True)
    address = f"/clubs/{club_slug}/players/{players['Ann']}"
    before = client.get(address).text
    actor = club.built.director.actor
    with read_session(engine) as session:
        final = flight_board(session, actor, club.built.flights["Main"]).rounds[1].matches[0]
    assert final.a is not None
    with transaction(engine) as session:
        results.record_final_score(session, actor=actor, match_id=final.id,
                                   score_a=0 if final.a.name == "Ann" else 7,
                                   score_b=7 if final.a.name == "Ann" else 0)

    after = client.get(address).text

    assert "Rating 1552.54" in before
    assert "Rating 1500.37" in after and "Nemesis: Ben (0-1)" in after
