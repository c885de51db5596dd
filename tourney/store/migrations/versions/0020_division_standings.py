"""Division standings: a mixed flight may also rank each division's players separately

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-25 01:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: no flight ranks its divisions separately until asked."""
    with op.batch_alter_table("flights") as batch:
        batch.add_column(sa.Column("division_standings", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    """Revert this revision: the setting goes."""
    with op.batch_alter_table("flights") as batch:
        batch.drop_column("division_standings")
