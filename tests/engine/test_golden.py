"""Every golden case of docs/rules/, by its number, through the public settlement API."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.families.jiangxi import chongguan
from engine.rules import ruleset
from engine.settle import parse_report, settle_hand
from engine.tiles import parse
from engine.wildcards import jing_kinds, tingyong_kinds
from tests.engine.test_golden_hongkong import TESTED as HONGKONG_TESTED
from tests.engine.test_golden_mcr import TESTED as MCR_TESTED
from tests.engine.test_golden_singapore import TESTED as SINGAPORE_TESTED
from tests.engine.test_golden_three import TESTED as THREE_TESTED

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"


def win(how: str, winner: str, from_seat: str | None = None, **hand: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"type": "win", "how": how, "winner": winner, **hand}
    if from_seat:
        ev["from_seat"] = from_seat
    return ev


def multi(how: str, from_seat: str, *hands: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "win", "how": how, "from_seat": from_seat, "winners": list(hands), **extra}


def d(e: int = 0, s: int = 0, w: int = 0, n: int = 0) -> dict[str, int]:
    return {"E": e, "S": s, "W": w, "N": n}


# (case, preset, overrides, events, expected deltas, expected next dealer or None)
CASES: list[tuple[str, str, list[str], list[dict[str, Any]], dict[str, int], str | None]] = [
    # Preset yibin (seed 000)
    ("Y1", "yibin", [], [win("discard", "S", "W", patterns=["平胡"])], d(s=1, w=-1), None),
    ("Y2", "yibin", [], [win("discard", "S", "W", patterns=["无听用"])], d(s=2, w=-2), None),
    ("Y3", "yibin", [], [win("self_draw", "N", patterns=["大对子"])],
     d(-4, -4, -4, 12), None),
    ("Y5", "yibin", [], [win("discard", "W", "E", patterns=["清一色", "大对子"])],
     d(e=-16, w=16), None),
    ("Y8", "yibin", [], [win("self_draw", "S", patterns=["碰本金"])], d(-2, 6, -2, -2), None),
    ("Y11", "yibin", [], [multi("discard", "E", {"seat": "S", "patterns": ["无听用"]},
                                {"seat": "W", "patterns": ["大对子"]})],
     d(e=-6, s=2, w=4), "E"),
    # Preset chengdu
    ("C1", "chengdu", [], [win("discard", "S", "E", patterns=["平胡"])], d(e=-1, s=1), None),
    ("C2", "chengdu", [], [win("self_draw", "S", patterns=["清一色"], gen=1)],
     d(-16, 48, -16, -16), None),
    ("C4", "chengdu", [], [multi("discard", "N", {"seat": "E", "patterns": ["七对"]},
                                 {"seat": "W", "patterns": ["平胡"]})],
     d(e=4, w=1, n=-5), "N"),
    ("C5", "chengdu", [], [
        {"type": "kong", "seat": "W", "kind": "direct", "from_seat": "E"},
        {"type": "kong", "seat": "N", "kind": "concealed"},
        {"type": "kong", "seat": "S", "kind": "added"},
    ], d(-2 - 2 - 1, -2 + 3, 2 - 2 - 1, 6 - 1), None),
    ("C7", "chengdu", [], [
        {"type": "kong", "seat": "S", "kind": "added"},
        win("rob_kong", "W", "S", patterns=["平胡"]),
    ], d(s=-2, w=2), None),
    ("C9", "chengdu", [], [win("self_draw", "N", patterns=["龙七对"], gen=1)],
     d(-32, -32, -32, 96), None),
    ("C9-no-bonus", "chengdu", ["longqidui_bonus=false"],
     [win("self_draw", "N", patterns=["龙七对"], gen=1)], d(-16, -16, -16, 48), None),
    # Preset sichuan (seed 001)
    ("S1", "sichuan", [], [win("self_draw", "S", patterns=["平胡"], gen=1)],
     d(-2, 6, -2, -2), None),
    ("S2", "sichuan", [], [win("discard", "W", "N", patterns=["七对"], gen=2)],
     d(w=16, n=-16), None),
    # Preset changsha (birds 0 unless a bird is named)
    ("CS1", "changsha", ["birds=0"], [win("self_draw", "S")], d(-2, 4, -1, -1), "S"),
    ("CS2", "changsha", ["birds=0"], [win("discard", "W", "N")], d(w=1, n=-1), "W"),
    ("CS3", "changsha", ["birds=0"], [win("discard", "W", "E")], d(e=-2, w=2), "W"),
    ("CS4", "changsha", ["birds=0"], [win("self_draw", "E", patterns=["清一色"])],
     d(12, -4, -4, -4), "E"),
    ("CS5", "changsha", ["birds=0"], [win("discard", "S", "W", patterns=["清一色", "碰碰胡"])],
     d(s=12, w=-12), "S"),
    ("CS8", "changsha", ["birds=0"], [{"type": "starting_win", "seat": "S", "kinds": ["板板胡"]}],
     d(-2, 4, -1, -1), None),
    ("CS9", "changsha", ["birds=0"], [multi("discard", "E", {"seat": "S"},
                                            {"seat": "N", "patterns": ["七小对"]})],
     d(e=-9, s=2, n=7), "E"),
    # Preset feibao (jing_bonus off unless 精 is named)
    ("F1", "feibao", ["jing_bonus=false"], [win("self_draw", "S", patterns=["平和"],
                                                wild_used=True)], d(-2, 6, -2, -2), "S"),
    ("F3", "feibao", ["jing_bonus=false"], [win("self_draw", "S", patterns=["七对"],
                                                wild_used=False)], d(-10, 30, -10, -10), "S"),
    ("F8", "feibao", ["jing_bonus=false"], [win("self_draw", "S", patterns=["清一色", "平和"],
                                                wild_used=True)], d(-8, 24, -8, -8), "S"),
    ("F10", "feibao", ["jing_bonus=false"], [win("rob_kong", "W", "S", patterns=["平和"],
                                                 wild_used=True)], d(s=-12, w=12), "S"),
]


@pytest.mark.parametrize(
    ("case", "preset", "overrides", "events", "expected", "dealer"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_golden(case: str, preset: str, overrides: list[str], events: list[dict[str, Any]],
                expected: dict[str, int], dealer: str | None) -> None:
    result = settle_hand(ruleset(preset, overrides), parse_report({"events": events}))
    assert result.deltas == expected
    assert sum(result.deltas.values()) == 0
    if dealer is not None:
        assert result.next_dealer == dealer
    assert any(line.code == "pay" for line in result.lines) or not any(expected.values())


def test_Y11_discarder_deals_next_in_blood_battle() -> None:
    rules = ruleset("yibin")
    events = [multi("discard", "E", {"seat": "S", "patterns": ["无听用"]},
                    {"seat": "W", "patterns": ["大对子"]}),
              win("self_draw", "N", patterns=["平胡"])]
    result = settle_hand(rules, parse_report({"events": events}))
    assert not result.open and result.next_dealer == "E"


def test_Y12_tingyong_either_side_of_benjin_wrapping() -> None:
    assert tingyong_kinds(parse("9m")[0]) == tuple(sorted(parse("8m 1m")))
    assert tingyong_kinds(parse("1s")[0]) == tuple(sorted(parse("9s 2s")))
    assert tingyong_kinds(parse("3m")[0]) == tuple(sorted(parse("2m 4m")))
    assert tingyong_kinds(parse("1p")[0]) == tuple(sorted(parse("2p 9p")))


def test_F12_jing_reward_only() -> None:
    assert jing_kinds(parse("3m")[0]) == (parse("3m")[0], parse("4m")[0])
    rules = ruleset("feibao")
    events = [win("self_draw", "S", patterns=["平和"], wild_used=True)]
    events[0]["jing"] = {"E": [1, 1], "W": [0, 2], "S": [0, 0], "N": [0, 0]}
    result = settle_hand(rules, parse_report({"events": events}))
    jing = d()
    for line in result.lines:
        if line.code == "pay" and line.params["reason"] == "jing":
            jing[str(line.params["payer"])] -= int(line.params["amount"])
            jing[str(line.params["payee"])] += int(line.params["amount"])
    assert jing == d(e=7, s=-5, w=3, n=-5)


def test_F16_chongguan_values() -> None:
    assert [chongguan(s) for s in (4, 5, 6, 7, 8, 9, 10)] == [4, 10, 18, 28, 40, 54, 70]


def golden_case_names() -> set[str]:
    """The numbers of the golden cases written in docs/rules/*.md (``- C5. ...``, or a
    table row ``| T1 | ...``)."""
    named: set[str] = set()
    for path in RULES.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        named |= set(re.findall(r"^- ([A-Z]{1,2}\d+)\.", text, re.M))
        named |= set(re.findall(r"^\| ([A-Z]{1,2}\d+) \|", text, re.M))
    return named


TESTED = {c[0] for c in CASES} | {"Y12", "F12", "F16"} | THREE_TESTED | SINGAPORE_TESTED \
    | MCR_TESTED | HONGKONG_TESTED


def test_every_golden_case_in_the_rules_files_has_a_test() -> None:
    assert RULES.is_dir(), f"the rules folder is missing: {RULES}"
    named = golden_case_names()
    assert named, f"no golden cases found in {RULES}"
    assert named <= TESTED, f"golden cases without a test: {sorted(named - TESTED)}"


def test_every_tested_case_is_written_in_the_rules_files() -> None:
    written = golden_case_names()
    # A variant of a case (C5-a, T12b) is tested under the case's own number.
    stray = {name for name in TESTED
             if re.match(r"[A-Z]{1,2}\d+", name).group() not in written}  # type: ignore[union-attr]
    assert not stray, f"tests of golden cases that docs/rules/ does not list: {sorted(stray)}"


def test_the_check_fails_without_the_rules_or_with_an_untested_case(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "RULES", tmp_path / "missing")
    with pytest.raises(AssertionError, match="missing"):
        test_every_golden_case_in_the_rules_files_has_a_test()
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "x.md").write_text("- C1. S wins.\n- Z9. A new case.\n",
                                             encoding="utf-8")
    monkeypatch.setattr(module, "RULES", tmp_path / "rules")
    with pytest.raises(AssertionError, match="Z9"):
        test_every_golden_case_in_the_rules_files_has_a_test()
