"""Singapore's own parts of the Mini App's entry form. The instant payouts besides kongs: a
bite (cat and rat, rooster and centipede, the seat flower and season; hidden, paid double;
from every other player or charged to one) or a complete set (four flowers, four seasons,
all four animals), written as the chat's ``/bite`` (``/yao`` in Chinese) and read by its
grammar (:func:`bot.dialogs.bonus_grammar.parse_bite`). And a win's 包: the liable player,
who pays for all, said after the win as the chat says it (``bao carol``, ``包 carol``)."""

from __future__ import annotations

from collections.abc import Callable

from bot.dialogs.guided_steps import facts_of
from bot.text.answer import INSTANT
from bot.text.i18n import is_chinese, t
from bot.webapp.form import Form
from storage.models import NightInfo

Who = Callable[[NightInfo, str], str]  # a seat as a report names it
Refuse = Callable[[str], Exception]  # the form's error, in the user's words
Compact = Callable[[list[str]], str]  # tiles as the report's words

# What the form sends: a bite's pair, or ``set_`` and the set.
BITES = ("cat_rat", "rooster_centipede", "seat_flowers")
SETS = ("set_flowers", "set_seasons", "set_animals")
# The words /bite reads for each, in English and in Chinese (the grammar's own words).
WORDS = {
    "en": {"cat_rat": "cat rat", "rooster_centipede": "rooster centipede",
           "seat_flowers": "seat flower", "set_flowers": "set flowers",
           "set_seasons": "set seasons", "set_animals": "set animals",
           "hidden": "hidden", "from": "from"},
    "zh": {"cat_rat": "猫 鼠", "rooster_centipede": "鸡 蜈蚣", "seat_flowers": "本花",
           "set_flowers": "齐 花", "set_seasons": "齐 季", "set_animals": "齐 动物",
           "hidden": "暗", "from": "from"},
}


def offered(night: NightInfo) -> list[str]:
    """The bites and sets a player may report at this table, as the form sends them."""
    facts = facts_of(night)
    return [*facts.bites, *("set_" + k for k in facts.sets)]


def labels(lang: str, night: NightInfo) -> list[dict[str, str]]:
    """Each bite or set the table pays at once, with its name (the answer's own words)."""
    return [{"bite": k, "label": t(lang, INSTANT[k if k.startswith("set_") else "bite_" + k])}
            for k in offered(night)]


def bite_text(lang: str, night: NightInfo, form: Form,
              who: Who, refuse: Refuse) -> str:
    """``/bite bob cat rat hidden from carol``, ``/yao bob 齐 花``: the chat's command.
    ``who`` names a seat as the report does; ``refuse`` makes the form's error."""
    if not offered(night):
        raise refuse(t(lang, "Bites and sets are paid at once only at Singapore tables "
                             "with instant payouts."))
    if form.winner not in night.seats:
        raise refuse(t(lang, "Choose who bit, or completed a set."))
    if form.bite is None or form.bite not in offered(night):
        raise refuse(t(lang, "Choose the bite or the set."))
    words = WORDS["zh" if is_chinese(lang) else "en"]
    parts = ["/yao" if is_chinese(lang) else "/bite", who(night, form.winner),
             words[form.bite]]
    if form.bite in SETS:
        return " ".join(parts)  # a set is paid by every other player, never hidden
    if form.hidden:
        parts.append(words["hidden"])
    if form.from_seat is not None:
        if form.from_seat == form.winner or form.from_seat not in night.seats:
            raise refuse(t(lang, "Choose who pays the bite."))
        parts += [words["from"], who(night, form.from_seat)]
    return " ".join(parts)


def liable_words(lang: str, night: NightInfo, form: Form, who: Who, refuse: Refuse
                 ) -> list[str]:
    """A Singapore win's 包 (``bao carol``, ``包 carol``): the liable player pays what all
    three would have paid, on a self-draw or off a discard; another player than the winner,
    at the table."""
    if form.feeder is None:
        return []
    if form.feeder == form.winner or form.feeder not in night.seats:
        raise refuse(t(lang, "包: choose another player than the winner, who pays for all."))
    return ["包" if is_chinese(lang) else "bao", who(night, form.feeder)]
