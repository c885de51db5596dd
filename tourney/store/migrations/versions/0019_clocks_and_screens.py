"""Clocks and venue screens: a flight's clock settings (time per point, delay per move)
and an event's venue screen (panels, rotation, announcement, round clock)

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-24 23:55:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: every flight on the default clock (2 minutes a point, 12 s
    delay), no event with a venue screen set up (the defaults apply)."""
    with op.batch_alter_table("flights") as batch:
        batch.add_column(
            sa.Column("clock_seconds_per_point", sa.Integer(), nullable=False, server_default="120")
        )
        batch.add_column(
            sa.Column("clock_delay_seconds", sa.Integer(), nullable=False, server_default="12")
        )
    op.create_table(
        "venue_screens",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("panels", sa.JSON(), nullable=True),
        sa.Column("rotation_seconds", sa.Integer(), nullable=False),
        sa.Column("announcement", sa.Text(), nullable=False),
        sa.Column("clock_until", UTCDateTime(timezone=True), nullable=True),
        sa.Column("updated_at", UTCDateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Revert this revision: the screens and the clock settings are dropped."""
    op.drop_table("venue_screens")
    with op.batch_alter_table("flights") as batch:
        batch.drop_column("clock_delay_seconds")
        batch.drop_column("clock_seconds_per_point")
