"""A big flight's pages come in parts: the public bracket a round at a time, its long
rounds and standings in parts, the director's match list a page at a time."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import draws
from tourney.store.db import transaction

if TYPE_CHECKING:
    from conftest import BuiltEvent

MAIN = {"name": "Main", "format": "knockout", "match_length": 1}
FIELD = [f"P{n:03d}" for n in range(1, 301)]


def _published(engine: Engine, build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    built = build_event(FIELD, [MAIN], is_public=True, name="Big Open")
    with transaction(engine) as session:
        actor = built.director.actor
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    return built


def test_a_big_public_bracket_shows_one_round_in_parts(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = _published(engine, build_event)
    main = built.flights["Main"]

    first = client.get(f"/events/big-open/flights/{main}").get_data(as_text=True)
    second = client.get(f"/events/big-open/flights/{main}/rounds/1?part=2").get_data(as_text=True)
    final = client.get(f"/events/big-open/flights/{main}/rounds/9").get_data(as_text=True)

    # 300 players fill a 512-line bracket: 256 first-round matches, 128 a part.
    assert "Matches 1–128 of 256" in first
    assert first.count('class="bout ') == 128
    assert "Matches 129–256 of 256" in second
    assert ">Match 129</a>" in second
    assert f'href="/events/big-open/flights/{main}/rounds/2"' in first
    assert final.count('class="bout ') == 1
    assert "Matches 1–" not in final


def test_the_directors_match_list_of_a_big_flight_comes_a_hundred_at_a_time(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
) -> None:
    built = _published(engine, build_event)
    director = built.director
    client.post(
        "/login", data={"email": director.email, "password": "correct horse battery staple"}
    )
    main = built.flights["Main"]

    page = client.get(f"/director/flights/{main}?round=1&page=3").get_data(as_text=True)

    assert re.search(r"Matches 201–256 of 256 in [^<]+</p>", page)
    assert page.count(' ko-match"') == 56
    assert f'href="/director/flights/{main}?round=1&amp;page=2"' in page


def test_the_dashboard_of_a_big_knockout_lists_the_first_fifty_matches_to_call(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
) -> None:
    built = _published(engine, build_event)
    director = built.director
    client.post(
        "/login", data={"email": director.email, "password": "correct horse battery staple"}
    )

    page = client.get(f"/director/events/{built.event_id}").get_data(as_text=True)

    # 300 seeded players in a 512-line bracket: seeds 1-212 have byes. The 44 first-round
    # matches (213 v 300 ... 256 v 257) are ready; in round 2, seeds 1-44 wait for those
    # winners and seeds 45-128 meet seeds 212-129 at once: 44 + 84 = 128 matches ready.
    assert "<strong>128</strong> waiting" in page
    assert "<strong>0</strong> in play" in page
    assert page.count('<tr class="match match-ready"') == 50
    assert "78 more on" in page
    waiting = re.search(r"<p>Waiting for an opponent: ([^<]+)</p>", page)
    assert waiting is not None
    # Listed in bracket order (seed 1's match first, then seed 32's ...): compared as a set.
    assert sorted(waiting.group(1).split(", ")) == [f"P{n:03d}" for n in range(1, 45)]


def test_the_public_event_home_of_a_big_field_lists_a_hundred_players(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _published(engine, build_event)

    page = client.get("/events/big-open").get_data(as_text=True)

    assert "Players <small>(300)</small>" in page
    players = re.findall(r'<li><a href="/events/big-open/players/\d+">(P\d{3})</a>', page)
    # Seeds first in seed order: the seeded field shows seeds 1 to 100.
    assert players == [f"P{n:03d}" for n in range(1, 101)]
    assert "and 200 more" in page
    assert "Current round: " in page and "0 in play, 128 waiting to start" in page
