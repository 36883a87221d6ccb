"""Golden cases of docs/rules/singapore.md (SG1 to SG12), each a named test through the
public settlement API, and the rules around them: the three ways to say a win, the stake
tables, 包, the special wins and every instant payout. Amounts are in cents."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ReportError
from engine.families import FAMILIES
from engine.families.singapore_stakes import stake_table
from engine.models import HandResult
from engine.options import SingaporeOptions
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand


def win(how: str, winner: str, from_seat: str | None = None, **hand: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "win", "how": how, "winner": winner, **hand}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def kong(seat: str, kind: str, from_seat: str | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def bite(seat: str, pair: str = "cat_rat", hidden: bool = False,
         from_seat: str | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "bite", "seat": seat, "pair": pair, "hidden": hidden}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def d(e: int = 0, s: int = 0, w: int = 0, n: int = 0) -> dict[str, int]:
    return {"E": e, "S": s, "W": w, "N": n}


def settle(events: list[dict[str, Any]], *overrides: str, dealer: str = "E") -> HandResult:
    result = settle_hand(ruleset("singapore", list(overrides)),
                         parse_report({"events": events}), dealer)  # type: ignore[arg-type]
    assert sum(result.deltas.values()) == 0
    return result


def table(*overrides: str) -> list[tuple[int, int, int]]:
    opts = ruleset("singapore", list(overrides)).options
    assert isinstance(opts, SingaporeOptions)
    return stake_table(opts)


def refused(events: list[dict[str, Any]], *overrides: str) -> ReportError:
    with pytest.raises(ReportError) as info:
        settle(events, *overrides)
    return info.value


def test_SG1_one_tai_off_a_discard_the_shooter_pays_for_all() -> None:
    result = settle([win("discard", "S", "W", tai=1)])
    assert result.deltas == d(s=80, w=-80)
    assert result.next_dealer == "S"  # the dealer did not win: the next seat deals


def test_SG2_non_shooter_the_discarder_pays_zimo_the_others_base() -> None:
    result = settle([win("discard", "S", "W", tai=1)], "shooter=false")
    assert result.deltas == d(e=-20, s=80, w=-40, n=-20)


def test_SG3_self_draw_three_tai() -> None:
    assert settle([win("self_draw", "N", tai=3)]).deltas == d(-160, -160, -160, 480)


def test_SG4_seven_tai_capped_at_five() -> None:
    result = settle([win("self_draw", "E", patterns=["清一色", "对对胡", "seat flower"])])
    assert result.deltas == d(1920, -640, -640, -640)
    assert result.next_dealer == "E"  # the dealer won: deals again
    codes = [(line.code, line.params.get("tai")) for line in result.lines]
    assert ("tai_total", 7) in codes and ("tai_cap", 7) in codes


def test_SG5_thirteen_wonders_is_a_limit_hand() -> None:
    expected = d(s=-1280, w=1280)
    assert settle([win("discard", "W", "S", patterns=["thirteen wonders"])]).deltas == expected
    assert settle([win("discard", "W", "S", tiles="19m 19p 19s 1234567z 5z")]).deltas \
        == expected


def test_SG6_the_3_6_table_off_a_discard() -> None:
    assert settle([win("discard", "W", "E", tai=2)], "stake=3-6").deltas == d(e=-700, w=700)


def test_SG7_the_3_6_table_self_draw() -> None:
    assert settle([win("self_draw", "N", tai=4)], "stake=3-6").deltas == \
        d(-1000, -1000, -1000, 3000)


def test_SG8_exposed_kong_off_a_discard_the_discarder_pays_3u() -> None:
    result = settle([kong("S", "direct", "W")])
    assert result.deltas == d(s=60, w=-60) and result.open


def test_SG9_concealed_kong_each_pays_2u() -> None:
    assert settle([kong("N", "concealed")]).deltas == d(-40, -40, -40, 120)


def test_SG10_a_bite_and_a_hidden_bite() -> None:
    assert settle([bite("E")]).deltas == d(60, -20, -20, -20)
    assert settle([bite("E", hidden=True)]).deltas == d(120, -40, -40, -40)


def test_SG11_instant_payouts_stand_through_a_draw() -> None:
    result = settle([kong("S", "concealed"), bite("N"), {"type": "wall_end"}])
    assert result.deltas == d(-60, 100, -60, 20)
    assert not result.open and result.next_dealer == "E"
    assert [e.deltas for e in result.events[:2]] == [d(-40, 120, -40, -40),
                                                      d(-20, -20, -20, 60)]


def test_SG12_the_minimum_and_an_animal_counting_toward_it() -> None:
    error = refused([win("discard", "N", "E", tai=0)])
    assert error.code == "below_min_tai" and error.params["min"] == 1
    assert settle([win("discard", "N", "E", patterns=["animal"])]).deltas == d(e=-80, n=80)
    # Tiles worth nothing by themselves (a pong of 1万 breaks 平胡), and a cat.
    assert settle([win("discard", "N", "E", tiles="111m 456m 789m 234p 99s",
                       bonus="cat")]).deltas == d(e=-80, n=80)
    assert refused([win("discard", "N", "E", tiles="111m 456m 789m 234p 99s",
                         bonus="none")]).code == "below_min_tai"


TESTED = {f"SG{n}" for n in range(1, 13)}


# Around the golden cases: the rules they come from.

def test_points_are_cents_of_the_tables_money() -> None:
    assert FAMILIES["singapore"].points_in_cents and FAMILIES["hongkong"].points_in_cents
    assert not FAMILIES["free"].points_in_cents and not FAMILIES["sichuan"].points_in_cents


def test_the_doubling_tables_double_exactly_past_five_tai() -> None:
    rows = table("stake=10/20", "cap_tai=10")
    assert rows[8] == (9, 2560, 5120) and rows[9] == (10, 5120, 10240)  # never 1028/2056
    assert settle([win("self_draw", "N", tai=10)], "stake=10/20", "cap_tai=10").deltas == \
        d(-10240, -10240, -10240, 30720)


def test_the_non_doubling_tables_stop_at_five() -> None:
    for name in ("3-6", "3-6-half", "custom"):
        with pytest.raises(ReportError):
            ruleset("singapore", [f"stake={name}", "cap_tai=6"])
    half = table("stake=3-6-half")
    assert half == [(1, 50, 100), (2, 100, 150), (3, 150, 250), (4, 250, 500), (5, 500, 1000)]


def test_a_custom_table_in_money_or_in_cents() -> None:
    typed = "custom=0.30/0.60 0.60/1.20 1.20/2.40 2.40/4.80 4.80/9.60"
    assert table("stake=custom", typed)[2] == (3, 120, 240)
    assert settle([win("discard", "S", "W", tai=2)], "stake=custom", typed).deltas == \
        d(s=240, w=-240)
    with pytest.raises(ReportError) as info:
        ruleset("singapore", ["stake=custom"])  # ten amounts needed
    assert info.value.params["option"] == "custom"
    with pytest.raises(ReportError) as info:
        ruleset("singapore", ["stake=3-6", "cap_tai=7"])
    assert info.value.params["option"] == "cap_tai"
    with pytest.raises(ReportError):
        ruleset("singapore", ["stake=custom", "custom=0.305 1 2 3 4 5 6 7 8 9"])


def test_robbing_a_kong_the_robbed_pays_as_shooter_and_the_kong_pays_nothing() -> None:
    result = settle([kong("S", "added"), win("rob_kong", "W", "S", tai=2)], "shooter=false")
    # The added kong took 20 from each; robbed, it goes back. S pays 2 x 40 + 80 for 2 tai.
    assert result.events[0].deltas == d(-20, 60, -20, -20)
    assert result.events[1].deltas == d(20, -220, 180, 20)
    assert result.deltas == d(s=-160, w=160)


def test_rob_kong_adds_its_tai_to_named_patterns() -> None:
    assert settle([win("rob_kong", "W", "S", patterns=["红中"])]).deltas == d(s=-160, w=160)


def test_pay_for_all_the_liable_player_pays_what_all_three_would() -> None:
    assert settle([win("self_draw", "N", tai=2, feeder="E")]).deltas == d(e=-240, n=240)
    assert settle([win("discard", "N", "W", tai=2, feeder="E")], "shooter=false").deltas == \
        d(e=-160, n=160)


def test_eight_immortals_and_seven_rob_one_pay_the_cap() -> None:
    assert settle([win("self_draw", "S", bonus="f1 f2 f3 f4 s1 s2 s3 s4")]).deltas == \
        d(-640, 1920, -640, -640)
    assert settle([win("discard", "S", "N", patterns=["七抢一"])], "shooter=false").deltas \
        == d(s=1280, n=-1280)
    assert refused([win("discard", "S", "N", patterns=["八仙过海"])]).code == \
        "special_self_draw"


def test_tiles_with_the_seat_and_prevailing_wind() -> None:
    # S (seat wind South) with a pong of South in the South round: 门风 and 圈风, 2 tai.
    ev = win("discard", "S", "W", tiles="123m 456m 789p 222z 55s", prevailing="S")
    result = settle([ev])
    assert result.deltas == d(s=160, w=-160)
    names = {str(line.params["name"]) for line in result.lines if line.code == "tai"}
    assert names == {"门风", "圈风"}
    # The same tiles in the East round: only the seat wind.
    ev = win("discard", "S", "W", tiles="123m 456m 789p 222z 55s")
    assert settle([ev]).deltas == d(s=80, w=-80)


def test_the_seat_follows_the_dealer() -> None:
    # With N dealing, E sits South: f2 is its seat flower.
    result = settle([win("discard", "E", "W", tai=None, patterns=["红中"], bonus="f2")],
                    dealer="N")
    assert result.deltas == d(e=160, w=-160)


def test_full_all_chows_needs_no_bonus_tile_said() -> None:
    tiles = "123m 456m 789m 234p 55s"
    assert settle([win("discard", "S", "W", tiles=tiles, bonus="none")]).deltas == \
        d(s=640, w=-640)  # 大平胡 4 tai instead of 平胡: 2 x 160 + 320
    assert settle([win("discard", "S", "W", tiles=tiles)]).deltas == d(s=80, w=-80)


def test_small_three_dragons_counts_instead_of_its_pongs() -> None:
    tiles = "555z 666z 77z 123m 456m"
    result = settle([win("discard", "S", "W", tiles=tiles)])
    # 小三元 3 + 混一色 2 = 5 (the two dragon pongs are inside 小三元).
    assert result.deltas == d(s=1280, w=-1280)
    instead = {str(line.params["name"]) for line in result.lines if line.code == "tai_instead"}
    assert instead == {"白板", "发财"}


def test_named_patterns_the_tiles_do_not_show_are_refused() -> None:
    error = refused([win("discard", "S", "W", tiles="123m 456m 789m 234p 55s",
                         patterns=["清一色"])])
    assert error.code == "tiles_contradict"
    assert refused([win("discard", "S", "W", patterns=["清一色", "混一色"])]).code == \
        "patterns_exclude"
    assert refused([win("discard", "S", "W", patterns=["animal"] * 5)]).code == "too_many_of"
    error = refused([win("discard", "S", "W", patterns=["hidden treasure"])])
    assert error.code == "self_drawn_only" and error.params["name"] == "四暗刻"


def test_bonus_tiles_toward_the_minimum_or_not() -> None:
    error = refused([win("discard", "N", "E", patterns=["animal"])], "min_counts_bonus=false")
    assert error.code == "below_min_tai"
    assert refused([win("discard", "N", "E", tai=2, bonus_tai=2)],
                   "min_counts_bonus=false").code == "below_min_tai"
    assert settle([win("discard", "N", "E", tai=2, bonus_tai=1)],
                  "min_counts_bonus=false").deltas == d(e=-160, n=160)


def test_without_animals_or_instant_payouts() -> None:
    assert refused([bite("E")], "animals=false").code == "no_animals"
    assert settle([bite("E", "seat_flowers")], "animals=false").deltas == d(60, -20, -20, -20)
    assert refused([win("self_draw", "E", patterns=["animal"])], "animals=false").code == \
        "no_animals"
    assert refused([kong("E", "concealed")], "instant_payouts=false").code == "kongs_not_paid"
    assert refused([bite("E")], "instant_payouts=false").code == "instant_payouts_off"


def test_every_instant_payout() -> None:
    cases = [
        ([kong("S", "direct", "W")], ["shooter=false"], d(-20, 60, -20, -20)),
        ([kong("S", "added")], [], d(-20, 60, -20, -20)),
        ([bite("E", "rooster_centipede", from_seat="N")], [], d(e=20, n=-20)),
        ([bite("E", "seat_flowers", hidden=True, from_seat="N")], [], d(e=40, n=-40)),
        ([{"type": "bonus_set", "seat": "W", "kind": "flowers"}], [], d(-40, -40, 120, -40)),
        ([bite("W"), bite("W", "rooster_centipede"),
          {"type": "bonus_set", "seat": "W", "kind": "animals"}], [],
         d(-80, -80, 240, -80)),  # all four animals: 2u each on top of the two bites
        ([kong("S", "concealed")], ["stake=3-6"], d(-200, 600, -200, -200)),
    ]
    for events, over, expected in cases:
        assert settle(events, *over).deltas == expected, events


def test_no_payout_copies_the_other_bots_mistakes() -> None:
    """P5 charges everyone 2u more on an exposed kong and pays nothing for a hidden bite."""
    assert settle([kong("S", "direct", "W")]).deltas == d(s=60, w=-60)
    assert settle([bite("S", hidden=True)]).deltas == d(-40, 120, -40, -40)


def test_one_winner_and_a_discard_names_its_discarder() -> None:
    two = {"type": "win", "how": "discard", "from_seat": "E",
           "winners": [{"seat": "S", "tai": 1}, {"seat": "W", "tai": 1}]}
    assert refused([two]).code == "sg_one_winner"
    assert refused([win("discard", "S", tai=1)]).code == "needs_from"


def test_a_draw_the_dealer_stays_or_passes() -> None:
    assert settle([{"type": "wall_end"}]).next_dealer == "E"
    assert settle([{"type": "wall_end"}], "draw_dealer=next").next_dealer == "S"


def test_a_false_win_costs_a_capped_self_draw() -> None:
    result = settle([{"type": "penalty", "seat": "S"}])
    assert result.deltas == d(640, -1920, 640, 640)


def test_bonus_tiles_in_english_chinese_and_codes() -> None:
    from engine.bonus_tiles import Bonus, parse_bonus

    same = parse_bonus("f1 s1 cat rat")
    assert parse_bonus("梅 春 猫 老鼠") == same and parse_bonus("1f,s1,猫,鼠") == same
    assert parse_bonus("none") == parse_bonus("无") == Bonus()
    for bad in ("f5", "cat cat", "none cat", "dog"):
        with pytest.raises(ReportError) as info:
            parse_bonus(bad)
        assert info.value.code == "bad_bonus"
