"""A Hong Kong win entered in the Mini App: the 番 count (with how many of it are flower 番),
the patterns by name, or the tiles with the bonus tiles and the prevailing wind; and who
pays for all (包自摸, the player who fed the fourth exposed meld). Written as the chat's
``/hu`` (``/hu bob 出銃 carol 3番``, ``/hu bob 自摸 … 花 1f3g 圈風 南 包 carol``) and read by its
grammar, with the share table the table plays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.text import words
from bot.text.i18n import is_chinese, money, t
from bot.webapp.form import FLOWERS, Form
from engine.models import SEATS
from engine.share_table import CURVE_NAMES, TIER_NAMES, share_rows
from storage.models import NightInfo

Who = Callable[[NightInfo, str], str]  # a seat as a report names it
Refuse = Callable[[str], Exception]  # the form's error, in the user's words
Compact = Callable[[list[str]], str]  # tiles as the report's words

WINDS = {"E": "东", "S": "南", "W": "西", "N": "北"}
ROUND_WORD = {"zh-Hans": "圈风", "zh-Hant": "圈風"}  # the prevailing wind, said before it


def hk_words(lang: str, night: NightInfo, form: Form, who: Who, refuse: Refuse) -> list[str]:
    """What a Hong Kong form says beside tiles and patterns: ``3番`` (``花1``), the bonus
    tiles (``花 1f3g``), the prevailing wind (``圈風 南``) and 包自摸 (``包 carol``)."""
    zh = is_chinese(lang)
    out: list[str] = []
    if form.fan is not None:
        out.append(f"{form.fan}番" if zh else f"fan {form.fan}")
        if form.flower_fan:
            out.append(f"{words.said(lang, '花')}{form.flower_fan}" if zh
                       else f"flower {form.flower_fan}")
    if form.flowers:
        order = sorted(set(form.flowers), key=FLOWERS.index)
        out += [words.said(lang, "花") if zh else "flowers", "".join(order)]
    if form.wind is not None:
        out += [ROUND_WORD.get(lang, "prevailing"),
                words.said(lang, WINDS[form.wind]) if zh else form.wind]
    if form.feeder is not None:
        if form.how != "self_draw" or form.feeder == form.winner \
                or form.feeder not in night.seats:
            raise refuse(t(lang, "包自摸 is a self-draw paid by another player who fed the "
                                 "fourth exposed meld."))
        out += ["包" if zh else "feeder", who(night, form.feeder)]
    return out


def share_view(lang: str, options: dict[str, Any]) -> dict[str, Any]:
    """The shares the table plays, by 番 from its minimum to its cap, in dollars and cents."""
    stake, curve = options["stake"], options["curve"]
    return {"title": t(lang, "One share (單份) by 番, {stake} {curve}:",
                       stake=TIER_NAMES[stake], curve=CURVE_NAMES[curve]),
            "rows": [{"fan": fan, "share": money(cents), "self_draw": money(2 * cents),
                      "discard": money(4 * cents)}
                     for fan, cents in share_rows(stake, curve, options["min_fan"],
                                                  options["cap_fan"])],
            "payment": options["payment"], "min": options["min_fan"],
            "cap": options["cap_fan"]}


def seat_winds(lang: str, night: NightInfo) -> dict[str, str]:
    """Each player's seat wind: the dealer sits East, the next seat in turn South."""
    return {x: t(lang, words.SEAT_KEYS[SEATS[(SEATS.index(x) - SEATS.index(night.dealer))
                                              % 4]])
            for x in SEATS if x in night.seats}
