"""events' variant options; games without a winner (long nardy's last-roll draw)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("events") as batch:
        # NULL: the variant's default options (every event before this revision).
        batch.add_column(sa.Column("variant_options", sa.JSON(), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.alter_column(
            "winner", existing_type=sa.String(length=1), existing_nullable=False, nullable=True
        )


def downgrade() -> None:
    """Revert this revision.

    A drawn game has no winner, which the older schema cannot hold; rather than invent
    one, the downgrade refuses while any drawn game is stored.
    """
    drawn = op.get_bind().execute(sa.text("SELECT COUNT(*) FROM games WHERE winner IS NULL"))
    count = drawn.scalar() or 0
    if count:
        raise RuntimeError(
            f"{count} drawn game(s) are stored; the schema before revision 0004 cannot hold "
            "a game without a winner. Delete or correct those games first."
        )
    with op.batch_alter_table("games") as batch:
        batch.alter_column(
            "winner", existing_type=sa.String(length=1), existing_nullable=True, nullable=False
        )
    with op.batch_alter_table("events") as batch:
        batch.drop_column("variant_options")
