"""Result use cases: games one by one, a final score, a ``.mat`` upload, corrections, walkovers.

Every function is one use case in the caller's transaction, with one audit entry whose
before/after show the match's result. The match engine (``tourney.match``) decides what
is possible: an impossible entry is refused with its reason. A finished match moves its
flight on (``progress.sync_after_result``): the winner advances, the loser goes where the
feeding rule sends them.

Safety: every change names the match ``version`` the director saw (``expected_version``);
if someone saved the match since, the change is refused with a ``ConflictError`` showing
the newer result. The row is locked for the transaction, and SQLAlchemy's version counter
refuses a stale update as a last line, so nothing is overwritten silently.

Terminology: a correction *cascades* when it changes who won a knockout match whose
winner or loser already played on; those later results must be cleared too, which the
director has to confirm (``confirm_cascade=True``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy.orm.exc import StaleDataError
from sqlmodel import Session, col, delete, select

from tourney.formats import knockout as ko
from tourney.formats.model import MatchId
from tourney.formats.rounds import parse_round_name
from tourney.match import (
    GameEntry,
    MatchEntryError,
    MatchRules,
    MatchState,
    Rescore,
    add_game,
    check_final_score,
    format_score,
    score_match,
)
from tourney.match import correct_game as engine_correct
from tourney.match import delete_game as engine_delete
from tourney.rules import GameEnd, Level, Side
from tourney.rules.match_forms import SINGLE
from tourney.rules.messages import Message, PluralMessage, message_parts
from tourney.rules.records import MatchRules as RecordRules
from tourney.rules.records import RecordReport, format_mat, validate_record
from tourney.rules.variants import DEFAULT_VARIANT
from tourney.store import progress
from tourney.store.audit import Actor, record
from tourney.store.errors import ConflictError, NotFoundError, StoreUserError
from tourney.store.message_lists import SemicolonList, SentenceList
from tourney.store.permissions import require_event
from tourney.store.tables import (
    EntryStatus,
    Event,
    Flight,
    FlightEntry,
    Game,
    GameEndKind,
    Match,
    MatchStatus,
    Round,
    RoundStatus,
    UploadedRecord,
)
from tourney.store.teams import entry_display_names
from tourney.store.tournament_views import MatchDetail, RecordFinding, match_detail
from tourney.store.types import utcnow
from tourney.store.variant_options import event_options

_LEVEL_NAMES = {Level.SINGLE: "single", Level.GAMMON: "gammon", Level.BACKGAMMON: "backgammon"}
_LEVELS = {v: k for k, v in _LEVEL_NAMES.items()}
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_REJECTED_UPLOADS = 10
"""Rejected uploads kept per match, the newest: enough to compare attempts, never a
store for whatever anyone sends."""


class CascadeRequiredError(ConflictError):
    """A correction changes a winner that later matches already built on; confirm to clear them."""


@dataclass(frozen=True)
class GameFields:
    """One game as a director enters it (DESIGN §3).

    ``winner`` is ``a`` or ``b`` (the match's sides), empty for a drawn game; ``end``
    played/dropped/resigned, or drawn (long nardy's last-roll draw, where the event has
    it); ``cube`` the value in play at the end (for a drop, before the refused double);
    ``level`` single/gammon/backgammon, none for a drop or a draw.
    """

    winner: str
    end: str
    cube: int = 1
    level: str | None = "single"

    def to_entry(self) -> GameEntry:
        """The match engine's entry.

        Raises:
            StoreUserError: a value outside the closed sets.
        """
        if self.end not in {e.value for e in GameEndKind}:
            raise StoreUserError(Message("Choose how the game ended."), field="end")
        end = GameEnd(self.end)
        if end is GameEnd.DRAWN:
            # Nobody wins a drawn game and it has no result level; whatever the form's
            # winner and result boxes still hold is not part of the entry.
            return GameEntry.drawn(self.cube)
        if self.winner not in ("a", "b"):
            raise StoreUserError(Message("Choose who won the game."), field="winner")
        level = None
        if end is not GameEnd.DROPPED:
            if self.level not in _LEVELS:
                raise StoreUserError(
                    Message(
                        "Choose single, gammon or backgammon for a game played out or resigned.",
                    ),
                    field="level",
                )
            level = _LEVELS[self.level]
        return GameEntry(Side.X if self.winner == "a" else Side.O, end, self.cube, level)


def _bounded_cube(entry: GameEntry, state: MatchState, number: int) -> GameEntry:
    """``entry``, unless its cube is beyond any double the match could need.

    The rules set no limit on redoubles, but once the cube is at the match length or
    more (``decides``: from 0-0 any win takes the match) a further double changes
    nothing. One such turn is accepted, as it is legal (like a double at double match
    point); a cube past it is a typing slip, or a probe, and would store an absurd
    score.

    Raises:
        StoreUserError: the cube is above twice ``decides``.
    """
    decides = 1 << (state.length - 1).bit_length()
    if entry.cube > 2 * decides:
        raise StoreUserError(
            Message(
                "Game %(number)s has the cube at %(cube)s in a %(length)s-point match: from a "
                "cube of %(decides)s any win takes the match, so the cube goes at most one "
                "double further, to %(value)s.",
                number=number, cube=entry.cube, length=state.length, decides=decides,
                value=2 * decides,
            ),
            field="cube",
        )
    return entry


def _side(entry: GameEntry) -> str | None:
    """The stored winner of an entry: ``a`` for ``Side.X``, ``b``, none for a draw."""
    if entry.winner is None:
        return None
    return "a" if entry.winner is Side.X else "b"


@dataclass(frozen=True)
class UploadOutcome:
    """What an upload did: the games filled in, or the findings that stopped it."""

    ok: bool
    record_id: int
    findings: tuple[RecordFinding, ...]
    """Errors with game and line; empty when the games were filled in."""
    match: MatchDetail
    other_players: tuple[str, str] | None = None
    """The record's two player names, in its order, when they are all that keeps it out
    (a raw gnubg export names "gnubg" and the account): say who is who to use it."""


# --- loading and checking ------------------------------------------------------------


@dataclass
class _Loaded:
    match: Match
    event: Event
    flight: Flight
    round: Round
    games: list[Game]


def _load(session: Session, actor: Actor, match_id: int, expected_version: int | None) -> _Loaded:
    match = session.exec(select(Match).where(Match.id == match_id).with_for_update()).first()
    if match is None:
        raise NotFoundError(Message("No such match."))
    flight = session.get(Flight, match.flight_id)
    rnd = session.get(Round, match.round_id)
    assert flight is not None and rnd is not None
    event = require_event(session, actor, flight.event_id, manage=False)
    games = progress.games_of(session, match_id)
    if expected_version is not None and match.version != expected_version:
        raise ConflictError(
            Message(
                "Someone else saved this match first: it now stands at %(result_text)s. Your "
                "change was not saved; check the match and enter it again if it is still "
                "needed.",
                result_text=_result_text(session, match),
            )
        )
    if rnd.status == RoundStatus.DRAFT.value:
        raise StoreUserError(Message("This round is not published yet: publish the draw first."))
    if match.entry_a_id is None or match.entry_b_id is None:
        raise StoreUserError(Message("This match has no two players yet."))
    return _Loaded(match, event, flight, rnd, games)


def version_with_result(session: Session, match_id: int) -> int | None:
    """The match's version when it has games or a result already, else none (also for
    no such match: the use case itself answers that)."""
    match = session.get(Match, match_id)
    if match is None:
        return None
    has_games = session.exec(select(Game.id).where(Game.match_id == match_id)).first()
    if has_games is None and match.status not in progress.DONE:
        return None
    return match.version


def _names(session: Session, match: Match) -> tuple[str, str]:
    names = []
    for fe_id in (match.entry_a_id, match.entry_b_id):
        name = "bye"
        if fe_id is not None:
            entry_id = session.exec(
                select(FlightEntry.entry_id).where(FlightEntry.id == fe_id)
            ).first()
            # A pair consultation is named by both players.
            name = entry_display_names(session, [entry_id]).get(entry_id, "?") if entry_id else "?"
        names.append(name)
    return names[0], names[1]


def _result_text(session: Session, match: Match) -> str:
    a, b = _names(session, match)
    score = f"{a} {match.score_a}, {b} {match.score_b}"
    if match.status == MatchStatus.WALKOVER.value:
        winner = a if match.winner_entry_id == match.entry_a_id else b
        return Message("a walkover to %(winner)s", winner=winner)
    if match.status == MatchStatus.FINISHED.value:
        winner = a if match.winner_entry_id == match.entry_a_id else b
        return Message("%(score)s, won by %(winner)s", score=score, winner=winner)
    return score


def _snapshot(match: Match, games: list[Game]) -> dict[str, Any]:
    return {
        "status": match.status,
        "score": format_score((match.score_a, match.score_b)),
        "winner_entry_id": match.winner_entry_id,
        "result_source": match.result_source,
        "games": [
            f"{g.number}: {g.winner or '-'} {g.end} cube {1 << g.cube_exponent}"
            + (f" {g.level}" if g.level else "")
            + f" = {g.points}"
            for g in games
        ],
    }


def _flush(session: Session) -> None:
    try:
        session.flush()
    except StaleDataError:
        raise ConflictError(
            Message(
                "Someone else saved this match at the same moment; nothing of yours was saved. "
                "Reload the match to see the newer result.",
            )
        ) from None


def _audit(
    session: Session,
    loaded: _Loaded,
    actor: Actor,
    action: str,
    before: dict[str, Any],
    extra: dict[str, Any] | None = None,
) -> None:
    after = _snapshot(loaded.match, progress.games_of(session, loaded.match.id or 0))
    after.update(extra or {})
    record(
        session,
        actor=actor,
        action=action,
        entity_type="match",
        entity_id=loaded.match.id,
        event_id=loaded.event.id,
        match_id=loaded.match.id,
        before=before,
        after=after,
    )


def _entry_error(error: MatchEntryError, field: str | None = None) -> StoreUserError:
    return StoreUserError(error.message, field=field)


# --- writing games -------------------------------------------------------------------


def _write_games(
    session: Session, loaded: _Loaded, state: MatchState, record_id: int | None = None
) -> None:
    """Replace the match's games by ``state``'s and set its score, status and winner."""
    old_records = {g.number: g.record_id for g in loaded.games}
    session.exec(delete(Game).where(col(Game.match_id) == loaded.match.id))
    session.flush()
    for game in state.games:
        entry = game.entry
        session.add(
            Game(
                match_id=loaded.match.id or 0,
                number=game.number,
                winner=_side(entry),
                end=entry.end.value,
                cube_exponent=entry.cube.bit_length() - 1,
                level=None if entry.level is None else _LEVEL_NAMES[entry.level],
                points=game.points,
                is_crawford=game.kind.value == "crawford",
                variant=state.rules.for_game(game.number).variant.name,
                record_id=record_id if record_id is not None else old_records.get(game.number),
            )
        )
    _set_state(loaded.match, state, source="games" if state.games else "")


def _set_state(match: Match, state: MatchState, *, source: str) -> None:
    match.score_a, match.score_b = state.score
    if state.is_over:
        match.status = MatchStatus.FINISHED
        match.winner_entry_id = match.entry_a_id if state.winner is Side.X else match.entry_b_id
        match.finished_at = match.finished_at or utcnow()
    else:
        # A match marked started (``clocks.start_match``) stays in play without games.
        running = bool(state.games) or match.started_at is not None
        match.status = MatchStatus.PLAYING if running else MatchStatus.READY
        match.winner_entry_id = None
        match.finished_at = None
    if state.games and match.started_at is None:
        match.started_at = utcnow()
    match.result_source = source


def set_match_state(match: Match, state: MatchState, *, source: str) -> None:
    """Set a match's score, status and winner from its rescored games."""
    _set_state(match, state, source=source)


def side_names(session: Session, match: Match) -> tuple[str, str]:
    """The names of the match's two sides ("bye" for an empty side)."""
    return _names(session, match)


def _clear(session: Session, match: Match) -> None:
    session.exec(delete(Game).where(col(Game.match_id) == match.id))
    match.score_a = match.score_b = 0
    match.winner_entry_id = None
    match.finished_at = None
    match.started_at = None
    match.result_source = ""
    match.status = MatchStatus.READY


def _cascade(session: Session, loaded: _Loaded, new_winner: int | None, confirm: bool) -> list[int]:
    """Check (and with ``confirm`` clear) later results built on a changed winner."""
    match = loaded.match
    if match.winner_entry_id == new_winner or match.winner_entry_id is None:
        return []
    blocking = _dependent_results(session, loaded)
    if not blocking:
        return []
    if not confirm:
        # Every one is named: the director confirms clearing exactly these results.
        described = SemicolonList(tuple(_describe(session, m) for m in blocking))
        raise CascadeRequiredError(PluralMessage(
            "This changes who won, and %(count)s later match already depend on it: "
            "%(matches)s. Confirm the correction to clear those results as well.",
            "This changes who won, and %(count)s later matches already depend on it: "
            "%(matches)s. Confirm the correction to clear those results as well.",
            len(blocking), matches=described,
        ))
    if progress.is_knockout(loaded.flight):
        for other in blocking:
            _clear(session, other)
            other.status = MatchStatus.PENDING
    return [m.id or 0 for m in blocking]


def _dependent_results(session: Session, loaded: _Loaded) -> list[Match]:
    return dependent_results(session, loaded.match, loaded.flight, loaded.round)


def dependent_results(session: Session, match: Match, flight: Flight, rnd: Round) -> list[Match]:
    """Later matches already started or decided on the strength of ``match``'s result.

    In a knockout, the matches its winner or loser reached (in this flight or the flights
    it feeds); in a Swiss or round robin, the later rounds' matches, paired on the records.
    """
    started = (MatchStatus.PLAYING.value, MatchStatus.FINISHED.value, MatchStatus.WALKOVER.value)
    if progress.is_knockout(flight):
        root = progress.plan_root(session, flight)
        assert root is not None and root.bracket_plan is not None
        plan = progress.stored_plan(session, root).bracket({})
        keys = ko.dependents(plan, MatchId(match.bracket_key))
        if not keys:
            return []
        rows = session.exec(
            select(Match)
            .where(col(Match.bracket_key).in_(keys), col(Match.status).in_(started))
            .order_by(col(Match.round_id), col(Match.position))
        )
        ids = {f.id for f in [root, *progress.knockout_children(session, root)]}
        return [m for m in rows if m.flight_id in ids]
    # Swiss and round robin: later rounds were paired on this record.
    later = select(Round.id).where(Round.flight_id == flight.id, Round.number > rnd.number)
    return list(
        session.exec(
            select(Match)
            .where(
                col(Match.round_id).in_(later),
                col(Match.status).in_(started),
                col(Match.entry_b_id).is_not(None),
            )
            .order_by(col(Match.round_id), col(Match.position))
        )
    )


def describe_match(session: Session, match: Match) -> str:
    """A match as a director finds it: round, players and score ("Final: Ann v Bob (1-0)")."""
    return _describe(session, match)


def _describe(session: Session, match: Match) -> str:
    rnd = session.get(Round, match.round_id)
    a, b = _names(session, match)
    score = format_score((match.score_a, match.score_b))
    if rnd is None:
        return Message("a later round: %(a)s v %(b)s (%(score)s)", a=a, b=b, score=score)
    return Message(
        "%(round)s: %(a)s v %(b)s (%(score)s)",
        round=parse_round_name(rnd.name), a=a, b=b, score=score,
    )


def _finish(
    session: Session,
    loaded: _Loaded,
    actor: Actor,
    action: str,
    before: dict[str, Any],
    extra: dict[str, Any] | None = None,
) -> MatchDetail:
    _flush(session)
    progress.sync_after_result(session, loaded.match)
    _flush(session)
    _audit(session, loaded, actor, action, before, extra)
    return match_detail(session, actor, loaded.match.id or 0)


def _check_open_for_games(loaded: _Loaded) -> None:
    source = loaded.match.result_source
    if loaded.match.status == MatchStatus.WALKOVER.value:
        raise StoreUserError(Message(
            "This match was decided by walkover; clear the result first.",
        ))
    if source in ("score",) and loaded.match.status == MatchStatus.FINISHED.value:
        raise StoreUserError(
            Message("This match was entered as a final score; clear the result to enter games.")
        )


# --- use cases -----------------------------------------------------------------------


def record_game(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    game: GameFields,
    expected_version: int | None = None,
) -> MatchDetail:
    """Add the next game of a match; the match finishes by itself at N.

    Raises:
        NotFoundError, AccessDeniedError: no such match, or not on the event's staff.
        ConflictError: the match changed since ``expected_version``.
        StoreUserError: the rules make the game impossible (the reason says which rule),
            or the match is not open for games.
    """
    loaded = _load(session, actor, match_id, expected_version)
    _check_open_for_games(loaded)
    before = _snapshot(loaded.match, loaded.games)
    state = progress.match_state(loaded.event, loaded.match, loaded.games)
    try:
        new = add_game(state, _bounded_cube(game.to_entry(), state, len(state.games) + 1))
    except MatchEntryError as error:
        raise _entry_error(error, "cube" if "cube" in error.message.lower() else None) from None
    entry = new.games[-1]
    session.add(
        Game(
            match_id=match_id,
            number=entry.number,
            winner=_side(entry.entry),
            end=entry.entry.end.value,
            cube_exponent=entry.entry.cube.bit_length() - 1,
            level=None if entry.entry.level is None else _LEVEL_NAMES[entry.entry.level],
            points=entry.points,
            is_crawford=entry.kind.value == "crawford",
            variant=new.rules.for_game(entry.number).variant.name,
        )
    )
    _set_state(loaded.match, new, source="games")
    if not new.is_over:
        # Nothing moves on in the flight: skip the bracket work (the common case).
        _flush(session)
        _audit(session, loaded, actor, "match.game_add", before)
        return match_detail(session, actor, match_id)
    return _finish(session, loaded, actor, "match.game_add", before)


def correct_game(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    number: int,
    game: GameFields,
    expected_version: int | None = None,
    confirm_cascade: bool = False,
) -> MatchDetail:
    """Replace game ``number``; the match is rescored and the bracket re-checked.

    Raises:
        NotFoundError, AccessDeniedError, ConflictError: as ``record_game``.
        CascadeRequiredError: the winner changes and later matches depend on it.
        StoreUserError: the corrected game, or a later game after it, becomes impossible.
    """
    entry = game.to_entry()
    return _change_game(
        session, actor, match_id, expected_version, confirm_cascade, "match.game_correct",
        number, lambda state: engine_correct(state, number, _bounded_cube(entry, state, number)),
    )


def is_game_unchanged(session: Session, *, match_id: int, number: int, game: GameFields) -> bool:
    """Whether game ``number`` of the match already reads as ``game`` (a correction that
    keeps it as it was changes nothing, and the director is told so)."""
    stored = session.exec(
        select(Game).where(Game.match_id == match_id, Game.number == number)
    ).first()
    if stored is None:
        return False
    try:
        return progress.game_entry(stored) == game.to_entry()
    except StoreUserError:
        return False


def delete_game(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    number: int,
    expected_version: int | None = None,
    confirm_cascade: bool = False,
) -> MatchDetail:
    """Delete game ``number``; later games move up, the match is rescored.

    Raises:
        as ``correct_game``.
    """
    return _change_game(
        session, actor, match_id, expected_version, confirm_cascade, "match.game_delete",
        number, lambda state: engine_delete(state, number),
    )


def _change_game(
    session: Session,
    actor: Actor,
    match_id: int,
    expected_version: int | None,
    confirm: bool,
    action: str,
    number: int,
    change: Callable[[MatchState], Rescore],
) -> MatchDetail:
    """Apply a correction or deletion of game ``number`` and rescore everything after it."""
    loaded = _load(session, actor, match_id, expected_version)
    before = _snapshot(loaded.match, loaded.games)
    state = progress.match_state(loaded.event, loaded.match, loaded.games)
    try:
        rescored = change(state)
    except IndexError:
        raise NotFoundError(Message("This match has no game %(number)s.", number=number)) from None
    if rescored.rejected:
        raise StoreUserError(SentenceList(tuple(r.message for r in rescored.rejected)))
    return _rewrite(session, loaded, actor, rescored.state, before, confirm, action)


def _rewrite(
    session: Session,
    loaded: _Loaded,
    actor: Actor,
    state: MatchState,
    before: dict[str, Any],
    confirm: bool,
    action: str,
) -> MatchDetail:
    match = loaded.match
    new_winner = None
    if state.is_over:
        new_winner = match.entry_a_id if state.winner is Side.X else match.entry_b_id
    cleared = _cascade(session, loaded, new_winner, confirm)
    _write_games(session, loaded, state)
    return _finish(
        session, loaded, actor, action, before, {"cleared_matches": cleared} if cleared else None
    )


def record_final_score(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    score_a: int,
    score_b: int,
    expected_version: int | None = None,
    confirm_cascade: bool = False,
) -> MatchDetail:
    """Enter (or correct) a match's result as a final score only, like "7-4".

    Raises:
        NotFoundError, AccessDeniedError, ConflictError, CascadeRequiredError: as above.
        StoreUserError: the score does not finish the match or cannot be reached under
            the rules, or games are entered already.
    """
    loaded = _load(session, actor, match_id, expected_version)
    if loaded.games:
        raise StoreUserError(
            Message(
                "This match has games entered; correct or delete them instead of a final score.",
            )
        )
    if loaded.match.status == MatchStatus.WALKOVER.value:
        raise StoreUserError(Message(
            "This match was decided by walkover; clear the result first.",
        ))
    rules = progress.match_rules(loaded.event, loaded.match.match_length)
    try:
        winner = check_final_score(rules, (score_a, score_b),
                                   start=progress.match_start(loaded.match))
    except MatchEntryError as error:
        raise StoreUserError(error.message, field="score") from None
    before = _snapshot(loaded.match, loaded.games)
    match = loaded.match
    new_winner = match.entry_a_id if winner is Side.X else match.entry_b_id
    cleared = _cascade(session, loaded, new_winner, confirm_cascade)
    match.score_a, match.score_b = score_a, score_b
    match.winner_entry_id = new_winner
    match.status = MatchStatus.FINISHED
    match.result_source = "score"
    match.finished_at = utcnow()
    return _finish(
        session,
        loaded,
        actor,
        "match.final_score",
        before,
        {"cleared_matches": cleared} if cleared else None,
    )


def clear_result(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    expected_version: int | None = None,
    confirm_cascade: bool = False,
) -> MatchDetail:
    """Remove a match's result and games (a wrong final score, a walkover given in error).

    Raises:
        as ``correct_game``.
    """
    loaded = _load(session, actor, match_id, expected_version)
    before = _snapshot(loaded.match, loaded.games)
    cleared = _cascade(session, loaded, None, confirm_cascade)
    _clear(session, loaded.match)
    return _finish(
        session,
        loaded,
        actor,
        "match.clear",
        before,
        {"cleared_matches": cleared} if cleared else None,
    )


def award_walkover(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    winner: str,
    expected_version: int | None = None,
    confirm_cascade: bool = False,
) -> MatchDetail:
    """A forfeit: the match goes to ``winner`` (``a`` or ``b``) by walkover, shown as such.

    Raises:
        as ``correct_game``; StoreUserError for a winner other than ``a``/``b``.
    """
    if winner not in ("a", "b"):
        raise StoreUserError(Message("Choose who gets the walkover."), field="winner")
    loaded = _load(session, actor, match_id, expected_version)
    before = _snapshot(loaded.match, loaded.games)
    match = loaded.match
    new_winner = match.entry_a_id if winner == "a" else match.entry_b_id
    cleared = _cascade(session, loaded, new_winner, confirm_cascade)
    walkover(match, new_winner)
    return _finish(
        session,
        loaded,
        actor,
        "match.walkover",
        before,
        {"cleared_matches": cleared} if cleared else None,
    )


def walkover(match: Match, winner_entry_id: int | None) -> None:
    """Mark a match won by walkover (games on the sheet stay for the record)."""
    match.status = MatchStatus.WALKOVER
    match.winner_entry_id = winner_entry_id
    match.result_source = "walkover"
    match.finished_at = utcnow()


class RecordBasis(NamedTuple):
    """What checking a record against a match depends on."""

    match_length: int
    names: tuple[str, str]
    record_rules: RecordRules
    match_rules: MatchRules


@dataclass(frozen=True)
class CheckedRecord:
    """A ``.mat`` record validated and scored against a match, ready to be stored.

    Validating a large record takes seconds; ``check_match_record`` does it in a read
    session so that the write transaction that stores it holds the database's write lock
    only briefly. ``basis`` is what the check depended on (the match's length and players,
    the event's rules): the store re-checks when it changed in between.
    """

    match_id: int
    filename: str
    data: bytes
    basis: RecordBasis
    report: RecordReport
    findings: tuple[RecordFinding, ...]
    state: MatchState | None
    """The scored match when the record fits, else none (``findings`` say why)."""
    first_player_side: str | None = None
    """Who the record's first player is (``"a"`` or ``"b"``), as the director said;
    none: found by the names."""
    other_players: tuple[str, str] | None = None
    """The record's player names when they are all that does not fit (see
    ``UploadOutcome.other_players``)."""


def check_match_record(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    filename: str,
    data: bytes,
    first_player_side: str | None = None,
) -> CheckedRecord:
    """Validate and score a record for a match without changing anything.

    ``first_player_side`` (``"a"`` or ``"b"``) says which of the match's players the
    record's first player is, for a record whose names are not theirs.

    Raises:
        NotFoundError, AccessDeniedError: no such match, or not the actor's.
    """
    match = session.get(Match, match_id)
    if match is None:
        raise NotFoundError(Message("No such match."))
    flight = session.get(Flight, match.flight_id)
    assert flight is not None
    event = require_event(session, actor, flight.event_id, manage=False)
    return _check_record(session, match, event, filename, data, first_player_side)


def _record_basis(session: Session, match: Match, event: Event) -> RecordBasis:
    return RecordBasis(
        match.match_length,
        _names(session, match),
        _record_rules(event, progress.match_start(match)),
        progress.match_rules(event, match.match_length),
    )


def _check_record(
    session: Session,
    match: Match,
    event: Event,
    filename: str,
    data: bytes,
    first_player_side: str | None = None,
) -> CheckedRecord:
    if first_player_side not in (None, "a", "b"):
        raise StoreUserError(
            Message("Say which player the record's first player is."), field="first_player_side"
        )
    start = progress.match_start(match)
    if first_player_side == "b":
        start = (start[1], start[0])
    report = validate_record(filename, data, rules=_record_rules(event, start),
                             max_bytes=MAX_RECORD_BYTES)
    findings = [RecordFinding(e.game, e.line, e.message) for e in report.errors]
    basis = _record_basis(session, match, event)
    flip = first_player_side == "b"
    other_players = None
    if not findings:
        problem = _length_problem(report.match_length, match.match_length)
        if not problem and first_player_side is None:
            flip, problem = _fit(report.players, basis.names)
            other_players = report.players if problem else None
        if problem:
            findings.append(RecordFinding(None, None, problem))
    state = None
    if not findings:
        state, problem_at = _score_record(basis.match_rules, report.games, flip,
                                          progress.match_start(match))
        if problem_at is not None:
            findings.append(problem_at)
    assert match.id is not None
    return CheckedRecord(
        match.id, filename, data, basis, report, tuple(findings), state,
        first_player_side, other_players,
    )


def _stored_report(report: RecordReport, filename: str) -> dict[str, object]:
    """The report as ``tourney validate --json`` writes it, each finding with its message's
    parts beside the English text, so that the match page shows it in any language."""
    stored = report.to_json(filename)
    for key, findings in (("errors", report.errors), ("warnings", report.warnings)):
        stored[key] = [
            {**finding.to_json(), "message_parts": message_parts(finding.message)}
            for finding in findings
        ]
    return stored


def upload_match_record(
    session: Session,
    *,
    actor: Actor,
    match_id: int,
    filename: str,
    data: bytes,
    expected_version: int | None = None,
    checked: CheckedRecord | None = None,
    first_player_side: str | None = None,
) -> UploadOutcome:
    """Fill in every game of a match from a ``.mat`` record, if it is valid and fits.

    The upload is kept with its validation report either way; games are entered only
    when the record is valid, its players are the match's (by name, in either order, or
    as ``first_player_side`` says: ``"a"`` or ``"b"`` is the record's first player) and
    its length is the match's. Otherwise the findings say what is wrong, with game and
    line. ``checked`` is the same record checked before the transaction
    (``check_match_record``); it is used when the match and the event's rules are still
    as it saw them.

    Raises:
        NotFoundError, AccessDeniedError, ConflictError: as ``record_game``.
        StoreUserError: the match has games or a result already.
    """
    loaded = _load(session, actor, match_id, expected_version)
    if loaded.games or loaded.match.status in progress.DONE:
        raise StoreUserError(
            Message(
                "This match has games or a result already; delete them before uploading a "
                "record.",
            )
        )
    if checked is None or not _still_holds(
        session, checked, loaded, filename, data, first_player_side
    ):
        checked = _check_record(
            session, loaded.match, loaded.event, filename, data, first_player_side
        )
    text = data.decode("utf-8", errors="replace")
    stored_name = filename[:255]
    if filename.lower().endswith(".xg"):
        if checked.findings:
            # A binary format: its zero bytes are no text a director typed (text records
            # with one are refused as before), and PostgreSQL text holds no NUL.
            text = text.replace("\x00", "\ufffd")
        else:
            # Kept as the .mat it reads as: the match page's moves, the record downloads
            # and the analysis read the stored text, which a binary file cannot be.
            text = format_mat(checked.report)
            stored_name = f"{filename[:251]}.mat"
    upload = UploadedRecord(
        match_id=match_id,
        filename=stored_name,
        original_text=text,
        report=_stored_report(checked.report, filename[:255]),
        is_valid=not checked.findings,
        uploaded_by_id=actor.user_id,
    )
    session.add(upload)
    session.flush()
    before = _snapshot(loaded.match, loaded.games)
    if checked.state is None:
        _keep_newest_rejections(session, match_id)
        _audit(
            session,
            loaded,
            actor,
            "match.record_rejected",
            before,
            {"record_id": upload.id, "errors": len(checked.findings)},
        )
        return UploadOutcome(
            False,
            upload.id or 0,
            checked.findings,
            match_detail(session, actor, match_id),
            checked.other_players,
        )
    _write_games(session, loaded, checked.state, record_id=upload.id)
    loaded.match.result_source = "record"
    said = {"first_player_side": first_player_side} if first_player_side else {}
    detail = _finish(
        session, loaded, actor, "match.record_upload", before, {"record_id": upload.id, **said}
    )
    return UploadOutcome(True, upload.id or 0, (), detail)


def _still_holds(
    session: Session,
    checked: CheckedRecord,
    loaded: _Loaded,
    filename: str,
    data: bytes,
    first_player_side: str | None,
) -> bool:
    """True when ``checked`` is of this upload and the match and rules are as it saw them."""
    return (
        checked.match_id, checked.filename, checked.data, checked.first_player_side
    ) == (
        loaded.match.id,
        filename,
        data,
        first_player_side,
    ) and checked.basis == _record_basis(session, loaded.match, loaded.event)


def _keep_newest_rejections(session: Session, match_id: int) -> None:
    """Delete the match's rejected uploads but the newest ``MAX_REJECTED_UPLOADS``."""
    rejected = (col(UploadedRecord.match_id) == match_id, col(UploadedRecord.is_valid).is_(False))
    newest = (
        select(UploadedRecord.id)
        .where(*rejected)
        .order_by(col(UploadedRecord.id).desc())
        .limit(MAX_REJECTED_UPLOADS)
    )
    session.exec(delete(UploadedRecord).where(*rejected, col(UploadedRecord.id).not_in(newest)))


def _record_rules(event: Event, start: tuple[int, int] = (0, 0)) -> RecordRules:
    """The rules an uploaded record of ``event`` is replayed by: the event's flags, its
    match form, and its variant with its options where it is not the default variant (an
    event of the default variant in one-variant matches takes a record in the variant the
    record names), or where the event sets options (its house rules); and the match's
    start, in the record's order of players."""
    by_record = event.variant == DEFAULT_VARIANT.name and event.match_form == SINGLE.name \
        and not event.variant_options
    return RecordRules(
        start=start,
        crawford=event.crawford,
        holland=event.holland,
        expect_finished=True,
        variant=None if by_record else event.variant,
        match_form=event.match_form,
        options=None if by_record else event_options(event),
        allow_condoned=event.condoned_plays,
    )


def _length_problem(length: int, expected: int) -> str:
    """What is wrong with the record's match length, if anything."""
    if length != expected:
        return Message(
            "The record is of a %(length)s-point match, but this match is to %(expected)s "
            "points.",
            length=length, expected=expected,
        )
    return ""


def _fit(players: tuple[str, str], names: tuple[str, str]) -> tuple[bool, str]:
    """Whether the record's first player is side b, and what does not fit."""
    given = tuple(p.strip().casefold() for p in players)
    ours = tuple(n.strip().casefold() for n in names)
    if given == ours:
        return False, ""
    if given == (ours[1], ours[0]):
        return True, ""
    return False, Message(
        "The record's players are %(first)s and %(second)s, but this match is %(a)s against "
        "%(b)s.",
        first=players[0], second=players[1], a=names[0], b=names[1],
    )


def _score_record(
    rules: MatchRules, games: tuple[Any, ...], flip: bool, start: tuple[int, int]
) -> tuple[MatchState | None, RecordFinding | None]:
    entries = []
    for g in games:
        if g.end is None or (g.winner is None and g.end is not GameEnd.DRAWN):
            return None, RecordFinding(
                g.number, None, Message("Game %(number)s has no result.", number=g.number)
            )
        if g.end is GameEnd.DRAWN:
            entries.append(GameEntry.drawn(g.cube))
            continue
        side = g.winner if not flip else (Side.O if g.winner is Side.X else Side.X)
        level = None if g.end is GameEnd.DROPPED else g.level
        entries.append(GameEntry(side, g.end, g.cube, level))
    try:
        state = score_match(rules, entries, start=start)
    except MatchEntryError as error:
        return None, RecordFinding(error.game_number, None, error.message)
    if not state.is_over:
        return None, RecordFinding(
            None,
            None,
            Message(
                "The record ends at %(score)s: the match is not finished.",
                score=format_score(state.score),
            ),
        )
    return state, None


def withdraw_from_matches(session: Session, *, entry_id: int) -> list[int]:
    """Give walkovers in every open match of a withdrawn entry; returns the match ids.

    Called by the withdrawal use case inside its transaction (it writes the audit entry).
    """
    fe_ids = list(session.exec(select(FlightEntry.id).where(FlightEntry.entry_id == entry_id)))
    for fe in session.exec(select(FlightEntry).where(FlightEntry.entry_id == entry_id)):
        fe.status = EntryStatus.WITHDRAWN
    if not fe_ids:
        return []
    published = select(Round.id).where(Round.status != RoundStatus.DRAFT.value)
    rows = list(
        session.exec(
            select(Match).where(
                col(Match.status).in_(progress.OPEN),
                col(Match.round_id).in_(published),
                (col(Match.entry_a_id).in_(fe_ids)) | (col(Match.entry_b_id).in_(fe_ids)),
            )
        )
    )
    for match in rows:
        other = match.entry_b_id if match.entry_a_id in fe_ids else match.entry_a_id
        walkover(match, other)
    session.flush()
    flights = {m.flight_id for m in rows}
    for match in rows:
        if match.flight_id in flights:
            progress.sync_after_result(session, match)
            flights.discard(match.flight_id)
    # Knockout groups also give walkovers in matches that were still pending.
    for fe in session.exec(select(FlightEntry).where(FlightEntry.entry_id == entry_id)):
        flight = session.get(Flight, fe.flight_id)
        if flight is not None and progress.is_knockout(flight):
            root = progress.plan_root(session, flight)
            if root is not None and root.status != "setup":
                progress.sync_group(session, root)
    return [m.id or 0 for m in rows]
