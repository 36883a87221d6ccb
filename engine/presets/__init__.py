"""Preset data: one TOML file per preset."""
