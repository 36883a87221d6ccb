"""What the Mini App's pages show, as JSON, read through the ledger's own read methods
(never SQL here): the table, the night's hands with their explanations, standings, a
player's record, open debts."""

from __future__ import annotations

from typing import Any

from bot.dialogs.guided_keyboards import HOW_LABELS, KONG_WORDS
from bot.dialogs.guided_steps import facts_of
from bot.pictures.picture_data import standings_series
from bot.text import render, words
from bot.text.i18n import money, t
from bot.webapp.entry import has_draw, kong_kinds, plain
from engine.models import SEATS, HandResult
from storage import series
from storage.errors import LedgerError
from storage.ledger import Ledger
from storage.models import SessionInfo


def board(lang: str, s: SessionInfo | None) -> dict[str, Any]:
    if s is None:
        return {"status": "none"}
    seats = []
    for seat in SEATS:
        p = s.seats.get(seat)
        if p is None:
            continue
        total = s.totals.get(seat, 0)
        seats.append({"seat": seat, "seat_name": t(lang, words.SEAT_KEYS[seat]), "name": p.name,
                      "total": total, "money": money(total * s.stake_cents),
                      "dealer": seat == s.dealer,
                      "in_hand": bool(s.open_hand) and seat in s.still_in})
    return {"status": s.status, "session": s.id, "preset": words.preset_name(lang, s.preset),
            "stake": money(s.stake_cents), "hands": s.hands, "open_hand": s.open_hand,
            "hand": s.hands + (0 if s.open_hand else 1), "seats": seats}


async def night(ledger: Ledger, lang: str, chat_id: int) -> dict[str, Any]:
    """The open night (else the last): each hand with its points per seat and the lines of
    every event's explanation, and the running totals for the chart."""
    try:
        n = await series.night(ledger, chat_id)
    except LedgerError:
        return {"hands": [], "seats": []}
    s = n.session
    seats = [{"seat": x, "name": s.seats[x].name} for x in SEATS if x in s.seats]
    running = dict.fromkeys(SEATS, 0)
    hands = []
    for h in n.hands:
        result = HandResult.model_validate(h.result)
        if h.status != "void":
            for x in SEATS:
                running[x] += result.deltas.get(x, 0)
        events = [[line for line in plain(render.details_text(
            lang, s, h.number, result, i)).split("\n") if line.strip()]
            for i in range(len(result.events))]
        hands.append({"number": h.number, "dealer": h.dealer, "status": h.status,
                      "deltas": {x: result.deltas.get(x, 0) for x in SEATS if x in s.seats},
                      "totals": {x: running[x] for x in SEATS if x in s.seats},
                      "events": events})
    return {"night": n.number, "of": n.of, "session": s.id, "seats": seats, "hands": hands,
            "preset": words.preset_name(lang, s.preset)}


async def standings(ledger: Ledger, lang: str, chat_id: int) -> dict[str, Any]:
    """The chat's standings in money, and each player's net points over the nights (what
    ``/standings chart`` draws)."""
    rows = await ledger.money_standings(chat_id)
    nights, names = await series.night_nets(ledger, chat_id)
    final = {s.player.id: s.net for s in await ledger.standings(chat_id)}
    chart = standings_series(nights, names, final)
    return {"rows": [{"id": r.player.id, "name": r.player.name, "money": money(r.cents),
                      "cents": r.cents, "hands": r.hands, "wins": r.wins,
                      "points": [{"stake": money(stake), "points": pts}
                                 for stake, pts in r.points]} for r in rows],
            "chart": {"nights": list(chart.nights),
                      "lines": [{"id": p, "name": chart.names[p], "values": list(v)}
                                for p, v in chart.lines.items()]}}


async def player(ledger: Ledger, lang: str, chat_id: int, player_id: int) -> dict[str, Any]:
    rec = await ledger.player_record(chat_id, player_id)
    st = rec.stats
    last = [{"night": h.night, "number": h.number, "delta": h.delta} for h in rec.last]
    best = None if rec.best is None else {"night": rec.best.night, "number": rec.best.number,
                                         "points": rec.best.win_points,
                                         "names": list(rec.best.names)}
    return {"name": st.player.name, "hands": st.hands, "wins": st.wins,
            "self_draws": st.self_draws, "dealt_in": st.dealt_in, "net": st.net,
            "biggest": st.biggest, "average_win": round(st.average_win, 1), "last": last,
            "best": best}


async def debts(ledger: Ledger, chat_id: int) -> list[dict[str, Any]]:
    return [{"handle": b.handle, "payer": b.payer.name, "payee": b.payee.name,
             "money": money(b.cents), "cents": b.cents,
             "parties": [b.payer.model_dump(), b.payee.model_dump()]}
            for b in await ledger.open_balances(chat_id) if b.cents > 0]


def entry(lang: str, s: SessionInfo) -> dict[str, Any]:
    """What the form offers: the seats, the ways of winning this table plays, its
    patterns by name, and its tiles."""
    facts = facts_of(s)
    return {"seats": [{"seat": x, "name": s.seats[x].name} for x in SEATS if x in s.seats],
            "still_in": list(s.still_in) if s.open_hand else list(s.seats),
            "hows": [{"how": h, "label": t(lang, HOW_LABELS[h])} for h in facts.hows],
            "patterns": list(facts.patterns),
            "kongs": [{"kong": k, "label": KONG_WORDS[k]} for k in kong_kinds(s)],
            "draw": has_draw(s),  # the wall's end, said in the app (Sichuan)
            "indicator": facts.indicator,  # the turned-up tile's word, where it counts
            "tiles": list(facts.tiles)}  # the palette: no honours where none are played
