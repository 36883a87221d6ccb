"""Settlement behaviour beyond the golden cases: tiles, the wall, kongs, and refusals."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ReportError
from engine.models import HandResult, Seat
from engine.options import SichuanOptions
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand


def settle(preset: str, events: list[dict[str, Any]], overrides: list[str] | None = None,
           indicator: str | None = None, dealer: Seat = "E") -> HandResult:
    report: dict[str, Any] = {"events": events}
    if indicator:
        report["indicator"] = indicator
    return settle_hand(ruleset(preset, overrides or []), parse_report(report), dealer)


def refused(preset: str, events: list[dict[str, Any]], code: str, **kw: Any) -> ReportError:
    with pytest.raises(ReportError) as err:
        settle(preset, events, **kw)
    assert err.value.code == code, str(err.value)
    assert str(err.value)
    return err.value


# -- patterns from tiles ----------------------------------------------------------------


def test_tiles_give_one_suit_and_a_gen() -> None:
    # 1111m 23456789m 55m: 111 123 456 789 55 with four 1m: 清一色 3 + 根 1 + 自摸 1 = 5 fan.
    r = settle("chengdu", [{"type": "win", "how": "self_draw", "winner": "S",
                            "tiles": "1111m 23456789m 55m"}])
    assert r.deltas == {"E": -16, "S": 48, "W": -16, "N": -16}


def test_tiles_pick_the_best_reading() -> None:
    # 111222333m 789m 99m reads as three pongs + 789m, or as 123m x3 + 789m + 99m, where
    # every set holds a 1 or a 9: 清一色 2 + 带幺九 2 on 平胡 1 = 5 fan = 16 beats 3 fan.
    r = settle("sichuan", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "E",
                            "tiles": "111222333m 789m 99m"}])
    assert r.deltas["S"] == 16


def test_named_pattern_contradicting_tiles_is_refused() -> None:
    err = refused("chengdu", [{"type": "win", "how": "self_draw", "winner": "S",
                               "patterns": ["清一色"], "tiles": "123m 456m 789p 111p 55p"}],
                  "tiles_contradict")
    assert "万 and 筒" in str(err)


def test_tiles_that_do_not_win_are_refused() -> None:
    refused("chengdu", [{"type": "win", "how": "self_draw", "winner": "S",
                         "tiles": "123m 456m 789p 111p 59p"}], "tiles_not_a_win")


def test_three_suits_do_not_win_in_sichuan() -> None:
    refused("sichuan", [{"type": "win", "how": "self_draw", "winner": "S",
                         "tiles": "123m 456p 789s 111p 55p"}], "tiles_not_a_win")


def test_declared_melds_and_golden_hook() -> None:
    # 金钩钓 in chengdu: four pongs declared and a pair: base 3, kongs none, discard.
    r = settle("chengdu", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "E",
                            "tiles": "77p", "melds": ["111m", "222m", "333p", "999p"]}])
    assert r.deltas["S"] == 4  # 金钩钓 3 fan


def test_additive_golden_hook_counts_duidui_unless_turned_off() -> None:
    # 本金 3m (2m, 4m wild); four pongs declared, waiting on 9p with a wildcard in hand.
    hook = {"type": "win", "how": "discard", "winner": "S", "from_seat": "E",
            "tiles": "9p 2m", "melds": ["111s", "555s", "666p", "777p"]}
    # 平胡 1 + 大对子 2 + 金钩钓 1 = 4 fan = 8.
    assert settle("yibin", [hook], indicator="3m").deltas["S"] == 8
    # A table that counts 金钩钓 alone: 平胡 1 + 金钩钓 1 = 2 fan = 2.
    off = settle("yibin", [hook], ["jingoudiao_duidui=false"], indicator="3m")
    assert off.deltas["S"] == 2
    assert [ln.params["name"] for ln in off.lines if ln.code == "pattern"] == ["金钩钓"]
    # Largest-base presets are unaffected: 金钩钓 is a base of its own.
    assert settle("chengdu", [{**hook, "tiles": "99p"}], ["jingoudiao_duidui=false"]
                  ).deltas["S"] == 4


def test_yibin_wildcard_use_decides_wutingyong() -> None:
    # 本金 3m: 2m and 4m are wild. Without them the hand is 平胡 + 无听用 = 2 fan.
    plain = settle("yibin", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "W",
                              "tiles": "567m 789m 567p 678p 99p"}], indicator="3m")
    assert plain.deltas["S"] == 2
    # With a wildcard standing for 9p: 平胡 1 fan.
    wild = settle("yibin", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "W",
                             "tiles": "567m 789m 567p 678p 9p 2m"}], indicator="3m")
    assert wild.deltas["S"] == 1


def test_jiangxi_shisanlang_with_all_honors_from_tiles() -> None:
    # 十三浪 without wildcards 4, 七字全 doubles: 8 from each.
    r = settle("feibao", [{"type": "win", "how": "self_draw", "winner": "S",
                           "tiles": "147m 258p 3s 1234567z"}], ["jing_bonus=false"],
               indicator="9s")
    assert r.deltas == {"E": -8, "S": 24, "W": -8, "N": -8}


def test_changsha_small_win_needs_258_eyes() -> None:
    refused("changsha", [{"type": "win", "how": "self_draw", "winner": "S",
                          "tiles": "123m 456m 789p 123s 11s"}], "tiles_not_a_win",
            overrides=["birds=0"])
    ok = settle("changsha", [{"type": "win", "how": "self_draw", "winner": "S",
                              "tiles": "123m 456m 789p 123s 55s"}], ["birds=0"])
    assert ok.deltas["S"] == 4


# -- birds --------------------------------------------------------------------------------


def test_bird_on_winner_doubles_everyone_on_a_self_draw() -> None:
    # Dealer E; rank 2 lands on S (the dealer's 下家), the winner.
    r = settle("changsha", [{"type": "win", "how": "self_draw", "winner": "S", "birds": [2]}])
    assert r.deltas == {"E": -4, "S": 8, "W": -2, "N": -2}


def test_bird_on_another_doubles_only_that_payer() -> None:
    r = settle("changsha", [{"type": "win", "how": "self_draw", "winner": "S", "birds": [3]}])
    assert r.deltas == {"E": -2, "S": 5, "W": -2, "N": -1}


def test_bird_add_mode_and_discard() -> None:
    r = settle("changsha", [{"type": "win", "how": "discard", "winner": "W", "from_seat": "N",
                             "birds": [3, 4]}], ["birds=2", "bird_mode=add"])
    assert r.deltas == {"E": 0, "S": 0, "W": 3, "N": -3}


def test_changsha_rob_kong_penalty() -> None:
    r = settle("changsha", [{"type": "win", "how": "rob_kong", "winner": "W", "from_seat": "S"}],
               ["birds=0"])
    assert r.deltas == {"E": 0, "S": -10, "W": 10, "N": 0}
    r = settle("changsha", [{"type": "win", "how": "rob_kong", "winner": "W", "from_seat": "E"}],
               ["birds=0"])
    assert r.deltas["E"] == -12
    # The dealer winning does not raise what a non-dealer pays: 10.
    r = settle("changsha", [{"type": "win", "how": "rob_kong", "winner": "E", "from_seat": "S"}],
               ["birds=0"])
    assert r.deltas == {"E": 10, "S": -10, "W": 0, "N": 0}


def test_changsha_heavenly_and_earthly() -> None:
    r = settle("changsha", [{"type": "win", "how": "self_draw", "winner": "E",
                             "patterns": ["天胡"]}], ["birds=0"])
    assert r.deltas == {"E": 12, "S": -4, "W": -4, "N": -4}
    r = settle("changsha", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "E",
                             "patterns": ["地胡"]}], ["birds=0"])
    assert r.deltas["E"] == -7


# -- the wall, kongs, blood battle ---------------------------------------------------------


def test_chajiao_max_from_tiles_and_huazhu() -> None:
    # chengdu: N is 花猪 (pays cap 7 = 64 to each other player still in); S is ready on
    # 1112345678999m; W says not ready and E, unreported, is not ready either: both pay S.
    events = [{"type": "wall_end", "players": {
        "N": {"huazhu": True},
        "S": {"ready": True, "tiles": "1112345678999m"},
        "W": {"ready": False},
    }}]
    r = settle("chengdu", events)
    assert r.deltas["N"] == -64 * 3
    # S's best: 1m or 9m completes a four (清一色 3 + 根 1 = 4 fan = 8); no self-draw bonus.
    assert r.deltas["S"] == 64 + 8 + 8
    assert r.deltas["W"] == 64 - 8
    assert r.deltas["E"] == 64 - 8
    assert r.next_dealer == "E" and not r.open


def test_chajiao_min_in_the_seed_preset() -> None:
    events = [{"type": "wall_end", "players": {"S": {"ready": True,
                                                      "tiles": "1112345678999m"}}}]
    r = settle("sichuan", events)
    # smallest: 2m..8m give 清一色 = 3 fan = 4 points, from E, W and N (not ready).
    assert r.deltas == {"E": -4, "S": 12, "W": -4, "N": -4}


def test_tuishui_returns_kong_money_of_a_not_ready_player() -> None:
    events: list[dict[str, Any]] = [{"type": "kong", "seat": "N", "kind": "concealed"},
              {"type": "wall_end", "players": {"S": {"ready": True, "fan": 1}}}]
    r = settle("chengdu", events)
    # The kong earned 6 and is returned; E, W and N pay S 1 each for 查叫.
    assert r.deltas == {"E": -1, "S": 3, "W": -1, "N": -1}


def test_hujiao_zhuanyi_hands_over_the_kong() -> None:
    events: list[dict[str, Any]] = [{"type": "kong", "seat": "S", "kind": "concealed"},
              {"type": "win", "how": "after_kong_discard", "winner": "W", "from_seat": "S",
               "patterns": ["平胡"]}]
    r = settle("chengdu", events)
    # Kong: S +6. Win: 平胡 1 + 杠上炮 1 = 2 fan = 2 points, and S hands the 6 to W.
    assert r.deltas == {"E": -2, "S": 6 - 2 - 6, "W": 2 + 6 - 2, "N": -2}


def kong_money(r: HandResult, seat: str) -> int:
    """What ``seat`` paid out in kong money over the hand: handed on, or given back."""
    return sum(int(x.params["amount"]) for x in r.lines if x.code == "pay"
               and x.params["payer"] == seat
               and x.params["reason"] in ("hujiao_zhuanyi", "tuishui"))


def test_tuishui_never_returns_kong_money_that_hujiao_zhuanyi_handed_on() -> None:
    # The hand: dave (N) 暗杠 (+6), alice (E) wins 杠上炮 off dave (2 fan = 2, and
    # dave hands the 6 to alice), the wall runs out with dave not ready and bob (S) ready.
    events: list[dict[str, Any]] = [{"type": "kong", "seat": "N", "kind": "concealed"},
              {"type": "win", "how": "after_kong_discard", "winner": "E", "from_seat": "N"},
              {"type": "wall_end", "players": {"S": {"ready": True, "fan": 1}}}]
    r = settle("chengdu", events)
    assert kong_money(r, "N") == 6  # once, to alice; not again as 退税
    assert not any(x.params.get("reason") == "tuishui" for x in r.lines if x.code == "pay")
    assert any(x.code == "tuishui_handed_on" and x.params == {"seat": "N", "amount": 6}
               for x in r.lines)
    # E: -2 kong +2 win +6 handed on; S: -2 kong +1 +1 查叫; W: -2 kong -1 查叫;
    # N: +6 kong -2 win -6 handed on -1 查叫.
    assert r.deltas == {"E": 6, "S": 0, "W": -3, "N": -3}


@pytest.mark.parametrize(("mode", "refunded"), [("last_kong", 2), ("all_kongs", 0),
                                                ("off", 2 + 3)])
def test_tuishui_returns_only_kong_money_still_held(mode: str, refunded: int) -> None:
    # W: a 直杠 off S (S pays 2), then a 补杠 (1 each from E, S, N) and a 杠上炮 to N;
    # then E self-draws, and at the wall W is 花猪 (so 退税 applies to W).
    events: list[dict[str, Any]] = [
        {"type": "kong", "seat": "W", "kind": "direct", "from_seat": "S"},
        {"type": "kong", "seat": "W", "kind": "added"},
        {"type": "win", "how": "after_kong_discard", "winner": "N", "from_seat": "W"},
        {"type": "wall_end", "players": {"W": {"huazhu": True}}}]
    r = settle("chengdu", events, [f"hujiao_zhuanyi={mode}"])
    given_back = sum(int(x.params["amount"]) for x in r.lines if x.code == "pay"
                     and x.params["reason"] == "tuishui")
    assert given_back == refunded
    handed = sum(int(x.params["amount"]) for x in r.lines if x.code == "pay"
                 and x.params["reason"] == "hujiao_zhuanyi")
    assert handed + given_back == 2 + 3  # every kong point leaves W exactly once
    assert sum(r.deltas.values()) == 0


def test_blood_battle_three_wins_then_closed() -> None:
    events = [{"type": "win", "how": "self_draw", "winner": "S"},
              {"type": "win", "how": "discard", "winner": "W", "from_seat": "E"},
              {"type": "win", "how": "self_draw", "winner": "N"}]
    r = settle("chengdu", events)
    assert not r.open and r.still_in == ("E",) and r.next_dealer == "S"
    # Self-draws pay 2 (平胡 1 + 自摸 1) from those still in only.
    assert r.events[2].deltas == {"E": -2, "S": 0, "W": 0, "N": 2}
    refused("chengdu", [*events, {"type": "wall_end"}], "hand_closed")


def test_one_win_ends_the_hand_without_blood_battle() -> None:
    r = settle("chengdu", [{"type": "win", "how": "self_draw", "winner": "S"}],
               ["blood_battle=false"])
    assert not r.open and r.next_dealer == "S"


def test_cap_bounds_fan() -> None:
    r = settle("yibin", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "E",
                          "patterns": ["清一色", "大对子", "无听用"], "gen": 2}])
    assert r.deltas["S"] == 32  # 1+2+2+1+2 = 8 fan, capped at 6
    assert any(line.code == "cap" for line in r.lines)


def test_dianganghua_discarder_in_the_seed_preset() -> None:
    r = settle("sichuan", [{"type": "win", "how": "kong_replacement", "winner": "S",
                            "from_seat": "W", "kongs": 1}])
    # 平胡 1 + 杠 1 + 杠上花 2 = 4 fan = 8, paid by W alone.
    assert r.deltas == {"E": 0, "S": 8, "W": -8, "N": 0}


def test_jiangxi_feibao_chengbao_and_kong_points() -> None:
    events: list[dict[str, Any]] = [
        {"type": "kong", "seat": "E", "kind": "concealed"},
        {"type": "win", "how": "self_draw", "winner": "S", "patterns": ["平和"],
         "wild_used": True, "feibao": 1, "feeder": "W", "loser_feibao": {"N": 1}},
    ]
    r = settle("feibao", events, ["jing_bonus=false"])
    # V = 2 x 2 (飞宝) = 4; N threw a wildcard and owes 8; W fed three melds and pays
    # E's 4, its own 4 and N's 8. E's concealed kong: 2 from each other player.
    assert r.deltas == {"E": 6, "S": 16 - 2, "W": -16 - 2, "N": -2}


def test_jiangxi_discard_win_refused() -> None:
    refused("feibao", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "E"}],
            "self_draw_only")


# -- refusals -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "events", "code"),
    [
        ("chengdu", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "S"}],
         "own_discard"),
        ("changsha", [{"type": "win", "how": "rob_kong", "winner": "S", "from_seat": "S"}],
         "own_kong"),
        ("chengdu", [{"type": "win", "how": "kong_replacement", "winner": "S",
                      "from_seat": "S"}], "pays_self"),
        ("chengdu", [{"type": "win", "how": "self_draw", "winner": "S"},
                     {"type": "win", "how": "discard", "winner": "W", "from_seat": "S"}],
         "not_in_hand"),
        ("chengdu", [{"type": "win", "how": "discard", "winner": "S", "from_seat": "E",
                      "patterns": ["七对", "对对胡"]}], "patterns_exclude"),
        ("chengdu", [{"type": "win", "how": "self_draw", "winner": "S", "gen": 3, "kongs": 2}],
         "too_many_gen"),
        ("chengdu", [{"type": "win", "how": "self_draw", "winner": "S", "gen": 3,
                      "kongs": 2}], "too_many_gen"),
        ("chengdu", [{"type": "win", "how": "self_draw", "winner": "S", "tiles": "55p",
                      "melds": ["123m", "456m", "789m", "111p"]}], "chow_not_allowed"),
        ("chengdu", [{"type": "win", "how": "self_draw", "winner": "S", "from_seat": "E"}],
         "self_draw_from"),
        ("chengdu", [{"type": "win", "how": "discard", "winner": "S"}], "needs_from"),
        ("chengdu", [{"type": "win", "how": "self_draw", "winner": "S", "birds": [1]}],
         "wrong_family"),
        ("sichuan", [{"type": "kong", "seat": "S", "kind": "concealed"}], "kongs_not_paid"),
        ("changsha", [{"type": "kong", "seat": "S", "kind": "concealed"}], "kongs_not_paid"),
        ("changsha", [{"type": "win", "how": "self_draw", "winner": "S", "gen": 1}],
         "wrong_family"),
        ("changsha", [{"type": "win", "how": "self_draw", "winner": "S", "birds": [1, 2]}],
         "too_many_birds"),
        ("chengdu", [{"type": "win", "how": "self_draw",
                      "winners": [{"seat": "S"}, {"seat": "W"}]}], "one_self_draw"),
        ("chengdu", [{"type": "win", "how": "self_draw", "winner": "S",
                      "patterns": ["清一吃"]}], "unknown_pattern"),
        ("chengdu", [{"type": "wall_end", "players": {"S": {"huazhu": True, "ready": True}}}],
         "huazhu_ready"),
        ("chengdu", [{"type": "wall_end", "players": {"S": {"ready": True}}}],
         "ready_needs_value"),
        ("yibin", [{"type": "win", "how": "self_draw", "winner": "S",
                    "tiles": "567m 789m 567p 678p 99p"}], "needs_indicator"),
    ],
)
def test_bad_reports_are_refused_with_a_message(preset: str, events: list[dict[str, Any]],
                                                code: str) -> None:
    refused(preset, events, code)


def test_unknown_pattern_suggests_the_closest() -> None:
    err = refused("chengdu", [{"type": "win", "how": "self_draw", "winner": "S",
                               "patterns": ["qingyse"]}], "unknown_pattern")
    assert "清一色" in str(err)


def test_pattern_names_in_pinyin_and_english() -> None:
    for name in ("qingyise", "One Suit", "清一色"):
        r = settle("chengdu", [{"type": "win", "how": "discard", "winner": "S",
                                "from_seat": "E", "patterns": [name]}])
        assert r.deltas["S"] == 4


def test_report_shape_errors_become_report_errors() -> None:
    for bad in ('{"events": [{"type": "win"}]}', '{"events": 3}', "not json",
                '{"events": [{"type": "win", "how": "sideways", "winner": "S"}]}',
                '{"events": [{"type": "win", "how": "self_draw", "winner": "X"}]}'):
        with pytest.raises(ReportError) as err:
            parse_report(bad)
        assert err.value.code == "bad_report"


def test_options_errors_list_the_valid_ones() -> None:
    with pytest.raises(ReportError) as err:
        ruleset("chengdu", ["zimo=triple"])
    assert "none, double, add_stake" in str(err.value)
    with pytest.raises(ReportError) as err:
        ruleset("chengdu", ["nonsense=1"])
    assert "cap_fan" in str(err.value)
    with pytest.raises(ReportError) as err:
        ruleset("nowhere")
    assert "chengdu" in str(err.value)


def test_snapshot_round_trip_keeps_options() -> None:
    from engine.rules import Ruleset

    rules = ruleset("chengdu", ["cap_fan=5", "fan.清一色=4"])
    again = Ruleset.from_snapshot(rules.snapshot())
    assert again == rules


def test_a_result_reads_back_from_its_own_json() -> None:
    from engine.models import HandResult

    r = settle("chengdu", [{"type": "win", "how": "self_draw", "winner": "S"}])
    again = HandResult.model_validate_json(r.model_dump_json())
    assert again == r and again.lines == r.lines


def test_huazhu_not_counted_pays_chajiao_as_not_ready() -> None:
    # The seed preset has no 花猪 rule: a player with three suits is just not ready.
    r = settle("sichuan", [{"type": "wall_end", "players": {
        "N": {"huazhu": True}, "S": {"ready": True, "fan": 2}}}])
    assert r.deltas == {"E": -2, "S": 6, "W": -2, "N": -2}
    assert any(line.code == "huazhu_not_counted" for line in r.lines)


def test_jiuyao_wildcard_completes_the_seven_honors() -> None:
    # 本精 9s -> 9s and 1s are wild; one 1s fills the missing 中: 九幺 有宝 2 x 七字全 = 4.
    r = settle("feibao", [{"type": "win", "how": "self_draw", "winner": "S",
                           "tiles": "19m 19p 9s 123456z 11m 1s"}], ["jing_bonus=false"],
               indicator="9s")
    assert r.deltas["S"] == 12


def test_changsha_quanqiuren_needs_a_discard() -> None:
    events = [{"type": "win", "how": "self_draw", "winner": "S", "tiles": "55s",
               "melds": ["123m", "456m", "789p", "123s"]}]
    r = settle("changsha", events, ["birds=0"])
    assert r.deltas["S"] == 4  # a small self-draw, not 全求人
    events[0].update(how="discard", from_seat="W")
    r = settle("changsha", events, ["birds=0"])
    assert r.deltas["S"] == 6  # 全求人 off W's discard


def test_off_and_none_are_the_words_of_options_that_have_them() -> None:
    opts = ruleset("chengdu", ["hujiao_zhuanyi=off", "chajiao=off", "zimo=none",
                               "tuishui=off", "cap_fan=none"]).options
    assert isinstance(opts, SichuanOptions)
    assert (opts.hujiao_zhuanyi, opts.chajiao, opts.zimo) == ("off", "off", "none")
    assert opts.tuishui is False and opts.cap_fan is None


def test_hints_name_the_real_mistake() -> None:
    """Issue 31, item 6: 起手胡 away from Changsha, 无听用 with a 听用 standing in, and an
    unknown pattern listed without the patterns the table's rules keep off."""
    err = refused("chengdu", [{"type": "starting_win", "seat": "S", "kinds": ["板板胡"]}],
                  "starting_not_changsha")
    assert err.params["preset"] == "chengdu"
    err = refused("yibin", [{"type": "win", "how": "self_draw", "winner": "S",
                             "patterns": ["无听用"], "tiles": "123m456m789m2m56p99p"}],
                  "wild_stands_in", indicator="3m")
    assert err.params["tiles"] == "2m 4m"
    err = refused("chengdu", [{"type": "win", "how": "self_draw", "winner": "S",
                               "patterns": ["xyz"]}], "unknown_pattern")
    names = str(err.params["names"]).split(", ")
    assert "清一色" in names and "门清" not in names and "断幺九" not in names
    err = refused("chengdu", [{"type": "win", "how": "self_draw", "winner": "S",
                               "patterns": ["xyz"]}], "unknown_pattern",
                  overrides=["menqing_zhongzhang=true"])
    assert "门清" in str(err.params["names"]).split(", ")
