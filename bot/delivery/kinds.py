"""The kinds of update the bot asks Telegram for (polling and webhook alike); apart from
bot.delivery.intake so that the parent of webhook workers, which calls ``setWebhook``,
does not import the storage and the whole bot."""

ALLOWED_UPDATES = ["message", "callback_query", "my_chat_member"]
