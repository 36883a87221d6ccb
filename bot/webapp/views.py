"""What the Mini App's pages show, as JSON, read through the ledger's own read methods
(never SQL here): the table, the night's hands with their explanations, standings, a
player's record, open debts."""

from __future__ import annotations

from typing import Any

from bot.dialogs.guided_keyboards import KONG_WORDS
from bot.dialogs.guided_steps import facts_of
from bot.pictures.picture_data import standings_series
from bot.text import render, render_mcr, words
from bot.text.amounts import preset_in_cents, signed_points
from bot.text.help_text import HOW_LABELS
from bot.text.i18n import money, t
from bot.text.render_lookback import best_hand_text
from bot.webapp import entry_bites, entry_hk, entry_mcr
from bot.webapp.entry import has_draw, kong_kinds, money_points, plain
from bot.webapp.form import BONUS_CODES, FLOWERS
from engine.models import SEATS, HandResult
from storage.errors import LedgerError
from storage.ledger import Ledger
from storage.models import NightInfo, PlayerInfo


async def board(ledger: Ledger, lang: str, s: NightInfo | None) -> dict[str, Any]:
    """The table now: each seat's player and their points tonight; and who played tonight
    and left (/seat), with theirs."""
    if s is None:
        return {"status": "none"}
    seats = []
    cents = money_points(s)  # Hong Kong, Singapore: the points are the money's cents
    for seat in SEATS:
        p = s.seats.get(seat)
        if p is None:
            continue
        total = s.totals.get(seat, 0)
        seats.append({"seat": seat, "seat_name": t(lang, words.SEAT_KEYS[seat]), "name": p.name,
                      "total": total, "money": money(total * s.stake_cents),
                      "shown": signed_points(total, cents),
                      "dealer": seat == render_mcr.dealer(s),  # a match: by its hand
                      "in_hand": bool(s.open_hand) and seat in s.still_in})
    left = [{"name": x.name, "total": x.points, "money": money(x.points * s.stake_cents)}
            for x in await ledger.series.left_table(s)]
    return {"status": s.status, "session": s.id, "preset": words.preset_name(lang, s.preset),
            "stake": money(s.stake_cents), "hands": s.hands, "open_hand": s.open_hand,
            "hand": s.hands + (0 if s.open_hand else 1), "seats": seats, "left": left,
            "match": entry_mcr.match_view(lang, s)}


async def night(ledger: Ledger, lang: str, chat_id: int) -> dict[str, Any]:
    """The open night (else the last): each hand with who played it, their points and the
    lines of every event's explanation; and the chart's lines, one per person (who left
    and who joined included), each their running total from before the first hand shown to
    after each hand, None where they were not at the table."""
    try:
        n = await ledger.series.night_chart(chat_id)
    except LedgerError:
        return {"hands": [], "lines": []}
    s = n.night
    hands = []
    moves: list[dict[int, int]] = []  # each hand's points by player (a void hand: 0)
    for h in n.hands:
        result = HandResult.model_validate(h.result)
        played = {x: h.players[x] for x in SEATS if x in h.players}
        table = s.model_copy(update={"seats": {x: PlayerInfo(id=pid, name=n.names[pid])
                                               for x, pid in played.items()}})
        moves.append({pid: 0 if h.status == "void" else result.deltas.get(x, 0)
                      for x, pid in played.items()})
        events = [[line for line in plain(render.details_text(
            lang, table, h.number, result, i)).split("\n") if line.strip()]
            for i in range(len(result.events))]
        hands.append({"number": h.number, "dealer": h.dealer, "status": h.status,
                      "names": {x: n.names[pid] for x, pid in played.items()},
                      "deltas": {x: result.deltas.get(x, 0) for x in played},
                      "events": events})
    # As the chat's night chart (bot.pictures.picture_data.night_series), void hands too:
    # a line starts just before someone's first hand and ends with their last, or runs to
    # the end for who sits at the table now.
    now = {p.id for p in s.seats.values()}
    people = list(dict.fromkeys([*(pid for m in moves for pid in m),
                                 *(s.seats[x].id for x in SEATS if x in s.seats)]))
    lines = []
    for pid in people:
        running = n.nets.get(pid, 0) - sum(m.get(pid, 0) for m in moves)
        values: list[int | None] = []
        for i in range(len(moves) + 1):
            if i > 0:
                running += moves[i - 1].get(pid, 0)
            shown = (i > 0 and pid in moves[i - 1]) or (i < len(moves) and pid in moves[i]) \
                or (i == len(moves) and pid in now)
            values.append(running if shown else None)
        lines.append({"id": pid, "name": n.names[pid], "left": pid not in now,
                      "values": values})
    return {"night": n.number, "of": n.of, "session": s.id, "hands": hands, "lines": lines,
            "preset": words.preset_name(lang, s.preset)}


async def standings(ledger: Ledger, lang: str, chat_id: int) -> dict[str, Any]:
    """The chat's standings in money, and each player's net points over the nights (what
    ``/standings chart`` draws)."""
    rows = await ledger.money.money_standings(chat_id)
    nights, names = await ledger.series.night_nets(chat_id)
    final = {s.player.id: s.net for s in await ledger.lookback.standings(chat_id)}
    chart = standings_series(nights, names, final)
    return {"rows": [{"id": r.player.id, "name": r.player.name, "money": money(r.cents),
                      "cents": r.cents, "hands": r.hands, "wins": r.wins,
                      "points": [{"stake": money(stake), "points": pts}
                                 for stake, pts in r.points]} for r in rows],
            "chart": {"nights": list(chart.nights),
                      "lines": [{"id": p, "name": chart.names[p], "values": list(v)}
                                for p, v in chart.lines.items()]}}


async def player(ledger: Ledger, lang: str, chat_id: int, player_id: int) -> dict[str, Any]:
    rec = await ledger.lookback.player_record(chat_id, player_id)
    st = rec.stats
    last = [{"night": h.night, "number": h.number, "delta": h.delta} for h in rec.last]
    b = rec.best
    # The same best hand as /stats (the best at the chat's preset, else at any), said as
    # /stats says it, with the preset it was played at (a hand keeps its rules).
    best = None if b is None else {
        "night": b.night, "number": b.number, "points": b.win_points,
        "names": [words.pattern_name(b.preset, n, lang) for n in b.names],
        "preset": b.preset, "preset_name": words.preset_name(lang, b.preset) if b.preset else "",
        "shown": money(b.win_points) if preset_in_cents(b.preset) else str(b.win_points),
        "text": plain(best_hand_text(lang, rec) or "")}
    return {"name": st.player.name, "hands": st.hands, "wins": st.wins,
            "self_draws": st.self_draws, "dealt_in": st.dealt_in, "net": st.net,
            # the biggest win is the best hand's: in dollars where its points are cents
            "biggest": st.biggest, "biggest_shown": best["shown"] if best else "0",
            "average_win": round(st.average_win, 1), "last": last, "best": best}


async def debts(ledger: Ledger, chat_id: int) -> list[dict[str, Any]]:
    return [{"handle": b.handle, "payer": b.payer.name, "payee": b.payee.name,
             "money": money(b.cents), "cents": b.cents,
             "parties": [b.payer.model_dump(), b.payee.model_dump()]}
            for b in await ledger.money.open_balances(chat_id) if b.cents > 0]


def entry(lang: str, s: NightInfo) -> dict[str, Any]:
    """What the form offers: the seats, the ways of winning this table plays, its
    patterns by name, and its tiles."""
    facts = facts_of(s)
    return {"seats": [{"seat": x, "name": s.seats[x].name} for x in SEATS if x in s.seats],
            "still_in": list(s.still_in) if s.open_hand else list(s.seats),
            "hows": [{"how": h, "label": t(lang, HOW_LABELS[h])} for h in facts.hows],
            "patterns": list(facts.patterns),
            # Each pattern's name in the chat's script (對對糊 in zh-Hant), sent back as it is.
            "pattern_labels": {n: words.pattern_name("", n, lang) for n in facts.patterns},
            "kongs": [{"kong": k, "label": words.said(lang, KONG_WORDS[k])}
                      for k in kong_kinds(s)],
            "draw": has_draw(s),  # the wall's end, said in the app (Sichuan)
            "indicator": facts.indicator,  # the turned-up tile's word, where it counts
            "tiles": list(facts.tiles),  # the palette: no honours where none are played
            # Singapore: a tai count (min, cap) and bonus tiles; points only: an amount.
            "tai": list(facts.tai) if facts.tai else None,
            "bonus": list(BONUS_CODES) if facts.tai else [],
            "amount": facts.amount,
            "family": facts.family,
            # Singapore: the bites and sets paid at once
            "bites": entry_bites.labels(lang, s),
            # MCR: the match's round, hand and seat winds; the 8-fan gate
            "match": entry_mcr.match_view(lang, s) if facts.family == "mcr" else None,
            # Hong Kong: the share table in dollars and cents, the seat winds, the bonus tiles
            "shares": entry_hk.share_view(lang, s.rules.get("options", {}))
            if facts.family == "hongkong" else None,
            "seat_winds": entry_hk.seat_winds(lang, s) if facts.family == "hongkong" else None,
            "flowers": list(FLOWERS) if facts.family == "hongkong" else [],
            "cents": money_points(s)}
