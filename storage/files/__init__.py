"""Files: backups of the database and a chat's export and import."""
