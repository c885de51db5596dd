"""The languages tourney speaks, and the ``core`` catalogue that translates the core's words.

Terminology: the *core catalogue* (gettext domain ``core``,
``tourney/translations/<code>/LC_MESSAGES/core.po``) holds every sentence and name the
inner layers produce: record findings, refused game entries, draw and pairing errors
(:class:`tourney.rules.messages.Message`), and registry names marked with ``N_``
(variants, result levels, tiebreaks, round names, flight formats, statuses). Templates
and the web package use the ``messages`` domain through Flask-Babel instead.

:data:`LANGUAGES` is the one list of languages: the web's menu, the command line's
``--lang`` and the exports take it from here. English is the source language: English
output is the untranslated text, byte for byte.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date, datetime
from functools import lru_cache
from gettext import NullTranslations
from pathlib import Path

from tourney.rules.messages import (
    Capitalized,
    ListMessage,
    Message,
    PluralMessage,
    message_of,
)

TRANSLATIONS = Path(__file__).resolve().parent / "translations"
"""The catalogues of both domains: ``<code>/LC_MESSAGES/{messages,core}.po``."""
CORE_DOMAIN = "core"


@dataclass(frozen=True)
class Language:
    """A language tourney is served in: its code and its own name for itself."""

    code: str
    native_name: str


LANGUAGES: tuple[Language, ...] = (
    Language("en", "English"),
    Language("de", "Deutsch"),
    Language("ru", "Русский"),
    Language("el", "Ελληνικά"),
    Language("tr", "Türkçe"),
)
DEFAULT_LANGUAGE = LANGUAGES[0].code
LANGUAGE_CODES = tuple(language.code for language in LANGUAGES)


def _load_core(code: str) -> NullTranslations:
    """The compiled catalogue of ``code``; compiled from the ``.po`` in memory when no
    ``.mo`` as new as it was built (a fresh clone before ``make install``)."""
    # Babel is imported when a catalogue is first needed: the command line's rules
    # commands never pay for it.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    from babel.support import Translations

    folder = TRANSLATIONS / code / "LC_MESSAGES"
    po_path, mo_path = folder / f"{CORE_DOMAIN}.po", folder / f"{CORE_DOMAIN}.mo"
    if mo_path.exists() and (
        not po_path.exists() or mo_path.stat().st_mtime >= po_path.stat().st_mtime
    ):
        with mo_path.open("rb") as compiled:
            return Translations(compiled, domain=CORE_DOMAIN)
    if not po_path.exists():
        return NullTranslations()
    with po_path.open("rb") as source:
        catalog = read_po(source, locale=code, domain=CORE_DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer, domain=CORE_DOMAIN)


@lru_cache(maxsize=len(LANGUAGES))
def core_catalogue(code: str) -> NullTranslations:
    """The ``core`` translations of language ``code``, loaded once per process (the
    catalogues change only with a new release)."""
    if code not in LANGUAGE_CODES or code == DEFAULT_LANGUAGE:
        return NullTranslations()
    return _load_core(code)


def translate(text: str, language: str) -> str:
    """``text`` in ``language``: a :class:`Message` with its values filled in (values
    that are messages themselves translated too), or a registry name marked with ``N_``.

    English, an unknown language and a text the catalogue lacks give the English text.

    >>> translate(Message("game %(game)s", game=2), "en")
    'game 2'
    """
    if language == DEFAULT_LANGUAGE or language not in LANGUAGE_CODES:
        return str(text)
    catalogue = core_catalogue(language)
    if not isinstance(text, Message):
        return catalogue.gettext(text) if text else str(text)
    if isinstance(text, ListMessage):
        return text.separator.join(translate(item, language) for item in text.items)
    if isinstance(text, Capitalized):
        inner = translate(text.inner, language)
        return inner[:1].upper() + inner[1:]
    if isinstance(text, PluralMessage):
        pattern = catalogue.ngettext(text.msgid, text.plural, text.number)
    else:
        pattern = catalogue.gettext(text.msgid)
    if not text.params:
        return pattern
    values = {name: _translated_value(value, language) for name, value in text.params.items()}
    try:
        return pattern % values
    except (KeyError, ValueError, TypeError):
        # A catalogue whose placeholders do not match the source: the English sentence
        # is better than none (the catalogue tests keep this from shipping).
        return str(text)


def _translated_value(value: object, language: str) -> object:
    """A message's value in ``language``: a message (or an error raised with one)
    translated, anything else (a name, a number) as it is."""
    if isinstance(value, BaseException):
        value = message_of(value)
    return translate(value, language) if isinstance(value, Message) else value


def translate_all(texts: tuple[str, ...] | list[str], language: str) -> list[str]:
    """Each of ``texts`` translated (see :func:`translate`)."""
    return [translate(text, language) for text in texts]


def format_number(value: int | float, language: str) -> str:
    """A number written the way ``language`` writes it (``1.234,5`` in German); English
    keeps Python's own form (``1234.5``) so that English exports stay as they were."""
    if language == DEFAULT_LANGUAGE or language not in LANGUAGE_CODES:
        return str(value)
    from babel.numbers import format_decimal

    return format_decimal(value, locale=language)


def format_day(value: date | datetime, language: str) -> str:
    """A date in ``language``'s medium form (``06.03.2025``, ``6 мар. 2025 г.``); English
    keeps ISO ``2025-03-06``."""
    day = value.date() if isinstance(value, datetime) else value
    if language == DEFAULT_LANGUAGE or language not in LANGUAGE_CODES:
        return day.isoformat()
    from babel.dates import format_date

    return format_date(day, format="medium", locale=language)
