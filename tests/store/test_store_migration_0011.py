"""Migration 0011 (stages): a database with flights goes up and down and keeps them;
going down drops the pools and stage links, going up gives every flight one table and no
qualifying stage."""

from __future__ import annotations

from sqlalchemy import inspect, text

from tourney.store import schema
from tourney.store.db import make_engine

STAGE_COLUMNS = {
    "pools",
    "pool_seeding",
    "qualifies_from_id",
    "qualifiers",
    "cut_ties",
    "cut_picks",
}


def test_a_database_with_flights_goes_down_and_up_again(empty_database_url: str) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine, "0010")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO events (slug, name, status, is_public, variant, match_form, "
                "dice_names, crawford, holland, money_play, jacoby, beavers, "
                "automatic_doubles, condoned_plays, unrated, notes, data_version, created_at, "
                "updated_at) VALUES ('friday', 'Friday', 'running', false, 'standard', "
                "'single', '', true, false, false, false, false, false, false, false, '', 1, "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO flights (event_id, name, position, format, status, match_length, "
                "progressive, feed_bye_losers, reset_match, bye_counts_as_win, draw_method, "
                "created_at) SELECT id, 'Pools', 0, 'roundrobin', 'setup', 5, false, false, "
                "false, true, 'random', CURRENT_TIMESTAMP FROM events"
            )
        )

    schema.upgrade(engine)
    with engine.connect() as connection:
        up = connection.execute(
            text("SELECT pools, pool_seeding, qualifies_from_id, qualifiers, cut_ties FROM flights")
        ).one()
    schema.downgrade(engine, "0010")
    columns_down = {c["name"] for c in inspect(engine).get_columns("flights")}
    entry_columns_down = {c["name"] for c in inspect(engine).get_columns("flight_entries")}
    with engine.connect() as connection:
        kept = connection.execute(text("SELECT name FROM flights")).scalars().all()
    schema.upgrade(engine)
    engine.dispose()

    assert tuple(up) == (None, "snake", None, None, "tiebreaks")
    assert not STAGE_COLUMNS & columns_down
    assert not {"pool", "origin"} & entry_columns_down
    assert kept == ["Pools"]
