"""An event's variant options: stored as JSON on the event, used as ``VariantOptions``.

This is the one place that converts between the ``events.variant_options`` column and
:class:`tourney.rules.variants.VariantOptions`, keeps only the options that belong to the
event's variant, and words them for pages, sheets and exports. Which options a variant
offers, their defaults and their words come from the variant itself
(:class:`tourney.rules.variants.GameVariant`); nothing here names a variant.

Terminology:
    offered options
        the options an event of a variant may set (``GameVariant.options``): for
        example whether gammons count in hypergammon, or the doubling cube in long nardy.
    canonical options
        the offered options with every value equal to the variant's default written as
        the default (``None`` or ``False``), so that two events playing by the same rules
        store the same JSON and a change of options is seen as one. An event playing by
        its variant's defaults stores ``NULL``.

Stored JSON: an object with only the options set away from their defaults, e.g.
``{"cube": true, "crawford": true, "koks": true}``; ``next_game_starter`` is stored as its
value (``"roll"``, ``"winner"``, ``"alternate"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

from tourney.i18n import DEFAULT_LANGUAGE, translate
from tourney.rules import NotationError
from tourney.rules.messages import N_, DottedListMessage, Message, message_of
from tourney.rules.variants import (
    DEFAULT_OPTIONS,
    GameVariant,
    NextGameStarter,
    VariantOptions,
    variant_named,
)
from tourney.store.tables import Event

_NAMES = frozenset(f.name for f in fields(VariantOptions))


class VariantOptionsError(ValueError):
    """Stored or imported options that are not variant options; the message says which."""


def _variant(name: str) -> GameVariant:
    try:
        return variant_named(name)
    except NotationError as error:
        raise VariantOptionsError(message_of(error)) from None


def options_for(variant: str, options: VariantOptions = DEFAULT_OPTIONS) -> VariantOptions:
    """``options`` reduced to those ``variant`` offers, in canonical form.

    Options that do not belong to the variant are dropped, and a value equal to the
    variant's default becomes the default itself, so that ``cube=False`` in long nardy
    (off by default) and ``cube=None`` are the same options.

    >>> options_for("standard", VariantOptions(koks=True)) == DEFAULT_OPTIONS
    True
    >>> options_for("long-nardy", VariantOptions(cube=False, koks=True)).cube is None
    True

    Raises:
        VariantOptionsError: an unknown variant.
    """
    chosen = _variant(variant)
    kept: dict[str, Any] = {}
    for spec in chosen.options:
        value = getattr(options, spec.key)
        if value is not None and value == chosen.option_value(spec.key, DEFAULT_OPTIONS):
            value = getattr(DEFAULT_OPTIONS, spec.key)
        kept[spec.key] = value
    return replace(DEFAULT_OPTIONS, **kept)


def option_field(variant: GameVariant, key: str) -> str:
    """The name of the event form's field for ``variant``'s option ``key``.

    >>> option_field(variant_named("long-nardy"), "crawford")
    'nardy_crawford'
    """
    return f"{variant.short_name}_{key}"


def options_to_json(options: VariantOptions) -> dict[str, Any] | None:
    """The stored form of (canonical) options: only what differs from the defaults, or
    ``None`` when nothing does.

    >>> options_to_json(VariantOptions(cube=True, koks=True))
    {'cube': True, 'koks': True}
    >>> options_to_json(DEFAULT_OPTIONS) is None
    True
    """
    stored: dict[str, Any] = {}
    for name in sorted(_NAMES):
        value = getattr(options, name)
        if value == getattr(DEFAULT_OPTIONS, name):
            continue
        stored[name] = value.value if isinstance(value, NextGameStarter) else value
    return stored or None


def options_from_json(data: Any) -> VariantOptions:
    """Options from their stored form (``None``: the defaults).

    >>> options_from_json({"koks": True, "next_game_starter": "alternate"}).next_game_starter
    <NextGameStarter.ALTERNATE: 'alternate'>

    Raises:
        VariantOptionsError: not an object of known options with values of their kind.
    """
    if data is None:
        return DEFAULT_OPTIONS
    if not isinstance(data, Mapping):
        raise VariantOptionsError(
            Message("variant options must be an object, not %(value)s", value=repr(data))
        )
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in _NAMES:
            known = ", ".join(sorted(_NAMES))
            raise VariantOptionsError(Message(
                "unknown variant option %(name)s (known: %(known)s)", name=repr(name), known=known
            ))
        if name == "next_game_starter":
            if value is None:
                values[name] = None
                continue
            try:
                values[name] = NextGameStarter(value)
            except ValueError:
                choices = ", ".join(s.value for s in NextGameStarter)
                raise VariantOptionsError(Message(
                    "next_game_starter must be one of %(choices)s, not %(value)s",
                    choices=choices, value=repr(value),
                )) from None
            continue
        nullable = name in ("gammons", "cube", "crawford")
        if not (isinstance(value, bool) or (nullable and value is None)):
            raise VariantOptionsError(Message(
                "variant option %(name)s must be true or false, not %(value)s",
                name=name, value=repr(value),
            ))
        values[name] = value
    return replace(DEFAULT_OPTIONS, **values)


def stored_options(variant: str, data: Any) -> VariantOptions:
    """The options an event row holds (its variant and its ``variant_options`` column),
    canonical for the variant; stored values the variant does not offer are ignored.

    Raises:
        VariantOptionsError: the column holds something that is not variant options.
    """
    return options_for(variant, options_from_json(data))


def end_choices(
    variant: str,
    options: VariantOptions,
    *,
    cube: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> tuple[tuple[str, str], ...]:
    """How a game can end under these options, as the game form offers it: a dropped
    double only with the cube (never when ``cube`` is false: a match form without it),
    a last-roll draw only where the event has it.

    >>> [value for value, _ in end_choices("long-nardy", VariantOptions(last_roll_draw=True))]
    ['played', 'resigned', 'drawn']
    """
    chosen = _variant(variant)
    options = options_for(chosen.name, options)
    choices = [("played", N_("Played out"))]
    if cube and chosen.uses_cube(options):
        choices.append(("dropped", N_("Double dropped")))
    choices.append(("resigned", N_("Resigned")))
    if chosen.can_draw(options):
        choices.append(("drawn", N_("Drawn (last roll)")))
    return tuple((value, translate(label, language)) for value, label in choices)


def result_choices(
    variant: str,
    options: VariantOptions,
    *,
    cube: bool = True,
    language: str = DEFAULT_LANGUAGE,
) -> tuple[tuple[str, str], ...]:
    """The result levels a game can score under these options, in the variant's words
    (oin, mars, koks only where it scores 3; single only in hypergammon without
    gammons), then the empty result of a drop or a draw where there can be one.

    >>> result_choices("hypergammon", DEFAULT_OPTIONS)
    (('single', 'Single'), ('', '— (dropped)'))
    >>> result_choices("long-nardy", DEFAULT_OPTIONS)
    (('single', 'Oin'), ('gammon', 'Mars'))
    """
    chosen = _variant(variant)
    options = options_for(chosen.name, options)
    choices = [
        (level.name.lower(), _capitalized(translate(chosen.level_names[level], language)))
        for level in chosen.levels(options)
    ]
    empty = [value for value, _ in end_choices(chosen.name, options, cube=cube) if value in
             ("dropped", "drawn")]
    if empty:
        if empty == ["dropped", "drawn"]:
            label = Message("— (dropped or drawn)")
        else:
            label = Message("— (dropped)") if empty == ["dropped"] else Message("— (drawn)")
        choices.append(("", translate(label, language)))
    return tuple(choices)


def _capitalized(text: str) -> str:
    """``text`` with its first letter upper case, the rest as written."""
    return text[:1].upper() + text[1:]


def event_options(event: Event) -> VariantOptions:
    """The options an event plays by (its variant's defaults where it sets none).

    Raises:
        VariantOptionsError: the event's column holds something that is not options.
    """
    return stored_options(event.variant, event.variant_options)


def option_phrases(variant: str, options: VariantOptions) -> tuple[str, ...]:
    """The options as short phrases after the variant's name (none for standard).

    >>> phrases = option_phrases("long-nardy", VariantOptions(cube=True, crawford=True, koks=True))
    >>> [str(phrase) for phrase in phrases]
    ['cube on, Crawford', 'koks scores 3']
    >>> [str(phrase) for phrase in option_phrases("hypergammon", DEFAULT_OPTIONS)]
    ['no gammons']
    """
    chosen = _variant(variant)
    return chosen.option_phrases(options_for(chosen.name, options))


def variant_summary(variant: str, options: VariantOptions) -> str:
    """The variant and its options in one line, as sheets and pages show it.

    >>> str(variant_summary("long-nardy", VariantOptions(cube=True, crawford=True, koks=True,
    ...                                                   last_roll_draw=True)))
    'Long nardy · cube on, Crawford · koks scores 3 · last-roll draw'
    >>> str(variant_summary("standard", DEFAULT_OPTIONS))
    'Backgammon'
    """
    return DottedListMessage((_variant(variant).title, *option_phrases(variant, options)))


def option_rules(variant: str, options: VariantOptions) -> tuple[str, ...]:
    """The options as rule tags for an event page ("Koks scores 3"), after the cube and
    Crawford tags the page shows anyway; empty for standard and nackgammon."""
    chosen = _variant(variant)
    return chosen.option_rules(options_for(chosen.name, options))
