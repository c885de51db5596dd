"""Jinja filters for display: dates, ratings, cube values, status labels, and the
variant's own words for its name and its result levels (oin and mars in long nardy)."""

from __future__ import annotations

from datetime import date, datetime

from flask import Flask

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3 (the version we use).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]

from tourney.formats.rounds import parse_round_name
from tourney.i18n import translate
from tourney.rules import Level, NotationError
from tourney.rules.messages import N_
from tourney.rules.variants import DEFAULT_VARIANT, GameVariant, variant_named
from tourney.web.i18n import current_language

STATUS_LABELS = {
    "draft": N_("Draft"),
    "open": N_("Open"),
    "running": N_("Running"),
    "finished": N_("Finished"),
    "archived": N_("Archived"),
    "setup": N_("Not drawn"),
    "drawn": N_("Drawn"),
    "active": N_("Active"),
    "withdrawn": N_("Withdrawn"),
    "eliminated": N_("Eliminated"),
}


def format_date(value: date | datetime | None) -> str:
    """``2025-03-06`` as ``Thu 6 Mar 2025``; empty for none."""
    if value is None:
        return ""
    return f"{value:%a} {value.day} {value:%b %Y}"


def format_datetime(value: datetime | None) -> str:
    """A UTC timestamp as ``2025-03-06 19:04 UTC``."""
    if value is None:
        return ""
    return f"{value:%Y-%m-%d %H:%M} UTC"


def format_rating(value: float | None) -> str:
    """A rating with one decimal; an en dash for none."""
    return "–" if value is None else f"{value:.1f}"


def format_cube(exponent: int | None) -> str:
    """A cube exponent as its value: 3 -> ``8``; none -> ``no limit``."""
    return "no limit" if exponent is None else str(2**exponent)


def format_status(value: str) -> str:
    """A stored status as a label, in the served language."""
    label = STATUS_LABELS.get(value)
    if label is None:
        return value.replace("_", " ").capitalize()
    return translate(label, current_language())


def format_points(value: int) -> str:
    """A number of points in words: ``1 point``, ``5 points``."""
    return f"{value} point" if value == 1 else f"{value} points"


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
    app.add_template_filter(format_rating, "rating")
    app.add_template_filter(format_cube, "cube")
    app.add_template_filter(format_status, "status")
    app.add_template_filter(format_points, "points")
    app.add_template_filter(variant_title, "variant_title")
    app.add_template_filter(level_label, "level_label")
    app.add_template_filter(core_text, "core")
    app.add_template_filter(round_title, "round_title")
    app.add_template_test(is_default_variant, "default_variant")
