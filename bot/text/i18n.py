"""Translations: gettext catalogs (``bot/text/locales/<lang>/LC_MESSAGES/tally.po``), read with
Babel. Message ids are the English text; ``t(lang, msgid, **params)`` formats the result.
Extract new strings with ``make i18n`` (pybabel, keyword ``t:2``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parent / "locales"
LANGUAGES = {"zh-Hans": "zh_Hans", "en": "en"}
ALIASES = {"zh": "zh-Hans", "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "cn": "zh-Hans",
           "中文": "zh-Hans", "en": "en", "english": "en", "英文": "en", "zh-hant": "zh-Hans",
           "zh-tw": "zh-Hans", "zh-hk": "zh-Hans"}


@cache
def catalog(lang: str) -> dict[str, str]:
    folder = LANGUAGES.get(lang, "en")
    path = LOCALES / folder / "LC_MESSAGES" / "tally.po"
    if not path.is_file():
        return {}
    with path.open("rb") as fh:
        cat = read_po(fh)
    return {m.id: m.string for m in cat
            if m.id and isinstance(m.id, str) and m.string and isinstance(m.string, str)}


def t(lang: str, msgid: str, **params: object) -> str:
    text = catalog(lang).get(msgid) or msgid
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def normalise_language(code: str | None, default: str = "zh-Hans") -> str:
    if not code:
        return default
    low = code.strip().lower()
    if low in ALIASES:
        return ALIASES[low]
    if low.startswith("zh"):
        return "zh-Hans"
    if low.startswith("en"):
        return "en"
    return default


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"
