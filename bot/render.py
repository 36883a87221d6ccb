"""Messages the bot sends, built from ledger and engine results in the chat's language.
All user-facing text goes through :func:`bot.i18n.t`."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.i18n import money, signed, t
from engine.explain import TEMPLATES
from engine.models import SEATS, HandResult, Line
from engine.pattern_table import pattern_rows
from engine.rules import get_preset, ruleset
from storage.models import (
    Debt,
    EditOutcome,
    HistoryPage,
    PlayerStats,
    RecordOutcome,
    SessionInfo,
    Standing,
    Summary,
    UndoOutcome,
)

SEAT_KEYS = {"E": "East", "S": "South", "W": "West", "N": "North"}
_HOW = {"self_draw": "self-draw", "discard": "off a discard", "rob_kong": "robbing a kong",
        "kong_replacement": "on a kong replacement", "after_kong_discard": "off a kong discard"}


def name(session: SessionInfo, seat: str) -> str:
    return escape(session.seats[seat].name) if seat in session.seats else seat  # type: ignore[index]


def line_text(lang: str, session: SessionInfo, line: Line) -> str:
    params: dict[str, Any] = {}
    for key, value in line.params.items():
        if key in ("seat", "payer", "payee", "winner") and isinstance(value, str):
            params[key] = name(session, value)
        elif key == "how":
            params[key] = t(lang, _HOW.get(str(value), str(value)))
        elif key == "reason":
            params[key] = t(lang, str(value))
        else:
            params[key] = escape(str(value))
    template = TEMPLATES.get(line.code)
    if template is None:
        return escape(line.code)
    return t(lang, template, **params)


def totals_text(lang: str, session: SessionInfo) -> str:
    rows = [t(lang, "Totals:")]
    for seat in SEATS:
        dealer = " " + t(lang, "(dealer)") if seat == session.dealer else ""
        rows.append(f"  {t(lang, SEAT_KEYS[seat])} {name(session, seat)}: "
                    f"<b>{signed(session.totals[seat])}</b>{dealer}")
    return "\n".join(rows)


def outcome_text(lang: str, out: RecordOutcome) -> str:
    assert out.session is not None and out.event is not None and out.hand is not None
    s = out.session
    parts = [t(lang, "Hand {number} recorded.", number=out.hand_number)]
    parts += ["• " + line_text(lang, s, line) for line in out.event.lines
              if line.code != "pay"]
    pays = [line for line in out.event.lines if line.code == "pay"]
    if pays:
        parts.append(t(lang, "Payments:"))
        parts += [f"  {name(s, str(p.params['payer']))} → {name(s, str(p.params['payee']))} "
                  f"{p.params['amount']}" for p in pays]
    parts.append(t(lang, "This event:") + " " + "  ".join(
        f"{name(s, seat)} {signed(v)}" for seat, v in out.event.deltas.items() if v))
    parts.append("")
    parts.append(totals_text(lang, s))
    parts.append(_state_text(lang, s, out.hand, out.closed))
    return "\n".join(parts)


def _state_text(lang: str, s: SessionInfo, hand: HandResult, closed: bool) -> str:
    if not closed:
        still = ", ".join(name(s, seat) for seat in hand.still_in)
        return t(lang, "The hand plays on; still in: {players}.", players=still)
    return t(lang, "Next dealer: {player}.", player=name(s, s.dealer))


def table_text(lang: str, s: SessionInfo) -> str:
    title = get_preset(s.preset).title
    parts = [t(lang, "Table: {preset} ({title}), hand {number}.", preset=s.preset,
               title=escape(title), number=s.hands + (0 if s.open_hand else 1))]
    if s.open_hand:
        parts.append(t(lang, "Hand {number} plays on; still in: {players}.",
                       number=s.open_hand,
                       players=", ".join(name(s, seat) for seat in s.still_in)))
    parts.append(t(lang, "Stake: {money} per point.", money=money(s.stake_cents)))
    parts.append(totals_text(lang, s))
    return "\n".join(parts)


def board_text(lang: str, s: SessionInfo) -> str:
    return "📋 " + t(lang, "Scoreboard") + "\n" + table_text(lang, s)


def undo_text(lang: str, out: UndoOutcome) -> str:
    s = out.session
    return "\n".join([
        t(lang, "Undone: event {index} of hand {number}.", index=out.event_index + 1,
          number=out.hand_number),
        "  ".join(f"{name(s, seat)} {signed(v)}" for seat, v in out.deltas.items() if v)
        or t(lang, "No points moved."),
        "", totals_text(lang, s)])


def edit_text(lang: str, out: EditOutcome) -> str:
    s = out.session
    head = (t(lang, "Hand {number} voided.", number=out.hand_number) if out.action == "void"
            else t(lang, "Hand {number} corrected.", number=out.hand_number))
    parts = [head]
    for c in out.changes:
        diff = "  ".join(f"{name(s, seat)} {signed(c.deltas_before[seat])}→"
                         f"{signed(c.deltas_after[seat])}" for seat in SEATS
                         if c.deltas_before[seat] != c.deltas_after[seat])
        dealer = "" if c.dealer_before == c.dealer_after else " " + t(
            lang, "dealer {before}→{after}", before=name(s, c.dealer_before),
            after=name(s, c.dealer_after))
        parts.append(t(lang, "Hand {number}:", number=c.number) + f" {diff or '-'}{dealer}")
    parts += ["", totals_text(lang, s)]
    return "\n".join(parts)


def summary_text(lang: str, sm: Summary) -> str:
    parts = [t(lang, "The night is over: {hands} hands.", hands=sm.hands)]
    for pid, net in sorted(sm.nets.items(), key=lambda kv: -kv[1]):
        parts.append(f"  {escape(sm.players[pid].name)}: <b>{signed(net)}</b> "
                     f"({money(net * sm.stake_cents)})")
    if sm.transfers:
        parts.append(t(lang, "To settle up:"))
        parts += [f"  {escape(tr.payer.name)} → {escape(tr.payee.name)}: {tr.points} "
                  f"({money(tr.cents)})" for tr in sm.transfers]
    else:
        parts.append(t(lang, "Nobody owes anybody."))
    if sm.biggest:
        parts.append(t(lang, "Biggest hand: {player}, {points} points (hand {number}).",
                       player=escape(sm.biggest[0].name), points=sm.biggest[1],
                       number=sm.biggest[2]))
    if sm.most_wins:
        parts.append(t(lang, "Most wins: {player} ({wins}).",
                       player=escape(sm.most_wins[0].name), wins=sm.most_wins[1]))
    return "\n".join(parts)


def standings_text(lang: str, rows: list[Standing]) -> str:
    if not rows:
        return t(lang, "No hands recorded in this chat yet.")
    parts = [t(lang, "Standings:")]
    for i, r in enumerate(rows, 1):
        parts.append(f"{i}. {escape(r.player.name)}: <b>{signed(r.net)}</b> "
                     + t(lang, "({hands} hands)", hands=r.hands))
    return "\n".join(parts)


def stats_text(lang: str, st: PlayerStats) -> str:
    return "\n".join([
        t(lang, "Statistics for {player}:", player=escape(st.player.name)),
        t(lang, "Hands played: {n}", n=st.hands),
        t(lang, "Wins: {n} (self-draws: {sd})", n=st.wins, sd=st.self_draws),
        t(lang, "Dealt in: {n}", n=st.dealt_in),
        t(lang, "Biggest hand: {n}", n=st.biggest),
        t(lang, "Average win: {n}", n=st.average_win),
        t(lang, "Net: {n}", n=signed(st.net)),
    ])


def history_text(lang: str, page: HistoryPage) -> str:
    if not page.items:
        return t(lang, "No hands recorded in this chat yet.")
    parts = [t(lang, "History, page {page} of {pages}:", page=page.page, pages=page.pages)]
    for it in page.items:
        status = " " + t(lang, "(void)") if it.status == "void" else ""
        moves = "  ".join(f"{escape(it.seats[s])} {signed(v)}"  # type: ignore[index]
                          for s, v in it.deltas.items() if v)
        parts.append(f"#{it.number}{status}: {moves or '-'}")
    return "\n".join(parts)


def rules_text(lang: str, preset: str) -> str:
    p = get_preset(preset)
    rows = pattern_rows(preset)
    parts = [f"<b>{escape(p.name)}</b> — {escape(p.title)}", escape(p.summary), "",
             t(lang, "Patterns:")]
    parts += [f"  {escape(r.name)} ({escape(r.english)}): {escape(r.value)}" for r in rows]
    opts = ruleset(preset).options.model_dump()
    simple = {k: v for k, v in opts.items() if not isinstance(v, dict | list | tuple)}
    parts += ["", t(lang, "Options:")]
    parts += [f"  {k} = {v}" for k, v in simple.items()]
    return "\n".join(parts)


def seats_text(s: SessionInfo) -> str:
    return ", ".join(f"{seat} {name(s, seat)}" for seat in SEATS)


def debts_text(lang: str, debts: list[Debt]) -> str:
    if not debts:
        return t(lang, "No unpaid debts in this chat.")
    parts = [t(lang, "Unpaid debts (mark one with /paid N):")]
    parts += [f"  #{d.id} {escape(d.payer.name)} → {escape(d.payee.name)}: {d.points} "
              f"({money(d.cents)})" for d in debts]
    return "\n".join(parts)
