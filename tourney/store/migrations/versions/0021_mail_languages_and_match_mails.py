"""Mails in the player's language and next-match mails: the language a registration was
made in, and which player has been told of which match (``match_mails``)

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-25 01:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: earlier registrations have no language (their mails stay in
    English), and every player of a match of a published round counts as told of it
    (publication mailed them), so the first worker pass sends no pairing twice."""
    with op.batch_alter_table("registrations") as batch:
        batch.add_column(
            sa.Column("language", sa.String(length=8), nullable=False, server_default="")
        )
    op.create_table(
        "match_mails",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id",
            sa.Integer(),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "flight_entry_id",
            sa.Integer(),
            sa.ForeignKey("flight_entries.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("match_id", "flight_entry_id", name="uq_match_mails_match_entry"),
    )
    for side in ("entry_a_id", "entry_b_id"):
        op.execute(
            "INSERT INTO match_mails (match_id, flight_entry_id, created_at) "
            f"SELECT m.id, m.{side}, CURRENT_TIMESTAMP FROM matches m "
            "JOIN rounds r ON r.id = m.round_id "
            "WHERE r.published_at IS NOT NULL "
            "AND m.entry_a_id IS NOT NULL AND m.entry_b_id IS NOT NULL"
        )


def downgrade() -> None:
    """Revert this revision: the told-of-match marks and the languages are dropped."""
    op.drop_table("match_mails")
    with op.batch_alter_table("registrations") as batch:
        batch.drop_column("language")
