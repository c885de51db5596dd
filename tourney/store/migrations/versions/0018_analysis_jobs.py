"""Analysis jobs: uploaded match records queued for analysis, with their figures

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-25 00:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tourney.store.types import UTCDateTime

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Apply this revision."""
    op.create_table(
        "analysis_jobs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "match_id", sa.Integer(), sa.ForeignKey("matches.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "upload_id", sa.Integer(),
            sa.ForeignKey("uploaded_records.id", ondelete="CASCADE"), nullable=False,
        ),
        sa.Column("plies", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("requested_by_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("created_at", UTCDateTime(timezone=True), nullable=False),
        sa.Column("started_at", UTCDateTime(timezone=True), nullable=True),
        sa.Column("finished_at", UTCDateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_analysis_jobs_match_id", "analysis_jobs", ["match_id"])
    op.create_index("ix_analysis_jobs_status", "analysis_jobs", ["status"])


def downgrade() -> None:
    """Revert this revision."""
    op.drop_index("ix_analysis_jobs_status", "analysis_jobs")
    op.drop_index("ix_analysis_jobs_match_id", "analysis_jobs")
    op.drop_table("analysis_jobs")
