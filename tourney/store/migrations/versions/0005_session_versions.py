"""users' session version: logging out, a password change and deactivation end sessions

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("users") as batch:
        # 1 for every account: sessions made before this revision carry no version and
        # end at their next request, so everyone logs in once more.
        batch.add_column(
            sa.Column("session_version", sa.Integer(), nullable=False, server_default="1")
        )


def downgrade() -> None:
    """Revert this revision: sessions are no longer revocable."""
    with op.batch_alter_table("users") as batch:
        batch.drop_column("session_version")
