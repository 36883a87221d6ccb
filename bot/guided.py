"""The guided /hu report: winner, how, from whom, patterns, confirm — as inline buttons
over a draft kept in the database. Pure functions of the draft; handlers do the I/O."""

from __future__ import annotations

from html import escape
from typing import Any

from telegram import InlineKeyboardMarkup

from bot.i18n import t
from bot.keyboards import draft_data, grid
from engine.models import SEATS
from engine.patterns import FAMILY_PATTERNS
from engine.rules import ruleset
from storage.models import SessionInfo

HOWS = [("self_draw", "Self-draw"), ("discard", "Off a discard"), ("rob_kong", "Robbed kong"),
        ("kong_replacement", "Kong replacement"), ("after_kong_discard", "Kong discard")]
NEEDS_FROM = {"discard", "rob_kong", "after_kong_discard"}
MAX_PATTERNS = 12


def pattern_choices(session: SessionInfo) -> list[str]:
    rules = ruleset(session.preset)
    opts = rules.options.model_dump()
    table = opts.get("fan") or opts.get("big_wins") or {}
    names = [n for n in table if n in FAMILY_PATTERNS[rules.family].patterns]
    if rules.family == "jiangxi":
        names = ["平和", "七对", "碰对", "九幺", "十三浪", "清一色", "宝吊", "单张"]
    return [n for n in names if n != "平胡"][:MAX_PATTERNS]


def step(lang: str, session: SessionInfo, draft_id: int, version: int, data: dict[str, Any]
         ) -> tuple[str, InlineKeyboardMarkup]:
    """The prompt and buttons for the draft's next question."""
    names = {seat: session.seats[seat].name for seat in SEATS}  # type: ignore[index]
    shown = {seat: escape(n) for seat, n in names.items()}  # the prompt is HTML
    cancel = (t(lang, "Cancel"), draft_data(draft_id, version, "x"))
    if data.get("winner") is None:
        buttons = [(names[s], draft_data(draft_id, version, "w", s)) for s in SEATS
                   if s in (session.still_in or SEATS)]
        return t(lang, "Who won?"), grid([*buttons, cancel], 2)
    if data.get("how") is None:
        family = ruleset(session.preset).family
        hows = [h for h in HOWS if family != "jiangxi" or h[0] not in
                ("discard", "after_kong_discard")]
        return (t(lang, "How did {player} win?", player=shown[data["winner"]]),
                grid([*[(t(lang, label), draft_data(draft_id, version, "h", i))
                        for i, (_, label) in enumerate(HOWS) if (HOWS[i] in hows)], cancel], 2))
    if data["how"] in NEEDS_FROM and data.get("from") is None:
        buttons = [(names[s], draft_data(draft_id, version, "f", s)) for s in SEATS
                   if s != data["winner"]]
        return t(lang, "Whose tile was it?"), grid([*buttons, cancel], 3)
    if not data.get("patterns_done"):
        chosen = set(data.get("patterns", []))
        choices = pattern_choices(session)
        buttons = [(("✅ " if n in chosen else "") + n, draft_data(draft_id, version, "p", i))
                   for i, n in enumerate(choices)]
        buttons.append((t(lang, "Done"), draft_data(draft_id, version, "ok")))
        return t(lang, "Which patterns? (none for a plain win)"), grid([*buttons, cancel], 3)
    if ruleset(session.preset).family == "sichuan" and data.get("gen") is None:
        buttons = [(str(n), draft_data(draft_id, version, "g", n)) for n in range(4)]
        return t(lang, "How many 根 (fours not declared as kongs)?"), grid([*buttons, cancel], 4)
    summary = escape(describe(lang, session, data))
    return (t(lang, "Record this?") + "\n" + summary,
            grid([(t(lang, "Confirm"), draft_data(draft_id, version, "y")), cancel], 2))


def apply(session: SessionInfo, data: dict[str, Any], action: str, arg: str | None
          ) -> dict[str, Any] | None:
    """The draft after a press, or None when the press does not fit the draft."""
    data = dict(data)
    if action == "w" and arg in SEATS and data.get("winner") is None:
        data["winner"] = arg
    elif action == "h" and arg is not None and arg.isdigit() and int(arg) < len(HOWS) \
            and data.get("winner") and data.get("how") is None:
        data["how"] = HOWS[int(arg)][0]
    elif action == "f" and arg in SEATS and arg != data.get("winner") and \
            data.get("how") in NEEDS_FROM and data.get("from") is None:
        data["from"] = arg
    elif action == "p" and arg is not None and arg.isdigit() and data.get("how"):
        choices = pattern_choices(session)
        if int(arg) >= len(choices):
            return None
        chosen = list(data.get("patterns", []))
        name = choices[int(arg)]
        if name in chosen:
            chosen.remove(name)
        else:
            chosen.append(name)
        data["patterns"] = chosen
    elif action == "ok" and data.get("how"):
        data["patterns_done"] = True
    elif action == "g" and arg in ("0", "1", "2", "3") and data.get("patterns_done") \
            and data.get("gen") is None:
        data["gen"] = int(arg)
    else:
        return None
    return data


def to_event(data: dict[str, Any]) -> dict[str, Any]:
    hand: dict[str, Any] = {"seat": data["winner"], "patterns": data.get("patterns", [])}
    if data.get("gen"):
        hand["gen"] = data["gen"]
    event: dict[str, Any] = {"type": "win", "how": data["how"], "winners": [hand]}
    if data.get("from"):
        event["from_seat"] = data["from"]
    return event


def describe(lang: str, session: SessionInfo, data: dict[str, Any]) -> str:
    names = {seat: session.seats[seat].name for seat in SEATS}  # type: ignore[index]
    how = dict(HOWS)[data["how"]]
    text = f"{names[data['winner']]}: {t(lang, how)}"
    if data.get("from"):
        text += f" ← {names[data['from']]}"
    if data.get("patterns"):
        text += " · " + " ".join(data["patterns"])
    if data.get("gen"):
        text += f" · 根{data['gen']}"
    return text
