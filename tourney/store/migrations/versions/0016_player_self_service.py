"""Players serve themselves: private links, result reports, online registration, the
mail outbox, and round deadlines

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def _event_column() -> sa.Column[int]:
    return sa.Column(
        "event_id",
        sa.Integer(),
        sa.ForeignKey("events.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "player_links",
        sa.Column("id", sa.Integer(), primary_key=True),
        _event_column(),
        sa.Column(
            "entry_id",
            sa.Integer(),
            sa.ForeignKey("entries.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("revoked_at", UTCDateTime(), nullable=True),
    )
    op.create_table(
        "result_reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        _event_column(),
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column(
            "reporter_entry_id",
            sa.Integer(),
            sa.ForeignKey("entries.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("content", sa.JSON(), nullable=False),
        sa.Column("record_text", sa.Text(), nullable=True),
        sa.Column("counter", sa.JSON(), nullable=True),
        sa.Column("match_version", sa.Integer(), nullable=False),
        sa.Column("responder_entry_id", sa.Integer(), sa.ForeignKey("entries.id"), nullable=True),
        sa.Column("outcome", sa.String(500), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
    )
    op.create_table(
        "registration_settings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("is_open", sa.Boolean(), nullable=False),
        sa.Column("capacity", sa.Integer(), nullable=True),
        sa.Column("needs_approval", sa.Boolean(), nullable=False),
        sa.Column("closes_at", UTCDateTime(), nullable=True),
    )
    op.create_table(
        "registrations",
        sa.Column("id", sa.Integer(), primary_key=True),
        _event_column(),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("club", sa.String(120), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("rating_id", sa.String(40), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("entry_id", sa.Integer(), sa.ForeignKey("entries.id"), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("confirmed_at", UTCDateTime(), nullable=True, index=True),
    )
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=True,
            index=True,
        ),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("recipient", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", UTCDateTime(), nullable=False, index=True),
        sa.Column("claimed_until", UTCDateTime(), nullable=True),
        sa.Column("last_error", sa.String(500), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("sent_at", UTCDateTime(), nullable=True),
    )
    with op.batch_alter_table("rounds") as batch:
        batch.add_column(sa.Column("deadline_at", UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("deadline_reminded_at", UTCDateTime(), nullable=True))


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("rounds") as batch:
        batch.drop_column("deadline_reminded_at")
        batch.drop_column("deadline_at")
    for table in (
        "mail_outbox",
        "registrations",
        "registration_settings",
        "result_reports",
        "player_links",
    ):
        op.drop_table(table)
