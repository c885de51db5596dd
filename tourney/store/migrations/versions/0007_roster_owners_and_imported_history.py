"""Roster players remember the account that added them; imported audit history is marked

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("added_by_id", sa.Integer(), nullable=True))
        batch.create_index("ix_players_added_by_id", ["added_by_id"])
        batch.create_foreign_key(
            "fk_players_added_by_id_users", "users", ["added_by_id"], ["id"], ondelete="SET NULL"
        )
    with op.batch_alter_table("audit_entries") as batch:
        batch.add_column(
            sa.Column("imported", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    # A player added before this revision belongs to whoever the log says added it.
    op.execute(
        "UPDATE players SET added_by_id = (SELECT MIN(a.actor_id) FROM audit_entries a "
        "WHERE a.action = 'player.create' AND a.entity_type = 'player' "
        "AND a.entity_id = players.id)"
    )
    # History that came with an imported event precedes the event's import entry: it is
    # marked imported and no longer credited to a local account of the same address.
    op.execute(
        "UPDATE audit_entries SET imported = true, actor_id = NULL WHERE EXISTS ("
        "SELECT 1 FROM audit_entries i WHERE i.action = 'event.import' "
        "AND i.event_id = audit_entries.event_id AND i.id > audit_entries.id)"
    )


def downgrade() -> None:
    """Revert this revision: every director may change every roster player again."""
    with op.batch_alter_table("audit_entries") as batch:
        batch.drop_column("imported")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint("fk_players_added_by_id_users", type_="foreignkey")
        batch.drop_index("ix_players_added_by_id")
        batch.drop_column("added_by_id")
