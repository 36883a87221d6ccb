"""The answer to a recorded event: a compact line or two by default (who won what, the
hand's fan and points, who pays, what comes next), or the full explanation, every line
of the engine's account in the chat's language, each payment saying why."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from bot.text import render_mcr, words
from bot.text.amounts import in_cents
from bot.text.i18n import is_chinese, money, nt, pt, signed, t
from engine.explain import (
    HONGKONG_NOT_COUNTED,
    HONGKONG_TEMPLATES,
    NOT_COUNTED,
    TEMPLATES,
    template_code,
)
from engine.models import PAID_BY_ONE, EventResult, HandResult, Line, Seat
from engine.rules import presets
from storage.models import NightInfo

# Short fragments of a compact answer, by line code (None: left out of the short answer).
SHORT: dict[str, str | None] = {
    "base": "{name}", "pattern": "{name}", "extra": "{name}", "given": "{fan} fan as reported",
    "cap": None, "value": "{fan} fan, {points} points", "hand_value": "{name} ({wild})",
    "in_base": "{name}", "doubling": "{name}", "doubled_value": "{points} points",
    "plain_value": "{points} points",
    "small_win": "small win", "big_win": "{name}", "bird": "bird {rank} on {seat}",
    "penalty": None, "starting_win": "{seat} declares {name}", "kong": "{seat} declares {kind}",
    "kong_robbed": None, "hujiao_zhuanyi": "呼叫转移 from {seat}",
    "wall_end": "the wall runs out", "huazhu": "{seat} is 花猪",
    "huazhu_not_counted": None, "chajiao": "{seat} is ready ({points})",
    "chajiao_tiles": "{seat} is ready ({points})",
    "chajiao_points": "{seat} is ready ({points})", "qianggang": "{seat} pays x{mult}",
    "loser_feibao": "{seat} threw {count} 飞宝", "chengbao": "承包 by {seat}",
    "chongguan": None, "bawang_jing": None, "jing": "精: {seat} {score}",
    "tuishui_handed_on": None, "huazhu_value": None, "per_unit": None, "zimo_stake": None,
    "worth_each": None, "worth_one": None, "dealer_premium": None, "bird_double": None,
    "bird_add": None, "penalty_more": None, "big_wins_one": "the big wins count as one",
    "not_counted_option": "{name} not counted (“{option}” is off)",
    "not_counted_largest": "{name} not counted (only {base} counts)",
    "not_counted_no_value": "{name} not counted (no value here)",
    "not_counted_no_wild": "{name} not counted (无宝)",
    "not_counted_fan_given": "{name} not counted (fan given)",
    "false_win": "{seat}: a false win (诈胡)", "adjust": "an adjustment: {note}",
    "adjust_plain": "an adjustment", "adjusted": None,
    # Singapore/Malaysia and points only.
    "tai": "{name}", "tai_instead": None, "tai_given": None,
    "tai_total": "{tai} tai", "tai_cap": "capped at {cap} tai", "limit": "{name} (limit)",
    "special_win": "{name} (limit)", "stake_value": None, "liable": "包: {seat} pays for all",
    "pays_as_shooter": None, "instant": "{seat}: {what}", "bite_hidden": None,
    "instant_kept": "the instant payouts stand",
    "not_counted_tai_given": "{name} not counted (tai given)",
    "amounts": "each player's change",
    # What the report left out and how it was scored: a sentence under the headline.
    "birds_unsaid": "No bird named: scored as no bird hit.",
    "birds_short": "{said} of {drawn} birds named: the others scored as no hit.",
    "jing_unsaid": "No 精 counts given: no 精 reward.",
    # Chinese Official (MCR): each fan by both its names, then the total or the gate.
    "mcr_fan": "{zh} {en} {fan}", "mcr_total": "{fan} fan",
    "mcr_under_gate": "{fan} fan without flowers, under the gate of {gate}: not a win but "
                      "a false win (错和), {amount} to each other player",
    "mcr_owes": None, "mcr_penalty": "{seat}: {foul}",
    # Hong Kong
    "limit_hand": "{name} (a limit hand)", "chicken_hand": "雞糊", "fan_total": "{fan} 番",
    "flower_fan": None, "share": None, "share_part": None, "share_part_for": None,
    "share_part_double": None, "bao_zimo": "包自摸 by {seat}",
    "bao_only_self_draw": "包 counts on a self-draw only: {seat} pays as usual",
    "rob_kong_no_bao": None, "not_counted_included": "{name} not counted ({by} includes it)",
}
LEFT_OUT = ("birds_unsaid", "birds_short", "jing_unsaid")
# English says "1 point": each template that counts points (its plural form), and its
# singular. Fan need none ("1 fan", "2 fan"); Chinese has one form.
ONE_POINT = {
    "{fan} fan, {points} points": "{fan} fan, {points} point",
    "{points} points": "{points} point",
    "{seat}: {fan} fan = {points} points": "{seat}: {fan} fan = {points} point",
    "{seat}: {value} x {times} = {points} points": "{seat}: {value} x {times} = {points} point",
    "{seat}: {points} points": "{seat}: {points} point",
}
_NAMED = ("name", "patterns", "base", "wild", "pattern", "instead", "zh")  # zh: an MCR fan
# What an instant payout (Singapore) was for.
INSTANT = {
    "kong_direct": "an exposed kong", "kong_added": "an added kong",
    "kong_concealed": "a concealed kong", "bite_cat_rat": "a bite (cat and rat)",
    "bite_rooster_centipede": "a bite (rooster and centipede)",
    "bite_seat_flowers": "a bite (seat flower and season)",
    "set_flowers": "all four flowers", "set_seasons": "all four seasons",
    "set_animals": "all four animals",
    # A hidden bite in the answer's headline (both tiles in the starting hand).
    "bite_cat_rat_hidden": "a hidden bite (cat and rat)",
    "bite_rooster_centipede_hidden": "a hidden bite (rooster and centipede)",
    "bite_seat_flowers_hidden": "a hidden bite (seat flower and season)",
}
EACH = "each other player"
# Amounts a family whose points are cents of its own money (Singapore, Hong Kong) says as
# money: a payment, a share, the unit of instant payouts, a stake table's base and zimo.
_MONEY = ("amount", "share", "unit", "base", "zimo")


def points(night: NightInfo, value: int) -> str:
    """A signed result: points, or the table's own money (``+0.80``)."""
    if not in_cents(night.rules):
        return signed(value)
    return ("+" if value > 0 else "") + money(value) if value else "0"
_SEATS = ("seat", "payer", "payee", "winner")


def player(night: NightInfo, seat: str) -> str:
    return escape(night.seats[seat].name) if seat in night.seats else seat


def _params(lang: str, night: NightInfo, line: Line) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in line.params.items():
        if key == "payer" and value == "each":
            out[key] = t(lang, EACH)
        elif key in _SEATS and isinstance(value, str):
            out[key] = player(night, value)
        elif key == "how":
            out[key] = t(lang, words.HOW.get(str(value), str(value)))
        elif key == "kind":
            out[key] = t(lang, words.KONG_KINDS.get(str(value), str(value)))
        elif key == "foul":
            out[key] = t(lang, words.FOULS.get(str(value), str(value)))
        elif key == "reason":
            out[key] = t(lang, words.REASONS.get(str(value), str(value)))
        elif key in _MONEY and isinstance(value, int) and in_cents(night.rules):
            out[key] = money(value)
        elif key == "option":
            out[key] = t(lang, words.OPTIONS.get(str(value), str(value)))
        elif key == "what":
            out[key] = t(lang, INSTANT.get(str(value), str(value)))
        elif key == "zh":  # an MCR fan's Chinese name: its line says the English beside
            out[key] = escape(words.pattern_name(night.preset, str(value), lang))
        elif key in _NAMED:
            out[key] = escape(words.pattern_shown(lang, night.preset, str(value)))
        else:
            out[key] = escape(str(value))
    count = line.params.get("count")
    if line.code == "extra" and isinstance(count, int) and count > 1:
        out["name"] = f"{out['name']}×{count}"
    return out


def _say(lang: str, template: str, line: Line, params: dict[str, Any]) -> str:
    """``template`` in the chat's language, in the singular where it counts one point."""
    singular, points = ONE_POINT.get(template), line.params.get("points")
    if singular is not None and isinstance(points, int):
        return nt(lang, singular, template, points, **params)
    return t(lang, template, **params)


def line_text(lang: str, night: NightInfo, line: Line) -> str:
    """One line of the full explanation."""
    params = _params(lang, night, line)
    if line.code == "pay":
        reason = str(line.params.get("reason"))
        if in_cents(night.rules) and (money_line := _money_payment(lang, reason, params)):
            return money_line
        template = words.PAYMENTS.get(reason, words.PAYMENT_OTHER)
        return t(lang, template, **params)
    code = template_code(line)
    known = TEMPLATES.get(code) or HONGKONG_TEMPLATES.get(code)
    if known is None:
        return escape(line.code)
    return _say(lang, known, line, params)


def _money_payment(lang: str, reason: str, params: dict[str, Any]) -> str | None:
    """A payment of a table whose points are its money (Singapore, Hong Kong), where a
    points table's line counts points (in Chinese 0.80 分 would read as points): the win,
    a false win and any other (an adjustment)."""
    if reason == "win":
        return pt(lang, "money", "{payer} → {payee} {amount} (the win)", **params)
    if reason == "false_win":
        return pt(lang, "money", "{payer} → {payee} {amount} (诈胡: {payer}'s false win)",
                  **params)
    if reason not in words.PAYMENTS:
        return pt(lang, "money", "{payer} → {payee} {amount}", **params)
    return None


def _merged_pays(lines: tuple[Line, ...]) -> list[Line]:
    """Payments, one line per payer, payee and reason (承包's shares are one payment)."""
    merged: dict[tuple[Any, Any, Any], int] = {}
    for p in lines:
        if p.code == "pay":
            key = (p.params["payer"], p.params["payee"], p.params.get("reason"))
            merged[key] = merged.get(key, 0) + int(p.params["amount"])
    return [Line(code="pay", params={"payer": a, "payee": b, "amount": n, "reason": r})
            for (a, b, r), n in merged.items()]


def moves_text(lang: str, night: NightInfo, deltas: Mapping[Seat, int]) -> str:
    moved = sorted(((s, v) for s, v in deltas.items() if v), key=lambda sv: -sv[1])
    if not moved:
        return t(lang, "No points moved.")
    return "  ".join(f"{player(night, s)} <b>{points(night, v)}</b>" for s, v in moved)


def state_text(lang: str, night: NightInfo, hand: HandResult | None, closed: bool
               ) -> str:
    if not closed and hand is not None:
        still = "、".join(player(night, s) for s in hand.still_in) if is_chinese(lang) \
            else ", ".join(player(night, s) for s in hand.still_in)
        return t(lang, "The hand plays on; still in: {players}.", players=still)
    over = render_mcr.over_text(lang, night)  # an MCR match's 16 hands are played
    if over is not None:
        return over
    return t(lang, "Next dealer: {player}.", player=player(night, render_mcr.dealer(night)))


def full_text(lang: str, night: NightInfo, number: int, event: EventResult) -> str:
    """Every line of the event's account, then its payments, one line each."""
    parts = [t(lang, "Hand {number}, the details:", number=number)]
    parts += ["• " + line_text(lang, night, line) for line in event.lines
              if line.code != "pay"]
    pays = _merged_pays(event.lines)
    if pays:
        parts.append(t(lang, "Payments:"))
        parts += ["  " + line_text(lang, night, p) for p in pays]
    parts.append(words.then(lang, t(lang, "This event:")) + moves_text(lang, night,
                                                                        event.deltas))
    return "\n".join(parts)


def _how_short(lang: str, night: NightInfo, event: EventResult, line: Line) -> str:
    seat, how = str(line.params["seat"]), str(line.params.get("how"))
    payer = ""
    if how in PAID_BY_ONE:  # the discarder pays the most (半銃: the others pay too)
        pays = [p for p in event.lines if p.code == "pay" and p.params["payee"] == seat]
        payer = str(max(pays, key=lambda p: int(p.params["amount"])).params["payer"]) \
            if pays else ""
        payer = next((str(p.params["payer"]) for p in event.lines  # MCR: all pay 8
                      if p.code == "mcr_owes" and p.params["fan"]), payer)
    if how == "discard" and _family(night) == "hongkong":  # 出銃, 食糊 as Hong Kong says
        return pt(lang, "hongkong", "{seat} wins off {payer}'s discard",
                  seat=player(night, seat), payer=player(night, payer))
    if how == "discard" and any(x.code == "special_win" and x.params.get("name") == "七抢一"
                                for x in event.lines):  # no discard: the tile X drew
        return t(lang, "{seat} takes {payer}'s eighth bonus tile", seat=player(night, seat),
                 payer=player(night, payer))
    template = words.HOW_SHORT.get(how, "{seat} self-draws")
    return t(lang, template, seat=player(night, seat), payer=player(night, payer))


def _family(night: NightInfo) -> str:
    known = presets().get(night.preset)
    return known.family if known is not None else ""


_TAIL = ("value", "doubled_value", "given", "jing", "bird",  # after the patterns
         "hujiao_zhuanyi", "qianggang", "mcr_total", "mcr_under_gate", *NOT_COUNTED,
         "fan_total", "bao_zimo", *HONGKONG_NOT_COUNTED)
_SAID_BY_HOW = {"杠上花", "杠上炮", "抢杠", "杠上开花", "抢杠胡"}


def headline(lang: str, night: NightInfo, event: EventResult) -> str:
    """Who won what and its value, or what happened, in one line."""
    sep = "，" if is_chinese(lang) else ", "
    segments: list[tuple[list[str], list[str]]] = [([], [])]
    capped = False
    for line in event.lines:
        if line.code == "pay":
            continue
        if line.code == "win":
            if segments[-1][0]:
                segments.append(([], []))
            # a claim the 8-fan gate turns into a false win (错和) is no win
            refused = any(x.code == "mcr_under_gate" for x in event.lines)
            segments[-1][0].append(t(lang, "{seat} claims a win", seat=player(
                night, str(line.params["seat"]))) if refused
                else _how_short(lang, night, event, line))
            continue
        if line.code == "cap":
            if segments[-1][1] and line.params.get("fan") is not None \
                    and _family(night) == "hongkong":  # the 番 said, then the cap: 爆棚
                segments[-1][1][-1] += t(lang, " (capped: paid as {cap})",
                                         cap=line.params.get("cap"))
                continue
            capped = True
            continue
        if line.code in LEFT_OUT:
            continue  # said under the headline (compact_text)
        if line.code == "fan_total" and any(x.code == "given" for x in event.lines):
            continue  # "5 番 as reported" says it
        if line.code == "base" and line.params.get("name") == "平胡" and any(
                other.code == "pattern" for other in event.lines):
            continue  # additive fan: 平胡's 1 is the start, the patterns tell the hand
        if line.code in ("extra", "big_win") and line.params.get("name") in _SAID_BY_HOW \
                and (line.code == "big_win" or not line.params.get("fan")):
            continue  # "dave wins on a kong replacement" says it; a part worth fan is listed
        template = SHORT.get(template_code(line))
        if template is None or (line.code == "instant"
                                and str(line.params.get("what")).startswith("kong_")):
            continue  # a kong's payout: the kong line says it
        if line.code == "instant" and any(x.code == "bite_hidden" for x in event.lines):
            # dave: a hidden bite (cat and rat), not "hidden, dave: a bite …"
            line = Line(code=line.code, params={**line.params,
                                                "what": f"{line.params.get('what')}_hidden"})
        params = _params(lang, night, line)
        if line.code == "kong" and not is_chinese(lang):  # with its article: an added kong
            kind = str(line.params.get("kind"))
            params["kind"] = t(lang, words.KONG_DECLARED.get(kind, kind))
        text = _say(lang, template, line, params)
        if line.code in _TAIL and capped:
            text += t(lang, " (capped)")
            capped = False
        segments[-1][1 if line.code in _TAIL else 0].append(text)
    pieces = []
    for names, tail in segments:
        if not names and not tail:
            continue
        won = any(line.code == "win" for line in event.lines)
        apart = "、" if is_chinese(lang) else ", "  # the patterns one winner holds
        body = (names[0] + (sep + apart.join(names[1:]) if names[1:] else "")) if won \
            else sep.join(names)
        pieces.append(sep.join([body, *tail]) if body else sep.join(tail))
    return ("；" if is_chinese(lang) else "; ").join(pieces)


def compact_text(lang: str, night: NightInfo, number: int, event: EventResult,
                 hand: HandResult | None, closed: bool) -> str:
    """Two lines: the hand and what happened; who moved how much and what comes next."""
    head = words.then(lang, t(lang, "Hand {number} recorded:", number=number)) + headline(
        lang, night, event)
    moves = moves_text(lang, night, event.deltas)
    if not any(event.deltas.values()) and any(line.code == "kong" for line in event.lines):
        moves = t(lang, "Kong points are paid when the hand ends.")  # Jiangxi
    if is_chinese(lang):
        moves = moves.removesuffix("。")  # the middle dot ends it: no 。 before it
    tail = moves + " · " + state_text(lang, night, hand, closed)
    notes = [_say(lang, str(SHORT[line.code]), line, _params(lang, night, line))
             for line in event.lines if line.code in LEFT_OUT]
    return "\n".join([head, *notes, tail])
