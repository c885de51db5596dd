"""draws and results: stored bracket plans, bracket match keys, event variant

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("events") as batch:
        batch.add_column(
            sa.Column("variant", sa.String(length=16), nullable=False, server_default="standard")
        )
    with op.batch_alter_table("flights") as batch:
        batch.add_column(sa.Column("bracket_plan", sa.JSON(), nullable=True))
    with op.batch_alter_table("matches") as batch:
        batch.add_column(
            sa.Column("bracket_key", sa.String(length=60), nullable=False, server_default="")
        )


def downgrade() -> None:
    """Revert this revision."""
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("bracket_key")
    with op.batch_alter_table("flights") as batch:
        batch.drop_column("bracket_plan")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("variant")
