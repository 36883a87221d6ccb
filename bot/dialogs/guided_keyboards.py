"""What a guided report's message says and which buttons it shows, for a draft as it
stands (:mod:`bot.dialogs.guided_state`): :func:`message` gives its text (HTML) and inline
keyboard, :func:`describe` what a recorded draft said (plain text). Each button carries a
press for :func:`bot.dialogs.guided_steps.press`."""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.dialogs.guided_state import BiteDraft, Draft, DrawDraft, HuDraft, KongDraft, PenaltyDraft
from bot.dialogs.guided_steps import (
    AMOUNTS,
    FAN_BUTTONS,
    FINES,
    KONG_LETTERS,
    MAX_WINNERS,
    PAGE,
    PENALTY_LETTERS,
    SELF_DRAWN,
    Table,
    has_more,
    ready,
    winner_order,
)
from bot.dialogs.keyboards import draft_data
from bot.text.answer import INSTANT
from bot.text.help_text import HOW_LABELS
from bot.text.i18n import is_chinese, pt, t
from bot.text.words import (
    ENGLISH_FIRST,
    FOULS,
    colon,
    listing,
    pattern_name,
    pattern_shown,
    said,
)
from engine.explain import TEMPLATES
from engine.offer import FROM_ANOTHER, WAYS, Offer
from engine.patterns import FAMILY_PATTERNS
from engine.rules import get_preset
from storage.models import NightInfo

# Each way to win (engine.offer.WAYS) as its button says it.
KONG_WORDS = {"concealed": "暗杠", "added": "补杠", "direct": "直杠", "wild": "宝杠"}
WALL_WORDS = {"no": "未听", "ready": "听", "pig": "花猪"}
TICK = " ✓"  # a state that holds, on the button that sets it

Button = tuple[str, str]
Make = Callable[..., Button]


def message(lang: str, night: NightInfo, draft_id: int, version: int, draft: Draft
            ) -> tuple[str, InlineKeyboardMarkup]:
    """The message (HTML) and buttons for the draft as it stands."""
    table = Table.of(night)

    def b(label: str, action: str, arg: str | int | None = None) -> Button:
        return label, draft_data(draft_id, version, action, arg)

    if isinstance(draft, HuDraft):
        text, rows = _hu(lang, night, table, draft, b)
    elif isinstance(draft, KongDraft):
        text, rows = _kong(lang, night, table, draft, b)
    elif isinstance(draft, BiteDraft):
        text, rows = _bite(lang, night, table, draft, b)
    elif isinstance(draft, PenaltyDraft):
        text, rows = _penalty(lang, night, table, draft, b)
    else:
        text, rows = _draw(lang, night, table, draft, b)
    return text, InlineKeyboardMarkup(_markup(rows))


def describe(lang: str, night: NightInfo, draft: Draft) -> str:
    """What the draft says (plain text): for a win one line per winner (who, how, patterns
    and counts), then the hand's shared facts (birds, 精, losers' 飞宝, 本金)."""
    names = _names(night)
    if isinstance(draft, KongDraft):
        return f"{names[draft.seat or '']} {said(lang, KONG_WORDS[draft.kind or ''])}" + (
            f" ← {names[draft.from_seat]}" if draft.from_seat else "")
    if isinstance(draft, BiteDraft):
        what = t(lang, INSTANT.get(_instant_key(draft.what or ""), draft.what or ""))
        return f"{names[draft.seat or '']}{colon(lang)}{what}" + (
            f" ← {names[draft.from_seat]}" if draft.from_seat else "") + (
            " · " + t(lang, "hidden") if draft.hidden else "")
    if isinstance(draft, PenaltyDraft):
        options = night.rules.get("options", {})
        amount = draft.points if draft.points is not None else \
            int(options.get("false_win", 10))
        return t(lang, TEMPLATES["mcr_penalty"], seat=names[draft.seat or ""],
                 foul=t(lang, FOULS[draft.kind or "foul"]),
                 amount=amount * int(options.get("base", 1)))
    if isinstance(draft, DrawDraft):
        parts = [f"{names[s]} {said(lang, WALL_WORDS[p.state])}"
                 + (f" {p.fan}" if p.state == "ready" else "")
                 for s, p in draft.players.items() if p.state != "no"]
        return t(lang, "The wall ran out") + (colon(lang) + listing(lang, parts) if parts
                                              else "")
    hongkong = Table.of(night).offer.family == "hongkong"
    how = how_label(lang, draft.how, hongkong) if draft.how in HOW_LABELS else ""
    lines = []
    for w in draft.winners:
        text = names[w.seat] + (colon(lang) + how if how else "")
        if draft.from_seat:
            text += f" ← {names[draft.from_seat]}"
        both = get_preset(night.preset).family == "mcr" and not is_chinese(lang)
        bits = [_both(n) if both else _shown(lang, night.preset, n) for n in w.patterns]
        bits += [f"{said(lang, '根')}{w.gen}"] if w.gen else []
        bits += [f"{w.fan}{said(lang, '番')}"] if w.fan else []
        bits += [f"{said(lang, '杠')}{w.kongs}"] if w.kongs else []
        bits += [said(lang, "无宝")] if w.wild_used is False else []
        bits += [f"{said(lang, '飞宝')}{w.feibao}"] if w.feibao else []
        bits += [f"{said(lang, '连杠')}{w.kong_chain}"] if w.kong_chain else []
        bits += [f"{said(lang, '承包')} {names[w.feeder]}"] if w.feeder else []
        if w.fourth_feeder:  # Hong Kong's 包自摸, or Jiangxi's 第四凑
            bits.append(t(lang, "包自摸 by {seat}", seat=names[w.fourth_feeder]) if hongkong
                        else f"{said(lang, '第四凑')} {names[w.fourth_feeder]}")
        bits += [t(lang, "{n} tai", n=w.tai)] if w.tai is not None else []
        bits += [str(w.amount)] if w.amount is not None else []
        if bits:
            text += " · " + " ".join(bits)
        lines.append(text)
    shared = []
    if draft.robbed_kongs > 1:
        shared.append(f"{said(lang, '连抢')}{draft.robbed_kongs}")
    if draft.birds:
        shared.append(said(lang, "鸟") + listing(lang, (str(b) for b in draft.birds)))
    for seat, count in draft.loser_feibao.items():
        shared.append(f"{names[seat]} {said(lang, '飞宝')}{count}")
    if draft.jing:
        shared.append(said(lang, "精") + " " + listing(lang, (f"{names[s]} {z}/{f}" for s, (z, f) in
                                             draft.jing.items())))
    if draft.indicator:
        shared.append(f"{Table.of(night).offer.indicator or ''} {draft.indicator}")
    if shared:
        lines.append(" · ".join(shared))
    return "\n".join(lines)


def how_label(lang: str, how: str | None, hongkong: bool) -> str:
    """A way to win as its button says it; at a Hong Kong table a kong replacement is its
    pattern, 槓上開花."""
    if hongkong and how == "kong_replacement":
        return pt(lang, "hongkong", "Kong replacement")
    return t(lang, HOW_LABELS[how or ""])


def _names(night: NightInfo) -> dict[str, str]:
    return {seat: p.name for seat, p in night.seats.items()}


def _rows(buttons: list[Button], width: int) -> list[list[Button]]:
    return [buttons[i: i + width] for i in range(0, len(buttons), width)]


def _markup(rows: list[list[Button]]) -> list[list[InlineKeyboardButton]]:
    return [[InlineKeyboardButton(text, callback_data=cb) for text, cb in row] for row in rows
            if row]


# -- /hu -----------------------------------------------------------------------------------

def _hu(lang: str, night: NightInfo, table: Table, draft: HuDraft, b: Make
        ) -> tuple[str, list[list[Button]]]:
    facts = table.offer
    names = _names(night)
    cancel = b(t(lang, "Cancel"), "x")
    back = b(t(lang, "Back"), "bk")
    rows: list[list[Button]] = []
    summary = escape(describe(lang, night, draft)) if draft.winners else ""
    winners = draft.seats_won
    inside = table.inside
    if draft.step == "start":
        order = winner_order(table, draft)
        if "discard" in facts.hows:
            for seat in order:
                rows.append([b(t(lang, "{player} self-draw", player=names[seat]), "ws", seat),
                             *[b(f"← {names[o]}", "wd", seat + o) for o in inside if o != seat]])
        else:
            rows += _rows([b(t(lang, "{player} self-draw", player=names[seat]), "ws", seat)
                           for seat in order], 2)
        rows.append([b(names[seat] + "…", "wo", seat) for seat in order])
        rows.append([cancel])
        prompt = pt(lang, "hongkong", "Who won, and how? Each row is a winner: self-draw, "
                                      "or ← whose discard. Another way (a robbed kong, a kong "
                                      "draw): the winner's name with …") \
            if facts.family == "hongkong" else \
            t(lang, "Who won, and how? Each row is a winner: self-draw, or ← whose "
                    "discard. Another way (a robbed kong, a kong draw): the winner's "
                    "name with …") if "discard" in facts.hows else \
            t(lang, "Who won? Another way (a robbed kong, a kong draw): the winner's name "
                    "with …")
        return prompt, rows
    if draft.step == "how":
        buttons = []
        for i, how in enumerate(WAYS):
            if how not in facts.hows:
                continue
            if how == "discard":
                buttons += [b(f"← {names[o]}", "hd", o) for o in inside if o not in winners]
            elif how == "after_kong_discard" and not any(
                    draft.model_copy(update={"how": how}).may_be_from(o) for o in inside):
                continue  # nobody made a kong this hand
            else:
                buttons.append(b(how_label(lang, how, facts.family == "hongkong")
                                 + ("…" if how in FROM_ANOTHER
                                                              else ""), "h", i))
        rows = [*_rows(buttons, 3), [back, cancel] if ready(draft) else [cancel]]
        return (summary + "\n" + t(lang, "How did {player} win?",
                                    player=escape(names[winners[0]])), rows)
    if draft.step == "from":
        buttons = [b(names[o], "f", o) for o in inside if draft.may_be_from(o)]
        question = {
            "rob_kong": t(lang, "Whose kong did {player} rob?",
                          player=escape(names[winners[0]])),
            "after_kong_discard": t(lang, "Who made the kong and then discarded?"),
        }.get(draft.how or "") or t(lang, "Whose tile was it?")
        return summary + "\n" + question, [buttons, [cancel]]
    if draft.step == "add":
        buttons = [b(names[o], "aw", o) for o in inside
                   if o not in winners and o != draft.from_seat]
        return (summary + "\n" + t(lang, "Who else won on the same tile?"),
                [buttons, [back, cancel]])
    if draft.step == "main":
        return _main(lang, night, facts, draft, b, summary, cancel)
    if draft.step == "bao":  # Hong Kong: who fed the fourth exposed meld
        seat = draft.winners[draft.cur].seat
        buttons = [b(names[s], "zp", s) for s in night.seats if s != seat]
        return (summary + "\n" + t(lang, "包自摸: who fed {player}'s fourth exposed meld?",
                                    player=escape(names[seat])),
                [*_rows([*buttons, b(t(lang, "Nobody"), "zp", "0")], 4), [back]])
    return _more(lang, night, facts, draft, b, summary, back)


def _main(lang: str, night: NightInfo, facts: Offer, draft: HuDraft, b: Make,
          summary: str, cancel: Button) -> tuple[str, list[list[Button]]]:
    names = _names(night)
    rows: list[list[Button]] = []
    cur = draft.winners[draft.cur]
    if len(draft.winners) > 1:
        rows.append([b(("▶ " if i == draft.cur else "") + names[w.seat], "cw", i)
                     for i, w in enumerate(draft.winners)])
    first = draft.page * PAGE
    both = facts.family == "mcr" and not is_chinese(lang)  # MCR fans by both names
    page = [b(("✅ " if n in cur.patterns else "") + (_both(n) if both else
                                                     _shown(lang, night.preset, n)),
              "p", first + i)
            for i, n in enumerate(facts.patterns[first: first + PAGE])]
    rows += _rows(page, 2 if both else 3)
    pages = -(-len(facts.patterns) // PAGE)
    if pages > 1:
        nxt = (draft.page + 1) % pages
        more = (t(lang, "More big wins ({page}/{pages})", page=nxt + 1, pages=pages)
                if facts.family == "changsha"  # Changsha counts big wins, not 番
                else t(lang, "More patterns ({page}/{pages})", page=nxt + 1, pages=pages))
        rows.append([b(more, "pg", nxt)])
    if facts.counts:
        rows.append([b(f"{said(lang, '根')} {cur.gen}", "g"),
                     b(f"{said(lang, '杠')} {cur.kongs}", "k")])
    if facts.family == "hongkong":  # the 番 count, one tap (or the patterns)
        rows += _rows([b(("✅ " if cur.fan == n else "") + t(lang, "{n} 番", n=n), "fn", n)
                       for n in FAN_BUTTONS], 5)
    if facts.jiangxi:
        rows.append([b(said(lang, "有宝") + ("" if cur.wild_used is False else TICK), "wu"),
                     b(f"{said(lang, '飞宝')} {cur.feibao}", "fb")])
    if facts.family == "mcr":
        rows.append([b(f"花 {cur.flowers}", "fl")])
    controls = [b(t(lang, "How…"), "hw")]
    if draft.how in FROM_ANOTHER and len(draft.winners) < MAX_WINNERS \
            and facts.family not in ("mcr", "hongkong"):  # one winner (截和, 截糊)
        controls.append(b(t(lang, "+ Winner"), "aw"))
    if facts.bao_zimo and draft.how in SELF_DRAWN:  # Hong Kong: 包自摸 on 十二張
        controls.append(b(t(lang, "包自摸") + (colon(lang) + names[cur.fourth_feeder]
                                              if cur.fourth_feeder else "…"), "zb"))
    if has_more(facts):
        controls.append(b(t(lang, "More…"), "mo"))
    rows.append(controls)
    prompt = t(lang, "Patterns for {player}? None is {plain}.", player=escape(names[cur.seat]),
               plain=escape(_shown(lang, night.preset, facts.plain)))
    if facts.family == "changsha":  # Changsha counts big wins (大胡), not 番
        prompt = t(lang, "Big wins for {player}? None is a small win.",
                   player=escape(names[cur.seat]))
    if facts.amount:  # points only: the amount records the win
        prompt = t(lang, "How many points does {player} win? The amount records it (another "
                         "amount: type /hu with it).", player=escape(names[cur.seat]))
        rows = rows[:-1] + _rows([b(str(n), "ya", n) for n in AMOUNTS], 5) + [controls]
        rows.append([cancel])
        return summary + "\n" + prompt, rows
    if facts.tai is not None:  # Singapore: a tai count records the win, or the patterns
        prompt = t(lang, "{player}'s tai: a count records it; or choose the patterns, then "
                         "Record.", player=escape(names[cur.seat]))
        rows[-1:-1] = _rows([b(t(lang, "{n} tai", n=n), "yt", n)
                             for n in range(facts.tai[0], facts.tai[1] + 1)], 5)
    if facts.birds == 1:
        prompt += "\n" + t(lang, "Record with the bird's rank, or with no bird.")
        rows += _rows([b(t(lang, "Bird {rank}", rank=r), "yb", r) for r in range(1, 10)]
                      + [b(t(lang, "No bird"), "y")], 5)
        rows.append([cancel])
    else:
        rows.append([b("✅ " + t(lang, "Record"), "y"), cancel])
    return summary + "\n" + prompt, rows


def _more(lang: str, night: NightInfo, facts: Offer, draft: HuDraft, b: Make,
          summary: str, back: Button) -> tuple[str, list[list[Button]]]:
    names = _names(night)
    step = draft.step
    winners = draft.seats_won
    cur = draft.winners[draft.cur]
    rows: list[list[Button]] = []
    others = [s for s in night.seats if s not in winners]
    if step == "jing":
        for seat in night.seats:
            z, f = draft.jing.get(seat, (0, 0))
            rows.append([b(f"{names[seat]} {said(lang, '正精')} {z}", "jz", seat),
                         b(f"{names[seat]} {said(lang, '副精')} {f}", "jf", seat)])
        prompt = t(lang, "精 each player holds: press to count up (正精 counts 2, 副精 1).")
    elif step in ("feeder", "fourth"):
        action = "fd" if step == "feeder" else "ff"
        seats = [s for s in others if step == "feeder" or s != cur.feeder]
        rows += _rows([b(names[s], action, s) for s in seats] + [b(t(lang, "Nobody"), action,
                                                                   "0")], 4)
        prompt = t(lang, "承包: who fed {player} three melds?", player=escape(names[cur.seat])) \
            if step == "feeder" else t(lang, "第四凑: who fed {player} the fourth meld?",
                                       player=escape(names[cur.seat]))
    elif step == "ind":
        suits = [(said(lang, "万"), "m"), (said(lang, "筒"), "p"), (said(lang, "条"), "s")] \
            + ([("字", "z")] if facts.family ==
                                                           "jiangxi" else [])
        rows.append([b(label, "is", code) for label, code in suits])
        prompt = t(lang, "The turned-up tile ({word}): which suit?", word=facts.indicator)
    elif step == "indr":
        top = 7 if draft.suit == "z" else 9
        rows += _rows([b(f"{r}{draft.suit}", "ir", r) for r in range(1, top + 1)], 5)
        prompt = t(lang, "The turned-up tile ({word}): which rank?", word=facts.indicator)
    else:
        if facts.indicator:
            rows.append([b(facts.indicator + colon(lang) + (draft.indicator or "—"), "in")])
        opts = facts.jiangxi
        if opts is not None:
            if opts.jing_bonus:
                rows.append([b(t(lang, "精 counts…"), "jv")])
            if opts.feibao_loser_doubles and draft.how not in FROM_ANOTHER:
                rows += _rows([b(f"{names[s]} {said(lang, '飞宝')} "
                                 f"{draft.loser_feibao.get(s, 0)}", "lf", s)
                               for s in others], 3)
            if opts.chengbao:
                row = [b(said(lang, "承包") + colon(lang)
                         + (names[cur.feeder] if cur.feeder else "—"), "cb")]
                if cur.feeder:
                    row.append(b(said(lang, "第四凑") + colon(lang) + (names[cur.fourth_feeder]
                                                        if cur.fourth_feeder else "—"), "fo"))
                rows.append(row)
            if draft.how == "kong_replacement":
                rows.append([b(f"{said(lang, '连杠')} {max(1, cur.kong_chain)}", "kc")])
            if draft.how == "rob_kong":
                rows.append([b(f"{said(lang, '连抢')} {draft.robbed_kongs}", "rk")])
        if facts.birds > 1:
            rows += _rows([b(t(lang, "Bird {rank}", rank=r), "bd", r) for r in range(1, 10)], 5)
            rows.append([b(t(lang, "No bird"), "bc")])
        prompt = t(lang, "More about this hand:")
        if facts.birds != 1:
            rows.append([back, b("✅ " + t(lang, "Record"), "y")])
            return summary + "\n" + prompt, rows
    rows.append([back])
    return summary + "\n" + prompt, rows


# -- /kong and /draw ---------------------------------------------------------------------

def _kong(lang: str, night: NightInfo, table: Table, draft: KongDraft, b: Make
          ) -> tuple[str, list[list[Button]]]:
    names = _names(night)
    cancel = b(t(lang, "Cancel"), "x")
    if draft.seat is None:
        return t(lang, "Who made a kong?"), [[b(names[s], "ks", s) for s in table.inside],
                                             [cancel]]
    if draft.kind is None:
        return (t(lang, "Which kong did {player} make?", player=names[draft.seat]),
                [[b(said(lang, KONG_WORDS[KONG_LETTERS[k]]) + ("…" if k == "d" else ""), "kk", k)
                  for k in table.kong_letters], [cancel]])
    return (t(lang, "Whose discard did {player} kong?", player=names[draft.seat]),
            [[b(names[s], "kf", s) for s in table.inside if s != draft.seat], [cancel]])


def _instant_key(what: str) -> str:
    """A bite's or set's draft value as its instant payout names it (cat_rat -> bite_cat_rat)."""
    return what if what.startswith("set_") else "bite_" + what


def _bite(lang: str, night: NightInfo, table: Table, draft: BiteDraft, b: Make
          ) -> tuple[str, list[list[Button]]]:
    names = _names(night)
    cancel = b(t(lang, "Cancel"), "x")
    if draft.seat is None:
        return t(lang, "Who bit, or completed a set?"), [
            [b(names[s], "bs", s) for s in table.inside], [cancel]]
    if draft.what is None:
        bites = [b(t(lang, INSTANT["bite_" + p]), "bw", p) for p in table.offer.bites]
        sets = [b(t(lang, INSTANT["set_" + k]), "bw", "set_" + k) for k in table.offer.sets]
        return (t(lang, "What did {player} show?", player=names[draft.seat]),
                [*_rows(bites, 1), _rows(sets, 3)[0] if sets else [], [cancel]])
    return (t(lang, "Who pays {player}'s bite?", player=names[draft.seat]), [
        [b(t(lang, "Each, exposed"), "bo"), b(t(lang, "Each, hidden (double)"), "bh")],
        [b(f"← {names[s]}", "bf", s) for s in table.seats if s != draft.seat], [cancel]])


def _penalty(lang: str, night: NightInfo, table: Table, draft: PenaltyDraft, b: Make
             ) -> tuple[str, list[list[Button]]]:
    names = _names(night)
    cancel = b(t(lang, "Cancel"), "x")
    if draft.seat is None:
        return t(lang, "Who is penalised?"), [[b(names[s], "ps", s) for s in table.seats],
                                              [cancel]]
    if draft.kind is None:
        kinds = [b(t(lang, FOULS[kind]), "pk", letter)
                 for letter, kind in PENALTY_LETTERS.items()]
        return (t(lang, "What is {player} penalised for?", player=escape(names[draft.seat])),
                [*_rows(kinds, 2), [cancel]])
    return (t(lang, "{player}: {foul}. The referee's fine, paid to each other player:",
              player=escape(names[draft.seat]), foul=t(lang, FOULS[draft.kind])),
            [[b(str(n), "pp", n) for n in FINES], [cancel]])


def _draw(lang: str, night: NightInfo, table: Table, draft: DrawDraft, b: Make
          ) -> tuple[str, list[list[Button]]]:
    names = _names(night)
    rows = []
    if table.offer.wall:
        for seat, p in draft.players.items():
            # a row of the states the table plays, the player's own ticked; a ready
            # player's fan is one tap below, the fan ticked
            rows.append([b((names[seat] + colon(lang) if i == 0 else "")
                           + said(lang, WALL_WORDS[state]) + (TICK if p.state == state else ""),
                           "dz", f"{seat}_{state}")
                         for i, state in enumerate(table.offer.wall)])
            if p.state == "ready":
                rows += _rows([b(t(lang, "{fan} fan", fan=n) + (TICK if p.fan == n else ""),
                                 "df", f"{seat}_{n}") for n in range(1, table.fan_top + 1)], 4)
        prompt = t(lang, "The wall ran out. For each player still in, tap who is ready and "
                         "for how many fan, or 花猪; the rest are not ready.")
    else:
        prompt = t(lang, "The wall ran out: record it?")
    rows.append([b("✅ " + t(lang, "Record"), "y"), b(t(lang, "Cancel"), "x")])
    return prompt, rows


def _both(name: str) -> str:
    """An MCR fan on an English chat's button: its Chinese and English names."""
    return f"{name} {FAMILY_PATTERNS['mcr'].resolve(name).english}"


def _shown(lang: str, preset: str, name: str) -> str:
    """A pattern on a button as a report names it (in the chat's script); in an English
    chat in English with the Chinese beside, or in English alone at an English-first
    table (Singapore)."""
    if preset in ENGLISH_FIRST or not is_chinese(lang):
        return pattern_shown(lang, preset, name, typed=True)
    return pattern_name("", name, lang)
