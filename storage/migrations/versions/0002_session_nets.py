"""running session nets per seat

Each session keeps its seats' nets (the sums of their entries), moved by every write that
moves the entries, so that showing a table no longer sums its whole history.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

SEATS = "eswn"


def upgrade() -> None:
    for seat in SEATS:  # plain ALTER TABLE on both backends (no table rebuild)
        op.add_column("sessions", sa.Column(f"net_{seat}", sa.Integer(), nullable=False,
                                            server_default="0"))
    for seat in SEATS:
        op.execute(
            f"UPDATE sessions SET net_{seat} = (SELECT COALESCE(SUM(entries.delta), 0) "
            f"FROM entries WHERE entries.session_id = sessions.id "
            f"AND entries.player_id = sessions.seat_{seat})")


def downgrade() -> None:
    for seat in SEATS:  # SQLite 3.35+ drops a column in place
        op.drop_column("sessions", f"net_{seat}")
