"""Flask-WTF forms: they check shape (required, types, ranges), CSRF and the server's own
signatures (a previewed player file), never rules.

A rule the store refuses comes back as a ``StoreUserError`` naming a field; ``apply_error``
puts its message on that field (or on the form) so the page shows it where it belongs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import Enum
from typing import Any, ClassVar

from flask import current_app
from flask_babel import gettext
from flask_wtf import FlaskForm
from flask_wtf.file import FileAllowed, FileField, FileRequired, FileSize
from itsdangerous import BadSignature, URLSafeSerializer
from markupsafe import Markup
from wtforms import (
    BooleanField,
    DateField,
    DecimalField,
    FloatField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.fields import Field

# types-WTForms describes WTForms 3.2; SelectChoice is new in 3.3 (the version we use).
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.meta import DefaultMeta
from wtforms.validators import (
    DataRequired,
    EqualTo,
    InputRequired,
    Length,
    NumberRange,
    Regexp,
    ValidationError,
)
from wtforms.validators import Optional as OptionalValue

from tourney.formats import prizes
from tourney.formats.errors import FormatUserError
from tourney.formats.rounds import NAMED_ROUNDS, named_round_spelled
from tourney.formats.stages import CutTies, PoolSeeding
from tourney.formats.teams import MAX_BOARDS, BoardOrder
from tourney.formats.tiebreaks import TIEBREAKS
from tourney.i18n import translate
from tourney.rules.dice_names import registered_dice_names
from tourney.rules.match_forms import SINGLE, registered_match_forms
from tourney.rules.messages import Message, message_of
from tourney.rules.variant_protocol import OptionValue
from tourney.rules.variants import (
    DEFAULT_OPTIONS,
    DEFAULT_VARIANT,
    VariantOptions,
    registered_variants,
    variant_named,
)
from tourney.store import club_money
from tourney.store.errors import StoreUserError
from tourney.store.queries import FORMAT_LABELS
from tourney.store.roles import ACCOUNT_ROLES
from tourney.store.tables import DrawMethod
from tourney.store.tournament_views import CUBE_VALUES
from tourney.store.variant_options import option_field
from tourney.web.i18n import current_language, lazy_core, lazy_gettext


def parse_round_lengths(text: str) -> dict[str, int]:
    """``"final: 11, semis: 9, round 2: 7"`` as ``{"final": 11, "semifinal": 9, "2": 7}``.

    Raises:
        ValueError: a part is not ``round: length`` (the message names the part).

    >>> parse_round_lengths("Final: 11; R3 = 9")
    {'final': 11, '3': 9}
    """
    lengths: dict[str, int] = {}
    for part in re.split(r"[,;\n]+", text):
        if not part.strip():
            continue
        match = re.fullmatch(r"\s*([A-Za-z -]*?)\s*(\d*)\s*[:=]\s*(\d+)\s*", part)
        if match is None:
            raise ValueError(gettext("“%(part)s” is not like “final: 11”.", part=part.strip()))
        words = match.group(1).lower().replace("-", "").replace(" ", "")
        number = match.group(2)
        named = None if number else named_round_spelled(words)
        if number and words in ("", "r", "round"):
            key = str(int(number))
        elif named is not None:
            key = named.key
        else:
            named_rounds = ", ".join(r.key for r in NAMED_ROUNDS)
            raise ValueError(
                gettext(
                    "“%(part)s”: name a round number or %(rounds)s.",
                    part=part.strip(),
                    rounds=named_rounds,
                )
            )
        lengths[key] = int(match.group(3))
    return lengths


def parse_rounds_list(text: str) -> tuple[int, ...]:
    """``"1, 2"`` as ``(1, 2)``.

    Raises:
        ValueError: something other than whole numbers.
    """
    parts = [p for p in re.split(r"[,;\s]+", text) if p]
    if not all(p.isdigit() for p in parts):
        raise ValueError(gettext("List round numbers, like “1, 2”."))
    return tuple(int(p) for p in parts)


_HIDDEN_FIELD_TYPES = frozenset({"HiddenField", "CSRFTokenField"})


class Form(FlaskForm):
    """A form of the app: its hidden fields (the CSRF token, a match's version) carry no
    ``id``. A page often holds several forms, and an id must name one element only: a
    label or a screen reader tied to a repeated id finds the wrong field."""

    class Meta:
        def render_field(self, field: Field, render_kw: dict[str, Any]) -> Markup:
            """Render ``field``; a hidden one without an id."""
            if field.type in _HIDDEN_FIELD_TYPES:
                render_kw = {**render_kw, "id": False}
            return DefaultMeta.render_field(self, field, render_kw)  # type: ignore[arg-type]


def scope_ids(form: FlaskForm, scope: str) -> None:
    """Give ``form``'s fields ids of their own on a page that shows forms with the same
    field names (``game-winner`` and ``walkover-winner``): each label then names its field."""
    for field in form:
        field.id = f"{scope}-{field.name}"
        field.label.field_id = field.id


def apply_error(form: FlaskForm, error: StoreUserError) -> None:
    """Show a store error on its field, or above the form; 403/404/409 are re-raised."""
    if error.status_code not in (400, 409):
        raise error
    target = getattr(form, error.field, None) if error.field else None
    shown = translate(error.message, current_language())
    if target is not None and hasattr(target, "errors"):
        target.errors = [*list(target.errors), shown]
    else:
        form.form_errors.append(shown)


def options(pairs: Iterable[tuple[object, str]]) -> list[SelectChoice]:
    """Select-box options from (value, label) pairs; none as a value becomes empty. A
    label that is a core word (a variant, a format, an option's choice) is shown in the
    served language; data (a player's name) is not in the catalogue and stays as it is."""
    return [
        SelectChoice(
            "" if v is None else str(v), lazy_core(label) if isinstance(label, str) else label
        )
        for v, label in pairs
    ]


def optional_int(value: Any) -> int | None:
    """Select-box coercion: empty means none."""
    if value in (None, "", "None"):
        return None
    return int(value)


def new_password_fields(label: str, again: str) -> tuple[PasswordField, PasswordField]:
    """A new password and the same again, for a form's ``password`` and ``confirm``: their
    labels ``label`` and ``again``."""
    return (
        PasswordField(
            label,
            validators=[DataRequired(), Length(min=10, max=1024)],
            description=lazy_gettext("At least 10 characters."),
        ),
        PasswordField(
            again,
            validators=[
                DataRequired(),
                EqualTo("password", message=lazy_gettext("The passwords differ.")),
            ],
        ),
    )


class LoginForm(Form):
    """E-mail address and password."""

    email = StringField(
        lazy_gettext("E-mail address"), validators=[DataRequired(), Length(max=254)]
    )
    password = PasswordField(
        lazy_gettext("Password"), validators=[DataRequired(), Length(max=1024)]
    )


class SetupForm(Form):
    """The first account."""

    name = StringField(lazy_gettext("Your name"), validators=[DataRequired(), Length(max=120)])
    email = StringField(
        lazy_gettext("E-mail address"), validators=[DataRequired(), Length(max=254)]
    )
    password, confirm = new_password_fields(
        lazy_gettext("Password"), lazy_gettext("Password again")
    )


class PasswordForm(Form):
    """The logged-in user changes their password."""

    current_password = PasswordField(
        lazy_gettext("Current password"), validators=[DataRequired(), Length(max=1024)]
    )
    password, confirm = new_password_fields(
        lazy_gettext("New password"), lazy_gettext("New password again")
    )


class UserForm(SetupForm):
    """An admin adds an account."""

    role = SelectField(
        lazy_gettext("Role"),
        choices=options((r.role.value, r.choice_label) for r in ACCOUNT_ROLES),
    )


class ActionForm(Form):
    """A button that changes something: only the CSRF token."""


CUBE_LIMIT_CHOICES = options(
    [("", lazy_gettext("No limit")), *((e, f"{2**e}") for e in range(1, 13))]
)


class EventForm(Form):
    """An event's name, dates, venue, rule flags and variant options."""

    option_groups: ClassVar[tuple[OptionGroup, ...]]
    """The variants' option fields, by variant (set by ``_add_option_fields``)."""
    crawford_variants: ClassVar[str]
    """The names, space-separated, of the variants the ``crawford`` field is for."""

    name = StringField(lazy_gettext("Name"), validators=[DataRequired(), Length(max=160)])
    slug = StringField(
        lazy_gettext("Web address"),
        validators=[OptionalValue(), Length(max=60)],
        description=lazy_gettext(
            "Letters, digits and dashes; left empty, it is made from the name."
        ),
    )
    starts_on = DateField(lazy_gettext("Starts"), validators=[OptionalValue()])
    ends_on = DateField(lazy_gettext("Ends"), validators=[OptionalValue()])
    club_id = SelectField(lazy_gettext("Club"), coerce=optional_int, validate_choice=True)
    venue_name = StringField(lazy_gettext("Venue"), validators=[OptionalValue(), Length(max=120)])
    is_public = BooleanField(lazy_gettext("Public: listed on the home page and in the API"))
    variant = SelectField(
        lazy_gettext("Game"),
        choices=options((v.name, v.title) for v in registered_variants()),
        default=DEFAULT_VARIANT.name,
    )
    match_form = SelectField(
        lazy_gettext("Matches"),
        choices=options(
            (
                f.name,
                f.title
                if f.is_single
                else Message(
                    "%(title)s: %(description)s", title=f.title, description=f.description
                ),
            )
            for f in registered_match_forms()
        ),
        default=SINGLE.name,
        description=lazy_gettext(
            "A match of several variants in turn plays each game by its own rules "
            "(no single game to choose then)."
        ),
    )
    dice_names = SelectField(
        lazy_gettext("Dice names"),
        choices=options(
            [("", lazy_gettext("None")), *((d.key, d.title) for d in registered_dice_names())]
        ),
        default="",
        description=lazy_gettext(
            "Names of the rolls (du ek, dubara, shesh besh ...) shown beside each "
            "roll of a match record."
        ),
    )
    board_order = SelectField(
        lazy_gettext("Team events: board order"),
        choices=options((order.value, order.label) for order in BoardOrder),
        default=BoardOrder.FIXED.value,
    )
    crawford = BooleanField(lazy_gettext("Crawford rule"), default=True)
    holland = BooleanField(
        lazy_gettext("Holland rule (post-Crawford: no double before two rolls each)")
    )
    condoned_plays = BooleanField(
        lazy_gettext("Records: an illegal play the opponent played on from stands (condoned)")
    )
    unrated = BooleanField(
        lazy_gettext("Friendly: its matches do not count in the club's rating list")
    )
    cube_limit = SelectField(
        lazy_gettext("Cube limit"), choices=CUBE_LIMIT_CHOICES, coerce=optional_int
    )
    money_play = BooleanField(lazy_gettext("Money play"))
    jacoby = BooleanField(lazy_gettext("Jacoby rule (house rule)"))
    beavers = BooleanField(lazy_gettext("Beavers (money play only)"))
    automatic_doubles = BooleanField(lazy_gettext("Automatic doubles (money play only)"))
    notes = TextAreaField(lazy_gettext("Notes for players"), validators=[Length(max=4000)])
    # Variant options: ``_add_option_fields`` below adds a field for every option of
    # every registered variant; the page shows the set of the chosen variant.


@dataclass(frozen=True)
class OptionGroup:
    """The option fields of one variant, as the event form shows them together."""

    variant: str
    """The variant's name: the group shows while the form's variant is this one."""
    title: str
    fields: tuple[str, ...]


def _choice_key(value: OptionValue) -> str:
    """A choice option's value as a select box carries it."""
    return value.value if isinstance(value, Enum) else str(value)


def _add_option_fields(form: type[EventForm]) -> None:
    """Give ``form`` a field for each option of each registered variant (named by
    ``option_field``, with the variant's default), and list them by variant."""
    groups = []
    for variant in registered_variants():
        for spec in variant.options:
            default = variant.option_value(spec.key, DEFAULT_OPTIONS)
            field: BooleanField | SelectField
            if spec.is_flag:
                field = BooleanField(
                    lazy_core(spec.label),
                    description=lazy_core(spec.description),
                    default=bool(default),
                )
            else:
                field = SelectField(
                    lazy_core(spec.label),
                    description=lazy_core(spec.description),
                    default=_choice_key(default),
                    choices=options((_choice_key(c.value), c.label) for c in spec.choices),
                )
            setattr(form, option_field(variant, spec.key), field)
        if variant.options:
            groups.append(
                OptionGroup(
                    variant.name,
                    variant.title,
                    tuple(option_field(variant, spec.key) for spec in variant.options),
                )
            )
    form.option_groups = tuple(groups)
    # The event's own Crawford flag shows for variants whose options leave it alone.
    form.crawford_variants = " ".join(
        v.name for v in registered_variants() if not v.offers("crawford")
    )


_add_option_fields(EventForm)


def variant_options_from(form: EventForm) -> VariantOptions:
    """The options the form sets for its chosen variant (the fields of other variants
    are ignored)."""
    variant = variant_named(form.variant.data or DEFAULT_VARIANT.name)
    values: dict[str, Any] = {}
    for spec in variant.options:
        data = form[option_field(variant, spec.key)].data
        if spec.is_flag:
            values[spec.key] = bool(data)
        else:
            values[spec.key] = next(
                (c.value for c in spec.choices if _choice_key(c.value) == data), None
            )
    return replace(DEFAULT_OPTIONS, **values)


def variant_options_data(chosen: VariantOptions) -> dict[str, object]:
    """The form's option fields for an event's (canonical) options: each variant's
    fields hold the value in force under that variant."""
    data: dict[str, object] = {}
    for variant in registered_variants():
        for spec in variant.options:
            value = variant.option_value(spec.key, chosen)
            data[option_field(variant, spec.key)] = value if spec.is_flag else _choice_key(value)
    return data


TIEBREAK_CHOICES = options([("", "—"), *((t.key, t.title) for t in TIEBREAKS)])


class FlightForm(Form):
    """A flight's format, match lengths, feeding and tiebreaks."""

    name = StringField(lazy_gettext("Name"), validators=[DataRequired(), Length(max=80)])
    format = SelectField(lazy_gettext("Format"), choices=options(FORMAT_LABELS.items()))
    match_length = IntegerField(
        lazy_gettext("Match length (points)"),
        validators=[InputRequired(), NumberRange(min=1, max=99)],
    )
    round_lengths = StringField(
        lazy_gettext("Longer matches for some rounds"),
        description=lazy_gettext("For example “semifinal: 9, final: 11” or “4: 9”."),
        validators=[Length(max=200)],
    )
    swiss_rounds = IntegerField(
        lazy_gettext("Swiss: rounds"),
        validators=[OptionalValue(), NumberRange(min=1, max=30)],
        description=lazy_gettext("Empty: enough rounds for one unbeaten player."),
    )
    swiss_lives = IntegerField(
        lazy_gettext("Swiss: lives"),
        validators=[OptionalValue(), NumberRange(min=1, max=9)],
        description=lazy_gettext("Instead of rounds: a player is out after this many losses."),
    )
    bye_counts_as_win = BooleanField(lazy_gettext("A bye counts as a match win"), default=True)
    unrated = BooleanField(
        lazy_gettext("Unrated: its matches do not count in the club's rating list")
    )
    feeds_from_id = SelectField(lazy_gettext("Losers come from"), coerce=optional_int)
    feed_rounds = StringField(
        lazy_gettext("…of rounds"),
        description=lazy_gettext("For example “1” or “1, 2”."),
        validators=[Length(max=40)],
    )
    progressive = BooleanField(lazy_gettext("Progressive: later losers enter later rounds"))
    feed_bye_losers = BooleanField(lazy_gettext("First-match losers who had a bye enter too"))
    reset_match = BooleanField(lazy_gettext("Double elimination: reset final"))
    pools = IntegerField(
        lazy_gettext("Round robin: pools"),
        validators=[OptionalValue(), NumberRange(min=1, max=5000)],
        description=lazy_gettext("Empty: one table, everyone plays everyone."),
    )
    pool_seeding = SelectField(
        lazy_gettext("Pools made"),
        choices=options((p.value, p.label) for p in PoolSeeding),
        default=PoolSeeding.SNAKE.value,
    )
    qualifies_from_id = SelectField(lazy_gettext("Qualifiers come from"), coerce=optional_int)
    qualifiers = IntegerField(
        lazy_gettext("…how many qualify"),
        validators=[OptionalValue(), NumberRange(min=1, max=10000)],
        description=lazy_gettext("From each pool of a round robin; from a Swiss in all."),
    )
    cut_ties = SelectField(
        lazy_gettext("Ties at the cut"),
        choices=options((c.value, c.label) for c in CutTies),
        default=CutTies.TIEBREAKS.value,
    )
    draw_method = SelectField(
        lazy_gettext("Draw"),
        choices=options(
            [
                (DrawMethod.RANDOM.value, lazy_gettext("Random (from a stored seed)")),
                (DrawMethod.SEEDED.value, lazy_gettext("Seeded")),
                (DrawMethod.MANUAL.value, lazy_gettext("By hand")),
            ]
        ),
    )
    tiebreak_1 = SelectField(lazy_gettext("Tiebreak 1"), choices=TIEBREAK_CHOICES, default="")
    tiebreak_2 = SelectField(lazy_gettext("Tiebreak 2"), choices=TIEBREAK_CHOICES, default="")
    tiebreak_3 = SelectField(lazy_gettext("Tiebreak 3"), choices=TIEBREAK_CHOICES, default="")
    boards = IntegerField(
        lazy_gettext("Teams: boards per fixture"),
        validators=[OptionalValue(), NumberRange(min=1, max=MAX_BOARDS)],
        description=lazy_gettext(
            "Empty: players meet one to one. 3: teams meet in fixtures of 3 "
            "board matches, the majority of boards wins."
        ),
    )

    clock_minutes_per_point = DecimalField(
        lazy_gettext("Clock: minutes per point"),
        places=2,
        default=Decimal(2),
        validators=[OptionalValue(), NumberRange(min=Decimal("0.25"), max=Decimal(30))],
        description=lazy_gettext(
            "Each player's time per point of match length: 2 gives 14 minutes each in a "
            "7-point match."
        ),
    )
    clock_delay_seconds = IntegerField(
        lazy_gettext("Clock: delay per move (seconds)"),
        default=12,
        validators=[OptionalValue(), NumberRange(min=0, max=120)],
    )

    def clock_seconds_per_point(self) -> int:
        """The clock's time per point, in whole seconds."""
        return round((self.clock_minutes_per_point.data or Decimal(2)) * 60)

    def validate_round_lengths(self, field: StringField) -> None:
        """The text parses as ``round: length`` pairs."""
        try:
            parse_round_lengths(field.data or "")
        except ValueError as error:
            raise ValidationError(translate(message_of(error), current_language())) from None

    def validate_feed_rounds(self, field: StringField) -> None:
        """The text parses as round numbers."""
        try:
            parse_rounds_list(field.data or "")
        except ValueError as error:
            raise ValidationError(translate(message_of(error), current_language())) from None

    def tiebreaks(self) -> tuple[str, ...]:
        """The chosen tiebreaks in order, gaps closed."""
        chosen = (self.tiebreak_1.data, self.tiebreak_2.data, self.tiebreak_3.data)
        return tuple(t for t in chosen if t)


class CutPicksForm(Form):
    """The players a director sends through from a tie at the cut."""

    players = SelectMultipleField(lazy_gettext("Goes through"), coerce=int)


class PlayerForm(Form):
    """A roster player."""

    name = StringField(lazy_gettext("Name"), validators=[DataRequired(), Length(max=120)])
    country = StringField(
        lazy_gettext("Country"),
        validators=[OptionalValue(), Length(max=2)],
        description=lazy_gettext("Two letters: NO, DE."),
    )
    rating = FloatField(
        lazy_gettext("Rating"), validators=[OptionalValue(), NumberRange(min=0, max=5000)]
    )
    email = StringField(
        lazy_gettext("E-mail address"), validators=[OptionalValue(), Length(max=254)]
    )
    club_id = SelectField(lazy_gettext("Club"), coerce=optional_int)
    add_as_new = BooleanField(
        lazy_gettext("Add as a new player"),
        description=lazy_gettext(
            "Tick only when a player of the same name is already on the roster "
            "and this is someone else."
        ),
    )


PLAYER_IMPORT_MAX_BYTES = 1024 * 1024
"""The largest list of players the web import takes (a few thousand rows)."""


class PlayerImportForm(Form):
    """A CSV or XLSX list of players to preview before anything is saved."""

    file = FileField(
        lazy_gettext("File (.csv or .xlsx)"),
        validators=[
            FileRequired(lazy_gettext("Choose a .csv or .xlsx file.")),
            FileAllowed(["csv", "xlsx", "txt"], lazy_gettext("Use a .csv or .xlsx file.")),
            FileSize(
                PLAYER_IMPORT_MAX_BYTES,
                message=lazy_gettext("The file is larger than 1 MB; split it."),
            ),
        ],
        description=(
            lazy_gettext(
                "A header row naming the columns: name, country, rating, experience, matches, "
                "email."
            )
        ),
    )
    # Beside the roster's own club box on one page: an id of its own.
    club_id = SelectField(
        lazy_gettext("Add them to club"), coerce=optional_int, id="import-club_id"
    )


@dataclass(frozen=True)
class PreviewedFile:
    """A list of players the director has seen previewed, as the confirm step reads it."""

    filename: str
    club_id: int | None
    data: bytes


PREVIEW_EXPIRED = lazy_gettext("The preview expired or was altered; upload the file again.")


class PlayerImportConfirmForm(Form):
    """The previewed file, signed by the server, to save its good rows.

    The confirm step reads the file again from this signed copy, never from rows the
    browser sends back; a copy whose signature does not hold is refused.
    """

    upload = HiddenField(validators=[DataRequired(message=PREVIEW_EXPIRED)])

    @classmethod
    def of(cls, previewed: PreviewedFile) -> PlayerImportConfirmForm:
        """The form that confirms ``previewed``."""
        signed = _preview_signer().dumps(
            [previewed.filename, previewed.club_id, previewed.data.hex()]
        )
        return cls(formdata=None, upload=signed)

    def validate_upload(self, field: HiddenField) -> None:
        """The signature holds."""
        try:
            self.previewed()
        except (BadSignature, ValueError):
            raise ValidationError(PREVIEW_EXPIRED) from None

    def previewed(self) -> PreviewedFile:
        """The file the signed copy holds.

        Raises:
            BadSignature, ValueError: the copy was altered or is not one of ours.
        """
        filename, club_id, data = _preview_signer().loads(self.upload.data or "")
        return PreviewedFile(str(filename), club_id, bytes.fromhex(data))


def _preview_signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt="tourney.player-import")


class ClubForm(Form):
    """A club."""

    club_name = StringField(
        lazy_gettext("Club name"),
        validators=[DataRequired(message=lazy_gettext("Enter the club's name.")), Length(max=120)],
    )


class EntryForm(Form):
    """Enter a roster player in an event."""

    player_id = SelectField(
        lazy_gettext("Player"),
        coerce=optional_int,
        validators=[DataRequired(message=lazy_gettext("Choose a player."))],
    )
    seed = IntegerField(
        lazy_gettext("Seed"), validators=[OptionalValue(), NumberRange(min=1, max=9999)]
    )


class BulkEntryForm(Form):
    """Enter the roster players ticked in the list of those not entered yet."""

    player_ids = SelectMultipleField(
        lazy_gettext("Players"),
        coerce=int,
        validate_choice=False,
        validators=[DataRequired(message=lazy_gettext("Tick at least one player to enter."))],
    )


class PastedNamesForm(Form):
    """Enter roster players by their names, one per line."""

    names = TextAreaField(
        lazy_gettext("Names, one per line"),
        validators=[
            DataRequired(message=lazy_gettext("Paste at least one name.")),
            Length(max=100_000),
        ],
    )


class SeedForm(Form):
    """Change an entry's seed (empty: no seed)."""

    seed = IntegerField(
        lazy_gettext("Seed"), validators=[OptionalValue(), NumberRange(min=1, max=9999)]
    )


# --- draws and results ---------------------------------------------------------------


def parse_score(text: str) -> tuple[int, int]:
    """``"7-4"`` (or ``7–4``, ``7:4``, ``7 4``) as ``(7, 4)``.

    Raises:
        ValueError: not two whole numbers.

    >>> parse_score(" 7 – 4 ")
    (7, 4)
    """
    match = re.fullmatch(r"\s*(\d{1,3})\s*(?:[-–:/]|\s)\s*(\d{1,3})\s*", text)
    if match is None:
        raise ValueError(gettext("Enter the final score as two numbers, like “7-4”."))
    return int(match.group(1)), int(match.group(2))


class TeamForm(Form):
    """A team: its name and its players in board order (a pair as ``Ann & Bob``)."""

    name = StringField(lazy_gettext("Team name"), validators=[DataRequired(), Length(max=80)])
    members = TextAreaField(
        lazy_gettext("Players in board order"),
        description=lazy_gettext(
            "One line a board, top board first; a pair who consult on one board "
            "as “Ann Lee & Bob Ray”. New names are added to the roster."
        ),
        validators=[DataRequired(), Length(max=2000)],
    )
    seed = IntegerField(
        lazy_gettext("Seed"), validators=[OptionalValue(), NumberRange(min=1, max=9999)]
    )


class LineupForm(Form):
    """One team's players on boards 1..N of a fixture, by name, top board first."""

    side = SelectField(lazy_gettext("Team"), choices=options([("a", "a"), ("b", "b")]))
    players = TextAreaField(
        lazy_gettext("Players on boards 1, 2, ..."),
        description=lazy_gettext("One name a line, as the team list shows it."),
        validators=[DataRequired(), Length(max=2000)],
    )


class TeamDrawForm(Form):
    """Draw the next round of a team flight (the first one from a seed, new when empty)."""

    seed = IntegerField(
        lazy_gettext("Seed"), validators=[OptionalValue(), NumberRange(min=0, max=2**31 - 1)]
    )


class DrawForm(Form):
    """Make a draw: random from a seed (a new one when empty) or seeded."""

    method = SelectField(
        lazy_gettext("Draw"),
        choices=options(
            [
                (DrawMethod.RANDOM.value, lazy_gettext("Random")),
                (DrawMethod.SEEDED.value, lazy_gettext("Seeded (by seed, then rating)")),
            ]
        ),
    )
    seed = IntegerField(
        lazy_gettext("Seed"),
        validators=[OptionalValue(), NumberRange(min=0, max=2**31 - 1)],
        description=lazy_gettext(
            "Empty: a new random seed, stored and shown. Give one to repeat a draw."
        ),
    )
    everyone = BooleanField(
        lazy_gettext("Draw everyone entered"),
        description=lazy_gettext(
            "Also the players not checked in (by default only those checked in)."
        ),
    )


class VersionedForm(Form):
    """A change to a match: carries the version the director saw (optimistic locking)."""

    # A version that is not a number cannot be checked, so the change is refused
    # rather than saved unchecked over a newer result.
    version = HiddenField(
        validators=[
            InputRequired(),
            Regexp(r"^[0-9]{1,9}\Z", message=lazy_gettext("the form is damaged; reload the page.")),
        ]
    )
    confirm_cascade = BooleanField(lazy_gettext("Also clear later results that depend on this one"))

    def seen_version(self) -> int:
        """The version the page showed (call after the form validated)."""
        return int(self.version.data or "")


CUBE_CHOICES = options((cube, str(cube)) for cube in CUBE_VALUES)
LEVEL_CHOICES = options(
    [
        ("single", lazy_gettext("Single")),
        ("gammon", lazy_gettext("Gammon")),
        ("backgammon", lazy_gettext("Backgammon")),
        ("", lazy_gettext("— (dropped)")),
    ]
)
END_CHOICES = options(
    [
        ("played", lazy_gettext("Played out")),
        ("dropped", lazy_gettext("Double dropped")),
        ("resigned", lazy_gettext("Resigned")),
        ("drawn", lazy_gettext("Drawn (last roll)")),
    ]
)


class GameForm(VersionedForm):
    """One game: winner, how it ended, the cube, the level (a drawn game has neither a
    winner nor a level: whatever those boxes hold is not used)."""

    winner = SelectField(
        lazy_gettext("Winner"),
        choices=options([("a", lazy_gettext("Player A")), ("b", lazy_gettext("Player B"))]),
    )
    end = SelectField(lazy_gettext("Ended"), choices=END_CHOICES)
    cube = SelectField(
        lazy_gettext("Cube"),
        choices=CUBE_CHOICES,
        coerce=int,
        default=1,
        description=lazy_gettext("For a dropped double: the value before the refused double."),
    )
    level = SelectField(lazy_gettext("Result"), choices=LEVEL_CHOICES, default="single")


class ScoreForm(VersionedForm):
    """A final score in one line."""

    score = StringField(lazy_gettext("Final score"), validators=[DataRequired(), Length(max=20)])

    def validate_score(self, field: StringField) -> None:
        """Two whole numbers."""
        try:
            parse_score(field.data or "")
        except ValueError as error:
            raise ValidationError(translate(message_of(error), current_language())) from None


class UploadForm(VersionedForm):
    """A match record file."""

    record = FileField(
        # The label stays as guides quote it; the help text below the field names .sgf.
        lazy_gettext("Match file (.mat, or a .json match record)"),
        validators=[FileRequired(lazy_gettext("Choose a .mat, .sgf or .json match record."))],
    )


RECORD_EXPIRED = lazy_gettext("The record was not kept or was altered; upload the file again.")


class RecordPlayersForm(VersionedForm):
    """Who is who in an uploaded match record whose player names are not the match's.

    The record comes back signed by the server (the browser cannot send a file again
    without the director choosing it again); a copy whose signature does not hold is
    refused.
    """

    record = HiddenField(validators=[DataRequired(message=RECORD_EXPIRED)])
    first_player_side = SelectField(
        lazy_gettext("The record's first player is"),
        choices=options([("a", lazy_gettext("Player A")), ("b", lazy_gettext("Player B"))]),
    )

    @classmethod
    def of(cls, filename: str, data: bytes) -> RecordPlayersForm:
        """The form that says who is who in ``data``."""
        return cls(formdata=None, record=_record_signer().dumps([filename, data.hex()]))

    def validate_record(self, field: HiddenField) -> None:
        """The signature holds."""
        try:
            self.signed_record()
        except (BadSignature, ValueError):
            raise ValidationError(RECORD_EXPIRED) from None

    def signed_record(self) -> tuple[str, bytes]:
        """The file name and contents the signed copy holds.

        Raises:
            BadSignature, ValueError: the copy was altered or is not one of ours.
        """
        filename, data = _record_signer().loads(self.record.data or "")
        return str(filename), bytes.fromhex(data)


def _record_signer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key or "", salt="tourney.match-record")


class WalkoverForm(VersionedForm):
    """A forfeit: who goes through."""

    winner = SelectField(
        lazy_gettext("Goes through"),
        choices=options([("a", lazy_gettext("Player A")), ("b", lazy_gettext("Player B"))]),
    )


class LateEntryForm(Form):
    """A late entry into a drawn Swiss with a starting record."""

    entry_id = SelectField(
        lazy_gettext("Player"),
        coerce=optional_int,
        validators=[DataRequired(message=lazy_gettext("Choose a player."))],
    )
    wins = IntegerField(
        lazy_gettext("Wins"), default=0, validators=[InputRequired(), NumberRange(min=0, max=30)]
    )
    losses = IntegerField(
        lazy_gettext("Losses"), default=0, validators=[InputRequired(), NumberRange(min=0, max=30)]
    )


class TableForm(Form):
    """A match's table, changed before play."""

    table = StringField(
        lazy_gettext("Table"),
        validators=[
            DataRequired(message=lazy_gettext("Give the table a number or name.")),
            Length(max=20),
        ],
    )


class KnockoutLateEntryForm(Form):
    """A late entrant placed in a first-round bye of a knockout."""

    # On the flight page beside the Swiss late entry's player box: an id of its own.
    entry_id = SelectField(
        lazy_gettext("Player"),
        coerce=optional_int,
        validators=[DataRequired(message=lazy_gettext("Choose a player."))],
        id="bye-entry_id",
    )
    match_id = SelectField(
        lazy_gettext("Bye"),
        coerce=optional_int,
        validators=[DataRequired(message=lazy_gettext("Choose a bye."))],
    )


MONEY_SEATS = 8
"""Seat boxes on the money session form: two players, or a chouette of up to eight."""


class MoneySessionForm(Form):
    """A new money session or chouette: its players in seat order, stake and cube options."""

    name = StringField(lazy_gettext("Name"), validators=[DataRequired(), Length(max=120)])
    stake_mode = SelectField(lazy_gettext("Stake"), validators=[DataRequired()])
    stake = StringField(
        lazy_gettext("Worth of one unit"),
        default="1.00",
        validators=[
            DataRequired(),
            Regexp(
                r"^\d{1,7}([.,]\d{1,2})?\Z",
                message=lazy_gettext("write an amount such as 0.50 or 2."),
            ),
        ],
    )
    currency = StringField(
        lazy_gettext("Currency"),
        default="EUR",
        validators=[DataRequired(), Regexp(r"^[A-Za-z]{3}\Z")],
    )
    jacoby = BooleanField(
        lazy_gettext("Jacoby rule (gammons count single until the cube is turned)")
    )
    beavers = BooleanField(lazy_gettext("Beavers"))
    raccoons = BooleanField(lazy_gettext("Raccoons (with beavers)"))
    automatic_doubles = IntegerField(
        lazy_gettext("Automatic doubles a game (0: none)"),
        default=0,
        validators=[OptionalValue(), NumberRange(0, 6)],
    )
    cube_limit = SelectField(
        lazy_gettext("Cube limit"),
        coerce=optional_int,
        choices=options(
            [(None, lazy_gettext("No limit")), *((2**e, str(2**e)) for e in range(1, 11))]
        ),
        validate_choice=False,
    )
    team_cube = BooleanField(lazy_gettext("Chouette: the team plays one cube, the captain's"))
    end_difference = IntegerField(
        lazy_gettext("End at a difference of (units; empty: by agreement)"),
        validators=[OptionalValue(), NumberRange(1, 100_000)],
    )
    time_limit = IntegerField(
        lazy_gettext("Time limit (minutes from now; empty: none)"),
        validators=[OptionalValue(), NumberRange(1, 24 * 60)],
    )

    def seat_fields(self) -> list[SelectField]:
        """The seat boxes in order."""
        return [getattr(self, f"seat_{n}") for n in range(1, MONEY_SEATS + 1)]

    def stake_minor(self) -> int:
        """The stake as minor units (cents)."""
        whole, _, cents = (self.stake.data or "0").replace(",", ".").partition(".")
        return int(whole) * 100 + int((cents + "00")[:2])


for _seat in range(1, MONEY_SEATS + 1):
    _label = {
        1: lazy_gettext("Box (or first player)"),
        2: lazy_gettext("Captain (or second player)"),
    }.get(_seat, lazy_gettext("Team member %(number)s", number=_seat - 2))
    setattr(
        MoneySessionForm,
        f"seat_{_seat}",
        SelectField(_label, coerce=optional_int, validate_choice=False),
    )


class MoneyGameForm(Form):
    """The next game of a money session; each opponent's result is read from fields named
    by the player (``winner_12``, ``how_12`` ...), so the form fits any team size."""

    games_before = HiddenField(
        validators=[
            InputRequired(),
            Regexp(r"^[0-9]{1,6}\Z", message=lazy_gettext("the form is damaged; reload the page.")),
        ]
    )


class SeasonForm(Form):
    """A new season of a club: its events and how they score."""

    name = StringField(lazy_gettext("Name"), validators=[DataRequired(), Length(max=120)])
    event_ids = SelectMultipleField(lazy_gettext("Events"), coerce=int, validators=[DataRequired()])
    scoring = SelectField(lazy_gettext("Scoring"), validators=[DataRequired()])
    points_table = StringField(
        lazy_gettext("Points for 1st, 2nd, 3rd ... (place scoring)"),
        default="25, 18, 15, 12, 10, 8, 6, 4, 2, 1",
        validators=[
            Regexp(
                r"^\s*(\d{1,4}\s*(,\s*\d{1,4}\s*)*)?$",
                message=lazy_gettext("write whole numbers separated by commas."),
            )
        ],
    )
    best = IntegerField(
        lazy_gettext("Only the best this many events count (empty: all)"),
        validators=[OptionalValue(), NumberRange(1, 999)],
    )

    def points(self) -> tuple[int, ...]:
        """The points table as numbers."""
        return tuple(int(p) for p in (self.points_table.data or "").split(",") if p.strip())


class SeedByRatingForm(Form):
    """Seeding an event's players by its club's rating list."""

    seeds = IntegerField(
        lazy_gettext("How many seeds"),
        default=8,
        validators=[InputRequired(), NumberRange(1, 9999)],
    )


class RatingOptionsForm(Form):
    """A club's rating list options: the provisional threshold and public player pages."""

    provisional_below = IntegerField(
        lazy_gettext("Provisional below this much experience (0: off)"),
        default=0,
        validators=[InputRequired(), NumberRange(0, 100_000)],
    )
    public_profiles = BooleanField(
        lazy_gettext(
            "Anyone may see the players' pages at the club (rating, chart, results) without "
            "logging in"
        )
    )


class MoneyEndForm(Form):
    """Ending a session, with how it ended."""

    how = StringField(
        lazy_gettext("How it ended"),
        default=lambda: gettext("by agreement"),
        validators=[Length(max=120)],
    )


def _amount(form: FlaskForm, field: Field) -> None:
    """An amount typed in major units (20, 20.50) that ``prizes.parse_money`` reads."""
    try:
        prizes.parse_money(field.data or "0")
    except FormatUserError as error:
        raise ValidationError(translate(message_of(error), current_language())) from None


class FlightMoneyForm(Form):
    """A flight's club money: fees, side pools, retention, sponsor, payout and points."""

    currency = SelectField(
        lazy_gettext("Currency"),
        choices=options((c.code, c.code) for c in prizes.CURRENCIES),
        default="EUR",
    )
    entry_fee = StringField(lazy_gettext("Entry fee"), default="0", validators=[_amount])
    buyback_fee = StringField(
        lazy_gettext("Buy-back fee (a consolation or last chance; 0: no buy-backs)"),
        default="0",
        validators=[_amount],
    )
    retention_percent = IntegerField(
        lazy_gettext("House retention (%)"),
        default=0,
        validators=[InputRequired(), NumberRange(0, 100)],
    )
    sponsor = StringField(
        lazy_gettext("Sponsor money added to the prizes"), default="0", validators=[_amount]
    )
    payout_table = TextAreaField(
        lazy_gettext(
            "Payout table: percentages by place (50/30/20), or by field size, one row a line "
            "(1+: 100, then 8+: 70/30, then 16+: 50/30/20)"
        ),
        default="100",
        validators=[DataRequired(), Length(max=2000)],
    )
    side_pools = TextAreaField(
        lazy_gettext("Side pools, one a line: name, fee, payout table (Pool A, 5, 70/30)"),
        validators=[Length(max=2000)],
    )
    hide_amounts = BooleanField(lazy_gettext("Public pages show percentages only, never amounts"))
    refund_policy = SelectField(
        lazy_gettext("When a player withdraws"),
        choices=options((k, lazy_core(v)) for k, v in club_money.REFUND_POLICIES.items()),
        default="before_draw",
    )
    points_factor = IntegerField(
        lazy_gettext("Points: division factor in % (100 for the top division; empty: no points)"),
        validators=[OptionalValue(), NumberRange(1, 1000)],
    )
    points_table = StringField(
        lazy_gettext("Points table: percentages by place (40/25/15/10/5/5)"),
        validators=[Length(max=400)],
    )

    def validate_side_pools(self, field: Field) -> None:
        """Each line reads as name, fee, payout table."""
        self.pool_fields(field.data or "")

    def pool_fields(self, text: str) -> list[tuple[str, int, str]]:
        """The side pools typed, as (name, fee in minor units, payout table text).

        Raises:
            ValidationError: a line that is not name, fee, table.
        """
        pools: list[tuple[str, int, str]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            parts = [p.strip() for p in line.split(",")]
            if len(parts) != 3 or not parts[0]:
                raise ValidationError(
                    gettext(
                        "Line %(number)s: write a side pool as name, fee, payout table "
                        "(Pool A, 5, 70/30).",
                        number=number,
                    )
                )
            try:
                fee = prizes.parse_money(parts[1])
            except FormatUserError as error:
                shown = translate(message_of(error), current_language())
                raise ValidationError(
                    gettext("Line %(number)s: %(error)s", number=number, error=shown)
                ) from None
            pools.append((parts[0], fee, parts[2]))
        return pools


class MoneyTakeForm(Form):
    """A fee taken in the ledger: an entry fee paid, a side pool or a buy-back."""

    entry_id = IntegerField(
        lazy_gettext("Player"), validators=[InputRequired(), NumberRange(1, 2**31)]
    )
    what = StringField(
        lazy_gettext("Fee"),
        validators=[
            DataRequired(),
            Regexp(
                r"^\d{1,12}\|(entry|pool|buyback)\|.{0,60}\Z", message=lazy_gettext("Choose a fee.")
            ),
        ],
    )
    method = SelectField(
        lazy_gettext("Paid"),
        choices=options(
            [
                ("", lazy_gettext("Not yet (owed)")),
                ("cash", lazy_gettext("Cash")),
                ("transfer", lazy_gettext("Bank transfer")),
                ("other", lazy_gettext("Other")),
            ]
        ),
        default="cash",
    )

    def fee(self) -> tuple[int, str, str]:
        """The fee chosen: (flight id, kind, side pool name)."""
        flight, kind, pool = (self.what.data or "0||").split("|", 2)
        return int(flight), kind, pool


class MoneyUndoForm(Form):
    """Taking back a payment marked by mistake."""

    item_id = IntegerField(lazy_gettext("Fee"), validators=[InputRequired(), NumberRange(1, 2**31)])


class MoneyRefundForm(Form):
    """Refunding a withdrawn player."""

    entry_id = IntegerField(
        lazy_gettext("Player"), validators=[InputRequired(), NumberRange(1, 2**31)]
    )
    method = SelectField(
        lazy_gettext("Refunded by"),
        choices=options(
            [
                ("cash", lazy_gettext("Cash")),
                ("transfer", lazy_gettext("Bank transfer")),
                ("other", lazy_gettext("Other")),
            ]
        ),
        default="cash",
    )
    include_drawn = BooleanField(lazy_gettext("Also what was paid into flights already drawn"))


class ScreenForm(Form):
    """An event's venue screen: its panels, seconds a slide, announcement, round clock."""

    panels = SelectMultipleField(
        lazy_gettext("Panels"), validators=[DataRequired(lazy_gettext("Choose a panel."))]
    )
    rotation_seconds = IntegerField(
        lazy_gettext("Seconds a slide"),
        default=20,
        validators=[InputRequired(), NumberRange(min=5, max=300)],
    )
    announcement = TextAreaField(
        lazy_gettext("Announcement"),
        validators=[Length(max=500)],
        description=lazy_gettext("Shown on its own slide; empty: no announcement slide."),
    )
    clock_minutes = IntegerField(
        lazy_gettext("Round clock: minutes from now"),
        validators=[OptionalValue(), NumberRange(min=1, max=24 * 60)],
        description=lazy_gettext(
            "Counts down to a deadline you set; empty: to each current round's expected end."
        ),
    )
