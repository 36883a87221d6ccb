"""Drafts in progress when the bot is upgraded carry on: the JSON the guided dialog wrote
before its drafts were typed (captured in ``guided_drafts.json``) loads into the typed
drafts, dumps back unchanged, and records the same events."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.dialogs import guided_state
from bot.dialogs.guided_state import DrawDraft, HuDraft, KongDraft

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
