"""Money replies stay short whatever the chat's size, and bounded numbers read right."""

from __future__ import annotations

import re

import pytest

from bot.dialogs import numbers
from bot.dialogs.grammar import GrammarError
from bot.text import render_money
from storage.models import PlayerInfo
from storage.services.money import MoneyStanding, PairBalance, SettlePlan, SettleTransfer


def _p(i: int) -> PlayerInfo:
    return PlayerInfo(id=i, name=f"player_with_a_long_name_{i:03d}" + "字" * 30)


@pytest.mark.parametrize("lang", ["en", "zh-Hans"])
def test_long_lists_fit_in_one_message(lang: str) -> None:
    balances = [PairBalance(handle=10**8 + i, payer=_p(i), payee=_p(i + 1),
                            cents=10**12, debt_ids=tuple(range(10**8, 10**8 + 20)))
                for i in range(500)]
    standings = [MoneyStanding(player=_p(i), cents=-10**12,
                               points=((1, 10**9), (2, -10**9), (0, 5)),
                               hands=10**6, wins=10**5) for i in range(500)]
    plan = SettlePlan(transfers=tuple(SettleTransfer(payer=_p(i), payee=_p(0), cents=10**12)
                                      for i in range(1, 500)),
                      parties=tuple(_p(i) for i in range(500)), debts=10**6, token="0" * 12)
    for text in (render_money.balances_text(lang, balances),
                 render_money.standings_text(lang, standings, 30),
                 render_money.settle_plan_text(lang, plan)):
        assert len(text) < 4096
        assert re.search(r"(and|还有) 4\d\d (more lines|行)", text), text[-200:]


@pytest.mark.parametrize(("text", "cents"), [("5", 500), ("2.5", 250), ("2.50", 250),
                                              ("¥3", 300), ("3元", 300), ("０.５", 50),
                                              ("9" * 13, numbers.TOO_MUCH)])
def test_amounts(text: str, cents: int) -> None:
    assert numbers.cents(text) == cents


@pytest.mark.parametrize(("text", "code"), [("abc", "amount_usage"), ("²", "amount_usage"),
                                             ("1.234", "amount_usage"), ("1.", "amount_usage"),
                                             ("0", "amount_zero"), ("0.00", "amount_zero"),
                                             ("-3", "amount_negative"), ("", "amount_usage"),
                                             ("٣", "amount_usage"), ("1e3", "amount_usage")])
def test_bad_amounts(text: str, code: str) -> None:
    with pytest.raises(GrammarError) as exc:
        numbers.cents(text)
    assert exc.value.code == code


def test_counts_days_and_nights() -> None:
    assert numbers.count("#12", 100) == 12 and numbers.count("３", 100) == 3
    assert numbers.count("²", 100) is None and numbers.count("0", 100) is None
    assert numbers.count("101", 100) is None and numbers.count("9" * 30, 100) is None
    assert numbers.days("30d") == 30 and numbers.days("7天") == 7
    assert numbers.days("3651") is None and numbers.days("x") is None
    assert numbers.night("hello") is None
    assert str(numbers.night("2026-11-20")) == "2026-11-20"
    with pytest.raises(GrammarError):
        numbers.night("2026-02-30")
    with pytest.raises(GrammarError):
        numbers.night("2026-11-20/0")
