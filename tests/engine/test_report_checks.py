"""What the hand so far and the tiles make impossible (engine/report_checks.py): each
refusal with its code, and the same report made possible is settled."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import ReportError
from engine.models import HandResult
from engine.offer import offer
from engine.report_checks import MOST_GEN, most_gen, records_kongs
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand


def settle(preset: str, events: list[dict[str, Any]]) -> HandResult:
    return settle_hand(ruleset(preset, []), parse_report({"events": events}), "E")


def refused(preset: str, events: list[dict[str, Any]]) -> ReportError:
    with pytest.raises(ReportError) as err:
        settle(preset, events)
    return err.value


def win(how: str, winner: str, from_seat: str | None = None, **hand: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "win", "how": how, "winner": winner, **hand}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def kong(seat: str, kind: str = "concealed", from_seat: str | None = None) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "kong", "seat": seat, "kind": kind}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


@pytest.mark.parametrize(("preset", "patterns"), [
    ("chengdu", ["七对"]), ("chengdu", ["龙七对"]), ("chengdu", ["对对胡"]),
    ("chengdu", ["清对"]), ("chengdu", ["金钩钓"]), ("sichuan", ["清七对"]),
    ("changsha", ["七小对"]), ("changsha", ["豪华七小对"]), ("changsha", ["碰碰胡"]),
    ("feibao", ["七对"]), ("feibao", ["碰对"]),
])
def test_a_paired_shape_cannot_rob_a_kong(preset: str, patterns: list[str]) -> None:
    err = refused(preset, [win("rob_kong", "W", "N", patterns=patterns)])
    assert err.code == "rob_kong_shape", err
    assert err.params["seat"] == "W"


def test_a_plain_hand_robs_a_kong_and_tiles_must_hold_its_tile_once() -> None:
    assert settle("chengdu", [win("rob_kong", "W", "N", patterns=["清一色"])]).deltas["W"] > 0
    # 11223344556677m: seven pairs read from the tiles, every kind twice.
    assert refused("chengdu", [win("rob_kong", "W", "N", tiles="11223344556677m")]
                   ).code == "rob_kong_tiles"
    # 111m 222m 333m 444p 55p: all pongs, no kind held once.
    assert refused("chengdu", [win("rob_kong", "W", "N", tiles="111222333m44455p")]
                   ).code == "rob_kong_tiles"
    # 123m 456m 789m 123p 55p: 1m is held once and could be the robbed tile.
    assert settle("chengdu", [win("rob_kong", "W", "N", tiles="123456789m12355p")]
                  ).deltas["W"] > 0
    assert settle("chengdu", [win("discard", "W", "N", tiles="11223344556677m")]
                  ).deltas["W"] > 0  # off a discard seven pairs wins


def test_a_player_with_four_kongs_has_no_pong_left_to_rob() -> None:
    four = [kong("N"), kong("N"), kong("N"), kong("N", "direct", "E")]
    assert refused("chengdu", [*four, win("rob_kong", "W", "N")]).code == "rob_no_pong"
    # Three kongs, then an added kong robbed right after it: that was the pong.
    three = [*four[:3], kong("N", "added"), win("rob_kong", "W", "N")]
    assert settle("chengdu", three).events[-1].deltas["W"] > 0
    # A fifth kong is refused as it is reported.
    err = refused("chengdu", [*four, kong("N")])
    assert (err.code, err.params["seat"]) == ("too_many_kongs", "N")


@pytest.mark.parametrize("preset", ["chengdu", "liangfang"])
def test_kong_discard_names_a_player_who_made_a_kong(preset: str) -> None:
    err = refused(preset, [win("after_kong_discard", "S", "W")])
    assert (err.code, err.params["seat"]) == ("no_kong_made", "W")
    # Another player's kong does not make W's discard a 杠上炮.
    assert refused(preset, [kong("E"), win("after_kong_discard", "S", "W")]
                   ).code == "no_kong_made"
    done = settle(preset, [kong("W"), win("after_kong_discard", "S", "W")])
    assert any(line.code == "hujiao_zhuanyi" for line in done.lines)


def test_where_kongs_are_not_reported_kong_discard_is_taken_on_its_word() -> None:
    assert not records_kongs(ruleset("sichuan", []))
    assert not records_kongs(ruleset("changsha", []))
    assert settle("sichuan", [win("after_kong_discard", "S", "W")]).deltas["S"] > 0
    assert settle("changsha", [win("after_kong_discard", "S", "W")]).deltas["S"] > 0
    assert offer(ruleset("chengdu", [])).kong_events
    assert offer(ruleset("feibao", [])).kong_events
    assert not offer(ruleset("sichuan", [])).kong_events


def test_gen_within_the_tiles_left_beside_the_kongs() -> None:
    assert MOST_GEN == (3, 2, 1, 0, 0)
    err = refused("chengdu", [win("self_draw", "W", patterns=["清一色"], gen=4)])
    assert (err.code, err.params["most"]) == ("too_many_gen", 3)
    assert settle("chengdu", [win("self_draw", "W", patterns=["清一色"], gen=3)]
                  ).deltas["W"] > 0
    for kongs in range(1, 5):
        assert refused("chengdu", [win("self_draw", "W", gen=most_gen(kongs) + 1,
                                       kongs=kongs)]).code == "too_many_gen"
        settle("chengdu", [win("self_draw", "W", gen=most_gen(kongs), kongs=kongs)])
    # Recorded kongs count too: two kongs of W's leave room for one 根.
    assert refused("chengdu", [kong("W"), kong("W"), win("self_draw", "W", gen=2)]
                   ).code == "too_many_gen"
    # 十八罗汉 is four kongs: no 根 beside them.
    assert refused("chengdu", [win("self_draw", "W", patterns=["十八罗汉"], gen=1)]
                   ).code == "too_many_gen"


def test_jing_and_feibao_within_the_wildcards_of_the_wall() -> None:
    jing = {"E": [2, 0], "S": [2, 0], "W": [1, 0]}  # five 正精: the wall holds four
    err = refused("feibao", [{"type": "win", "how": "self_draw", "winner": "W",
                              "patterns": ["平和"], "jing": jing}])
    assert (err.code, err.params["copies"]) == ("too_many_jing", 8)
    held = {"E": [2, 2], "S": [2, 2]}  # all eight held, and a 飞宝 thrown besides
    assert refused("feibao", [{"type": "win", "how": "self_draw", "winner": "W",
                               "patterns": ["平和"], "feibao": 1, "jing": held}]
                   ).code == "too_many_jing"
    settle("feibao", [{"type": "win", "how": "self_draw", "winner": "W", "patterns": ["平和"],
                       "feibao": 1, "jing": {"E": [2, 2], "S": [1, 2]}}])
