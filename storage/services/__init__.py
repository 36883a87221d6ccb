"""The ledger's services: one small class or module per concern over the store."""
