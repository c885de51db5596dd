"""API tokens with a scope and an expiry: what each may do, and whose name the audit shows."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import select

from tourney.store import access, draws
from tourney.store.access import ApiToken
from tourney.store.db import read_session, transaction
from tourney.store.errors import StoreUserError
from tourney.store.tables import AuditEntry
from tourney.store.types import utcnow

if TYPE_CHECKING:
    from conftest import BuiltEvent


def _drawn(engine: Engine, build_event: Callable[..., BuiltEvent]) -> tuple[BuiltEvent, int]:
    built = build_event(
        ["Anna", "Bert"], [{"name": "Main", "format": "knockout", "match_length": 3}]
    )
    with transaction(engine) as session:
        draws.make_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"], method="seeded"
        )
        board = draws.publish_draw(
            session, actor=built.director.actor, flight_id=built.flights["Main"]
        )
    return built, board.rounds[0].matches[0].id


def _bearer(
    engine: Engine, built: BuiltEvent, name: str, scope: str, valid_days: int | None = None
) -> dict[str, str]:
    with transaction(engine) as session:
        _, secret = access.create_api_token(
            session, actor=built.director.actor, name=name, scope=scope, valid_days=valid_days
        )
    return {"Authorization": f"Bearer {secret}"}


GAME = {"winner": "a", "end": "played", "cube": 1}


def test_an_expired_token_is_refused_401(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    headers = _bearer(engine, built, "old screen", "full", valid_days=1)
    with transaction(engine) as session:
        row = session.exec(select(ApiToken).where(ApiToken.name == "old screen")).one()
        row.expires_at = utcnow() - timedelta(minutes=1)

    refused = client.post(f"/api/v1/matches/{match_id}/games", json=GAME, headers=headers)

    assert refused.status_code == 401
    assert "expired" in refused.get_json()["error"]["message"]


def test_a_token_within_its_days_still_works(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    headers = _bearer(engine, built, "weekend", "results", valid_days=2)

    done = client.post(f"/api/v1/matches/{match_id}/games", json=GAME, headers=headers)

    assert done.status_code == 201
    assert done.get_json()["match"]["score"] == [1, 0]


def test_a_read_token_cannot_change_results(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    headers = _bearer(engine, built, "scoreboard", "read")

    refused = client.post(f"/api/v1/matches/{match_id}/games", json=GAME, headers=headers)
    match = client.get(f"/api/v1/matches/{match_id}", headers=headers)

    assert refused.status_code == 403
    assert match.status_code == 200
    assert match.get_json()["games"] == []


def test_a_results_token_enters_a_game_but_cannot_change_the_event(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    headers = _bearer(engine, built, "scoreboard", "results")
    withdraw = f"/api/v1/events/{built.event_id}/players/{built.entries['Bert']}/withdraw"

    game = client.post(f"/api/v1/matches/{match_id}/games", json=GAME, headers=headers)
    refused = client.post(withdraw, headers=headers)

    assert game.status_code == 201
    assert refused.status_code == 403
    match = client.get(f"/api/v1/matches/{match_id}", headers=headers).get_json()["match"]
    assert match["status"] == "playing"


def test_the_audit_entry_of_a_change_names_the_token(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _drawn(engine, build_event)
    headers = _bearer(engine, built, "scoreboard", "results")

    client.post(f"/api/v1/matches/{match_id}/games", json=GAME, headers=headers)

    with read_session(engine) as session:
        labels = session.exec(
            select(AuditEntry.actor_label).where(AuditEntry.action == "match.game_add")
        ).all()
    assert labels == [f"api token 'scoreboard' of {built.director.email}"]


@pytest.mark.parametrize(("scope", "days"), [("admin", None), ("full", 0)])
def test_a_token_of_an_unknown_scope_or_no_days_is_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent], scope: str, days: int | None
) -> None:
    built, _ = _drawn(engine, build_event)
    with pytest.raises(StoreUserError), transaction(engine) as session:
        access.create_api_token(
            session, actor=built.director.actor, name="x", scope=scope, valid_days=days
        )
