"""Money sessions and chouettes: their settings, seats and games; events may accept
condoned plays in records, and may be left out of their club's rating list; a club's
seasons

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24 19:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("events") as batch:
        batch.add_column(
            sa.Column("condoned_plays", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(
            sa.Column("unrated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "money_sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("is_chouette", sa.Boolean(), nullable=False),
        sa.Column("stake_mode", sa.String(16), nullable=False),
        sa.Column("stake_minor", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("jacoby", sa.Boolean(), nullable=False),
        sa.Column("beavers", sa.Boolean(), nullable=False),
        sa.Column("raccoons", sa.Boolean(), nullable=False),
        sa.Column("automatic_doubles", sa.Integer(), nullable=False),
        sa.Column("cube_limit", sa.Integer(), nullable=True),
        sa.Column("team_cube", sa.Boolean(), nullable=False),
        sa.Column("end_difference", sa.Integer(), nullable=True),
        sa.Column("ends_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("ended_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("ended_how", sa.String(120), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_money_sessions_event_id", "money_sessions", ["event_id"])
    op.create_table(
        "money_seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "session_id",
            sa.Integer(),
            sa.ForeignKey("money_sessions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.UniqueConstraint("session_id", "seat"),
        sa.UniqueConstraint("session_id", "player_id"),
    )
    op.create_index("ix_money_seats_session_id", "money_seats", ["session_id"])
    op.create_index("ix_money_seats_player_id", "money_seats", ["player_id"])
    op.create_table(
        "money_games",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "session_id",
            sa.Integer(),
            sa.ForeignKey("money_sessions.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("box_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("member_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("is_captain", sa.Boolean(), nullable=False),
        sa.Column("box_won", sa.Boolean(), nullable=False),
        sa.Column("end", sa.String(16), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("cube", sa.Integer(), nullable=False),
        sa.Column("centred", sa.Boolean(), nullable=False),
        sa.Column("checkers_left", sa.Integer(), nullable=False),
        sa.Column("units", sa.Integer(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("session_id", "number", "member_id"),
    )
    op.create_index("ix_money_games_session_id", "money_games", ["session_id"])
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "club_id", sa.Integer(), sa.ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("scoring", sa.String(16), nullable=False),
        sa.Column("points_table", sa.JSON(), nullable=True),
        sa.Column("best", sa.Integer(), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seasons_club_id", "seasons", ["club_id"])
    op.create_table(
        "season_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "season_id",
            sa.Integer(),
            sa.ForeignKey("seasons.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.UniqueConstraint("season_id", "event_id"),
    )
    op.create_index("ix_season_events_season_id", "season_events", ["season_id"])
    op.create_index("ix_season_events_event_id", "season_events", ["event_id"])


def downgrade() -> None:
    """Revert this revision: the money sessions and their games are dropped."""
    op.drop_table("season_events")
    op.drop_table("seasons")
    op.drop_table("money_games")
    op.drop_table("money_seats")
    op.drop_table("money_sessions")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("condoned_plays")
        batch.drop_column("unrated")
