"""``python -m bot.text.i18n_extract``: refresh ``bot/text/locales/tally.pot`` and merge it
into every language's ``tally.po``, keeping existing translations; then make the zh-Hant
catalog from the zh-Hans one (:mod:`bot.text.i18n_hant`).

Babel extracts ``t(lang, "...")`` calls from ``bot/``; message tables used dynamically
(settlement lines, refusals, labels) are added from their definitions.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.text import i18n_hant
from bot.text.answer import EACH, INSTANT, ONE_POINT, SHORT
from bot.text.errors_text import FIELD_OTHER, FIELDS, HU_EXAMPLE, HU_EXAMPLES, MESSAGES, OR
from bot.text.help_text import (
    BANNER,
    CONSOLE_GOING,
    CONSOLE_NEW,
    FORMS,
    HELP,
    HELP_NIGHT,
    HELP_SINGAPORE,
    HOW_LABELS,
    NOTHING_RECORDED,
)
from bot.text.i18n import LANGUAGES, LOCALES
from bot.text.menus import GROUP_COMMANDS
from bot.text.words import dynamic_msgids
from engine.explain import HONGKONG_TEMPLATES, TEMPLATES

REASONS = ["win", "kong", "kong_void", "hujiao_zhuanyi", "huazhu", "chajiao", "tuishui",
           "kong_points", "jing", "chengbao", "starting_win"]


def template() -> Catalog:
    cat = Catalog(project="mahjong-tally", charset="utf-8")
    root = Path(__file__).resolve().parents[1]  # the whole bot package
    keywords = {"t": (2,), "ui": (3,), "pt": ((2, "c"), 3), "nt": (2, 3), "nui": (3, 4)}
    for filename, lineno, message, _comments, context in extract_from_dir(
            str(root), method_map=[("**.py", "python")], keywords=keywords):
        if isinstance(message, str) or (isinstance(message, tuple)
                                        and all(isinstance(m, str) for m in message)):
            cat.add(message, locations=[(f"bot/{filename}", lineno)], context=context)
    dynamic = [HELP, HELP_NIGHT, BANNER, CONSOLE_NEW, CONSOLE_GOING, *TEMPLATES.values(),
               HELP_SINGAPORE,
               *HONGKONG_TEMPLATES.values(),
               *MESSAGES.values(),
               *HOW_LABELS.values(), NOTHING_RECORDED,
               *(d for _, d in GROUP_COMMANDS), *REASONS, *dynamic_msgids(),
               *(s for s in SHORT.values() if s), *FIELDS.values(), FIELD_OTHER, OR,
               *FORMS.values(), *INSTANT.values(), EACH, HU_EXAMPLE, *HU_EXAMPLES.values()]
    for text in dynamic:
        if text not in cat:
            cat.add(text, auto_comments=["dynamic"])
    for plural, singular in ONE_POINT.items():  # counted: "1 point", "2 points"
        cat.add((singular, plural), auto_comments=["dynamic"])
    return cat


def main() -> None:
    pot = template()
    with (LOCALES / "tally.pot").open("wb") as fh:
        write_po(fh, pot, width=100)
    for lang, folder in LANGUAGES.items():
        if lang == "zh-Hant":
            continue  # made from zh-Hans below, never merged by hand
        path = LOCALES / folder / "LC_MESSAGES" / "tally.po"
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            with path.open("rb") as fh:
                cat = read_po(fh, locale=folder)
        else:
            cat = Catalog(locale=folder, project="mahjong-tally", charset="utf-8")
        cat.update(pot, no_fuzzy_matching=True)
        cat.obsolete.clear()
        with path.open("wb") as fh:
            write_po(fh, cat, width=100, omit_header=False)
        print(f"{lang}: {len(cat)} messages, "
              f"{sum(1 for m in cat if m.id and translated(m.string))} translated")
    i18n_hant.write()


def translated(string: object) -> bool:
    """Whether a message has its text (every form of a plural one)."""
    return all(string) if isinstance(string, tuple | list) else bool(string)


if __name__ == "__main__":
    main()
