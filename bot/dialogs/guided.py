"""The guided /hu report as inline buttons over a draft kept in the database.

The common hand takes four taps after /hu: winner and how in one tap (a row per winner:
self-draw, or off whose discard), one or two patterns, then Record. Everything else the
preset scores is one or two taps away on the same message: 根 and kongs (Sichuan family,
kongs pre-filled from the ledger), birds (Changsha, chosen with the Record tap), 有宝/无宝,
飞宝 of the winner and of each loser, 精 counts, 承包 and 第四凑, 连杠/连抢 (Jiangxi), the
本金 or 精 tile, several winners on one discard, and every pattern of the preset, paged.

Pure functions of the draft; the handlers in :mod:`bot.handlers.buttons` do the I/O.
"""

from __future__ import annotations

from html import escape
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.dialogs.keyboards import draft_data
from bot.text.i18n import t
from bot.text.words import colon, listing
from engine.offer import WAYS, Offer, offer
from engine.rules import Ruleset
from storage.models import SessionInfo

HOWS = [("self_draw", "Self-draw"), ("discard", "Off a discard"), ("rob_kong", "Robbed kong"),
        ("kong_replacement", "Kong replacement"), ("after_kong_discard", "Kong discard")]
assert tuple(h for h, _ in HOWS) == WAYS  # every way the engine offers has its label
NEEDS_FROM = {"discard", "rob_kong", "after_kong_discard"}
PAGE = 9  # pattern buttons per page, three rows of three
MAX_WINNERS = 3
SUITS = ("m", "p", "s", "z")

# What the table's rules let a report say (patterns, ways to win, counts, birds, the
# turned-up tile): the engine's answer (engine.offer), so no rule lives here.
Facts = Offer


def facts_of(session: SessionInfo) -> Facts:
    """The buttons' view of the table's rules (the rules the table started with)."""
    return offer(Ruleset.from_snapshot(session.rules))


# -- the draft -------------------------------------------------------------------------------

def new_draft(recent: tuple[str, ...] = (), kongs: dict[str, int] | None = None,
              winner: str | None = None) -> dict[str, Any]:
    """A fresh report: ``recent`` winners are offered first, ``kongs`` (the open hand's
    kongs per seat, from the ledger) pre-fill each winner's kong count."""
    data: dict[str, Any] = {"view": "start", "winners": [], "how": None, "from": None,
                            "birds": [], "loser_feibao": {}, "jing": {}, "robbed_kongs": 1,
                            "indicator": None, "page": 0, "cur": 0, "recent": list(recent),
                            "hint_kongs": dict(kongs or {})}
    if winner is not None:
        data["winners"] = [_hand(data, winner)]
        data["view"] = "how"
    return data


def _hand(data: dict[str, Any], seat: str) -> dict[str, Any]:
    return {"seat": seat, "patterns": [], "gen": 0,
            "kongs": min(4, int(data.get("hint_kongs", {}).get(seat, 0))),
            "wild_used": None, "feibao": 0, "kong_chain": 0, "feeder": None,
            "fourth_feeder": None}


def _seats_in(session: SessionInfo) -> list[str]:
    return list(session.still_in or session.seats)


def _winner_order(session: SessionInfo, data: dict[str, Any]) -> list[str]:
    inside = _seats_in(session)
    recent = [s for s in data.get("recent", []) if s in inside]
    return list(dict.fromkeys([*recent, *inside]))


def _winner_seats(data: dict[str, Any]) -> list[str]:
    return [w["seat"] for w in data["winners"]]


def ready(data: dict[str, Any]) -> bool:
    """Whether the draft says enough to be recorded."""
    return bool(data["winners"]) and data.get("how") is not None and (
        data["how"] not in NEEDS_FROM or data.get("from") is not None)


def _cycle(value: int, top: int, low: int = 0) -> int:
    return low if value >= top else value + 1


def apply(session: SessionInfo, data: dict[str, Any], action: str, arg: str | None
          ) -> dict[str, Any] | None:
    """The draft after a press, or None when the press does not fit the draft."""
    facts = facts_of(session)
    data = {**data, "winners": [dict(w) for w in data["winners"]],
            "loser_feibao": dict(data["loser_feibao"]), "jing": dict(data["jing"]),
            "birds": list(data["birds"])}
    inside = _seats_in(session)
    winners = _winner_seats(data)
    cur = data["winners"][data["cur"]] if data["winners"] else None
    view = data["view"]
    if action in ("ws", "wo") and view == "start" and arg in inside:
        data["winners"] = [_hand(data, arg)]
        if action == "ws" and "self_draw" in facts.hows:
            data["how"], data["view"] = "self_draw", "main"
        else:
            data["view"] = "how"
    elif action == "wd" and view == "start" and arg and len(arg) == 2 and arg[0] in inside \
            and arg[1] in inside and arg[0] != arg[1] and "discard" in facts.hows:
        data["winners"] = [_hand(data, arg[0])]
        data["how"], data["from"], data["view"] = "discard", arg[1], "main"
    elif action == "h" and view == "how" and arg is not None and arg.isdigit() \
            and int(arg) < len(HOWS) and HOWS[int(arg)][0] in facts.hows and winners:
        how = HOWS[int(arg)][0]
        data["how"] = how
        if how not in NEEDS_FROM:
            data["from"] = None
            data["winners"], data["cur"] = data["winners"][:1], 0
        ok = how not in NEEDS_FROM or (data["from"] in inside and data["from"] not in winners)
        data["view"] = "main" if ok else "from"
    elif action == "hd" and view == "how" and arg in inside and arg not in winners \
            and "discard" in facts.hows:
        data["how"], data["from"], data["view"] = "discard", arg, "main"
    elif action == "f" and view == "from" and arg in inside and arg not in winners:
        data["from"], data["view"] = arg, "main"
    elif action == "hw" and view == "main":
        data["view"] = "how"
    elif action == "aw" and view == "main" and data["how"] in NEEDS_FROM \
            and len(winners) < MAX_WINNERS:
        data["view"] = "add"
    elif action == "aw" and view == "add" and arg in inside and arg not in winners \
            and arg != data["from"]:
        data["winners"].append(_hand(data, arg))
        data["cur"], data["page"], data["view"] = len(data["winners"]) - 1, 0, "main"
        data["loser_feibao"].pop(arg, None)
    elif action == "cw" and view == "main" and arg is not None and arg.isdigit() \
            and int(arg) < len(winners):
        data["cur"], data["page"] = int(arg), 0
    elif action == "p" and view == "main" and cur is not None and arg is not None \
            and arg.isdigit() and int(arg) < len(facts.patterns):
        name = facts.patterns[int(arg)]
        chosen = list(cur["patterns"])
        if name in chosen:
            chosen.remove(name)
        else:
            chosen.append(name)
        cur["patterns"] = chosen
    elif action == "pg" and view == "main" and arg is not None and arg.isdigit() \
            and int(arg) * PAGE < len(facts.patterns):
        data["page"] = int(arg)
    elif action == "g" and view == "main" and cur is not None and facts.counts:
        cur["gen"] = _cycle(cur["gen"], 4)
    elif action == "k" and view == "main" and cur is not None and facts.counts:
        cur["kongs"] = _cycle(cur["kongs"], 4)
    elif action == "wu" and view == "main" and cur is not None and facts.jiangxi:
        cur["wild_used"] = cur["wild_used"] is False
    elif action == "fb" and view == "main" and cur is not None and facts.jiangxi:
        cur["feibao"] = _cycle(cur["feibao"], 8)
    elif action == "mo" and view == "main" and _has_more(facts, data):
        data["view"] = "more"
    elif action == "bk" and view in ("more", "jing", "feeder", "fourth", "ind", "indr",
                                     "how", "add", "from") and ready(data):
        data["view"] = "main" if view in ("more", "how", "add", "from") else "more"
    elif action == "jv" and view == "more" and facts.jiangxi and facts.jiangxi.jing_bonus:
        data["view"] = "jing"
    elif action in ("jz", "jf") and view == "jing" and arg in session.seats:
        pair = list(data["jing"].get(arg, [0, 0]))
        pair[0 if action == "jz" else 1] = _cycle(pair[0 if action == "jz" else 1], 4)
        if pair == [0, 0]:
            data["jing"].pop(arg, None)
        else:
            data["jing"][arg] = pair
    elif action == "lf" and view == "more" and facts.jiangxi and \
            facts.jiangxi.feibao_loser_doubles and arg in session.seats and arg not in winners:
        count = _cycle(int(data["loser_feibao"].get(arg, 0)), 8)
        if count:
            data["loser_feibao"][arg] = count
        else:
            data["loser_feibao"].pop(arg, None)
    elif action in ("cb", "fo") and view == "more" and facts.jiangxi and \
            facts.jiangxi.chengbao and cur is not None and (action == "cb" or cur["feeder"]):
        data["view"] = "feeder" if action == "cb" else "fourth"
    elif action in ("fd", "ff") and view == ("feeder" if action == "fd" else "fourth") \
            and cur is not None and (arg == "0" or (arg in session.seats and arg not in winners)):
        key = "feeder" if action == "fd" else "fourth_feeder"
        cur[key] = None if arg == "0" else arg
        if cur["feeder"] is None or cur["feeder"] == cur["fourth_feeder"]:
            cur["fourth_feeder"] = None
        data["view"] = "more"
    elif action == "kc" and view == "more" and cur is not None and facts.jiangxi \
            and data["how"] == "kong_replacement":
        cur["kong_chain"] = _cycle(max(1, cur["kong_chain"]), 4, 1)
    elif action == "rk" and view == "more" and facts.jiangxi and data["how"] == "rob_kong":
        data["robbed_kongs"] = _cycle(data["robbed_kongs"], 4, 1)
    elif action == "in" and view == "more" and facts.indicator:
        data["view"] = "ind"
    elif action == "is" and view == "ind" and arg in SUITS and \
            (arg != "z" or facts.family == "jiangxi"):
        data["view"], data["suit"] = "indr", arg
    elif action == "ir" and view == "indr" and arg is not None and arg.isdigit() \
            and 1 <= int(arg) <= (7 if data.get("suit") == "z" else 9):
        data["indicator"], data["view"] = f"{arg}{data['suit']}", "more"
    elif action == "bd" and view == "more" and facts.birds > 1 and arg is not None \
            and arg.isdigit() and 1 <= int(arg) <= 9 and len(data["birds"]) < facts.birds:
        data["birds"].append(int(arg))
    elif action == "bc" and view == "more" and facts.birds > 1:
        data["birds"] = []
    elif action == "yb" and view == "main" and facts.birds == 1 and arg is not None \
            and arg.isdigit() and 1 <= int(arg) <= 9 and ready(data):
        data["birds"] = [int(arg)]
    else:
        return None
    return data


def _has_more(facts: Facts, data: dict[str, Any]) -> bool:
    return bool(facts.indicator or facts.jiangxi or facts.birds > 1)


def to_event(data: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The engine's win event for a ready draft, and the turned-up tile if one was named."""
    hands = []
    for w in data["winners"]:
        hand: dict[str, Any] = {"seat": w["seat"], "patterns": list(w["patterns"])}
        for key in ("gen", "kongs", "feibao", "kong_chain"):
            if w.get(key):
                hand[key] = w[key]
        for key in ("wild_used", "feeder", "fourth_feeder"):
            if w.get(key) is not None:
                hand[key] = w[key]
        hands.append(hand)
    event: dict[str, Any] = {"type": "win", "how": data["how"], "winners": hands}
    if data.get("from"):
        event["from_seat"] = data["from"]
    if data["birds"]:
        event["birds"] = list(data["birds"])
    if data["loser_feibao"]:
        event["loser_feibao"] = dict(data["loser_feibao"])
    if data["jing"]:
        event["jing"] = {s: list(v) for s, v in data["jing"].items()}
    if data.get("robbed_kongs", 1) > 1:
        event["robbed_kongs"] = data["robbed_kongs"]
    return event, data.get("indicator")


# -- what the message says ----------------------------------------------------------------

def _names(session: SessionInfo) -> dict[str, str]:
    return {seat: p.name for seat, p in session.seats.items()}


def describe(lang: str, session: SessionInfo, data: dict[str, Any]) -> str:
    """One line per winner (plain text): who, how, patterns and counts; then the hand's
    shared facts (birds, 精, losers' 飞宝, 本金)."""
    names = _names(session)
    how = dict(HOWS).get(data.get("how") or "", "")
    lines = []
    for w in data["winners"]:
        text = names[w["seat"]] + (colon(lang) + t(lang, how) if how else "")
        if data.get("from"):
            text += f" ← {names[data['from']]}"
        bits = list(w["patterns"])
        bits += [f"根{w['gen']}"] if w.get("gen") else []
        bits += [f"杠{w['kongs']}"] if w.get("kongs") else []
        bits += ["无宝"] if w.get("wild_used") is False else []
        bits += [f"飞宝{w['feibao']}"] if w.get("feibao") else []
        bits += [f"连杠{w['kong_chain']}"] if w.get("kong_chain") else []
        bits += [f"承包 {names[w['feeder']]}"] if w.get("feeder") else []
        bits += [f"第四凑 {names[w['fourth_feeder']]}"] if w.get("fourth_feeder") else []
        if bits:
            text += " · " + " ".join(bits)
        lines.append(text)
    shared = []
    if data.get("robbed_kongs", 1) > 1:
        shared.append(f"连抢{data['robbed_kongs']}")
    if data["birds"]:
        shared.append("鸟" + listing(lang, (str(b) for b in data["birds"])))
    for seat, count in data["loser_feibao"].items():
        shared.append(f"{names[seat]} 飞宝{count}")
    if data["jing"]:
        shared.append("精 " + listing(lang, (f"{names[s]} {z}/{f}" for s, (z, f) in
                                             data["jing"].items())))
    if data.get("indicator"):
        shared.append(f"{facts_word(session)} {data['indicator']}")
    if shared:
        lines.append(" · ".join(shared))
    return "\n".join(lines)


def facts_word(session: SessionInfo) -> str:
    return facts_of(session).indicator or ""


Button = tuple[str, str]


def _rows(buttons: list[Button], width: int) -> list[list[Button]]:
    return [buttons[i: i + width] for i in range(0, len(buttons), width)]


def step(lang: str, session: SessionInfo, draft_id: int, version: int, data: dict[str, Any]
         ) -> tuple[str, InlineKeyboardMarkup]:
    """The message (HTML) and buttons for the draft as it stands."""
    facts = facts_of(session)
    names = _names(session)

    def b(label: str, action: str, arg: str | int | None = None) -> Button:
        return label, draft_data(draft_id, version, action, arg)

    cancel = b(t(lang, "Cancel"), "x")
    back = b(t(lang, "Back"), "bk")
    view = data["view"]
    rows: list[list[Button]] = []
    summary = escape(describe(lang, session, data)) if data["winners"] else ""
    winners = _winner_seats(data)
    inside = _seats_in(session)
    if view == "start":
        order = _winner_order(session, data)
        if "discard" in facts.hows:
            for seat in order:
                rows.append([b(t(lang, "{player} self-draw", player=names[seat]), "ws", seat),
                             *[b(f"← {names[o]}", "wd", seat + o) for o in inside if o != seat]])
        else:
            rows += _rows([b(t(lang, "{player} self-draw", player=names[seat]), "ws", seat)
                           for seat in order], 2)
        rows.append([b(names[seat] + "…", "wo", seat) for seat in order])
        rows.append([cancel])
        prompt = t(lang, "Who won, and how? Each row is a winner: self-draw, or ← whose "
                         "discard. Another way (a robbed kong, a kong draw): the winner's "
                         "name with …") if "discard" in facts.hows else \
            t(lang, "Who won? Another way (a robbed kong, a kong draw): the winner's name "
                    "with …")
        return prompt, InlineKeyboardMarkup(_markup(rows))
    if view == "how":
        buttons = []
        for i, (how, label) in enumerate(HOWS):
            if how not in facts.hows:
                continue
            if how == "discard":
                buttons += [b(f"← {names[o]}", "hd", o) for o in inside if o not in winners]
            else:
                buttons.append(b(t(lang, label) + ("…" if how in NEEDS_FROM else ""), "h", i))
        rows = [*_rows(buttons, 3), [back, cancel] if ready(data) else [cancel]]
        return (summary + "\n" + t(lang, "How did {player} win?",
                                    player=escape(names[winners[0]])),
                InlineKeyboardMarkup(_markup(rows)))
    if view == "from":
        buttons = [b(names[o], "f", o) for o in inside if o not in winners]
        question = {
            "rob_kong": t(lang, "Whose kong did {player} rob?",
                          player=escape(names[winners[0]])),
            "after_kong_discard": t(lang, "Who made the kong and then discarded?"),
        }.get(data["how"]) or t(lang, "Whose tile was it?")
        return (summary + "\n" + question,
                InlineKeyboardMarkup(_markup([buttons, [cancel]])))
    if view == "add":
        buttons = [b(names[o], "aw", o) for o in inside
                   if o not in winners and o != data["from"]]
        return (summary + "\n" + t(lang, "Who else won on the same tile?"),
                InlineKeyboardMarkup(_markup([buttons, [back, cancel]])))
    if view == "main":
        return _main(lang, session, facts, data, b, summary, cancel)
    return _more(lang, session, facts, data, b, summary, back)


def _markup(rows: list[list[Button]]) -> list[list[InlineKeyboardButton]]:
    return [[InlineKeyboardButton(text, callback_data=cb) for text, cb in row] for row in rows
            if row]


def _main(lang: str, session: SessionInfo, facts: Facts, data: dict[str, Any], b: Any,
          summary: str, cancel: Button) -> tuple[str, InlineKeyboardMarkup]:
    names = _names(session)
    rows: list[list[Button]] = []
    cur = data["winners"][data["cur"]]
    if len(data["winners"]) > 1:
        rows.append([b(("▶ " if i == data["cur"] else "") + names[w["seat"]], "cw", i)
                     for i, w in enumerate(data["winners"])])
    first = data["page"] * PAGE
    page = [b(("✅ " if n in cur["patterns"] else "") + n, "p", first + i)
            for i, n in enumerate(facts.patterns[first: first + PAGE])]
    rows += _rows(page, 3)
    pages = -(-len(facts.patterns) // PAGE)
    if pages > 1:
        nxt = (data["page"] + 1) % pages
        rows.append([b(t(lang, "More patterns ({page}/{pages})", page=nxt + 1, pages=pages),
                       "pg", nxt)])
    if facts.counts:
        rows.append([b(f"根 {cur['gen']}", "g"), b(f"杠 {cur['kongs']}", "k")])
    if facts.jiangxi:
        rows.append([b("无宝" if cur["wild_used"] is False else "有宝", "wu"),
                     b(f"飞宝 {cur['feibao']}", "fb")])
    controls = [b(t(lang, "How…"), "hw")]
    if data["how"] in NEEDS_FROM and len(data["winners"]) < MAX_WINNERS:
        controls.append(b(t(lang, "+ Winner"), "aw"))
    if _has_more(facts, data):
        controls.append(b(t(lang, "More…"), "mo"))
    rows.append(controls)
    prompt = t(lang, "Patterns for {player}? None is {plain}.", player=escape(names[cur["seat"]]),
               plain=facts.plain)
    if facts.birds == 1:
        prompt += "\n" + t(lang, "Record with the bird's rank, or with no bird.")
        rows += _rows([b(t(lang, "Bird {rank}", rank=r), "yb", r) for r in range(1, 10)]
                      + [b(t(lang, "No bird"), "y")], 5)
        rows.append([cancel])
    else:
        rows.append([b("✅ " + t(lang, "Record"), "y"), cancel])
    return summary + "\n" + prompt, InlineKeyboardMarkup(_markup(rows))


def _more(lang: str, session: SessionInfo, facts: Facts, data: dict[str, Any], b: Any,
          summary: str, back: Button) -> tuple[str, InlineKeyboardMarkup]:
    names = _names(session)
    view = data["view"]
    winners = _winner_seats(data)
    cur = data["winners"][data["cur"]]
    rows: list[list[Button]] = []
    others = [s for s in session.seats if s not in winners]
    if view == "jing":
        for seat in session.seats:
            z, f = data["jing"].get(seat, [0, 0])
            rows.append([b(f"{names[seat]} 正精 {z}", "jz", seat),
                         b(f"{names[seat]} 副精 {f}", "jf", seat)])
        prompt = t(lang, "精 each player holds: press to count up (正精 counts 2, 副精 1).")
    elif view in ("feeder", "fourth"):
        action = "fd" if view == "feeder" else "ff"
        seats = [s for s in others if view == "feeder" or s != cur["feeder"]]
        rows += _rows([b(names[s], action, s) for s in seats] + [b(t(lang, "Nobody"), action,
                                                                   "0")], 4)
        prompt = t(lang, "承包: who fed {player} three melds?", player=escape(names[cur["seat"]])) \
            if view == "feeder" else t(lang, "第四凑: who fed {player} the fourth meld?",
                                       player=escape(names[cur["seat"]]))
    elif view == "ind":
        suits = [("万", "m"), ("筒", "p"), ("条", "s")] + ([("字", "z")] if facts.family ==
                                                           "jiangxi" else [])
        rows.append([b(label, "is", code) for label, code in suits])
        prompt = t(lang, "The turned-up tile ({word}): which suit?", word=facts.indicator)
    elif view == "indr":
        top = 7 if data.get("suit") == "z" else 9
        rows += _rows([b(f"{r}{data.get('suit')}", "ir", r) for r in range(1, top + 1)], 5)
        prompt = t(lang, "The turned-up tile ({word}): which rank?", word=facts.indicator)
    else:
        if facts.indicator:
            rows.append([b(facts.indicator + colon(lang) + (data.get("indicator") or "—"),
                           "in")])
        opts = facts.jiangxi
        if opts is not None:
            if opts.jing_bonus:
                rows.append([b(t(lang, "精 counts…"), "jv")])
            if opts.feibao_loser_doubles and data["how"] not in NEEDS_FROM:
                rows += _rows([b(f"{names[s]} 飞宝 {data['loser_feibao'].get(s, 0)}", "lf", s)
                               for s in others], 3)
            if opts.chengbao:
                row = [b("承包" + colon(lang)
                         + (names[cur["feeder"]] if cur["feeder"] else "—"), "cb")]
                if cur["feeder"]:
                    row.append(b("第四凑" + colon(lang) + (names[cur["fourth_feeder"]]
                                               if cur["fourth_feeder"] else "—"), "fo"))
                rows.append(row)
            if data["how"] == "kong_replacement":
                rows.append([b(f"连杠 {max(1, cur['kong_chain'])}", "kc")])
            if data["how"] == "rob_kong":
                rows.append([b(f"连抢 {data['robbed_kongs']}", "rk")])
        if facts.birds > 1:
            rows += _rows([b(t(lang, "Bird {rank}", rank=r), "bd", r) for r in range(1, 10)], 5)
            rows.append([b(t(lang, "No bird"), "bc")])
        prompt = t(lang, "More about this hand:")
        if facts.birds != 1:
            rows.append([back, b("✅ " + t(lang, "Record"), "y")])
            return summary + "\n" + prompt, InlineKeyboardMarkup(_markup(rows))
    rows.append([back])
    return summary + "\n" + prompt, InlineKeyboardMarkup(_markup(rows))
