"""The Telegram bot: python-telegram-bot v22, thin handlers over the ledger and engine."""
