"""a chat's time zone: by which its days (a night's name) and times are told

None: the chat's language's (Asia/Shanghai for zh-Hans, UTC for English).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("chats", sa.Column("time_zone", sa.String(length=64), nullable=True))


def downgrade() -> None:
    op.drop_column("chats", "time_zone")
