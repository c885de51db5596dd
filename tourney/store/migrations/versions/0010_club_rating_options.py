"""A club's rating list options (provisional players, public player pages); the rating
experience and rated matches a roster player carries in from an imported list

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24 21:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(
            sa.Column("provisional_below", sa.Integer(), nullable=False, server_default="0")
        )
        batch.add_column(
            sa.Column("public_profiles", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("rating_experience", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("rated_matches", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Revert this revision: the options and the carried-in experience are dropped."""
    with op.batch_alter_table("players") as batch:
        batch.drop_column("rated_matches")
        batch.drop_column("rating_experience")
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("public_profiles")
        batch.drop_column("provisional_below")
