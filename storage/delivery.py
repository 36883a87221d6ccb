"""What the bot's delivery pipeline and the ledger's queues exchange: the face of
``storage/queues/`` for the bot (their operations are the ledger's ``inbox``, ``outbox``
and ``pipeline``, :mod:`storage.ledger`).

- an update made durable (:class:`Incoming`) and waiting to be handled (:class:`Pending`);
- what a handler says (:class:`Outgoing`), as the outbox holds it (:class:`Queued`);
- the :class:`Answer` that rides on a write, with its :data:`Render`, and
  :class:`AlreadyHandled` (the update was handled meanwhile);
- the queues' bounds: the default lease, and how many rows a prune deletes a transaction
  (the queues' keys and answers, the buttons' abandoned drafts)."""

from __future__ import annotations

from storage.queues.leases import QUEUE_PRUNE_BATCH
from storage.queues.messages import (
    DEFAULT_LEASE,
    AlreadyHandled,
    Answer,
    Incoming,
    Outgoing,
    Pending,
    Queued,
    Render,
)
from storage.services.drafts import PRUNE_BATCH as DRAFT_PRUNE_BATCH

__all__ = ["DEFAULT_LEASE", "DRAFT_PRUNE_BATCH", "QUEUE_PRUNE_BATCH", "AlreadyHandled",
           "Answer", "Incoming", "Outgoing", "Pending", "Queued", "Render"]
