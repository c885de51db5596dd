"""The rated matches in a file: a results list (CSV) or an event export (JSON).

``tourney ratings compute`` reads its files through :func:`read_rated_matches` and hands
the matches to :func:`tourney.formats.ratings.compute_ratings`. Nothing here touches a
database: an event export is the document ``tourney export EVENT --json`` writes
(:mod:`tourney.store.event_json`), read table by table.

Terminology:
    results list
        a CSV file with exactly the header ``finished_at,player_a,player_b,match_length,
        winner``: one finished match per row, in any order; ``finished_at`` an ISO 8601
        date and time, ``winner`` one of the two names. Blank lines are skipped.
    line
        a row's line in the results list as a text editor shows it: the header is line 1.
    rated match
        in an event export, a match whose status is ``finished`` between two entries with
        a winner; walkovers, byes and unplayed slots are left out.

Times without a zone are taken as UTC (the event export writes UTC), so times from
different files compare.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from pathlib import PurePath
from typing import Any

from tourney.formats.errors import FormatUserError
from tourney.formats.ratings import RatedMatch, side_matches
from tourney.rules.messages import Message, PluralMessage, message_of
from tourney.rules.records import parse_json
from tourney.store.errors import StoreUserError
from tourney.store.event_json import FORMAT, VERSION
from tourney.store.events import MAX_MATCH_LENGTH

DEFAULT_MAX_BYTES = 32 * 1024 * 1024
"""The largest file read by default (a results list of 100,000 matches is about 5 MB)."""
HEADER = ("finished_at", "player_a", "player_b", "match_length", "winner")
MAX_NAME_CHARS = 120
"""As long as a player's name on the roster may be."""
_LENGTH = re.compile(r"^[0-9]{1,6}$")
_RATED_STATUS = "finished"
_UNRATED_SOURCES = frozenset({"walkover", "bye"})


class RatingsInputError(StoreUserError):
    """A file that cannot be rated; the message names the file, the line or match, and
    the field."""


def read_rated_matches(name: str, data: bytes) -> list[RatedMatch]:
    """The rated matches of the file ``name`` holding ``data``, in file order.

    The kind of file comes from its extension: ``.csv`` a results list, ``.json`` an
    event export.

    Raises:
        RatingsInputError: another extension, or a file or row that cannot be read.
    """
    suffix = PurePath(name).suffix.lower()
    if suffix == ".csv":
        return read_results_list(name, data)
    if suffix == ".json":
        return read_event_export(name, data)
    if not suffix:
        raise RatingsInputError(Message(
            "%(file)s: unknown kind of file (no extension): expected .csv (a results list) "
            "or .json (an event export).",
            file=name,
        ))
    raise RatingsInputError(Message(
        "%(file)s: unknown kind of file %(suffix)s: expected .csv (a results list) or .json "
        "(an event export).",
        file=name, suffix=suffix,
    ))


def _text(name: str, data: bytes) -> str:
    try:
        # utf-8-sig: a spreadsheet's "CSV UTF-8" starts with a byte order mark.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RatingsInputError(Message(
            "%(file)s: not UTF-8 text (byte %(byte)s cannot be read).",
            file=name, byte=error.start + 1,
        )) from None


# --- results lists ----------------------------------------------------------------------


def parse_time(text: str) -> datetime:
    """An ISO 8601 date and time (or a date: its midnight) as a UTC time.

    >>> parse_time("2024-05-01T19:30:00+02:00").isoformat()
    '2024-05-01T17:30:00+00:00'
    >>> parse_time("2024-05-01 19:30").isoformat()
    '2024-05-01T19:30:00+00:00'

    Raises:
        ValueError: not an ISO date and time.
    """
    moment = datetime.fromisoformat(text)
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _name(where: str, field: str, value: str) -> str:
    value = value.strip()
    if not value:
        raise RatingsInputError(
            Message("%(where)s: %(field)s: no player named.", where=where, field=field)
        )
    if len(value) > MAX_NAME_CHARS:
        raise RatingsInputError(PluralMessage(
            "%(where)s: %(field)s: a name longer than %(count)s character.",
            "%(where)s: %(field)s: a name longer than %(count)s characters.",
            MAX_NAME_CHARS, where=where, field=field,
        ))
    return value


def _length(where: str, field: str, value: object) -> int:
    if isinstance(value, str) and _LENGTH.match(value.strip()):
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not (
        1 <= value <= MAX_MATCH_LENGTH
    ):
        raise RatingsInputError(Message(
            "%(where)s: %(field)s: %(value)s is not a match length from 1 to %(largest)s "
            "points.",
            where=where, field=field, value=repr(value), largest=MAX_MATCH_LENGTH,
        ))
    return value


def _time(where: str, field: str, value: object) -> datetime:
    if isinstance(value, str):
        try:
            return parse_time(value.strip())
        except ValueError:
            pass
    raise RatingsInputError(Message(
        "%(where)s: %(field)s: %(value)s is not an ISO date and time.",
        where=where, field=field, value=repr(value),
    ))


def _rated(where: str, finished_at: datetime, a: str, b: str, length: int,
           winner: str) -> RatedMatch:
    if a == b:
        raise RatingsInputError(Message(
            "%(where)s: player_b: %(name)s is also player_a.", where=where, name=repr(b)
        ))
    if winner not in (a, b):
        raise RatingsInputError(Message(
            "%(where)s: winner: %(winner)s is neither %(a)s nor %(b)s.",
            where=where, winner=repr(winner), a=repr(a), b=repr(b),
        ))
    try:
        return RatedMatch(finished_at, a, b, length, winner)
    except FormatUserError as error:  # pragma: no cover - every field is checked above
        raise RatingsInputError(Message(
            "%(where)s: %(reason)s", where=where, reason=message_of(error)
        )) from None


def read_results_list(name: str, data: bytes) -> list[RatedMatch]:
    """The matches of a results list, in file order.

    Raises:
        RatingsInputError: not UTF-8 CSV, another header, or a row with a bad field.
    """
    rows = csv.reader(io.StringIO(_text(name, data), newline=""))
    try:
        header = next(rows, None)
        if header is None:
            raise RatingsInputError(Message(
                "%(file)s: empty file: expected the header %(header)s.",
                file=name, header=",".join(HEADER),
            ))
        if tuple(header) != HEADER:
            raise RatingsInputError(Message(
                "%(file)s: line 1: the header is %(found)s, expected %(header)s.",
                file=name, found=repr(",".join(header)), header=repr(",".join(HEADER)),
            ))
        matches: list[RatedMatch] = []
        line = rows.line_num + 1
        for row in rows:
            where = Message("%(file)s: line %(line)s", file=name, line=line)
            line = rows.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(HEADER):
                raise RatingsInputError(Message(
                    "%(where)s: expected %(expected)s fields (%(header)s), found %(found)s.",
                    where=where, expected=len(HEADER), header=",".join(HEADER), found=len(row),
                ))
            finished_at = _time(where, "finished_at", row[0])
            a = _name(where, "player_a", row[1])
            b = _name(where, "player_b", row[2])
            length = _length(where, "match_length", row[3])
            winner = _name(where, "winner", row[4])
            matches.append(_rated(where, finished_at, a, b, length, winner))
    except csv.Error as error:
        raise RatingsInputError(Message(
            "%(file)s: line %(line)s: not CSV: %(reason)s.",
            file=name, line=rows.line_num, reason=str(error),
        )) from None
    return matches


# --- event exports ----------------------------------------------------------------------


def _table(name: str, tables: Mapping[str, Any], table: str) -> Sequence[Any]:
    rows = tables.get(table, [])
    if not isinstance(rows, list):
        raise RatingsInputError(Message(
            "%(file)s: tables.%(table)s: expected a list of rows.", file=name, table=table
        ))
    return rows


def _follow(
    where: str, field: str, row: Mapping[str, Any], table: str, rows: Sequence[Any]
) -> Mapping[str, Any]:
    """The row of ``table`` that ``row[field]`` refers to (``"players/3"``: the third)."""
    ref = row.get(field)
    prefix = f"{table}/"
    if isinstance(ref, str) and ref.startswith(prefix) and ref[len(prefix):].isdigit():
        n = int(ref[len(prefix):])
        if 1 <= n <= len(rows) and isinstance(rows[n - 1], dict):
            found: Mapping[str, Any] = rows[n - 1]
            return found
    raise RatingsInputError(Message(
        "%(where)s: %(field)s: %(ref)s is not a row of %(table)s in the file.",
        where=where, field=field, ref=repr(ref), table=table,
    ))


def read_event_export(name: str, data: bytes) -> list[RatedMatch]:
    """The rated matches of an event export, in the order of its matches table.

    Raises:
        RatingsInputError: not an event export, or a finished match whose players,
            winner, length or finishing time cannot be found.
    """
    try:
        document = parse_json(_text(name, data))
    except ValueError as error:
        raise RatingsInputError(
            Message("%(file)s: not JSON: %(reason)s.", file=name, reason=message_of(error))
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise RatingsInputError(Message(
            "%(file)s: not an event export (`tourney export EVENT --json FILE` writes one).",
            file=name,
        ))
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= VERSION:
        raise RatingsInputError(Message(
            "%(file)s: version: %(version)s is not an event export version this tourney "
            "reads (1 to %(newest)s).",
            file=name, version=repr(version), newest=VERSION,
        ))
    tables = document.get("tables")
    if not isinstance(tables, dict):
        raise RatingsInputError(
            Message("%(file)s: tables: expected an object of tables.", file=name)
        )
    players = _table(name, tables, "players")
    entries = _table(name, tables, "entries")
    flight_entries = _table(name, tables, "flight_entries")
    matches: list[RatedMatch] = []
    for n, row in enumerate(_table(name, tables, "matches"), 1):
        where = f"{name}: matches/{n}"
        if not isinstance(row, dict):
            raise RatingsInputError(Message("%(where)s: expected an object.", where=where))
        if (
            row.get("status") != _RATED_STATUS
            or row.get("result_source") in _UNRATED_SOURCES
            or row.get("entry_a_id") is None
            or row.get("entry_b_id") is None
        ):
            continue

        def side(field: str, row: Mapping[str, Any] = row, where: str = where) -> list[str]:
            """The side's player, or both players of a pair (an entry with a partner)."""
            flight_entry = _follow(where, field, row, "flight_entries", flight_entries)
            entry = _follow(f"{where}: {field}", "entry_id", flight_entry, "entries", entries)
            names = []
            for column in ("player_id", "partner_id"):
                if column == "partner_id" and entry.get(column) is None:
                    continue
                person = _follow(f"{where}: {field}", column, entry, "players", players)
                named = person.get("name")
                if not isinstance(named, str):
                    raise RatingsInputError(Message(
                        "%(where)s: %(field)s: the player has no name.", where=where, field=field
                    ))
                names.append(_name(where, field, named))
            return names

        side_a, side_b = side("entry_a_id"), side("entry_b_id")
        winner_ref = row.get("winner_entry_id")
        if winner_ref not in (row["entry_a_id"], row["entry_b_id"]):
            raise RatingsInputError(Message(
                "%(where)s: winner_entry_id: %(ref)s is neither entry_a_id nor entry_b_id.",
                where=where, ref=repr(winner_ref),
            ))
        a_won = winner_ref == row["entry_a_id"]
        length = _length(where, "match_length", row.get("match_length"))
        finished_at = _time(where, "finished_at", row.get("finished_at"))
        if len(side_a) == 1 and len(side_b) == 1:
            a, b = side_a[0], side_b[0]
            matches.append(_rated(where, finished_at, a, b, length, a if a_won else b))
            continue
        # A pair consultation credits both players of the pair.
        for rated in side_matches(finished_at, side_a, side_b, length, a_won=a_won):
            matches.append(
                _rated(where, finished_at, rated.player_a, rated.player_b, length, rated.winner)
            )
    return matches
