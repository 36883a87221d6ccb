"""Translations: gettext catalogs (``bot/text/locales/<lang>/LC_MESSAGES/tally.po``), read with
Babel. Message ids are the English text; ``t(lang, msgid, **params)`` formats the result,
``pt(lang, context, msgid)`` tells apart one English word said twice (a message context),
``nt(lang, singular, plural, n)`` counts (the catalog's plural forms). Extract new strings
with ``make i18n`` (keywords ``t:2``, ``pt:2c,3``, ``nt:2,3``)."""

from __future__ import annotations

from functools import cache
from gettext import GNUTranslations, NullTranslations
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parent / "locales"
LANGUAGES = {"zh-Hans": "zh_Hans", "zh-Hant": "zh_Hant", "en": "en"}
ALIASES = {"zh": "zh-Hans", "zh-hans": "zh-Hans", "zh-cn": "zh-Hans", "cn": "zh-Hans",
           "zh-sg": "zh-Hans", "中文": "zh-Hans", "简体": "zh-Hans", "简体中文": "zh-Hans",
           "簡體": "zh-Hans", "簡體中文": "zh-Hans", "简": "zh-Hans", "簡": "zh-Hans",
           "普通话": "zh-Hans", "普通話": "zh-Hans",
           "zh-hant": "zh-Hant", "zh-hk": "zh-Hant", "zh-tw": "zh-Hant", "zh-mo": "zh-Hant",
           "hk": "zh-Hant", "tw": "zh-Hant", "繁體": "zh-Hant", "繁体": "zh-Hant",
           "繁體中文": "zh-Hant", "繁体中文": "zh-Hant", "繁": "zh-Hant", "廣東話": "zh-Hant",
           "广东话": "zh-Hant", "粵語": "zh-Hant", "粤语": "zh-Hant",
           "香港": "zh-Hant",
           "en": "en", "english": "en", "英文": "en", "英語": "en", "英语": "en"}
# Traditional Chinese by script or by region (zh-Hant-HK, zh-HK, zh_TW…).
_TRADITIONAL = ("zh-hant", "zh-hk", "zh-tw", "zh-mo")


@cache
def catalog(lang: str) -> NullTranslations:
    """The language's catalog, compiled in memory (untranslated messages read as English)."""
    folder = LANGUAGES.get(lang, "en")
    path = LOCALES / folder / "LC_MESSAGES" / "tally.po"
    if not path.is_file():
        return NullTranslations()
    with path.open("rb") as fh:
        cat = read_po(fh, locale=folder)
    compiled = BytesIO()
    write_mo(compiled, cat)
    compiled.seek(0)
    return GNUTranslations(compiled)


def _format(text: str, params: dict[str, object]) -> str:
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def t(lang: str, msgid: str, **params: object) -> str:
    return _format(catalog(lang).gettext(msgid), params)


def pt(lang: str, context: str, msgid: str, **params: object) -> str:
    """``msgid`` in ``context``: the same English read differently (an app's tab "Players",
    not the option "Players", a head count)."""
    return _format(catalog(lang).pgettext(context, msgid), params)


def nt(lang: str, singular: str, plural: str, n: int, **params: object) -> str:
    """The form for ``n`` ("1 point", "2 points"; Chinese has one)."""
    return _format(catalog(lang).ngettext(singular, plural, n), params)


def normalise_language(code: str | None, default: str = "zh-Hans") -> str:
    if not code:
        return default
    low = code.strip().lower().replace("_", "-")
    if low in ALIASES:
        return ALIASES[low]
    if low.startswith(_TRADITIONAL):
        return "zh-Hant"
    if low.startswith("zh"):
        return "zh-Hans"
    if low.startswith("en"):
        return "en"
    return default


def is_chinese(lang: str) -> bool:
    """Whether ``lang`` is Chinese in either script: both write Chinese punctuation (，：（）、)
    and no space between words."""
    return lang.startswith("zh")


def signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"
