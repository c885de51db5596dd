"""Analyses of uploaded match records, and winning chances from a match's score.

A director asks for the analysis of a match's record (``request_analysis``): that only
queues a job. ``tourney worker`` claims queued jobs one at a time (``run_next_job``) and
runs gnubg's evaluator outside any request; a job that fails keeps its error message.
Pages read the newest finished analysis of a match (``match_analysis``), an event's
performance ratings over its analysed matches (``event_performance``) and each player's
chance to win a match from its current score (``match_chances``).

Without the optional ``analysis`` extra every read says so (``installed`` false) and
nothing is queued.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.analysis import AnalysisUnavailable, analyse_record, is_available, rating_words
from tourney.analysis import winning_chances as met_chances
from tourney.rules.board import Position, Side
from tourney.rules.diagram import format_board
from tourney.rules.messages import N_, Message
from tourney.rules.records import validate_record
from tourney.store import audit, progress
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.permissions import require_event
from tourney.store.tables import (
    AnalysisJob,
    Entry,
    Flight,
    FlightEntry,
    Match,
    Player,
    UploadedRecord,
)
from tourney.store.types import utcnow

QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
RATING_NAMES = {
    "Supernatural": N_("Supernatural"),
    "World class": N_("World class"),
    "Expert": N_("Expert"),
    "Advanced": N_("Advanced"),
    "Intermediate": N_("Intermediate"),
    "Casual player": N_("Casual player"),
    "Beginner": N_("Beginner"),
    "Awful!": N_("Awful!"),
}
"""gnubg's words for an error rate (``tourney.analysis.rating_words``), as pages show
them in their reader's language."""
WORST_SHOWN = 4
"""How many of each player's biggest errors a match page shows."""


@dataclass(frozen=True)
class ErrorView:
    """One of a player's biggest errors, with the position drawn."""

    game: int
    dice: str
    played: str
    best: str
    error_memg: float
    position_id: str
    diagram: str


@dataclass(frozen=True)
class PlayerAnalysisView:
    """One player's figures in an analysed match."""

    name: str
    error_rate: float
    pr: float
    rating: str
    luck: float
    decisions: int
    worst: tuple[ErrorView, ...]


@dataclass(frozen=True)
class AnalysisView:
    """What a match page shows of the analysis of its record."""

    installed: bool
    status: str
    """``none`` (never asked), ``queued``, ``running``, ``done`` or ``failed``."""
    error: str = ""
    players: tuple[PlayerAnalysisView, ...] = ()
    games: int = 0
    can_request: bool = False
    """A valid record is there to analyse and no analysis of it is waiting."""


@dataclass(frozen=True)
class PerformanceRow:
    """One player's performance over an event's analysed matches."""

    name: str
    matches: int
    pr: float
    error_rate: float
    rating: str
    luck: float


@dataclass(frozen=True)
class ChancesView:
    """Each side's chance (percent) to win a match from its current score."""

    installed: bool
    a_name: str = ""
    b_name: str = ""
    a_percent: float | None = None
    b_percent: float | None = None


def _newest_upload(session: Session, match_id: int) -> UploadedRecord | None:
    return session.exec(
        select(UploadedRecord)
        .where(UploadedRecord.match_id == match_id, col(UploadedRecord.is_valid))
        .order_by(col(UploadedRecord.id).desc())
        .limit(1)
    ).first()


def _newest_job(session: Session, match_id: int) -> AnalysisJob | None:
    return session.exec(
        select(AnalysisJob)
        .where(AnalysisJob.match_id == match_id)
        .order_by(col(AnalysisJob.id).desc())
        .limit(1)
    ).first()


def request_analysis(session: Session, *, actor: audit.Actor, match_id: int,
                     plies: int = 0) -> int:
    """Queue the analysis of the match's newest valid record; returns the job's id.

    Raises:
        NotFoundError, AccessDeniedError: no such match, or not the actor's event.
        StoreUserError: analysis is not installed, the match has no valid record, or its
            analysis is already waiting.
    """
    match = session.get(Match, match_id)
    if match is None:
        raise NotFoundError(Message("No such match."))
    flight = session.get(Flight, match.flight_id)
    assert flight is not None
    require_event(session, actor, flight.event_id, manage=True)
    if not is_available():
        raise StoreUserError(Message("Analysis is not installed on this server."))
    upload = _newest_upload(session, match_id)
    if upload is None:
        raise StoreUserError(Message("This match has no valid match record to analyse."))
    waiting = _newest_job(session, match_id)
    if waiting is not None and waiting.status in (QUEUED, RUNNING):
        raise StoreUserError(Message("The analysis of this match is already waiting to run."))
    job = AnalysisJob(match_id=match_id, upload_id=upload.id or 0, plies=plies,
                      requested_by_id=actor.user_id)
    session.add(job)
    session.flush()
    audit.record(session, actor=actor, action="match.analysis_requested",
                 entity_type="analysis_job", entity_id=job.id, event_id=flight.event_id,
                 match_id=match_id, after={"upload_id": upload.id, "plies": plies})
    return job.id or 0


def run_next_job(engine: Engine) -> int | None:
    """Claim the oldest queued job, analyse its record and store the outcome.

    Returns the job's id, or ``None`` when nothing is queued. The claim is its own short
    transaction (on PostgreSQL rows locked by another worker are skipped), so several
    workers never run one job twice, and no transaction stays open while gnubg works.
    """
    with Session(engine) as session:
        job = session.exec(
            select(AnalysisJob)
            .where(AnalysisJob.status == QUEUED)
            .order_by(col(AnalysisJob.id))
            .limit(1)
            .with_for_update(skip_locked=True)
        ).first()
        if job is None:
            return None
        job.status, job.started_at = RUNNING, utcnow()
        upload = session.get(UploadedRecord, job.upload_id)
        filename = upload.filename if upload is not None else ""
        text = upload.original_text if upload is not None else ""
        job_id, plies = job.id, job.plies
        session.add(job)
        session.commit()
    result: dict[str, Any] | None = None
    error = ""
    try:
        report = validate_record(filename or "match.mat", text.encode("utf-8"))
        analysis = analyse_record(report, plies=plies)
        result = _result_json(analysis)
    except (AnalysisUnavailable, ValueError) as problem:
        error = str(problem)
    except Exception as problem:
        error = f"the analysis stopped: {type(problem).__name__}: {problem}"
    with Session(engine) as session:
        job = session.get(AnalysisJob, job_id)
        if job is not None:
            job.status = DONE if result is not None else FAILED
            job.result, job.error, job.finished_at = result, error, utcnow()
            session.add(job)
            session.commit()
    return job_id


def _result_json(analysis: Any) -> dict[str, Any]:
    document: dict[str, Any] = analysis.to_json()
    document["decisions"] = [
        f.unforced_moves + f.close_cube for f in analysis.figures
    ]
    document["error_total"] = [f.chequer_error + f.cube_error for f in analysis.figures]
    document["worst"] = [
        [
            {
                "game": d.game, "dice": d.dice, "played": d.played, "best": d.best,
                "error": d.error, "position_id": d.position_id,
            }
            for d in analysis.worst(side, WORST_SHOWN)
        ]
        for side in (Side.X, Side.O)
    ]
    return document


def _diagram(position_id: str) -> str:
    try:
        return format_board(Position.from_id(position_id))
    except ValueError:
        return ""


def match_analysis(session: Session, match_id: int) -> AnalysisView:
    """The newest analysis of a match's record, as its pages show it."""
    if not is_available():
        return AnalysisView(installed=False, status="none")
    job = _newest_job(session, match_id)
    has_record = _newest_upload(session, match_id) is not None
    if job is None:
        return AnalysisView(True, "none", can_request=has_record)
    can_request = has_record and job.status in (DONE, FAILED)
    if job.status != DONE or not job.result:
        return AnalysisView(True, job.status, job.error, can_request=can_request)
    result = job.result
    players = []
    for side, name in enumerate(result["players"]):
        worst = tuple(
            ErrorView(w["game"], w["dice"], w["played"], w["best"], round(1000 * w["error"]),
                      w["position_id"], _diagram(w["position_id"]))
            for w in result["worst"][side]
        )
        players.append(PlayerAnalysisView(
            name, result["error_rate"][side], result["pr"][side],
            _rating(result["error_rate"][side]), result["luck"][side],
            result["decisions"][side], worst,
        ))
    return AnalysisView(True, DONE, players=tuple(players), games=result["games"],
                        can_request=can_request)


def event_performance(session: Session, event_id: int) -> tuple[bool, list[PerformanceRow]]:
    """Whether analysis is installed, and the PR of each player of the event whose
    recorded matches were analysed (over all their decisions), best first.

    A record names its players as the file does; they are counted by that name.
    """
    if not is_available():
        return False, []
    jobs = session.exec(
        select(AnalysisJob)
        .join(Match, col(Match.id) == AnalysisJob.match_id)
        .join(Flight, col(Flight.id) == Match.flight_id)
        .where(Flight.event_id == event_id, AnalysisJob.status == DONE)
        .order_by(col(AnalysisJob.id))
    ).all()
    newest: dict[int, dict[str, Any]] = {}
    for job in jobs:
        if job.result:
            newest[job.match_id] = job.result
    totals: dict[str, list[float]] = {}
    for result in newest.values():
        for side, name in enumerate(result["players"]):
            row = totals.setdefault(name, [0, 0.0, 0.0, 0.0])
            row[0] += 1
            row[1] += result["error_total"][side]
            row[2] += result["decisions"][side]
            row[3] += result["luck"][side]
    rows = []
    for name, (matches, error, decisions, luck) in totals.items():
        rate = 1000 * error / decisions if decisions else 0.0
        rows.append(PerformanceRow(name, int(matches), round(rate / 2, 1), round(rate, 1),
                                   _rating(rate), round(luck / matches, 1)))
    return True, sorted(rows, key=lambda r: (r.pr, r.name))


def _rating(error_rate: float) -> str:
    """gnubg's words for an error rate (mEMG per decision), translatable."""
    words = rating_words(error_rate)
    return RATING_NAMES.get(words, words)


def match_chances(session: Session, match_id: int) -> ChancesView:
    """Each player's chance to win the match from its current score (gnubg's match
    equity table, Crawford and post-Crawford aware). Empty for a match without two
    players or not scored by games; ``installed`` false without the analysis extra."""
    if not is_available():
        return ChancesView(installed=False)
    match = session.get(Match, match_id)
    if match is None or match.entry_a_id is None or match.entry_b_id is None:
        return ChancesView(installed=True)
    if match.status in progress.DONE:
        # Decided (perhaps by a final score without games): no chances to show.
        return ChancesView(installed=True)
    flight = session.get(Flight, match.flight_id)
    if flight is None:
        return ChancesView(installed=True)
    from tourney.store.tables import Event

    event = session.get(Event, flight.event_id)
    if event is None:
        return ChancesView(installed=True)
    names = [_entry_name(session, match.entry_a_id), _entry_name(session, match.entry_b_id)]
    try:
        state = progress.match_state(event, match, progress.games_of(session, match_id))
        chances = met_chances(state.away, state.next_kind)
    except (ValueError, AnalysisUnavailable):
        return ChancesView(installed=True, a_name=names[0], b_name=names[1])
    return ChancesView(True, names[0], names[1], round(100 * chances[0], 1),
                       round(100 * chances[1], 1))


def _entry_name(session: Session, flight_entry_id: int) -> str:
    """The player's name of a match side (a match names flight entries)."""
    place = session.get(FlightEntry, flight_entry_id)
    entry = session.get(Entry, place.entry_id) if place is not None else None
    if entry is None:
        return ""
    player = session.get(Player, entry.player_id) if entry.player_id else None
    return player.name if player is not None else ""
