"""``python -m bot.text.i18n_extract``: refresh ``bot/text/locales/tally.pot`` and merge it
into every language's ``tally.po``, keeping existing translations.

Babel extracts ``t(lang, "...")`` calls from ``bot/``; message tables used dynamically
(settlement lines, refusals, labels) are added from their definitions.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from bot.console.terminal import BANNER
from bot.delivery.dispatch import NOTHING_RECORDED
from bot.dialogs.guided_keyboards import HOW_LABELS
from bot.handlers.commands import FORMS, HELP, HELP_NIGHT
from bot.text.answer import SHORT
from bot.text.errors_text import FIELD_OTHER, FIELDS, MESSAGES, OR
from bot.text.i18n import LANGUAGES, LOCALES
from bot.text.menus import GROUP_COMMANDS
from bot.text.words import dynamic_msgids
from engine.explain import TEMPLATES

REASONS = ["win", "kong", "kong_void", "hujiao_zhuanyi", "huazhu", "chajiao", "tuishui",
           "kong_points", "jing", "chengbao", "starting_win"]


def template() -> Catalog:
    cat = Catalog(project="mahjong-tally", charset="utf-8")
    root = Path(__file__).resolve().parents[1]  # the whole bot package
    for filename, lineno, message, _comments, _ctx in extract_from_dir(
            str(root), method_map=[("**.py", "python")], keywords={"t": (2,), "ui": (3,)}):
        if isinstance(message, str):
            cat.add(message, locations=[(f"bot/{filename}", lineno)])
    dynamic = [HELP, HELP_NIGHT, BANNER, *TEMPLATES.values(), *MESSAGES.values(),
               *HOW_LABELS.values(), NOTHING_RECORDED,
               *(d for _, d in GROUP_COMMANDS), *REASONS, *dynamic_msgids(),
               *(s for s in SHORT.values() if s), *FIELDS.values(), FIELD_OTHER, OR,
               *FORMS.values()]
    for text in dynamic:
        if text not in cat:
            cat.add(text, auto_comments=["dynamic"])
    return cat


def main() -> None:
    pot = template()
    with (LOCALES / "tally.pot").open("wb") as fh:
        write_po(fh, pot, width=100)
    for lang, folder in LANGUAGES.items():
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
              f"{sum(1 for m in cat if m.id and m.string)} translated")


if __name__ == "__main__":
    main()
