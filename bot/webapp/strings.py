"""The Mini App's words, from the bot's catalogs (zh-Hans or English), sent to the page
with the first answer."""

from __future__ import annotations

from bot.text.i18n import is_chinese, pt, t
from bot.text.words import SEAT_KEYS, TILE_WORDS, colon, said


def strings(lang: str) -> dict[str, str]:
    s = {
        "board": t(lang, "Scoreboard"),
        "chart": t(lang, "Chart"),
        "hands": t(lang, "Hands"),
        "players": pt(lang, "Mini App tab", "Players"),  # people, not a head count
        "debts": t(lang, "Debts"),
        "enter": t(lang, "Enter a hand"),
        # the tabs' own shorter labels, where the page's title is longer: six fit a phone
        "tab_board": pt(lang, "Mini App tab", "Board"),
        "tab_enter": pt(lang, "Mini App tab", "Enter"),
        "no_table": t(lang, "No table is going in this chat."),
        "hand_n": t(lang, "Hand {number}", number="{n}"),
        "dealer": t(lang, "dealer"),
        "in_hand": t(lang, "still in"),
        "out": t(lang, "out"),
        "left": pt(lang, "a player who left the table", "left"),
        "stake": t(lang, "Stake"),
        "points": t(lang, "Points"),
        "money": t(lang, "Money"),
        "wins": t(lang, "Wins"),
        "hands_played": t(lang, "Hands played"),
        "self_draws": t(lang, "Self-draws"),
        "dealt_in": t(lang, "Dealt in"),
        "biggest": t(lang, "Biggest win"),
        "average": t(lang, "Average win"),
        "last": t(lang, "Last hands"),
        "paid": t(lang, "Paid"),
        "owes": t(lang, "{payer} owes {payee}", payer="{payer}", payee="{payee}"),
        "no_debts": t(lang, "Nobody owes anyone."),
        "winner": t(lang, "Winner"),
        "a_win": t(lang, "A win"),
        "a_kong": t(lang, "A kong"),
        "also": t(lang, "Also won off the same tile"),
        "a_draw": t(lang, "The wall ran out"),
        "draw_help": t(lang, "Tap each player still in: 未听, 听 (and how many fan), 花猪."),
        "fan": t(lang, "{fan} fan", fan="{n}"),
        "kong_by": t(lang, "Who made it"),
        "kong_kind": t(lang, "Which kong"),
        "how": t(lang, "How"),
        "from": t(lang, "From whom"),
        "tiles": t(lang, "Winning hand"),
        "melds": t(lang, "Declared melds"),
        "add_meld": t(lang, "Tiles above as a meld"),
        "patterns": t(lang, "Patterns by name"),
        "tai": t(lang, "Tai, counted in (instead of patterns or tiles)"),
        "bonus": t(lang, "Bonus tiles (flowers f1–f4, seasons s1–s4, animals)"),
        "amount": t(lang, "Points the win is worth"),
        "indicator": t(lang, "Turned-up tile ({word})", word="{word}"),
        "clear": t(lang, "Clear"),
        "preview": t(lang, "Preview"),
        "record": t(lang, "Record"),
        "undo": t(lang, "Undo the last event"),
        "sent": t(lang, "Sent to the group."),
        "already": t(lang, "Already recorded: this was sent to the group once, and is not "
                           "sent again."),
        "asks": t(lang, "Hand {number} just ended with this win, reported by another "
                        "player: the group is asked whether this is the same hand, and "
                        "nothing is recorded until someone answers there.", number="{n}"),
        "stale": t(lang, "The app has been open too long for Telegram's sign-in: close it "
                         "and open it again from the group (the 📱 button on the "
                         "scoreboard, or /app)."),
        "offline": t(lang, "The bot is not answering: these totals may be out of date."),
        "not_player": t(lang, "Only players at the table and admins may record."),
        "tap_hand": t(lang, "Tap a hand to see it."),
        "void": t(lang, "void"),
        "open": t(lang, "in play"),
        "no_hands": t(lang, "No hands yet."),
        "night_n": t(lang, "Night {number}", number="{n}"),
        "expired": t(lang, "This page was not opened by Telegram, or too long ago: open it "
                           "again from the chat."),
        "forbidden": t(lang, "Only members of the chat can see its table."),
        "not_party": t(lang, "Only the debt's two players, or an admin, can mark it paid."),
        "no_chat": t(lang, "Open the app from the button on a group's scoreboard, or /app in "
                           "the group."),
        "failed": t(lang, "Something went wrong; try again."),
        "bad_json": t(lang, "The app sent something the bot could not read; reload it."),
        "too_large": t(lang, "That is too much to send at once."),
        # Singapore: bites and sets, paid at once
        "a_bite": t(lang, "A bite or a set"),
        "bite_by": t(lang, "Who bit, or completed a set?"),
        "bite_what": t(lang, "Which bite or set"),
        "bite_payer": t(lang, "Who pays"),
        "each_other": t(lang, "Each other player"),
        "hidden": t(lang, "Hidden (both in the starting hand): paid double"),
        "liable": t(lang, "包: who is liable and pays for all"),
        # MCR: the tiles with melds, the flags, the flowers, or the fan count; the gate
        "standing": t(lang, "Standing tiles (without the winning tile)"),
        "winning_tile": t(lang, "Winning tile"),
        "meld_kind": t(lang, "Meld"),
        "meld_from": t(lang, "Claimed from"),
        "chow_from": t(lang, "A chow is always claimed from the player before the winner."),
        "flags": t(lang, "Also"),
        "flowers_n": t(lang, "Flowers: {n}", n="{n}"),
        "fan_alone": t(lang, "Or the fan count alone (flowers included)"),
        "match": t(lang, "Match: {round}, hand {hand} of 4 ({number} of 16). Seat winds: "
                         "{winds}.", round="{round}", hand="{hand}", number="{number}",
                   winds="{winds}"),
        "gate": t(lang, "A win needs {gate} fan without flowers; under it the claim is a "
                        "false win (错和).", gate="{gate}"),
        "under_gate": t(lang, "Under the gate of 8 fan without flowers this claim is a false "
                              "win (错和), not a win: tap “Record as a false win (错和)” to "
                              "record it so."),
        "record_false_win": t(lang, "Record as a false win (错和)"),
        # Hong Kong: the 番 count, bonus tiles, winds, 包自摸, the share table
        "fan_count": t(lang, "番, counted in (instead of patterns or tiles)"),
        "flower_fan": t(lang, "Of which flower 番"),
        "hk_flowers": t(lang, "Bonus tiles (flowers 梅蘭菊竹, seasons 春夏秋冬)"),
        "prevailing": t(lang, "Prevailing wind"),
        "seat_winds": t(lang, "Seat winds: {winds}", winds="{winds}"),
        "feeder": t(lang, "包自摸: who fed the fourth exposed meld"),
        "nobody": t(lang, "Nobody"),
        "share": t(lang, "One share"),
        "pays_self": t(lang, "Self-draw, each pays"),
        "pays_discard": t(lang, "Off a discard, winner gets"),
    }
    # MCR: a meld's kinds and the flags, by the fans' own names in Chinese
    for key, word, english in (("chow", "吃", "Chow"), ("pung", "碰", "Pung"),
                               ("kong", "明杠", "Kong"), ("concealed", "暗杠", "Concealed kong"),
                               ("added", "补杠", "Added kong"),
                               ("last_tile", "和绝张", "Last tile (和绝张)"),
                               ("last_of_wall_self", "妙手回春",
                                "Last tile of the wall (妙手回春)"),
                               ("last_of_wall", "海底捞月", "Last discard (海底捞月)")):
        s["mcr_" + key] = said(lang, word) if is_chinese(lang) else english
    # the flowers' faces (梅兰竹菊 春夏秋冬), in the chat's script
    s["flower_tiles"] = "梅蘭竹菊春夏秋冬" if lang == "zh-Hant" else "梅兰竹菊春夏秋冬"
    zh = is_chinese(lang)  # Chinese punctuation in Chinese
    s.update(colon=colon(lang), lp="（" if zh else " (", rp="）" if zh else ")")
    for seat, key in SEAT_KEYS.items():
        s["seat_" + seat] = t(lang, key)
    # Words the page writes as a report says them, in the chat's script (萬, 東, 聽 in zh-Hant).
    s.update(wall_no=said(lang, "未听"), wall_ready=said(lang, "听"), wall_pig=said(lang, "花猪"))
    s.update(suits="".join(said(lang, x) for x in TILE_WORDS[:3]),
             honors="".join(said(lang, x) for x in TILE_WORDS[3:]))
    return s
