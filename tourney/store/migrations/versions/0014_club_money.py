"""Club money: a flight's fees, side pools, retention, sponsor and payout table, and the
ledger of what each entry paid and was refunded

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-24 22:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "flight_money",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "flight_id",
            sa.Integer(),
            sa.ForeignKey("flights.id", ondelete="CASCADE"),
            nullable=False,
            unique=True,
        ),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("entry_fee", sa.Integer(), nullable=False),
        sa.Column("buyback_fee", sa.Integer(), nullable=False),
        sa.Column("retention_percent", sa.Integer(), nullable=False),
        sa.Column("sponsor", sa.Integer(), nullable=False),
        sa.Column("payout_table", sa.JSON(), nullable=True),
        sa.Column("side_pools", sa.JSON(), nullable=True),
        sa.Column("hide_amounts", sa.Boolean(), nullable=False),
        sa.Column("points_factor", sa.Integer(), nullable=True),
        sa.Column("points_table", sa.JSON(), nullable=True),
    )
    op.create_table(
        "money_items",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "event_id", sa.Integer(), sa.ForeignKey("events.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "flight_id",
            sa.Integer(),
            sa.ForeignKey("flights.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "entry_id",
            sa.Integer(),
            sa.ForeignKey("entries.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("pool", sa.String(60), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("paid", sa.Integer(), nullable=False),
        sa.Column("paid_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("method", sa.String(16), nullable=False),
        sa.Column("refunded", sa.Integer(), nullable=False),
        sa.Column("refunded_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("cancelled", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("flight_id", "entry_id", "kind", "pool"),
    )
    op.create_index("ix_money_items_event_id", "money_items", ["event_id"])
    op.create_index("ix_money_items_flight_id", "money_items", ["flight_id"])
    op.create_index("ix_money_items_entry_id", "money_items", ["entry_id"])


def downgrade() -> None:
    """Revert this revision: every flight's money settings and the ledger are dropped."""
    op.drop_index("ix_money_items_entry_id", table_name="money_items")
    op.drop_index("ix_money_items_flight_id", table_name="money_items")
    op.drop_index("ix_money_items_event_id", table_name="money_items")
    op.drop_table("money_items")
    op.drop_table("flight_money")
