"""A match's record written in a chosen format (``RECORD_WRITERS``): the validated
record with its moves where one was uploaded, else the games as entered, without moves.

Pure reading: the record is parsed and replayed in the caller's read session, never
inside a write transaction.
"""

from __future__ import annotations

import re

from sqlmodel import Session

from tourney.rules.board import Side
from tourney.rules.game import GameEnd
from tourney.rules.messages import Message
from tourney.rules.records import (
    RECORD_WRITERS,
    GameSummary,
    MatchHeader,
    RecordWriter,
    validate_record,
)
from tourney.rules.variants import DEFAULT_VARIANT
from tourney.store import tournament_views as tv
from tourney.store.errors import NotFoundError
from tourney.store.tables import Event, UploadedRecord

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def writer_for(suffix: str) -> RecordWriter:
    """The record format with this file name ending.

    Raises:
        NotFoundError: no such downloadable format.
    """
    writer = RECORD_WRITERS.get(suffix.lower())
    if writer is None:
        raise NotFoundError(Message("No such record format."))
    return writer


def downloads(detail: tv.MatchDetail) -> tuple[tuple[str, str], ...]:
    """The formats ``match_record_text`` can write this match in, as (suffix, label)."""
    if detail.variant != DEFAULT_VARIANT.name or not any(
        g.winner in ("a", "b") for g in detail.games
    ):
        return ()
    return tuple((writer.suffix, writer.label) for writer in RECORD_WRITERS.values())


def _file_name(detail: tv.MatchDetail, suffix: str) -> str:
    m = detail.match
    names = "-".join(ref.name for ref in (m.a, m.b) if ref is not None)
    stem = _UNSAFE.sub("_", names).strip("_") or "match"
    return f"match-{m.id}-{stem}.{suffix}"


def match_record_text(session: Session, detail: tv.MatchDetail, suffix: str) -> tuple[str, str]:
    """The match written in the format ``suffix`` (``mat``, ``sgf``): file name and text.

    The newest valid uploaded record is written with its moves; a match without one is
    written from its games as entered, one game tree or game block per game, with the
    cube actions each result implies and no rolls.

    Raises:
        NotFoundError: no such format; the event is not standard backgammon; the match
            has no games yet.
    """
    writer = writer_for(suffix)
    if detail.variant != DEFAULT_VARIANT.name:
        raise NotFoundError(Message("Match records are written for standard backgammon only."))
    name = _file_name(detail, writer.suffix)
    for upload_view in reversed(detail.uploads):
        if not upload_view.is_valid:
            continue
        upload = session.get(UploadedRecord, upload_view.id)
        if upload is None:
            continue
        report = validate_record(upload.filename, upload.original_text.encode("utf-8"))
        if report.ok:
            return name, writer.from_report(report)
    games = [g for g in detail.games if g.winner in ("a", "b")]
    if not games:
        raise NotFoundError(Message("This match has no games yet."))
    event = session.get(Event, detail.event_id)
    m = detail.match
    header = MatchHeader(
        players=(m.a.name if m.a else "A", m.b.name if m.b else "B"),
        match_length=m.length,
        crawford=event.crawford if event is not None else True,
        details=(("EV", detail.event_name), ("RO", m.round_name)),
    )
    summaries = [
        GameSummary(Side.X if g.winner == "a" else Side.O, GameEnd(g.end), g.cube, g.points)
        for g in games
    ]
    return name, writer.from_games(header, summaries)
