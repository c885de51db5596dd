"""Money session pages refuse bad entries with a clear message and change nothing: a
game without a winner, an impossible cube, a stale page, a scorer's try; and a money
session's page is not there for a visitor without the event's link."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from flask.testing import FlaskClient
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import money_sessions as ms
from tourney.store.db import transaction
from tourney.store.queries import UserView
from tourney.store.tables import Entry, MoneyGame

if TYPE_CHECKING:
    from conftest import BuiltEvent


def _session(engine: Engine, built: BuiltEvent) -> tuple[int, int]:
    with Session(engine) as session:
        players = [
            session.exec(select(Entry.player_id).where(Entry.id == built.entries[n])).one()
            for n in ("Ann", "Ben")
        ]
    with transaction(engine) as session:
        row = ms.start_session(
            session,
            actor=built.director.actor,
            event_id=built.event_id,
            fields=ms.SessionFields("Side money", tuple(players), "per-point", 100, "EUR"),
        )
    return row.id or 0, players[1]


def _games(engine: Engine) -> int:
    with Session(engine) as session:
        return len(session.exec(select(MoneyGame)).all())


def test_bad_game_entries_are_refused_with_a_message_and_save_nothing(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Ben"], [])
    sid, ben = _session(engine, built)
    client.post("/login", data={"email": built.director.email,
                                "password": "correct horse battery staple"})
    url = f"/director/money/{sid}/games"

    no_winner = client.post(url, data={"games_before": "0", f"how_{ben}": "single"})
    centred_eight = client.post(url, data={
        "games_before": "0", f"winner_{ben}": "box", f"how_{ben}": "single",
        f"cube_{ben}": "8", f"centred_{ben}": "y",
    })
    stale = client.post(url, data={
        "games_before": "5", f"winner_{ben}": "box", f"how_{ben}": "single", f"cube_{ben}": "1",
        f"centred_{ben}": "y",
    })
    damaged = client.post(url, data={"games_before": "x"})

    assert no_winner.status_code == 400 and "Say who won each game." in no_winner.text
    assert centred_eight.status_code == 400
    assert "A cube still in the middle stands at 1" in centred_eight.text
    assert stale.status_code == 409 and "entered meanwhile" in stale.text
    assert damaged.status_code == 400 and "the form is damaged" in damaged.text
    assert _games(engine) == 0


def test_a_scorer_may_read_a_session_but_not_enter_its_games(
    client: FlaskClient,
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    login_as: Callable[..., UserView],
) -> None:
    built = build_event(["Ann", "Ben"], [])
    sid, ben = _session(engine, built)
    login_as("scorer")

    answer = client.post(f"/director/money/{sid}/games", data={
        "games_before": "0", f"winner_{ben}": "box", f"how_{ben}": "single", f"cube_{ben}": "1",
    })

    assert answer.status_code in (403, 404)
    assert _games(engine) == 0


def test_a_private_events_phone_page_is_not_shown_to_a_visitor(
    client: FlaskClient, engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(["Ann", "Ben"], [])
    sid, _ = _session(engine, built)

    assert client.get(f"/events/club-night/money/{sid}").status_code == 404
