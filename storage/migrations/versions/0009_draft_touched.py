"""drafts: when each was last touched, so that abandoned ones are pruned

A draft (the state behind a guided report's buttons, the seat buttons of /new, a report
kept as a question, an /import awaiting its button) is deleted when its dialog ends. One
started and abandoned stayed for good: now ``touched_at`` (set when a draft is created or
changed) lets the pruner delete drafts untouched for ``delivery.draft_retention_hours``,
and a table's drafts go when it ends. ``ix_drafts_touched_at`` serves the pruner,
``ix_drafts_chat_id`` the end of a table. Drafts written before this revision count as
touched when they were created.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("drafts", sa.Column("touched_at", sa.DateTime(timezone=True),
                                      nullable=True))
    op.execute("UPDATE drafts SET touched_at = created_at")
    op.create_index("ix_drafts_touched_at", "drafts", ["touched_at"], unique=False)
    op.create_index("ix_drafts_chat_id", "drafts", ["chat_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_drafts_chat_id", table_name="drafts")
    op.drop_index("ix_drafts_touched_at", table_name="drafts")
    op.drop_column("drafts", "touched_at")
