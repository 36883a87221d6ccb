"""part payments of debts

A debt carried from a night may be paid in parts: ``paid_cents`` is how much of it has been
paid so far (a debt marked paid before this revision counts as paid in full).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("debts", sa.Column("paid_cents", sa.BigInteger(), nullable=False,
                                     server_default="0"))
    op.execute("UPDATE debts SET paid_cents = cents WHERE paid")


def downgrade() -> None:
    op.drop_column("debts", "paid_cents")
