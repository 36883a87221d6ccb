"""An MCR report's tiles, checked and counted: what the rules allow (a pung or chow is
never concealed, flags that agree with the tiles, at most four of a tile), then the best
reading's fans with their values and names, and the 8-fan gate.

``score`` is the one entry point; it raises :class:`~engine.errors.ReportError` for
anything it refuses.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import ReportError
from engine.mcr.count import NotAWin, Rules, Tiles, count, total
from engine.mcr.divide import CHOW, KONG, PUNG, make_pack, shape_of
from engine.mcr.fans import FANS, Fan, value
from engine.models import SEATS, McrHand, McrMeld, Seat
from engine.tiles import TileError, parse

GATE = 8  # 8番起和: the least fan, flowers not counted, that wins


def code(kind: int) -> int:
    """An engine tile kind (engine.tiles) as an MCR code (engine.mcr.divide)."""
    if kind < 9:
        return 0x11 + kind
    if kind < 18:
        return 0x31 + kind - 9
    if kind < 27:
        return 0x21 + kind - 18
    if kind < 31:
        return 0x41 + kind - 27
    return {31: 0x47, 32: 0x46, 33: 0x45}[kind]  # 白 发 中


@dataclass(frozen=True)
class CountedFan:
    fan: Fan
    times: int
    value: int  # of one

    @property
    def zh(self) -> str:
        return FANS[self.fan].zh

    @property
    def en(self) -> str:
        return FANS[self.fan].en


@dataclass(frozen=True)
class Scored:
    """One MCR hand's value: the fans counted (flowers last), the total with and without
    flowers, and whether it passes the gate."""

    fans: tuple[CountedFan, ...]
    total: int  # flowers included
    flowers: int
    from_tiles: bool

    @property
    def without_flowers(self) -> int:
        return self.total - self.flowers

    @property
    def passes_gate(self) -> bool:
        return self.without_flowers >= GATE


def _tiles(text: str, what: str) -> list[int]:
    try:
        return parse(text)
    except TileError as exc:
        raise ReportError("bad_tiles", f"{what}: {exc}", where=what, token=exc.token) from None


def _meld(m: McrMeld, winner: Seat, index: int) -> tuple[int, list[int]]:
    kinds = sorted(_tiles(m.tiles, f"meld {index + 1}"))
    where = f"meld {index + 1}"
    if m.from_seat == winner:
        raise ReportError("mcr_meld_from_self", f"{where}: a meld is not claimed from its own "
                          "player", meld=index + 1)
    if len(kinds) == 4 and len(set(kinds)) == 1:
        if m.added and m.from_seat is None:
            raise ReportError("mcr_added_kong_from", f"{where}: an added kong (加杠) says whom "
                              "its pung was claimed from", meld=index + 1)
        offer = 0 if m.from_seat is None else 1 + (SEATS.index(m.from_seat) -
                                                   SEATS.index(winner) - 1) % 4
        return make_pack(offer, KONG, code(kinds[0])), kinds
    if m.added:
        raise ReportError("mcr_added_not_kong", f"{where}: only a kong is added (加杠)",
                          meld=index + 1)
    if len(kinds) == 3 and len(set(kinds)) == 1:
        if m.from_seat is None:
            raise ReportError("mcr_pung_from", f"{where}: a declared pung says whom it was "
                              "claimed from (a concealed pung stays in the hand)",
                              meld=index + 1)
        offer = 1 + (SEATS.index(m.from_seat) - SEATS.index(winner) - 1) % 4
        return make_pack(offer, PUNG, code(kinds[0])), kinds
    if (len(kinds) == 3 and kinds[0] < 27 and kinds[0] // 9 == kinds[2] // 9
            and kinds[1] == kinds[0] + 1 and kinds[2] == kinds[0] + 2):
        left = SEATS[(SEATS.index(winner) - 1) % 4]
        if m.from_seat not in (None, left):
            raise ReportError("mcr_chow_from", f"{where}: a chow is claimed from the player "
                              f"before you ({left})", meld=index + 1, seat=left)
        return make_pack(1, CHOW, code(kinds[1])), kinds
    raise ReportError("mcr_bad_meld", f"{where}: {m.tiles!r} is no chow, pung or kong",
                      meld=index + 1)


def tiles_of(hand: McrHand, winner: Seat, dealer: Seat, self_drawn: bool, kong: bool
             ) -> Tiles:
    """The report's tiles as the counter takes them, after every check the rules make."""
    assert hand.standing is not None and hand.winning_tile is not None
    packs: list[int] = []
    held = [0] * 34
    for i, m in enumerate(hand.melds):
        pack, kinds = _meld(m, winner, i)
        packs.append(pack)
        for k in kinds:
            held[k] += 1
    standing = _tiles(hand.standing, "standing tiles")
    win = _tiles(hand.winning_tile, "winning tile")
    if len(win) != 1:
        raise ReportError("mcr_one_winning_tile", "name one winning tile")
    want = 13 - 3 * len(hand.melds)
    if len(standing) != want:
        raise ReportError("mcr_tile_count", f"{len(standing)} standing tiles where {want} are "
                          f"expected with {len(hand.melds)} meld(s)", count=len(standing),
                          expected=want, tile=hand.winning_tile)
    for k in [*standing, win[0]]:
        held[k] += 1
    over = next((k for k in range(34) if held[k] > 4), None)
    if over is not None:
        raise ReportError("fifth_copy", "more than four of one tile", tile=over)
    w = win[0]
    in_melds = held[w] - standing.count(w) - 1
    if kong and self_drawn and not any(shape_of(p) == KONG for p in packs):
        raise ReportError("mcr_replacement_without_kong", "杠上开花 needs a kong among the "
                          "winner's melds")
    if kong and not self_drawn:
        if w in standing or in_melds:
            raise ReportError("mcr_rob_held_tile", "抢杠和: the robbed tile is held nowhere "
                              "else in the winner's hand")
        if hand.last_of_wall:
            raise ReportError("mcr_rob_last_tile", "抢杠和 and 海底捞月 cannot both be")
    if hand.last_tile and w in standing:
        raise ReportError("mcr_last_tile_held", "和绝张: the winner holds no other copy of the "
                          "winning tile")
    seat_wind = hand.seat_wind or SEATS[(SEATS.index(winner) - SEATS.index(dealer)) % 4]
    return Tiles(tuple(packs), tuple(code(k) for k in standing), code(w), self_drawn,
                 last_tile=hand.last_tile, kong=kong, wall_last=hand.last_of_wall,
                 seat_wind=SEATS.index(seat_wind), prevalent_wind=SEATS.index(hand.prevalent))


def counted(fans: list[int], rules: Rules, flowers: int) -> tuple[CountedFan, ...]:
    """The fans counted, largest first (the rules' order among equals), flowers last."""
    out = sorted((CountedFan(Fan(i), n, value(Fan(i), rules.mixed_kong))
                  for i, n in enumerate(fans) if i and n > 0), key=lambda f: -f.value)
    if flowers:
        out.append(CountedFan(Fan.FLOWERS, flowers, 1))
    return tuple(out)


def score(hand: McrHand, winner: Seat, dealer: Seat, self_drawn: bool, kong: bool,
          rules: Rules) -> Scored:
    """The hand's fans and total: counted from the tiles when given (and checked against a
    total the report also gives), else the count the table made."""
    if hand.standing is None and hand.winning_tile is None and not hand.melds:
        if hand.fan is None:
            raise ReportError("mcr_needs_fan", "give the tiles or the fan count")
        if hand.flowers > hand.fan:
            raise ReportError("mcr_flowers_over_fan", "the fan count includes the flowers")
        return Scored((), hand.fan, hand.flowers, from_tiles=False)
    if hand.standing is None or hand.winning_tile is None:
        raise ReportError("mcr_needs_tiles", "give the standing tiles and the winning tile")
    tiles = tiles_of(hand, winner, dealer, self_drawn, kong)
    try:
        fans = count(tiles, rules)
    except NotAWin:
        raise ReportError("mcr_not_a_win", "these tiles make no winning hand") from None
    result = Scored(counted(fans, rules, hand.flowers), total(fans, rules) + hand.flowers,
                    hand.flowers, from_tiles=True)
    if hand.fan is not None and hand.fan != result.total:
        raise ReportError("mcr_fan_mismatch", f"the tiles count {result.total} fan, not "
                          f"{hand.fan}", counted=result.total, claimed=hand.fan)
    return result
