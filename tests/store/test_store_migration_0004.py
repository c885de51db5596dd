"""Migration 0004: events keep their variant options, and a game may have no winner (a draw)."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from tourney.store import schema
from tourney.store.db import make_engine


def _downgrade(engine: Engine, revision: str) -> None:
    # As ``tourney db downgrade`` does: on SQLite a table is altered by copying it, with
    # foreign keys off so that dropping the old copy deletes nothing that refers to it.
    schema.downgrade(engine, revision)


def _columns(engine: Engine, table: str) -> dict[str, bool]:
    """Column name -> nullable."""
    return {c["name"]: c["nullable"] for c in inspect(engine).get_columns(table)}


def _insert_event(engine: Engine, slug: str) -> None:
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO events (slug, name, status, is_public, variant, crawford, holland, "
                "money_play, jacoby, beavers, automatic_doubles, notes, data_version, "
                "created_at, updated_at) VALUES (:slug, 'Old event', 'open', false, "
                "'long-nardy', true, false, false, false, false, false, '', 1, "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"slug": slug},
        )


def test_upgrade_adds_options_as_null_for_existing_events(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine, "0003")
    _insert_event(engine, "before-0004")

    schema.upgrade(engine)

    with engine.connect() as connection:
        stored = connection.execute(
            text("SELECT variant, variant_options FROM events WHERE slug = 'before-0004'")
        ).one()
    assert tuple(stored) == ("long-nardy", None)
    assert (_columns(engine, "events")["variant_options"], _columns(engine, "games")["winner"]) == (
        True, True)
    engine.dispose()


def test_downgrade_removes_the_column_and_requires_a_winner_again(
    empty_database_url: str,
) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    _insert_event(engine, "kept")

    _downgrade(engine, "0003")

    assert schema.current_revisions(engine) == {"0003"}
    assert "variant_options" not in _columns(engine, "events")
    assert _columns(engine, "games")["winner"] is False
    with engine.connect() as connection:
        assert connection.execute(text("SELECT slug FROM events")).scalars().all() == ["kept"]
    engine.dispose()


def test_downgrade_refuses_while_a_drawn_game_is_stored(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    _insert_event(engine, "nardy")
    with engine.begin() as connection:
        event_id = connection.execute(text("SELECT id FROM events")).scalar_one()
        connection.execute(
            text(
                "INSERT INTO flights (event_id, name, position, format, status, match_length, "
                "round_lengths, feed_rounds, progressive, feed_bye_losers, reset_match, "
                "bye_counts_as_win, tiebreaks, draw_method, created_at) VALUES (:e, 'Main', 0, "
                "'knockout', 'running', 3, '{}', '[]', false, false, false, true, '[]', "
                "'random', CURRENT_TIMESTAMP)"
            ),
            {"e": event_id},
        )
        flight_id = connection.execute(text("SELECT id FROM flights")).scalar_one()
        connection.execute(
            text(
                "INSERT INTO rounds (flight_id, number, name, match_length, status, created_at) "
                "VALUES (:f, 1, '', 3, 'published', CURRENT_TIMESTAMP)"
            ),
            {"f": flight_id},
        )
        round_id = connection.execute(text("SELECT id FROM rounds")).scalar_one()
        connection.execute(
            text(
                "INSERT INTO matches (flight_id, round_id, position, bracket_key, table_label, "
                "match_length, status, score_a, score_b, result_source, winner_to_slot, "
                "loser_to_slot, version) VALUES (:f, :r, 1, '', '', 3, 'playing', 0, 0, "
                "'games', '', '', 1)"
            ),
            {"f": flight_id, "r": round_id},
        )
        match_id = connection.execute(text("SELECT id FROM matches")).scalar_one()
        connection.execute(
            text(
                "INSERT INTO games (match_id, number, winner, \"end\", cube_exponent, level, "
                "points, is_crawford, created_at) VALUES (:m, 1, NULL, 'drawn', 0, NULL, 0, "
                "false, CURRENT_TIMESTAMP)"
            ),
            {"m": match_id},
        )

    with pytest.raises(RuntimeError, match=r"1 drawn game\(s\) are stored"):
        _downgrade(engine, "0003")

    assert schema.current_revisions(engine) == schema.head_revisions()
    engine.dispose()
