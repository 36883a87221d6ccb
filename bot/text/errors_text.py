"""English templates for refusals, by code; the catalogs translate them. Each says what
was wrong and, where it helps, how to say it right."""

from __future__ import annotations

from html import escape

from bot.text.i18n import is_chinese, t
from bot.text.words import (
    HOW,
    listing,
    option_list,
    pattern_name,
    pattern_shown,
    preset_list,
    preset_name,
    typed_name,
    value_list,
)

MESSAGES: dict[str, str] = {
    # grammar
    "hu_empty": "Say who won and how, e.g. /hu alice 自摸 清一色 根1 — or send /hu alone "
                "for buttons.",
    "hu_no_winner": "{token} is not a player at this table. Example: /hu bob from carol 七对",
    # someone else the report names (from, rob, 杠上炮, 海底炮, 承包 …) who is not seated
    "hu_not_seated": "{token} is not a player at this table. Example: /hu bob from carol 七对",
    # /hu 自摸, /hu 点炮 alice: the winner comes first
    "hu_winner_first": "Say who won first, then how: /hu bob 自摸 七对, or /hu bob 七对 "
                       "alice 点炮.",
    "hu_no_how": "Say how they won: 自摸 (self-draw), from X, rob X, 杠上花 or 杠上炮 X. "
                 "Example: /hu bob from carol 七对",
    "needs_player": "{word} needs a player after it. Example: /hu bob from carol 七对",
    # The same at a Hong Kong table, whose examples are its own (no 七对 there)
    "hu_no_winner_hongkong": "{token} is not a player at this table. Example: /hu bob from "
                             "carol 5番",
    "hu_not_seated_hongkong": "{token} is not a player at this table. Example: /hu bob "
                              "from carol 5番",
    "hu_winner_first_hongkong": "Say who won first, then how: /hu bob zimo 3番, or /hu bob "
                                "from alice 5番.",
    "hu_no_how_hongkong": "Say how they won: zimo (self-draw), from X, rob X (搶槓) or 槓上開花 "
                          "(on a kong's replacement). Example: /hu bob from carol 5番",
    "needs_player_hongkong": "{word} needs a player after it. Example: /hu bob from carol "
                             "5番",
    "needs_tile": "{word} needs a tile after it, e.g. 本金 5p",
    "unexpected_player": "{token} is a player; put each winner first, separated by commas: "
                         "/hu bob 七对, carol from alice",
    "bad_jing": "Write 精 counts as jing=alice:1/1,bob:0/2 (正精/副精).",
    "jing_joined": "Write the 精 counts joined to {token}: {example} (正精/副精 for each "
                   "player, e.g. 精=alice:1/1,bob:0/2).",
    "count_usage": "{word} takes a number from {least} to {most}, written with it: {word}1 "
                   "(or {word} 1).",
    # Singapore's tai, said after the number (3 tai, 3台)
    "count_usage_tai": "The tai count is a number from {least} to {most}, written before "
                       "tai: 3 tai (or 3台).",
    "no_tile_zero": "There is no tile {token}: ranks run from 1 to 9, e.g. 本金 5m.",
    "ready_takes_fan": "听 takes the fan the player is ready for (a number from 1 to {most}) "
                       "or their tiles, not {token}: /draw bob 听 3, or bob 听 "
                       "1112345678999m.",
    "kong_usage": "Example: /kong bob 暗杠 (concealed) — or 补杠 (added), or 直杠 (exposed) "
                  "from carol.",
    "draw_usage": "{token}: example: /draw alice 花猪, bob 听 3, carol 听 1112345678999m",
    "qishou_usage": "Example: /qishou bob 板板胡",
    "bad_stake": "{token} is not an amount; write e.g. 0.5 or 2.",
    "bad_time_zone": "{token} is not a time zone; write e.g. /set tz +8, /set tz "
                     "Asia/Singapore or /set tz default.",
    "new_usage": "Example: /new chengdu @alice @bob carol dave — four players in seat "
                 "order E S W N, or three (E S W), e.g. /new 三人两房 @alice @bob carol; "
                 "E deals first.",
    "unknown_preset_new": "Unknown preset {name}; choose one of: {valid}. To seat a guest "
                          "named {name}, name the preset first: /new {preset} {name} "
                          "{players}",
    "preset_typo_new": "Unknown preset {name}; did you mean {suggestion}? /new {suggestion} "
                       "{players} — or, to seat a player named {name}, name the preset "
                       "first: /new {preset} {name} {players}",
    "preset_typo": "Unknown preset {name}; did you mean {suggestion}? /new {suggestion} "
                   "{players}",
    "number_usage": "Give the hand's number, e.g. /void 3 (see /history).",
    "set_usage": "Examples: /set preset yibin · {examples} · /set verbose on · /set lang en",
    "edit_usage": "Give the hand's number and what happened in it, e.g. /edit 3 bob 自摸 七对 "
                  "(see /history).",
    "undo_usage": "/undo takes back the last event and takes nothing after it ({token}): to "
                  "take back a whole hand, /void 3; to correct one, /edit 3 bob 自摸 七对. "
                  "Nothing was undone.",
    "set_needs_value": "{option} needs its value after it: /set {option} and the value, as "
                       "/rules shows it (/set 封顶 5, /set 退税 否).",
    "not_player": "Only the players at this table, or a chat admin, can do that.",
    "admins_only": "Only chat admins can change house rules.",
    "group_only": "This works in a group, where the table plays.",
    "stale_button": "That button is out of date.",
    "score_usage": "Example: /score 123m 456m 789p 11p 999s (13 tiles for waits, 14 to check "
                   "a win). Options: family=sichuan|changsha|jiangxi wild=2m,4m",
    "score_mcr_usage": "Example: /score mcr 吃234m 55m 456p 789s 12s +3s 花2 (a Chinese Official "
                       "hand: melds with their source, 碰东东东@W, the standing tiles, +the "
                       "winning tile, 自摸 if self-drawn).",
    "unknown_player": "{name} has not played in this chat.",
    "seat_usage": "Name who leaves and who takes the seat, between hands: /seat dave erin",
    "seat_mid_hand": "Hand {number} is still being played; change seats when it ends "
                     "(or /undo its last event).",
    "seat_not_seated": "{name} is not at this table. Example: /seat dave erin",
    "seat_already_seated": "{name} already sits at this table. Example: /seat dave erin",
    "night_full": "{name} cannot join: one night holds at most {limit} people. End this "
                  "night with /end, then start a new one with /new.",
    "undo_seat_changed": "A seat changed after hand {number}: change it with /edit "
                         "{number} or /void {number}.",
    "penalty_usage": "Name who made the false win: /penalty dave 诈胡",
    "penalty_no_player": "{token} is not a player at this table. Example: /penalty dave 诈胡",
    # The same at a Chinese Official table, which calls a false win 错和
    "penalty_no_player_mcr": "{token} is not a player at this table. Example: /penalty dave "
                             "错和",
    "penalty_false_win_points_mcr": "{token}: 错和 costs what the table's rules say: leave "
                                    "out the number. A referee's fine names the foul: "
                                    "/penalty dave 错碰 5.",
    "penalty_false_win_points": "{token}: a false win costs what the table's rules say, "
                                "without a number. A referee's fine names its foul: "
                                "/penalty dave 错碰 5 (Chinese Official tables).",
    "penalty_fine_points": "Say the fine, the points the offender pays each other player: "
                           "/penalty dave 错碰 5",
    "penalty_fine_range": "{token}: a fine is a whole number of points from 1 to {most}, paid "
                          "to each other player.",
    "mcr_penalty_usage": "Name the player and what for: /penalty dave 错和 (a false win), or a "
                         "foul and the referee's fine, the points paid to each other player: "
                         "/penalty dave 错碰 5. The fouls: 错吃, 错碰, 错杠, 超时, 亮牌, 犯规. "
                         "/penalty alone gives buttons.",
    "adjust_usage": "Name each player and the points they gain or pay, adding up to zero: "
                    "/adjust alice -10 bob +10 side bet",
    "adjust_no_player": "{token} is not a player at this table. Example: "
                        "/adjust alice -10 bob +10",
    "adjust_twice": "{token} is named twice; name each player once: /adjust alice -10 bob +10",
    "adjust_too_big": "{token}: one adjustment moves at most {most} points per player.",
    "adjust_not_zero": "An adjustment must add up to zero; these add up to {total}. Example: "
                       "/adjust alice -10 bob +10",
    # ledger
    "no_night_going": "No table is going in this chat; start one with /new.",
    "night_open": "A table is already going here; /end it first.",
    "hand_over": "Hand {number} is over: nothing more can join it, so nothing was recorded.",
    "same_player_twice": "A player cannot sit twice.",
    "four_players": "A table has four players, or three; you named {count}.",
    "four_players_open": "A table has four players, or three; you named {count}. And a "
                         "table is already going here: /end it first.",
    "no_three_players": "{preset} has no three-player form; it is played by four. Three "
                        "can play 三人两房, 三人三房, or chengdu, sichuan, yibin, changsha.",
    "three_player_preset": "{preset} is played by three: name three players, e.g. "
                           "/new 三人两房 @alice @bob carol.",
    "nothing_to_undo": "Nothing has been recorded at this table yet.",
    "nothing_left_to_undo": "Nothing left to undo.",
    "not_reporter": "Only the player who reported it, or an admin, can undo it.",
    "undo_end_paid": "A debt of that night was already marked paid, so its end cannot be "
                     "undone; start a new night with /new.",
    "no_hand": "There is no hand {number} to change (see /history).",
    "amend_reopens": "That correction would leave the hand unfinished after later hands.",
    "no_event": "Hand {number} has no event {event}; it has {events} (see /hand {number}).",
    "edit_not_in_hand": "{token} did not play hand {number}: a seat changed after it. Name "
                        "who played it (see /hand {number}).",
    "edit_event_usage": "/edit {number}.{event} replaces one event: give just that one, "
                        "e.g. /edit {number}.{event} alice 自摸 七对",
    "no_player": "No such player in this chat.",
    # engine
    "unknown_pattern": "Unknown pattern {name}; did you mean: {suggestions}?",
    # The same, with every name the table counts (names) after the closest (suggestions).
    "unknown_pattern_listed": "Unknown pattern {name}; did you mean: {suggestions}? This "
                              "table counts: {names}.",
    "unknown_pattern_unlike": "Unknown pattern {name}. This table counts: {names}.",
    "patterns_exclude": "{first} and {second} cannot both hold in one hand.",
    "pays_self": "{seat} cannot pay for their own win.",
    "own_discard": "{seat} cannot win off their own discard.",
    "own_kong": "{seat} cannot rob their own kong.",
    "not_in_hand": "{seat} has already won this hand.",
    "no_such_seat": "This table seats three (East, South, West): nobody sits {seat}.",
    "huazhu_two_suits": "With two suits nobody is 花猪: there is no suit to lack.",
    "needs_from": "Say whose discard or kong it was: from X / rob X.",
    "self_draw_from": "A self-draw is paid by everyone still in; drop the 'from'.",
    "one_self_draw": "Only one player wins a self-draw.",
    "too_many_gen": "{gen} 根 beside {kongs} kong(s): the tiles leave room for at most "
                    "{most} 根.",
    # what the hand so far or the tiles make impossible (engine/report_checks.py)
    "too_many_kongs": "{seat} already made four kongs this hand: a hand holds at most four.",
    "no_kong_made": "{seat} made no kong in this hand, so this is not 杠上炮: report the "
                    "kong first (/kong), or the win as from {seat}.",
    "rob_no_pong": "{seat} made four kongs this hand: no pong is left to rob a kong from.",
    "rob_kong_shape": "{pattern} holds every tile at least twice, so it cannot rob a kong: "
                      "the robbed tile is the fourth of its kind.",
    "rob_kong_tiles": "These tiles hold every kind at least twice, so none of them can be a "
                      "robbed kong's tile (the fourth of its kind).",
    "too_many_jing": "The wall holds {copies} wildcards: the 精 held and the 飞宝 thrown add "
                     "up to more.",
    "kongs_not_paid": "This preset does not pay for kongs when made; count them in the win "
                      "(杠1).",
    "kongs_not_paid_free": "This table scores points only: a kong is paid in the amount of "
                           "the hand's win (/hu bob zimo 8), not when made.",
    "kongs_not_paid_instant": "This table pays nothing for a kong when made: its instant "
                              "payouts are off (/rules).",
    "wrong_family": "That does not belong to this table's rules.",
    "wrong_family_of": "That belongs to {other} tables; this table ({table}) does not count "
                       "it.",
    "tiles_not_a_win": "Those tiles do not make a winning hand under these rules.",
    "tiles_contradict": "The tiles do not show {pattern}.",
    "hand_closed": "The hand is over; this starts a new one — report it again.",
    "self_draw_only": "This preset wins by self-draw (or robbing a kong) only.",
    "too_many_birds": "This table draws {birds} bird(s).",
    "changsha_fan": "Changsha counts big wins, never fan: name them (/hu bob 自摸 清一色 "
                    "碰碰胡), or none for a small win. Nothing was recorded.",
    "ready_needs_value": "{seat} is ready: give their fan (听 3) or their tiles.",
    "huazhu_ready": "{seat} cannot be both 花猪 and ready.",
    "needs_indicator": "With 听用/精 tiles, name the turned-up tile too: 本金 5p",
    "chow_not_allowed": "This family has no chow: {meld}.",
    "bad_report": "That report cannot be scored: {what}. Nothing was recorded.",
    "unknown_option": "Unknown option {option}; valid: {valid}.",
    "bad_option_value": "Bad value for {option}; valid: {valid}.",
    "unknown_preset": "Unknown preset {name}; valid: {valid}.",
    "too_many_names": "A table seats four players, or three; you named {count}. If {name} "
                      "is meant as the rules, the presets are: {valid}.",
    "starting_not_allowed": "{name} is not played at this table.",
    "starting_not_changsha": "起手胡 (a win on the starting hand) is Changsha's; this table "
                             "plays {table}, which has none.",
    "wild_stands_in": "{pattern} means no 听用 stands in for another tile, but this hand "
                      "needs a 听用 ({tiles} at this 本金) as another tile. Leave out "
                      "{pattern}, or check the tiles.",
    # tiles
    "bad_token": "Cannot read {token} (position {position}). Write tiles like 123m 456p "
                 "789s 11z, or 一万 五筒 红中.",
    "bad_rank": "There is no tile {token}.",
    "fifth_copy": "{token} (position {position}) would be a fifth copy of that tile.",
    "tile_count": "{count} tiles where {expected} are expected.",
    "honor_not_allowed": "{token}: this family plays without winds and dragons.",
    "too_many_wild": "{count} wildcards; a hand holds at most 8.",
    "bad_meld": "{meld} is not a pong, kong or chow; write melds like [555p] or [2222m].",
    "melds_without_tiles": "Declared melds need the hand's tiles too.",
    "bad_indicator": "The turned-up tile must be one tile, e.g. 本金 5p.",
    # reports
    "duplicate_winner": "A player is named twice as a winner.",
    "kong_needs_discarder": "A direct kong names whose discard it took: 直杠 from carol.",
    "bad_kong": "This family has no wildcard kong.",
    "starting_after_win": "Starting-hand wins come before the hand's win.",
    "bad_feeder": "承包: the feeders must be two other players.",
    "fourth_without_feeder": "承包: name the player who fed three melds first.",
    "feibao_winner": "{seat} won: give their 飞宝 as the winner's count.",
    "jing_without_win": "The 精 reward is paid only when a hand is won.",
    "not_ready": "{seat}'s tiles are not ready.",
    "bad_override": "{item}: write option=value.",
    # ledger
    "no_guest": "No guest named {name} here.",
    "already_linked": "That account already plays here.",
    "bad_name": "A player needs a name.",
    "no_debt": "No debt {id} in this chat (see /debts).",
    "paid_usage": "Give the debt's number, e.g. /paid 4, or /paid 4 2.50 for part of it "
                  "(see /debts).",
    "not_party": "Only the two players of that debt, or an admin, can mark it paid.",
    "not_empty": "Restore into an empty database.",
    "missing_file": "{table}.csv is missing.",
    # pictures and files
    "no_nights": "No night has been played in this chat yet; start one with /new.",
    "night_out_of_range": "There is no night {number}; this chat has played {nights}.",
    "chart_usage": "Example: /chart for the night going (or the last one), /chart 2 for the "
                   "second night.",
    "export_usage": "Example: /export for every night, /export 2 for the second night only.",
    "export_too_large": "The export is over 50 MB, more than Telegram takes; export one night "
                        "at a time: /export 2.",
    "import_admins_only": "Only chat admins can import a ledger.",
    "import_usage": "Send the zip made by /export with the caption /import, or reply /import "
                    "to it.",
    "import_too_big": "That file is over 20 MB, more than a bot can download.",
    "import_download": "The file could not be fetched from Telegram; send it again.",
    "import_not_empty": "This chat already has a ledger; /import works only in a chat with "
                        "none.",
    "import_night_full": "That file cannot be imported: its night {night} holds more than "
                         "{limit} people, the most one night may hold. Nothing was written.",
    "bad_import": "That file cannot be imported ({where}: {why}); nothing was written. Send "
                  "the zip made by /export, unchanged.",
    # money across nights and looking back
    "debt_paid": "Debt {id} is already paid (see /debts).",
    "pay_too_much": "That is more than {payer} owes {payee} ({owed}); /paid {id} alone pays "
                    "it all.",
    "amount_usage": "{token} is not an amount; write it like 5 or 2.50, e.g. /paid 4 2.50.",
    "amount_zero": "Pay more than 0, e.g. /paid 4 2.50.",
    "amount_negative": "An amount cannot be negative: /paid records what the payer paid.",
    "bad_amount": "Pay more than 0, e.g. /paid 4 2.50.",
    "no_debts": "No unpaid debts in this chat.",
    "settle_stale": "The debts have changed since; send /settle again.",
    "not_party_settle": "Only players with an open debt, or an admin, can confirm.",
    "standings_usage": "Examples: /standings · /standings 30d (the last 30 days, at most "
                       "{max}).",
    "history_usage": "{token} is neither a page nor a day. Examples: /history (this night) · "
                     "/history 2 (its page 2) · /history all · /history 2026-11-20 (that "
                     "day's nights).",
    "hand_usage": "Examples: /hand 3 (hand 3 of this night) · /hand 3 2026-11-20 (of that "
                  "day's night; 2026-11-20/2 for its second night, as /history shows).",
    "hand_word": "{token} is neither a hand's number nor a day. Examples: /hand 3 (hand 3 of "
                 "this night) · /hand 3 2026-11-20 (of that day's night; 2026-11-20/2 for its "
                 "second night, as /history shows).",
    "stats_usage": "Example: /stats @bob (or /stats for yourself).",
    "bad_date": "{token} is not a date; write it like 2026-11-20.",
    "no_night": "No night {night} in this chat (see /history all).",
    "no_hand_here": "There is no hand {number} in night {night} (see /history).",
    "no_page": "There are only {pages} page(s).",
    # bounds and impossible reports
    "number_out_of_range": "{token}: give a number from {least} to {most}.",
    "too_many_birds_said": "{token}: one win draws at most {most} birds.",
    "foreign_words": "{words}: that is how {other} counts; {table} does not count it.",
    "too_many_words": "That line is too long: at most {most} words. Nothing was recorded.",
    "pattern_repeated": "{word} is named more than once: name each pattern once. Nothing "
                        "was recorded.",
    "stake_too_big": "{token}: the stake is at most {most} per point.",
    "draw_twice": "{token} is named twice; say everything about a player once.",
    "draw_contradicts": "{seat} cannot be both ready and not ready.",
    "tianhu_dealer": "天胡 is the dealer's self-draw on the deal; {seat} cannot have it here.",
    "dihu_dealer": "地胡 is won by a player who does not deal, on the dealer's first discard; "
                   "{seat} cannot have it here.",
    "kong_not_from": "Only a direct kong (直杠) takes someone's discard; drop the 'from'.",
    "too_many_points": "That would move more than {limit} points in one hand; check the fan "
                       "and the house rules.",
    "totals_too_large": "The table's totals would grow beyond what the ledger holds; /end "
                        "the night and start a new one.",
    "bad_language": "Choose a language: /lang en, /lang zh or /lang 繁體.",
    "not_reporter_hand": "Only the player who reported that hand, or an admin, can change it.",
    # Singapore/Malaysia
    "below_min_tai": "{tai} tai is below this table's minimum of {min}: a win needs at "
                     "least {min} tai, e.g. /hu bob from carol 1 tai.",
    "too_many_of": "{name} counts at most {most} time(s) in one hand.",
    "no_animals": "This table plays without animal tiles (animals=false): no animal tai, "
                  "bites or animal sets.",
    "tai_and_tiles": "Give the tai count or the tiles, not both: /hu bob zimo 3 tai, or "
                     "/hu bob zimo 123m456m789m123p55p.",
    "bonus_tai_without_tai": "bonus_tai is part of a tai count: give the tai too, e.g. "
                             "/hu bob zimo 3 tai bonus_tai=1.",
    "bonus_tai_too_many": "{bonus} of the tai from bonus tiles, but only {tai} tai in all: "
                          "the bonus tiles are part of the count.",
    "one_winner": "截糊: one winner per hand; the first in turn after the discarder takes it. "
                  "Report one winner; nothing was recorded.",
    "sg_one_winner": "Only one player wins each hand: when two can win on the same discard, "
                     "the one next in turn after the discarder takes it. Report one winner; "
                     "nothing was recorded.",
    "special_self_draw": "八仙过海 is paid as a self-draw: drop the 'from'.",
    "self_drawn_only": "{name} is a self-drawn win: it cannot be won off a discard.",
    "instant_payouts_off": "This table pays no instant payouts (instant_payouts=false): count "
                           "kongs and bonus tiles in the win.",
    "bad_bonus": "Cannot read the bonus tile {token}: write f1–f4 or 梅兰菊竹, s1–s4 or "
                 "春夏秋冬, cat rat rooster centipede or 猫 鼠 鸡 蜈蚣, or none.",
    "bite_usage": "Examples: /bite bob cat rat · /bite bob rooster centipede hidden · /bite "
                  "bob flowers from carol · /bite bob set flowers (seasons, animals).",
    # Points only
    "free_amount_only": "This table scores points only: say who won, how and the amount, "
                        "e.g. /hu bob from carol 8 or /hu bob zimo 8.",
    "option_in_report": "{said} is not part of a hand ({word} is an option of a Singapore "
                        "table): report the hand without it.",
    "option_in_report_singapore": "{said} is a table option, not part of a hand: an admin "
                        "changes it with /set {word}={value}. Report the hand without it.",
    "amount_signed": "{token}: a report says what the winner wins, with no minus sign; who "
                     "pays follows from how it was won.",
    "amount_signed_free": "{token}: a win's amount is the points the winner gets, with no "
                          "minus sign: /hu bob from carol 5 (carol pays 5) or /hu bob zimo 5 "
                          "(each pays 5). Any other change: /jifen alice +5 bob -5.",
    "needs_amount": "Say how many points {seat} wins, e.g. /hu bob from carol 8 (carol pays "
                    "8) or /hu bob zimo 8 (each pays 8).",
    "false_win_unset": "This table scores points only: set what a false win costs (/set "
                       "false_win=N), or use /adjust.",
    "amounts_usage": "Give every player's change, adding up to zero: /jifen alice +35 bob "
                     "-20 carol -15.",
    "amounts_no_player": "{token} is not a player at this table. Example: /jifen alice +35 "
                         "bob -20 carol -15",
    "amounts_twice": "{token} is named twice; name each player once: /jifen alice +35 bob "
                     "-20 carol -15",
    "amounts_too_big": "{token}: a player's change in one hand is at most {most} points either "
                       "way.",
    "amounts_not_zero": "A hand's changes must add up to zero; these add up to {total}. "
                        "Example: /jifen alice +35 bob -20 carol -15",
    # Chinese Official (MCR): the fan count or the tiles, and the checks the rules make
    "mcr_needs_fan": "Give the fan count (flowers included) or the tiles: /hu bob from "
                     "carol 12番, or /hu bob 自摸 8番 花2, or /hu bob from carol 吃234m 55m "
                     "456p 789s 12s +3s.",
    "mcr_needs_tiles": "Give the standing tiles and the winning tile (+3s): /hu bob from "
                       "carol 吃234m 55m 456p 789s 12s +3s.",
    "mcr_needs_winning_tile": "Name the winning tile with +, e.g. +3s, after the standing "
                              "tiles.",
    "mcr_one_winning_tile": "Name one winning tile, e.g. +3s.",
    "mcr_two_counts": "Give the fan count once.",
    "mcr_one_winner": "One player wins a discard under these rules: the first in turn after "
                      "the discarder (截和). Report one winner.",
    "mcr_meld_usage": "{token}: write a meld as its kind joined to its tiles, and whom it "
                      "was claimed from: 吃234m, 碰555p@carol, 杠7777s@dave, 暗杠东东东东, "
                      "加杠9999m@carol.",
    "mcr_meld_from": "{token}: say whom it was claimed from, joined with @: {example} (a "
                     "concealed kong is 暗杠; a concealed pung stays among the standing "
                     "tiles).",
    "mcr_pung_from": "Meld {meld}: say whom the pung or kong was claimed from, e.g. "
                     "碰555p@carol (a concealed pung stays among the standing tiles).",
    "mcr_concealed_from": "{token}: a concealed kong (暗杠) is claimed from nobody: write it "
                          "without @.",
    "mcr_meld_from_self": "Meld {meld}: a meld is not claimed from its own player.",
    "mcr_added_kong_from": "Meld {meld}: an added kong (加杠) says whom its pung was claimed "
                           "from, e.g. 加杠9999m@carol.",
    "mcr_added_not_kong": "Meld {meld}: only a kong of four tiles is added (加杠).",
    "mcr_chow_from": "Meld {meld}: a chow is claimed from the player before the winner "
                     "({seat}).",
    "mcr_bad_meld": "Meld {meld} is no chow, pung or kong: e.g. 吃234m, 碰555p@carol, "
                    "杠7777s@dave.",
    "mcr_tile_count": "{count} standing tiles where {expected} are expected with these "
                      "melds (the winning tile, +{tile}, apart).",
    "mcr_replacement_without_kong": "杠上开花 needs a kong among the melds.",
    "mcr_replacement_from": "杠上开花 is a self-draw: every other player pays it; leave "
                            "out from.",
    "mcr_rob_held_tile": "抢杠和: the robbed tile is held nowhere else in the hand.",
    "mcr_rob_last_tile": "抢杠和 and 海底 cannot both be said of one win.",
    "mcr_last_tile_held": "和绝张: the winner holds no other copy of the winning tile "
                          "among the standing tiles.",
    "mcr_flowers_over_fan": "The fan count includes the flowers: 12番 花2 is 12 fan, 2 of "
                            "them flowers.",
    "mcr_not_a_win": "These tiles make no winning hand: check the standing tiles, the "
                     "melds and the winning tile.",
    "mcr_fan_mismatch": "The tiles count {counted} fan, not {claimed}: leave out the fan "
                        "count, or check the tiles.",
    "mcr_tiles_field": "Give an MCR hand's tiles as melds (吃234m, 碰555p@carol), standing "
                       "tiles and the winning tile (+3s).",
    "mcr_barred": "{seat} made a false win (错和) this hand and may not win in it.",
    "mcr_false_win_points": "错和 costs what the table's false_win option says ({points} to "
                            "each other player): leave out the number.",
    "mcr_fine_points": "Say the fine: the points the offender pays each other player, e.g. "
                       "/penalty dave 错碰 5.",
    "mcr_named_over_fan": "The fans named make {named} fan, more than the {fan} counted "
                          "without flowers: give the fan count with the flowers included, "
                          "e.g. /hu bob from carol 12番 花2 花龙.",
    "mcr_match_over": "This match's 16 hands are played: nothing more is recorded in it. "
                      "/end gives the rank points; then /new mcr with the four players starts "
                      "the next match. (/undo takes back the 16th hand.)",
    # Hong Kong
    "below_minimum": "{fan} 番 is below this table's minimum of {min} 番; nothing was "
                     "recorded. A win counts at least {min} 番, e.g. /hu bob 自摸 {min}番.",
    "below_minimum_flowers": "{fan} 番 without the {flower_fan} flower 番 (they do not count "
                             "toward the minimum) is below this table's {min} 番; nothing was "
                             "recorded.",
    "how_contradicts": "{pattern} does not go with {how}: 自摸, 槓上開花 and 坎坎糊 are "
                       "self-draws, 搶槓 is robbing a kong (搶槓 X), 花糊 takes another "
                       "player's bonus tile (出銃 X). Nothing was recorded.",
    "fan_and_tiles": "Give the 番 or the tiles, not both: /hu bob 自摸 5番, or /hu bob 自摸 "
                     "123m456m789m111z55m.",
    "flower_fan_without_fan": "A count of flower 番 (花1) goes with the hand's 番: /hu bob "
                              "自摸 4番 花1.",
    "flower_fan_too_many": "{flower_fan} flower 番 cannot be more than the hand's {fan} 番: "
                           "e.g. /hu bob 自摸 4番 花1.",
    "bad_flowers": "{token}: write the bonus tiles as 1f-4f (梅蘭菊竹) and 1g-4g (春夏秋冬), "
                   "each once, or 無 for none, e.g. 花 1f3g.",
    "bad_fourth_feeder": "包自摸: the one who fed the fourth exposed meld is another player than "
                  "the winner, e.g. /hu bob 自摸 包 carol 4番.",
    "needs_flowers": "{word} needs the bonus tiles after it, e.g. 花 1f3g (or 花 無).",
    "sg_stake": "A Singapore table pays from its stake table, not by a stake per point: "
                "choose the table instead, e.g. /set stake 10/20 (10/20, 20/40, 50/1, 1/2, "
                "3-6).",
    "set_other_preset": "{option} is an option of {table}, the table going, not of this "
                        "chat's house rules ({preset}); a table keeps the rules it started "
                        "with. For the chat's next tables: /set preset {key}, then /set "
                        "{typed}.",
    "hk_stake": "A Hong Kong table pays from its share table, not by a stake per point: set "
                "its tier instead, e.g. /set stake wuyi (二五雞, 五一 or 一二蚊).",
}


# What a field of a report is, in words, for a report the engine cannot read (the
# field's path, like events.1.win.winners.0.kongs, never reaches players).
FIELDS = {
    "fan": "a fan count out of range", "gen": "a 根 count out of range",
    "kongs": "a kong count out of range", "birds": "a bird out of range",
    "feibao": "a 飞宝 count out of range", "loser_feibao": "a 飞宝 count out of range",
    "kong_chain": "a kong chain out of range", "robbed_kongs": "a robbed-kong count out of "
    "range", "jing": "a 精 count out of range", "winners": "too many or too few winners",
    "patterns": "too many pattern names, or one too long",
    "tiles": "the tiles", "melds": "the melds", "kinds": "a starting-hand win is missing",
    "players": "a player at the wall", "indicator": "the turned-up tile",
    "tai": "a tai count out of range", "bonus_tai": "a bonus-tai count out of range",
    "amount": "an amount out of range (1 to 1,000,000)",
    "deltas": "an amount out of range (each change within ±3,000,000)",
    "bonus": "the bonus tiles",
}
OR = " or "
# The preset that names a family's own words, for "that is how Shangrao Feibao counts".
FAMILY_PRESET = {"jiangxi": "feibao", "changsha": "changsha", "sichuan": "sichuan",
                 "singapore": "singapore", "free": "free", "mcr": "mcr"}
FIELD_OTHER = "something in it is missing or out of range"
SEATS = {"E": "East", "S": "South", "W": "West", "N": "North"}


def report_field(where: str) -> str:
    """The innermost field of a validation path, in words (English msgid): never a field
    around it (the patterns of a winner are not the winners)."""
    for part in reversed(where.split(".")):
        if not part.isdigit():
            return FIELDS.get(part, FIELD_OTHER)
    return FIELD_OTHER


def error_text(lang: str, code: str, fallback: str, seats: dict[str, str] | None = None,
               **params: object) -> str:
    """The refusal in the chat's language; seat letters become names (or the seat's word),
    all text escaped."""
    template = MESSAGES.get(code)
    if template is None:
        return "⚠️ " + escape(fallback)
    if code == "bad_report":
        params = {"what": t(lang, report_field(str(params.get("where", ""))))}
    if code == "foreign_words":
        params = {**params, "other": preset_name(lang, FAMILY_PRESET.get(
            str(params.get("family")), str(params.get("family")))),
                  "table": preset_name(lang, str(params.get("table")))}
    if code == "wrong_family" and str(params.get("family")) in FAMILY_PRESET:
        template = MESSAGES["wrong_family_of"]
        params = {"other": preset_name(lang, FAMILY_PRESET[str(params["family"])]),
                  "table": preset_name(lang, str(params.get("preset", "")))}
    if code == "starting_not_changsha":
        params = {"table": preset_name(lang, str(params.get("preset", "")))}
    if code in ("no_three_players", "three_player_preset") and "preset" in params:
        params["preset"] = preset_name(lang, str(params["preset"]))
    if code in ("preset_typo", "preset_typo_new") and "suggestion" in params:
        # The preset as this language calls it (the command keeps what is typed).
        params["called"] = preset_name(lang, str(params["suggestion"]))
    if code in ("unknown_preset", "unknown_preset_new", "too_many_names") \
            and "valid" in params:
        params["valid"] = preset_list(lang, str(params["valid"]).split(", "))
    if code == "unknown_option" and "valid" in params:
        params["valid"] = option_list(lang, str(params["valid"]).split(", "))
    if code == "unknown_option" and "option" in params:  # 扎鸟 as typed, not its key birds
        params["option"] = typed_name(lang, str(params["option"]))
    if code == "bad_option_value" and "valid" in params:
        params["valid"] = value_list(lang, str(params.get("option")), str(params["valid"]))
    if code == "bad_option_value" and "option" in params:  # 封顶, as /set takes it
        params["option"] = typed_name(lang, str(params["option"]))
    if code == "unknown_pattern" and "names" in params:  # the table's own, whole
        template = MESSAGES["unknown_pattern_listed" if params.get("suggestions")
                            else "unknown_pattern_unlike"]
        preset = str(params.pop("preset", ""))
        for key in ("suggestions", "names"):
            # In English at an English-first table (Singapore: full flush)
            params[key] = listing(lang, (pattern_shown(lang, preset, n) for n in
                                         str(params[key]).split(", ") if n))
    elif code == "unknown_pattern" and is_chinese(lang) and "suggestions" in params:
        params["suggestions"] = str(params["suggestions"]).replace(", ", "、")
    if code == "count_usage" and params.get("word") == "台":
        template = MESSAGES["count_usage_tai"]
    if code == "kongs_not_paid" and params.get("preset") == "free":
        template = MESSAGES["kongs_not_paid_free"]
    elif code == "kongs_not_paid" and params.get("instant_payouts") == "off":
        template = MESSAGES["kongs_not_paid_instant"]
    if code == "bad_feeder" and "seat" in params:  # Hong Kong's 包自摸, not Jiangxi's 承包
        template = MESSAGES["bad_fourth_feeder"]
    if code == "below_minimum" and params.get("flower_fan"):
        template = MESSAGES["below_minimum_flowers"]
    if code == "how_contradicts" and "how" in params:  # off a discard, robbing a kong …
        params["how"] = t(lang, HOW.get(str(params["how"]), str(params["how"])))
    if "expected" in params:  # a tile count: "13 or 14"
        params["expected"] = str(params["expected"]).replace(" or ", t(lang, " or "))
    family = str(params.pop("table_family", ""))
    # A pattern's name in a refusal (七小对 和 碰碰胡 不能同时成立) in the chat's script.
    clean = {k: escape(_seat(lang, str(v), seats) if k == "seat"
                       else pattern_name("", str(v), lang))
             for k, v in params.items()}
    text = t(lang, template, **clean)
    if family in HU_EXAMPLES:  # an example the table takes: /hu bob from carol 8, not 七对
        text = text.replace(t(lang, HU_EXAMPLE), t(lang, HU_EXAMPLES[family]))
    return "⚠️ " + text


# A report's example in the refusals of /hu's words, and what it is at a table that counts
# no patterns (points only), counts tai (Singapore) or is won by self-draw only (飞宝).
HU_EXAMPLE = "/hu bob from carol 七对"
HU_EXAMPLES = {"free": "/hu bob from carol 8", "singapore": "/hu bob from carol 3 tai",
               "jiangxi": "/hu bob zimo 七对"}  # 上饶飞宝: a win is self-drawn


def _seat(lang: str, value: str, seats: dict[str, str] | None) -> str:
    if seats and value in seats:
        return seats[value]
    return t(lang, SEATS[value]) if value in SEATS else value
