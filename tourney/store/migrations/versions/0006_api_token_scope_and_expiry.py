"""API tokens' scope (read, results, full) and optional expiry

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24 11:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("api_tokens") as batch:
        # Tokens made before this revision keep doing what they did: full scope, no expiry.
        batch.add_column(
            sa.Column("scope", sa.String(length=16), nullable=False, server_default="full")
        )
        batch.add_column(sa.Column("expires_at", UTCDateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Revert this revision: every token acts with its user's full rights until revoked."""
    with op.batch_alter_table("api_tokens") as batch:
        batch.drop_column("expires_at")
        batch.drop_column("scope")
