"""A refusal repeats a player's input clipped, and gives the code's own lists whole."""

from __future__ import annotations

from engine.errors import ECHO, ReportError
from engine.rules import options_model, ruleset


def test_input_is_clipped_and_lists_are_whole() -> None:
    exc = ReportError("unknown_option", "m", option="x" * 100, valid="a, " * 40 + "z")
    assert len(str(exc.params["option"])) == ECHO and str(exc.params["option"]).endswith("…")
    assert str(exc.params["valid"]).endswith(", z")


def test_an_unknown_option_names_every_option_of_the_family() -> None:
    try:
        ruleset("chengdu", {"birds": 2})
    except ReportError as exc:
        assert str(exc.params["valid"]).split(", ") == list(
            options_model("sichuan").model_fields)
    else:
        raise AssertionError("birds is not a Sichuan option")
