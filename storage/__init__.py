"""The async ledger: SQLAlchemy 2 Core tables, Alembic migrations, SQLite or PostgreSQL.

The bot calls :class:`storage.ledger.Ledger` only; nothing else here is its business.
"""
