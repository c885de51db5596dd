"""Jinja filters for display: dates, numbers, ratings, cube values, status labels, and the
variant's own words for its name and its result levels (oin and mars in long nardy).

Dates and numbers are written the way the language being served writes them; English keeps
its short forms (``Thu 6 Mar 2025``, ``2025-03-06 19:04 UTC``).
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from babel import Locale
from babel.dates import format_date as babel_format_date
from babel.dates import format_skeleton
from babel.numbers import format_decimal
from flask import Flask
from flask_babel import get_locale, gettext, ngettext

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3 (the version we use).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]

from tourney.formats.rounds import parse_round_name
from tourney.i18n import translate
from tourney.rules import Level, NotationError
from tourney.rules.variants import DEFAULT_VARIANT, GameVariant, variant_named
from tourney.web.i18n import current_language, lazy_gettext

STATUS_LABELS = {
    "draft": lazy_gettext("Draft"),
    "open": lazy_gettext("Open"),
    "running": lazy_gettext("Running"),
    "finished": lazy_gettext("Finished"),
    "archived": lazy_gettext("Archived"),
    "setup": lazy_gettext("Not drawn"),
    "drawn": lazy_gettext("Drawn"),
    "active": lazy_gettext("Active"),
    "withdrawn": lazy_gettext("Withdrawn"),
    "eliminated": lazy_gettext("Eliminated"),
    "published": lazy_gettext("Published"),
    "pending": lazy_gettext("Pending"),
    "ready": lazy_gettext("Ready"),
    "walkover": lazy_gettext("Walkover"),
    "bye": lazy_gettext("Bye"),
    "void": lazy_gettext("Void"),
    "playing": lazy_gettext("Playing"),
    "won": lazy_gettext("Won"),
    "lost": lazy_gettext("Lost"),
}
"""The stored statuses (of events, flights, rounds, entries, fixtures) and a player's
result of a match, as pages name them."""
DRAW_METHOD_LABELS = {
    "random": lazy_gettext("random"),
    "seeded": lazy_gettext("seeded"),
    "manual": lazy_gettext("by hand"),
}
"""How a flight was drawn, as the flight page says it beside the draw seed."""

ENGLISH_DATE = "EEE d MMM y"
"""English dates as the pages have always written them: ``Thu 6 Mar 2025``."""
DATE_SKELETON = "yMMMEd"
"""Other languages: weekday, day, short month and year in the language's own order."""
NUMERIC_DATE_SKELETON = "yMd"
"""Other languages' timestamps: the numeric date in the language's own order ..."""
TIME_SKELETON = "Hm"
"""... then the 24-hour time."""


def _locale() -> Locale:
    """The language being served; English outside a request."""
    return get_locale() or Locale("en")


def _is_english(locale: Locale) -> bool:
    return locale.language == "en"


def format_date(value: date | datetime | None) -> str:
    """``2025-03-06`` as ``Thu 6 Mar 2025`` (``Do., 6. März 2025`` in German); empty for none."""
    if value is None:
        return ""
    locale = _locale()
    day = value.date() if isinstance(value, datetime) else value
    if _is_english(locale):
        return babel_format_date(day, ENGLISH_DATE, locale=locale)
    return format_skeleton(DATE_SKELETON, day, locale=locale)


def format_datetime(value: datetime | None) -> str:
    """A UTC timestamp as ``2025-03-06 19:04 UTC`` (``6.3.2025 19:04 UTC`` in German)."""
    if value is None:
        return ""
    locale = _locale()
    if _is_english(locale):
        return f"{value:%Y-%m-%d %H:%M} UTC"
    moment = value if value.tzinfo else value.replace(tzinfo=UTC)
    day = format_skeleton(NUMERIC_DATE_SKELETON, moment, tzinfo=UTC, locale=locale)
    time = format_skeleton(TIME_SKELETON, moment, tzinfo=UTC, locale=locale)
    return f"{day} {time} UTC"


def format_number(value: int | float) -> str:
    """A count with the language's digit grouping: ``12,345`` (``12.345`` in German)."""
    return format_decimal(value, locale=_locale())


def format_fixed(value: float, places: int = 2, signed: bool = False) -> str:
    """A number with ``places`` decimals in the language's decimal sign, no grouping:
    ``1523.40``, ``1523,40`` in German; with ``signed``, ``+0.52`` and ``-1.03``."""
    digits = "0." + "0" * places if places > 0 else "0"
    pattern = f"+{digits};-{digits}" if signed else digits
    return format_decimal(value, format=pattern, locale=_locale())


def format_rating(value: float | None) -> str:
    """A rating with one decimal; an en dash for none."""
    return "–" if value is None else format_fixed(value, 1)


def format_cube(exponent: int | None) -> str:
    """A cube exponent as its value: 3 -> ``8``; none -> ``no limit``."""
    return gettext("no limit") if exponent is None else str(2**exponent)


def format_status(value: str) -> str:
    """A stored status as a label."""
    label = STATUS_LABELS.get(value)
    return str(label) if label is not None else value.replace("_", " ").capitalize()


def format_draw_method(value: str) -> str:
    """A stored draw method as the flight page names it: ``seeded``."""
    label = DRAW_METHOD_LABELS.get(value)
    return str(label) if label is not None else value


def format_points(value: int) -> str:
    """A number of points in words: ``1 point``, ``5 points``."""
    return ngettext("%(num)d point", "%(num)d points", value)


def _variant(name: str | None) -> GameVariant:
    """The variant an event names; the default variant for none or an unknown name."""
    if not name:
        return DEFAULT_VARIANT
    try:
        return variant_named(name)
    except NotationError:
        return DEFAULT_VARIANT


def variant_title(name: str | None) -> str:
    """A variant's name as pages show it, in the served language: ``long-nardy`` ->
    ``Long nardy`` (``Длинные нарды`` in Russian)."""
    return translate(_variant(name).title, current_language())


def is_default_variant(name: str | None) -> bool:
    """Whether an event's variant is the default one, which pages do not name."""
    return name == DEFAULT_VARIANT.name


def level_label(level: str | Level | None, variant: str | None = None) -> str:
    """A result level in the variant's words and the served language: ``gammon`` ->
    ``mars`` in long nardy (``марс`` in Russian); empty for none (a dropped double)."""
    if level is None or level == "":
        return ""
    key = level if isinstance(level, Level) else Level.__members__.get(str(level).upper())
    if key is None:
        return str(level)
    return translate(_variant(variant).level_names[key], current_language())


def level_choices(variant: str | None) -> list[SelectChoice]:
    """The result select box of a game form: the levels the variant scores, in its
    words, then the empty choice of a dropped double."""
    chosen = _variant(variant)
    language = current_language()
    return [
        SelectChoice(
            level.name.lower(), _capitalized(translate(chosen.level_names[level], language))
        )
        for level in chosen.levels()
    ] + [SelectChoice("", "— (dropped)")]


def _capitalized(text: str) -> str:
    """``text`` with its first letter upper case and the rest as written."""
    return text[:1].upper() + text[1:]


def core_text(value: str) -> str:
    """A message or registry name of the core (a record finding, a round name) in the
    served language."""
    return translate(value, current_language())


def round_title(name: str) -> str:
    """A stored round name ("Round 2", "Semifinal") in the served language; a name a
    director gave by hand stays as it is."""
    return translate(parse_round_name(name), current_language())


def init_app(app: Flask) -> None:
    """Register the filters on ``app``."""
    app.add_template_filter(format_date, "date")
    app.add_template_filter(format_datetime, "datetime")
    app.add_template_filter(format_number, "number")
    app.add_template_filter(format_fixed, "decimal")
    app.add_template_filter(format_rating, "rating")
    app.add_template_filter(format_cube, "cube")
    app.add_template_filter(format_status, "status")
    app.add_template_filter(format_points, "points")
    app.add_template_filter(format_draw_method, "draw_method")
    app.add_template_filter(variant_title, "variant_title")
    app.add_template_filter(level_label, "level_label")
    app.add_template_filter(core_text, "core")
    app.add_template_filter(round_title, "round_title")
    app.add_template_test(is_default_variant, "default_variant")
