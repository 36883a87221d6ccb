"""A table whose points are cents of its own money (Singapore's stake tables, Hong Kong's
share table), through the handlers on both backends: every reply that looks back (/history,
/hand, /stats), the night's end, /standings, /debts, the settle-up card and the charts say
money only, in the table's terms, never points beside it ("+480", "at 0.01", "a point")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from matplotlib.text import Text

from tests.bot.harness import plain
from tests.bot.layout import kept_figures
from tests.databases import BACKENDS
from tests.handlers.harness import HandlerTable, handler_table_on

# A whole number of points with a sign where money (+4.80) belongs: "+480", "-160".
RAW = re.compile(r"(?<![\d.])[+-]\d+(?![\d.])")


async def _texts(t: HandlerTable, who: str, command: str) -> str:
    return "\n".join(plain(m.text) for m in await t.say(who, command))


def _no_points(text: str) -> None:
    assert not RAW.findall(text), text
    assert " at 0.01" not in text and "a point" not in text and "point" not in text, text


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_singapore_night_is_money_everywhere(tmp_path: Path, backend: str,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    figures = kept_figures(monkeypatch)
    async with handler_table_on(backend, tmp_path, "en", "sg_money") as t:
        await t.say("alice", "/new sg @alice @bob @carol @dave")
        await t.say("bob", "/hu bob from carol 1 tai")  # 0.80 from carol
        await t.say("dave", "/hu dave zimo 3台")  # 1.60 from each
        await t.say("bob", "/kong bob 暗杠")  # 0.40 from each, the hand plays on
        history = await _texts(t, "alice", "/history")
        assert "#2: alice -1.60  bob -1.60  carol -1.60  dave +4.80" in history, history
        assert "#1: bob +0.80  carol -0.80" in history, history
        _no_points(history)
        hand = await _texts(t, "alice", "/hand 2")
        assert "This event: alice -1.60  bob -1.60  carol -1.60  dave +4.80" in hand, hand
        assert "3 tai on the 20/40 table: base 0.80, zimo 1.60" in hand, hand
        _no_points(hand)
        stats = await _texts(t, "alice", "/stats dave")
        assert "Net: +4.40." in stats and "Best hand: 4.80, hand 2" in stats, stats
        assert "#2: +4.80 (self-draw)" in stats, stats
        _no_points(stats)
        await t.say("alice", "/end")
        msg = t.last_with_buttons()
        hit = next(b for b in msg.buttons if b["text"] == "End the night here")
        end = "\n".join(plain(m.text) for m in await t.press("alice", msg,
                                                             hit["callback_data"]))
        assert "dave: +4.40" in end and "carol → dave: 2.80" in end, end
        assert "Biggest hand: dave, 4.80 (hand 2)." in end, end
        _no_points(end)
        standings = await _texts(t, "alice", "/standings")
        assert standings.startswith("Standings, in money:"), standings
        assert "1. dave: +4.40 · hands 3 · wins 1" in standings, standings
        _no_points(standings)
        debts = await _texts(t, "alice", "/debts")
        assert "carol → dave: 2.80" in debts, debts
        _no_points(debts)
        await t.say("alice", "/standings chart")
    chart, card, over_nights = ([x.get_text() for x in fig.findobj(Text)] for fig in figures)
    # The night's chart: money on its axis, in its legend and at the biggest hand.
    assert "Money" in chart and "Points" not in chart, chart
    assert "dave +4.40" in chart and "dave +4.80" in chart, chart  # legend, the star
    # The card: the stake table by name, money alone, the biggest hand in money.
    assert any("stake table 20/40" in x for x in card), card
    assert not any("a point" in x or "in dollars" in x for x in card), card
    assert "dave: +4.80 (hand 2)" in card, card
    assert not any(x.endswith((" point", " points")) for x in card), card
    assert "Money" in over_nights and "dave +4.40" in over_nights, over_nights


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_hong_kong_night_is_money_everywhere(tmp_path: Path, backend: str) -> None:
    async with handler_table_on(backend, tmp_path, "en", "hk_money") as t:
        await t.say("alice", "/new hk @alice @bob @carol @dave")
        await t.say("bob", "/hu bob from carol 3番")  # 半銃: carol 4.00, the others 2.00
        await t.say("dave", "/hu dave zimo 4番")  # 8.00 from each
        history = await _texts(t, "alice", "/history")
        assert "#1: alice -2.00  bob +8.00  carol -4.00  dave -2.00" in history, history
        _no_points(history)
        hand = await _texts(t, "alice", "/hand 1")
        assert "This event: alice -2.00  bob +8.00  carol -4.00  dave -2.00" in hand, hand
        _no_points(hand)
        # Only the discarder dealt in (半銃: the others pay a share too); the biggest hand
        # is a win's take, in money.
        carol = await _texts(t, "alice", "/stats carol")
        assert "dealt in once (50%)" in carol, carol
        dave = await _texts(t, "alice", "/stats dave")
        assert "never dealt in" in dave and "Best hand: 24.00, hand 2" in dave, dave
        _no_points(dave)
        end = await _texts(t, "alice", "/end")
        assert "Biggest hand: dave, 24.00 (hand 2)." in end, end
        _no_points(end)


async def test_a_singapore_chat_names_its_stake_table(tmp_path: Path) -> None:
    """/set stake takes a stake table by name; /rules names the option as Singapore's
    (not Hong Kong's tier), shows no point value, and gives a stake table as its example."""
    async with handler_table_on("sqlite", tmp_path) as t:
        t.admin("alice")
        await t.say("alice", "/set preset singapore")
        said = await _texts(t, "alice", "/set stake 10/20")
        assert "(stake=10/20)" in said and "per point" not in said, said
        rules = await _texts(t, "alice", "/rules")
        assert "Stake table 10/20 (base / zimo per tai):" in rules, rules
        assert "  1 tai: 0.10 / 0.20" in rules, rules
        assert "Stake table (10/20, 20/40, 50/1, 1/2, 3-6, 3-6-half, custom) (stake): 10/20" \
            in rules, rules
        assert "Stake tier" not in rules and "Points per unit" not in rules, rules
        assert "e.g. /set cap_tai 6, /set stake 10/20." in rules, rules
        # At a night going, a stake per point is refused in the table's own words.
        await t.say("alice", "/new @alice @bob @carol @dave")
        said = await _texts(t, "alice", "/set stake 0.5")
        assert "A Singapore table pays from its stake table, not by a stake per point" \
            in said and "Hong Kong" not in said, said
        said = await _texts(t, "alice", "/set cap_tai=6")
        assert "(stake=10/20, cap_tai=6)" in said and "per point" not in said, said
