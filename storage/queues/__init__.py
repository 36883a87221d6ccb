"""The delivery pipeline's tables: updates in (inbox), answers out (outbox), leases."""
