"""Events choose a match form and the names shown beside rolls; each game keeps the
variant it was played in; variant names up to 32 characters

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-09 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("events") as batch:
        batch.alter_column(
            "variant", existing_type=sa.String(16), type_=sa.String(32), existing_nullable=False
        )
        batch.add_column(
            sa.Column("match_form", sa.String(16), nullable=False, server_default="single")
        )
        batch.add_column(
            sa.Column("dice_names", sa.String(16), nullable=False, server_default="")
        )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("variant", sa.String(32), nullable=True))
    # Every game so far was played in its event's variant.
    op.execute(
        "UPDATE games SET variant = (SELECT e.variant FROM events e JOIN flights f "
        "ON f.event_id = e.id JOIN matches m ON m.flight_id = f.id "
        "WHERE m.id = games.match_id)"
    )


def downgrade() -> None:
    """Revert this revision: every game is in its event's variant again.

    Events of a variant whose name is longer than 16 characters, or of a match form
    other than one variant, cannot be kept by the older schema: the downgrade refuses.
    """
    bind = op.get_bind()
    kept = bind.execute(
        sa.text(
            "SELECT COUNT(*) FROM events WHERE LENGTH(variant) > 16 OR match_form <> 'single'"
        )
    ).scalar_one()
    if kept:
        raise RuntimeError(
            f"{kept} event(s) use a match form or a variant the older version does not "
            "know; change them to one variant first."
        )
    with op.batch_alter_table("games") as batch:
        batch.drop_column("variant")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("dice_names")
        batch.drop_column("match_form")
        batch.alter_column(
            "variant", existing_type=sa.String(32), type_=sa.String(16), existing_nullable=False
        )
