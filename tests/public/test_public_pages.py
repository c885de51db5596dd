"""Public pages over the sample events: what players read on their phones."""

from __future__ import annotations

import html as html_lib
import re
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import results
from tourney.store.db import read_session, transaction
from tourney.store.public_views import event_home

if TYPE_CHECKING:
    from conftest import Demo

SPRING = "fjordside-spring-open"
SWISS = "monday-swiss"


def text_of(html: str) -> str:
    """The page's visible text on one line (tags dropped, spaces squeezed)."""
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def test_event_home_lists_flights_current_round_players_and_qr(
    client: FlaskClient, demo: Demo
) -> None:
    response = client.get(f"/events/{SWISS}")

    html = response.get_data(as_text=True)
    text = text_of(html)
    assert response.status_code == 200
    assert "Current round: Round 3" in text
    assert "Find your name" in text and 'name="q"' in html
    assert "Ingrid Solheim" in text and "Åsa Lindqvist" in text
    assert f'src="/events/{SWISS}/qr.svg"' in html
    assert 'hx-trigger="every 5s"' in html


def test_knockout_bracket_shows_scores_byes_feeds_and_champion(
    client: FlaskClient, demo: Demo
) -> None:
    flight = demo.flights[SPRING]["Main"]

    text = text_of(client.get(f"/events/{SPRING}/flights/{flight}").get_data(as_text=True))

    assert "Winner: Åsa Lindqvist" in text
    assert "Ingrid Solheim 0 Emre Yılmaz 6 Loser to Consolation" in text
    assert "Tomasz Wójcik bye" in text
    assert "Loser to Consolation (if their first match)" in text
    assert "Final to 7" in text


def test_swiss_pairings_show_tables_scores_and_byes(client: FlaskClient, demo: Demo) -> None:
    flight = demo.flights[SWISS]["Swiss"]

    first = text_of(client.get(f"/events/{SWISS}/flights/{flight}/rounds/1").get_data(as_text=True))
    current = text_of(client.get(f"/events/{SWISS}/flights/{flight}").get_data(as_text=True))

    assert "1 Bjørn Ødegård Jürgen Weiß Score sheet: 7 4" in first
    assert "Round 3 to 5 points · Published" in current
    assert "Mette Kjær bye" in current


def test_standings_show_rank_ties_record_and_tiebreaks(client: FlaskClient, demo: Demo) -> None:
    flight = demo.flights[SWISS]["Swiss"]

    html = client.get(f"/events/{SWISS}/flights/{flight}/standings").get_data(as_text=True)

    text = text_of(html)
    cells = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', html)
    # Each heading in full, and the short form a phone shows with the full one as its title.
    headers = [re.sub(r'<abbr class="heading-short".*?</abbr>|<[^>]+>', "", c) for c in cells]
    short = re.findall(r'<abbr class="heading-short" title="([^"]+)">([^<]+)</abbr>', html)
    assert headers == ["Rank", "Player", "Won–lost", "Buchholz", "Net game points"]
    assert short == [("Won–lost", "W–L"), ("Buchholz", "Buch."), ("Net game points", "Net")]
    # Each tiebreak note sits on the lower row of the pair it separates.
    assert "1 Åsa Lindqvist 2–0 2 10" in text
    assert "2 Ingrid Solheim Åsa Lindqvist ahead on net game points 10 to 8 2–0 2 8" in text
    # Round 3 is published but unplayed: Mette Kjær's bye in it is no win yet, so she
    # is 0–2 and below the tied pair.
    assert "=6 Lars-Erik Haugen Bjørn Ødegård ahead on net game points -4 to -5 1–1" in text
    assert "=6 Sean O'Brien 1–1" in text
    assert "9 Mette Kjær Jürgen Weiß ahead on net game points -3 to -9 0–2" in text
    assert 'A rank written "=3" is shared.' in text


def test_standings_explain_each_tiebreak_of_the_chain(client: FlaskClient, demo: Demo) -> None:
    # The Monday Swiss breaks ties on Buchholz, then net game points.
    flight = demo.flights[SWISS]["Swiss"]

    html = client.get(f"/events/{SWISS}/flights/{flight}/standings").get_data(as_text=True)

    text = text_of(html)
    assert "Players are ranked by match wins, then Buchholz, then net game points." in text
    explained = re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", html_lib.unescape(html))
    assert explained == [
        (
            "Buchholz",
            "The match wins of all your opponents added up: beating strong players counts more.",
        ),
        (
            "Net game points",
            "Points you won minus points you lost, counting at most the match length from "
            "each match.",
        ),
    ]


def test_knockout_standings_show_shared_ranks(client: FlaskClient, demo: Demo) -> None:
    flight = demo.flights[SPRING]["Main"]

    text = text_of(
        client.get(f"/events/{SPRING}/flights/{flight}/standings").get_data(as_text=True)
    )

    assert "1 Åsa Lindqvist Champion 4 4" in text
    assert "=3 Sean O'Brien Eliminated in the Semifinal 1 3" in text


def test_player_page_shows_next_match_with_table_and_length(
    client: FlaskClient, demo: Demo, engine: Engine
) -> None:
    with read_session(engine) as session:
        entries = {e.player_name: e.id for e in event_home(session, demo.events[SWISS]).entries}

    page = text_of(
        client.get(f"/events/{SWISS}/players/{entries['Ingrid Solheim']}").get_data(as_text=True)
    )
    printed = client.get(f"/events/{SWISS}/players/{entries['Ingrid Solheim']}/print")

    assert "Next match v Zoë Martin Table 2 Length 5 points Round Swiss, Round 3" in page
    assert "Swiss Round 1 2 Tomasz Wójcik 5 19–2 Won" in page
    assert printed.status_code == 200
    assert "hx-get" not in printed.get_data(as_text=True)


def test_player_search_finds_names_by_part(client: FlaskClient, demo: Demo) -> None:
    text = text_of(client.get(f"/events/{SWISS}/players?q=SOL").get_data(as_text=True))
    none = text_of(client.get(f"/events/{SWISS}/players?q=zzz").get_data(as_text=True))

    assert "Ingrid Solheim" in text and "Åsa Lindqvist" not in text
    assert "Nobody's name contains “zzz”." in none


def test_match_page_shows_games_cube_result_and_crawford(client: FlaskClient, demo: Demo) -> None:
    matches = client.get(f"/api/v1/flights/{demo.flights[SWISS]['Swiss']}/rounds").get_json()
    first = matches["rounds"][0]["matches"][0]

    html = client.get(f"/events/{SWISS}/matches/{first['id']}").get_data(as_text=True)

    text = text_of(html)
    assert "Bjørn Ødegård v Jürgen Weiß" in text
    assert "Match to 5 points" in text and "Crawford rule" in text
    assert "Won by Bjørn Ødegård" in text
    assert html.count('class="game-crawford"') == 1
    assert '<span class="badge badge-crawford">Crawford game</span>' in html
    assert "1 Jürgen Weiß Played out, single 1 1 0-1" in text


def test_match_page_heading_and_score_name_both_players(client: FlaskClient, demo: Demo) -> None:
    matches = client.get(f"/api/v1/flights/{demo.flights[SWISS]['Swiss']}/rounds").get_json()
    first = matches["rounds"][0]["matches"][0]

    html = client.get(f"/events/{SWISS}/matches/{first['id']}").get_data(as_text=True)

    heading = re.search(r"<h1>(.*?)</h1>", html, re.S)
    sides = re.findall(r'<p class="side( won)?"><span>(.*?)</span>', html, re.S)
    assert heading is not None and text_of(heading.group(1)) == "Bjørn Ødegård v Jürgen Weiß"
    assert [(won, text_of(name)) for won, name in sides] == [
        (" won", "Bjørn Ødegård"),
        ("", "Jürgen Weiß"),
    ]


def test_live_region_answers_204_until_the_event_changes(
    client: FlaskClient, demo: Demo, engine: Engine
) -> None:
    flight = demo.flights[SWISS]["Swiss"]
    url = f"/events/{SWISS}/flights/{flight}/standings"
    page = client.get(url).get_data(as_text=True)
    version = re.search(r'data-version="(\d+)"', page)
    assert version
    rounds = client.get(f"/api/v1/flights/{flight}/rounds").get_json()["rounds"]
    ready = next(m for m in rounds[-1]["matches"] if m["status"] == "ready")

    unchanged = client.get(f"{url}?since={version.group(1)}")
    with transaction(engine) as session:
        director = demo_director(session)
        results.record_final_score(
            session, actor=director, match_id=ready["id"], score_a=5, score_b=3
        )
    changed = client.get(f"{url}?since={version.group(1)}")

    body = changed.get_data(as_text=True)
    assert unchanged.status_code == 204
    assert changed.status_code == 200
    assert body.startswith('<div id="live"') and "<html" not in body
    assert f"since={int(version.group(1)) + 1}" in body
    assert html_lib.escape(ready["a"]["name"]) in body


def demo_director(session: object) -> results.Actor:
    from sqlmodel import Session, select

    from tourney.store.tables import User

    assert isinstance(session, Session)
    user = session.exec(select(User).where(User.email == "director@example.org")).one()
    return results.Actor(user_id=user.id, label=user.email, role=user.role)


CLUB_NIGHT = "thursday-club-night"


def test_flight_drawn_but_not_published_looks_not_drawn(
    client: FlaskClient, demo: Demo, engine: Engine
) -> None:
    from tourney.store import draws

    flights = demo.flights[CLUB_NIGHT]
    with transaction(engine) as session:
        draws.make_draw(session, actor=demo_director(session), flight_id=flights["Main"])

    home = client.get(f"/events/{CLUB_NIGHT}").get_data(as_text=True)
    main = client.get(f"/events/{CLUB_NIGHT}/flights/{flights['Main']}").get_data(as_text=True)

    # The director sees a draft; the public sees the main draw and its consolation as
    # they were before it: not drawn, with no hint of a draw beside that.
    not_drawn = '<span class="badge badge-setup">Not drawn</span>'
    assert "badge-drawn" not in home + main
    assert (home.count(not_drawn), text_of(home).count("Not drawn yet.")) == (2, 2)
    assert main.count(not_drawn) == 1
    assert "This flight is not drawn yet." in text_of(main)


def test_qr_code_is_an_svg_of_the_event_address(client: FlaskClient, demo: Demo) -> None:
    response = client.get(f"/events/{SWISS}/qr.svg")

    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).lstrip().startswith(("<?xml", "<svg"))


def test_unknown_flight_match_and_player_are_404(client: FlaskClient, demo: Demo) -> None:
    other = demo.flights[SPRING]["Main"]

    answers = [
        client.get(f"/events/{SWISS}/flights/{other}").status_code,
        client.get(f"/events/{SWISS}/flights/999999").status_code,
        client.get(f"/events/{SWISS}/matches/999999").status_code,
        client.get(f"/events/{SWISS}/players/999999").status_code,
        client.get(f"/events/{SWISS}/flights/{demo.flights[SWISS]['Swiss']}/rounds/99").status_code,
        client.get("/events/no-such-event").status_code,
    ]

    assert answers == [404] * 6


def test_roster_rename_shows_at_once_on_cached_public_pages(
    client: FlaskClient, engine: Engine, demo: Demo
) -> None:
    from sqlmodel import select

    from tourney.store import roster
    from tourney.store.audit import Actor
    from tourney.store.tables import Player

    flight = demo.flights[SPRING]["Main"]
    url = f"/events/{SPRING}/flights/{flight}"
    assert "Emre Yılmaz" in text_of(client.get(url).get_data(as_text=True))  # now cached
    with transaction(engine) as session:
        player = session.exec(select(Player).where(Player.name == "Emre Yılmaz")).one()
        roster.update_player(
            session,
            actor=Actor.cli(),
            player_id=player.id or 0,
            fields=roster.PlayerFields(name="Emre Yilmaz-Kaya", country=player.country),
        )

    text = text_of(client.get(url).get_data(as_text=True))

    assert "Emre Yilmaz-Kaya" in text
    assert "Emre Yılmaz" not in text
