"""The guided reports' transitions without Telegram: a table of draft, press and the draft
that follows (or a refusal, or the press that records)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.dialogs import guided_state
from bot.dialogs.guided_state import Draft, HuDraft
from bot.dialogs.guided_steps import Record, Table, press
from engine.offer import offer
from engine.rules import ruleset

FOUR = ("E", "S", "W", "N")


def table(preset: str, inside: tuple[str, ...] = FOUR) -> Table:
    return Table(offer(ruleset(preset)), FOUR, inside)


CHENGDU, CHANGSHA, FEIBAO = table("chengdu"), table("changsha"), table("feibao")
BLOOD = table("chengdu", ("E", "W", "N"))  # S has won this hand


def hu(step: str = "start", *winners: str | dict[str, Any], **fields: Any) -> HuDraft:
    """A /hu draft at ``step`` with ``winners`` (seats, or dicts of a winner's fields)."""
    hands = [{"seat": w} if isinstance(w, str) else w for w in winners]
    return HuDraft.model_validate({"view": step, "winners": hands, **fields})


def won(step: str, seat: str, how: str, source: str | None = None, **fields: Any) -> HuDraft:
    return hu(step, seat, how=how, **{"from": source}, **fields)


def w(seat: str, **fields: Any) -> dict[str, Any]:
    return {"seat": seat, **fields}


REFUSED = None
CHENGDU_PATTERNS = offer(ruleset("chengdu")).patterns
P0, P1 = CHENGDU_PATTERNS[0], CHENGDU_PATTERNS[1]

# (name, table, draft, action, arg, what follows: a draft, Record(draft), or REFUSED)
STEPS: list[tuple[str, Table, Draft, str, str | None, Draft | Record | None]] = [
    # who won, and how: one tap
    ("self-draw", CHENGDU, hu(), "ws", "S", won("main", "S", "self_draw")),
    ("off a discard", CHENGDU, hu(), "wd", "SE", won("main", "S", "discard", "E")),
    ("another way", CHENGDU, hu(), "wo", "S", hu("how", "S")),
    ("a winner already out", BLOOD, hu(), "ws", "S", REFUSED),
    ("off one's own discard", CHENGDU, hu(), "wd", "SS", REFUSED),
    ("not a seat", CHENGDU, hu(), "ws", "X", REFUSED),
    ("no discard wins at feibao", FEIBAO, hu(), "wd", "SE", REFUSED),
    ("the winner's kongs filled in", CHENGDU, hu(hint_kongs={"S": 2}), "ws", "S",
     won("main", "S", "self_draw", hint_kongs={"S": 2}).model_copy(
         update={"winners": (guided_state.Winner(seat="S", kongs=2),)})),
    ("not at this step", CHENGDU, won("main", "S", "self_draw"), "ws", "E", REFUSED),
    # how, then from whom
    ("robbed kong asks whose", CHENGDU, hu("how", "S"), "h", "2",
     won("from", "S", "rob_kong")),
    ("kong replacement", CHENGDU, hu("how", "S"), "h", "3",
     won("main", "S", "kong_replacement")),
    ("a way not offered", FEIBAO, hu("how", "S"), "h", "1", REFUSED),
    ("an index past the ways", CHENGDU, hu("how", "S"), "h", "9", REFUSED),
    ("off whose discard", CHENGDU, hu("how", "S"), "hd", "W", won("main", "S", "discard", "W")),
    ("off the winner's own discard", CHENGDU, hu("how", "S"), "hd", "S", REFUSED),
    ("whose kong", CHENGDU, won("from", "S", "rob_kong"), "f", "N",
     won("main", "S", "rob_kong", "N")),
    ("back to how", CHENGDU, won("main", "S", "self_draw"), "hw", None,
     won("how", "S", "self_draw")),
    ("self-draw drops the others",
     CHENGDU, hu("how", "S", "W", how="discard", cur=1, **{"from": "E"}), "h", "0",
     won("main", "S", "self_draw")),
    # more winners on one discard
    ("+ winner", CHENGDU, won("main", "S", "discard", "E"), "aw", None,
     won("add", "S", "discard", "E")),
    ("the second winner", CHENGDU, won("add", "S", "discard", "E"), "aw", "W",
     hu("main", "S", "W", how="discard", cur=1, **{"from": "E"})),
    ("the discarder cannot also win", CHENGDU, won("add", "S", "discard", "E"), "aw", "E",
     REFUSED),
    ("no + winner on a self-draw", CHENGDU, won("main", "S", "self_draw"), "aw", None, REFUSED),
    ("choose the winner", CHENGDU, hu("main", "S", "W", how="discard", cur=1, page=1,
                                      **{"from": "E"}), "cw", "0",
     hu("main", "S", "W", how="discard", **{"from": "E"})),
    # patterns and counts
    ("a pattern on", CHENGDU, won("main", "S", "self_draw"), "p", "0",
     hu("main", w("S", patterns=[P0]), how="self_draw")),
    ("a second pattern", CHENGDU, hu("main", w("S", patterns=[P0]), how="self_draw"), "p", "1",
     hu("main", w("S", patterns=[P0, P1]), how="self_draw")),
    ("a pattern off", CHENGDU, hu("main", w("S", patterns=[P0, P1]), how="self_draw"), "p",
     "0", hu("main", w("S", patterns=[P1]), how="self_draw")),
    ("a pattern past the offer", CHENGDU, won("main", "S", "self_draw"), "p", "99", REFUSED),
    ("next page", CHENGDU, won("main", "S", "self_draw"), "pg", "1",
     won("main", "S", "self_draw", page=1)),
    ("a page past the patterns", CHENGDU, won("main", "S", "self_draw"), "pg", "9", REFUSED),
    ("根 counts up", CHENGDU, hu("main", w("S", gen=3), how="self_draw"), "g", None,
     hu("main", w("S", gen=4), how="self_draw")),
    ("根 wraps to 0", CHENGDU, hu("main", w("S", gen=4), how="self_draw"), "g", None,
     won("main", "S", "self_draw")),
    ("kongs count up", CHENGDU, won("main", "S", "self_draw"), "k", None,
     hu("main", w("S", kongs=1), how="self_draw")),
    ("no 根 at changsha", CHANGSHA, won("main", "S", "self_draw"), "g", None, REFUSED),
    ("无宝", FEIBAO, won("main", "S", "self_draw"), "wu", None,
     hu("main", w("S", wild_used=False), how="self_draw")),
    ("有宝 again", FEIBAO, hu("main", w("S", wild_used=False), how="self_draw"), "wu", None,
     hu("main", w("S", wild_used=True), how="self_draw")),
    ("飞宝", FEIBAO, won("main", "S", "self_draw"), "fb", None,
     hu("main", w("S", feibao=1), how="self_draw")),
    ("no 飞宝 at chengdu", CHENGDU, won("main", "S", "self_draw"), "fb", None, REFUSED),
    # record
    ("record", CHENGDU, won("main", "S", "self_draw"), "y", None,
     Record(won("main", "S", "self_draw"))),
    ("record from how, once ready", CHENGDU, won("how", "S", "self_draw"), "y", None,
     Record(won("how", "S", "self_draw"))),
    ("not ready: whose kong unsaid", CHENGDU, won("from", "S", "rob_kong"), "y", None,
     REFUSED),
    ("record with the bird", CHANGSHA, won("main", "S", "self_draw"), "yb", "5",
     Record(won("main", "S", "self_draw", birds=[5]))),
    ("no bird rank 0", CHANGSHA, won("main", "S", "self_draw"), "yb", "0", REFUSED),
    ("one bird only at changsha", CHENGDU, won("main", "S", "self_draw"), "yb", "5", REFUSED),
    # more: the hand's other facts
    ("more at feibao", FEIBAO, won("main", "S", "self_draw"), "mo", None,
     won("more", "S", "self_draw")),
    ("nothing more at chengdu", CHENGDU, won("main", "S", "self_draw"), "mo", None, REFUSED),
    ("back from more", FEIBAO, won("more", "S", "self_draw"), "bk", None,
     won("main", "S", "self_draw")),
    ("back from jing to more", FEIBAO, won("jing", "S", "self_draw"), "bk", None,
     won("more", "S", "self_draw")),
    ("no back before ready", CHENGDU, hu("how", "S"), "bk", None, REFUSED),
    ("精 counts", FEIBAO, won("more", "S", "self_draw"), "jv", None,
     won("jing", "S", "self_draw")),
    ("正精", FEIBAO, won("jing", "S", "self_draw"), "jz", "E",
     won("jing", "S", "self_draw", jing={"E": [1, 0]})),
    ("副精 back to none", FEIBAO, won("jing", "S", "self_draw", jing={"E": [0, 4]}), "jf", "E",
     won("jing", "S", "self_draw")),
    ("a loser's 飞宝", FEIBAO, won("more", "S", "self_draw"), "lf", "W",
     won("more", "S", "self_draw", loser_feibao={"W": 1})),
    ("a winner is no loser", FEIBAO, won("more", "S", "self_draw"), "lf", "S", REFUSED),
    ("承包 asks who", FEIBAO, won("more", "S", "self_draw"), "cb", None,
     won("feeder", "S", "self_draw")),
    ("第四凑 needs 承包", FEIBAO, won("more", "S", "self_draw"), "fo", None, REFUSED),
    ("the feeder", FEIBAO, won("feeder", "S", "self_draw"), "fd", "E",
     hu("more", w("S", feeder="E"), how="self_draw")),
    ("the fourth feeder", FEIBAO, hu("fourth", w("S", feeder="E"), how="self_draw"), "ff", "W",
     hu("more", w("S", feeder="E", fourth_feeder="W"), how="self_draw")),
    ("no feeder drops the fourth",
     FEIBAO, hu("feeder", w("S", feeder="E", fourth_feeder="W"), how="self_draw"), "fd", "0",
     won("more", "S", "self_draw")),
    ("连杠", FEIBAO, won("more", "S", "kong_replacement"), "kc", None,
     hu("more", w("S", kong_chain=2), how="kong_replacement")),
    ("连抢", FEIBAO, won("more", "S", "rob_kong", "E"), "rk", None,
     won("more", "S", "rob_kong", "E", robbed_kongs=2)),
    ("连抢 only on a robbed kong", FEIBAO, won("more", "S", "self_draw"), "rk", None, REFUSED),
    # the turned-up tile
    ("精牌", FEIBAO, won("more", "S", "self_draw"), "in", None, won("ind", "S", "self_draw")),
    ("its suit", FEIBAO, won("ind", "S", "self_draw"), "is", "z",
     won("indr", "S", "self_draw", suit="z")),
    ("its rank", FEIBAO, won("indr", "S", "self_draw", suit="z"), "ir", "7",
     won("more", "S", "self_draw", suit="z", indicator="7z")),
    ("no 8z", FEIBAO, won("indr", "S", "self_draw", suit="z"), "ir", "8", REFUSED),
    ("honours only in Jiangxi", table("yibin"), won("ind", "S", "self_draw"), "is", "z",
     REFUSED),
    ("unknown press", CHENGDU, won("main", "S", "self_draw"), "zz", None, REFUSED),
]


@pytest.mark.parametrize(("name", "table_", "draft", "action", "arg", "then"), STEPS,
                         ids=[s[0] for s in STEPS])
def test_a_press_makes_the_next_draft(name: str, table_: Table, draft: Draft, action: str,
                                      arg: str | None, then: Draft | Record | None) -> None:
    out = press(table_, draft, action, arg)
    if isinstance(then, Record):
        assert isinstance(out, Record)
        assert guided_state.dump(out.draft) == guided_state.dump(then.draft)
    elif then is None:
        assert out is None
    else:
        assert not isinstance(out, Record) and out is not None
        assert guided_state.dump(out) == guided_state.dump(then)


def test_several_birds() -> None:
    twice = Table(replace(CHANGSHA.offer, birds=2), FOUR, FOUR)  # 扎鸟 two birds
    first = press(twice, won("more", "S", "self_draw"), "bd", "3")
    assert isinstance(first, HuDraft)
    draft = press(twice, first, "bd", "9")
    assert isinstance(draft, HuDraft) and draft.birds == (3, 9)
    assert press(twice, draft, "bd", "1") is None  # two birds drawn, no more
    assert press(twice, draft, "bc", None) == draft.model_copy(update={"birds": ()})


KONG = guided_state.KongDraft
DRAW = guided_state.new_draw(FOUR)


@pytest.mark.parametrize(("name", "table_", "draft", "action", "arg", "then"), [
    ("who", CHENGDU, KONG(), "ks", "S", KONG(seat="S")),
    ("concealed records", CHENGDU, KONG(seat="S"), "kk", "c",
     Record(KONG(seat="S", kind="concealed"))),
    ("direct asks whose", CHENGDU, KONG(seat="S"), "kk", "d", KONG(seat="S", kind="direct")),
    ("whose discard records", CHENGDU, KONG(seat="S", kind="direct"), "kf", "E",
     Record(KONG(seat="S", kind="direct", **{"from": "E"}))),
    ("not one's own", CHENGDU, KONG(seat="S", kind="direct"), "kf", "S", REFUSED),
    ("宝杠 only in Jiangxi", CHENGDU, KONG(seat="S"), "kk", "w", REFUSED),
    ("宝杠", FEIBAO, KONG(seat="S"), "kk", "w", Record(KONG(seat="S", kind="wild"))),
    ("a player out", BLOOD, KONG(), "ks", "S", REFUSED),
    ("ready", CHENGDU, DRAW, "ds", "E", guided_state.DrawDraft.model_validate(
        {"players": {"E": {"state": "ready"}, "S": {}, "W": {}, "N": {}}})),
    ("花猪", CHENGDU, guided_state.DrawDraft.model_validate(
        {"players": {"E": {"state": "ready"}}}), "ds", "E",
     guided_state.DrawDraft.model_validate({"players": {"E": {"state": "pig"}}})),
    ("a ready player's fan", CHENGDU, guided_state.DrawDraft.model_validate(
        {"players": {"E": {"state": "ready", "fan": CHENGDU.fan_top}}}), "dn", "E",
     guided_state.DrawDraft.model_validate({"players": {"E": {"state": "ready", "fan": 1}}})),
    ("no fan unless ready", CHENGDU, DRAW, "dn", "E", REFUSED),
    ("record the wall", CHANGSHA, DRAW, "y", None, Record(DRAW)),
    ("nobody's state at changsha", CHANGSHA, DRAW, "ds", "E", REFUSED),
    # the 听 screen: a state and a fan, each one tap on the button naming it
    ("听 in one tap", CHENGDU, DRAW, "dz", "E_ready", guided_state.DrawDraft.model_validate(
        {"players": {"E": {"state": "ready"}, "S": {}, "W": {}, "N": {}}})),
    ("花猪 in one tap", CHENGDU, DRAW, "dz", "W_pig", guided_state.DrawDraft.model_validate(
        {"players": {"E": {}, "S": {}, "W": {"state": "pig"}, "N": {}}})),
    ("back to 未听", CHENGDU, guided_state.DrawDraft.model_validate(
        {"players": {"E": {"state": "ready", "fan": 3}}}), "dz", "E_no",
     guided_state.DrawDraft.model_validate({"players": {"E": {"state": "no", "fan": 3}}})),
    ("a fan picked", CHENGDU, guided_state.DrawDraft.model_validate(
        {"players": {"E": {"state": "ready"}}}), "df", "E_3",
     guided_state.DrawDraft.model_validate({"players": {"E": {"state": "ready", "fan": 3}}})),
    ("no fan past the top", CHENGDU, guided_state.DrawDraft.model_validate(
        {"players": {"E": {"state": "ready"}}}), "df", f"E_{CHENGDU.fan_top + 1}", REFUSED),
    ("no picked fan unless ready", CHENGDU, DRAW, "df", "E_2", REFUSED),
    ("no state the table does not play", CHENGDU, DRAW, "dz", "E_maybe", REFUSED),
    ("no player not in", CHENGDU, DRAW, "dz", "X_ready", REFUSED),
    ("no state at changsha", CHANGSHA, DRAW, "dz", "E_ready", REFUSED),
], ids=lambda x: x if isinstance(x, str) else "")
def test_kong_and_draw_presses(name: str, table_: Table, draft: Draft, action: str,
                               arg: str | None, then: Draft | Record | None) -> None:
    assert press(table_, draft, action, arg) == then


def test_the_state_and_its_steps_know_no_telegram() -> None:
    """Transitions and drafts are plain Python: only the keyboards module draws buttons."""
    import ast
    from pathlib import Path

    for name in ("guided_state.py", "guided_steps.py"):
        path = Path(__file__).resolve().parents[2] / "bot" / "dialogs" / name
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
            a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not {m for m in modules if m.split(".")[0] == "telegram"}, name
        assert "bot.dialogs.guided_keyboards" not in modules, name
