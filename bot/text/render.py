"""Messages the bot sends, built from ledger and engine results in the chat's language.
All user-facing text goes through :func:`bot.text.i18n.t`."""

from __future__ import annotations

from html import escape
from typing import Any

from bot.text import answer, render_mcr, words
from bot.text.amounts import in_cents, signed_points, stake_table_name
from bot.text.i18n import is_chinese, money, nt, signed, t
from bot.text.render_money import points_at_stakes, signed_money
from engine.families.sichuan import option_off
from engine.families.singapore_stakes import stake_table
from engine.mcr.fans import FANS
from engine.models import HandResult, Line
from engine.options import SichuanOptions, SingaporeOptions
from engine.patterns.hongkong import FAN, LIMIT
from engine.patterns.singapore import LIMITS
from engine.rules import get_preset, ruleset
from engine.share_table import CURVE_NAMES, TIER_NAMES, share_rows
from storage.models import (
    EditOutcome,
    NightInfo,
    RecordOutcome,
    Summary,
    UndoOutcome,
)

SEAT_KEYS = words.SEAT_KEYS
COUNTED = ("根", "杠")  # extras a hand may hold several of
# Options /rules lists only while the options they refine are on (听用's scope with 听用).
ONLY_WITH = {"tingyong_scope": ("tingyong",), "huazhu_fan": ("huazhu",),
             "penalty_dealer": ("penalty",), "bird_mode": ("birds",),
             "bird_origin": ("birds",)}
_HOW = words.HOW


def name(night: NightInfo, seat: str) -> str:
    return answer.player(night, seat)


def line_text(lang: str, night: NightInfo, line: Line) -> str:
    return answer.line_text(lang, night, line)


def _total(night: NightInfo, value: int) -> str:
    """A running total: Hong Kong's cents as money (``0.00``), Singapore's own money, or
    points."""
    if in_cents(night.rules):
        return signed_points(value, True)
    return answer.points(night, value)


def totals_text(lang: str, night: NightInfo) -> str:
    """Each seat's running total; when the stake changed during the night, its money with
    its points at each stake (never points added across stakes), as /end says it."""
    rows = [t(lang, "Totals:")]
    for seat in night.seats:
        space = "" if is_chinese(lang) else " "
        dealer = space + t(lang, "(dealer)") if seat == render_mcr.dealer(night) else ""
        if night.points_at:
            shown = f"<b>{signed_money(night.money_of(seat))}</b>" + words.paren(
                lang, points_at_stakes(lang, night.points_at.get(seat, ())))
        else:
            shown = f"<b>{_total(night, night.totals[seat])}</b>"
        rows.append("  " + t(lang, "{seat} {player}: {points}", seat=t(lang, SEAT_KEYS[seat]),
                             player=name(night, seat), points=shown) + dealer)
    return "\n".join(rows)


def outcome_text(lang: str, out: RecordOutcome, verbose: bool = True) -> str:
    """The answer to a recorded event: the full explanation with the running totals, or
    (``verbose=False``) the compact two lines; the board carries the totals then."""
    assert out.night is not None and out.event is not None and out.hand is not None
    s = out.night
    if not verbose:
        return answer.compact_text(lang, s, out.hand_number, out.event, out.hand, out.closed)
    return "\n".join([
        t(lang, "Hand {number} recorded.", number=out.hand_number),
        answer.full_text(lang, s, out.hand_number, out.event).split("\n", 1)[1],
        "", totals_text(lang, s), answer.state_text(lang, s, out.hand, out.closed)])


def details_text(lang: str, s: NightInfo, number: int, hand: HandResult, index: int
                 ) -> str:
    """What the Details button shows: the event's full explanation and the hand's state
    (none once the night has ended: no hand plays on, nobody deals next)."""
    text = answer.full_text(lang, s, number, hand.events[index])
    if index < len(hand.events) - 1 or s.status != "open":
        return text
    if hand.open:
        return text + "\n" + answer.state_text(lang, s, hand, closed=False)
    if hand.next_dealer:
        return text + "\n" + t(lang, "Next dealer: {player}.",
                                player=name(s, hand.next_dealer))
    return text


def table_text(lang: str, s: NightInfo) -> str:
    parts = [t(lang, "Table: {preset}, hand {number}.", preset=words.preset_name(lang, s.preset),
               number=s.hands + (0 if s.open_hand else 1))]
    if (at_match := render_mcr.match_text(lang, s)) is not None:
        parts.append(at_match)
    if s.open_hand:
        parts.append(t(lang, "Hand {number} plays on; still in: {players}.",
                       number=s.open_hand, players=_list(lang, [name(s, x) for x in s.still_in])))
    stake = stake_table_name(s.rules)
    if stake:
        parts.append(t(lang, "Stake table: {table} (money in the table's own terms).",
                       table=stake))
    elif in_cents(s.rules):
        parts.append(t(lang, "Money from the share table, in dollars and cents."))
    else:
        parts.append(t(lang, "Stake: {money} per point.", money=money(s.stake_cents)))
    if s.points_at:  # the totals are money: each hand at its own stake
        stakes = sorted({at for seat in s.points_at.values() for at, _ in seat}
                        | {s.stake_cents})
        parts.append(t(lang, "The stake changed during the night: each hand counts at its "
                             "own stake ({stakes}).",
                       stakes=_list(lang, [money(x) for x in stakes])))
    parts.append(totals_text(lang, s))
    return "\n".join(parts)


def board_text(lang: str, s: NightInfo) -> str:
    if s.status != "open":  # the night is over: the final nets, no hand in progress
        return "\n".join(["📋 " + t(lang, "Scoreboard"),
                          nt(lang, "{preset}: the night is over after {hands} hand.",
                             "{preset}: the night is over after {hands} hands.", s.hands,
                             preset=words.preset_name(lang, s.preset), hands=s.hands),
                          totals_text(lang, s)])
    return "📋 " + t(lang, "Scoreboard") + "\n" + table_text(lang, s)


def ended(s: NightInfo, sm: Summary) -> NightInfo:
    """The table as the night ended: its final nets, no hand in progress."""
    return s.model_copy(update={
        "status": "ended", "hands": sm.hands, "open_hand": None, "still_in": (),
        "totals": {seat: sm.nets.get(p.id, 0) for seat, p in s.seats.items()}})


def _list(lang: str, items: list[str]) -> str:
    return ("、" if is_chinese(lang) else ", ").join(items)


def _undone(lang: str, out: UndoOutcome) -> str:
    if out.correction and out.removed.get("type") == "void":
        return t(lang, "Undone: the void of hand {number}; it counts again.",
                 number=out.hand_number)
    if out.correction and out.event_index is not None:
        return t(lang, "Undone: the correction of event {index} of hand {number}.",
                 index=out.event_index + 1, number=out.hand_number)
    if out.correction or out.event_index is None:
        return t(lang, "Undone: the correction of hand {number}.", number=out.hand_number)
    return t(lang, "Undone: event {index} of hand {number}.", index=out.event_index + 1,
             number=out.hand_number)


def undo_text(lang: str, out: UndoOutcome) -> str:
    s = out.night
    return "\n".join([
        _undone(lang, out),
        # Everyone whose result moved, who left the table (/seat) included.
        "  ".join(f"{escape(p.name)} {signed_points(v, in_cents(s.rules))}"
                  for p, v in out.moved)
        or t(lang, "No points moved."),
        "", totals_text(lang, s)])


def edit_text(lang: str, out: EditOutcome) -> str:
    s = out.night
    head = (t(lang, "Hand {number} voided.", number=out.hand_number) if out.action == "void"
            else t(lang, "Hand {number} corrected.", number=out.hand_number))
    parts = [head]
    cents = in_cents(s.rules)
    for c in out.changes:
        # Each hand's results are named after who played it (a seat may have changed).
        who = s.model_copy(update={"seats": c.players}) if c.players else s
        diff = "  ".join(f"{name(who, seat)} "
                         f"{signed_points(c.deltas_before.get(seat, 0), cents)}→"
                         f"{signed_points(c.deltas_after.get(seat, 0), cents)}"
                         for seat in who.seats
                         if c.deltas_before.get(seat, 0) != c.deltas_after.get(seat, 0))
        dealer = "" if c.dealer_before == c.dealer_after else t(
            lang, "dealer {before}→{after}", before=name(who, c.dealer_before),
            after=name(who, c.dealer_after))
        parts.append(words.then(lang, t(lang, "Hand {number}:", number=c.number))
                     + (" ".join(x for x in (diff, dealer) if x)
                        or t(lang, "no points moved")))
    parts += ["", totals_text(lang, s)]
    return "\n".join(parts)


def summary_text(lang: str, sm: Summary, cents: bool = False) -> str:
    """The night's end; ``cents``: the table's points are cents of its own money
    (Singapore's stake tables, Hong Kong's share table), so every amount is money, said
    once."""
    parts = [nt(lang, "The night is over: {hands} hand.", "The night is over: {hands} hands.",
                sm.hands, hands=sm.hands)]
    for pid, net in sorted(sm.nets.items(), key=lambda kv: -kv[1]) if not sm.mixed else ():
        if cents:  # points are cents: the money alone
            parts.append("  " + t(lang, "{player}: {money}", player=escape(sm.players[pid].name),
                                  money="<b>" + signed_points(sm.money_of(pid), True) + "</b>"))
            continue
        bold = "<b>" + signed(net) + "</b>"
        parts.append("  " + t(lang, "{player}: {points} ({money})",
                                player=escape(sm.players[pid].name), points=bold,
                                money=money(sm.money_of(pid))))
    # The stake changed: the money, and the points at each stake (never added up).
    for pid in sorted(sm.nets, key=lambda p: (-sm.money_of(p), p)) if sm.mixed else ():
        parts.append(f"  {escape(sm.players[pid].name)}{words.colon(lang)}"
                     f"<b>{signed_money(sm.money_of(pid))}</b>"
                     + words.paren(lang, points_at_stakes(lang, sm.points_at.get(pid, ()))))
    if sm.mixed:
        parts.append(t(lang, "The stake changed during the night: each hand counts at its "
                             "own stake ({stakes}).",
                       stakes=_list(lang, [money(x) for x in sm.stakes])))
    if sm.transfers:
        parts.append(t(lang, "To settle up:"))
        parts += ["  " + (t(lang, "{payer} → {payee}: {money}", payer=escape(tr.payer.name),
                            payee=escape(tr.payee.name), money=money(tr.cents))
                          if sm.mixed or cents
                          else t(lang, "{payer} → {payee}: {points} ({money})",
                                 payer=escape(tr.payer.name), payee=escape(tr.payee.name),
                                 points=tr.points, money=money(tr.cents)))
                  for tr in sm.transfers]
    else:
        parts.append(t(lang, "Nobody owes anybody."))
    if sm.biggest and cents:
        parts.append(t(lang, "Biggest hand: {player}, {money} (hand {number}).",
                       player=escape(sm.biggest[0].name), money=money(sm.biggest[1]),
                       number=sm.biggest[2]))
    elif sm.biggest:
        parts.append(nt(lang, "Biggest hand: {player}, {points} point (hand {number}).",
                        "Biggest hand: {player}, {points} points (hand {number}).",
                        sm.biggest[1], player=escape(sm.biggest[0].name),
                        points=sm.biggest[1], number=sm.biggest[2]))
    if sm.most_wins:
        top = sm.most_winners or (sm.most_wins[0],)
        parts.append(t(lang, "Most wins: {player} ({wins}).",
                       player=_list(lang, [escape(p.name) for p in top]), wins=sm.most_wins[1]))
    return "\n".join(parts)


def rules_text(lang: str, preset: str, options: dict[str, Any] | None = None) -> str:
    """The preset's patterns and options as this chat plays them (``options``: the table's
    or the chat's house rules; the preset's defaults when None)."""
    p = get_preset(preset)
    opts = options if options is not None else ruleset(preset).options.model_dump()
    head = words.preset_name(lang, preset)
    summary = words.PRESET_SUMMARIES.get(preset)
    parts = [f"<b>{escape(head)}</b>" + ("" if is_chinese(lang) else f" — {escape(p.title)}"),
             t(lang, summary) if summary else escape(p.summary)]
    changed = _changed_options(lang, preset, opts) if options is not None else []
    if changed:  # the summary says the preset's defaults: what is played otherwise here
        parts.append(t(lang, "Changed from the summary above: {changes}.",
                       changes=("；" if is_chinese(lang) else "; ").join(changed)))
    parts.append("")
    if p.family == "free":  # nothing is scored from patterns
        parts.append(t(lang, "Patterns: none; each report says its amount."))
    else:
        heading = words.PATTERNS_HEADING.get(p.family)  # Changsha: big and small wins
        parts.append(t(lang, heading) if heading else t(lang, "Patterns:"))
        parts += [f"  {escape(words.pattern_shown(lang, preset, n))}{words.colon(lang)}{v}"
                  for n, v in _pattern_values(lang, p.family, opts)]
    if p.family == "singapore":
        sg = SingaporeOptions.model_validate(opts)
        parts += ["", t(lang, "Stake table {table} (base / zimo per tai):", table=sg.stake)]
        parts += ["  " + t(lang, "{n} tai: {base} / {zimo}", n=n, base=money(base),
                           zimo=money(zimo)) for n, base, zimo in stake_table(sg)]
    if p.family == "hongkong":
        parts += ["", _share_table(lang, opts)]
    parts += ["", t(lang, "Options:")]
    parts += [f"  {escape(words.option_label(lang, k, p.family))}{words.colon(lang)}"
              f"{escape(words.option_value(lang, k, v))}"
              for k, v in opts.items()
              if k in words.OPTIONS and not isinstance(v, dict | list | tuple)
              and not (opts.get("suits") == 2 and k in ("huazhu", "huazhu_fan"))  # 两房
              # the share table or the stake table says the money
              and not (p.family in ("hongkong", "singapore") and k == "base")
              and all(opts.get(on) for on in ONLY_WITH.get(k, ()))
              and not (k == "huazhu_fan" and opts.get("cap_fan") is not None)]
    parts.append(escape(words.rules_hint(lang, p.family)))
    return "\n".join(parts)


def _changed_options(lang: str, preset: str, opts: dict[str, Any]) -> list[str]:
    """The options, as /rules lists them, whose value is not the preset's own."""
    family = get_preset(preset).family
    defaults = ruleset(preset).options.model_dump()
    return [f"{escape(words.option_label(lang, k, family))}{words.colon(lang)}"
            f"{escape(words.option_value(lang, k, v))}"
            for k, v in opts.items()
            if k in words.OPTIONS and not isinstance(v, dict | list | tuple)
            and k in defaults and defaults[k] != v]


def _pattern_values(lang: str, family: str, opts: dict[str, Any]) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    if family == "sichuan":
        additive = opts.get("fan_mode") == "additive"
        sichuan = SichuanOptions.model_validate(opts)
        rows += [(n, t(lang, "+{n} fan", n=f) if additive else t(lang, "{n} fan", n=f))
                 for n, f in opts.get("fan", {}).items()]
        rows += [(n, t(lang, "+{n} fan each", n=f) if n in COUNTED else t(lang, "+{n} fan", n=f))
                 for n, f in opts.get("extras", {}).items() if f]  # 根 and 杠 count each
        for i, (n, _value) in enumerate(rows):  # a pattern a house rule switches off
            off = option_off(sichuan, n)
            if off is not None:
                rows[i] = (n, t(lang, "not counted (“{option}” is off)",
                                option=t(lang, words.OPTIONS.get(off, off))))
    elif family == "singapore":
        rows += [(n, t(lang, "{n} tai", n=v)) for n, v in opts.get("tai", {}).items() if v]
        rows += [(n, t(lang, "the limit ({n} tai)", n=opts.get("cap_tai")))
                 for n in LIMITS]
    elif family == "mcr":  # the 81 fans by value (English chats: the Chinese beside)
        fans = sorted(FANS.values(), key=lambda f: -f.value)
        for v in sorted({f.value for f in fans}, reverse=True):
            rows.append((t(lang, "{n} fan", n=v), words.listing(
                lang, (words.said(lang, f.zh) if is_chinese(lang)
                       else f"{words.said(lang, f.zh)} {f.en}" for f in fans if f.value == v))))
    elif family == "hongkong":
        rows += [(n, t(lang, "a limit hand") if fan == LIMIT else t(lang, "{n} 番", n=fan))
                 for n, fan in FAN.items()]
    elif family == "changsha":
        rows += [(n, t(lang, "{n} big win(s)", n=c)) for n, c in opts.get("big_wins", {}).items()]
        rows += [(n, t(lang, "paid as a small self-draw"))
                 for n in opts.get("starting_wins", ())]
    else:
        values = opts.get("values", {})
        for n, v in values.items():
            if n.endswith("无宝") or n.endswith("宝吊"):
                continue
            rows.append((n, t(lang, "{v} with 宝, {w} without", v=v, w=values.get(n + "无宝", v))))
        if "平和宝吊" in values:
            rows.append(("宝吊", t(lang, "平和 {v}; 七对 and 碰对 doubled",
                                   v=values["平和宝吊"])))
        rows += [(n, t(lang, "doubles (x2)")) for n in ("七字全", "单张", "宝吊还原", "豪华",
                                                        "飞宝", "杠上花")]
        rows.append(("清一色", t(lang, "x{n}", n=2 ** int(opts.get("qingyise_fan", 2)))))
    return rows


def _share_table(lang: str, opts: dict[str, Any]) -> str:
    """The shares a Hong Kong table plays, by 番 from its minimum to its cap, in dollars
    and cents; who pays how many shares."""
    stake, curve = opts["stake"], opts["curve"]
    rows = share_rows(stake, curve, opts["min_fan"], opts["cap_fan"])
    head = t(lang, "One share (單份) by 番, {stake} {curve}:", stake=TIER_NAMES[stake],
             curve=CURVE_NAMES[curve])
    cells = [t(lang, "{n} 番", n=fan) + " " + money(cents) for fan, cents in rows]
    return "\n".join([head, "  " + " · ".join(cells), t(
        lang, "A self-draw: each other player pays 2 shares. Off a discard: 半銃, the "
              "discarder 2 and the others 1 each; 全銃, the discarder all 4.")])


def seats_text(s: NightInfo, lang: str = "en") -> str:
    return _list(lang, [f"{t(lang, SEAT_KEYS[seat])} {name(s, seat)}" for seat in s.seats])

