"""A flight can be unrated: its matches stay out of the club's rating list

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-24 22:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: every flight rated, as before."""
    with op.batch_alter_table("flights") as batch:
        batch.add_column(
            sa.Column("unrated", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    """Revert this revision: the flag is dropped."""
    with op.batch_alter_table("flights") as batch:
        batch.drop_column("unrated")
