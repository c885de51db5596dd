"""The JSON API: DESIGN §5 shapes, writes through the same services, auth, roles, conflicts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine

from tourney.store import access, draws
from tourney.store.db import transaction
from tourney.store.queries import UserView

if TYPE_CHECKING:
    from conftest import BuiltEvent, Demo

RECORD = Path(__file__).resolve().parents[1] / "data" / "web" / "gnubg_L03_s1037.mat"


def _token(engine: Engine, user: UserView) -> dict[str, str]:
    with transaction(engine) as session:
        _, secret = access.create_api_token(session, actor=user.actor, name="test")
    return {"Authorization": f"Bearer {secret}"}


def _drawn(engine: Engine, build_event: Callable[..., BuiltEvent]) -> tuple[BuiltEvent, int]:
    built = build_event(
        ["GnubgA", "GnubgB"],
        [{"name": "Main", "format": "knockout", "match_length": 3}],
        is_public=True,
    )
    with transaction(engine) as session:
        draws.make_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"], method="seeded"
        )
        board = draws.publish_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"]
        )
    return built, board.rounds[0].matches[0].id


def test_events_standings_and_pairings_keep_the_contract_shapes(
    client: FlaskClient, demo: Demo
) -> None:
    swiss = demo.events["monday-swiss"]

    listed = client.get("/api/v1/events").get_json()
    standings = client.get(f"/api/v1/events/{swiss}/standings").get_json()
    pairings = client.get(f"/api/v1/events/{swiss}/pairings").get_json()

    assert {"id", "slug", "name"} <= set(listed[0])
    assert [e["slug"] for e in listed] == [
        "tuesday-long-nardy",
        "monday-swiss",
        "fjordside-spring-open",
        "thursday-club-night",
    ]
    assert [f["name"] for f in standings["flights"]] == ["Swiss"]
    top = standings["flights"][0]["standings"][0]
    assert (top["display_rank"], top["player"]["name"], top["wins"], top["losses"]) == (
        "1",
        "Åsa Lindqvist",
        2,
        0,
    )
    assert [t["name"] for t in top["tiebreaks"]] == ["Buchholz", "net game points"]
    tied = [r["display_rank"] for r in standings["flights"][0]["standings"] if r["tied"]]
    # Round 3 is published but unplayed, so its bye is no win yet: the 1-1 pair shares 6th.
    assert tied == ["=6", "=6"]
    rounds = pairings["flights"][0]["rounds"]
    assert [r["number"] for r in rounds] == [1, 2, 3]
    assert rounds[0]["matches"][0]["table"] == "1"


def test_match_with_games_marks_the_crawford_game(client: FlaskClient, demo: Demo) -> None:
    rounds = client.get(f"/api/v1/flights/{demo.flights['monday-swiss']['Swiss']}/rounds")
    first = rounds.get_json()["rounds"][0]["matches"][0]

    body = client.get(f"/api/v1/matches/{first['id']}").get_json()

    kinds = [g["kind"] for g in body["games"]]
    assert body["crawford_game"] == 4 and kinds[3] == "crawford"
    assert body["match"]["score"] == [7, 4] and body["match"]["winner"] == "a"


def test_writes_need_a_token_or_session_and_answer_json(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    _, match_id = _drawn(engine, build_event)
    game = {"winner": "a", "end": "played", "cube": 1, "level": "single"}

    anonymous = client.post(f"/api/v1/matches/{match_id}/games", json=game)
    bad_token = client.post(
        f"/api/v1/matches/{match_id}/games",
        json=game,
        headers={"Authorization": "Bearer tny_nope"},
    )

    assert anonymous.status_code == 401
    assert anonymous.get_json() == {
        "error": {"status": 401, "message": "Log in or send an API token."}
    }
    assert anonymous.headers["WWW-Authenticate"].startswith("Bearer")
    assert (bad_token.status_code, bad_token.get_json()["error"]["status"]) == (401, 401)


def test_director_records_games_by_token_and_a_stale_version_conflicts(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    auth = _token(engine, built.director)
    url = f"/api/v1/matches/{match_id}/games"

    first = client.post(url, json={"winner": "a", "end": "dropped", "level": None}, headers=auth)
    version = first.get_json()["match"]["version"]
    second = client.post(
        url,
        json={"winner": "b", "end": "played", "expected_version": version},
        headers=auth,
    )
    stale = client.post(
        url, json={"winner": "a", "end": "played", "expected_version": version}, headers=auth
    )

    assert first.status_code == 201 and first.get_json()["match"]["score"] == [1, 0]
    assert second.status_code == 201 and second.get_json()["match"]["score"] == [1, 1]
    assert stale.status_code == 409
    assert "Someone else saved this match first" in stale.get_json()["error"]["message"]


def test_impossible_or_malformed_bodies_are_refused_with_the_field(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    auth = _token(engine, built.director)

    wrong_type = client.post(
        f"/api/v1/matches/{match_id}/games", json={"winner": "c", "end": "played"}, headers=auth
    )
    not_json = client.post(f"/api/v1/matches/{match_id}/games", data="x", headers=auth)
    not_finished = client.post(
        f"/api/v1/matches/{match_id}/score", json={"score_a": 1, "score_b": 0}, headers=auth
    )

    assert wrong_type.status_code == 422
    assert wrong_type.get_json()["error"]["field"] == "winner"
    assert not_json.status_code == 400
    assert not_finished.status_code == 400
    assert not_finished.get_json()["error"]["field"] == "score"


def test_upload_fills_games_and_the_public_page_offers_the_file(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    auth = _token(engine, built.director)

    response = client.post(
        f"/api/v1/matches/{match_id}/record",
        json={"filename": "final.mat", "content": RECORD.read_text(encoding="utf-8")},
        headers=auth,
    )
    body = response.get_json()
    page = client.get(f"/events/club-night/matches/{match_id}").get_data(as_text=True)
    download = client.get(f"/events/club-night/records/{body['record_id']}")

    assert (response.status_code, body["ok"], body["match"]["match"]["score"]) == (
        200,
        True,
        [4, 2],
    )
    assert "Crawford game" in page and f"/events/club-night/records/{body['record_id']}" in page
    assert download.headers["Content-Disposition"] == 'attachment; filename="final.mat"'
    assert download.get_data(as_text=True) == RECORD.read_text(encoding="utf-8")


def test_withdraw_needs_a_director_not_a_scorer(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., UserView],
) -> None:
    built, _ = _drawn(engine, build_event)
    scorer = _token(engine, make_user("scorer"))
    director = _token(engine, built.director)
    url = f"/api/v1/events/{built.event_id}/players/{built.entries['GnubgB']}/withdraw"

    refused = client.post(url, headers=scorer)
    done = client.post(url, headers=director)
    pairings = client.get(f"/api/v1/events/{built.event_id}/pairings").get_json()

    assert (refused.status_code, refused.get_json()["error"]["status"]) == (403, 403)
    assert (done.status_code, done.get_json()["status"]) == (200, "withdrawn")
    assert pairings["flights"][0]["rounds"][0]["matches"][0]["status"] == "walkover"


def test_revoked_token_is_refused(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    with transaction(engine) as session:
        view, secret = access.create_api_token(session, actor=built.director.actor, name="x")
        access.revoke_api_token(session, actor=built.director.actor, token_id=view.id)

    response = client.post(
        f"/api/v1/matches/{match_id}/games",
        json={"winner": "a", "end": "played"},
        headers={"Authorization": f"Bearer {secret}"},
    )

    assert response.status_code == 401


def test_session_writes_need_the_csrf_header(
    make_app: Callable[..., Flask], engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    app = make_app(CSRF_ENABLED=True)
    client = app.test_client()
    login_page = client.get("/login").get_data(as_text=True)
    csrf = login_page.split('name="csrf_token" type="hidden" value="')[1].split('"')[0]
    client.post(
        "/login",
        data={
            "email": built.director.email,
            "password": "correct horse battery staple",
            "csrf_token": csrf,
        },
    )
    game: dict[str, Any] = {"winner": "a", "end": "played"}

    without = client.post(f"/api/v1/matches/{match_id}/games", json=game)
    with_header = client.post(
        f"/api/v1/matches/{match_id}/games", json=game, headers={"X-CSRFToken": csrf}
    )

    assert without.status_code == 403
    assert with_header.status_code == 201


def test_account_page_creates_and_revokes_tokens(
    client: FlaskClient, make_user: Callable[..., UserView]
) -> None:
    user = make_user("director")
    client.post("/login", data={"email": user.email, "password": "correct horse battery staple"})

    created = client.post("/account/tokens", data={"name": "scoreboard"}).get_data(as_text=True)
    secret = created.split('id="new-token" value="')[1].split('"')[0]
    allowed = client.get("/api/v1/events", headers={"Authorization": f"Bearer {secret}"})

    assert secret.startswith("tny_") and allowed.status_code == 200
    assert "scoreboard" in client.get("/account/tokens").get_data(as_text=True)
    assert secret not in client.get("/account/tokens").get_data(as_text=True)


def test_openapi_document_covers_every_api_route(app: Flask, client: FlaskClient) -> None:
    document = client.get("/api/v1/openapi.json").get_json()
    routes = {
        (method.lower(), rule.rule.replace("<int:", "{").replace(">", "}"))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/v1/") and rule.endpoint != "api.openapi"
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}
    }

    documented = {(m, path) for path, ops in document["paths"].items() for m in ops}
    assert document["openapi"] == "3.1.0"
    assert documented == routes
    assert "GameIn" in document["components"]["schemas"]


def test_changing_an_existing_result_needs_the_version_seen(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    auth = _token(engine, built.director)
    games = f"/api/v1/matches/{match_id}/games"

    first = client.post(games, json={"winner": "a", "end": "played"}, headers=auth)
    blind_game = client.post(games, json={"winner": "b", "end": "played"}, headers=auth)
    blind_score = client.post(
        f"/api/v1/matches/{match_id}/score", json={"score_a": 0, "score_b": 3}, headers=auth
    )
    version = first.get_json()["match"]["version"]
    seen = client.post(
        games, json={"winner": "b", "end": "played", "expected_version": version}, headers=auth
    )

    assert first.status_code == 201
    assert [r.status_code for r in (blind_game, blind_score)] == [409, 409]
    assert blind_game.get_json()["error"]["message"] == (
        "This match has games or a result already: send the version you last saw as "
        f"expected_version (it is now {version}), so no newer result is overwritten."
    )
    assert (seen.status_code, seen.get_json()["match"]["score"]) == (201, [1, 1])


def test_a_cube_past_one_double_beyond_deciding_the_match_is_refused(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    auth = _token(engine, built.director)
    games = f"/api/v1/matches/{match_id}/games"

    huge = client.post(games, json={"winner": "a", "end": "played", "cube": 2**30}, headers=auth)
    sixteen = client.post(games, json={"winner": "a", "end": "played", "cube": 16}, headers=auth)
    eight = client.post(games, json={"winner": "a", "end": "played", "cube": 8}, headers=auth)

    assert [r.status_code for r in (huge, sixteen)] == [400, 400]
    assert huge.get_json()["error"] == {
        "status": 400,
        "message": "Game 1 has the cube at 1073741824 in a 3-point match: from a cube of 4 "
        "any win takes the match, so the cube goes at most one double further, to 8.",
        "field": "cube",
    }
    assert (eight.status_code, eight.get_json()["match"]["score"]) == (201, [8, 0])


def test_bodies_nested_without_end_or_holding_nul_are_refused(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    auth = {**_token(engine, built.director), "Content-Type": "application/json"}
    url = f"/api/v1/matches/{match_id}/record"

    deep = client.post(url, data="[" * 100_000 + "]" * 100_000, headers=auth)
    nested = client.post(
        url, data='{"filename": "a.mat", "content": ' + "[" * 65 + "]" * 65 + "}", headers=auth
    )
    nul = client.post(url, data='{"filename": "a\\u0000.mat", "content": "x"}', headers=auth)

    assert [r.status_code for r in (deep, nested, nul)] == [400, 400, 400]
    assert deep.get_json()["error"]["message"] == (
        "The body is not JSON this API reads: it nests deeper than 64 levels."
    )
    assert nested.get_json()["error"]["message"] == deep.get_json()["error"]["message"]
    assert nul.get_json()["error"]["message"] == (
        "The body is not JSON this API reads: its text holds a NUL character."
    )


def test_draw_seed_is_hidden_until_the_draw_is_published(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann", "Bob", "Cid", "Dan"],
        [{"name": "Main", "format": "knockout", "match_length": 3}],
        is_public=True,
    )
    flight_id = built.flights["Main"]
    with transaction(engine) as session:
        draws.make_draw(session, actor=built.director.actor, flight_id=flight_id, seed=4242)
    drafted = client.get(f"/api/v1/flights/{flight_id}").get_json()["draw_seed"]
    with transaction(engine) as session:
        draws.publish_draw(session, actor=built.director.actor, flight_id=flight_id)

    published = client.get(f"/api/v1/flights/{flight_id}").get_json()["draw_seed"]

    assert (drafted, published) == (None, "4242")


def test_withdraw_in_an_event_the_caller_cannot_see_is_not_found(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    make_user: Callable[..., UserView],
) -> None:
    private = build_event(["Ann", "Bob"], [{"name": "Main", "format": "knockout",
                                             "match_length": 3}])
    public, _ = _drawn(engine, build_event)
    stranger = _token(engine, make_user("director"))

    hidden = client.post(
        f"/api/v1/events/{private.event_id}/players/{private.entries['Ann']}/withdraw",
        headers=stranger,
    )
    visible = client.post(
        f"/api/v1/events/{public.event_id}/players/{public.entries['GnubgA']}/withdraw",
        headers=stranger,
    )

    assert (hidden.status_code, hidden.get_json()["error"]["message"]) == (
        404, "No such event."
    )
    assert visible.status_code == 403


def test_an_sgf_upload_by_the_api_scores_the_match_as_its_mat_does(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # gnubg's .sgf of the same match as RECORD (gnubg_L03_s1037): the same 4-2.
    built, match_id = _drawn(engine, build_event)
    auth = _token(engine, built.director)
    sgf = Path(__file__).resolve().parents[1] / "data" / "sgf" / "gnubg_L03_s1037.sgf"

    response = client.post(
        f"/api/v1/matches/{match_id}/record",
        json={"filename": "final.sgf", "content": sgf.read_text(encoding="utf-8")},
        headers=auth,
    )

    body = response.get_json()
    assert (response.status_code, body["ok"], body["match"]["match"]["score"]) == (
        200, True, [4, 2])
