"""Scoring and settlement, one module per family."""
