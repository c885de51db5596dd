"""Entering many roster players at once, seeds changed after entry, and the entries page
read a page at a time.

Terminology:
    pasted list   names typed or pasted one per line; each line is matched against the
                  roster by its person key (``tourney.store.names``): accents, case,
                  apostrophes and word order do not matter.
    page          one slice of a long list (``tourney.store.paging``).

The use cases keep the contract described in ``tourney.store``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlmodel import Session, col, select

from tourney.rules.messages import Message, PluralMessage
from tourney.store import queries
from tourney.store.audit import Actor, record, snapshot
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.names import name_matches, person_key
from tourney.store.paging import PER_PAGE, Page, page_of
from tourney.store.permissions import require_event
from tourney.store.queries import EntryView, PlayerView
from tourney.store.rating_lists import club_rating_list
from tourney.store.tables import (
    Entry,
    EntryStatus,
    Event,
    EventStatus,
    Flight,
    FlightStatus,
    Player,
)

MAX_PASTED_LINES = 2000
_CHUNK = 500
"""Ids per ``IN (...)`` list: well under every database's limit on bound parameters."""


@dataclass(frozen=True)
class BulkEntry:
    """What entering many players did."""

    entered: tuple[str, ...]
    """Names of the players entered now, in the order given."""
    already_entered: tuple[str, ...]
    """Names of the players given who were entered before (left as they were)."""


@dataclass(frozen=True)
class PastedLine:
    """One line of a pasted list and the roster players it names."""

    number: int
    text: str
    players: tuple[PlayerView, ...]
    already_entered: bool
    """The one player it names is entered in the event already."""

    @property
    def problem(self) -> str:
        """Why the line enters nobody; empty when it names one player to enter."""
        if not self.players:
            return Message("No roster player has this name.")
        if len(self.players) > 1:
            return PluralMessage(
                "%(count)s roster player has this name: %(names)s.",
                "%(count)s roster players have this name: %(names)s.",
                len(self.players),
                names="; ".join(_described(p) for p in self.players),
            )
        if self.already_entered:
            return Message("%(name)s is entered already.", name=self.players[0].name)
        return ""


def _described(player: PlayerView) -> str:
    extra = [x for x in (player.country, player.club_name) if x]
    return f"{player.name} ({', '.join(extra)})" if extra else player.name


def _chunks(ids: Sequence[int]) -> Iterable[Sequence[int]]:
    for start in range(0, len(ids), _CHUNK):
        yield ids[start : start + _CHUNK]


def _entered_player_ids(session: Session, event_id: int) -> set[int]:
    return set(session.exec(select(Entry.player_id).where(Entry.event_id == event_id)))


# --- use cases -------------------------------------------------------------------------


def enter_players(
    session: Session, *, actor: Actor, event_id: int, player_ids: Sequence[int]
) -> BulkEntry:
    """A director enters many roster players in an event at once (one audit entry).

    Players entered already are left as they are and named in the answer; a player id
    given twice counts once.

    Raises:
        NotFoundError, AccessDeniedError: no such event or player, or not the actor's event.
        StoreUserError: no player chosen, or the event is finished.
    """
    event = require_event(session, actor, event_id, manage=True)
    if event.status == EventStatus.FINISHED:
        raise StoreUserError(Message("The event is finished."))
    wanted = list(dict.fromkeys(player_ids))
    if not wanted:
        raise StoreUserError(Message("Choose at least one player to enter."), field="player_ids")
    names: dict[int, str] = {}
    for chunk in _chunks(wanted):
        rows = session.exec(select(Player.id, Player.name).where(col(Player.id).in_(chunk)))
        names.update((player_id or 0, name) for player_id, name in rows)
    if len(names) != len(wanted):
        raise NotFoundError(Message("No such player."))
    before = _entered_player_ids(session, event_id)
    new = [player_id for player_id in wanted if player_id not in before]
    session.add_all(Entry(event_id=event_id, player_id=player_id) for player_id in new)
    session.flush()
    done = BulkEntry(
        entered=tuple(names[i] for i in new),
        already_entered=tuple(names[i] for i in wanted if i in before),
    )
    record(
        session,
        actor=actor,
        action="entry.create_many",
        entity_type="event",
        entity_id=event_id,
        event_id=event_id,
        after={
            "entered": len(done.entered),
            "players": [{"id": i, "name": names[i]} for i in new],
            "already_entered": list(done.already_entered),
        },
    )
    return done


def set_seed(session: Session, *, actor: Actor, entry_id: int, seed: int | None) -> EntryView:
    """A director changes (or, with none, removes) an entry's seed after entry.

    Seeds decide a seeded draw and the order players are drawn in, so they are fixed
    once a flight of the event is drawn.

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not the actor's event.
        StoreUserError: a seed below 1, another entry's seed, a finished event, or a flight
            drawn already (each saying so).
    """
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise NotFoundError(Message("No such entry."))
    event = require_event(session, actor, entry.event_id, manage=True)
    _check_seeds_open(session, event)
    if seed is not None and seed < 1:
        raise StoreUserError(Message("Seeds are numbered from 1."), field="seed")
    if seed is not None:
        holder = session.exec(
            select(Player.name)
            .join(Entry, col(Entry.player_id) == Player.id)
            .where(Entry.event_id == entry.event_id, Entry.seed == seed, Entry.id != entry_id)
        ).first()
        if holder is not None:
            seeded = session.get(Player, entry.player_id)
            refused = (
                Message(
                    "%(name)s was not given seed %(seed)s: seed %(seed)s is %(holder)s’s. "
                    "Change or clear that seed first.",
                    name=seeded.name, seed=seed, holder=holder,
                )
                if seeded is not None
                else Message(
                    "This player was not given seed %(seed)s: seed %(seed)s is %(holder)s’s. "
                    "Change or clear that seed first.",
                    seed=seed, holder=holder,
                )
            )
            raise StoreUserError(refused, field="seed")
    before = snapshot(entry)
    entry.seed = seed
    session.flush()
    record(
        session,
        actor=actor,
        action="entry.seed",
        entity_type="entry",
        entity_id=entry.id,
        event_id=entry.event_id,
        before=before,
        after=snapshot(entry),
    )
    return entry_view(session, entry_id)


def _check_seeds_open(session: Session, event: Event) -> None:
    """Refuse to change seeds of a finished event, or once one of its flights is drawn."""
    if event.status == EventStatus.FINISHED:
        raise StoreUserError(Message("The event is finished."), field="seed")
    drawn = session.exec(
        select(Flight.name)
        .where(Flight.event_id == event.id, Flight.status != FlightStatus.SETUP.value)
        .order_by(col(Flight.position))
    ).first()
    if drawn is not None:
        raise StoreUserError(
            Message(
                "Seeds are fixed once a flight is drawn, and “%(flight)s” is drawn: "
                "undo its draw to change seeds.",
                flight=drawn,
            ),
            field="seed",
        )


def seed_by_rating(session: Session, *, actor: Actor, event_id: int, seeds: int) -> int:
    """Seed the event's players by its club's rating list: the ``seeds`` best-rated
    entries get seeds 1, 2, ... in rating order, every other seed is cleared. Returns how
    many were seeded (players without a rated match at the club are not).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not the actor's to manage.
        StoreUserError: the event has no club, seeds are fixed (see :func:`set_seed`),
            or ``seeds`` is below 1.
    """
    event = require_event(session, actor, event_id, manage=True)
    if event.club_id is None:
        raise StoreUserError(Message(
            "The event belongs to no club, so there is no rating list to seed by: choose "
            "its club on the event's form."
        ))
    _check_seeds_open(session, event)
    if seeds < 1:
        raise StoreUserError(Message("Seed at least one player."), field="seeds")
    rank = {row.player_id: row.rank for row in club_rating_list(session, event.club_id).rows}
    entries = list(session.exec(select(Entry).where(Entry.event_id == event_id)))
    playing = [e for e in entries if e.status != EntryStatus.WITHDRAWN.value]
    rated = sorted((e for e in playing if e.player_id in rank), key=lambda e: rank[e.player_id])
    chosen = {entry.id: number for number, entry in enumerate(rated[:seeds], start=1)}
    before = {str(e.id): e.seed for e in entries if e.seed is not None}
    # Withdrawn entries lose their seeds too: no two entries of an event share one.
    for entry in entries:
        entry.seed = chosen.get(entry.id)
    record(
        session,
        actor=actor,
        action="entry.seed_by_rating",
        entity_type="event",
        entity_id=event_id,
        event_id=event_id,
        before={"seeds": before},
        after={"seeds": {str(k): v for k, v in chosen.items()}},
    )
    return len(chosen)


# --- read models -------------------------------------------------------------------------


def entry_view(session: Session, entry_id: int) -> EntryView:
    """One entry as the entries page shows it.

    Raises:
        NotFoundError: no such entry.
    """
    found = queries.entry_views(session, Entry.id == entry_id)
    if not found:
        raise NotFoundError(Message("No such entry."))
    return found[0]


def _ordered_entry_ids(session: Session, event_id: int, search: str) -> list[int]:
    """The event's entry ids in list order (seeds first, then by name), searched."""
    rows: list[tuple[int, int | None, str]] = [
        (entry_id or 0, seed, name)
        for entry_id, seed, name in session.exec(
            select(Entry.id, Entry.seed, Player.name)
            .join(Player, col(Player.id) == Entry.player_id)
            .where(Entry.event_id == event_id)
        )
    ]
    if search:
        rows = [r for r in rows if name_matches(search, r[2])]
    ordered = sorted(rows, key=lambda r: (r[1] is None, r[1] or 0, r[2].casefold(), r[0]))
    return [entry_id for entry_id, _, _ in ordered]


def entries_page(
    session: Session, event_id: int, *, search: str = "", number: int = 1
) -> Page[EntryView]:
    """A page of the event's entries (seeds first, then by name), those whose name
    contains ``search`` however its accents, case and apostrophes are typed."""
    ids = _ordered_entry_ids(session, event_id, search)
    shown = page_of(ids, number, search)
    views = {e.id: e for e in queries.entry_views(session, col(Entry.id).in_(shown.rows))}
    return Page(tuple(views[i] for i in shown.rows), shown.number, shown.pages, shown.total, search)


def entry_page_number(session: Session, entry_id: int) -> int:
    """The page of the unsearched entries list that shows this entry (where a button on
    it leads back to)."""
    ids = _ordered_entry_ids(session, queries.entry_event_id(session, entry_id), "")
    return ids.index(entry_id) // PER_PAGE + 1 if entry_id in ids else 1


def candidates_page(
    session: Session, event_id: int, *, search: str = "", number: int = 1
) -> Page[PlayerView]:
    """A page of the roster players not yet entered in the event, by name."""
    rows = queries.players_not_entered(session, event_id)
    if search:
        rows = [p for p in rows if name_matches(search, p.name)]
    return page_of(rows, number, search)


def match_pasted_names(session: Session, event_id: int, text: str) -> tuple[PastedLine, ...]:
    """Each non-empty line of a pasted list with the roster players whose name it is.

    Raises:
        StoreUserError: no names, or more lines than one list may have.
    """
    lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), start=1)]
    lines = [(n, line) for n, line in lines if line]
    if not lines:
        raise StoreUserError(Message("Paste at least one name."), field="names")
    if len(lines) > MAX_PASTED_LINES:
        raise StoreUserError(
            Message("Paste at most %(most)s names at a time.", most=MAX_PASTED_LINES),
            field="names",
        )
    by_key: dict[tuple[str, ...], list[PlayerView]] = {}
    for player in queries.list_players(session):
        by_key.setdefault(person_key(player.name), []).append(player)
    entered = _entered_player_ids(session, event_id)
    found = []
    for number, line in lines:
        players = tuple(by_key.get(person_key(line), ())) if person_key(line) else ()
        already = len(players) == 1 and players[0].id in entered
        found.append(PastedLine(number, line, players, already))
    return tuple(found)
