"""A director sets a variant's options on the event form, and every match page follows them.

Long nardy scores oin 1, mars 2 and koks 2 (3 where the event scores it), times the cube;
hypergammon scores every game single unless the event counts gammons. The expected scores
below are worked out by hand from those rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.rules.variants import VariantOptions
from tourney.store import draws, events
from tourney.store.db import transaction
from tourney.store.queries import UserView

if TYPE_CHECKING:
    from conftest import BuiltEvent

PASSWORD = "correct horse battery staple"
NARDY = {"variant": "long-nardy", "nardy_cube": "y", "nardy_crawford": "y", "nardy_koks": "y"}


def login(client: FlaskClient, built: BuiltEvent) -> None:
    response = client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302


def version_of(page: str) -> str:
    found = re.search(r'name="version" type="hidden" value="(\d+)"', page)
    assert found, "no version field on the page"
    return found.group(1)


def game(version: str, **values: Any) -> dict[str, Any]:
    data = {"version": version, "winner": "a", "end": "played", "cube": "1", "level": "single"}
    data.update(values)
    return data


def select_options(page: str, name: str) -> list[tuple[str, str]]:
    """The (value, label) options of the game form's select ``name``."""
    found = re.search(rf'<select[^>]* id="game-{name}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"no select {name}"
    return re.findall(r'<option(?: selected)? value="([^"]*)"(?: selected)?>([^<]*)</option>',
                      found.group(1))


def one_match(
    engine: Engine, build_event: Callable[..., BuiltEvent], length: int, **event_fields: Any
) -> tuple[BuiltEvent, int]:
    built = build_event(
        ["Ann", "Bob"],
        [{"name": "Main", "format": "knockout", "match_length": length}],
        is_public=True,
        slug="the-event",
        **event_fields,
    )
    with transaction(engine) as session:
        flight = built.flights["Main"]
        draws.make_draw(session, actor=built.director.actor, flight_id=flight, method="seeded")
        board = draws.publish_draw(session, actor=built.director.actor, flight_id=flight)
    return built, next(m.id for m in board.rounds[0].matches if not m.is_bye)


def add_game(client: FlaskClient, match_id: int, **values: Any) -> str:
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    response = client.post(
        f"/director/matches/{match_id}/games",
        data=game(version_of(page), **values),
        follow_redirects=True,
    )
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


# --- the event form ------------------------------------------------------------------


def test_long_nardy_event_with_cube_crawford_and_koks_is_created_and_shown(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    created = client.post("/director/events/new", data={"name": "Nardy Night", **NARDY})
    page = client.get(created.location).get_data(as_text=True)

    assert created.status_code == 302
    assert '<p class="variant-summary"><strong>Long nardy · cube on, Crawford · koks scores 3' \
           "</strong></p>" in page
    assert (
        "<li>Long nardy</li><li>Doubling cube</li><li>Crawford rule</li><li>Koks scores 3</li>"
        "<li>Winner opens the next game</li>" in page
    )


def test_edit_form_shows_the_stored_options(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    created = client.post(
        "/director/events/new",
        data={"name": "Nardy Night", **NARDY, "nardy_next_game_starter": "alternate"},
    )

    form = client.get(created.location + "/edit").get_data(as_text=True)

    assert re.search(r"<input[^>]* checked id=\"nardy_koks\"", form)
    assert not re.search(r"<input[^>]* checked id=\"nardy_strict_block\"", form)
    assert '<option selected value="alternate">The players take turns</option>' in form


def test_crawford_without_the_cube_is_refused_on_its_field(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    refused = client.post(
        "/director/events/new",
        data={"name": "Nardy Night", "variant": "long-nardy", "nardy_crawford": "y"},
    )
    page = refused.get_data(as_text=True)

    assert refused.status_code == 400
    help_text = re.search(r'<div id="nardy_crawford-help" class="help">(.*?)</div>', page, re.S)
    assert help_text is not None
    assert (
        '<p class="error">The Crawford rule is about doubling: turn the doubling cube on too, '
        "or leave the Crawford rule off.</p>" in help_text.group(1)
    )


def test_options_of_another_variant_are_ignored(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    created = client.post(
        "/director/events/new",
        data={"name": "Plain", "variant": "standard", "crawford": "y", "nardy_koks": "y",
              "hyper_gammons": "y"},
    )
    page = client.get(created.location).get_data(as_text=True)

    assert re.search(r'<ul class="tags" aria-label="Rules">\s*<li>Crawford rule</li>\s*</ul>', page)
    assert "variant-summary" not in page


def test_options_change_that_would_rescore_a_match_is_refused_with_the_reason(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(
        engine, build_event, 7, variant="long-nardy",
        variant_options=VariantOptions(cube=True, koks=True),
    )
    login(client, built)
    add_game(client, match_id, cube="2", level="single")

    refused = client.post(
        f"/director/events/{built.event_id}/edit",
        data={"name": "Club Night", "slug": "the-event", "is_public": "y",
              "variant": "long-nardy", "nardy_koks": "y"},
    )

    assert refused.status_code == 400
    assert (
        "Main round 1 match 1 (Ann – Bob): This long nardy event is played without the "
        "doubling cube, so in game 1 the cube must stay at 1." in refused.get_data(as_text=True)
    )
    assert "<li>Doubling cube</li>" in client.get(
        f"/director/events/{built.event_id}").get_data(as_text=True)


# --- games under the options ---------------------------------------------------------


def test_koks_on_a_two_cube_scores_six(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(
        engine, build_event, 7, variant="long-nardy",
        variant_options=VariantOptions(cube=True, crawford=True, koks=True),
    )
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    after = add_game(client, match_id, cube="2", level="backgammon")

    assert select_options(page, "level") == [
        ("single", "Oin"), ("gammon", "Mars"), ("backgammon", "Koks"), ("", "— (dropped)")]
    # Koks 3 x cube 2 = 6.
    assert "Saved. The score is 6-0." in after
    assert "<td>koks</td>" in after


def test_mars_scores_two_and_koks_is_not_offered_without_the_koks_option(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(
        engine, build_event, 7, variant="long-nardy", variant_options=VariantOptions(cube=True)
    )
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    after = add_game(client, match_id, level="gammon")

    assert select_options(page, "level") == [
        ("single", "Oin"), ("gammon", "Mars"), ("", "— (dropped)")]
    assert "Saved. The score is 2-0." in after


def test_long_nardy_without_the_cube_offers_no_drop_and_no_cube(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(engine, build_event, 5, variant="long-nardy")
    login(client, built)

    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    assert select_options(page, "end") == [("played", "Played out"), ("resigned", "Resigned")]
    assert select_options(page, "level") == [("single", "Oin"), ("gammon", "Mars")]
    assert select_options(page, "cube") == [("1", "1 (no doubling)")]


def test_hypergammon_without_gammons_offers_single_only(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(engine, build_event, 5, variant="hypergammon")
    login(client, built)

    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    assert select_options(page, "level") == [("single", "Single"), ("", "— (dropped)")]
    assert "<li>No gammons: every game scores single</li>" in page


def test_hypergammon_with_gammons_scores_a_gammon_double(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(
        engine, build_event, 5, variant="hypergammon", variant_options=VariantOptions(gammons=True)
    )
    login(client, built)

    after = add_game(client, match_id, level="gammon")

    assert "Saved. The score is 2-0." in after


def test_options_are_shown_on_the_public_pages(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, match_id = one_match(
        engine, build_event, 5, variant="long-nardy",
        variant_options=VariantOptions(koks=True, last_roll_draw=True),
    )

    home = client.get("/events/the-event").get_data(as_text=True)
    match = client.get(f"/events/the-event/matches/{match_id}").get_data(as_text=True)

    assert (
        '<p class="variant-summary"><strong>Long nardy · no cube · koks scores 3 · '
        "last-roll draw</strong></p>" in home
    )
    assert "<li>Koks scores 3</li><li>Last-roll draw</li>" in match


# --- drawn games ---------------------------------------------------------------------


def test_drawn_game_is_offered_entered_and_shown(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(
        engine, build_event, 3, variant="long-nardy",
        variant_options=VariantOptions(last_roll_draw=True),
    )
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    drawn = add_game(client, match_id, end="drawn", level="")
    after = add_game(client, match_id, winner="b", level="gammon")
    public = client.get(f"/events/the-event/matches/{match_id}").get_data(as_text=True)

    assert select_options(page, "end") == [
        ("played", "Played out"), ("resigned", "Resigned"), ("drawn", "Drawn (last roll)")]
    assert "Saved. The score is 0-0." in drawn
    assert "Saved. The score is 0-2." in after
    assert re.search(
        r"<td>Drawn</td>\s*<td>Drawn \(last roll\)</td>\s*<td class=\"num\">1</td>\s*"
        r"<td class=\"num\">0</td>\s*<td class=\"num score\">0-0</td>", public)


def test_drawn_game_is_refused_without_the_option(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(engine, build_event, 3, variant="long-nardy")
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    refused = client.post(
        f"/director/matches/{match_id}/games", data=game(version_of(page), end="drawn")
    )

    assert refused.status_code == 400
    assert (
        "Game 1 cannot be a draw: only an event with the last-roll rule has drawn games, "
        "and this long nardy event does not use it." in refused.get_data(as_text=True)
    )


def test_api_event_object_carries_the_variant_and_its_options(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = one_match(
        engine, build_event, 5, variant="long-nardy",
        variant_options=VariantOptions(cube=True, crawford=True, koks=True),
    )

    body = client.get(f"/api/v1/events/{built.event_id}").get_json()

    assert (body["variant"], body["variant_summary"]) == (
        "long-nardy", "Long nardy · cube on, Crawford · koks scores 3")
    assert body["variant_options"] == {
        "gammons": True, "cube": True, "crawford": True, "koks": True,
        "last_roll_draw": False, "strict_block": False, "next_game_starter": "winner",
        "five_checker_limit": False, "no_hit_and_run_at_home": False,
        "opening_higher_total": False,
    }
    assert body["rules"]["crawford"] is True


def test_api_records_a_drawn_game(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = one_match(
        engine, build_event, 3, variant="long-nardy",
        variant_options=VariantOptions(last_roll_draw=True),
    )
    login(client, built)

    answer = client.post(f"/api/v1/matches/{match_id}/games", json={"end": "drawn"})
    body = answer.get_json()

    assert answer.status_code == 201, body
    assert [(g["winner"], g["end"], g["points"], g["score_after"]) for g in body["games"]] == [
        (None, "drawn", 0, "0-0")]


def test_service_fields_keep_event_rules_for_standard(engine: Engine,
                                                      make_user: Callable[..., UserView]) -> None:
    director = make_user("director")

    with transaction(engine) as session:
        detail = events.create_event(
            session, actor=director.actor,
            fields=events.EventFields(name="Plain", crawford=False),
        )

    assert (detail.crawford, detail.variant_summary, detail.rules_summary) == (
        False, "Backgammon", ("No Crawford rule",))
