"""Migration 0008 (match forms, each game's variant): the games played before it keep
their event's variant, nothing of a populated database is lost going up and down, and
the downgrade refuses while an event plays several variants in turn."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from tourney.store import schema
from tourney.store.db import make_engine


def _populate(engine: Engine, variant: str) -> None:
    """An event of ``variant`` with one flight, round, match and game, as of 0007."""
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO events (slug, name, status, is_public, variant, crawford, holland, "
                "money_play, jacoby, beavers, automatic_doubles, notes, data_version, "
                "created_at, updated_at) VALUES ('nardy-night', 'Nardy night', 'running', "
                "false, :variant, true, false, false, false, false, false, '', 1, "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"variant": variant},
        )
        connection.execute(
            text(
                "INSERT INTO flights (event_id, name, position, format, status, match_length, "
                "round_lengths, feed_rounds, progressive, feed_bye_losers, reset_match, "
                "bye_counts_as_win, tiebreaks, draw_method, created_at) SELECT id, 'Main', 1, "
                "'knockout', 'running', 3, '{}', '[]', false, false, false, true, '[]', "
                "'random', CURRENT_TIMESTAMP FROM events"
            )
        )
        connection.execute(
            text(
                "INSERT INTO rounds (flight_id, number, name, match_length, status, created_at) "
                "SELECT id, 1, '', 3, 'published', CURRENT_TIMESTAMP FROM flights"
            )
        )
        connection.execute(
            text(
                "INSERT INTO matches (flight_id, round_id, position, bracket_key, table_label, "
                "match_length, status, score_a, score_b, result_source, winner_to_slot, "
                "loser_to_slot, version) SELECT flight_id, id, 1, '', '', 3, 'playing', 1, 0, "
                "'games', '', '', 1 FROM rounds"
            )
        )
        connection.execute(
            text(
                "INSERT INTO games (match_id, number, winner, \"end\", cube_exponent, level, "
                "points, is_crawford, created_at) SELECT id, 1, 'a', 'played', 0, 'single', 1, "
                "false, CURRENT_TIMESTAMP FROM matches"
            )
        )


def test_games_played_before_the_revision_keep_their_events_variant(
    empty_database_url: str,
) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine, "0007")
    _populate(engine, "long-nardy")

    schema.upgrade(engine)
    with engine.connect() as connection:
        game = connection.execute(text("SELECT variant, points FROM games")).one()
        form = connection.execute(text("SELECT match_form FROM events")).scalar_one()
    schema.downgrade(engine, "0007")
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT COUNT(*) FROM games")).scalar_one()
    columns = {c["name"] for c in inspect(engine).get_columns("games")}
    schema.upgrade(engine)

    assert tuple(game) == ("long-nardy", 1)
    assert form == "single"
    assert kept == 1 and "variant" not in columns
    engine.dispose()


def test_downgrade_refuses_while_an_event_plays_a_match_form(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine)
    _populate(engine, "standard")
    with engine.begin() as connection:
        connection.execute(text("UPDATE events SET match_form = 'tavli'"))

    with pytest.raises(RuntimeError, match=r"1 event\(s\) use a match form or a variant"):
        schema.downgrade(engine, "0007")

    assert schema.current_revisions(engine) == schema.head_revisions()
    with engine.connect() as connection:
        assert connection.execute(text("SELECT COUNT(*) FROM games")).scalar_one() == 1
    engine.dispose()
