"""Languages: which one a request is served in, and the menu that changes it.

The language comes from ``?lang=`` first, then the visitor's saved choice (a cookie that
``?lang=`` sets, so the next page keeps it), then the browser's ``Accept-Language``, then
English. ``LANGUAGES`` (from :mod:`tourney.i18n`, the one list of languages) feeds the
menu; the templates and tests take it from here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from flask import Flask, Response, current_app, has_request_context, request
from flask_babel import Babel, get_locale, gettext
from flask_babel.speaklater import LazyString
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import escape

from tourney.i18n import (
    DEFAULT_LANGUAGE,
    LANGUAGE_CODES,
    LANGUAGES,
    TRANSLATIONS,
    Language,
    translate,
)
from tourney.rules.messages import Message

__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_CODES",
    "LANGUAGE_COOKIE",
    "Language",
    "current_language",
    "init_app",
    "lazy_gettext",
    "select_language",
]

EXTRA_LANGUAGES_SETTING = "TOURNEY_EXTRA_LANGUAGES"
"""A setting for tests only: codes of catalogues served besides ``LANGUAGES`` (a pseudo
language that marks every translated word), never in the menu. Empty unless set."""
LANGUAGE_COOKIE = "tourney_lang"
LANGUAGE_COOKIE_DAYS = 365


class _EscapedLazyString(LazyString):
    """A lazy translation that a page escapes like any other text: Flask-Babel's own lazy
    string hands its text to Jinja as ready-made HTML."""

    def __html__(self) -> str:
        return str(escape(str(self)))


def lazy_gettext(string: str, **variables: Any) -> str:
    """``string`` in the language of the request that shows it (form labels, messages and
    choices built once, at import), escaped on a page like any other text."""
    return cast(str, _EscapedLazyString(gettext, string, **variables))


def lazy_core(text: str) -> str:
    """A core registry's label (marked with ``N_``) in the language of the request that
    shows it, for choices built once, at import."""
    return cast(str, _EscapedLazyString(lambda: translate(text, current_language())))


def _served_codes() -> tuple[str, ...]:
    """The codes a request may ask for: ``LANGUAGES``, and any extra ones a test sets."""
    extra = tuple(current_app.config.get(EXTRA_LANGUAGES_SETTING, ()))
    return LANGUAGE_CODES + extra if extra else LANGUAGE_CODES


def _asked_language() -> str | None:
    """The language ``?lang=`` names, when it is one we serve."""
    asked = request.args.get("lang", "").strip().lower()
    return asked if asked in _served_codes() else None


def select_language() -> str:
    """The language of this request: ``?lang=``, the saved choice, the browser's, English."""
    asked = _asked_language()
    if asked:
        return asked
    saved = request.cookies.get(LANGUAGE_COOKIE, "")
    if saved in _served_codes():
        return saved
    return request.accept_languages.best_match(LANGUAGE_CODES) or DEFAULT_LANGUAGE


def current_language() -> str:
    """The code of the language being served (``"de"``), for ``<html lang>`` and caches;
    English outside a request (a command run in the app's context)."""
    if not has_request_context():
        return DEFAULT_LANGUAGE
    return str(get_locale() or DEFAULT_LANGUAGE)


def _remember_choice(response: Response) -> Response:
    """Keep a ``?lang=`` choice for the visitor's next pages; the answer varies by
    ``Accept-Language`` for caches that keep it."""
    asked = _asked_language()
    if asked and request.cookies.get(LANGUAGE_COOKIE) != asked:
        response.set_cookie(
            LANGUAGE_COOKIE,
            asked,
            max_age=LANGUAGE_COOKIE_DAYS * 24 * 3600,
            httponly=True,
            samesite="Lax",
        )
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


def _template_globals() -> dict[str, object]:
    return {"languages": LANGUAGES, "current_language": current_language()}


def _in_served_language(value: object) -> object:
    """A core message or registry name (``Message``) in the served language; anything
    else (a player's name, a number) as it is."""
    return translate(value, current_language()) if isinstance(value, Message) else value


def _translate_core_values(app: Flask) -> None:
    """Make a page show the core's words in its language wherever they stand: a printed
    ``{{ value }}`` and the values put into a sentence (``_('Loser to %(flight)s',
    flight=...)``), so a status, round or variant name needs no filter of its own."""
    env = app.jinja_env
    marked_gettext = cast(Callable[..., str], env.globals["gettext"])
    marked_ngettext = cast(Callable[..., str], env.globals["ngettext"])

    @pass_context
    def gettext_with_values(context: Context, string: str, **variables: Any) -> str:
        values = {name: _in_served_language(v) for name, v in variables.items()}
        return marked_gettext(context, string, **values)

    @pass_context
    def ngettext_with_values(
        context: Context, singular: str, plural: str, number: int, **variables: Any
    ) -> str:
        values = {name: _in_served_language(v) for name, v in variables.items()}
        return marked_ngettext(context, singular, plural, number, **values)

    env.globals.update(gettext=gettext_with_values, _=gettext_with_values)
    env.globals.update(ngettext=ngettext_with_values)
    env.finalize = _in_served_language


def init_app(app: Flask) -> None:
    """Attach Flask-Babel with our language selection, and the menu's template values."""
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_language)
    _translate_core_values(app)
    app.after_request(_remember_choice)
    app.context_processor(_template_globals)
