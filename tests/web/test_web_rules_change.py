"""The director's settings forms once results exist, the flight header, and the messages
after a game correction.

The flight: Ann, Bob, Cy and Di seeded in a knockout to 5 points without the Crawford
rule; semifinal Ann v Di is won by Ann 5-3: a gammon at 2 (4-0), Di wins a single (4-1)
and a single at 2 (4-3), Ann a single (5-3).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.store import draws, results
from tourney.store.db import transaction
from tourney.store.results import GameFields
from tourney.store.tables import Flight, Game
from tourney.store.tournament_views import flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
MAIN = {"name": "Main", "format": "knockout", "match_length": 5}
ANN_WINS_5_3 = (
    GameFields("a", "played", 2, "gammon"),
    GameFields("b", "played", 1, "single"),
    GameFields("b", "played", 2, "single"),
    GameFields("a", "played", 1, "single"),
)


def log_in(client: FlaskClient, built: BuiltEvent) -> None:
    response = client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302


def semifinal_played(
    engine: Engine, build_event: Callable[..., BuiltEvent], **flight: Any
) -> tuple[BuiltEvent, int]:
    built = build_event(["Ann", "Bob", "Cy", "Di"], [MAIN | flight], crawford=False)
    actor, main = built.director.actor, built.flights["Main"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=main, method="seeded", seed=1)
        draws.publish_draw(session, actor=actor, flight_id=main)
    with Session(engine) as session:
        match_id = flight_board(session, actor, main).rounds[0].matches[0].id
    for game in ANN_WINS_5_3:
        with transaction(engine) as session:
            results.record_game(session, actor=actor, match_id=match_id, game=game)
    return built, match_id


def crawford_marks(engine: Engine, match_id: int) -> list[bool]:
    with Session(engine) as session:
        rows = session.exec(
            select(Game).where(Game.match_id == match_id).order_by(col(Game.number))
        )
        return [g.is_crawford for g in rows]


def digest_on(page: str) -> str:
    found = re.search(r'name="confirmed_changes" value="([0-9a-f]+)"', page)
    assert found, "no confirmation on the page"
    return found.group(1)


def text_of(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&amp;", "&")


def test_turning_crawford_on_warns_with_each_change_and_saves_once_confirmed(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = semifinal_played(engine, build_event)
    log_in(client, built)
    form = {"name": "Club Night", "crawford": "y"}
    url = f"/director/events/{built.event_id}/edit"

    warned = client.post(url, data=form)
    page = warned.get_data(as_text=True)
    before = crawford_marks(engine, match_id)
    confirmed = client.post(
        url,
        data=form | {"confirmed_changes": digest_on(page), "confirm_rules_change": "y"},
        follow_redirects=True,
    )

    assert warned.status_code == 409
    # Ann reached 4 = N-1 in game 1: game 2 is the Crawford game.
    assert (
        "<li>Main round 1 match 1 (Ann – Di): game 2 becomes the Crawford game.</li>" in page
    )
    assert "Confirm the change" in page
    assert before == [False, False, False, False]
    assert "Event saved. The results listed were changed as you confirmed." in text_of(
        confirmed.get_data(as_text=True)
    )
    assert crawford_marks(engine, match_id) == [False, True, False, False]


def test_saving_again_without_the_confirm_button_changes_nothing(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = semifinal_played(engine, build_event)
    log_in(client, built)
    form = {"name": "Club Night", "crawford": "y"}
    url = f"/director/events/{built.event_id}/edit"
    page = client.post(url, data=form).get_data(as_text=True)

    again = client.post(url, data=form | {"confirmed_changes": digest_on(page)})

    assert again.status_code == 409
    assert crawford_marks(engine, match_id) == [False, False, False, False]


def test_longer_matches_on_the_flight_form_warn_then_reopen_the_match(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = semifinal_played(engine, build_event)
    log_in(client, built)
    main = built.flights["Main"]
    form = {"name": "Main", "format": "knockout", "match_length": "7", "draw_method": "random"}
    url = f"/director/flights/{main}/edit"

    warned = client.post(url, data=form).get_data(as_text=True)
    client.post(
        url, data=form | {"confirmed_changes": digest_on(warned), "confirm_rules_change": "y"}
    )
    flight_page = text_of(client.get(f"/director/flights/{main}").get_data(as_text=True))

    assert (
        "Main round 1 match 1 (Ann – Di): its score of 5–3 would become a match to 7 "
        "still playing." in text_of(warned)
    )
    assert "7-point matches" in flight_page
    assert "5-point" not in flight_page


def test_flight_header_names_the_final_played_longer(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = semifinal_played(engine, build_event, round_lengths={"final": 7})
    log_in(client, built)

    page = text_of(client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True))

    assert "Knockout , 5-point matches; Final to 7 Draw seed" in page


def test_flight_header_follows_the_matches_not_a_setting_that_disagrees(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = semifinal_played(engine, build_event)
    with transaction(engine) as session:
        # A flight saved before lengths reached drawn rounds: its setting says 7, its
        # matches are to 5.
        flight = session.get(Flight, built.flights["Main"])
        assert flight is not None
        flight.match_length = 7
    log_in(client, built)

    page = text_of(client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True))

    assert "Knockout , 5-point matches Draw seed" in page
    assert "7-point" not in page


def test_a_game_corrected_to_what_it_was_says_it_was_not_changed(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = semifinal_played(engine, build_event)
    log_in(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert version is not None
    same = {"version": version.group(1), "winner": "b", "end": "played", "cube": "1",
            "level": "single"}

    kept = client.post(
        f"/director/matches/{match_id}/games/2/edit", data=same, follow_redirects=True
    )
    changed = client.post(
        f"/director/matches/{match_id}/games/2/edit",
        data=same | {"level": "gammon"},
        follow_redirects=True,
    )

    assert "Game 2 was not changed: it already reads so." in text_of(kept.get_data(as_text=True))
    # Di's game 2 as a gammon scores 2: 4-0, 4-2, 4-4 after game 3, Ann 5-4 in game 4.
    assert "Game 2 corrected. Ann wins 5-4." in text_of(changed.get_data(as_text=True))


def test_clearing_a_match_without_a_result_says_nothing_was_cleared(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = semifinal_played(engine, build_event)
    log_in(client, built)
    with Session(engine) as session:
        ben_cy = flight_board(session, built.director.actor, built.flights["Main"])
    match_id = ben_cy.rounds[0].matches[1].id
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert version is not None

    cleared = client.post(
        f"/director/matches/{match_id}/clear",
        data={"version": version.group(1)},
        follow_redirects=True,
    )

    assert "The match had no games or result: nothing was cleared." in text_of(
        cleared.get_data(as_text=True)
    )
