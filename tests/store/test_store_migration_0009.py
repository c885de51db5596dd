"""Migration 0009 (money sessions): a populated database goes up and down and keeps its
events; going down removes the money tables (their sessions with them)."""

from __future__ import annotations

from sqlalchemy import inspect, text

from tourney.store import schema
from tourney.store.db import make_engine


def test_a_database_with_a_money_session_goes_down_and_up_again(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO events (slug, name, status, is_public, variant, match_form, "
                "dice_names, crawford, holland, money_play, jacoby, beavers, "
                "automatic_doubles, notes, data_version, created_at, updated_at) VALUES "
                "('friday', 'Friday', 'running', false, 'standard', 'single', '', true, "
                "false, false, false, false, false, '', 1, CURRENT_TIMESTAMP, "
                "CURRENT_TIMESTAMP)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO money_sessions (event_id, name, is_chouette, stake_mode, "
                "stake_minor, currency, jacoby, beavers, raccoons, automatic_doubles, "
                "team_cube, ended_how, created_at) SELECT id, 'Side money', false, "
                "'per-point', 50, 'EUR', false, false, false, 0, false, '', "
                "CURRENT_TIMESTAMP FROM events"
            )
        )

    schema.downgrade(engine, "0008")
    tables_down = set(inspect(engine).get_table_names())
    with engine.connect() as connection:
        events_kept = connection.execute(text("SELECT COUNT(*) FROM events")).scalar_one()
    schema.upgrade(engine)
    tables_up = set(inspect(engine).get_table_names())

    assert not {"money_sessions", "money_seats", "money_games"} & tables_down
    assert events_kept == 1
    assert {"money_sessions", "money_seats", "money_games"} <= tables_up
    engine.dispose()
