"""Club money: a flight's refund policy on withdrawal, and payments reversed when they
were marked by mistake

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("flight_money") as batch:
        batch.add_column(
            sa.Column("refund_policy", sa.String(16), nullable=False, server_default="before_draw")
        )
    with op.batch_alter_table("money_items") as batch:
        batch.add_column(sa.Column("reversed", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("reversed_at", UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Revert this revision: refund policies and the record of reversed payments go."""
    with op.batch_alter_table("money_items") as batch:
        batch.drop_column("reversed_at")
        batch.drop_column("reversed")
    with op.batch_alter_table("flight_money") as batch:
        batch.drop_column("refund_policy")
