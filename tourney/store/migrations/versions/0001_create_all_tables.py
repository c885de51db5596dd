"""create all tables

Revision ID: 0001
Revises:
Create Date: 2026-11-22 13:24:10.136954
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

import tourney.store.types

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=80), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("slug"),
    )
    op.create_table(
        "login_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("remote_addr", sa.String(length=64), nullable=False),
        sa.Column("succeeded", sa.Boolean(), nullable=False),
        sa.Column("at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_login_attempts_at"), "login_attempts", ["at"], unique=False)
    op.create_index(op.f("ix_login_attempts_email"), "login_attempts", ["email"], unique=False)
    op.create_index(
        op.f("ix_login_attempts_remote_addr"), "login_attempts", ["remote_addr"], unique=False
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("is_active", sa.Boolean(), nullable=False),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_login_at", tourney.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_users_email"), "users", ["email"], unique=True)
    op.create_table(
        "audit_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("actor_id", sa.Integer(), nullable=True),
        sa.Column("actor_label", sa.String(length=254), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("entity_type", sa.String(length=32), nullable=False),
        sa.Column("entity_id", sa.Integer(), nullable=True),
        sa.Column("event_id", sa.Integer(), nullable=True),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["actor_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_audit_entries_at"), "audit_entries", ["at"], unique=False)
    op.create_index(op.f("ix_audit_entries_event_id"), "audit_entries", ["event_id"], unique=False)
    op.create_index(op.f("ix_audit_entries_match_id"), "audit_entries", ["match_id"], unique=False)
    op.create_table(
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("country", sa.String(length=2), nullable=False),
        sa.Column("rating", sa.Float(), nullable=True),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"],
            ["clubs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_players_club_id"), "players", ["club_id"], unique=False)
    op.create_index(op.f("ix_players_name"), "players", ["name"], unique=False)
    op.create_table(
        "venues",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("address", sa.String(length=255), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"],
            ["clubs.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_venues_club_id"), "venues", ["club_id"], unique=False)
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=80), nullable=False),
        sa.Column("name", sa.String(length=160), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=True),
        sa.Column("ends_on", sa.Date(), nullable=True),
        sa.Column("club_id", sa.Integer(), nullable=True),
        sa.Column("venue_id", sa.Integer(), nullable=True),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("is_public", sa.Boolean(), nullable=False),
        sa.Column("crawford", sa.Boolean(), nullable=False),
        sa.Column("holland", sa.Boolean(), nullable=False),
        sa.Column("cube_limit_exponent", sa.Integer(), nullable=True),
        sa.Column("money_play", sa.Boolean(), nullable=False),
        sa.Column("jacoby", sa.Boolean(), nullable=False),
        sa.Column("beavers", sa.Boolean(), nullable=False),
        sa.Column("automatic_doubles", sa.Boolean(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.Column("data_version", sa.Integer(), nullable=False),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["club_id"],
            ["clubs.id"],
        ),
        sa.ForeignKeyConstraint(
            ["owner_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["venue_id"],
            ["venues.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(op.f("ix_events_club_id"), "events", ["club_id"], unique=False)
    op.create_index(op.f("ix_events_owner_id"), "events", ["owner_id"], unique=False)
    op.create_index(op.f("ix_events_slug"), "events", ["slug"], unique=True)
    op.create_index(op.f("ix_events_venue_id"), "events", ["venue_id"], unique=False)
    op.create_table(
        "entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("checked_in_at", tourney.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("withdrawn_at", tourney.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "player_id"),
    )
    op.create_index(op.f("ix_entries_event_id"), "entries", ["event_id"], unique=False)
    op.create_index(op.f("ix_entries_player_id"), "entries", ["player_id"], unique=False)
    op.create_table(
        "event_staff",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "user_id"),
    )
    op.create_index(op.f("ix_event_staff_event_id"), "event_staff", ["event_id"], unique=False)
    op.create_index(op.f("ix_event_staff_user_id"), "event_staff", ["user_id"], unique=False)
    op.create_table(
        "flights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(length=24), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("round_lengths", sa.JSON(), nullable=True),
        sa.Column("feeds_from_id", sa.Integer(), nullable=True),
        sa.Column("feed_rounds", sa.JSON(), nullable=True),
        sa.Column("progressive", sa.Boolean(), nullable=False),
        sa.Column("feed_bye_losers", sa.Boolean(), nullable=False),
        sa.Column("reset_match", sa.Boolean(), nullable=False),
        sa.Column("swiss_rounds", sa.Integer(), nullable=True),
        sa.Column("swiss_lives", sa.Integer(), nullable=True),
        sa.Column("bye_counts_as_win", sa.Boolean(), nullable=False),
        sa.Column("tiebreaks", sa.JSON(), nullable=True),
        sa.Column("draw_method", sa.String(length=16), nullable=False),
        sa.Column("draw_seed", sa.String(length=40), nullable=True),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["feeds_from_id"],
            ["flights.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "name"),
    )
    op.create_index(op.f("ix_flights_event_id"), "flights", ["event_id"], unique=False)
    op.create_table(
        "flight_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("flight_id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("initial_wins", sa.Integer(), nullable=False),
        sa.Column("initial_losses", sa.Integer(), nullable=False),
        sa.Column("fed_from_flight_id", sa.Integer(), nullable=True),
        sa.Column("fed_from_round", sa.Integer(), nullable=True),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["entries.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["fed_from_flight_id"],
            ["flights.id"],
        ),
        sa.ForeignKeyConstraint(["flight_id"], ["flights.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("flight_id", "entry_id"),
    )
    op.create_index(
        op.f("ix_flight_entries_entry_id"), "flight_entries", ["entry_id"], unique=False
    )
    op.create_index(
        op.f("ix_flight_entries_flight_id"), "flight_entries", ["flight_id"], unique=False
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("flight_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("pairing_seed", sa.String(length=40), nullable=True),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.Column("published_at", tourney.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["flight_id"], ["flights.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("flight_id", "number"),
    )
    op.create_index(op.f("ix_rounds_flight_id"), "rounds", ["flight_id"], unique=False)
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("flight_id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("entry_a_id", sa.Integer(), nullable=True),
        sa.Column("entry_b_id", sa.Integer(), nullable=True),
        sa.Column("table_label", sa.String(length=20), nullable=False),
        sa.Column("match_length", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("score_a", sa.Integer(), nullable=False),
        sa.Column("score_b", sa.Integer(), nullable=False),
        sa.Column("winner_entry_id", sa.Integer(), nullable=True),
        sa.Column("result_source", sa.String(length=16), nullable=False),
        sa.Column("winner_to_match_id", sa.Integer(), nullable=True),
        sa.Column("winner_to_slot", sa.String(length=1), nullable=False),
        sa.Column("loser_to_match_id", sa.Integer(), nullable=True),
        sa.Column("loser_to_slot", sa.String(length=1), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("started_at", tourney.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.Column("finished_at", tourney.store.types.UTCDateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["entry_a_id"],
            ["flight_entries.id"],
        ),
        sa.ForeignKeyConstraint(
            ["entry_b_id"],
            ["flight_entries.id"],
        ),
        sa.ForeignKeyConstraint(["flight_id"], ["flights.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["loser_to_match_id"],
            ["matches.id"],
        ),
        sa.ForeignKeyConstraint(["round_id"], ["rounds.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["winner_entry_id"],
            ["flight_entries.id"],
        ),
        sa.ForeignKeyConstraint(
            ["winner_to_match_id"],
            ["matches.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "position"),
    )
    op.create_index(op.f("ix_matches_flight_id"), "matches", ["flight_id"], unique=False)
    op.create_index(op.f("ix_matches_round_id"), "matches", ["round_id"], unique=False)
    op.create_table(
        "uploaded_records",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("filename", sa.String(length=255), nullable=False),
        sa.Column("original_text", sa.Text(), nullable=False),
        sa.Column("report", sa.JSON(), nullable=True),
        sa.Column("is_valid", sa.Boolean(), nullable=False),
        sa.Column("uploaded_by_id", sa.Integer(), nullable=True),
        sa.Column("uploaded_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"],
            ["matches.id"],
        ),
        sa.ForeignKeyConstraint(
            ["uploaded_by_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        op.f("ix_uploaded_records_match_id"), "uploaded_records", ["match_id"], unique=False
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("winner", sa.String(length=1), nullable=False),
        sa.Column("end", sa.String(length=16), nullable=False),
        sa.Column("cube_exponent", sa.Integer(), nullable=False),
        sa.Column("level", sa.String(length=16), nullable=True),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("is_crawford", sa.Boolean(), nullable=False),
        sa.Column("record_id", sa.Integer(), nullable=True),
        sa.Column("created_at", tourney.store.types.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["record_id"],
            ["uploaded_records.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("match_id", "number"),
    )
    op.create_index(op.f("ix_games_match_id"), "games", ["match_id"], unique=False)


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index(op.f("ix_games_match_id"), table_name="games")
    op.drop_table("games")
    op.drop_index(op.f("ix_uploaded_records_match_id"), table_name="uploaded_records")
    op.drop_table("uploaded_records")
    op.drop_index(op.f("ix_matches_round_id"), table_name="matches")
    op.drop_index(op.f("ix_matches_flight_id"), table_name="matches")
    op.drop_table("matches")
    op.drop_index(op.f("ix_rounds_flight_id"), table_name="rounds")
    op.drop_table("rounds")
    op.drop_index(op.f("ix_flight_entries_flight_id"), table_name="flight_entries")
    op.drop_index(op.f("ix_flight_entries_entry_id"), table_name="flight_entries")
    op.drop_table("flight_entries")
    op.drop_index(op.f("ix_flights_event_id"), table_name="flights")
    op.drop_table("flights")
    op.drop_index(op.f("ix_event_staff_user_id"), table_name="event_staff")
    op.drop_index(op.f("ix_event_staff_event_id"), table_name="event_staff")
    op.drop_table("event_staff")
    op.drop_index(op.f("ix_entries_player_id"), table_name="entries")
    op.drop_index(op.f("ix_entries_event_id"), table_name="entries")
    op.drop_table("entries")
    op.drop_index(op.f("ix_events_venue_id"), table_name="events")
    op.drop_index(op.f("ix_events_slug"), table_name="events")
    op.drop_index(op.f("ix_events_owner_id"), table_name="events")
    op.drop_index(op.f("ix_events_club_id"), table_name="events")
    op.drop_table("events")
    op.drop_index(op.f("ix_venues_club_id"), table_name="venues")
    op.drop_table("venues")
    op.drop_index(op.f("ix_players_name"), table_name="players")
    op.drop_index(op.f("ix_players_club_id"), table_name="players")
    op.drop_table("players")
    op.drop_index(op.f("ix_audit_entries_match_id"), table_name="audit_entries")
    op.drop_index(op.f("ix_audit_entries_event_id"), table_name="audit_entries")
    op.drop_index(op.f("ix_audit_entries_at"), table_name="audit_entries")
    op.drop_table("audit_entries")
    op.drop_index(op.f("ix_users_email"), table_name="users")
    op.drop_table("users")
    op.drop_index(op.f("ix_login_attempts_remote_addr"), table_name="login_attempts")
    op.drop_index(op.f("ix_login_attempts_email"), table_name="login_attempts")
    op.drop_index(op.f("ix_login_attempts_at"), table_name="login_attempts")
    op.drop_table("login_attempts")
    op.drop_table("clubs")
