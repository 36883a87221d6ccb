"""app_requests: the Mini App's writes by their idempotency key

A report, an undo or a debt marked paid in the Mini App carries a key the app made when
its form was opened. The first request with a key claims it here (the unique
``(chat_id, key)``) before anything is posted in the group; a second (a double click, two
requests in flight, a retry after a lost answer) finds it and is answered "already
recorded", with nothing written or said. The row keeps the command, the hand it reported
to and its line in the group.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "app_requests",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("action", sa.String(length=8), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=True),
        sa.Column("hand_number", sa.Integer(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_app_requests")),
        sa.UniqueConstraint("chat_id", "key", name=op.f("uq_app_requests_chat_key")),
    )


def downgrade() -> None:
    op.drop_table("app_requests")
