"""Migration 0010 (a club's rating list options, a roster player's carried-in
experience): a club made before it gets no provisional mark and private player pages;
going down and up again keeps the club and its player."""

from __future__ import annotations

from sqlalchemy import inspect, text

from tourney.store import schema
from tourney.store.db import make_engine


def test_a_club_from_before_gets_the_defaults_and_survives_down_and_up(
    empty_database_url: str,
) -> None:
    engine = make_engine(empty_database_url)
    schema.upgrade(engine, "0009")
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO clubs (slug, name, created_at) VALUES "
                "('fjordside', 'Fjordside BG', CURRENT_TIMESTAMP)"
            )
        )
        connection.execute(
            text(
                "INSERT INTO players (name, country, rating, created_at) VALUES "
                "('Ann', 'NO', 1620.5, CURRENT_TIMESTAMP)"
            )
        )

    schema.upgrade(engine)
    with engine.connect() as connection:
        club = connection.execute(
            text("SELECT provisional_below, public_profiles FROM clubs")
        ).one()
        player = connection.execute(
            text("SELECT rating, rating_experience, rated_matches FROM players")
        ).one()
    schema.downgrade(engine, "0009")
    columns_down = {c["name"] for c in inspect(engine).get_columns("clubs")}
    schema.upgrade(engine)
    with engine.connect() as connection:
        clubs_kept = connection.execute(text("SELECT COUNT(*) FROM clubs")).scalar_one()

    assert (club[0], bool(club[1])) == (0, False)
    assert tuple(player) == (1620.5, None, None)
    assert "provisional_below" not in columns_down
    assert clubs_kept == 1
    engine.dispose()
