"""The director's pages: events, flights, roster, entries, check-in, withdrawal, audit."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask.testing import FlaskClient

from tourney.formats.tiebreaks import TIEBREAKS
from tourney.store.queries import UserView


def _create_event(client: FlaskClient, name: str = "Club Night", **extra: str) -> str:
    response = client.post(
        "/director/events/new",
        data={"name": name, "crawford": "y", "starts_on": "2025-03-06", **extra},
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location


def _event_id(location: str) -> int:
    found = re.search(r"/events/(\d+)", location)
    assert found is not None
    return int(found.group(1))


def _add_player(client: FlaskClient, name: str, country: str = "") -> None:
    response = client.post("/director/players", data={"name": name, "country": country})
    assert response.status_code == 302, response.get_data(as_text=True)


def _player_ids(client: FlaskClient, event_id: int) -> dict[str, int]:
    page = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    return {
        name.split(" (")[0]: int(value)
        for value, name in re.findall(r'<option value="(\d+)">([^<]+)</option>', page)
    }


def test_event_create_edit_and_show(client: FlaskClient, login_as: Callable[..., UserView]) -> None:
    login_as("director")
    location = _create_event(client, venue_name="Café Brygga", is_public="y")
    event_id = _event_id(location)

    edit = client.post(
        f"/director/events/{event_id}/edit",
        data={"name": "Club Night XL", "crawford": "y", "holland": "y", "cube_limit": "6"},
    )
    page = client.get(location).get_data(as_text=True)

    assert edit.status_code == 302
    assert "Club Night XL" in page
    assert "Holland rule" in page and "Cube limit 64" in page


def test_event_form_shows_rule_errors_on_the_field(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    response = client.post("/director/events/new", data={"name": "X", "holland": "y"})

    assert response.status_code == 400
    assert "turn the Crawford rule on" in response.get_data(as_text=True)


def test_flights_added_with_round_lengths_and_feeding(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event_id(_create_event(client))

    main = client.post(
        f"/director/events/{event_id}/flights/new",
        data={
            "name": "Main",
            "format": "knockout",
            "match_length": "7",
            "round_lengths": "Final: 11, semis: 9",
            "draw_method": "random",
        },
    )
    form = client.get(f"/director/events/{event_id}/flights/new").get_data(as_text=True)
    main_id = re.search(r'<option value="(\d+)">Main</option>', form)
    assert main_id is not None
    consolation = client.post(
        f"/director/events/{event_id}/flights/new",
        data={
            "name": "Consolation",
            "format": "knockout",
            "match_length": "5",
            "feeds_from_id": main_id.group(1),
            "feed_rounds": "1, 2",
            "draw_method": "random",
        },
    )
    page = client.get(f"/director/events/{event_id}").get_data(as_text=True)

    assert (main.status_code, consolation.status_code) == (302, 302)
    assert "semifinal: 9, final: 11" in page
    assert "losers of Main" in page


def test_flight_form_reports_unparseable_round_lengths(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event_id(_create_event(client))

    response = client.post(
        f"/director/events/{event_id}/flights/new",
        data={"name": "Main", "format": "knockout", "match_length": "7", "round_lengths": "x"},
    )

    assert response.status_code == 400
    assert "is not like" in response.get_data(as_text=True)


def test_roster_entries_check_in_withdraw_reinstate(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event_id(_create_event(client))
    _add_player(client, "Ingrid Solheim", "no")
    ids = _player_ids(client, event_id)

    entered = client.post(
        f"/director/events/{event_id}/entries", data={"player_id": str(ids["Ingrid Solheim"])}
    )
    page = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    entry_id = int(re.findall(r'id="entry-(\d+)"', page)[0])
    checked = client.post(f"/director/entries/{entry_id}/check-in")
    withdrawn = client.post(f"/director/entries/{entry_id}/withdraw")
    after_withdraw = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    again = client.post(f"/director/entries/{entry_id}/withdraw")
    reinstated = client.post(f"/director/entries/{entry_id}/reinstate")

    assert [r.status_code for r in (entered, checked, withdrawn, reinstated)] == [302] * 4
    assert "Withdrawn" in after_withdraw and "Reinstate" in after_withdraw
    assert again.status_code == 400
    assert "This entry is not active." in again.get_data(as_text=True)


def test_entry_without_player_is_a_form_error(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event_id(_create_event(client))

    response = client.post(f"/director/events/{event_id}/entries", data={"player_id": ""})

    assert response.status_code == 400
    assert "Choose a player." in response.get_data(as_text=True)


def test_director_cannot_open_another_directors_event(
    client: FlaskClient, login_as: Callable[..., UserView], make_user: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event_id(_create_event(client))
    client.post("/logout")
    login_as("director")

    page = client.get(f"/director/events/{event_id}")
    edit = client.post(f"/director/events/{event_id}/edit", data={"name": "Taken over"})

    assert (page.status_code, edit.status_code) == (403, 403)
    assert "not a director of this event" in page.get_data(as_text=True)


def test_audit_log_lists_changes(client: FlaskClient, login_as: Callable[..., UserView]) -> None:
    user = login_as("director")
    event_id = _event_id(_create_event(client, name="Before"))
    client.post(f"/director/events/{event_id}/edit", data={"name": "After", "crawford": "y"})

    page = client.get(f"/director/events/{event_id}/audit").get_data(as_text=True)

    assert "event.update" in page and "event.create" in page
    assert f"{user.name} changed the event's details" in page.replace("&#39;", "'")
    assert "Before" in page and "After" in page


def test_missing_event_is_a_404_page(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    response = client.get("/director/events/987654")

    assert response.status_code == 404
    assert "No such event." in response.get_data(as_text=True)


def test_admin_adds_an_account(client: FlaskClient, login_as: Callable[..., UserView]) -> None:
    login_as("admin")
    password = "another long password"

    response = client.post(
        "/director/users",
        data={
            "name": "Scorer",
            "email": "scorer@example.org",
            "role": "scorer",
            "password": password,
            "confirm": password,
        },
    )

    assert response.status_code == 302
    assert "scorer@example.org" in client.get("/director/users").get_data(as_text=True)


def _event_with_main_flight(client: FlaskClient) -> tuple[int, int]:
    """A new event with a knockout of 5-point matches: the event's and the flight's ids."""
    event_id = _event_id(_create_event(client))
    client.post(
        f"/director/events/{event_id}/flights/new",
        data={"name": "Main", "format": "knockout", "match_length": "5", "draw_method": "random"},
    )
    page = client.get(f"/director/events/{event_id}").get_data(as_text=True)
    found = re.search(r'href="/director/flights/(\d+)"><strong>Main</strong>', page)
    assert found is not None
    return event_id, int(found.group(1))


def _edit_url(client: FlaskClient) -> str:
    """The edit page of the roster's first player."""
    roster = client.get("/director/players").get_data(as_text=True)
    found = re.search(r'href="(/director/players/\d+/edit)"', roster)
    assert found is not None
    return found.group(1)


def test_flight_edit_shows_the_settings_and_saves_new_lengths(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    _, flight_id = _event_with_main_flight(client)

    form = client.get(f"/director/flights/{flight_id}/edit").get_data(as_text=True)
    saved = client.post(
        f"/director/flights/{flight_id}/edit",
        data={
            "name": "Main",
            "format": "knockout",
            "match_length": "7",
            "round_lengths": "final: 11",
            "draw_method": "seeded",
        },
        follow_redirects=True,
    ).get_data(as_text=True)

    assert 'name="match_length" required type="number" value="5"' in form
    assert "Flight saved." in saved
    assert "7-point matches (final: 11)" in saved


def test_flight_edit_refuses_a_length_out_of_range_on_its_field(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id, flight_id = _event_with_main_flight(client)

    refused = client.post(
        f"/director/flights/{flight_id}/edit",
        data={"name": "Main", "format": "knockout", "match_length": "0", "draw_method": "random"},
    )
    page = client.get(f"/director/events/{event_id}").get_data(as_text=True)

    assert refused.status_code == 400
    help_text = re.search(
        r'<div id="match_length-help" class="help">(.*?)</div>',
        refused.get_data(as_text=True),
        re.S,
    )
    assert help_text is not None and "Number must be between 1 and 99." in help_text.group(1)
    assert "5-point matches" in page


def test_player_edit_shows_the_player_and_saves_the_correction(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    _add_player(client, "Ingrid Solhiem", "no")
    url = _edit_url(client)

    form = client.get(url).get_data(as_text=True)
    saved = client.post(
        url, data={"name": "Ingrid Solheim", "country": "NO", "rating": "1655"},
        follow_redirects=True,
    ).get_data(as_text=True)

    assert 'name="name" required type="text" value="Ingrid Solhiem"' in form
    assert "Player saved." in saved
    assert "<th scope=\"row\">Ingrid Solheim</th>" in saved and "Solhiem" not in saved
    assert '<td class="num">1655.0</td>' in saved


def test_player_edit_refuses_a_three_letter_country(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    _add_player(client, "Ingrid Solheim", "NO")

    refused = client.post(
        _edit_url(client), data={"name": "Ingrid Solheim", "country": "NOR"}
    )

    assert refused.status_code == 400
    assert "Field cannot be longer than 2 characters." in refused.get_data(as_text=True)


def test_club_added_from_the_roster_is_offered_to_players(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    added = client.post("/director/clubs", data={"club_name": "Fjordside BG"})
    roster = client.get("/director/players").get_data(as_text=True)

    assert added.status_code == 302
    assert "Club “Fjordside BG” added." in roster
    assert re.search(r'<option value="\d+">Fjordside BG</option>', roster)


def test_club_without_a_name_is_refused_on_the_roster_page(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")

    refused = client.post("/director/clubs", data={"club_name": "  "})

    assert refused.status_code == 400
    assert "Enter the club&#39;s name." in refused.get_data(as_text=True)
    assert "<h1>Players</h1>" in refused.get_data(as_text=True)


def test_check_in_taken_back_leaves_the_player_not_present(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event_id(_create_event(client))
    _add_player(client, "Ingrid Solheim")
    ids = _player_ids(client, event_id)
    client.post(f"/director/events/{event_id}/entries", data={"player_id": ids["Ingrid Solheim"]})
    page = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    entry_id = int(re.findall(r'id="entry-(\d+)"', page)[0])
    client.post(f"/director/entries/{entry_id}/check-in")

    undone = client.post(f"/director/entries/{entry_id}/undo-check-in", follow_redirects=True)

    text = undone.get_data(as_text=True)
    assert "Ingrid Solheim is no longer checked in." in text
    assert "<span>0 checked in</span>" in text
    assert "✓ Present" not in text
    assert f'action="/director/entries/{entry_id}/check-in"' in text


def test_flight_form_offers_the_registered_tiebreaks_and_the_event_shows_the_chain(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event_id(_create_event(client))

    form = client.get(f"/director/events/{event_id}/flights/new").get_data(as_text=True)
    saved = client.post(
        f"/director/events/{event_id}/flights/new",
        data={
            "name": "Swiss",
            "format": "swiss",
            "match_length": "5",
            "draw_method": "random",
            "tiebreak_1": "median_buchholz",
            "tiebreak_2": "head_to_head",
        },
    )
    page = client.get(f"/director/events/{event_id}").get_data(as_text=True)

    select = re.search(r'<select[^>]*name="tiebreak_1"[^>]*>(.*?)</select>', form, re.S)
    assert select is not None
    # The registry's order and headings, after the empty choice.
    assert re.findall(r'<option[^>]*value="(\w*)"[^>]*>([^<]+)</option>', select.group(1)) == [
        ("", "—"),
        *((t.key, t.title) for t in TIEBREAKS),
    ]
    assert saved.status_code == 302, saved.get_data(as_text=True)
    assert "tiebreaks: Median Buchholz, Head-to-head" in page


def test_adding_a_player_already_on_the_roster_warns_and_names_them(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    client.post("/director/players", data={"name": "Sean O'Brien"})

    warned = client.post("/director/players", data={"name": "O’Brien, Seán"})
    added = client.post("/director/players", data={"name": "O’Brien, Seán", "add_as_new": "y"})
    roster = client.get("/director/players").get_data(as_text=True)

    assert warned.status_code == 400
    text = warned.get_data(as_text=True)
    assert "Already on the roster: Sean O&#39;Brien." in text
    assert 'name="add_as_new"' in text
    assert added.status_code == 302
    assert roster.count("<th scope=\"row\">") == 2


def test_roster_search_ignores_accents_case_and_apostrophes(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    for name in ("Sean O'Brien", "Aoife O’Brien", "Zoë Martin", "Ben Olsen"):
        client.post("/director/players", data={"name": name})

    obrien = client.get("/director/players?q=obrien").get_data(as_text=True)
    zoe = client.get("/director/players?q=ZOE").get_data(as_text=True)

    assert re.findall(r'<th scope="row">([^<]+)</th>', obrien) == [
        "Aoife O’Brien",
        "Sean O&#39;Brien",
    ]
    assert re.findall(r'<th scope="row">([^<]+)</th>', zoe) == ["Zoë Martin"]
