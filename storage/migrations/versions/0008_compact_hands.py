"""hands: an index of the open hands only

``ix_hands_session_status`` (session, status) held every hand; the reads by status look
for a table's open hand, and the others go by ``uq_hands_session_number``. Its place
takes ``ix_hands_open``, of the open hands alone (at most one a table).

Hands are now written compact (storage.services.hand_json): the report without its defaults, the
result without its explanation (settled again from the report when read). Rows written
before keep their whole report and result, which read as they are: no row is rewritten.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

OPEN = sa.text("status = 'open'")


def upgrade() -> None:
    op.create_index("ix_hands_open", "hands", ["session_id"], unique=False,
                    sqlite_where=OPEN, postgresql_where=OPEN)
    op.drop_index("ix_hands_session_status", table_name="hands")


def downgrade() -> None:
    op.create_index("ix_hands_session_status", "hands", ["session_id", "status"],
                    unique=False)
    op.drop_index("ix_hands_open", table_name="hands")
