"""Team events: teams and their members in board order, fixtures of board matches, a
flight's board count, an event's board order, and pair consultations (an entry's partner)

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-24 22:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "teams",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "event_id",
            sa.Integer(),
            sa.ForeignKey("events.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("event_id", "name"),
    )
    op.create_index("ix_teams_event_id", "teams", ["event_id"])
    op.create_table(
        "team_members",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "team_id", sa.Integer(), sa.ForeignKey("teams.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "entry_id",
            sa.Integer(),
            sa.ForeignKey("entries.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.UniqueConstraint("team_id", "board"),
        sa.UniqueConstraint("entry_id"),
    )
    op.create_index("ix_team_members_team_id", "team_members", ["team_id"])
    op.create_table(
        "fixtures",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "flight_id",
            sa.Integer(),
            sa.ForeignKey("flights.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "round_id", sa.Integer(), sa.ForeignKey("rounds.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("bracket_key", sa.String(60), nullable=False, server_default=""),
        sa.Column("team_a_id", sa.Integer(), sa.ForeignKey("teams.id"), nullable=False),
        sa.Column("team_b_id", sa.Integer(), sa.ForeignKey("teams.id"), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("boards_a", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("boards_b", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("points_a", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("points_b", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("winner_team_id", sa.Integer(), sa.ForeignKey("teams.id"), nullable=True),
        sa.Column("decided_by", sa.String(16), nullable=False, server_default=""),
        sa.UniqueConstraint("round_id", "position"),
    )
    op.create_index("ix_fixtures_flight_id", "fixtures", ["flight_id"])
    op.create_index("ix_fixtures_round_id", "fixtures", ["round_id"])
    op.create_index("ix_fixtures_team_a_id", "fixtures", ["team_a_id"])
    op.create_index("ix_fixtures_team_b_id", "fixtures", ["team_b_id"])
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("fixture_id", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("board", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_matches_fixture_id_fixtures",
            "fixtures",
            ["fixture_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.create_index("ix_matches_fixture_id", ["fixture_id"])
    with op.batch_alter_table("flights") as batch:
        batch.add_column(sa.Column("boards", sa.Integer(), nullable=True))
    with op.batch_alter_table("events") as batch:
        batch.add_column(
            sa.Column("board_order", sa.String(16), nullable=False, server_default="fixed")
        )
    with op.batch_alter_table("entries") as batch:
        batch.add_column(sa.Column("partner_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            "fk_entries_partner_id_players", "players", ["partner_id"], ["id"]
        )
        batch.create_index("ix_entries_partner_id", ["partner_id"])


def downgrade() -> None:
    """Revert this revision: teams, fixtures and pairs are dropped (board matches stay
    as matches)."""
    with op.batch_alter_table("entries") as batch:
        batch.drop_index("ix_entries_partner_id")
        batch.drop_constraint("fk_entries_partner_id_players", type_="foreignkey")
        batch.drop_column("partner_id")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("board_order")
    with op.batch_alter_table("flights") as batch:
        batch.drop_column("boards")
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_fixture_id")
        batch.drop_constraint("fk_matches_fixture_id_fixtures", type_="foreignkey")
        batch.drop_column("board")
        batch.drop_column("fixture_id")
    op.drop_table("fixtures")
    op.drop_table("team_members")
    op.drop_table("teams")
