"""/penalty's words: a false win (诈胡, 相公, MCR's 错和), or a foul an MCR referee fines
with the points the offender pays each other player."""

from __future__ import annotations

import pytest

from bot.dialogs.grammar import GrammarError, Token, seat_resolver
from bot.dialogs.night_grammar import parse_penalty

RESOLVE = seat_resolver({"alice": "E", "bob": "S", "carol": "W", "dave": "N"}, {})


def toks(text: str) -> list[Token]:
    return [Token(w) for w in text.split()]


@pytest.mark.parametrize(("text", "event"), [
    ("dave 诈胡", {"seat": "N", "kind": "false_win"}),
    ("错和 dave", {"seat": "N", "kind": "false_win"}),
    ("dave 錯和", {"seat": "N", "kind": "false_win"}),  # either script
    ("dave", {"seat": "N", "kind": "false_win"}),
    ("dave 错碰 5", {"seat": "N", "kind": "wrong_pung", "points": 5}),
    ("10 錯吃 bob", {"seat": "S", "kind": "wrong_chow", "points": 10}),
    ("alice 超时 +2", {"seat": "E", "kind": "slow_play", "points": 2}),
    ("carol 亮牌 1", {"seat": "W", "kind": "shown_tiles", "points": 1}),
    ("carol 错杠 3", {"seat": "W", "kind": "wrong_kong", "points": 3}),
    ("carol foul 20", {"seat": "W", "kind": "foul", "points": 20}),
])
def test_a_penalty_as_typed(text: str, event: dict[str, object]) -> None:
    assert parse_penalty(toks(text), RESOLVE) == {"type": "penalty", **event}


@pytest.mark.parametrize(("text", "code"), [
    ("dave 错碰", "penalty_fine_points"),
    ("dave 诈胡 5", "penalty_false_win_points"),
    ("dave 错碰 0", "penalty_fine_range"),
    ("dave 错碰 -5", "penalty_fine_range"),
    ("dave 错碰 99999999999", "penalty_fine_range"),
    ("dave 错碰 超时 5", "penalty_usage"),
    ("dave 错碰 5 6", "penalty_usage"),
    ("dave bob 错碰 5", "penalty_usage"),
    ("zed 错碰 5", "penalty_no_player"),
])
def test_a_penalty_said_wrong_is_refused(text: str, code: str) -> None:
    with pytest.raises(GrammarError) as err:
        parse_penalty(toks(text), RESOLVE)
    assert err.value.code == code
