"""Drafts in progress when the bot is upgraded carry on: the JSON the guided dialog wrote
before its drafts were typed (captured in ``guided_drafts.json``) loads into the typed
drafts, dumps back unchanged, takes each press as before, and records the same events."""

from __future__ import annotations

import json
from contextlib import AsyncExitStack
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.dialogs import guided_state, guided_steps
from bot.dialogs.guided_state import DrawDraft, HuDraft, KongDraft
from bot.dialogs.guided_steps import Record, Table
from bot.dialogs.keyboards import draft_data
from engine.rules import Ruleset
from engine.settle import parse_report
from tests.bot.guided_play import find_button
from tests.bot.harness import table
from tests.databases import BACKENDS, postgres_database

CAPTURED: dict[str, Any] = json.loads(
    (Path(__file__).parent / "guided_drafts.json").read_text(encoding="utf-8"))
PRESSES: list[dict[str, Any]] = CAPTURED["presses"]
RECORDS: list[dict[str, Any]] = CAPTURED["records"]


def _drafts() -> list[tuple[str, dict[str, Any]]]:
    seen = [(p["kind"], p[key]) for p in PRESSES for key in ("before", "after")]
    return seen + [(r["kind"], r["draft"]) for r in RECORDS]


def test_the_capture_covers_every_kind_and_step() -> None:
    kinds = {kind for kind, _ in _drafts()}
    assert kinds == {"hu", "kong", "draw"}
    steps = {data["view"] for kind, data in _drafts() if kind == "hu"}
    assert steps >= {"start", "how", "from", "add", "main", "more", "jing", "feeder",
                     "fourth", "ind", "indr"}
    assert any("edit" in data for _, data in _drafts())
    assert any("suit" in data for _, data in _drafts())
    assert len(PRESSES) > 150 and len(RECORDS) > 50


@pytest.mark.parametrize("index", range(len(_drafts())))
def test_a_stored_draft_loads_and_dumps_unchanged(index: int) -> None:
    kind, data = _drafts()[index]
    draft = guided_state.load(kind, data)
    assert isinstance(draft, {"hu": HuDraft, "kong": KongDraft, "draw": DrawDraft}[kind])
    assert guided_state.kind_of(draft) == kind
    assert guided_state.dump(draft) == data
    assert json.loads(json.dumps(guided_state.dump(draft))) == data  # JSON, as stored


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_a_stored_draft_records_the_same_event(index: int) -> None:
    record = RECORDS[index]
    draft = guided_state.load(record["kind"], record["draft"])
    if isinstance(draft, HuDraft):
        assert draft.event() == (record["event"], record["indicator"])
    else:
        assert draft.event() == record["event"]


def test_new_drafts_have_the_stored_shape() -> None:
    fresh = guided_state.dump(guided_state.new_hu(("S",), {"W": 2}, "W"))
    assert fresh == {
        "view": "how", "how": None, "from": None, "birds": [], "loser_feibao": {},
        "jing": {}, "robbed_kongs": 1, "indicator": None, "page": 0, "cur": 0,
        "recent": ["S"], "hint_kongs": {"W": 2},
        "winners": [{"seat": "W", "patterns": [], "gen": 0, "kongs": 2, "wild_used": None,
                     "feibao": 0, "kong_chain": 0, "feeder": None, "fourth_feeder": None}]}
    assert guided_state.dump(guided_state.new_hu(edit=(2, 0)))["edit"] == [2, 0]
    assert guided_state.dump(guided_state.KongDraft()) == {"seat": None, "kind": None,
                                                            "from": None}
    assert guided_state.dump(guided_state.new_draw(("E", "N"))) == {
        "players": {"E": {"state": "no", "fan": 1}, "N": {"state": "no", "fan": 1}}}


def test_what_is_not_a_draft_is_refused() -> None:
    for kind, data in (("hu", {"view": "nowhere"}), ("hu", {"winners": [{"seat": "X"}]}),
                       ("kong", {"kind": "hidden"}), ("draw", {"players": {"E": {"fan": "x"}}})):
        with pytest.raises(ValueError):
            guided_state.load(kind, data)


def _table(press: dict[str, Any]) -> Table:
    rules = Ruleset.from_snapshot(CAPTURED["rules"][press["preset"]])
    night = SimpleNamespace(rules=CAPTURED["rules"][press["preset"]],
                              seats=dict.fromkeys(press["seats"]),
                              still_in=tuple(press["still_in"]))
    table = Table.of(night)  # type: ignore[arg-type]  # only what Table.of reads
    assert table.offer.family == rules.family
    return table


@pytest.mark.parametrize("index", range(len(PRESSES)))
def test_a_stored_draft_takes_a_press_as_before(index: int) -> None:
    """Each press of the capture, on the draft as the old dialog stored it, makes the
    draft the old dialog stored next (or records it, where the old one recorded)."""
    press = PRESSES[index]
    draft = guided_state.load(press["kind"], press["before"])
    out = guided_steps.press(_table(press), draft, press["action"], press["arg"])
    assert out is not None
    after = press["after"]
    kong_done = press["kind"] == "kong" and after["kind"] is not None and (
        after["kind"] != "direct" or after["from"] is not None)
    assert isinstance(out, Record) == (press["action"] == "yb" or kong_done)
    after = out.draft if isinstance(out, Record) else out
    assert guided_state.dump(after) == press["after"]


def _resumable(kind: str, action: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """A captured press that fits a fresh four-player chengdu table (a win there, a kong
    at any four seats), and the record the old dialog made of the draft that press left."""
    for press in PRESSES:
        fits = press["preset"] == "chengdu" and len(press["still_in"]) == 4 \
            if kind == "hu" else len(press["seats"]) == 4
        if fits and press["kind"] == kind and press["action"] == action \
                and "edit" not in press["before"]:
            record = next((r for r in RECORDS if r["draft"] == press["after"]), None)
            if record is not None:
                return press, record
    raise AssertionError(f"no {kind} press {action} in the capture")


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("kind", "action", "finish"), [("hu", "p", "✅ Record"),
                                                         ("kong", "kf", None)])
async def test_a_draft_left_by_the_old_dialog_is_recorded_as_it_would_have_been(
        tmp_path: Path, backend: str, kind: str, action: str, finish: str | None) -> None:
    """The bot upgraded mid-report: the draft as the old dialog stored it takes the next
    press, is stored back in the old shape, and records the hand the old dialog recorded."""
    press, record = _resumable(kind, action)
    async with AsyncExitStack() as stack:
        url = await stack.enter_async_context(postgres_database("drafts")) \
            if backend == "postgres" else None
        t = await stack.enter_async_context(table(tmp_path, url=url))
        await t.say("alice", "/new chengdu @alice @bob @carol @dave")
        await t.say("bob", f"/{kind}")
        msg = t.last_with_buttons()
        draft_id = int(msg.buttons[0]["callback_data"].split(":")[2])
        drafts = t.ledger.drafts
        version = await drafts.update(t.chat_id, draft_id, 1, press["before"])
        assert version == 2
        await t.press("bob", msg, draft_data(draft_id, version, action, press["arg"]))
        if finish is not None:
            stored = await drafts.get(t.chat_id, draft_id)
            assert stored is not None and stored[2] == press["after"]  # the old shape
            msg = t.last_with_buttons()
            await t.press("bob", msg, find_button(msg, finish)["callback_data"])
        assert await drafts.get(t.chat_id, draft_id) is None  # recorded: the draft is gone
        assert not [a for a in t.api.answered.values() if a.get("show_alert")]
        report, _result = await t.ledger.nights.hand(t.chat_id, 1)
        event = {**record["event"], **({"indicator": record["indicator"]}
                                       if record.get("indicator") else {})}
        assert parse_report({"events": [report["events"][-1]]}) == \
            parse_report({"events": [event]})
        assert t.api.errors == []
