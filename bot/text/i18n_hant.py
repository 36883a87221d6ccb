"""The Traditional Chinese (zh-Hant, Hong Kong usage) catalog, made from the zh-Hans one.

``make i18n`` runs :func:`write`: every zh-Hans message goes through OpenCC's Simplified to
Hong Kong conversion (``s2hk``), then through :data:`WORDS`, the words Hong Kong tables say
otherwise (食糊, 出銃, 爆棚), and :data:`MESSAGES`, whole messages said otherwise. Pattern
names the engine shows are added in the context ``pattern``. The catalog is never edited by
hand: a new zh-Hans message gets its zh-Hant form at the next ``make i18n``, and a test
holds the checked-in file to what this makes. The same run writes ``t2s.txt``, the
Traditional characters with their Simplified forms, which the bot reads to understand a
word typed in either script (:mod:`bot.text.script`).

OpenCC (the ``opencc`` package, Apache-2.0) is needed only here, so it is a dev extra.
"""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

from bot.text.i18n import LOCALES
from bot.text.script import EXTRA_FOLD, TABLE
from bot.text.words import PATTERN, PATTERN_NAMES, SAID_WORDS
from engine.patterns import FAMILY_PATTERNS
from engine.rules import presets, ruleset
from engine.tiles import chinese

SOURCE = LOCALES / "zh_Hans" / "LC_MESSAGES" / "tally.po"
TARGET = LOCALES / "zh_Hant" / "LC_MESSAGES" / "tally.po"

# Words said otherwise at a Hong Kong table, replaced in order after the conversion (so
# written in Traditional characters). A win is 糊 (食糊, 雞糊, 對對糊), the discarder 出銃,
# a hand at the cap 爆棚.
WORDS: list[tuple[str, str]] = [
    ("麻將", "麻雀"),
    ("胡牌", "食糊"),
    ("胡了", "食糊"),
    ("點炮", "出銃"),
    ("放炮", "出銃"),
    ("胡", "糊"),
    ("封頂", "爆棚"),
    ("羣", "群"),
    ("闆闆糊", "板板糊"),  # 板 of 板板胡 (no 2, 5, 8), not 老闆's
    ("開啓", "開啟"),
    ("“", "「"),  # Traditional quotation marks
    ("”", "」"),
    ("‘", "『"),
    ("’", "』"),  # OpenCC's Hong Kong variant; 群組, 本群 as Hong Kong chats write them
    ("默認", "預設"),
    ("設置", "設定"),
    ("信息", "訊息"),
    ("消息", "訊息"),
    ("保存", "儲存"),
    ("搜索", "搜尋"),
    ("菜單", "選單"),
    ("鏈接", "連結"),
    ("文件", "檔案"),
    ("激活", "啟用"),
]

# Whole messages said otherwise (the zh-Hans text, as it stands, -> the zh-Hant text): for a
# message the word rules above would get wrong. Keyed by the zh-Hans text so that a changed
# zh-Hans message is converted afresh instead of keeping a stale override.
MESSAGES: dict[str, str] = {
    # /lang names the chat's language, which is the catalog's own
    "语言：简体中文。": "語言：繁體中文（香港）。",
    "语言：简体中文。用 /lang en、/lang zh 或 /lang 繁體 切换。":
        "語言：繁體中文（香港）。用 /lang en、/lang zh 或 /lang 繁體 切換。",
}


def _opencc(config: str) -> Any:
    import opencc  # a dev extra: only `make i18n` and its test need it

    return opencc.OpenCC(config)


def converter() -> Any:
    """A function from zh-Hans text to zh-Hant (Hong Kong) text."""
    s2hk = _opencc("s2hk")

    def convert(text: str) -> str:
        if text in MESSAGES:
            return MESSAGES[text]
        out: str = s2hk.convert(text)
        for simplified, hongkong in WORDS:
            out = out.replace(simplified, hongkong)
        return out

    return convert


def pattern_names() -> list[str]:
    """Every pattern name the bot may show (each family's, and presets' own names), and the
    report words the guided dialogs show."""
    names = {p.name for ps in FAMILY_PATTERNS.values() for p in ps}
    names |= {n for table in PATTERN_NAMES.values() for n in table.values()}
    names |= set(SAID_WORDS)
    names |= {chinese(kind) for kind in range(34)}  # the tiles (一萬, 紅中), /score's waits
    for preset in presets():  # names the presets' options count (/rules lists them)
        opts = ruleset(preset).options.model_dump()
        for key in ("fan", "extras", "big_wins", "values"):
            names |= set(opts.get(key) or {})
        names |= set(opts.get("starting_wins") or ())
    return sorted(names)


def catalog() -> Catalog:
    """The zh-Hant catalog as the zh-Hans one and the conversion make it."""
    with SOURCE.open("rb") as fh:
        source = read_po(fh, locale="zh_Hans")
    convert = converter()
    cat = Catalog(locale="zh_Hant", project=source.project, version=source.version,
                  charset="utf-8", creation_date=source.creation_date,
                  revision_date=source.revision_date, fuzzy=False)
    cat.language_team = "zh-Hant (Hong Kong), made by bot/text/i18n_hant.py from zh_Hans"
    for m in source:
        if not m.id:
            continue
        string = (tuple(convert(s) for s in m.string) if isinstance(m.string, tuple | list)
                  else convert(m.string))
        cat.add(m.id, string, locations=m.locations, flags=m.flags,
                auto_comments=m.auto_comments, context=m.context)
    for name in pattern_names():
        if cat.get(name, context=PATTERN) is None:
            cat.add(name, convert(name), context=PATTERN, auto_comments=["pattern"])
    return cat


def rendered() -> bytes:
    out = BytesIO()
    write_po(out, catalog(), width=100, omit_header=False)
    return out.getvalue()


def fold_table() -> str:
    """``t2s.txt``: a line of Traditional characters over a line of their Simplified forms
    (OpenCC's ``t2s``, one character at a time, over the CJK block)."""
    t2s = _opencc("t2s")
    pairs = [(c, t2s.convert(c)) for c in map(chr, range(0x4E00, 0xA000))]
    pairs = [(a, b) for a, b in pairs if a != b and len(b) == 1 and a not in EXTRA_FOLD]
    return "".join(a for a, _ in pairs) + "\n" + "".join(b for _, b in pairs) + "\n"


def write() -> None:
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_bytes(rendered())
    Path(TABLE).write_text(fold_table(), encoding="utf-8")
    print(f"zh-Hant: {TARGET.relative_to(LOCALES.parents[2])} and "
          f"{Path(TABLE).relative_to(LOCALES.parents[2])} made from zh_Hans")


if __name__ == "__main__":
    write()
