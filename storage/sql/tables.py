"""SQLAlchemy Core tables. Alembic's revisions create exactly these (a test checks it)."""

from __future__ import annotations

import json
from functools import partial

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)

# JSON columns are written without the spaces of json.dumps's default separators.
json_serializer = partial(json.dumps, separators=(",", ":"))

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

SEAT = String(1)

chats = Table(
    "chats",
    metadata,
    Column("id", BigInteger, primary_key=True, autoincrement=False),  # Telegram chat id
    Column("language", String(16), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("overrides", JSON, nullable=False),
    Column("stake_cents", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # Answer every event with the full explanation instead of the compact line.
    Column("verbose", Boolean, nullable=False, server_default=false()),
    # Its days and times are told in this zone (storage.sql.clock); None: its language's.
    Column("time_zone", String(64)),
)

players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), nullable=False),
    Column("telegram_id", BigInteger, nullable=True),  # None for a guest
    Column("name", String(64), nullable=False),
    Column("name_key", String(64), nullable=False),  # lower-cased, for lookups
    Column("username", String(64), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("chat_id", "name_key", name="uq_players_chat_name"),
    UniqueConstraint("chat_id", "telegram_id", name="uq_players_chat_telegram"),
)

nights = Table(
    "nights",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, ForeignKey("chats.id", ondelete="CASCADE"), nullable=False),
    Column("preset", String(32), nullable=False),
    Column("rules", JSON, nullable=False),  # the frozen snapshot of the options
    Column("stake_cents", Integer, nullable=False),
    Column("seat_e", Integer, ForeignKey("players.id"), nullable=False),
    Column("seat_s", Integer, ForeignKey("players.id"), nullable=False),
    Column("seat_w", Integer, ForeignKey("players.id"), nullable=False),
    Column("seat_n", Integer, ForeignKey("players.id"), nullable=True),  # empty for three
    Column("dealer", SEAT, nullable=False),
    Column("status", String(8), nullable=False),  # open | ended
    Column("hands", Integer, nullable=False),  # hands numbered so far
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True), nullable=True),
    Column("board_message_id", BigInteger, nullable=True),
    # A player left or joined during the night (/seat): its hands keep their own seats.
    Column("reseated", Boolean, nullable=False, server_default=false()),
    # Each seat's net this night: the sum of its entries, kept as they are written.
    *(Column(f"net_{seat}", Integer, nullable=False, server_default="0") for seat in "eswn"),
    CheckConstraint("status in ('open', 'ended')", name="status"),
    Index("ix_nights_chat_status", "chat_id", "status"),
    # At most one night going per chat, even with two writers on PostgreSQL.
    Index("uq_nights_one_open", "chat_id", unique=True,
          sqlite_where=text("status = 'open'"), postgresql_where=text("status = 'open'")),
)

hands = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("night_id", Integer, ForeignKey("nights.id", ondelete="CASCADE"),
           nullable=False),
    Column("number", Integer, nullable=False),
    Column("dealer", SEAT, nullable=False),
    # The validated engine HandReport and what its HandResult holds that the engine does not
    # give back from it: compact (storage.services.hand_json; rows written before hold them whole).
    Column("report", JSON, nullable=False),
    Column("result", JSON, nullable=False),
    Column("status", String(8), nullable=False),  # open | closed | void
    Column("next_dealer", SEAT, nullable=True),
    Column("reporters", JSON, nullable=False),  # who reported each event, in order
    # The stake the hand was played at (None: its night's, for hands imported from files
    # written before stakes could change during a night).
    Column("stake_cents", Integer, nullable=True),
    # Who sat where for this hand (seat -> player id), written when a seat changes after
    # it; None: the seats of its night as they are now.
    Column("seats", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("night_id", "number", name="uq_hands_night_number"),
    CheckConstraint("status in ('open', 'closed', 'void')", name="status"),
    Index("ix_hands_chat_id", "chat_id", "id"),
    # The open hand of a table (at most one): only open hands are in it, so it costs a
    # report nothing once the hand closes. Other reads by table use uq_hands_night_number.
    Index("ix_hands_open", "night_id", sqlite_where=text("status = 'open'"),
          postgresql_where=text("status = 'open'")),
)

entries = Table(
    "entries",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("night_id", Integer, ForeignKey("nights.id", ondelete="CASCADE"),
           nullable=False),
    Column("hand_id", Integer, ForeignKey("hands.id", ondelete="CASCADE"), nullable=False),
    Column("event_index", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("delta", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Index("ix_entries_hand", "hand_id", "event_index"),
    Index("ix_entries_night_player", "night_id", "player_id"),
    Index("ix_entries_chat_created", "chat_id", "created_at"),
)

# One row per player per closed (or open) hand: what stats need, indexed so that the
# biggest hand is one index probe however long the history.
hand_players = Table(
    "hand_players",
    metadata,
    Column("hand_id", Integer, ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("delta", Integer, nullable=False),
    Column("won", Integer, nullable=False),
    Column("self_draws", Integer, nullable=False),
    Column("dealt_in", Integer, nullable=False),
    Column("win_points", Integer, nullable=False),
    Index("ix_hand_players_best", "chat_id", "player_id", "win_points"),
)

# Running totals per player: standings and statistics cost the same at any history length.
totals = Table(
    "totals",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id", ondelete="CASCADE"),
           primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("net", BigInteger, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("wins", Integer, nullable=False),
    Column("self_draws", Integer, nullable=False),
    Column("dealt_in", Integer, nullable=False),
    Column("win_points", BigInteger, nullable=False),
    Index("ix_totals_chat_net", "chat_id", "net"),
)

audit = Table(
    "audit",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("night_id", Integer, nullable=True),
    Column("hand_number", Integer, nullable=True),
    Column("action", String(16), nullable=False),  # undo | void | amend | seat | merge | ...
    Column("actor", BigInteger, nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("before", JSON, nullable=True),
    Column("after", JSON, nullable=True),
    Index("ix_audit_chat", "chat_id", "id"),
)

debts = Table(
    "debts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("night_id", Integer, ForeignKey("nights.id", ondelete="CASCADE"),
           nullable=False),
    Column("payer_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("payee_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("points", Integer, nullable=False),
    Column("cents", BigInteger, nullable=False),
    Column("paid", Boolean, nullable=False),
    # How much of ``cents`` has been paid so far (part payments); ``paid`` once it is all.
    Column("paid_cents", BigInteger, nullable=False, server_default="0"),
    Index("ix_debts_chat", "chat_id", "paid"),
)

# The delivery pipeline. An update is made durable here before Telegram is told it was
# received; ``key`` is what Telegram never reuses (a message's chat and id, a button
# press's query id), so a re-delivered update is refused by the unique index.
inbox = Table(
    "inbox",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(96), nullable=False),
    Column("chat_id", BigInteger, nullable=False),  # 0: the update has no chat
    Column("update_id", BigInteger, nullable=False),
    Column("payload", JSON, nullable=False),  # the update as Telegram sent it
    Column("status", String(8), nullable=False),  # pending | done
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("claimed_by", String(40), nullable=True),  # a worker, while it handles the row
    Column("claimed_until", DateTime(timezone=True), nullable=True),
    Column("received_at", DateTime(timezone=True), nullable=False),
    Column("done_at", DateTime(timezone=True), nullable=True),
    UniqueConstraint("key", name="uq_inbox_key"),
    CheckConstraint("status in ('pending', 'done')", name="status"),
    Index("ix_inbox_pending", "status", "chat_id", "id"),
    Index("ix_inbox_done_at", "done_at"),
)

# What the bot says, written in the same transaction as the change it answers, and sent
# (with retries) by the sender. ``collapse`` groups rows of which only the newest matters
# (a chat's scoreboard).
outbox = Table(
    "outbox",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("inbox_id", Integer, nullable=True),
    Column("method", String(32), nullable=False),
    Column("params", JSON, nullable=False),
    Column("collapse", String(64), nullable=True),
    Column("status", String(8), nullable=False),  # pending | sent | dropped | failed
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("claimed_by", String(40), nullable=True),
    Column("claimed_until", DateTime(timezone=True), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("sent_at", DateTime(timezone=True), nullable=True),
    Column("error", Text, nullable=True),
    CheckConstraint("status in ('pending', 'sent', 'dropped', 'failed')", name="status"),
    Index("ix_outbox_pending", "status", "chat_id", "id"),
    Index("ix_outbox_sent_at", "sent_at"),
)

# Drafts behind inline buttons: callback data carries only a draft id and a version.
# Short-lived: a table's go when it ends, any untouched for long are pruned (touched_at:
# created or last changed; NULL only if written by a version before revision 0009).
drafts = Table(
    "drafts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("version", Integer, nullable=False),
    Column("data", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("text", Text, nullable=True),
    Column("touched_at", DateTime(timezone=True), nullable=True),
    Index("ix_drafts_touched_at", "touched_at"),
    Index("ix_drafts_chat_id", "chat_id"),
)

# The Mini App's writes (a report, an undo, a debt paid), each under the idempotency key the
# app made when its form was opened: a key seen before in the chat is the same report sent
# again (a double click, a retry) and is answered "already recorded", with nothing written
# or said. Kept with the hand it reported to (``night_id``, ``hand_number``) and the
# report's line in the group (``message_id``: its inbox key; the answer replies to it).
app_requests = Table(
    "app_requests",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("chat_id", BigInteger, nullable=False),
    Column("key", String(64), nullable=False),
    Column("user_id", BigInteger, nullable=False),
    Column("action", String(8), nullable=False),  # record | undo | paid
    Column("text", Text, nullable=False),  # the command it sent
    Column("night_id", Integer, nullable=True),
    Column("hand_number", Integer, nullable=True),
    Column("message_id", BigInteger, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("chat_id", "key", name="uq_app_requests_chat_key"),
)
