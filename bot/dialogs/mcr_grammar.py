"""What players type after /hu at a Chinese Official (MCR) table: the fan count the table
counted (``/hu bob from carol 12番``, ``/hu bob 自摸 8番 花2``), or the tiles for the bot to
count: ``/hu bob from carol 碰东东东@dave 吃234m 456p 55m 12s +3s 花2 绝张``.

A meld is its tiles after 吃 (chow), 碰 (pung), 杠 (kong claimed), 暗杠 (concealed kong) or
加杠 (a kong added to one's pung), with ``@player`` for whom it was claimed from (a chow's
is the winner's 上家, the player before them). ``+tile`` is the winning tile (without one,
the last tile typed); flags 绝张 (和绝张), 杠开 (杠上开花), 抢杠 X (抢杠和), 海底/妙手 (the
wall's last tile); 圈东 and 门南 name the prevalent and the seat wind. ``12番`` is the total
with the flowers, ``花2`` how many of it are flowers (the 8-fan gate counts without them).
"""

from __future__ import annotations

import re
from typing import Any

from bot.dialogs.grammar import (
    DISCARD,
    KONG_DRAW,
    ROB,
    SELF_DRAW,
    GrammarError,
    Resolver,
    Token,
    bounded,
    is_tiles,
    read_words,
    split_segments,
)
from engine.models import MAX_MCR_FAN
from engine.tiles import TileError, parse_tokens

MELD_WORDS = {"吃": "chow", "chow": "chow", "碰": "pung", "pung": "pung", "pong": "pung",
              "杠": "kong", "明杠": "kong", "kong": "kong", "暗杠": "concealed",
              "ckong": "concealed", "加杠": "added", "补杠": "added", "akong": "added"}
_MELD = re.compile(r"^(吃|碰|明杠|暗杠|加杠|补杠|杠|chow|pung|pong|kong|ckong|akong)[:：]?"
                   r"([^@]+)(?:@(.+))?$", re.I)
_FAN = re.compile(r"^(?:番|fan)([0-9]+)$|^([0-9]+)(?:番|fan)$", re.I)
_FLOWERS = re.compile(r"^(?:花|flowers?)([0-9]+)$|^([0-9]+)(?:花|flowers?)$", re.I)
LAST_TILE = {"绝张", "和绝张", "last-tile", "lasttile"}
LAST_OF_WALL = {"海底", "海底捞月", "妙手", "妙手回春", "last-of-wall", "lastofwall"}
KONG_DRAW_WORDS = KONG_DRAW | {"杠开"}
ROB_WORDS = ROB | {"抢杠和"}
_WIND = re.compile(r"^(圈|门)(东|南|西|北)风?$")
_WINDS = {"东": "E", "南": "S", "西": "W", "北": "N"}
MAX_FLOWERS = 8


def _digits(m: re.Match[str]) -> str:
    return next(g for g in m.groups() if g)


def _one_tile(text: str) -> bool:
    try:
        return len(parse_tokens(text)) == 1
    except TileError:
        return False


def _seat_of(text: str, resolve: Resolver) -> str | None:
    return resolve(Token(text)) or resolve(Token("@" + text.lstrip("@")))


def parse_mcr_win(tokens: list[Token], resolve: Resolver) -> dict[str, Any]:
    """``/hu`` arguments at an MCR table -> a win event with the winner's ``mcr`` hand."""
    segments = split_segments(read_words(tokens, resolve))  # 點炮 is 点炮, 槓 is 杠
    if not segments:
        raise GrammarError("hu_empty")
    if len(segments) > 1:
        raise GrammarError("mcr_one_winner")
    seg = segments[0]
    winner = resolve(seg[0])
    if winner is None:
        raise GrammarError("hu_no_winner", token=seg[0].text)
    how: str | None = None
    from_seat: str | None = None
    mcr: dict[str, Any] = {}
    standing: list[str] = []
    melds: list[dict[str, Any]] = []
    patterns: list[str] = []
    i = 1
    while i < len(seg):
        tok = seg[i]
        low = tok.text.lower()
        nxt = seg[i + 1] if i + 1 < len(seg) else None
        if low in SELF_DRAW:
            how = "self_draw" if how != "kong_replacement" else how
        elif low in DISCARD:
            if nxt is None or resolve(nxt) is None:
                raise GrammarError("needs_player", word=tok.text, kind="discard")
            from_seat = resolve(nxt)
            how = how if how == "rob_kong" else "discard"
            i += 1
        elif low in ROB_WORDS:
            how = "rob_kong"
            if nxt is not None and resolve(nxt) is not None:
                from_seat = resolve(nxt)
                i += 1
        elif low in KONG_DRAW_WORDS:
            how = "kong_replacement"
        elif low in LAST_TILE:
            mcr["last_tile"] = True
        elif low in LAST_OF_WALL:
            mcr["last_of_wall"] = True
        elif (m := _WIND.match(tok.text)) is not None:
            mcr["prevalent" if m.group(1) == "圈" else "seat_wind"] = _WINDS[m.group(2)]
        elif (m := _FAN.match(tok.text)) is not None:
            mcr["fan"] = bounded(tok.text, _digits(m), MAX_MCR_FAN, 1)
        elif low in ("番", "fan") and nxt is not None and nxt.text.isdigit():
            mcr["fan"] = bounded(f"{tok.text} {nxt.text}", nxt.text, MAX_MCR_FAN, 1)
            i += 1
        elif tok.text.isdigit() and nxt is not None and nxt.text.lower() in ("番", "fan"):
            mcr["fan"] = bounded(f"{tok.text} {nxt.text}", tok.text, MAX_MCR_FAN, 1)
            i += 1  # 8 fan, 8 番
        elif tok.text.isdigit() and nxt is not None \
                and nxt.text.lower() in ("花", "flower", "flowers"):
            mcr["flowers"] = bounded(f"{tok.text} {nxt.text}", tok.text, MAX_FLOWERS)
            i += 1  # 2 flowers
        elif (m := _FLOWERS.match(tok.text)) is not None:
            mcr["flowers"] = bounded(tok.text, _digits(m), MAX_FLOWERS)
        elif low in ("花", "flowers") and nxt is not None and nxt.text.isdigit():
            mcr["flowers"] = bounded(f"{tok.text} {nxt.text}", nxt.text, MAX_FLOWERS)
            i += 1
        elif (m := _MELD.match(tok.text)) is not None:
            melds.append(_meld(tok.text, m, winner, resolve))
        elif low in MELD_WORDS:
            raise GrammarError("mcr_meld_usage", token=tok.text)
        elif tok.text.startswith("+") and _one_tile(tok.text[1:]):
            if "winning_tile" in mcr:
                raise GrammarError("mcr_one_winning_tile")
            mcr["winning_tile"] = tok.text[1:]
        elif is_tiles(tok.text):
            standing.append(tok.text)
        elif resolve(tok) is not None and tok.user_id is not None:
            raise GrammarError("unexpected_player", token=tok.text)
        else:
            patterns.append(tok.text)  # the engine knows the fans' names
        i += 1
    if standing or melds or "winning_tile" in mcr:
        tiles = "".join(standing)
        if "winning_tile" not in mcr:
            if not tiles:
                raise GrammarError("mcr_needs_winning_tile")
            mcr["winning_tile"], tiles = _last_tile(tiles)
        mcr["standing"] = tiles
        mcr["melds"] = melds
    elif "fan" not in mcr:
        raise GrammarError("mcr_needs_fan")
    if how is None:
        raise GrammarError("hu_no_how")
    hand: dict[str, Any] = {"seat": winner, "mcr": mcr}
    if patterns:
        hand["patterns"] = patterns
    event: dict[str, Any] = {"type": "win", "how": how, "winners": [hand]}
    if from_seat is not None:
        event["from_seat"] = from_seat
    return event


def _meld(text: str, m: re.Match[str], winner: str, resolve: Resolver) -> dict[str, Any]:
    kind = MELD_WORDS[m.group(1).lower()]
    tiles = m.group(2)
    if not is_tiles(tiles):
        raise GrammarError("mcr_meld_usage", token=text)
    source = _seat_of(m.group(3), resolve) if m.group(3) else None
    if m.group(3) and source is None:
        raise GrammarError("hu_not_seated", token=m.group(3))
    meld: dict[str, Any] = {"tiles": tiles}
    if kind == "chow":
        pass  # always the 上家's, whoever sits there this round: the engine knows it
    elif kind == "concealed":
        if source is not None:
            raise GrammarError("mcr_concealed_from", token=text)
    elif source is None:  # a pung or kong claimed: whose it was is asked, never guessed
        raise GrammarError("mcr_meld_from", token=text, example=f"{text}@carol")
    else:
        meld["from_seat"] = source
        meld["added"] = kind == "added"
    return meld


def _last_tile(tiles: str) -> tuple[str, str]:
    """The last tile typed, and the tiles before it: ``55m3s`` -> (``3s``, ``55m``)."""
    if tiles[-1] in "mpsz":
        m = re.match(r"^(.*?)([0-9]*)([0-9])([mpsz])$", tiles)
        assert m is not None
        rest = m.group(1) + (m.group(2) + m.group(4) if m.group(2) else "")
        return m.group(3) + m.group(4), rest
    return tiles[-1], tiles[:-1]  # an honor: 东
