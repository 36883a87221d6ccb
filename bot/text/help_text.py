"""Texts longer than a line, kept as catalog message ids: /help, the console's banner, and
the words that name how a hand was read or won. The catalogs translate them."""

from __future__ import annotations

HELP = """<b>Mahjong Tally</b> keeps the score of your table.
/new chengdu @alice @bob carol dave — start a table (E S W N, E deals; no @: a guest)
/new alice bob carol dave — at the chat's preset (/rules): every word a player
A misspelt preset (chengdou) is answered with the right name.
/hu bob 自摸 清一色 根1 — a self-draw
/hu bob from carol 七对 — off carol's discard
/hu bob 七对, dave from carol — two winners on one discard
/hu alice rob dave 平胡 — robbing a kong
/hu bob from carol 12番 花2 — 国标 (mcr): the fan count, or tiles: 碰东东东@dave 55m … +3s
/hu — a guided report with buttons
/kong bob 暗杠 · /draw alice 花猪, bob 听 3 · /qishou bob 板板胡
/table · /undo · /void 3 · /edit 3 bob 自摸 清一色 · /history · /hand 3
/end — the night's summary and who pays whom · /debts · /paid 4 · /settle
/standings · /stats @bob · /chart · /export · /rules chengdu · /score 1112345678999m
/set preset yibin · /set cap_fan=5 · /set stake 0.5 · /set verbose on · /lang en"""


# What a table does during a night (docs/night.md), after the main examples.
HELP_NIGHT = """/penalty dave 诈胡 — a false win · 国标: /penalty dave 错碰 5 — a referee's fine
/adjust alice -10 bob +10 side bet — a correction
/edit 2.1 alice 自摸 七对 — hand 2, event 1 only
/seat dave erin — erin takes dave's seat"""

# Singapore/Malaysia (/new sg) and points only (/new free): their own words.
HELP_SINGAPORE = """/hu bob from carol 3 tai · /hu bob zimo full flush cat — Singapore (/new sg)
/bite bob cat rat · /bite bob set flowers — a bite or a set, paid at once
/hu bob from carol 8 · /hu bob zimo 8 — points only (/new free)
/jifen alice +35 bob -20 carol -15 — points only: every player's change"""

# The console's banner (bot/console/terminal.py); {who} is the speaker, {next} what to try
# next: CONSOLE_NEW with no night going, CONSOLE_GOING with one.
BANNER = """Mahjong Tally — console mode (no Telegram token configured).
You are in a simulated group with alice, bob, carol and dave; you speak as {who}.
{next}
      /as carol   switch speaker      press 1   press a button      quit   leave
      press 5 2   button 2 of message #5      board   the pinned scoreboard
      /import PATH   send a file to import"""
CONSOLE_NEW = "Try:  /new chengdu @alice @bob @carol @dave   then   /hu bob 自摸 清一色 根1"
CONSOLE_GOING = ("A table is going: report the next win (/hu bob 自摸 清一色 根1), /table to "
                 "see it, /end to end the night.")

# How a tile reading's form is named (/score).
FORMS = {"standard": "four sets and a pair", "seven_pairs": "seven pairs", "jiuyao": "九幺",
         "shisanlang": "十三浪", "jiangjiang": "将将胡"}

# How a hand was won, on the guided report's summary.
HOW_LABELS = {"self_draw": "Self-draw", "discard": "Off a discard", "rob_kong": "Robbed kong",
              "kong_replacement": "Kong replacement", "after_kong_discard": "Kong discard"}

# Said when an update could not be handled and nothing was written (bot/delivery/dispatch.py).
NOTHING_RECORDED = "Sorry, something went wrong and nothing was recorded. Please try again."
