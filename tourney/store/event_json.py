"""The event JSON: one versioned document with everything needed to rebuild an event.

This module builds the document of an event as plain dicts and lists
(:func:`export_event`) and rebuilds an event from one (:func:`import_event`); turning the
document into bytes and back is :mod:`tourney.exports.event_json`'s.

Terminology:
    owned table
        a table whose rows hang off the event through foreign keys (flights, entries,
        flight entries, rounds, matches, games, uploaded records ...). Found by walking the
        table metadata, so a column or table added by a later migration travels along.
    referenced table
        a table the owned rows point at but do not own: the club, the venue, the players
        entered. Only the rows the event uses are written; on import they are matched to
        rows already in the database (club by slug, venue by name, player by name and
        country) or created.
    reference
        ``"<table>/<n>"``: the n-th row (from 1, in id order) of a table in the document.
        References replace database ids, so export, import into an empty database and
        export again give the same bytes.

Users never enter the document: columns pointing at ``users`` are left out (the owner
of an imported event is whoever imports it) and audit entries keep only the actor's
label (an e-mail address or ``cli``); imported, they stay text marked as imported history,
never linked to a local account. Ids inside JSON columns are rewritten where this
module knows their shape (the knockout plan on a flight); the before/after snapshots of
audit entries are history and are carried verbatim, ids and all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    DateTime,
    Float,
    Integer,
    String,
    Table,
    bindparam,
    insert,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.types import TypeDecorator, TypeEngine
from sqlmodel import Session, SQLModel

from tourney.formats.errors import FormatUserError
from tourney.formats.stages import CutTies, PoolSeeding, find_cut_ties, find_pool_seeding
from tourney.formats.tiebreaks import tiebreak_chain
from tourney.match import DrawScoring
from tourney.rules import NotationError
from tourney.rules.dice_names import dice_names_named
from tourney.rules.match_forms import match_form_named
from tourney.rules.messages import Message, PluralMessage, message_of
from tourney.rules.variants import DEFAULT_VARIANT
from tourney.store.audit import Actor, record
from tourney.store.club_money import stored_item_problem, stored_settings_problem
from tourney.store.errors import (
    AccessDeniedError,
    EventExistsError,
    EventImportError,
    NewerVersionError,
)
from tourney.store.event_documents import find_event
from tourney.store.roles import account_role
from tourney.store.tables import Entry, Flight, FlightMoney, MoneyItem
from tourney.store.variant_options import VariantOptionsError, stored_options

FORMAT = "tourney-event"
VERSION = 1
"""The newest document version this code writes and reads."""

ROOT = "events"
AUDIT = "audit_entries"
USERS = "users"
IMPORT_ACTION = "event.import"
"""The audit action of an import; it describes this database, so it is not exported."""

NOT_EXPORTED = frozenset({"event_shares"})
"""Tables that hang off an event but stay in their database: a share link is a secret
(a copy must not open the original's pages, and its token is unique)."""
LOCAL_COLUMNS = frozenset({(AUDIT, "imported")})
"""Columns that say something about this database, never carried by the document: every
audit entry read from a file is imported history, whatever the file says."""
COPY_SUFFIX = " (copy)"
_REF = re.compile(r"^([a-z_][a-z0-9_]*)/([1-9][0-9]*)$")
_MATCH_KEYS: Mapping[str, tuple[str, ...]] = {
    "players": ("name", "country"),
    "venues": ("name",),
}
"""How a referenced row finds its twin in the database; other tables use a unique column."""

ProgressFn = Callable[[str, int, int], None]
"""Told ``(step, done, total)`` as an export or import goes through its tables."""


@dataclass(frozen=True)
class ImportedEvent:
    """What an import did."""

    event_id: int
    slug: str
    name: str
    rows: dict[str, int]
    """Rows written per table (players and clubs matched to existing ones not counted)."""
    players_matched: int
    players_created: int


# --- the shape of the document, from the table metadata ------------------------------


@dataclass(frozen=True)
class _Shape:
    """Which tables the document holds and in what order."""

    owned: tuple[Table, ...]
    """Tables hanging off the event, parents before children."""
    referenced: tuple[Table, ...]
    """Tables the owned rows point at (club, venue, players), parents before children."""

    @property
    def tables(self) -> tuple[Table, ...]:
        return (*self.referenced, *self.owned)

    def table(self, name: str) -> Table:
        return SQLModel.metadata.tables[name]


def _targets(column: Column[Any]) -> list[str]:
    return [fk.column.table.name for fk in column.foreign_keys]


def _links_users(table: Table) -> bool:
    """A row that only says something about a user (event staff, tokens) stays out."""
    return any(USERS in _targets(c) and not c.nullable for c in table.columns)


def _shape() -> _Shape:
    metadata = SQLModel.metadata
    ordered = [t for t in metadata.sorted_tables if t.name not in (USERS, AUDIT)]
    owned: set[str] = {ROOT}
    changed = True
    while changed:
        changed = False
        for table in ordered:
            if table.name in owned or table.name in NOT_EXPORTED or _links_users(table):
                continue
            if any(set(_targets(c)) & owned for c in table.columns):
                owned.add(table.name)
                changed = True
    referenced: set[str] = set()
    frontier = set(owned)
    while frontier:
        name = frontier.pop()
        for column in metadata.tables[name].columns:
            for target in _targets(column):
                if target not in owned | referenced and target != USERS:
                    referenced.add(target)
                    frontier.add(target)
    return _Shape(
        owned=tuple(t for t in ordered if t.name in owned),
        referenced=tuple(t for t in ordered if t.name in referenced),
    )


def _kind(type_: TypeEngine[Any]) -> str:
    """The JSON treatment of a column type: datetime, date, json, int, float, bool, str."""
    if isinstance(type_, TypeDecorator):
        return _kind(type_.impl_instance)
    for cls, kind in (
        (DateTime, "datetime"),
        (Date, "date"),
        (JSON, "json"),
        (Boolean, "bool"),
        (Integer, "int"),
        (Float, "float"),
        (String, "str"),
    ):
        if isinstance(type_, cls):
            return kind
    return "json"


def _data_columns(table: Table) -> list[Column[Any]]:
    """The columns the document carries: all but the id, links to users and the columns
    that describe this database only (whether its history was imported)."""
    return [
        c
        for c in table.columns
        if not c.primary_key
        and USERS not in _targets(c)
        and (table.name, c.name) not in LOCAL_COLUMNS
    ]


def _fk_target(column: Column[Any]) -> str | None:
    targets = [t for t in _targets(column) if t != USERS]
    return targets[0] if targets else None


def _singular(name: str) -> str:
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith(("ches", "shes", "sses", "xes")):
        return name[:-2]
    return name[:-1] if name.endswith("s") else name


# --- ids inside JSON columns -----------------------------------------------------------

RefOf = Callable[[str, int], str | None]
IdOf = Callable[[str, Any, str], int]


def _plan_out(plan: Any, ref_of: RefOf) -> Any:
    """A knockout plan with its flight ids and seated entry ids as references."""
    if not isinstance(plan, dict):
        return plan
    out = dict(plan)

    def seat(source: Any) -> Any:
        if isinstance(source, list) and len(source) == 2 and source[0] == "seat":
            return ["seat", ref_of("entries", int(source[1]))]
        return source

    out["flights"] = [
        {**f, "pool": [seat(s) for s in f.get("pool", [])]} for f in plan.get("flights", [])
    ]
    out["matches"] = [
        {**m, "a": seat(m.get("a")), "b": seat(m.get("b"))} for m in plan.get("matches", [])
    ]
    out["rounds"] = [
        {**r, "flight_id": ref_of("flights", int(r["flight_id"]))} for r in plan.get("rounds", [])
    ]
    return out


def _plan_in(plan: Any, id_of: IdOf, where: str) -> Any:
    """The inverse of :func:`_plan_out` with the new database ids."""
    if not isinstance(plan, dict):
        return plan
    for key in ("flights", "matches", "rounds"):
        if not isinstance(plan.get(key, []), list):
            raise EventImportError(Message(
                "%(where)s.%(key)s: expected a list.", where=where, key=key
            ), field=f"{where}.{key}")
    out = dict(plan)

    def seat(source: Any, at: str) -> Any:
        if isinstance(source, list) and len(source) == 2 and source[0] == "seat":
            return ["seat", id_of("entries", source[1], at)]
        return source

    def rows(key: str) -> list[tuple[str, dict[str, Any]]]:
        found = []
        for n, row in enumerate(plan.get(key, [])):
            if not isinstance(row, dict):
                raise EventImportError(Message(
                    "%(where)s: expected an object.", where=f"{where}.{key}[{n}]"
                ))
            found.append((f"{where}.{key}[{n}]", row))
        return found

    out["flights"] = [
        {**f, "pool": [seat(s, f"{at}.pool[{i}]") for i, s in enumerate(f.get("pool", []))]}
        for at, f in rows("flights")
    ]
    out["matches"] = [
        {**m, "a": seat(m.get("a"), f"{at}.a"), "b": seat(m.get("b"), f"{at}.b")}
        for at, m in rows("matches")
    ]
    out["rounds"] = [
        {**r, "flight_id": id_of("flights", r.get("flight_id"), f"{at}.flight_id")}
        for at, r in rows("rounds")
    ]
    return out


def _picks_out(picks: Any, ref_of: RefOf) -> Any:
    """The players a director sent through at a tied cut, as flight entry references."""
    if not isinstance(picks, list):
        return picks
    return [ref_of("flight_entries", int(p)) for p in picks]


def _picks_in(picks: Any, id_of: IdOf, where: str) -> Any:
    """The inverse of :func:`_picks_out` with the new database ids."""
    if not isinstance(picks, list):
        raise EventImportError(Message("%(where)s: expected a list.", where=where), field=where)
    return [id_of("flight_entries", p, f"{where}[{n}]") for n, p in enumerate(picks)]


_JSON_IDS: Mapping[tuple[str, str], tuple[Callable[[Any, RefOf], Any], Callable[..., Any]]] = {
    ("flights", "bracket_plan"): (_plan_out, _plan_in),
    ("flights", "cut_picks"): (_picks_out, _picks_in),
}
"""JSON columns holding database ids, with how to turn them into references and back."""


# --- export ----------------------------------------------------------------------------


def _encode(value: Any, kind: str) -> Any:
    if value is None:
        return None
    if kind == "datetime":
        assert isinstance(value, datetime)
        return (value.astimezone(UTC) if value.tzinfo else value).isoformat()
    if kind == "date":
        assert isinstance(value, date)
        return value.isoformat()
    if kind == "float":
        return float(value)
    return value


def export_event(
    session: Session, ref: str | int, *, progress: ProgressFn | None = None
) -> dict[str, Any]:
    """The JSON document (plain dicts and lists) of an event given by id or slug.

    Raises:
        NotFoundError: no such event.
    """
    event = find_event(session, str(ref))
    shape = _shape()
    tell = progress or (lambda _step, _done, _total: None)
    total = len(shape.tables) + 1
    rows: dict[str, list[Any]] = {}
    ids: dict[str, dict[int, None]] = {}
    for table in shape.owned:
        tell(table.name, len(rows), total)
        query = select(table)
        if table.name == ROOT:
            query = query.where(table.c.id == event.id)
        else:
            links = [
                c.in_(list(ids[t]))
                for c in table.columns
                for t in _targets(c)
                if t in ids and t != table.name
            ]
            query = query.where(_any(links))
        found: list[Any] = list(session.execute(query.order_by(table.c.id)).mappings())
        rows[table.name] = found
        ids[table.name] = {int(r["id"]): None for r in found}
    wanted: dict[str, set[int]] = {}

    def want(table: Table, found: Iterable[Mapping[str, Any]]) -> None:
        for column in _data_columns(table):
            target = _fk_target(column)
            if target and target not in ids:
                wanted.setdefault(target, set()).update(
                    int(r[column.name]) for r in found if r[column.name] is not None
                )

    for table in shape.owned:
        want(table, rows[table.name])
    for table in reversed(shape.referenced):
        tell(table.name, len(rows), total)
        keys = sorted(wanted.get(table.name, ()))
        found_refs: list[Any] = (
            list(
                session.execute(
                    select(table).where(table.c.id.in_(keys)).order_by(table.c.id)
                ).mappings()
            )
            if keys
            else []
        )
        rows[table.name] = found_refs
        ids[table.name] = {int(r["id"]): None for r in found_refs}
        want(table, found_refs)
    ordinals = {name: {key: n for n, key in enumerate(keys, 1)} for name, keys in ids.items()}

    def ref_of(table_name: str, key: int | None) -> str | None:
        if key is None:
            return None
        n = ordinals.get(table_name, {}).get(int(key))
        return None if n is None else f"{table_name}/{n}"

    tables: dict[str, list[dict[str, Any]]] = {}
    for table in shape.tables:
        tables[table.name] = [_export_row(table, row, ref_of) for row in rows[table.name]]
    tell(AUDIT, total - 1, total)
    tables[AUDIT] = _export_audit(session, event.id or 0, shape, ref_of)
    tell("done", total, total)
    return {
        "format": FORMAT,
        "version": VERSION,
        "event": ref_of(ROOT, event.id),
        "tables": tables,
    }


def _any(clauses: list[Any]) -> Any:
    from sqlalchemy import false, or_

    return or_(*clauses) if clauses else false()


def _export_row(table: Table, row: Mapping[str, Any], ref_of: RefOf) -> dict[str, Any]:
    out: dict[str, Any] = {"ref": ref_of(table.name, row["id"])}
    for column in _data_columns(table):
        value = row[column.name]
        target = _fk_target(column)
        if target is not None:
            out[column.name] = ref_of(target, value)
            continue
        hook = _JSON_IDS.get((table.name, column.name))
        if hook is not None and value is not None:
            value = hook[0](value, ref_of)
        out[column.name] = _encode(value, _kind(column.type))
    return out


def _entity_tables(shape: _Shape) -> dict[str, str]:
    return {_singular(t.name): t.name for t in shape.tables}


def _export_audit(
    session: Session, event_id: int, shape: _Shape, ref_of: RefOf
) -> list[dict[str, Any]]:
    table = SQLModel.metadata.tables[AUDIT]
    entity_tables = _entity_tables(shape)
    found = session.execute(
        select(table)
        .where(table.c.event_id == event_id, table.c.action != IMPORT_ACTION)
        .order_by(table.c.id)
    ).mappings()
    out = []
    for n, row in enumerate(found, 1):
        entry: dict[str, Any] = {"ref": f"{AUDIT}/{n}"}
        for column in _data_columns(table):
            value = row[column.name]
            if column.name == "event_id":
                value = ref_of(ROOT, value)
            elif column.name == "match_id":
                value = ref_of("matches", value)
            elif column.name == "entity_id":
                value = ref_of(entity_tables.get(row["entity_type"], ""), value)
            else:
                value = _encode(value, _kind(column.type))
            entry[column.name] = value
        out.append(entry)
    return out


# --- checking a document ------------------------------------------------------------


@dataclass
class _Checked:
    """A document checked against the tables: typed values, references still symbolic."""

    rows: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)


def _where(table: str, index: int, column: str) -> str:
    return f"tables.{table}[{index}].{column}"


def _fail(where: str, problem: str) -> EventImportError:
    """The import error of the field ``where`` (``tables.entries[3].division``): what is
    wrong with it, a message of its own that is translated inside this one."""
    return EventImportError(
        Message("%(where)s: %(problem)s", where=where, problem=problem), field=where
    )


def check_header(document: Mapping[str, Any]) -> int:
    """The document's version, after checking its format and version fields.

    Raises:
        NewerVersionError: the document comes from a newer tourney.
        EventImportError: not an event export.
    """
    if document.get("format") != FORMAT:
        raise _fail("format", Message(
            "expected %(expected)s, found %(found)s",
            expected=repr(FORMAT), found=repr(document.get("format")),
        ))
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _fail("version", Message(
            "expected a whole number from 1, found %(found)s", found=repr(version)
        ))
    if version > VERSION:
        raise NewerVersionError(Message(
            "This file is event JSON version %(version)s; this tourney reads versions up to "
            "%(newest)s. Import it with a newer tourney.",
            version=version, newest=VERSION,
        ), field="version")
    return version


def _decode(value: Any, column: Column[Any], where: str) -> Any:
    if value is None:
        if not column.nullable:
            raise _fail(where, Message("must not be null"))
        return None
    kind = _kind(column.type)
    if kind == "json":
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise _fail(where, Message(
                "expected true or false, found %(found)s", found=repr(value)
            ))
        return value
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool):
            raise _fail(where, Message(
                "expected a whole number, found %(found)s", found=repr(value)
            ))
        return value
    if kind == "float":
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise _fail(where, Message("expected a number, found %(found)s", found=repr(value)))
        return float(value)
    if not isinstance(value, str):
        raise _fail(where, Message("expected text, found %(found)s", found=repr(value)))
    if kind == "str":
        length = getattr(column.type, "length", None)
        if length is not None and len(value) > length:
            raise _fail(where, PluralMessage(
                "longer than %(count)s character", "longer than %(count)s characters", length
            ))
        return value
    try:
        if kind == "date":
            return date.fromisoformat(value)
        moment = datetime.fromisoformat(value)
    except ValueError:
        if kind == "date":
            raise _fail(
                where, Message("expected an ISO date, found %(found)s", found=repr(value))
            ) from None
        raise _fail(
            where, Message("expected an ISO datetime, found %(found)s", found=repr(value))
        ) from None
    if moment.tzinfo is None:
        raise _fail(where, Message(
            "expected a time with its UTC offset, found %(found)s", found=repr(value)
        ))
    return moment.astimezone(UTC)


def _parse_ref(value: Any, table: str, counts: Mapping[str, int], where: str) -> tuple[str, int]:
    match = _REF.match(value) if isinstance(value, str) else None
    if match is None or match.group(1) != table:
        raise _fail(where, Message(
            "expected a reference like '%(table)s/1', found %(found)s",
            table=table, found=repr(value),
        ))
    n = int(match.group(2))
    if n > counts.get(table, 0):
        raise _fail(where, Message("%(ref)s is not in the file", ref=value))
    return table, n


def _ref_checker(counts: Mapping[str, int]) -> IdOf:
    """An ``id_of`` for a dry run: checks each reference, returns no real id."""

    def check(table: str, value: Any, where: str) -> int:
        _parse_ref(value, table, counts, where)
        return 0

    return check


def _check(document: Mapping[str, Any], shape: _Shape) -> _Checked:
    tables = document.get("tables")
    if not isinstance(tables, dict):
        raise _fail("tables", Message("expected an object of tables"))
    known = {t.name: t for t in (*shape.tables, SQLModel.metadata.tables[AUDIT])}
    for name, rows in tables.items():
        if name not in known:
            raise _fail(
                f"tables.{name}", Message("unknown table (written by a newer tourney?)")
            )
        if not isinstance(rows, list):
            raise _fail(f"tables.{name}", Message("expected a list of rows"))
    checked = _Checked(counts={name: len(tables.get(name, [])) for name in known})
    if checked.counts[ROOT] != 1:
        raise _fail(f"tables.{ROOT}", Message("expected exactly one event"))
    if document.get("event") != f"{ROOT}/1":
        raise _fail("event", Message(
            "expected %(expected)s, found %(found)s",
            expected=repr(f"{ROOT}/1"), found=repr(document.get("event")),
        ))
    entity_tables = _entity_tables(shape)
    for name, table in known.items():
        columns = {c.name: c for c in _data_columns(table)}
        out: list[dict[str, Any]] = []
        for n, row in enumerate(tables.get(name, []), 1):
            where = f"tables.{name}[{n - 1}]"
            if not isinstance(row, dict):
                raise _fail(where, Message("expected an object"))
            if row.get("ref") != f"{name}/{n}":
                raise _fail(f"{where}.ref", Message(
                    "expected %(expected)s, found %(found)s",
                    expected=repr(f"{name}/{n}"), found=repr(row.get("ref")),
                ))
            for key in row:
                if key != "ref" and key not in columns:
                    raise _fail(
                        f"{where}.{key}", Message("unknown column (written by a newer tourney?)")
                    )
            values: dict[str, Any] = {}
            for column in columns.values():
                at = f"{where}.{column.name}"
                if column.name not in row:
                    has_default = column.default is not None or column.server_default is not None
                    if not (has_default or column.nullable):
                        raise _fail(at, Message("missing"))
                    continue
                value = row[column.name]
                target = _fk_target(column)
                if name == AUDIT and column.name in ("event_id", "match_id", "entity_id"):
                    target = {
                        "event_id": ROOT,
                        "match_id": "matches",
                        "entity_id": entity_tables.get(str(row.get("entity_type")), ""),
                    }[column.name]
                if target is not None:
                    if value is None:
                        if not column.nullable:
                            raise _fail(at, Message("must not be null"))
                        values[column.name] = None
                    elif not target:
                        raise _fail(at, Message(
                            "expected null, found %(found)s", found=repr(value)
                        ))
                    else:
                        values[column.name] = _parse_ref(value, target, checked.counts, at)
                    continue
                values[column.name] = _decode(value, column, at)
                hook = _JSON_IDS.get((name, column.name))
                if hook is not None and value is not None:
                    hook[1](value, _ref_checker(checked.counts), at)
            out.append(values)
        checked.rows[name] = out
    return checked


# --- import ----------------------------------------------------------------------------


def import_event(
    session: Session,
    document: Mapping[str, Any],
    *,
    actor: Actor | None = None,
    as_copy: bool = False,
    progress: ProgressFn | None = None,
) -> ImportedEvent:
    """Rebuild an exported event in this database, in the caller's transaction.

    Players are matched to roster players by name and country (each at most once),
    the club by its slug and the venue by its name; what is not found is created. The
    importing actor becomes the event's owner. With ``as_copy`` an event whose slug is
    taken is imported as "<name> (copy)" under a new slug. Nothing is written when the
    document is refused.

    Raises:
        NewerVersionError: the document comes from a newer tourney.
        EventExistsError: the slug is taken and ``as_copy`` is not set.
        EventImportError: a malformed document (the message names the field).
        AccessDeniedError: the actor is a scorer.
    """
    actor = actor or Actor.cli()
    if not account_role(actor.role).can_direct_events:
        raise AccessDeniedError(Message("Your account may not import events."))
    check_header(document)
    shape = _shape()
    checked = _check(document, shape)
    event_row = checked.rows[ROOT][0]
    _check_variant_options(event_row)
    _check_divisions(event_row, checked.rows.get(Entry.__tablename__, []),
                     checked.rows.get(Flight.__tablename__, []))
    _check_tiebreaks(checked.rows.get(Flight.__tablename__, []))
    _check_money(checked.rows)
    source_slug = str(event_row.get("slug", ""))
    if not source_slug:
        raise _fail(f"tables.{ROOT}[0].slug", Message("missing"))
    slug, name = source_slug, str(event_row.get("name", ""))
    events = SQLModel.metadata.tables[ROOT]
    if _slug_taken(session, events, slug):
        if not as_copy:
            raise EventExistsError(Message(
                "An event with the web address %(slug)s exists already; "
                "import with --as-copy to add this one as a copy.",
                slug=repr(slug),
            ), field="slug")
        slug, name = _copy_names(session, events, slug, name)
    event_row["slug"], event_row["name"] = slug, name
    try:
        with session.begin_nested():
            result = _write(session, checked, shape, actor, progress)
            record(
                session,
                actor=actor,
                action=IMPORT_ACTION,
                entity_type="event",
                entity_id=result.event_id,
                event_id=result.event_id,
                after={
                    "slug": slug,
                    "name": name,
                    "source_slug": source_slug,
                    "as_copy": slug != source_slug,
                    "rows": result.rows,
                },
            )
            session.flush()
    except (DBAPIError, StatementError) as error:
        detail = str(getattr(error, "orig", None) or error).splitlines()[0]
        raise EventImportError(
            Message("The file does not fit this database: %(detail)s", detail=detail)
        ) from None
    return result


def _check_variant_options(event_row: Mapping[str, Any]) -> None:
    """The event's variant options are options of its variant (a file from before they
    existed has none: the variant's defaults), and its match form and dice names are
    known ones (a file from before them has none: one variant, no names).

    Raises:
        EventImportError: unknown options or values of the wrong kind, or an unknown
            match form.
    """
    try:
        stored_options(
            str(event_row.get("variant") or DEFAULT_VARIANT.name), event_row.get("variant_options")
        )
    except VariantOptionsError as error:
        raise _fail(f"tables.{ROOT}[0].variant_options", message_of(error)) from None
    form = event_row.get("match_form")
    if form is not None:
        try:
            match_form_named(str(form))
        except NotationError as error:
            raise _fail(f"tables.{ROOT}[0].match_form", message_of(error)) from None
    dice_names = event_row.get("dice_names")
    if dice_names:
        try:
            dice_names_named(str(dice_names))
        except NotationError as error:
            raise _fail(f"tables.{ROOT}[0].dice_names", message_of(error)) from None


def _check_divisions(event_row: Mapping[str, Any], entry_rows: Sequence[Mapping[str, Any]],
                     flight_rows: Sequence[Mapping[str, Any]]) -> None:
    """The event's divisions are a list of names, its draw scoring a known one, and every
    entry's and flight's division one of the event's (a file from before divisions has
    none of them).

    Raises:
        EventImportError: the field that does not fit, and why.
    """
    divisions = event_row.get("divisions")
    if divisions is not None and not (
            isinstance(divisions, list) and all(isinstance(d, str) for d in divisions)):
        raise _fail(f"tables.{ROOT}[0].divisions", Message("must be a list of division names"))
    scoring = event_row.get("draw_scoring")
    if scoring is not None and scoring not in {member.value for member in DrawScoring}:
        raise _fail(f"tables.{ROOT}[0].draw_scoring", Message(
            "%(value)s is not one of %(known)s",
            value=repr(scoring), known=", ".join(m.value for m in DrawScoring),
        ))
    known = set(divisions or ())
    for table, rows in ((Entry.__tablename__, entry_rows), (Flight.__tablename__, flight_rows)):
        for index, row in enumerate(rows):
            division = row.get("division")
            if division and division not in known:
                raise _fail(_where(table, index, "division"), Message(
                    "%(division)s is not one of the event's divisions", division=repr(division)
                ))


def _check_money(rows: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """Every flight's money settings and ledger row hold what the pages can read.

    Raises:
        EventImportError: the first row that does not.
    """
    checks = (
        (FlightMoney.__tablename__, stored_settings_problem),
        (MoneyItem.__tablename__, stored_item_problem),
    )
    for table, problem_of in checks:
        for index, row in enumerate(rows.get(table, [])):
            problem = problem_of(row)
            if problem is not None:
                raise _fail(_where(table, index, "row"), problem)


def _check_tiebreaks(flight_rows: Sequence[Mapping[str, Any]]) -> None:
    """Every flight's tiebreak chain names known tiebreaks, each once.

    Raises:
        EventImportError: the first flight with an unknown or repeated tiebreak.
    """
    for index, row in enumerate(flight_rows):
        where = _where(Flight.__tablename__, index, "tiebreaks")
        keys = row.get("tiebreaks") or []
        if not isinstance(keys, list) or not all(isinstance(key, str) for key in keys):
            raise _fail(where, Message(
                "expected a list of tiebreak keys, found %(found)s", found=repr(keys)
            ))
        try:
            tiebreak_chain(keys)
        except FormatUserError as error:
            raise _fail(where, message_of(error)) from None
        ties = row.get("cut_ties", CutTies.TIEBREAKS.value)
        try:
            find_cut_ties(str(ties))
        except FormatUserError as error:
            where = _where(Flight.__tablename__, index, "cut_ties")
            raise _fail(where, message_of(error)) from None
        seeding = row.get("pool_seeding", PoolSeeding.SNAKE.value)
        try:
            find_pool_seeding(str(seeding))
        except FormatUserError as error:
            where = _where(Flight.__tablename__, index, "pool_seeding")
            raise _fail(where, message_of(error)) from None


def _slug_taken(session: Session, events: Table, slug: str) -> bool:
    return session.execute(select(events.c.id).where(events.c.slug == slug)).first() is not None


def _copy_names(session: Session, events: Table, slug: str, name: str) -> tuple[str, str]:
    slug_length = getattr(events.c.slug.type, "length", None) or 80
    name_length = getattr(events.c.name.type, "length", None) or 160
    base = f"{slug[: slug_length - 10]}-copy"
    candidate, n = base, 1
    while _slug_taken(session, events, candidate):
        n += 1
        candidate = f"{base}-{n}"
    return candidate, f"{name[: name_length - len(COPY_SUFFIX)]}{COPY_SUFFIX}"


def _write(
    session: Session,
    checked: _Checked,
    shape: _Shape,
    actor: Actor,
    progress: ProgressFn | None,
) -> ImportedEvent:
    tell = progress or (lambda _step, _done, _total: None)
    total = len(shape.tables) + 1
    new_ids: dict[str, list[int]] = {}
    written: dict[str, int] = {}
    matched_players = 0

    def id_of(table: str, value: Any, where: str) -> int:
        if isinstance(value, tuple):
            table_name, n = value
        else:
            table_name, n = _parse_ref(value, table, checked.counts, where)
        return int(new_ids[table_name][n - 1])

    def resolve(table: Table, row: Mapping[str, Any], n: int, *, later: set[str]) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for key, value in row.items():
            column = table.c[key]
            target = _fk_target(column)
            if target is not None and value is not None:
                values[key] = None if target in later else id_of(target, value, "")
                continue
            hook = _JSON_IDS.get((table.name, key))
            if hook is not None and value is not None:
                # Ids inside JSON may point anywhere in the event: filled in at the end.
                value = None if later else hook[1](value, id_of, _where(table.name, n, key))
            values[key] = value
        return values

    done = 0
    for table in shape.referenced:
        tell(table.name, done, total)
        done += 1
        ids: list[int] = []
        taken: set[int] = set()
        for n, row in enumerate(checked.rows[table.name]):
            values = resolve(table, row, n, later=set())
            existing = _find_twin(session, table, values, taken)
            if existing is None:
                existing = _insert_many(session, table, [values])[0]
                written[table.name] = written.get(table.name, 0) + 1
            elif table.name == "players":
                matched_players += 1
            taken.add(existing)
            ids.append(existing)
        new_ids[table.name] = ids
    pending = {t.name for t in shape.owned}
    for table in shape.owned:
        tell(table.name, done, total)
        done += 1
        pending.discard(table.name)
        later = pending | {table.name}
        rows = [
            resolve(table, row, n, later=later) for n, row in enumerate(checked.rows[table.name])
        ]
        if table.name == ROOT:
            owner = [c for c in table.columns if USERS in _targets(c) and c.name == "owner_id"]
            for values in rows:
                values.update({c.name: actor.user_id for c in owner})
        new_ids[table.name] = _insert_many(session, table, rows)
        written[table.name] = len(rows)
    for table in shape.owned:
        _fill_later_links(session, table, checked.rows[table.name], new_ids, id_of, shape)
    tell(AUDIT, done, total)
    _write_audit(session, checked.rows[AUDIT], id_of)
    written[AUDIT] = len(checked.rows[AUDIT])
    tell("done", total, total)
    return ImportedEvent(
        event_id=new_ids[ROOT][0],
        slug=str(checked.rows[ROOT][0]["slug"]),
        name=str(checked.rows[ROOT][0]["name"]),
        rows=written,
        players_matched=matched_players,
        players_created=written.get("players", 0),
    )


def _find_twin(
    session: Session, table: Table, values: Mapping[str, Any], taken: set[int]
) -> int | None:
    """An existing row that stands for ``values`` and is not used by another row yet."""
    keys = _MATCH_KEYS.get(table.name)
    if keys is None:
        unique = [
            c.name for c in table.columns if c.unique and not c.primary_key and c.name in values
        ]
        keys = tuple(unique[:1])
    if not keys or any(k not in values for k in keys):
        return None
    query = select(table.c.id).where(*(table.c[k] == values[k] for k in keys))
    for (key,) in session.execute(query.order_by(table.c.id)):
        if int(key) not in taken:
            return int(key)
    return None


def _insert_many(session: Session, table: Table, rows: list[dict[str, Any]]) -> list[int]:
    """Insert rows in order and return their new ids, in the same order."""
    if not rows:
        return []
    columns = sorted({k for row in rows for k in row})
    statement = insert(table).returning(table.c.id, sort_by_parameter_order=True)
    full = [{c: row.get(c, _default(table.c[c])) for c in columns} for row in rows]
    return [int(key) for key in session.execute(statement, full).scalars()]


def _default(column: Column[Any]) -> Any:
    default = column.default
    if default is None:
        return None
    arg = getattr(default, "arg", None)
    if callable(arg):
        try:
            return arg()
        except TypeError:  # SQLAlchemy wraps some callables to take a context
            return arg(None)
    return arg


def _fill_later_links(
    session: Session,
    table: Table,
    rows: list[dict[str, Any]],
    new_ids: Mapping[str, list[int]],
    id_of: IdOf,
    shape: _Shape,
) -> None:
    """Set the links written as null at first: to the same table or to a later one."""
    order = [t.name for t in shape.owned]
    position = order.index(table.name)
    links = [
        c.name
        for c in _data_columns(table)
        if (target := _fk_target(c)) in order and order.index(target) >= position
    ]
    hooked = [c.name for c in _data_columns(table) if (table.name, c.name) in _JSON_IDS]
    for name in [*links, *hooked]:
        hook = _JSON_IDS.get((table.name, name))
        changes = [
            {
                "row_id": new_ids[table.name][n],
                "value": id_of("", row[name], "")
                if hook is None
                else hook[1](row[name], id_of, _where(table.name, n, name)),
            }
            for n, row in enumerate(rows)
            if row.get(name) is not None
        ]
        if changes:
            statement = (
                update(table)
                .where(table.c.id == bindparam("row_id"))
                .values({name: bindparam("value")})
            )
            session.connection().execute(statement, changes)


def _write_audit(session: Session, rows: list[dict[str, Any]], id_of: IdOf) -> None:
    """Add the file's history to the event, marked imported.

    Its actors are names from another database, kept as text: a file can say anything,
    so none of them is ever credited to a local account of the same address.
    """
    table = SQLModel.metadata.tables[AUDIT]
    out = []
    for row in rows:
        values = {
            key: id_of("", value, "") if isinstance(value, tuple) else value
            for key, value in row.items()
        }
        values["actor_id"] = None
        values["imported"] = True
        out.append(values)
    _insert_many(session, table, out)
