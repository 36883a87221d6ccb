"""The Mini App: a live scoreboard, the night's chart and hands, standings, debts, and a
hand entered by its tiles, served by the bot itself (see docs/mini-app.md)."""
