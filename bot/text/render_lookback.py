"""Replies that look back: a night's history, one hand with every event and who reported
and changed it, and a player's record. All text goes through :func:`bot.text.i18n.t`."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from html import escape

from babel.dates import format_date

from bot.text.amounts import in_cents, preset_in_cents, signed_points
from bot.text.i18n import money, nt, t
from bot.text.render import SEAT_KEYS, line_text, name
from bot.text.render_money import at_stakes, points_at_stakes, signed_money
from bot.text.words import colon, listing, paren, pattern_name, preset_name, said, then
from storage.ledger import (
    AuditNote,
    HandDetail,
    MoneyStanding,
    NightHistory,
    NightList,
    PlayerRecord,
    Scope,
    local,
    now,
    utc_offset,
    zone,
)
from storage.models import ChatInfo, PlayerStats


def _change(lang: str, note: AuditNote, player: str, time: str) -> str | None:
    action = note.action
    if action == "undo" and note.undid == "amend" and note.undid_event is not None:
        return t(lang, "The correction of its event {index} was undone by {player} at "
                 "{time}.", index=note.undid_event, player=player, time=time)
    if action == "undo" and note.undid == "amend":
        return t(lang, "Its correction was undone by {player} at {time}.", player=player,
                 time=time)
    if action == "undo" and note.undid == "void":
        return t(lang, "Its void was undone by {player} at {time}; it counts again.",
                 player=player, time=time)
    if action == "undo" and note.undid == "adjust":
        return t(lang, "Its adjustment was undone by {player} at {time}.", player=player,
                 time=time)
    if action == "undo" and note.undid == "penalty":
        return t(lang, "Its penalty was undone by {player} at {time}.", player=player,
                 time=time)
    if action == "undo":
        return t(lang, "Its last event was undone by {player} at {time}.", player=player,
                 time=time)
    if action == "void":
        return t(lang, "Voided by {player} at {time}.", player=player, time=time)
    if action == "amend":
        return t(lang, "Corrected by {player} at {time}.", player=player, time=time)
    return None


def _who(lang: str, player: str | None) -> str:
    return escape(player) if player else t(lang, "someone not at the table")


def history_text(lang: str, view: NightHistory, scope: Scope) -> str:
    if not view.nights and not view.total:
        return t(lang, "No hands recorded in this chat yet.")
    if scope == "all":
        head = t(lang, "All nights, page {page} of {pages}:", page=view.page, pages=view.pages)
    elif isinstance(scope, date) and len(view.nights) > 1:
        head = t(lang, "Nights of {day}, page {page} of {pages}:", day=scope.isoformat(),
                 page=view.page, pages=view.pages)
    else:
        night = view.nights[0]
        head = t(lang, "Night {night}, page {page} of {pages}:", night=night.label,
                 page=view.page, pages=view.pages)
    parts = [head]
    several = view.several
    for it in view.items:
        status = " " + t(lang, "(void)") if it.status == "void" else ""
        cents = preset_in_cents(view.presets.get(it.night_id, ""))  # money, to the cent
        moves = "  ".join(f"{escape(it.seats[s])} {signed_points(v, cents)}"
                          for s, v in it.deltas.items() if v)
        where = f"{view.labels[it.night_id]} " if several else ""
        parts.append(f"{where}#{it.number}{status}{colon(lang)}"
                     f"{moves or t(lang, 'No points moved.')}")
    if not view.items:
        parts.append(t(lang, "No hands that night yet."))
    else:
        parts.append(t(lang, "Every event of a hand: /hand N"))
    if view.page < view.pages:
        parts.append(t(lang, "More: /history {next}", next=_next(scope, view.page + 1)))
    return "\n".join(parts)


_NUMERALS = "零一二三四五六七八九十"


def told(stamp: datetime, time_zone: str | None, lang: str) -> str:
    """A time as the chat tells it, in its time zone: ``2026-12-03 15:06 (UTC+8)``, in
    Chinese ``2026-12-03 15:06（东八区）``."""
    at = local(stamp, zone(time_zone, lang))
    return f"{at:%Y-%m-%d %H:%M}" + paren(lang, _offset(at, lang))


def _offset(at: datetime, lang: str) -> str:
    """``UTC+8``; in Chinese ``东八区`` (``零时区``) for a whole number of hours."""
    hours = int((at.utcoffset() or timedelta()).total_seconds()) / 3600
    if not lang.startswith("zh") or not hours.is_integer() or abs(hours) > 12:
        return utc_offset(at)
    n = int(abs(hours))
    if not n:
        return said(lang, "零时区")
    return said(lang, "东" if hours > 0 else "西") + (
        _NUMERALS[n] if n <= 10 else "十" + _NUMERALS[n - 10]) + said(lang, "区")


def zone_text(info: ChatInfo) -> str:
    """The answer to /set tz: the zone the chat's days and times are now told in."""
    lang = info.language
    at = local(now(), zone(info.time_zone, lang))
    named = info.time_zone if info.time_zone and "/" in info.time_zone else _offset(at, lang)
    name = named if info.time_zone else t(lang, "{zone}, this language's default", zone=named)
    clock = f"{at:%Y-%m-%d %H:%M}"
    return t(lang, "Days and times are told in {zone}: it is {now} there now.",
             zone=name, now=clock)


def night_list_text(lang: str, view: NightList) -> str:
    """/history all: a line a night, latest first."""
    if not view.total:
        return t(lang, "No hands recorded in this chat yet.")
    parts = [t(lang, "All nights, page {page} of {pages}:", page=view.page, pages=view.pages)]
    for line in view.lines:
        n = line.night
        size = nt(lang, "{hands} hand", "{hands} hands", n.hands, hands=n.hands)
        if line.void:
            size += paren(lang, nt(lang, "{void} void", "{void} void", line.void,
                                   void=line.void))
        going = " · " + t(lang, "going") if n.status == "open" else ""
        parts.append(f"{n.label} · {preset_name(lang, n.preset)} · {size}{going}")
    parts.append(t(lang, "A night's hands: /history {night}", night=view.lines[0].night.label)
                 if view.lines else t(lang, "No hands that night yet."))
    if view.page < view.pages:
        following = f"all {view.page + 1}"
        parts.append(t(lang, "More: /history {next}", next=following))
    return "\n".join(parts)


def _next(scope: Scope, page: int) -> str:
    if scope == "all":
        return f"all {page}"
    if isinstance(scope, tuple):
        return f"{scope[0].isoformat()}/{scope[1]} {page}"
    if isinstance(scope, date):
        return f"{scope.isoformat()} {page}"
    return str(page)


def hand_text(lang: str, d: HandDetail) -> str:
    s = d.night
    cents = in_cents(s.rules)  # Singapore, Hong Kong: the moves are money
    head = t(lang, "Hand {number} of night {night}; dealer: {seat} {player}.",
             number=d.number, night=d.entry.label,
             seat=t(lang, SEAT_KEYS[d.dealer]), player=name(s, d.dealer))
    parts = [head]
    if d.status == "void":
        parts.append(t(lang, "This hand is void: it counts for nothing."))
    elif d.status == "open":
        parts.append(t(lang, "This hand plays on."))
    for i, ev in enumerate(d.result.events):
        who = d.reporters[i] if i < len(d.reporters) else None
        parts.append(t(lang, "Event {index}, reported by {player}:", index=i + 1,
                       player=_who(lang, who)))
        parts += ["  • " + line_text(lang, s, line) for line in ev.lines]
        moves = "  ".join(f"{name(s, seat)} {signed_points(v, cents)}"
                          for seat, v in ev.deltas.items() if v)
        parts.append("  " + then(lang, t(lang, "This event:"))
                     + (moves or t(lang, "No points moved.")))
    if len(d.result.events) > 1 and d.status != "void":
        parts.append(then(lang, t(lang, "The hand:")) + "  ".join(
            f"{name(s, seat)} {signed_points(v, cents)}"
            for seat, v in d.result.deltas.items() if v))
    if len(d.result.events) > 1 and d.status != "void" and s.status == "open":
        parts.append(t(lang, "To change one event: /edit {number}.N and that event "
                             "(e.g. /edit {number}.1 …).", number=d.number))
    if len(d.changes) > 5:
        parts.append(t(lang, "{n} earlier changes.", n=len(d.changes) - 5))
    for c in d.changes[-5:]:
        note = _change(lang, c, _who(lang, c.actor), told(c.at, d.time_zone, lang))
        if note:
            parts.append(note)
    return "\n".join(_fit(lang, parts))


def _fit(lang: str, lines: list[str], budget: int = 3800) -> list[str]:
    """The lines that fit in one message, and how many were left out."""
    used = 0
    for i, line in enumerate(lines):
        used += len(line) + 1
        if used > budget:
            return [*lines[:i], t(lang, "…and {n} more lines.", n=len(lines) - i)]
    return lines


def hand_of_night(lang: str, number: int, label: str, today: date | None = None) -> str:
    """A hand by its night's label (``2026-12-02/2``, the day's second night) in words:
    ``hand 1 of night 2 on 2 Dec`` (``hand 1 on 2 Dec`` for the day's only or first
    night); the year only when it is not this year's."""
    day_text, _, k = label.partition("/")
    day = date.fromisoformat(day_text)
    month_name = format_date(day, "MMM", locale="en")  # English's; the catalogs say {month}
    if day.year == (today or date.today()).year:
        when = t(lang, "{day} {month_name}", day=day.day, month=day.month,
                 month_name=month_name)
    else:
        when = t(lang, "{day} {month_name} {year}", day=day.day, month=day.month,
                 month_name=month_name, year=day.year)
    if k:
        return t(lang, "hand {number} of night {night} on {date}", number=number,
                 night=int(k), date=when)
    return t(lang, "hand {number} on {date}", number=number, date=when)


def _rate(hands: int, of: int) -> str:
    """The share of ``of`` hands that had it (never above 100%: a hand counts once)."""
    return f"{round(100 * min(hands, of) / of)}%" if of else "0%"


def _record_line(lang: str, st: PlayerStats) -> str:
    """``Played 12 hands: 5 wins (42%), 2 of them by self-draw; dealt in 3 times (25%).``
    Each count in its own words (``1 win``, ``no wins``, ``dealt in once``, ``never dealt
    in``); the rates are of the hands played, so deal-ins that outnumber the hands they
    were in (several winners fed in one hand) say in how many hands: ``dealt in 2 times,
    in 1 hand (50%)``."""
    played = nt(lang, "Played {hands} hand", "Played {hands} hands", st.hands, hands=st.hands)
    win_rate = _rate(st.hands_won, st.hands)
    if not st.wins:
        won = t(lang, "no wins")
    else:
        won = nt(lang, "{wins} win ({win_rate})", "{wins} wins ({win_rate})", st.wins,
                 wins=st.wins, win_rate=win_rate)
        if st.self_draws and st.self_draws >= st.wins:
            how = (t(lang, "by self-draw") if st.wins == 1 else
                   t(lang, "all by self-draw"))
            won = t(lang, "{wins}, {how}", wins=won, how=how)
        elif st.self_draws:
            won = t(lang, "{wins}, {how}", wins=won, how=t(
                lang, "{self_draws} of them by self-draw", self_draws=st.self_draws))
    dealt_rate = _rate(st.hands_dealt_in, st.hands)
    if not st.dealt_in:
        dealt = t(lang, "never dealt in")
    elif st.dealt_in == st.hands_dealt_in:
        dealt = nt(lang, "dealt in once ({dealt_rate})",
                   "dealt in {dealt_in} times ({dealt_rate})",
                   st.dealt_in, dealt_in=st.dealt_in, dealt_rate=dealt_rate)
    else:  # a blood battle: one hand can feed several winners, the rate is of hands
        in_hands = nt(lang, "in {hands} hand", "in {hands} hands", st.hands_dealt_in,
                      hands=st.hands_dealt_in)
        dealt = nt(lang, "dealt in once, {in_hands} ({dealt_rate})",
                   "dealt in {dealt_in} times, {in_hands} ({dealt_rate})",
                   st.dealt_in, dealt_in=st.dealt_in, in_hands=in_hands,
                   dealt_rate=dealt_rate)
    return t(lang, "{played}: {won}; {dealt}.", played=played, won=won, dealt=dealt)


def best_hand_text(lang: str, rec: PlayerRecord) -> str | None:
    """``Best hand: 30 points, hand 1 on 2 Dec (Shangrao Feibao: 七对)``: the record's best
    hand (the best at the chat's preset, else at any) with the preset it was played at, as
    /stats and the Mini App say it; None without a win."""
    if rec.best is None:
        return None
    b = rec.best
    # The hand's preset with it: a best hand may be of any table the player sat at.
    table = preset_name(lang, b.preset) if b.preset else ""
    named = " ".join(pattern_name(b.preset, n, lang) for n in b.names)
    said_of = colon(lang).join(x for x in (table, named) if x)
    what = paren(lang, escape(said_of)) if said_of else ""
    hand = hand_of_night(lang, b.number, b.night)
    return (t(lang, "Best hand: {money}, {hand}", money=money(b.win_points), hand=hand)
            if preset_in_cents(b.preset) else
            nt(lang, "Best hand: {points} point, {hand}", "Best hand: {points} points, {hand}",
               b.win_points, points=b.win_points, hand=hand)) + what


def record_text(lang: str, rec: PlayerRecord, standing: MoneyStanding | None) -> str:
    st = rec.stats
    parts = [t(lang, "Statistics for {player}:", player=escape(st.player.name))]
    if not st.hands:
        parts.append(t(lang, "No hands played yet."))
        return "\n".join(parts)
    parts.append(_record_line(lang, st))
    if standing is not None:
        # The points behind the money, by stake; none of a night whose points are cents.
        behind = at_stakes(standing.points)
        parts.append(t(lang, "Net: {money} ({points}).", money=signed_money(standing.cents),
                       points=points_at_stakes(lang, behind)) if behind else
                     t(lang, "Net: {money}.", money=signed_money(standing.cents)))
    best = best_hand_text(lang, rec)
    if best is not None:
        parts.append(best)
    if rec.last:
        parts.append(t(lang, "Last hands:"))
        for h in rec.last:
            notes = []
            if h.self_draws:
                notes.append(t(lang, "self-draw"))
            elif h.won:
                notes.append(t(lang, "won"))
            if h.dealt_in:
                notes.append(t(lang, "dealt in"))
            extra = paren(lang, listing(lang, notes)) if notes else ""
            parts.append(f"  {h.night} #{h.number}{colon(lang)}"
                         f"{signed_points(h.delta, preset_in_cents(h.preset))}{extra}")
    return "\n".join(parts)
