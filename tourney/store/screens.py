"""The venue screen: what an event's projector page shows, and its settings.

The screen rotates through *slides*, each of one *panel*: the current round's pairings
with tables (a long round split into slides of :data:`PAIRINGS_PER_SLIDE`), a knockout's
bracket from its current round on, the standings of a Swiss or round robin, the round
clock (counting down to the director's deadline, or to the current rounds' expected
ends), and the director's announcement. Which panels, in which order and for how long
each is the event's :class:`~tourney.store.tables.VenueScreen` row (defaults without one).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlmodel import Session, select

from tourney.rules.messages import N_, Message, PluralMessage
from tourney.store import tournament_views as tv
from tourney.store.audit import Actor, record, snapshot
from tourney.store.clocks import EventTimes, event_times
from tourney.store.errors import NotFoundError, StoreUserError
from tourney.store.permissions import require_event
from tourney.store.tables import Event, RoundStatus, VenueScreen
from tourney.store.types import utcnow


@dataclass(frozen=True)
class Panel:
    """A kind of slide the screen can show."""

    key: str
    label: str


PANELS = (
    Panel("pairings", N_("Pairings with tables")),
    Panel("bracket", N_("Knockout brackets")),
    Panel("standings", N_("Standings")),
    Panel("clock", N_("Round clock")),
    Panel("announcement", N_("Announcement")),
)
"""Every panel, in the default order."""
DEFAULT_PANELS = tuple(p.key for p in PANELS)
DEFAULT_ROTATION_SECONDS = 20
ROTATION_RANGE = (5, 300)
MAX_ANNOUNCEMENT = 500
MAX_CLOCK_MINUTES = 24 * 60
PAIRINGS_PER_SLIDE = 32
"""Two columns of 16 rows: what 1080 lines hold in type read from 5 metres."""
MAX_PAIRING_SLIDES = 8
"""Slides of one round's pairings at most: a round of thousands is read on phones; past
this the screen shows the matches still to finish."""
STANDINGS_PER_SLIDE = 16
BRACKET_ROUNDS = 3
"""Rounds of a bracket one slide shows, from the current one on."""
BRACKET_FIRST_ROUND_MATCHES = 16
WINNER_OF = "Winner of %(match)s"
"""The pattern of a bracket's open side waiting for a match's winner
(``tournament_views``' placeholders)."""


def find_panel(key: str) -> Panel:
    """The panel of this key.

    Raises:
        StoreUserError: no such panel.
    """
    for panel in PANELS:
        if panel.key == key:
            return panel
    raise StoreUserError(Message("Unknown screen panel %(key)s.", key=repr(key)), field="panels")


@dataclass(frozen=True)
class ScreenSettings:
    """An event's screen settings as the director's form shows them."""

    event_id: int
    event_name: str
    event_slug: str
    panels: tuple[str, ...]
    rotation_seconds: int
    announcement: str
    clock_until: datetime | None


def screen_settings(session: Session, actor: Actor, event_id: int) -> ScreenSettings:
    """The settings of the event's screen (the defaults until set).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not on its staff.
    """
    event = require_event(session, actor, event_id, manage=False)
    return _settings(session, event)


def _settings(session: Session, event: Event) -> ScreenSettings:
    row = session.exec(select(VenueScreen).where(VenueScreen.event_id == event.id)).first()
    if row is None:
        return ScreenSettings(
            event.id or 0,
            event.name,
            event.slug,
            DEFAULT_PANELS,
            DEFAULT_ROTATION_SECONDS,
            "",
            None,
        )
    return ScreenSettings(
        event.id or 0,
        event.name,
        event.slug,
        tuple(row.panels or DEFAULT_PANELS),
        row.rotation_seconds,
        row.announcement,
        row.clock_until,
    )


def set_screen(
    session: Session,
    *,
    actor: Actor,
    event_id: int,
    panels: tuple[str, ...],
    rotation_seconds: int,
    announcement: str,
    clock_minutes: int | None,
) -> ScreenSettings:
    """A director sets the event's screen: its panels in order, seconds a slide, the
    announcement, and the round clock (``clock_minutes`` from now; none: the rounds'
    expected ends).

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not a director of it.
        StoreUserError: no panel, an unknown one, a rotation, text or clock out of range.
    """
    event = require_event(session, actor, event_id, manage=True)
    if not panels:
        raise StoreUserError(Message("Choose at least one panel for the screen."), field="panels")
    chosen = tuple(dict.fromkeys(find_panel(key).key for key in panels))
    low, high = ROTATION_RANGE
    if not low <= rotation_seconds <= high:
        raise StoreUserError(Message(
            "Each slide stays between %(low)s and %(high)s seconds.", low=low, high=high
        ), field="rotation_seconds")
    text = announcement.strip()
    if len(text) > MAX_ANNOUNCEMENT:
        raise StoreUserError(PluralMessage(
            "An announcement has at most %(count)s character.",
            "An announcement has at most %(count)s characters.",
            MAX_ANNOUNCEMENT,
        ), field="announcement")
    if clock_minutes is not None and not 1 <= clock_minutes <= MAX_CLOCK_MINUTES:
        raise StoreUserError(PluralMessage(
            "The round clock counts down between 1 and %(count)s minute.",
            "The round clock counts down between 1 and %(count)s minutes.",
            MAX_CLOCK_MINUTES,
        ), field="clock_minutes")
    row = session.exec(select(VenueScreen).where(VenueScreen.event_id == event_id)).first()
    before = snapshot(row, exclude=("id", "updated_at"))
    if row is None:
        row = VenueScreen(event_id=event_id)
        session.add(row)
    row.panels = list(chosen)
    row.rotation_seconds = rotation_seconds
    row.announcement = text
    row.clock_until = None if clock_minutes is None else utcnow() + timedelta(minutes=clock_minutes)
    row.updated_at = utcnow()
    session.flush()
    record(
        session,
        actor=actor,
        action="event.screen",
        entity_type="event",
        entity_id=event_id,
        event_id=event_id,
        before=before,
        after=snapshot(row, exclude=("id", "updated_at")),
    )
    return _settings(session, event)


# --- what the screen shows -------------------------------------------------------------


@dataclass(frozen=True)
class PairingLine:
    """One pairing of the screen: table, players, score."""

    table: str
    a: str
    b: str
    score: str
    status: str
    """The match's status (``ready``, ``playing``, ``finished`` ...)."""
    winner: str | None
    score_a: str = ""
    """Side a's points once play began (empty before)."""
    score_b: str = ""


@dataclass(frozen=True)
class BracketColumn:
    """A round of a bracket slide."""

    name: str
    length: int
    matches: tuple[PairingLine, ...]


@dataclass(frozen=True)
class StandingLine:
    """One row of a standings slide."""

    rank: str
    name: str
    wins: int
    losses: int | None


@dataclass(frozen=True)
class RoundClock:
    """A countdown of the clock slide."""

    label: str
    until: datetime


@dataclass(frozen=True)
class Slide:
    """One slide of the rotation."""

    panel: str
    title: str
    pairings: tuple[PairingLine, ...] = ()
    bracket: tuple[BracketColumn, ...] = ()
    standings: tuple[StandingLine, ...] = ()
    clocks: tuple[RoundClock, ...] = ()
    text: str = ""
    part: str = ""
    """``1/2`` where a panel needs several slides."""


@dataclass(frozen=True)
class ScreenView:
    """The venue screen: the slides in order, and how long each stays."""

    event_name: str
    rotation_seconds: int
    slides: tuple[Slide, ...]
    announcement: str


def screen_view(session: Session, event_id: int, *, now: datetime | None = None) -> ScreenView:
    """The screen of an event (published rounds only, as the public pages show).

    Raises:
        NotFoundError: no such event.
    """
    event = session.get(Event, event_id)
    if event is None:
        raise NotFoundError(Message("No such event."))
    settings = _settings(session, event)
    boards = [b for b in tv.event_boards(session, event_id) if b.rounds and not b.flight.boards]
    times = event_times(session, event_id, now=now)
    slides: list[Slide] = []
    for key in settings.panels:
        if key == "pairings":
            slides += _pairing_slides(boards)
        elif key == "bracket":
            slides += _bracket_slides(boards)
        elif key == "standings":
            slides += _standings_slides(boards)
        elif key == "clock":
            slides.append(_clock_slide(boards, times, settings))
        elif key == "announcement" and settings.announcement:
            slides.append(
                Slide("announcement", N_("Announcement"), text=settings.announcement)
            )
    return ScreenView(event.name, settings.rotation_seconds, tuple(slides), settings.announcement)


def _current(board: tv.FlightBoard) -> tv.RoundView | None:
    for rnd in board.rounds:
        if rnd.status != RoundStatus.FINISHED.value:
            return rnd
    return board.rounds[-1] if board.rounds else None


def _line(m: tv.MatchSummary, *, short: bool = False) -> PairingLine:
    """A match as a slide shows it; ``short``: an open side in a bracket names only the
    match it waits for (the column to its left shows whose)."""
    a_open, b_open = m.a_placeholder or "?", m.b_placeholder or "?"
    if short:
        a_open, b_open = _waited_match(a_open), _waited_match(b_open)
    a = m.a.name if m.a else a_open
    b = m.b.name if m.b else (N_("bye") if m.is_bye else b_open)
    shown = bool(m.score_text)
    return PairingLine(
        m.table,
        a,
        b,
        m.score_text,
        m.status,
        m.winner,
        str(m.score_a) if shown else "",
        str(m.score_b) if shown else "",
    )


def _waited_match(placeholder: str) -> str:
    """The match a side waits for the winner of (``Quarterfinal match 3``), or the
    placeholder as it is where it waits for something else (a loser)."""
    if isinstance(placeholder, Message) and placeholder.msgid == WINNER_OF:
        match = placeholder.params["match"]
        if isinstance(match, str):
            return match
    return placeholder


def _pairing_slides(boards: list[tv.FlightBoard]) -> list[Slide]:
    slides = []
    for board in boards:
        rnd = _current(board)
        if rnd is None:
            continue
        lines = [_line(m) for m in rnd.matches if not m.is_void]
        most = MAX_PAIRING_SLIDES * PAIRINGS_PER_SLIDE
        if len(lines) > most:
            lines = [line for line in lines if line.status in ("ready", "playing")][:most]
        parts = [
            lines[i : i + PAIRINGS_PER_SLIDE] for i in range(0, len(lines), PAIRINGS_PER_SLIDE)
        ]
        for n, part in enumerate(parts, start=1):
            slides.append(
                Slide(
                    "pairings",
                    Message("%(flight)s · %(round)s", flight=board.flight.name, round=rnd.name),
                    pairings=tuple(part),
                    part=f"{n}/{len(parts)}" if len(parts) > 1 else "",
                )
            )
    return slides


def _bracket_slides(boards: list[tv.FlightBoard]) -> list[Slide]:
    slides = []
    for board in boards:
        if not board.is_knockout:
            continue
        rnd = _current(board)
        if rnd is None:
            continue
        start = board.rounds.index(rnd)
        # A big field shows its last rounds only, once they are small enough to read.
        while (
            start + 1 < len(board.rounds)
            and len(board.rounds[start].matches) > BRACKET_FIRST_ROUND_MATCHES
        ):
            start += 1
        columns = tuple(
            BracketColumn(
                r.name,
                r.match_length,
                tuple(_line(m, short=True) for m in r.matches if not m.is_void),
            )
            for r in board.rounds[start : start + BRACKET_ROUNDS]
        )
        slides.append(Slide("bracket", board.flight.name, bracket=columns))
    return slides


def _standings_slides(boards: list[tv.FlightBoard]) -> list[Slide]:
    slides = []
    for board in boards:
        if board.is_knockout or not board.standings:
            continue
        rows = tuple(
            StandingLine(r.display_rank, r.player.name, r.wins, r.losses)
            for r in board.standings[:STANDINGS_PER_SLIDE]
        )
        slides.append(
            Slide(
                "standings",
                Message("%(flight)s · Standings", flight=board.flight.name),
                standings=rows,
            )
        )
    return slides


def _clock_slide(
    boards: list[tv.FlightBoard], times: EventTimes, settings: ScreenSettings
) -> Slide:
    if settings.clock_until is not None:
        return Slide(
            "clock",
            N_("Round clock"),
            clocks=(RoundClock(N_("Time left"), settings.clock_until),),
        )
    clocks = []
    for board in boards:
        plan = times.current_round(board.flight.id)
        if plan is not None:
            clocks.append(
                RoundClock(
                    Message("%(flight)s · %(round)s", flight=board.flight.name, round=plan.name),
                    plan.end,
                )
            )
    return Slide("clock", N_("Round clock"), clocks=tuple(clocks))
