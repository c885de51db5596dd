"""Stages: a round robin split into pools, a knockout taking its field from the top
finishers of a round robin's pools or of a Swiss; a flight entry's pool and origin

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24 21:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("flights") as batch:
        batch.add_column(sa.Column("pools", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("pool_seeding", sa.String(16), nullable=False, server_default="snake")
        )
        batch.add_column(sa.Column("qualifies_from_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("qualifiers", sa.Integer(), nullable=True))
        batch.add_column(
            sa.Column("cut_ties", sa.String(16), nullable=False, server_default="tiebreaks")
        )
        batch.add_column(sa.Column("cut_picks", sa.JSON(), nullable=True))
        batch.create_foreign_key(
            "fk_flights_qualifies_from_id_flights", "flights", ["qualifies_from_id"], ["id"]
        )
    with op.batch_alter_table("flight_entries") as batch:
        batch.add_column(sa.Column("pool", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("origin", sa.String(20), nullable=False, server_default=""))


def downgrade() -> None:
    """Revert this revision: pools and stage links are dropped."""
    with op.batch_alter_table("flight_entries") as batch:
        batch.drop_column("origin")
        batch.drop_column("pool")
    with op.batch_alter_table("flights") as batch:
        batch.drop_constraint("fk_flights_qualifies_from_id_flights", type_="foreignkey")
        batch.drop_column("cut_picks")
        batch.drop_column("cut_ties")
        batch.drop_column("qualifiers")
        batch.drop_column("qualifies_from_id")
        batch.drop_column("pool_seeding")
        batch.drop_column("pools")
