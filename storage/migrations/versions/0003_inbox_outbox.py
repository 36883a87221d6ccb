"""the delivery pipeline's inbox and outbox

Updates are made durable in ``inbox`` before Telegram is told they arrived, keyed by what
Telegram never reuses; answers are written to ``outbox`` in the same transaction as the
change they answer. ``processed_updates`` (idempotency by update id, which Telegram may
restart) is replaced by the inbox's key.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=96), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("update_id", sa.BigInteger(), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("claimed_by", sa.String(length=40), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("status in ('pending', 'done')", name=op.f("ck_inbox_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbox")),
        sa.UniqueConstraint("key", name="uq_inbox_key"),
    )
    op.create_index("ix_inbox_pending", "inbox", ["status", "chat_id", "id"])
    op.create_index("ix_inbox_done_at", "inbox", ["done_at"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("inbox_id", sa.Integer(), nullable=True),
        sa.Column("method", sa.String(length=32), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("collapse", sa.String(length=64), nullable=True),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("claimed_by", sa.String(length=40), nullable=True),
        sa.Column("claimed_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.CheckConstraint("status in ('pending', 'sent', 'dropped', 'failed')",
                           name=op.f("ck_outbox_status")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
    )
    op.create_index("ix_outbox_pending", "outbox", ["status", "chat_id", "id"])
    op.create_index("ix_outbox_sent_at", "outbox", ["sent_at"])
    op.drop_table("processed_updates")


def downgrade() -> None:
    op.create_table(
        "processed_updates",
        sa.Column("update_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("update_id", name=op.f("pk_processed_updates")),
    )
    op.drop_index("ix_outbox_sent_at", table_name="outbox")
    op.drop_index("ix_outbox_pending", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("ix_inbox_done_at", table_name="inbox")
    op.drop_index("ix_inbox_pending", table_name="inbox")
    op.drop_table("inbox")
