"""Guided /kong and /draw: the table's other events as buttons over a draft, like /hu.

/kong alone: who, which kong (暗杠, 补杠, 直杠 and from whom, 宝杠 in Jiangxi); the tap that
completes it records it. /draw alone: a button per player still in that steps through 未听,
听 and 花猪 (where the preset counts it), and for a ready player the fan 查叫 pays; families
with nothing to say at the wall record it with one tap. Pure functions; handlers do the I/O.
"""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.dialogs.keyboards import draft_data
from bot.text.i18n import t
from bot.text.words import colon, listing
from engine.options import SichuanOptions
from engine.rules import Ruleset
from storage.models import SessionInfo

KONG_KINDS = {"c": ("concealed", "暗杠"), "a": ("added", "补杠"), "d": ("direct", "直杠"),
              "w": ("wild", "宝杠")}
STATES = ("no", "ready", "pig")  # 未听, 听, 花猪
FAN_TOP = 8  # the fan buttons step 1..FAN_TOP, or up to the cap


def _rules(session: SessionInfo) -> Ruleset:
    return Ruleset.from_snapshot(session.rules)


def _inside(session: SessionInfo) -> list[str]:
    return list(session.still_in or session.seats)


def _names(session: SessionInfo) -> dict[str, str]:
    return {seat: p.name for seat, p in session.seats.items()}


def new_kong() -> dict[str, Any]:
    return {"seat": None, "kind": None, "from": None}


def new_draw(session: SessionInfo) -> dict[str, Any]:
    return {"players": {s: {"state": "no", "fan": 1} for s in _inside(session)}}


def kong_ready(data: dict[str, Any]) -> bool:
    return data["seat"] is not None and data["kind"] is not None and (
        data["kind"] != "direct" or data["from"] is not None)


def _kinds(session: SessionInfo) -> list[str]:
    return ["c", "a", "d", "w"] if _rules(session).family == "jiangxi" else ["c", "a", "d"]


def _fan_top(session: SessionInfo) -> int:
    opts = _rules(session).options
    cap = opts.cap_fan if isinstance(opts, SichuanOptions) else None
    return min(cap or FAN_TOP, FAN_TOP)


def _has_players(session: SessionInfo) -> bool:
    return isinstance(_rules(session).options, SichuanOptions)


def apply(session: SessionInfo, kind: str, data: dict[str, Any], action: str, arg: str | None
          ) -> dict[str, Any] | None:
    """The draft after a press, or None when the press does not fit it."""
    inside = _inside(session)
    if kind == "kong":
        data = dict(data)
        if action == "ks" and data["seat"] is None and arg in inside:
            data["seat"] = arg
        elif action == "kk" and data["seat"] is not None and data["kind"] is None and \
                arg in _kinds(session):
            data["kind"] = KONG_KINDS[arg][0]
        elif action == "kf" and data["kind"] == "direct" and data["from"] is None and \
                arg in inside and arg != data["seat"]:
            data["from"] = arg
        else:
            return None
        return data
    players = {s: dict(p) for s, p in data["players"].items()}
    if arg not in players or not _has_players(session):
        return None
    opts = _rules(session).options
    if action == "ds":
        states = [s for s in STATES if s != "pig" or getattr(opts, "huazhu", False)]
        now = players[arg]["state"]
        players[arg]["state"] = states[(states.index(now) + 1) % len(states)]
    elif action == "dn" and players[arg]["state"] == "ready":
        players[arg]["fan"] = players[arg]["fan"] % _fan_top(session) + 1
    else:
        return None
    return {**data, "players": players}


def kong_event(data: dict[str, Any]) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "kong", "seat": data["seat"], "kind": data["kind"]}
    if data["from"]:
        event["from_seat"] = data["from"]
    return event


def draw_event(data: dict[str, Any]) -> dict[str, Any]:
    players: dict[str, Any] = {}
    for seat, p in data["players"].items():
        if p["state"] == "ready":
            players[seat] = {"ready": True, "fan": p["fan"]}
        elif p["state"] == "pig":
            players[seat] = {"huazhu": True}
    return {"type": "wall_end", "players": players}


def step(lang: str, session: SessionInfo, kind: str, draft_id: int, version: int,
         data: dict[str, Any]) -> tuple[str, InlineKeyboardMarkup]:
    names = _names(session)

    def b(label: str, action: str, arg: str | None = None) -> InlineKeyboardButton:
        return InlineKeyboardButton(label, callback_data=draft_data(draft_id, version, action,
                                                                    arg))

    cancel = b(t(lang, "Cancel"), "x")
    inside = _inside(session)
    if kind == "kong":
        if data["seat"] is None:
            return t(lang, "Who made a kong?"), InlineKeyboardMarkup(
                [[b(names[s], "ks", s) for s in inside], [cancel]])
        if data["kind"] is None:
            return (t(lang, "Which kong did {player} make?", player=names[data["seat"]]),
                    InlineKeyboardMarkup([[b(KONG_KINDS[k][1] + ("…" if k == "d" else ""),
                                             "kk", k) for k in _kinds(session)], [cancel]]))
        return (t(lang, "Whose discard did {player} kong?", player=names[data["seat"]]),
                InlineKeyboardMarkup([[b(names[s], "kf", s) for s in inside
                                       if s != data["seat"]], [cancel]]))
    rows = []
    labels = {"no": "未听", "ready": "听", "pig": "花猪"}
    if _has_players(session):
        for seat, p in data["players"].items():
            row = [b(names[seat] + colon(lang) + labels[p["state"]], "ds", seat)]
            if p["state"] == "ready":
                row.append(b(t(lang, "{fan} fan", fan=p["fan"]), "dn", seat))
            rows.append(row)
        prompt = t(lang, "The wall ran out. Press each player still in to say who is ready "
                         "(and for how many fan) or 花猪; the rest are not ready.")
    else:
        prompt = t(lang, "The wall ran out: record it?")
    rows.append([b("✅ " + t(lang, "Record"), "y"), cancel])
    return prompt, InlineKeyboardMarkup(rows)


def describe(lang: str, session: SessionInfo, kind: str, data: dict[str, Any]) -> str:
    """What was recorded (plain text)."""
    names = _names(session)
    if kind == "kong":
        word = next(w for k, w in KONG_KINDS.values() if k == data["kind"])
        return f"{names[data['seat']]} {word}" + (
            f" ← {names[data['from']]}" if data["from"] else "")
    labels = {"ready": "听", "pig": "花猪"}
    parts = [f"{names[s]} {labels[p['state']]}" + (f" {p['fan']}" if p["state"] == "ready"
                                                   else "")
             for s, p in data["players"].items() if p["state"] in labels]
    return t(lang, "The wall ran out") + (colon(lang) + listing(lang, parts) if parts else "")
