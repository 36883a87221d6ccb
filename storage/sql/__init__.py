"""How a unit of work runs: the engine, tables, schema, statements, the store, the writer."""
