"""Importing roster players from a CSV or XLSX file: a preview first, then the save.

The preview reads every row and lists its problems (no name, a bad country code, a bad
rating, experience, matches or e-mail address, a duplicate in the file or on the
roster) without writing
anything; the save registers the rows without problems through the store's
``register_player`` service. The command line (``tourney players import``) and the
director's web form share both steps.

Terminology:
    line     the row's number as a spreadsheet shows it: the header is line 1.
    roster   the players already in the database (of the chosen club, when one is given).
    experience, matches
             a club's existing rating list carries each player's FIBS experience (the
             sum of the lengths of their rated matches) and how many rated matches they
             played with their rating: the club's list continues from all three.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from sqlmodel import Session, select

from tourney.rules.messages import Message, PluralMessage, message_of
from tourney.store.audit import Actor
from tourney.store.errors import StoreUserError
from tourney.store.inputs import EMAIL_ADDRESS
from tourney.store.queries import PlayerView
from tourney.store.roster import PlayerFields, register_player
from tourney.store.tables import Player
from tourney.store.workbook import (
    NotAWorkbookError,
    WorkbookError,
    WorkbookLimits,
    read_first_sheet,
)

MAX_ROWS = 5000
_WORKBOOK_LIMITS = WorkbookLimits(max_rows=2 * MAX_ROWS)
"""A sheet may have blank lines between players, but not more lines than this."""
MAX_RATING = 5000
MAX_EXPERIENCE = 10_000_000
MAX_MATCHES = 1_000_000
_COUNTRY = re.compile(r"^[A-Z]{2}$")
_HEADERS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "player name", "full name", "navn", "spieler"),
    "country": ("country", "country code", "nation", "nationality", "land"),
    "rating": ("rating", "elo", "fibs rating"),
    "experience": ("experience", "exp", "fibs experience", "rating experience"),
    "matches": ("matches", "matches played", "rated matches"),
    "email": ("email", "e-mail", "e-mail address", "email address", "mail"),
}
"""Column headings each field is recognised by (compared case-insensitively)."""


class PlayerImportError(StoreUserError):
    """The file as a whole cannot be read (not CSV/XLSX, no name column, too many rows)."""


@dataclass(frozen=True)
class PlayerRow:
    """One row of the file, cleaned, with everything wrong with it."""

    line: int
    name: str
    country: str
    rating: float | None
    email: str | None
    problems: tuple[str, ...] = ()
    experience: int | None = None
    """The experience carried in with the rating."""
    matches: int | None = None
    """The rated matches carried in with the rating."""

    @property
    def is_ok(self) -> bool:
        """True when the row can be saved."""
        return not self.problems


@dataclass(frozen=True)
class PlayerImportPreview:
    """Every row of a file with its problems; nothing has been saved."""

    filename: str
    columns: tuple[str, ...]
    """The fields found in the header, in file order (``name``, ``country`` ...)."""
    rows: tuple[PlayerRow, ...]
    club_id: int | None = None

    @property
    def good_rows(self) -> tuple[PlayerRow, ...]:
        """The rows without problems."""
        return tuple(r for r in self.rows if r.is_ok)

    @property
    def problem_rows(self) -> tuple[PlayerRow, ...]:
        """The rows with at least one problem."""
        return tuple(r for r in self.rows if not r.is_ok)


@dataclass(frozen=True)
class PlayerImportResult:
    """What the save did."""

    created: tuple[PlayerView, ...]
    skipped: tuple[PlayerRow, ...]
    """Rows not saved: their problems, including ones found only at save time."""


# --- reading the file ------------------------------------------------------------------


def read_table(data: bytes, *, filename: str) -> list[tuple[int, list[Any]]]:
    """The rows of a CSV or XLSX file as ``(line, cells)``, the header first.

    Raises:
        PlayerImportError: an unknown extension, or a file that cannot be read as one.
    """
    suffix = PurePath(filename).suffix.lower()
    if suffix == ".xlsx":
        return _read_xlsx(data)
    if suffix in (".csv", ".txt", ""):
        return _read_csv(data)
    raise PlayerImportError(
        Message("%(file)s: use a .csv or .xlsx file.", file=filename), field="file"
    )


def _read_csv(data: bytes) -> list[tuple[int, list[Any]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PlayerImportError(
            Message("The file is not UTF-8 text; save it as “CSV UTF-8” and try again."),
            field="file",
        ) from None
    try:
        dialect: Any = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        return [(n, row) for n, row in enumerate(csv.reader(io.StringIO(text), dialect), 1)]
    except csv.Error as error:
        raise PlayerImportError(
            Message("The CSV file cannot be read: %(reason)s.", reason=str(error)), field="file"
        ) from None


def _read_xlsx(data: bytes) -> list[tuple[int, list[Any]]]:
    try:
        return list(read_first_sheet(data, limits=_WORKBOOK_LIMITS))
    except NotAWorkbookError:
        raise PlayerImportError(
            Message("The file is not an XLSX workbook."), field="file"
        ) from None
    except WorkbookError as error:
        raise PlayerImportError(
            Message("The file is not a readable workbook: %(reason)s.", reason=message_of(error)),
            field="file",
        ) from None


def _header(cells: Sequence[Any]) -> dict[str, int]:
    found: dict[str, int] = {}
    for index, cell in enumerate(cells):
        heading = " ".join(str(cell or "").replace("_", " ").split()).casefold()
        for name, aliases in _HEADERS.items():
            if heading in aliases and name not in found:
                found[name] = index
    return found


# --- checking rows ---------------------------------------------------------------------


def _text(cells: Sequence[Any], index: int | None) -> str:
    if index is None or index >= len(cells) or cells[index] is None:
        return ""
    value = cells[index]
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(str(value).split())


def _rating(cells: Sequence[Any], index: int | None) -> tuple[float | None, str | None]:
    if index is None or index >= len(cells) or cells[index] in (None, ""):
        return None, None
    raw = cells[index]
    if isinstance(raw, bool):
        return None, Message("rating %(value)s is not a number", value=repr(raw))
    if isinstance(raw, int | float):
        value = float(raw)
    else:
        text = str(raw).strip().replace(",", ".")
        if not text:
            return None, None
        try:
            value = float(text)
        except ValueError:
            return None, Message("rating %(value)s is not a number", value=repr(str(raw).strip()))
    if not math.isfinite(value) or not 0 <= value <= MAX_RATING:
        return None, Message(
            "rating %(value)s is not between 0 and %(largest)s", value=raw, largest=MAX_RATING
        )
    return value, None


def _whole(
    cells: Sequence[Any], index: int | None, field: str, largest: int
) -> tuple[int | None, str | None]:
    """A whole number from 0 to ``largest`` in a cell (``12``, ``12.0``), or its problem."""
    if index is None or index >= len(cells) or cells[index] in (None, ""):
        return None, None
    raw = cells[index]
    value: object = raw
    if isinstance(raw, float) and raw.is_integer():
        value = int(raw)
    elif isinstance(raw, str):
        text = raw.strip()
        if not text:
            return None, None
        value = int(text) if text.isdigit() and len(text) <= 12 else text
    if isinstance(value, bool) or not isinstance(value, int):
        shown = raw.strip() if isinstance(raw, str) else raw
        if field == "experience":
            return None, Message("experience %(value)s is not a whole number", value=repr(shown))
        return None, Message("matches %(value)s is not a whole number", value=repr(shown))
    if not 0 <= value <= largest:
        if field == "experience":
            return None, Message(
                "experience %(value)s is not between 0 and %(largest)s",
                value=value, largest=largest,
            )
        return None, Message(
            "matches %(value)s is not between 0 and %(largest)s", value=value, largest=largest
        )
    return value, None


def _on_roster(name: str, country: str) -> Message:
    """The problem of a player the roster has already."""
    if country:
        return Message(
            "%(name)s (%(country)s) is on the roster already", name=name, country=country
        )
    return Message("%(name)s (no country) is on the roster already", name=name)


def _key(name: str, country: str) -> tuple[str, str]:
    return (name.casefold(), country)


def _roster(session: Session, club_id: int | None) -> set[tuple[str, str]]:
    query = select(Player.name, Player.country)
    if club_id is not None:
        query = query.where(Player.club_id == club_id)
    return {_key(name, country) for name, country in session.exec(query)}


def check_rows(
    table: Iterable[tuple[int, list[Any]]], roster: set[tuple[str, str]], *, filename: str = ""
) -> tuple[tuple[str, ...], tuple[PlayerRow, ...]]:
    """The recognised columns and every data row with its problems.

    ``roster`` holds ``(casefolded name, country)`` of the players already saved.

    Raises:
        PlayerImportError: no header with a name column, or more than ``MAX_ROWS`` rows.
    """
    rows = iter(table)
    header: dict[str, int] = {}
    for _line, cells in rows:
        if any(_text(cells, i) for i in range(len(cells))):
            header = _header(cells)
            break
    if "name" not in header:
        raise PlayerImportError(
            Message(
                "%(file)s: the first row must name the columns, one of them "
                "“name” (others: country, rating, experience, matches, email).",
                file=filename,
            )
            if filename
            else Message(
                "The file: the first row must name the columns, one of them "
                "“name” (others: country, rating, experience, matches, email)."
            ),
            field="file",
        )
    seen: dict[tuple[str, str], int] = {}
    out: list[PlayerRow] = []
    for line, cells in rows:
        if not any(_text(cells, i) for i in range(len(cells))):
            continue
        if len(out) >= MAX_ROWS:
            raise PlayerImportError(PluralMessage(
                "The file has more than %(count)s player; split it.",
                "The file has more than %(count)s players; split it.",
                MAX_ROWS,
            ), field="file")
        problems: list[str] = []
        name = _text(cells, header.get("name"))
        country = _text(cells, header.get("country")).upper()
        email = _text(cells, header.get("email")).lower() or None
        rating, rating_problem = _rating(cells, header.get("rating"))
        experience, experience_problem = _whole(
            cells, header.get("experience"), "experience", MAX_EXPERIENCE
        )
        matches, matches_problem = _whole(cells, header.get("matches"), "matches", MAX_MATCHES)
        if not name:
            problems.append(Message("the name is missing"))
        elif len(name) > 120:
            problems.append(Message("the name is longer than 120 characters"))
        if country and not _COUNTRY.match(country):
            problems.append(Message(
                "country %(country)s is not a two-letter code (NO, DE, US)", country=repr(country)
            ))
        if rating_problem:
            problems.append(rating_problem)
        if experience_problem:
            problems.append(experience_problem)
        if matches_problem:
            problems.append(matches_problem)
        if email and (not EMAIL_ADDRESS.match(email) or len(email) > 254):
            problems.append(Message("e-mail address %(email)s is not valid", email=repr(email)))
        if name:
            key = _key(name, country)
            if key in seen:
                problems.append(Message("duplicate of row %(line)s", line=seen[key]))
            elif key in roster:
                problems.append(_on_roster(name, country))
            seen.setdefault(key, line)
        out.append(
            PlayerRow(
                line, name, country, rating, email, tuple(problems), experience, matches
            )
        )
    columns = tuple(sorted(header, key=header.__getitem__))
    return columns, tuple(out)


def preview_player_import(
    session: Session, data: bytes, *, filename: str, club_id: int | None = None
) -> PlayerImportPreview:
    """Read a CSV or XLSX file of players and list each row's problems; saves nothing.

    Duplicates are looked for on the whole roster, or on the club's when ``club_id`` is
    given (the players are then added to that club).

    Raises:
        PlayerImportError: the file cannot be read or has no name column.
    """
    columns, rows = check_rows(
        read_table(data, filename=filename), _roster(session, club_id), filename=filename
    )
    return PlayerImportPreview(filename=filename, columns=columns, rows=rows, club_id=club_id)


def apply_player_import(
    session: Session, preview: PlayerImportPreview, *, actor: Actor | None = None
) -> PlayerImportResult:
    """Register the preview's good rows (one audit entry each), in the caller's transaction.

    A row that reached the roster since the preview (another import, another director)
    is skipped with that problem rather than saved twice.

    Raises:
        AccessDeniedError: the actor may not add players.
        StoreUserError: the service refused a row (the message names its line).
    """
    actor = actor or Actor.cli()
    roster = _roster(session, preview.club_id)
    created: list[PlayerView] = []
    skipped = list(preview.problem_rows)
    for row in preview.good_rows:
        key = _key(row.name, row.country)
        if key in roster:
            skipped.append(_with_problem(row, _on_roster(row.name, row.country)))
            continue
        fields = PlayerFields(
            name=row.name,
            country=row.country,
            rating=row.rating,
            email=row.email,
            club_id=preview.club_id,
            rating_experience=row.experience,
            rated_matches=row.matches,
        )
        try:
            created.append(register_player(session, actor=actor, fields=fields))
        except StoreUserError as error:
            if error.status_code != 400:
                raise
            raise StoreUserError(
                Message("row %(line)s: %(reason)s", line=row.line, reason=error.message),
                field=error.field,
            ) from None
        roster.add(key)
    skipped.sort(key=lambda r: r.line)
    return PlayerImportResult(created=tuple(created), skipped=tuple(skipped))


def _with_problem(row: PlayerRow, problem: str) -> PlayerRow:
    return PlayerRow(
        row.line, row.name, row.country, row.rating, row.email, (problem,), row.experience,
        row.matches,
    )
