"""Flask-WTF forms: they check shape (required, types, ranges) and CSRF, never rules.

A rule the store refuses comes back as a ``StoreUserError`` naming a field; ``apply_error``
puts its message on that field (or on the form) so the page shows it where it belongs.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from flask_wtf import FlaskForm
from flask_wtf.file import FileAllowed, FileField, FileRequired, FileSize
from wtforms import (
    BooleanField,
    DateField,
    FloatField,
    HiddenField,
    IntegerField,
    PasswordField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
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

from tourney.rules.variants import NextGameStarter
from tourney.store.errors import StoreUserError
from tourney.store.queries import FORMAT_LABELS, TIEBREAK_LABELS, VARIANT_LABELS
from tourney.store.tables import DrawMethod
from tourney.store.variant_options import STARTER_LABELS

_ROUND_ALIASES = {
    "final": "final",
    "finals": "final",
    "f": "final",
    "semifinal": "semifinal",
    "semifinals": "semifinal",
    "semi": "semifinal",
    "semis": "semifinal",
    "sf": "semifinal",
    "quarterfinal": "quarterfinal",
    "quarterfinals": "quarterfinal",
    "quarter": "quarterfinal",
    "quarters": "quarterfinal",
    "qf": "quarterfinal",
}


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
            raise ValueError(f"“{part.strip()}” is not like “final: 11”.")
        words = match.group(1).lower().replace("-", "").replace(" ", "")
        number = match.group(2)
        if number and words in ("", "r", "round"):
            key = str(int(number))
        elif not number and words in _ROUND_ALIASES:
            key = _ROUND_ALIASES[words]
        else:
            raise ValueError(f"“{part.strip()}”: name a round number or final, semifinal.")
        lengths[key] = int(match.group(3))
    return lengths


def parse_rounds_list(text: str) -> tuple[int, ...]:
    """``"1, 2"`` as ``(1, 2)``.

    Raises:
        ValueError: something other than whole numbers.
    """
    parts = [p for p in re.split(r"[,;\s]+", text) if p]
    if not all(p.isdigit() for p in parts):
        raise ValueError("List round numbers, like “1, 2”.")
    return tuple(int(p) for p in parts)


def apply_error(form: FlaskForm, error: StoreUserError) -> None:
    """Show a store error on its field, or above the form; 403/404/409 are re-raised."""
    if error.status_code not in (400, 409):
        raise error
    target = getattr(form, error.field, None) if error.field else None
    if target is not None and hasattr(target, "errors"):
        target.errors = [*list(target.errors), error.message]
    else:
        form.form_errors.append(error.message)


def options(pairs: Iterable[tuple[object, str]]) -> list[SelectChoice]:
    """Select-box options from (value, label) pairs; none as a value becomes empty."""
    return [SelectChoice("" if v is None else str(v), label) for v, label in pairs]


def optional_int(value: Any) -> int | None:
    """Select-box coercion: empty means none."""
    if value in (None, "", "None"):
        return None
    return int(value)


def new_password_fields(label: str) -> tuple[PasswordField, PasswordField]:
    """A new password and the same again, for a form's ``password`` and ``confirm``."""
    return (
        PasswordField(
            label,
            validators=[DataRequired(), Length(min=10, max=1024)],
            description="At least 10 characters.",
        ),
        PasswordField(
            f"{label} again",
            validators=[DataRequired(), EqualTo("password", message="The passwords differ.")],
        ),
    )


class LoginForm(FlaskForm):
    """E-mail address and password."""

    email = StringField("E-mail address", validators=[DataRequired(), Length(max=254)])
    password = PasswordField("Password", validators=[DataRequired(), Length(max=1024)])


class SetupForm(FlaskForm):
    """The first account."""

    name = StringField("Your name", validators=[DataRequired(), Length(max=120)])
    email = StringField("E-mail address", validators=[DataRequired(), Length(max=254)])
    password, confirm = new_password_fields("Password")


class PasswordForm(FlaskForm):
    """The logged-in user changes their password."""

    current_password = PasswordField(
        "Current password", validators=[DataRequired(), Length(max=1024)]
    )
    password, confirm = new_password_fields("New password")


class UserForm(SetupForm):
    """An admin adds an account."""

    role = SelectField(
        "Role",
        choices=options(
            [
                ("director", "Director — runs their own events"),
                ("scorer", "Scorer — enters results"),
                ("admin", "Admin — everything"),
            ]
        ),
    )


class ActionForm(FlaskForm):
    """A button that changes something: only the CSRF token."""


CUBE_LIMIT_CHOICES = options([("", "No limit"), *((e, f"{2**e}") for e in range(1, 13))])


class EventForm(FlaskForm):
    """An event's name, dates, venue and rule flags."""

    name = StringField("Name", validators=[DataRequired(), Length(max=160)])
    slug = StringField(
        "Web address",
        validators=[OptionalValue(), Length(max=60)],
        description="Letters, digits and dashes; left empty, it is made from the name.",
    )
    starts_on = DateField("Starts", validators=[OptionalValue()])
    ends_on = DateField("Ends", validators=[OptionalValue()])
    club_id = SelectField("Club", coerce=optional_int, validate_choice=True)
    venue_name = StringField("Venue", validators=[OptionalValue(), Length(max=120)])
    is_public = BooleanField("Public: listed on the home page and in the API")
    variant = SelectField("Game", choices=options(VARIANT_LABELS.items()), default="standard")
    crawford = BooleanField("Crawford rule", default=True)
    holland = BooleanField("Holland rule (post-Crawford: no double before two rolls each)")
    cube_limit = SelectField("Cube limit", choices=CUBE_LIMIT_CHOICES, coerce=optional_int)
    money_play = BooleanField("Money play")
    jacoby = BooleanField("Jacoby rule (house rule)")
    beavers = BooleanField("Beavers (money play only)")
    automatic_doubles = BooleanField("Automatic doubles (money play only)")
    notes = TextAreaField("Notes for players", validators=[Length(max=4000)])
    # Variant options (``tourney.store.variant_options``): the page shows the set of the
    # chosen variant; the server keeps only those that belong to it.
    hyper_gammons = BooleanField(
        "Gammons and backgammons count",
        description="Off: every game scores single, as hypergammon is usually played.",
    )
    nardy_cube = BooleanField(
        "Doubling cube", description="Off: every game is played at 1, as the usual rules say."
    )
    nardy_crawford = BooleanField(
        "Crawford rule", description="Only with the doubling cube: no doubling in the first "
        "game after a player reaches N−1."
    )
    nardy_koks = BooleanField(
        "A koks scores 3", description="Off: a koks counts as a mars, 2 points."
    )
    nardy_last_roll_draw = BooleanField(
        "Last-roll draw",
        description="The second player gets a last roll; bearing everything off with it "
        "draws the game.",
    )
    nardy_strict_block = BooleanField(
        "Strict six-block rule",
        description="A block of six points only once an opposing checker has reached its home.",
    )
    nardy_next_game_starter = SelectField(
        "Who opens the next game",
        choices=options((starter.value, label) for starter, label in STARTER_LABELS.items()),
        default=NextGameStarter.WINNER.value,
    )


TIEBREAK_CHOICES = options([("", "—"), *TIEBREAK_LABELS.items()])


class FlightForm(FlaskForm):
    """A flight's format, match lengths, feeding and tiebreaks."""

    name = StringField("Name", validators=[DataRequired(), Length(max=80)])
    format = SelectField("Format", choices=options(FORMAT_LABELS.items()))
    match_length = IntegerField(
        "Match length (points)", validators=[InputRequired(), NumberRange(min=1, max=99)]
    )
    round_lengths = StringField(
        "Longer matches for some rounds",
        description="For example “semifinal: 9, final: 11” or “4: 9”.",
        validators=[Length(max=200)],
    )
    swiss_rounds = IntegerField(
        "Swiss: rounds",
        validators=[OptionalValue(), NumberRange(min=1, max=30)],
        description="Empty: enough rounds for one unbeaten player.",
    )
    swiss_lives = IntegerField(
        "Swiss: lives",
        validators=[OptionalValue(), NumberRange(min=1, max=9)],
        description="Instead of rounds: a player is out after this many losses.",
    )
    bye_counts_as_win = BooleanField("A bye counts as a match win", default=True)
    feeds_from_id = SelectField("Losers come from", coerce=optional_int)
    feed_rounds = StringField(
        "…of rounds", description="For example “1” or “1, 2”.", validators=[Length(max=40)]
    )
    progressive = BooleanField("Progressive: later losers enter later rounds")
    feed_bye_losers = BooleanField("First-match losers who had a bye enter too")
    reset_match = BooleanField("Double elimination: reset final")
    draw_method = SelectField(
        "Draw",
        choices=options(
            [
                (DrawMethod.RANDOM.value, "Random (from a stored seed)"),
                (DrawMethod.SEEDED.value, "Seeded"),
                (DrawMethod.MANUAL.value, "By hand"),
            ]
        ),
    )
    tiebreak_1 = SelectField("Tiebreak 1", choices=TIEBREAK_CHOICES, default="")
    tiebreak_2 = SelectField("Tiebreak 2", choices=TIEBREAK_CHOICES, default="")
    tiebreak_3 = SelectField("Tiebreak 3", choices=TIEBREAK_CHOICES, default="")

    def validate_round_lengths(self, field: StringField) -> None:
        """The text parses as ``round: length`` pairs."""
        try:
            parse_round_lengths(field.data or "")
        except ValueError as error:
            raise ValidationError(str(error)) from None

    def validate_feed_rounds(self, field: StringField) -> None:
        """The text parses as round numbers."""
        try:
            parse_rounds_list(field.data or "")
        except ValueError as error:
            raise ValidationError(str(error)) from None

    def tiebreaks(self) -> tuple[str, ...]:
        """The chosen tiebreaks in order, gaps closed."""
        chosen = (self.tiebreak_1.data, self.tiebreak_2.data, self.tiebreak_3.data)
        return tuple(t for t in chosen if t)


class PlayerForm(FlaskForm):
    """A roster player."""

    name = StringField("Name", validators=[DataRequired(), Length(max=120)])
    country = StringField(
        "Country", validators=[OptionalValue(), Length(max=2)], description="Two letters: NO, DE."
    )
    rating = FloatField("Rating", validators=[OptionalValue(), NumberRange(min=0, max=5000)])
    email = StringField("E-mail address", validators=[OptionalValue(), Length(max=254)])
    club_id = SelectField("Club", coerce=optional_int)


PLAYER_IMPORT_MAX_BYTES = 1024 * 1024
"""The largest list of players the web import takes (a few thousand rows)."""


class PlayerImportForm(FlaskForm):
    """A CSV or XLSX list of players to preview before anything is saved."""

    file = FileField(
        "File (.csv or .xlsx)",
        validators=[
            FileRequired("Choose a .csv or .xlsx file."),
            FileAllowed(["csv", "xlsx", "txt"], "Use a .csv or .xlsx file."),
            FileSize(PLAYER_IMPORT_MAX_BYTES, message="The file is larger than 1 MB; split it."),
        ],
        description="A header row naming the columns: name, country, rating, email.",
    )
    club_id = SelectField("Add them to club", coerce=optional_int)


class PlayerImportConfirmForm(FlaskForm):
    """The previewed file, signed by the server, to save its good rows."""

    upload = HiddenField(validators=[DataRequired()])


class ClubForm(FlaskForm):
    """A club."""

    club_name = StringField("Club name", validators=[DataRequired(), Length(max=120)])


class EntryForm(FlaskForm):
    """Enter a roster player in an event."""

    player_id = SelectField(
        "Player", coerce=optional_int, validators=[DataRequired(message="Choose a player.")]
    )
    seed = IntegerField("Seed", validators=[OptionalValue(), NumberRange(min=1, max=9999)])


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
        raise ValueError("Enter the final score as two numbers, like “7-4”.")
    return int(match.group(1)), int(match.group(2))


class DrawForm(FlaskForm):
    """Make a draw: random from a seed (a new one when empty) or seeded."""

    method = SelectField(
        "Draw",
        choices=options(
            [
                (DrawMethod.RANDOM.value, "Random"),
                (DrawMethod.SEEDED.value, "Seeded (by seed, then rating)"),
            ]
        ),
    )
    seed = IntegerField(
        "Seed",
        validators=[OptionalValue(), NumberRange(min=0, max=2**31 - 1)],
        description="Empty: a new random seed, stored and shown. Give one to repeat a draw.",
    )


class VersionedForm(FlaskForm):
    """A change to a match: carries the version the director saw (optimistic locking)."""

    # A version that is not a number cannot be checked, so the change is refused
    # rather than saved unchecked over a newer result.
    version = HiddenField(
        validators=[
            InputRequired(),
            Regexp(r"^[0-9]{1,9}\Z", message="the form is damaged; reload the page."),
        ]
    )
    confirm_cascade = BooleanField("Also clear later results that depend on this one")

    def seen_version(self) -> int:
        """The version the page showed (call after the form validated)."""
        return int(self.version.data)


CUBE_CHOICES = options((2**e, str(2**e)) for e in range(0, 13))
LEVEL_CHOICES = options(
    [("single", "Single"), ("gammon", "Gammon"), ("backgammon", "Backgammon"), ("", "— (dropped)")]
)
END_CHOICES = options(
    [
        ("played", "Played out"),
        ("dropped", "Double dropped"),
        ("resigned", "Resigned"),
        ("drawn", "Drawn (last roll)"),
    ]
)


class GameForm(VersionedForm):
    """One game: winner, how it ended, the cube, the level (a drawn game has neither a
    winner nor a level: whatever those boxes hold is not used)."""

    winner = SelectField("Winner", choices=options([("a", "Player A"), ("b", "Player B")]))
    end = SelectField("Ended", choices=END_CHOICES)
    cube = SelectField(
        "Cube",
        choices=CUBE_CHOICES,
        coerce=int,
        default=1,
        description="For a dropped double: the value before the refused double.",
    )
    level = SelectField("Result", choices=LEVEL_CHOICES, default="single")


class ScoreForm(VersionedForm):
    """A final score in one line."""

    score = StringField("Final score", validators=[DataRequired(), Length(max=20)])

    def validate_score(self, field: StringField) -> None:
        """Two whole numbers."""
        try:
            parse_score(field.data or "")
        except ValueError as error:
            raise ValidationError(str(error)) from None


class UploadForm(VersionedForm):
    """A match record file."""

    record = FileField(
        "Match file (.mat, or a .json match record)",
        validators=[FileRequired("Choose a .mat or .json match record.")],
    )


class WalkoverForm(VersionedForm):
    """A forfeit: who goes through."""

    winner = SelectField("Goes through", choices=options([("a", "Player A"), ("b", "Player B")]))


class LateEntryForm(FlaskForm):
    """A late entry into a drawn Swiss with a starting record."""

    entry_id = SelectField(
        "Player", coerce=optional_int, validators=[DataRequired(message="Choose a player.")]
    )
    wins = IntegerField("Wins", default=0, validators=[InputRequired(), NumberRange(min=0, max=30)])
    losses = IntegerField(
        "Losses", default=0, validators=[InputRequired(), NumberRange(min=0, max=30)]
    )


class TableForm(FlaskForm):
    """A match's table, changed before play."""

    table = StringField(
        "Table",
        validators=[DataRequired(message="Give the table a number or name."), Length(max=20)],
    )


class KnockoutLateEntryForm(FlaskForm):
    """A late entrant placed in a first-round bye of a knockout."""

    entry_id = SelectField(
        "Player", coerce=optional_int, validators=[DataRequired(message="Choose a player.")]
    )
    match_id = SelectField(
        "Bye", coerce=optional_int, validators=[DataRequired(message="Choose a bye.")]
    )
