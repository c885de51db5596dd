"""The director's draw, flight, match and dashboard pages, as a plain browser sees them."""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from tourney.store import audit, draws
from tourney.store.db import read_session, transaction
from tourney.store.tables import Match

if TYPE_CHECKING:
    from conftest import BuiltEvent

RECORD = Path(__file__).resolve().parents[1] / "data" / "web" / "gnubg_L03_s1037.mat"
PASSWORD = "correct horse battery staple"


def login(client: FlaskClient, built: BuiltEvent) -> None:
    response = client.post("/login", data={"email": built.director.email, "password": PASSWORD})
    assert response.status_code == 302


def drawn(
    engine: Engine, build_event: Callable[..., BuiltEvent], players: list[str], length: int = 3
) -> tuple[BuiltEvent, int]:
    built = build_event(players, [{"name": "Main", "format": "knockout", "match_length": length}])
    with transaction(engine) as session:
        draws.make_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"], method="seeded"
        )
        board = draws.publish_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"]
        )
    return built, next(m.id for m in board.rounds[0].matches if not m.is_bye)


def version_of(page: str) -> str:
    found = re.search(r'name="version" type="hidden" value="(\d+)"', page) or re.search(
        r'name="version" value="(\d+)"', page
    )
    assert found, "no version field on the page"
    return found.group(1)


def seen_version(client: FlaskClient, match_id: int) -> str:
    """The match's version as its page shows it: what a result form sends back."""
    return version_of(client.get(f"/director/matches/{match_id}").get_data(as_text=True))


def game(version: str, **values: Any) -> dict[str, Any]:
    data = {"version": version, "winner": "a", "end": "played", "cube": "1", "level": "single"}
    data.update(values)
    return data


def test_director_draws_and_publishes_from_the_flight_page(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Bob", "Cid", "Dee"], [{"name": "Main", "format": "knockout", "match_length": 5}]
    )
    login(client, built)
    flight = built.flights["Main"]

    drawn_page = client.post(
        f"/director/flights/{flight}/draw",
        data={"method": "random", "seed": "1234"},
        follow_redirects=True,
    )
    published = client.post(f"/director/flights/{flight}/publish", follow_redirects=True)

    text = drawn_page.get_data(as_text=True)
    assert drawn_page.status_code == 200
    assert "Drawn with seed 1234. Review the draw, then publish it." in text
    assert '<strong class="seed">1234</strong>' in text
    assert "Semifinal" in text and "Winner of Semifinal match 1" in text
    assert "Published: players can see it and results can be entered." in published.get_data(
        as_text=True
    )


def test_match_page_marks_the_crawford_game_and_locks_the_cube(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"])
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    # Ann wins a gammon on a 1-cube: 2-0 in a 3-point match, so game 2 is the Crawford game.
    after = client.post(
        f"/director/matches/{match_id}/games",
        data=game(version_of(page), level="gammon"),
        follow_redirects=True,
    ).get_data(as_text=True)

    assert "Saved. The score is 2-0." in after
    assert 'Game 2 <span class="badge badge-crawford">Crawford game</span>' in after
    assert '<option selected value="1">1 (no doubling)</option></select>' in after
    assert '<option value="2">' not in after.split('id="game-cube"')[1].split("</select>")[0]


def test_impossible_game_is_refused_with_the_rule(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"])
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    client.post(f"/director/matches/{match_id}/games", data=game(version_of(page), level="gammon"))
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    refused = client.post(
        f"/director/matches/{match_id}/games", data=game(version_of(page), cube="2")
    )

    assert refused.status_code == 400
    assert (
        "Game 2 is the Crawford game: no doubling is allowed, so the cube must stay at 1."
        in refused.get_data(as_text=True)
    )


def test_final_score_in_one_line_finishes_the_match(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"], length=7)
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    done = client.post(
        f"/director/matches/{match_id}/score",
        data={"version": version_of(page), "score": "7-4"},
        follow_redirects=True,
    ).get_data(as_text=True)

    assert "Saved. Ann wins 7-4." in done
    assert "(final score entered)" in done


def test_upload_page_fills_games_or_shows_findings(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["GnubgA", "GnubgB"])
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    bad = RECORD.read_bytes().replace(b"52: 13/8 24/22 ", b"52: 13/3 24/22 ", 1)

    refused = client.post(
        f"/director/matches/{match_id}/upload",
        data={"version": version_of(page), "record": (io.BytesIO(bad), "bad.mat")},
        content_type="multipart/form-data",
    )
    accepted = client.post(
        f"/director/matches/{match_id}/upload",
        data={"version": version_of(page), "record": (io.BytesIO(RECORD.read_bytes()), "m.mat")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )

    text = refused.get_data(as_text=True)
    assert refused.status_code == 400
    assert "The record was not used: nothing was saved to the match." in text
    assert '<td class="num">1</td><td class="num">9</td>' in text
    # By hand: 1-0, 2-0 (drops), 2-2 (gammon in the Crawford game), 4-2 (gammon).
    done = accepted.get_data(as_text=True)
    assert "Record read: 4 games entered. Saved. GnubgA wins 4-2." in done
    assert done.count('class="game game-crawford"') == 1


def test_second_save_of_the_same_match_gets_a_conflict_page(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"])
    login(client, built)
    seen = version_of(client.get(f"/director/matches/{match_id}").get_data(as_text=True))
    client.post(f"/director/matches/{match_id}/games", data=game(seen))

    second = client.post(f"/director/matches/{match_id}/games", data=game(seen, winner="b"))

    assert second.status_code == 409
    assert "Someone else saved this match first: it now stands at Ann 1, Bob 0." in second.get_data(
        as_text=True
    )


def test_cascade_is_refused_until_confirmed(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Bob", "Cid", "Dee"], [{"name": "Main", "format": "knockout", "match_length": 1}]
    )
    actor = built.director.actor
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=built.flights["Main"])
    login(client, built)
    # Seeded 4: Ann v Dee, Bob v Cid; a 1-point match is won 1-0.
    first, second = (m.id for m in board.rounds[0].matches)
    for match_id in (first, second):
        v = version_of(client.get(f"/director/matches/{match_id}").get_data(as_text=True))
        client.post(f"/director/matches/{match_id}/score", data={"version": v, "score": "1-0"})
    final = board.rounds[1].matches[0].id
    v = version_of(client.get(f"/director/matches/{final}").get_data(as_text=True))
    client.post(f"/director/matches/{final}/score", data={"version": v, "score": "1-0"})
    v = version_of(client.get(f"/director/matches/{first}").get_data(as_text=True))

    refused = client.post(f"/director/matches/{first}/score", data={"version": v, "score": "0-1"})
    confirmed = client.post(
        f"/director/matches/{first}/score",
        data={"version": v, "score": "0-1", "confirm_cascade": "y"},
        follow_redirects=True,
    )

    assert refused.status_code == 409
    assert "1 later match already depend on it: Final: Ann v Bob (1-0)." in refused.get_data(
        as_text=True
    )
    assert "Saved. Dee wins 0-1." in confirmed.get_data(as_text=True)


def test_dashboard_and_audit_filter_show_the_match(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob", "Cid"])
    login(client, built)
    v = version_of(client.get(f"/director/matches/{match_id}").get_data(as_text=True))
    client.post(f"/director/matches/{match_id}/games", data=game(v))

    dash = client.get(f"/director/events/{built.event_id}").get_data(as_text=True)
    audit = client.get(f"/director/events/{built.event_id}/audit?match={match_id}").get_data(
        as_text=True
    )

    # Three players: seed 1 has a bye into the final and waits for Bob or Cid.
    assert "<strong>0</strong> waiting" in dash and "<strong>1</strong> in play" in dash
    assert "Waiting for an opponent: Ann" in dash
    assert f"Audit log of match {match_id}" in audit
    assert "match.game_add" in audit and "flight.draw" not in audit


def test_names_are_escaped_on_flight_and_match_pages(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    evil = "<script>alert(1)</script>"
    built, match_id = drawn(engine, build_event, [evil, "Bjørn Ødegård"])
    login(client, built)

    flight = client.get(f"/director/flights/{built.flights['Main']}").get_data(as_text=True)
    match = client.get(f"/director/matches/{match_id}").get_data(as_text=True)

    for page in (flight, match):
        assert evil not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
        assert "Bjørn Ødegård" in page


def test_event_form_offers_the_variant(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [])
    login(client, built)

    saved = client.post(
        f"/director/events/{built.event_id}/edit",
        data={"name": "Club Night", "variant": "nackgammon", "crawford": "y"},
        follow_redirects=True,
    ).get_data(as_text=True)

    assert "<li>Nackgammon</li>" in saved


def test_table_form_moves_a_match_and_refuses_a_taken_table(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["A", "B", "C", "D"])
    login(client, built)
    flight_id = built.flights["Main"]
    page = client.get(f"/director/flights/{flight_id}").get_data(as_text=True)
    assert f'action="/director/matches/{match_id}/table"' in page

    moved = client.post(f"/director/matches/{match_id}/table", data={"table": "7"})
    refused = client.post(f"/director/matches/{match_id + 1}/table", data={"table": "7"})

    assert moved.status_code == 302
    assert refused.status_code == 400
    assert "Table 7 is in use by A v D (Main R1)" in refused.get_data(as_text=True)
    page = client.get(f"/director/flights/{flight_id}").get_data(as_text=True)
    assert 'name="table" value="7"' in page


def test_late_bye_form_places_a_player_or_says_why_not(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    from tourney.store import roster

    built, match_id = drawn(engine, build_event, ["A", "B", "C"])
    with transaction(engine) as session:
        player = roster.register_player(
            session, actor=built.director.actor, fields=roster.PlayerFields(name="Late")
        )
        late = roster.enter_player(
            session, actor=built.director.actor, event_id=built.event_id, player_id=player.id
        ).id
    login(client, built)
    flight_id = built.flights["Main"]
    page = client.get(f"/director/flights/{flight_id}").get_data(as_text=True)
    assert "Late entry into a bye" in page
    bye_id = int(re.findall(r'<option value="(\d+)">Semifinal match 1: bye of A', page)[0])

    wrong = client.post(
        f"/director/flights/{flight_id}/late-bye", data={"entry_id": late, "match_id": match_id}
    )
    placed = client.post(
        f"/director/flights/{flight_id}/late-bye", data={"entry_id": late, "match_id": bye_id}
    )

    assert wrong.status_code == 400
    assert placed.status_code == 302
    page = client.get(f"/director/flights/{flight_id}").get_data(as_text=True)
    assert "Late entry into a bye" not in page


def test_undo_takes_back_an_unpublished_draw_and_nothing_more(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Bob", "Cid", "Dee"], [{"name": "Main", "format": "knockout", "match_length": 5}]
    )
    login(client, built)
    flight = built.flights["Main"]
    client.post(f"/director/flights/{flight}/draw", data={"method": "seeded"})

    undone = client.post(f"/director/flights/{flight}/undo", follow_redirects=True)
    again = client.post(f"/director/flights/{flight}/undo")

    text = undone.get_data(as_text=True)
    assert "Draw undone." in text
    assert "Make the draw" in text and "Semifinal" not in text
    assert again.status_code == 400
    assert "There is no draw to undo." in again.get_data(as_text=True)


def swiss_round_one(
    engine: Engine, build_event: Callable[..., BuiltEvent], players: list[str]
) -> tuple[BuiltEvent, list[tuple[str, str]]]:
    """A Swiss of 1-point matches with round 1 published and won by every side a:
    (winner, loser) of each match."""
    from tourney.store import results

    built = build_event(
        players, [{"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 3}]
    )
    actor = built.director.actor
    flight = built.flights["Swiss"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=actor, flight_id=flight, method="seeded")
        board = draws.publish_draw(session, actor=actor, flight_id=flight)
    outcomes = []
    for m in board.rounds[0].matches:
        assert m.a is not None and m.b is not None
        with transaction(engine) as session:
            results.record_final_score(session, actor=actor, match_id=m.id, score_a=1, score_b=0)
        outcomes.append((m.a.name, m.b.name))
    return built, outcomes


def swiss_rounds(engine: Engine, built: BuiltEvent) -> dict[int, tuple[int, set[frozenset[str]]]]:
    """The Swiss's rounds by number: the round's id and who plays whom in it."""
    from tourney.store import tournament_views
    from tourney.store.db import read_session

    with read_session(engine) as session:
        board = tournament_views.flight_board(
            session, built.director.actor, built.flights["Swiss"]
        )
    return {
        r.number: (r.id, {frozenset(p.name for p in (m.a, m.b) if p) for m in r.matches})
        for r in board.rounds
    }


def test_next_swiss_round_pairs_winners_with_winners(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, outcomes = swiss_round_one(engine, build_event, ["Ann", "Bob", "Cid", "Dee"])
    login(client, built)
    flight = built.flights["Swiss"]

    paired = client.post(f"/director/flights/{flight}/pair-next", follow_redirects=True)

    # Both 1-0 players meet, and both 0-1 players: never a rematch, records equal.
    winners = frozenset(w for w, _ in outcomes)
    losers = frozenset(loser for _, loser in outcomes)
    assert "Next round paired. Review it, then publish it." in paired.get_data(as_text=True)
    assert swiss_rounds(engine, built)[2][1] == {winners, losers}


def test_next_swiss_round_waits_for_every_result(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Bob", "Cid", "Dee"],
        [{"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 3}],
    )
    flight = built.flights["Swiss"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=built.director.actor, flight_id=flight, method="seeded")
        draws.publish_draw(session, actor=built.director.actor, flight_id=flight)
    login(client, built)

    refused = client.post(f"/director/flights/{flight}/pair-next")

    assert refused.status_code == 400
    assert "Round 1 is not finished: enter every result (or publish it) first." in (
        refused.get_data(as_text=True)
    )


def test_round_paired_again_keeps_the_records_and_only_the_newest_round(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, outcomes = swiss_round_one(engine, build_event, ["Ann", "Bob", "Cid", "Dee"])
    login(client, built)
    client.post(f"/director/flights/{built.flights['Swiss']}/pair-next")
    rounds = swiss_rounds(engine, built)
    page = client.get(f"/director/flights/{built.flights['Swiss']}").get_data(as_text=True)

    repaired = client.post(f"/director/rounds/{rounds[2][0]}/repair", follow_redirects=True)
    refused = client.post(f"/director/rounds/{rounds[1][0]}/repair")

    winners = frozenset(w for w, _ in outcomes)
    losers = frozenset(loser for _, loser in outcomes)
    assert re.findall(r'action="/director/rounds/(\d+)/repair"', page) == [str(rounds[2][0])]
    assert "Round paired again from the current records." in repaired.get_data(as_text=True)
    assert swiss_rounds(engine, built)[2][1] == {winners, losers}
    assert refused.status_code == 400
    assert "Round 2 is paired already: only the newest round can be paired again." in (
        refused.get_data(as_text=True)
    )


def test_late_entry_joins_the_swiss_with_the_record_given(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    from tourney.store import roster

    built, _ = swiss_round_one(engine, build_event, ["Ann", "Bob", "Cid", "Dee"])
    with transaction(engine) as session:
        player = roster.register_player(
            session, actor=built.director.actor, fields=roster.PlayerFields(name="Eve")
        )
        late = roster.enter_player(
            session, actor=built.director.actor, event_id=built.event_id, player_id=player.id
        ).id
    login(client, built)
    flight = built.flights["Swiss"]

    refused = client.post(
        f"/director/flights/{flight}/late-entry", data={"entry_id": late, "wins": "-1"}
    )
    added = client.post(
        f"/director/flights/{flight}/late-entry",
        data={"entry_id": late, "wins": "1", "losses": "0"},
        follow_redirects=True,
    )

    assert refused.status_code == 400
    assert "Number must be between 0 and 30." in refused.get_data(as_text=True)
    text = added.get_data(as_text=True)
    assert "Late entry added: paired from the next round." in text
    assert "<span>5 players</span>" in text
    eve = re.search(r"<th scope=\"row\">Eve</th>\s*<td class=\"num\">(\d+)</td>\s*"
                    r"<td class=\"num\">(\d+)</td>", text)
    assert eve is not None and eve.groups() == ("1", "0")


def test_game_corrected_rescores_the_match(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"], length=5)
    login(client, built)
    v = seen_version(client, match_id)
    client.post(f"/director/matches/{match_id}/games", data=game(v))

    corrected = client.post(
        f"/director/matches/{match_id}/games/1/edit",
        data=game(seen_version(client, match_id), winner="b", level="gammon", cube="2"),
        follow_redirects=True,
    ).get_data(as_text=True)

    # Bob's gammon on a 2-cube scores 2 x 2 = 4 points: 0-4 in a 5-point match.
    assert "Game 1 corrected. The score is 0-4." in corrected
    assert '<td class="score">0-4</td>' in corrected


def test_game_deleted_moves_later_games_up(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"], length=5)
    login(client, built)
    v = seen_version(client, match_id)
    client.post(f"/director/matches/{match_id}/games", data=game(v))
    v = seen_version(client, match_id)
    client.post(f"/director/matches/{match_id}/games", data=game(v, winner="b", level="gammon"))

    deleted = client.post(
        f"/director/matches/{match_id}/games/1/delete",
        data={"version": seen_version(client, match_id)},
        follow_redirects=True,
    ).get_data(as_text=True)

    # Only Bob's gammon is left, now game 1: 0-2.
    assert "Game 1 deleted; the games after it moved up. The score is 0-2." in deleted
    assert deleted.count('<tr class="game game-') == 1
    assert f'action="/director/matches/{match_id}/games/2/edit"' not in deleted


def test_walkover_puts_the_chosen_player_through(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"])
    login(client, built)
    v = seen_version(client, match_id)

    given = client.post(
        f"/director/matches/{match_id}/walkover",
        data={"version": v, "winner": "b"},
        follow_redirects=True,
    ).get_data(as_text=True)

    assert "Saved. Bob goes through by walkover." in given
    assert "Walkover to <strong>Bob</strong>." in given


def test_cleared_result_opens_the_match_again(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"], length=7)
    login(client, built)
    v = seen_version(client, match_id)
    client.post(f"/director/matches/{match_id}/score", data={"version": v, "score": "7-4"})

    cleared = client.post(
        f"/director/matches/{match_id}/clear",
        data={"version": seen_version(client, match_id)},
        follow_redirects=True,
    ).get_data(as_text=True)

    assert "Result cleared." in cleared
    assert "wins 7-4" not in cleared
    assert f'action="/director/matches/{match_id}/games"' in cleared
    assert '<span class="badge badge-ready">Ready to play</span>' in cleared


def test_garbled_version_is_refused_and_the_finished_result_stays(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = drawn(engine, build_event, ["Ann", "Bob"], length=7)
    login(client, built)
    page = client.get(f"/director/matches/{match_id}").get_data(as_text=True)
    client.post(
        f"/director/matches/{match_id}/score", data={"version": version_of(page), "score": "7-4"}
    )

    garbled = [
        client.post(f"/director/matches/{match_id}/score", data={"version": v, "score": "2-7"})
        for v in ("x", "", "²", "1" * 40)
    ]

    assert [r.status_code for r in garbled] == [400, 400, 400, 400]
    with read_session(engine) as session:
        stored = session.get(Match, match_id)
        assert stored is not None
        assert (stored.score_a, stored.score_b) == (7, 4)


def test_finished_event_stops_running_and_archived_one_leaves_the_index(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = drawn(engine, build_event, ["Ann", "Bob"])
    login(client, built)
    running = client.get(f"/director/events/{built.event_id}").get_data(as_text=True)

    finished = client.post(
        f"/director/events/{built.event_id}/finish", follow_redirects=True
    ).get_data(as_text=True)
    client.post(f"/director/events/{built.event_id}/archive")
    archived = client.get(f"/director/events/{built.event_id}").get_data(as_text=True)
    reopened = client.post(
        f"/director/events/{built.event_id}/reopen", follow_redirects=True
    ).get_data(as_text=True)

    assert event_status(running) == "Running"
    assert "Event finished." in finished
    assert event_status(finished) == "Finished"
    assert event_status(archived) == "Archived"
    assert "Event reopened." in reopened and event_status(reopened) == "Running"


def event_status(page: str) -> str:
    """The status badge under the event's name on its dashboard."""
    found = re.search(r'<p class="meta">\s*<span class="badge [^"]*">([^<]+)</span>', page)
    assert found is not None
    return found.group(1)


def test_archived_event_leaves_the_public_index_but_keeps_its_page(
    client: FlaskClient, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Bob"], [], is_public=True)
    login(client, built)

    client.post(f"/director/events/{built.event_id}/finish")
    listed_while_finished = client.get("/").get_data(as_text=True)
    client.post(f"/director/events/{built.event_id}/archive")
    listed_once_archived = client.get("/").get_data(as_text=True)
    page = client.get("/events/club-night")

    assert "Club Night" in listed_while_finished
    assert "Club Night" not in listed_once_archived
    assert page.status_code == 200


def _audit_text(client: FlaskClient, event_id: int, query: str = "") -> str:
    """The audit log page's text, tags dropped and white space folded."""
    page = client.get(f"/director/events/{event_id}/audit{query}").get_data(as_text=True)
    text = re.sub(r"<[^>]+>", " ", html.unescape(page))
    return re.sub(r"\s+", " ", text)


def test_audit_log_reads_as_sentences_filtered_by_kind_player_and_match(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = drawn(engine, build_event, ["Ann", "Bob", "Cid", "Dee"])
    login(client, built)
    # Seeded 4: Ann v Dee and Bob v Cid in the semifinals, 3-point matches.
    with read_session(engine) as session:
        in_play_order = select(Match.id).order_by(Match.round_id, Match.position)
        first, second = session.exec(in_play_order.limit(2)).all()
    v = seen_version(client, first)
    client.post(
        f"/director/matches/{first}/games",
        data=game(v, winner="b", level="gammon", cube="2"),
    )
    v = seen_version(client, second)
    client.post(f"/director/matches/{second}/games", data=game(v))
    dee = built.entries["Dee"]
    name = built.director.name

    everything = _audit_text(client, built.event_id)
    draws_only = _audit_text(client, built.event_id, "?kind=draws")
    dees = _audit_text(client, built.event_id, f"?player={dee}")

    # Dee wins a gammon on a 2-cube: 4 points, and with them the 3-point match.
    assert (
        f"{name} entered game 1 of Semifinal match 1: Dee wins a gammon, cube 2, 0-4"
        in everything
    )
    assert f"{name} entered game 1 of Semifinal match 2: Bob wins a single game, cube 1, 1-0" in (
        everything
    )
    assert f"{name} made the draw of Main" in draws_only and "entered game" not in draws_only
    assert "Dee wins a gammon" in dees and "Bob wins" not in dees


def test_audit_log_pages_by_fifty_and_a_match_shows_the_cascade_that_cleared_it(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, _ = drawn(engine, build_event, ["Ann", "Bob", "Cid", "Dee"], length=1)
    login(client, built)
    with read_session(engine) as session:
        in_play_order = select(Match.id).order_by(Match.round_id, Match.position)
        first, second, final = session.exec(in_play_order).all()
    for match_id in (first, second, final):
        v = seen_version(client, match_id)
        client.post(f"/director/matches/{match_id}/score", data={"version": v, "score": "1-0"})
    v = seen_version(client, first)
    client.post(
        f"/director/matches/{first}/score",
        data={"version": v, "score": "0-1", "confirm_cascade": "y"},
    )
    with transaction(engine) as session:
        for n in range(60):
            audit.record(
                session,
                actor=built.director.actor,
                action="event.update",
                entity_type="event",
                entity_id=built.event_id,
                event_id=built.event_id,
                after={"notes": f"note {n}"},
            )

    newest = _audit_text(client, built.event_id)
    older = _audit_text(client, built.event_id, "?page=2")
    final_page = client.get(f"/director/matches/{final}").get_data(as_text=True)

    # 60 changes; the event, its flight and 4 entries created; the draw made and
    # published; 4 results: 72 entries, 50 on the first page.
    assert "72 entries · page 1 of 2" in newest
    assert newest.count("changed the event's details") == 50
    assert older.count("changed the event's details") == 10
    assert "this cleared the result of Final match 1" in older
    assert "this cleared the result of Final match 1" in re.sub(r"\s+", " ", final_page)
    assert "entered the final score of Final match 1: 1-0" in re.sub(
        r"\s+", " ", final_page
    )
