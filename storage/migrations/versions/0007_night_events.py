"""a night's events: each hand keeps its stake

A stake changed during a night applies from the next hand: ``hands.stake_cents`` is the
stake the hand was played at (the session's ``stake_cents`` is the stake of the next
hand). Hands recorded before this revision take their night's stake.

Revision ID: 0007
Revises: 0005 (the lead re-chains it after 0006)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("hands", sa.Column("stake_cents", sa.Integer(), nullable=True))
    op.execute("UPDATE hands SET stake_cents = (SELECT sessions.stake_cents FROM sessions "
               "WHERE sessions.id = hands.session_id)")


def downgrade() -> None:
    op.drop_column("hands", "stake_cents")
