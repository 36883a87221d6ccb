"""The Hong Kong family beyond its golden cases: the three ways to say a win, names in
every language, the tiles with bonus tiles and winds, 截糊, the options, and properties
of every payment (zero-sum; under 半銃 a discard is worth two thirds of a self-draw)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ReportError
from engine.hk_flowers import parse_bonus
from engine.models import SEATS, HandResult, Seat
from engine.options import HongKongOptions
from engine.patterns import HONGKONG
from engine.penalties import false_win_amount
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand
from engine.share_table import share
from tests.engine.test_golden_hongkong import dollars, settle, win


def fan_of(result: HandResult) -> int:
    [total] = [x for x in result.lines if x.code == "fan_total"]
    return int(total.params["fan"])


def named(result: HandResult) -> dict[str, int]:
    return {str(x.params["name"]): int(x.params["fan"]) for x in result.lines
            if x.code == "pattern"}


@pytest.mark.parametrize("names", [
    ("對對糊", "对对胡", "碰碰糊", "deoi deoi wu", "all pongs", "Deoi-Deoi Wu"),
    ("混一色", "wan jat sik", "half flush"),
    ("清一色", "cing jat sik", "full flush"),
    ("大三元", "daai saam jyun", "great dragons"),
    ("十三么", "十三幺", "sap saam jiu", "thirteen orphans"),
    ("槓上開花", "杠上开花", "gong soeng hoi faa"),
    ("搶槓", "抢杠", "coeng gong", "robbing a kong"),
    ("無花", "无花", "mou faa", "no flowers"),
    ("雞糊", "鸡胡", "gai wu", "chicken hand"),
])
def test_every_name_resolves_to_one_pattern(names: tuple[str, ...]) -> None:
    assert {HONGKONG.resolve(n).name for n in names} == {names[0]}


def test_the_same_win_in_zh_hans_cantonese_and_english() -> None:
    said = [["混一色", "對對糊"], ["混一色", "对对胡"], ["wan jat sik", "deoi deoi wu"],
            ["half flush", "all pongs"]]
    results = [settle([], win("discard", "W", "N", patterns=p)).deltas for p in said]
    assert all(r == dollars(-8, -8, 32, -16) for r in results)  # 6番: s = $8


def test_a_pattern_that_includes_another_counts_alone_and_says_so() -> None:
    result = settle([], win("discard", "W", "N", patterns=["大三元", "三元", "清一色",
                                                           "混一色"]))
    assert named(result) == {"大三元": 8, "清一色": 7}
    left = {(x.params["name"], x.params["by"]) for x in result.lines
            if x.code == "not_counted_included"}
    assert left == {("三元", "大三元"), ("混一色", "清一色")}
    # 槓上開花 includes the self-draw: 2, not 3.
    assert named(settle([], win("kong_replacement", "S", patterns=["對對糊"]))) == \
        {"對對糊": 3, "槓上開花": 2}


def test_dragon_pongs_and_seat_flowers_count_each() -> None:
    result = settle([], win("discard", "W", "N", patterns=["紅中", "發財", "白板"]))
    assert fan_of(result) == 3  # three dragon pongs named apart, below 大三元's own name
    result = settle([], win("discard", "W", "N", patterns=["對對糊", "正花", "正花", "正花"]))
    assert fan_of(result) == 5  # 正花 at most twice


def test_a_limit_hand_counts_alone_at_the_cap() -> None:
    result = settle(["cap_fan=8"], win("discard", "W", "N", patterns=["十三么", "門前清"]))
    assert result.deltas == dollars(-16, -16, 64, -32)
    assert [x.params["name"] for x in result.lines if x.code == "not_counted_included"] == \
        ["門前清"]


def test_flower_hand_counts_three_and_is_paid_by_whose_tile_was_taken() -> None:
    result = settle([], win("discard", "S", "W", patterns=["花糊", "對對糊"]))
    assert fan_of(result) == 3 and result.deltas == dollars(s=12, w=-12)
    with pytest.raises(ReportError, match="花糊"):
        settle([], win("self_draw", "S", patterns=["花糊"]))


def test_one_winner_per_hand() -> None:
    report = {"type": "win", "how": "discard", "from_seat": "E",
              "winners": [{"seat": "N", "fan": 3}, {"seat": "W", "fan": 5}]}
    with pytest.raises(ReportError) as exc:
        settle([], report)
    assert exc.value.code == "one_winner" and exc.value.params["first"] == "W"
    assert "截糊" in str(exc.value)


def test_how_and_names_must_agree() -> None:
    for bad in (win("discard", "S", "E", patterns=["自摸", "對對糊"]),
                win("self_draw", "S", patterns=["搶槓", "對對糊"]),
                win("self_draw", "S", patterns=["天糊"]),
                win("self_draw", "E", patterns=["地糊"])):
        with pytest.raises(ReportError):
            settle([], bad)
    assert settle([], win("self_draw", "E", patterns=["天糊"])).deltas == \
        dollars(192, -64, -64, -64)


def test_count_in_with_patterns_says_they_are_not_counted() -> None:
    result = settle([], win("discard", "W", "N", fan=5, patterns=["清一色"]))
    assert fan_of(result) == 5
    assert [x.code for x in result.lines if x.params.get("name") == "清一色"] == \
        ["not_counted_fan_given"]


def test_bonus_tiles_as_players_type_them() -> None:
    assert parse_bonus("1f 3g") == parse_bonus("梅 秋") == (("f", 1), ("g", 3))
    assert parse_bonus("1234f") == parse_bonus("梅蘭菊竹") == parse_bonus("梅兰菊竹")
    assert parse_bonus("無") == parse_bonus("none") == ()
    for bad in ("5f", "1f 1f", "rose"):
        with pytest.raises(ReportError):
            parse_bonus(bad)


def test_tiles_seat_wind_prevailing_wind_and_flowers() -> None:
    # S (dealer E) holds pongs of 東 (the prevailing wind), 南 (S's seat wind) and 中,
    # 2f (South's flower) and the four seasons.
    hand = {"seat": "S", "tiles": "111z 222z 777z 234m 55m", "flowers": "2f 1234g"}
    ev: dict[str, Any] = {"type": "win", "how": "discard", "from_seat": "W",
                          "winners": [hand]}
    assert named(settle([], ev)) == {"混一色": 3, "三元": 1, "門風": 1, "圈風": 1,
                                     "門前清": 1, "一台花": 2, "正花": 1}
    # The South round: 南 is the seat and the prevailing wind; 東 is nothing.
    assert named(settle([], {**ev, "wind": "S"})) == {
        "混一色": 3, "三元": 1, "門風": 1, "圈風": 1, "門前清": 1, "一台花": 2, "正花": 1}
    # W deals: S sits North (number 4): 2f is no seat flower, 南 no seat wind.
    assert named(settle([], ev, dealer="W")) == {"混一色": 3, "三元": 1, "圈風": 1,
                                                 "門前清": 1, "一台花": 2}


def _limit(result: HandResult) -> str:
    [line] = [x for x in result.lines if x.code == "limit_hand"]
    return str(line.params["name"])


def test_tiles_find_the_best_reading_and_the_special_hands() -> None:
    def tiles(t: str, how: str = "self_draw", **more: Any) -> HandResult:
        return settle([], win(how, "S", "W" if how == "discard" else None, tiles=t, **more))

    assert _limit(tiles("19m 19p 19s 1234567z 1m", "discard")) == "十三么"
    assert _limit(tiles("11122233344455m")) == "坎坎糊"  # beats 123m×3 444m 55m
    assert _limit(tiles("11123456789999m")) == "九子連環"
    assert _limit(tiles("111m 999m 111p 999s 99p", "discard")) == "清么九"
    assert _limit(tiles("111z 222z 333z 44z 555m")) == "小四喜"
    assert named(tiles("111m 999p 111s 999s 11z", "discard")) == {
        "對對糊": 3, "花么": 1, "門前清": 1}
    assert named(tiles("123m 456m 789m 234m 99m", "discard")) == {
        "清一色": 7, "平糊": 1, "門前清": 1}
    assert named(tiles("123m 456m 99m", melds=["789m", "555z"])) == {
        "混一色": 3, "三元": 1, "自摸": 1}
    with pytest.raises(ReportError) as exc:
        tiles("123m 456m 789m 234m 99m", "discard", patterns=["對對糊"])
    assert exc.value.code == "tiles_contradict"
    with pytest.raises(ReportError) as exc:
        tiles("11m 33m 55p 77p 99s 11z 22z", "discard")  # seven pairs are no win here
    assert exc.value.code == "tiles_not_a_win"


def test_dealer_double_doubles_every_share_with_the_dealer() -> None:
    # S self-draws 3番 (s = $2): E, the dealer, pays 2 × 2 s.
    assert settle(["dealer_double=true"], win("self_draw", "S", fan=3)).deltas == \
        dollars(-8, 16, -4, -4)
    # 全銃 by N for W: N pays E's part as E would have, doubled.
    assert settle(["dealer_double=true", "payment=full"],
                  win("discard", "W", "N", fan=3)).deltas == dollars(w=10, n=-10)
    # The dealer wins: every share doubles.
    assert settle(["dealer_double=true"], win("discard", "E", "N", fan=3)).deltas == \
        dollars(16, -4, -4, -8)


def test_twelve_bao_only_on_a_self_draw_and_only_when_on() -> None:
    assert settle(["twelve_bao=false"], win("self_draw", "N", fan=4, fourth_feeder="W")
                  ).deltas == dollars(-8, -8, -8, 24)
    off_discard = settle([], win("discard", "N", "E", fan=4, fourth_feeder="W"))
    assert off_discard.deltas == dollars(-8, -4, -4, 16)
    assert any(x.code == "bao_only_self_draw" for x in off_discard.lines)


def test_options_are_checked() -> None:
    for bad in (["cap_fan=9"], ["min_fan=6"], ["stake=yiwu"], ["payment=quarter"],
                ["players=3"], ["base=2"]):
        with pytest.raises(ReportError):
            ruleset("hongkong", bad)
    opts = ruleset("hongkong").options
    assert isinstance(opts, HongKongOptions) and opts.cap_fan == 10


def test_a_false_win_pays_each_a_limit_self_draw() -> None:
    assert false_win_amount(ruleset("hongkong"), "S", "E", "E") == (6400, "limit_self_draw")
    result = settle([], {"type": "penalty", "seat": "S"})
    assert result.deltas == dollars(64, -192, 64, 64)


def test_kongs_pay_nothing_when_made() -> None:
    with pytest.raises(ReportError) as exc:
        settle([], {"type": "kong", "seat": "S", "kind": "added"})
    assert exc.value.code == "kongs_not_paid"


def _check_lines(result: HandResult) -> None:
    """The lines add up: each part is shares × share × (2 for the dealer), each payment
    the sum of its payer's parts."""
    shares = [x for x in result.lines if x.code == "share"]
    parts: dict[str, int] = {}
    for x in result.lines:
        if x.code == "share_part":
            amount = int(x.params["shares"]) * int(shares[0].params["share"]) * int(
                x.params["times"])
            assert x.params["amount"] == amount
            parts[str(x.params["payer"])] = parts.get(str(x.params["payer"]), 0) + amount
    pays = {str(x.params["payer"]): int(x.params["amount"]) for x in result.lines
            if x.code == "pay"}
    assert pays == parts


_HOWS = st.sampled_from(["self_draw", "discard", "rob_kong", "kong_replacement"])


@given(fan=st.integers(0, 13), seat=st.sampled_from(SEATS), dealer=st.sampled_from(SEATS),
       how=_HOWS, payer=st.sampled_from(SEATS), feeder=st.sampled_from([None, *SEATS]),
       options=st.fixed_dictionaries({
           "stake": st.sampled_from(["erwuji", "wuyi", "yierwen"]),
           "curve": st.sampled_from(["half_spicy", "full_spicy"]),
           "payment": st.sampled_from(["half", "full"]),
           "cap_fan": st.sampled_from([8, 10, 13]), "min_fan": st.integers(0, 5),
           "twelve_bao": st.booleans(), "rob_kong_bao": st.booleans(),
           "dealer_double": st.booleans()}))
def test_every_payment_is_zero_sum_and_its_lines_add_up(
        fan: int, seat: Seat, dealer: Seat, how: str, payer: Seat, feeder: Seat | None,
        options: dict[str, Any]) -> None:
    rules = ruleset("hongkong", options)
    hand: dict[str, Any] = {"seat": seat, "fan": fan} if fan else {"seat": seat}
    if feeder is not None and feeder != seat:
        hand["fourth_feeder"] = feeder
    ev: dict[str, Any] = {"type": "win", "how": how, "winners": [hand]}
    if how in ("discard", "rob_kong"):
        if payer == seat:
            return
        ev["from_seat"] = payer
    try:
        result = settle_hand(rules, parse_report({"events": [ev]}), dealer)
    except ReportError as exc:
        assert exc.code == "below_minimum"
        return
    assert sum(result.deltas.values()) == 0
    assert result.deltas[seat] > 0 and all(v <= 0 for s, v in result.deltas.items()
                                           if s != seat)
    _check_lines(result)
    counted = fan or {"self_draw": 1, "kong_replacement": 2, "rob_kong": 1}.get(how, 0)
    one = share(min(counted, options["cap_fan"]), options["stake"], options["curve"])
    whole = how in ("self_draw", "kong_replacement") or (
        how == "rob_kong" and options["rob_kong_bao"])
    if not options["dealer_double"]:
        assert result.deltas[seat] == (6 if whole else 4) * one


@given(fan=st.integers(3, 13), winner=st.sampled_from(SEATS), offset=st.integers(1, 3),
       stake=st.sampled_from(["erwuji", "wuyi", "yierwen"]),
       curve=st.sampled_from(["half_spicy", "full_spicy"]), cap=st.sampled_from([8, 10, 13]))
def test_under_half_shot_a_discard_is_two_thirds_of_a_self_draw(
        fan: int, winner: Seat, offset: int, stake: str, curve: str, cap: int) -> None:
    over = {"stake": stake, "curve": curve, "cap_fan": cap, "payment": "half"}
    discarder = SEATS[(SEATS.index(winner) + offset) % 4]
    rules = ruleset("hongkong", over)
    drawn = settle_hand(rules, parse_report({"events": [
        win("self_draw", winner, fan=fan)]}))
    off = settle_hand(rules, parse_report({"events": [win("discard", winner, discarder,
                                                          fan=fan)]}))
    assert 3 * off.deltas[winner] == 2 * drawn.deltas[winner]
    assert off.deltas[discarder] == 2 * min(
        off.deltas[s] for s in SEATS if s not in (winner, discarder))
    # 全銃 leaves the winner's take as it is.
    full = settle_hand(ruleset("hongkong", {**over, "payment": "full"}), parse_report(
        {"events": [win("discard", winner, discarder, fan=fan)]}))
    take = off.deltas[winner]
    assert full.deltas == {s: take if s == winner else -take if s == discarder else 0
                           for s in SEATS}


def test_hong_kong_points_are_cents() -> None:
    assert ruleset("hongkong").points_in_cents
    assert not ruleset("chengdu").points_in_cents


def test_traditional_simplified_and_mixed_names_find_one_pattern() -> None:
    for name in ("槓上開花", "杠上开花", "杠上開花", "槓上开花"):
        assert HONGKONG.resolve(name).name == "槓上開花"
    assert HONGKONG.resolve("對对胡").name == HONGKONG.resolve("对對糊").name == "對對糊"
    assert HONGKONG.resolve("清幺九").name == HONGKONG.resolve("清么九").name


def test_a_named_pattern_picks_the_reading_that_shows_it() -> None:
    # 111222333m read as pongs is 坎坎糊 (self-drawn, concealed); as chows it is not.
    ev = win("self_draw", "S", tiles="111222333m 789p 55s", patterns=["坎坎糊"])
    with pytest.raises(ReportError) as exc:
        settle([], ev)  # 789p is a chow: no reading has four pongs
    assert exc.value.code == "tiles_contradict" and exc.value.params["pattern"] == "坎坎糊"
    ev = win("self_draw", "S", tiles="111222333m 777p 55s", patterns=["坎坎糊"])
    assert [x.params["name"] for x in settle([], ev).lines if x.code == "limit_hand"] == \
        ["坎坎糊"]
    thirteen = win("discard", "S", "W", tiles="19m 19p 19s 1234567z 9s", patterns=["門前清"])
    assert settle([], thirteen).deltas == dollars(-32, 128, -64, -32)


def test_a_robbed_kong_without_bao_says_why_the_robbed_pays_as_a_discarder() -> None:
    result = settle(["rob_kong_bao=false", "payment=full"], win("rob_kong", "S", "E", fan=3))
    assert result.deltas == dollars(e=-8, s=8)
    assert any(x.code == "rob_kong_no_bao" and x.params["seat"] == "E" for x in result.lines)
