"""Handicap starts, divisions and draw scoring

Matches keep the score they start from (a handicap start such as 1-0); an event lists
its divisions in order and says what a drawn game scores; an entry may be in a
division; a flight may be one division's, and may give the lower division's player a
start of so many points per division of difference.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-25 00:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision: every match starts at 0-0, no divisions, draws score nothing."""
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("start_a", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("start_b", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("start_fixed", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("divisions", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("draw_scoring", sa.String(length=8), nullable=False,
                                   server_default="nothing"))
    with op.batch_alter_table("entries") as batch:
        batch.add_column(sa.Column("division", sa.String(length=40), nullable=False,
                                   server_default=""))
    with op.batch_alter_table("flights") as batch:
        batch.add_column(sa.Column("division", sa.String(length=40), nullable=False,
                                   server_default=""))
        batch.add_column(sa.Column("division_handicap", sa.Integer(), nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    """Revert this revision: starts, divisions and draw scoring are dropped."""
    with op.batch_alter_table("flights") as batch:
        batch.drop_column("division_handicap")
        batch.drop_column("division")
    with op.batch_alter_table("entries") as batch:
        batch.drop_column("division")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("draw_scoring")
        batch.drop_column("divisions")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("start_fixed")
        batch.drop_column("start_b")
        batch.drop_column("start_a")
