"""The words after ``/bite`` (``/yao``: a Singapore bite or a complete set of bonus tiles,
paid at once) and ``/jifen`` (``/points``: a points-only hand as every player's change)."""

from __future__ import annotations

from typing import Any

from bot.dialogs.grammar import DISCARD, GrammarError, Resolver, Token
from bot.dialogs.night_grammar import parse_adjust
from engine.models import MAX_AMOUNT

# Which pair a bite is, by any of its words.
PAIRS = {
    **dict.fromkeys(("cat", "rat", "猫", "鼠", "老鼠", "猫鼠", "cat_rat"), "cat_rat"),
    **dict.fromkeys(("rooster", "centipede", "鸡", "公鸡", "蜈蚣", "鸡蜈蚣",
                     "rooster_centipede"), "rooster_centipede"),
    **dict.fromkeys(("seat", "flower", "season", "花季", "正花", "seat_flowers", "本花"),
                    "seat_flowers"),
}
# A complete set: the word that says so, then which.
SET_WORDS = {"set", "all", "全", "齐", "一套", "花杠"}
SETS = {
    **dict.fromkeys(("flowers", "flower", "花", "梅兰菊竹"), "flowers"),
    **dict.fromkeys(("seasons", "season", "季", "春夏秋冬"), "seasons"),
    **dict.fromkeys(("animals", "animal", "动物", "四动物"), "animals"),
}
HIDDEN = {"hidden", "暗", "暗咬", "concealed"}


def parse_bite(tokens: list[Token], resolve: Resolver) -> dict[str, Any]:
    """``bob cat rat [hidden] [from carol]`` -> a bite; ``bob set flowers`` -> a set."""
    if not tokens or resolve(tokens[0]) is None:
        raise GrammarError("bite_usage")
    seat = resolve(tokens[0])
    pair: str | None = None
    kind: str | None = None
    complete = hidden = False
    from_seat: str | None = None
    rest = tokens[1:]
    i = 0
    while i < len(rest):
        low = rest[i].text.lower()
        nxt = rest[i + 1] if i + 1 < len(rest) else None
        if low in SET_WORDS:
            complete = True
        elif complete and low in SETS:
            kind = SETS[low]
        elif low in PAIRS and pair in (None, PAIRS[low]):
            pair = PAIRS[low]
        elif low in ("flowers", "花") and pair in (None, "seat_flowers"):  # said as flowers
            pair = "seat_flowers"
        elif low in HIDDEN:
            hidden = True
        elif low in DISCARD and nxt is not None and resolve(nxt) is not None:
            from_seat = resolve(nxt)
            i += 1
        else:
            raise GrammarError("bite_usage")
        i += 1
    if complete:
        if kind is None or hidden or from_seat is not None:
            raise GrammarError("bite_usage")
        return {"type": "bonus_set", "seat": seat, "kind": kind}
    if pair is None:
        raise GrammarError("bite_usage")
    event: dict[str, Any] = {"type": "bite", "seat": seat, "pair": pair, "hidden": hidden}
    if from_seat is not None:
        event["from_seat"] = from_seat
    return event


def parse_amounts(tokens: list[Token], resolve: Resolver) -> dict[str, Any]:
    """``alice +35 bob -20 carol -15`` -> the hand as every player's change (zero-sum,
    each within ±3 × the most one win pays: a self-draw's winner at four)."""
    try:
        adjust = parse_adjust(tokens, resolve, 3 * MAX_AMOUNT)
    except GrammarError as exc:  # said as a hand's changes, not an adjustment's
        code = exc.code.replace("adjust_", "amounts_", 1)
        raise GrammarError(code, **exc.params) from None
    if adjust["reason"] is not None:  # words after the amounts: not a player's change
        raise GrammarError("amounts_usage")
    return {"type": "amounts", "deltas": adjust["deltas"]}
