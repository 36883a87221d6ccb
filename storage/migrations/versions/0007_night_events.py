"""a night's events: each hand keeps its stake and its seats

A stake changed during a night applies from the next hand: ``hands.stake_cents`` is the
stake the hand was played at (the session's ``stake_cents`` is the stake of the next
hand). Hands recorded before this revision take their night's stake.

A seat changed during a night (/seat) keeps the earlier hands with who played them:
``hands.seats`` (seat -> player id, written when a seat changes after the hand; NULL: the
night's seats as they are) and ``sessions.reseated``.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("hands", sa.Column("stake_cents", sa.Integer(), nullable=True))
    op.add_column("hands", sa.Column("seats", sa.JSON(), nullable=True))
    op.add_column("sessions", sa.Column("reseated", sa.Boolean(), nullable=False,
                                        server_default=sa.false()))
    op.execute("UPDATE hands SET stake_cents = (SELECT sessions.stake_cents FROM sessions "
               "WHERE sessions.id = hands.session_id)")


def downgrade() -> None:
    op.drop_column("sessions", "reseated")
    op.drop_column("hands", "seats")
    op.drop_column("hands", "stake_cents")
