"""The audit log as a director reads it: one sentence per entry, filtered and paged.

Terminology:
    sentence   what an entry says in words, built from its action and its before/after
               data: "Anna Ek entered game 3 of Round 1 match 2: Ben Olsen wins a
               gammon, cube 2, 4-1".
    kind       a group of actions a director filters by (results, draws, players ...).
    cascade    a correction that changed who won a match clears the later results built
               on it; the entry of that correction names the matches it cleared, and it
               belongs to the history of each of them as well.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from tourney.rules.messages import N_
from tourney.store.tables import (
    AuditEntry,
    Entry,
    Flight,
    FlightEntry,
    Match,
    Player,
    Round,
    User,
)

PAGE_SIZE = 50
"""Entries per page of the audit log."""


@dataclass(frozen=True)
class AuditKind:
    """A group of actions the log can be filtered by."""

    key: str
    label: str
    prefixes: tuple[str, ...]
    """The actions' dotted prefixes (``match`` for ``match.game_add`` ...)."""

    def includes(self, action: str) -> bool:
        """True when ``action`` is one of this kind."""
        return action.split(".", 1)[0] in self.prefixes


AUDIT_KINDS = (
    AuditKind("results", N_("Results"), ("match",)),
    AuditKind("draws", N_("Draws and pairings"), ("flight", "round")),
    AuditKind("players", N_("Players and entries"), ("entry", "player")),
    AuditKind("event", N_("Event settings and sharing"), ("event",)),
    AuditKind("money", N_("Fees and prizes"), ("money",)),
)
"""The kinds a director filters the log by, in the order the filter lists them."""

_PHRASES = {
    "event.create": "created the event",
    "event.update": "changed the event's details",
    "event.visibility": "changed who can see the event",
    "event.share_link": "made a new share link",
    "event.staff": "changed the event's staff",
    "flight.create": "added the flight {flight}",
    "flight.update": "changed the flight {flight}",
    "flight.draw": "made the draw of {flight}",
    "flight.publish": "published {flight}",
    "flight.undo_draw": "undid the draw of {flight}",
    "flight.late_entry": "entered a late player in {flight}",
    "round.pair": "paired the next round",
    "round.repair": "paired a round again",
    "entry.create": "entered {player}",
    "entry.check_in": "checked in {player}",
    "entry.undo_check_in": "took back the check-in of {player}",
    "entry.check_in_all": "checked in every player not yet present",
    "entry.withdraw": "withdrew {player}",
    "entry.reinstate": "reinstated {player}",
    "player.create": "added the player {player}",
    "player.update": "changed the player {player}",
    "match.table": "set the table of {match}",
    "match.clear": "cleared the result of {match}",
    "match.start": "started the clock of {match}",
    "match.unstart": "took back the start of {match}",
    "event.screen": "changed the venue screen",
    "match.record_rejected": "uploaded a match record for {match} that was refused",
    "match.analysis_requested": "queued the record of {match} for analysis",
    "money.settings": "set the fees and prizes of {flight}",
    "money.charge": "charged {player} a fee",
    "money.pay": "took a fee from {player}",
    "money.refund": "refunded {player} a fee",
    "user.login": "logged in",
    "user.logout": "logged out",
    "user.password_change": "changed their password",
}
"""What an action says after the actor's name, where its data adds nothing more."""

_GAME = re.compile(r"(?P<number>\d+): (?P<winner>[ab-]) (?P<end>\w+) cube (?P<cube>\d+)")
"""A game as a match's audit data lists it: ``3: b played cube 2 gammon = 4``."""
_ENDS = {"dropped": "the cube was dropped", "resigned": "the game was resigned"}
_LEVELS = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}


@dataclass(frozen=True)
class AuditLine:
    """One entry of the log, in words."""

    id: int
    at: datetime
    actor: str
    """The actor's name (the account's e-mail address when it has no name any more)."""
    action: str
    sentence: str
    match_id: int | None
    match_label: str
    """``Round 1 match 2``; empty for an entry about no match."""
    changes: tuple[tuple[str, Any, Any], ...]
    """(field, before, after) of each field that differs."""


@dataclass(frozen=True)
class AuditPage:
    """One page of an event's log, with the filters it was read with."""

    lines: tuple[AuditLine, ...]
    page: int
    pages: int
    total: int
    kind: str
    match_id: int | None
    entry_id: int | None
    kinds: tuple[AuditKind, ...]
    players: tuple[tuple[int, str], ...]
    """(entry id, name) of the event's players, for the player filter."""

    @property
    def newer_page(self) -> int | None:
        """The number of the page before this one (newer entries), if any."""
        return self.page - 1 if self.page > 1 else None

    @property
    def older_page(self) -> int | None:
        """The number of the page after this one (older entries), if any."""
        return self.page + 1 if self.page < self.pages else None


@dataclass(frozen=True)
class _MatchInfo:
    label: str
    a: str
    b: str
    entries: tuple[int | None, int | None]
    """The event entry ids of sides a and b."""
    flight_entries: tuple[int | None, int | None]
    """Their flight entry ids (a match's result names its winner by these)."""


def audit_page(
    session: Session,
    event_id: int,
    *,
    kind: str = "",
    match_id: int | None = None,
    entry_id: int | None = None,
    page: int = 1,
) -> AuditPage:
    """A page of the event's log, newest first.

    ``kind`` keeps one kind of action, ``match_id`` one match's history (with the
    corrections that cleared it), ``entry_id`` what concerns one player: their entry and
    their matches.
    """
    rows = list(
        session.exec(
            select(AuditEntry)
            .where(AuditEntry.event_id == event_id)
            .order_by(col(AuditEntry.id).desc())
        )
    )
    matches = _matches(session, {m for row in rows for m in _matches_of(row)})
    wanted_kind = next((k for k in AUDIT_KINDS if k.key == kind), None)
    kept = [
        row
        for row in rows
        if (wanted_kind is None or wanted_kind.includes(row.action))
        and (match_id is None or match_id in _matches_of(row))
        and (entry_id is None or _concerns_entry(row, entry_id, matches))
    ]
    pages = max(1, math.ceil(len(kept) / PAGE_SIZE))
    page = min(max(page, 1), pages)
    shown = kept[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    names = _actor_names(session, {row.actor_id for row in shown if row.actor_id is not None})
    flights = _flight_names(session, shown)
    players = _players(session, event_id)
    return AuditPage(
        lines=tuple(_line(row, names, matches, flights, dict(players)) for row in shown),
        page=page,
        pages=pages,
        total=len(kept),
        kind=wanted_kind.key if wanted_kind else "",
        match_id=match_id,
        entry_id=entry_id,
        kinds=AUDIT_KINDS,
        players=players,
    )


def _matches_of(row: AuditEntry) -> list[int]:
    """The matches an entry is about: its own and those its cascade cleared."""
    cleared = (row.after or {}).get("cleared_matches") or []
    own = [row.match_id] if row.match_id is not None else []
    return own + [int(m) for m in cleared]


def _concerns_entry(row: AuditEntry, entry_id: int, matches: dict[int, _MatchInfo]) -> bool:
    if row.entity_type == "entry" and row.entity_id == entry_id:
        return True
    if row.entity_type == "money_item" and (row.after or {}).get("entry_id") == entry_id:
        return True
    return any(entry_id in matches[m].entries for m in _matches_of(row) if m in matches)


def _matches(session: Session, ids: Iterable[int]) -> dict[int, _MatchInfo]:
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    rows = session.exec(
        select(Match, Round)
        .join(Round, col(Round.id) == Match.round_id)
        .where(col(Match.id).in_(wanted))
    ).all()
    sides = {fe for m, _ in rows for fe in (m.entry_a_id, m.entry_b_id) if fe is not None}
    people = {
        fe_id: (entry_id, name)
        for fe_id, entry_id, name in session.exec(
            select(FlightEntry.id, Entry.id, Player.name)
            .join(Entry, col(Entry.id) == FlightEntry.entry_id)
            .join(Player, col(Player.id) == Entry.player_id)
            .where(col(FlightEntry.id).in_(sides))
        )
    }

    def side(fe_id: int | None) -> tuple[int | None, str]:
        return people.get(fe_id, (None, "bye")) if fe_id is not None else (None, "bye")

    found = {}
    for m, rnd in rows:
        (a_entry, a), (b_entry, b) = side(m.entry_a_id), side(m.entry_b_id)
        found[m.id or 0] = _MatchInfo(
            f"{rnd.name} match {m.position}",
            a,
            b,
            (a_entry, b_entry),
            (m.entry_a_id, m.entry_b_id),
        )
    return found


def _actor_names(session: Session, ids: set[int]) -> dict[int, str]:
    if not ids:
        return {}
    return {
        user_id or 0: name
        for user_id, name in session.exec(select(User.id, User.name).where(col(User.id).in_(ids)))
        if name
    }


def _flight_names(session: Session, rows: list[AuditEntry]) -> dict[int, str]:
    ids = {r.entity_id for r in rows if r.entity_type == "flight" and r.entity_id is not None}
    if not ids:
        return {}
    return {
        flight_id or 0: name
        for flight_id, name in session.exec(
            select(Flight.id, Flight.name).where(col(Flight.id).in_(ids))
        )
    }


def _players(session: Session, event_id: int) -> tuple[tuple[int, str], ...]:
    return tuple(
        (entry_id or 0, name)
        for entry_id, name in session.exec(
            select(Entry.id, Player.name)
            .join(Player, col(Player.id) == Entry.player_id)
            .where(Entry.event_id == event_id)
            .order_by(col(Player.name))
        )
    )


def _line(
    row: AuditEntry,
    actors: dict[int, str],
    matches: dict[int, _MatchInfo],
    flights: dict[int, str],
    players: dict[int, str],
) -> AuditLine:
    actor = _actor(row, actors)
    match = matches.get(row.match_id or 0)
    before, after = row.before or {}, row.after or {}
    words = _sentence(row.action, before, after, match)
    if words is None:
        phrase = _PHRASES.get(row.action, row.action)
        words = phrase.format(
            flight=flights.get(row.entity_id or 0, "a flight"),
            player=_player_named(row, players),
            match=match.label if match else "a match",
        )
    cleared = [matches[m].label for m in after.get("cleared_matches") or [] if m in matches]
    if cleared:
        words += f"; this cleared the result{'s' if len(cleared) > 1 else ''} of " + ", ".join(
            cleared
        )
    keys = sorted(set(before) | set(after))
    return AuditLine(
        id=row.id or 0,
        at=row.at,
        actor=actor,
        action=row.action,
        sentence=f"{actor} {words}",
        match_id=row.match_id,
        match_label=match.label if match else "",
        changes=tuple(
            (key, before.get(key), after.get(key))
            for key in keys
            if before.get(key) != after.get(key)
        ),
    )


def _actor(row: AuditEntry, actors: dict[int, str]) -> str:
    """Who acted: a local account's name, or the name an imported file gave."""
    if row.imported:
        return f"{row.actor_label} (imported)"
    return actors.get(row.actor_id or 0, row.actor_label)


def _player_named(row: AuditEntry, players: dict[int, str]) -> str:
    """The player an entry is about: the entry's player, or a roster player by the name
    the change found (and the new one, when it renamed them)."""
    if row.entity_type == "entry":
        return players.get(row.entity_id or 0, "a player")
    if row.entity_type == "money_item":
        # A ledger row names its entry in its data.
        return players.get(int((row.after or {}).get("entry_id") or 0), "a player")
    if row.entity_type != "player":
        return "a player"
    old = str((row.before or {}).get("name") or "")
    new = str((row.after or {}).get("name") or "")
    if old and new and old != new:
        return f"{old} (now {new})"
    return new or old or "a player"


def _sentence(
    action: str, before: dict[str, Any], after: dict[str, Any], match: _MatchInfo | None
) -> str | None:
    """The words of a result entry that its data tells more about; none for the others."""
    if match is None:
        return None
    score = after.get("score", "")
    if action in ("match.game_add", "match.game_correct", "match.game_delete"):
        old, new = before.get("games") or [], after.get("games") or []
        if action == "match.game_delete":
            gone = [g for g in old if g not in new]
            return f"deleted {_game_words(gone[-1] if gone else '', match)}, {score}"
        changed = [g for g in new if g not in old]
        verb = "entered" if action == "match.game_add" else "corrected"
        return f"{verb} {_game_words(changed[-1] if changed else '', match)}, {score}"
    if action == "match.final_score":
        # Only the score: a later round's players may have changed since (a cascade).
        return f"entered the final score of {match.label}: {score}"
    if action == "match.walkover":
        a_won = after.get("winner_entry_id") == match.flight_entries[0]
        winner = match.a if a_won else match.b
        return f"gave {match.label} to {winner} by walkover"
    if action == "match.record_upload":
        return f"uploaded the match record of {match.label}: {score}"
    return None


def _game_words(game: str, match: _MatchInfo) -> str:
    """``game 3 of Round 1 match 2: Ben Olsen wins a gammon, cube 2``."""
    found = _GAME.match(game)
    if found is None:
        return f"a game of {match.label}"
    winner = {"a": match.a, "b": match.b}.get(found["winner"], "nobody")
    level = next((words for name, words in _LEVELS.items() if f" {name} " in game), "")
    how = _ENDS.get(found["end"], "")
    result = f"{winner} wins" + (f" {level}" if level else "") + (f" ({how})" if how else "")
    return f"game {found['number']} of {match.label}: {result}, cube {found['cube']}"
