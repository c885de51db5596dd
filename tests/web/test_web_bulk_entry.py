"""The entries page: roster players ticked or pasted and entered at once, seeds changed in
the list, and long lists a page at a time with a search."""

from __future__ import annotations

import re
from collections.abc import Callable

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import bulk_entry, roster
from tourney.store.db import transaction
from tourney.store.queries import UserView


def _event(client: FlaskClient) -> int:
    response = client.post("/director/events/new", data={"name": "Club Night", "crawford": "y"})
    assert response.status_code == 302, response.get_data(as_text=True)
    found = re.search(r"/events/(\d+)", response.location)
    assert found is not None
    return int(found.group(1))


def _players(client: FlaskClient, *names: str) -> None:
    for name in names:
        response = client.post("/director/players", data={"name": name, "add_as_new": "y"})
        assert response.status_code == 302, response.get_data(as_text=True)


def _ticks(page: str) -> dict[str, int]:
    """The roster players offered for ticking, by name."""
    return {
        name.strip(): int(value)
        for value, name in re.findall(
            r'name="player_ids" value="(\d+)">\s*([^<]+?)\s*(?:<|$)', page
        )
    }


def _entry_rows(page: str) -> list[str]:
    return re.findall(r'<th scope="row">([^<]+?)\s*(?:<|$)', page.split('class="list entries"')[1])


def test_ticked_roster_players_are_entered_at_once(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event(client)
    _players(client, "Ann Aas", "Bo Berg", "Cy Dahl")
    offered = _ticks(client.get(f"/director/events/{event_id}/entries").get_data(as_text=True))

    response = client.post(
        f"/director/events/{event_id}/entries/bulk",
        data={"player_ids": [offered["Ann Aas"], offered["Cy Dahl"]]},
        follow_redirects=True,
    )

    page = response.get_data(as_text=True)
    assert "2 players entered: Ann Aas, Cy Dahl." in page
    assert _entry_rows(page) == ["Ann Aas", "Cy Dahl"]
    assert list(_ticks(page)) == ["Bo Berg"]


def test_enter_selected_with_nothing_ticked_says_so(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event(client)
    _players(client, "Ann Aas")

    response = client.post(f"/director/events/{event_id}/entries/bulk", data={})

    assert response.status_code == 400
    assert "Tick at least one player to enter." in response.get_data(as_text=True)


def test_a_pasted_list_enters_the_players_it_names(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event(client)
    _players(client, "Zoë O’Brien", "Bjørn Lie", "Cy Dahl")

    response = client.post(
        f"/director/events/{event_id}/entries/paste",
        data={"names": "obrien zoe\r\nBJØRN LIE\r\n"},
        follow_redirects=True,
    )

    page = response.get_data(as_text=True)
    assert "2 players entered: Zoë O’Brien, Bjørn Lie." in page
    assert _entry_rows(page) == ["Bjørn Lie", "Zoë O’Brien"]


def test_a_pasted_list_with_unknown_or_ambiguous_lines_enters_nobody_and_lists_them(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event(client)
    _players(client, "Kim Park", "Kim Park", "Cy Dahl")

    response = client.post(
        f"/director/events/{event_id}/entries/paste",
        data={"names": "Cy Dahl\nkim park\nNobody Here"},
    )

    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Nobody was entered: 2 of 3 lines" in page
    rows = re.findall(
        r'<td class="num">(\d+)</td><th scope="row">([^<]+)</th><td>([^<]+)</td>', page
    )
    assert rows == [
        ("2", "kim park", "2 roster players have this name: Kim Park; Kim Park."),
        ("3", "Nobody Here", "No roster player has this name."),
    ]
    # The list is kept to be corrected.
    assert "Nobody Here</textarea>" in page
    assert "Nobody entered yet." in page


def test_a_seed_is_changed_in_the_list(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event(client)
    _players(client, "Ann Aas", "Bo Berg")
    offered = _ticks(client.get(f"/director/events/{event_id}/entries").get_data(as_text=True))
    client.post(
        f"/director/events/{event_id}/entries/bulk", data={"player_ids": list(offered.values())}
    )
    page = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    bo = int(re.findall(r'action="/director/entries/(\d+)/seed"', page)[1])

    response = client.post(
        f"/director/entries/{bo}/seed", data={"seed": "1"}, follow_redirects=True
    )

    page = response.get_data(as_text=True)
    assert "Bo Berg now has seed 1." in page
    assert _entry_rows(page) == ["Bo Berg", "Ann Aas"]
    assert re.search(r'value="1"\s+aria-label="Seed: Bo Berg"', page)


def test_a_seed_another_entry_holds_is_refused_with_the_reason(
    client: FlaskClient, login_as: Callable[..., UserView]
) -> None:
    login_as("director")
    event_id = _event(client)
    _players(client, "Ann Aas", "Bo Berg")
    offered = _ticks(client.get(f"/director/events/{event_id}/entries").get_data(as_text=True))
    client.post(
        f"/director/events/{event_id}/entries/bulk", data={"player_ids": list(offered.values())}
    )
    page = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    ann, bo = (int(i) for i in re.findall(r'action="/director/entries/(\d+)/seed"', page))
    client.post(f"/director/entries/{ann}/seed", data={"seed": "1"})

    response = client.post(f"/director/entries/{bo}/seed", data={"seed": "1"})

    assert response.status_code == 400
    refused = "was not given seed 1: seed 1 is Ann Aas’s. Change or clear that seed first."
    assert refused in response.get_data(as_text=True)


def test_a_long_entries_list_comes_in_pages_with_a_search(
    client: FlaskClient, login_as: Callable[..., UserView], engine: Engine
) -> None:
    director = login_as("director")
    event_id = _event(client)
    with transaction(engine) as session:
        ids = [
            roster.register_player(
                session, actor=director.actor, fields=roster.PlayerFields(name=f"Player {n:03d}")
            ).id
            for n in range(1, 131)
        ]
        bulk_entry.enter_players(session, actor=director.actor, event_id=event_id, player_ids=ids)

    first = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    second = client.get(f"/director/events/{event_id}/entries?page=2").get_data(as_text=True)
    found = client.get(f"/director/events/{event_id}/entries?q=player+12").get_data(as_text=True)

    assert "Entries 1–100 of 130" in first
    assert len(_entry_rows(first)) == 100
    assert f'href="/director/events/{event_id}/entries?page=2"' in first
    assert "Entries 101–130 of 130" in second
    assert _entry_rows(second)[0] == "Player 101"
    assert _entry_rows(found) == [f"Player {n}" for n in range(120, 130)]


def _player_options(page: str) -> list[str]:
    """The names the single "Player" list offers (its first option only asks to choose)."""
    select = page.split('name="player_id"')[1].split("</select>")[0]
    return re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', select)


def test_a_long_roster_offers_its_first_200_in_the_player_list_and_still_enters_any(
    client: FlaskClient, login_as: Callable[..., UserView], engine: Engine
) -> None:
    director = login_as("director")
    event_id = _event(client)
    with transaction(engine) as session:
        ids = {
            n: roster.register_player(
                session, actor=director.actor, fields=roster.PlayerFields(name=f"Player {n:03d}")
            ).id
            for n in range(1, 251)
        }

    page = client.get(f"/director/events/{event_id}/entries").get_data(as_text=True)
    entered = client.post(
        f"/director/events/{event_id}/entries",
        data={"player_id": ids[240]},
        follow_redirects=True,
    ).get_data(as_text=True)

    assert _player_options(page) == [f"Player {n:03d}" for n in range(1, 201)]
    assert "The first 200 players not entered, by name" in page
    assert "Player 240 entered." in entered
