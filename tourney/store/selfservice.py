"""Players serving themselves: their private link, check-in, result reports and the
director's queue of disputes and overdue matches.

Terminology: see ``tourney.store.selfservice_tables``.

Links: a player's link token is signed with the app's secret key (itsdangerous) and
carries ``[event id, entry id, generation]``. Nothing secret is stored, so the link can be
printed again in every mail; revoking it moves the stored generation, so every token
signed before stops working at once (404), and a token of one event never opens
another's pages (the event in the token must be the event in the address). Changing the
secret key ends every link (and every login).

Acting: a player acts through an ``Actor`` with ``event_scope`` set to the link's event,
labelled "player NAME (own link)" in the audit trail. A confirmed report becomes the
result through ``tourney.store.results`` like a director's entry, so every match rule
applies and a refusal names the rule. The report remembers the match's version when it
was made; a director's entry in between makes the confirmation a conflict, never a
second result: the match row is locked (SELECT ... FOR UPDATE, on SQLite the write lock)
for the transaction and the version compared, as for two directors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from tourney.i18n import DEFAULT_LANGUAGE, LANGUAGE_CODES, translate
from tourney.match import MatchEntryError, add_game, check_final_score, format_score
from tourney.rules import Side
from tourney.rules.messages import Message, PluralMessage
from tourney.store import outbox, progress, results
from tourney.store.audit import Actor, record
from tourney.store.errors import ConflictError, NotFoundError, StoreUserError
from tourney.store.message_lists import SemicolonList
from tourney.store.permissions import require_event
from tourney.store.selfservice_tables import (
    MatchMail,
    PlayerLink,
    Registration,
    ReportStatus,
    ResultReport,
)
from tourney.store.tables import (
    Entry,
    EntryStatus,
    Event,
    Flight,
    FlightEntry,
    Match,
    Player,
    Round,
    RoundStatus,
)
from tourney.store.teams import entry_display_names
from tourney.store.tournament_views import RecordFinding, round_display_name
from tourney.store.types import utcnow

LINK_SALT = "tourney.player-link"
REGISTRATION_SALT = "tourney.registration"
CONFIRM_PATH = "events/{slug}/register/confirm/{token}"
"""Where a registration's e-mail confirmation link points (the web's route)."""
LINK_PATH = "p/{slug}/{token}"
"""Where a player's link points under the app's public address (the web's route)."""
REMINDER_BEFORE = timedelta(hours=24)
"""Reminder mails go out this long before a round's deadline."""
MAX_REPORTED_GAMES = 64


@dataclass(frozen=True)
class LinkMaker:
    """Signs players' links and spells their addresses: the app's secret key and public
    address (ending in ``/``)."""

    secret: str
    root: str

    def token(self, event_id: int, entry_id: int, generation: int) -> str:
        """The link token of an entry's link generation."""
        return str(
            URLSafeSerializer(self.secret, salt=LINK_SALT).dumps([event_id, entry_id, generation])
        )

    def url(self, slug: str, token: str) -> str:
        """The full address of a player's link."""
        return self.root + LINK_PATH.format(slug=slug, token=token)

    def registration_token(self, registration_id: int) -> str:
        """The token of a registration's e-mail confirmation link."""
        return str(
            URLSafeSerializer(self.secret, salt=REGISTRATION_SALT).dumps([registration_id])
        )

    def read_registration(self, token: str) -> int | None:
        """The registration id of a well-signed confirmation token, else none."""
        if len(token) > 200:
            return None
        try:
            data = URLSafeSerializer(self.secret, salt=REGISTRATION_SALT).loads(token)
        except BadSignature:
            return None
        if not isinstance(data, list) or len(data) != 1 or not isinstance(data[0], int):
            return None
        return data[0]

    def read(self, token: str) -> tuple[int, int, int] | None:
        """``(event id, entry id, generation)`` of a well-signed token, else none."""
        if len(token) > 200:
            return None
        try:
            data = URLSafeSerializer(self.secret, salt=LINK_SALT).loads(token)
        except BadSignature:
            return None
        if (
            not isinstance(data, list)
            or len(data) != 3
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in data)
        ):
            return None
        return data[0], data[1], data[2]


@dataclass(frozen=True)
class PlayerGrant:
    """What an open link lets its holder do: act as one entry of one event."""

    event_id: int
    slug: str
    event_name: str
    entry_id: int
    name: str
    email: str
    token: str
    actor: Actor


@dataclass(frozen=True)
class ReportView:
    """A report as the players and the director see it."""

    id: int
    match_id: int
    status: str
    reporter: str
    reported: str
    """The reported result in words, in the match's order: ``Ann 5, Bob 3 (4 games)``."""
    counter: str | None
    """The disputing player's version in words."""
    reported_games: tuple[str, ...]
    counter_games: tuple[str, ...]
    outcome: str
    by_me: bool
    """The viewing player made it (so waits for the opponent)."""
    has_record: bool


@dataclass(frozen=True)
class PlayerMatch:
    """One match of the player's, from their side."""

    match_id: int
    round_name: str
    opponent: str
    table: str
    length: int
    my_score: int
    their_score: int
    status: str
    won: bool | None
    deadline: datetime | None
    report: ReportView | None
    can_report: bool


@dataclass(frozen=True)
class PlayerHome:
    """The page behind a player's link."""

    grant: PlayerGrant
    checked_in: bool
    withdrawn: bool
    next_match: PlayerMatch | None
    matches: tuple[PlayerMatch, ...]
    """Every published match of theirs, newest round first."""
    to_confirm: tuple[PlayerMatch, ...]
    """Matches whose result the opponent reported and this player is to confirm."""


@dataclass(frozen=True)
class ReportOutcome:
    """What a confirmation or decision did."""

    applied: bool
    message: str


@dataclass(frozen=True)
class QueueItem:
    """One line of the director's queue: a disputed report or an overdue match."""

    match_id: int
    round_name: str
    a: str
    b: str
    deadline: datetime | None
    report: ReportView | None
    version: int
    """The match's version, for the walkover button (the match page's optimistic check)."""


# --- links ---------------------------------------------------------------------------


def _generation(session: Session, entry_id: int) -> int:
    found = session.exec(select(PlayerLink.generation).where(PlayerLink.entry_id == entry_id))
    return found.first() or 1


def link_for_entry(session: Session, links: LinkMaker, entry_id: int) -> str:
    """The current link address of an entry."""
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise NotFoundError(Message("No such entry."))
    event = session.get(Event, entry.event_id)
    assert event is not None
    token = links.token(entry.event_id, entry_id, _generation(session, entry_id))
    return links.url(event.slug, token)


def open_link(session: Session, links: LinkMaker, *, slug: str, token: str) -> PlayerGrant:
    """The grant of a player's link opened at ``/p/<slug>/<token>``.

    Raises:
        NotFoundError: a token that is malformed, forged, revoked, of another event or of
            an entry no longer in it (all look alike: the link does not exist).
    """
    found = links.read(token)
    missing = NotFoundError(
        Message("This link does not open anything. Ask the director for yours.")
    )
    if found is None:
        raise missing
    event_id, entry_id, generation = found
    event = session.get(Event, event_id)
    entry = session.get(Entry, entry_id)
    if event is None or event.slug != slug or entry is None or entry.event_id != event_id:
        raise missing
    if generation != _generation(session, entry_id):
        raise missing
    player = session.get(Player, entry.player_id)
    assert player is not None
    name = entry_display_names(session, [entry_id]).get(entry_id, player.name)
    actor = Actor(
        user_id=None,
        label=f"player {name} (own link)"[:254],
        role="scorer",
        event_scope=event_id,
    )
    return PlayerGrant(event_id, slug, event.name, entry_id, name, player.email or "", token, actor)


def revoke_link(session: Session, *, actor: Actor, entry_id: int) -> None:
    """End an entry's link at once (a director's decision; the new one goes in later mails).

    Raises:
        NotFoundError, AccessDeniedError: no such entry, or not a director of its event.
    """
    entry = session.get(Entry, entry_id)
    if entry is None:
        raise NotFoundError(Message("No such entry."))
    require_event(session, actor, entry.event_id, manage=True)
    row = session.exec(select(PlayerLink).where(PlayerLink.entry_id == entry_id)).first()
    if row is None:
        row = PlayerLink(event_id=entry.event_id, entry_id=entry_id, generation=1)
        session.add(row)
    row.generation += 1
    row.revoked_at = utcnow()
    session.flush()
    record(
        session, actor=actor, action="entry.link_revoke", entity_type="entry",
        entity_id=entry_id, event_id=entry.event_id, after={"generation": row.generation},
    )


# --- check-in --------------------------------------------------------------------------


def check_in(session: Session, *, grant: PlayerGrant) -> bool:
    """Check the player in (from their phone); true when this did it, false when they
    were checked in already (a second tap changes nothing).

    Raises:
        StoreUserError: the player has withdrawn.
    """
    entry = session.get(Entry, grant.entry_id)
    assert entry is not None
    if entry.status == EntryStatus.WITHDRAWN.value:
        raise StoreUserError(Message("You have withdrawn from this event; ask the director."))
    if entry.checked_in_at is not None:
        return False
    entry.checked_in_at = utcnow()
    session.flush()
    record(
        session, actor=grant.actor, action="entry.check_in", entity_type="entry",
        entity_id=entry.id, event_id=grant.event_id, after={"checked_in": True},
    )
    return True


# --- reading ---------------------------------------------------------------------------


def _my_flight_entries(session: Session, entry_id: int) -> list[int]:
    return [
        i or 0 for i in session.exec(select(FlightEntry.id).where(FlightEntry.entry_id == entry_id))
    ]


def _fe_names(session: Session, fe_ids: Sequence[int | None]) -> dict[int, str]:
    wanted = [i for i in fe_ids if i is not None]
    if not wanted:
        return {}
    pairs = session.exec(
        select(FlightEntry.id, FlightEntry.entry_id).where(col(FlightEntry.id).in_(wanted))
    ).all()
    names = entry_display_names(session, [e for _, e in pairs])
    return {fe or 0: names.get(e, "?") for fe, e in pairs}


def _finding_text(finding: RecordFinding) -> str:
    """A record finding with where the file has it, as one sentence."""
    if finding.game and finding.line:
        return Message(
            "game %(game)s: line %(line)s: %(message)s",
            game=finding.game, line=finding.line, message=finding.message,
        )
    if finding.game:
        return Message("game %(game)s: %(message)s", game=finding.game, message=finding.message)
    if finding.line:
        return Message("line %(line)s: %(message)s", line=finding.line, message=finding.message)
    return finding.message


def _stored_outcome(text: str) -> str:
    """A report's stored outcome as the message it was written from, when it is one of
    the fixed sentences (a page or a mail can then translate it); other text as stored."""
    for sentence in (*DECISION_SENTENCES.values(), Message("Confirmed by the opponent.")):
        if text == sentence:
            return sentence
    return text


def _content_words(content: dict[str, Any], names: tuple[str, str]) -> tuple[str, tuple[str, ...]]:
    """A report's score and games in words (messages: a mail translates them)."""
    score = content.get("score") or [0, 0]
    games = content.get("games") or []
    text: str = f"{names[0]} {score[0]}, {names[1]} {score[1]}"
    if content.get("kind") == "record":
        text = PluralMessage(
            "%(score)s (%(count)s game, from %(file)s)",
            "%(score)s (%(count)s games, from %(file)s)",
            len(games), score=text, file=content.get("filename", "a record"),
        )
    elif games:
        text = PluralMessage(
            "%(score)s (%(count)s game)", "%(score)s (%(count)s games)", len(games), score=text
        )
    lines: list[str] = []
    for number, game in enumerate(games, start=1):
        if game.get("end") == "drawn":
            lines.append(Message("Game %(number)s: drawn", number=number))
            continue
        who = names[0] if game.get("winner") == "a" else names[1]
        level = str(game.get("level", "single"))
        how = Message("dropped double") if game.get("end") == "dropped" else Message(level)
        lines.append(Message(
            "Game %(number)s: %(winner)s, %(how)s, cube %(cube)s",
            number=number, winner=who, how=how, cube=game.get("cube", 1),
        ))
    return text, tuple(lines)


def _report_view(
    session: Session, report: ResultReport, match: Match, viewer_entry: int | None
) -> ReportView:
    names = _fe_names(session, [match.entry_a_id, match.entry_b_id])
    pair = (names.get(match.entry_a_id or 0, "?"), names.get(match.entry_b_id or 0, "?"))
    reported, reported_games = _content_words(report.content, pair)
    counter: str | None = None
    counter_games: tuple[str, ...] = ()
    if report.counter:
        counter, counter_games = _content_words(report.counter, pair)
    reporter = entry_display_names(session, [report.reporter_entry_id]).get(
        report.reporter_entry_id, "?"
    )
    return ReportView(
        report.id or 0, match.id or 0, report.status, reporter, reported, counter,
        reported_games, counter_games, _stored_outcome(report.outcome),
        viewer_entry == report.reporter_entry_id, report.record_text is not None,
    )


def player_home(session: Session, *, grant: PlayerGrant) -> PlayerHome:
    """Everything behind a player's link: check-in, next match, results, reports."""
    entry = session.get(Entry, grant.entry_id)
    assert entry is not None
    mine = _my_flight_entries(session, grant.entry_id)
    rows = session.exec(
        select(Match, Round)
        .join(Round, col(Round.id) == Match.round_id)
        .where(
            (col(Match.entry_a_id).in_(mine)) | (col(Match.entry_b_id).in_(mine)),
            Round.status != RoundStatus.DRAFT.value,
            col(Match.entry_a_id).is_not(None),
            col(Match.entry_b_id).is_not(None),
        )
        .order_by(col(Round.number).desc(), col(Match.position))
    ).all() if mine else []
    names = _fe_names(session, [fe for m, _ in rows for fe in (m.entry_a_id, m.entry_b_id)])
    reports = {
        r.match_id: r
        for r in session.exec(
            select(ResultReport).where(col(ResultReport.match_id).in_([m.id for m, _ in rows]))
        )
    } if rows else {}
    matches = []
    for match, rnd in rows:
        me_a = match.entry_a_id in mine
        opponent = names.get((match.entry_b_id if me_a else match.entry_a_id) or 0, "?")
        scores = (match.score_a, match.score_b) if me_a else (match.score_b, match.score_a)
        done = match.status in progress.DONE
        won = None if not done else match.winner_entry_id in mine
        report = reports.get(match.id or 0)
        view = None if report is None else _report_view(session, report, match, grant.entry_id)
        can_report = not done and (report is None or report.status == ReportStatus.PENDING.value)
        matches.append(PlayerMatch(
            match.id or 0, round_display_name(rnd.name, rnd.number), opponent,
            match.table_label,
            match.match_length, scores[0], scores[1], match.status, won, rnd.deadline_at,
            view, can_report,
        ))
    open_matches = [m for m in matches if m.status in progress.OPEN]
    to_confirm = tuple(
        m for m in open_matches
        if m.report is not None and m.report.status == ReportStatus.PENDING.value
        and not m.report.by_me
    )
    return PlayerHome(
        grant, entry.checked_in_at is not None, entry.status == EntryStatus.WITHDRAWN.value,
        open_matches[-1] if open_matches else None, tuple(matches), to_confirm,
    )


# --- reporting -------------------------------------------------------------------------


def _lock_match(session: Session, match_id: int) -> Match:
    match = session.exec(
        select(Match)
        .where(Match.id == match_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).first()
    if match is None:
        raise NotFoundError(Message("No such match."))
    return match


def _players_match(session: Session, grant: PlayerGrant, match_id: int) -> tuple[Match, str]:
    """The match, locked, and the player's side in it (``a`` or ``b``).

    Raises:
        NotFoundError: no such match of this player's (another's looks the same).
    """
    match = _lock_match(session, match_id)
    mine = _my_flight_entries(session, grant.entry_id)
    if match.entry_a_id in mine:
        return match, "a"
    if match.entry_b_id in mine:
        return match, "b"
    raise NotFoundError(Message("No such match."))


def side_in_match(session: Session, grant: PlayerGrant, match_id: int) -> str:
    """The player's side (``a`` or ``b``) in one of their matches, locking it.

    Raises:
        NotFoundError: not a match of this player's.
    """
    return _players_match(session, grant, match_id)[1]


def _open_report(session: Session, match_id: int) -> ResultReport | None:
    return session.exec(select(ResultReport).where(ResultReport.match_id == match_id)).first()


def _check_open(session: Session, match: Match) -> Event:
    rnd = session.get(Round, match.round_id)
    flight = session.get(Flight, match.flight_id)
    assert rnd is not None and flight is not None
    if rnd.status == RoundStatus.DRAFT.value:
        raise NotFoundError(Message("No such match."))
    if match.status in progress.DONE:
        raise ConflictError(Message(
            "This match has its result already: %(score)s. Ask the director if it is wrong.",
            score=format_score((match.score_a, match.score_b)),
        ))
    event = session.get(Event, flight.event_id)
    assert event is not None
    return event


def _score_content(event: Event, match: Match, score: tuple[int, int]) -> dict[str, Any]:
    try:
        check_final_score(progress.match_rules(event, match.match_length), score)
    except MatchEntryError as error:
        raise StoreUserError(error.message, field="score") from None
    return {"kind": "score", "score": list(score), "games": []}


def _games_content(
    event: Event, match: Match, games: Sequence[results.GameFields]
) -> dict[str, Any]:
    if not games:
        raise StoreUserError(Message("Enter the games, one by one."), field="games")
    if len(games) > MAX_REPORTED_GAMES:
        raise StoreUserError(PluralMessage(
            "At most %(count)s game.", "At most %(count)s games.", MAX_REPORTED_GAMES
        ), field="games")
    state = progress.match_state(event, match, [])
    for number, game in enumerate(games, start=1):
        if state.is_over:
            raise StoreUserError(Message(
                "The match was over after game %(last)s; game %(number)s is one too many.",
                last=number - 1, number=number,
            ), field="games")
        try:
            state = add_game(state, game.to_entry())
        except MatchEntryError as error:
            raise StoreUserError(
                Message("Game %(number)s: %(reason)s", number=number, reason=error.message),
                field="games",
            ) from None
    if not state.is_over:
        raise StoreUserError(Message(
            "These games end at %(score)s: the match is not finished.",
            score=format_score(state.score),
        ), field="games")
    return {
        "kind": "games",
        "score": list(state.score),
        "games": [
            {"winner": g.winner, "end": g.end, "cube": g.cube, "level": g.level} for g in games
        ],
    }


def _record_content(
    session: Session, grant: PlayerGrant, match: Match, filename: str, data: bytes
) -> dict[str, Any]:
    # The director's upload path: the same validation, the same findings.
    checked = results.check_match_record(
        session, actor=grant.actor, match_id=match.id or 0, filename=filename, data=data
    )
    if checked.findings or checked.state is None:
        problems = SemicolonList(tuple(_finding_text(f) for f in checked.findings[:5]))
        raise StoreUserError(
            Message("The record was not accepted: %(problems)s", problems=problems),
            field="record",
        )
    games = []
    for scored in checked.state.games:
        entry = scored.entry
        games.append({
            "winner": None if entry.winner is None else ("a" if entry.winner is Side.X else "b"),
            "end": entry.end.value,
            "cube": entry.cube,
            "level": None if entry.level is None else entry.level.name.lower(),
        })
    return {
        "kind": "record", "filename": filename[:120], "score": list(checked.state.score),
        "games": games,
    }


def _check_games_match_record(typed: dict[str, Any], record: dict[str, Any]) -> None:
    """Games typed beside a match file must be the file's games.

    Raises:
        StoreUserError: the first game where they differ, or a different number of games.
    """
    for number, (mine, theirs) in enumerate(zip(typed["games"], record["games"], strict=False),
                                            start=1):
        level = None if mine["end"] == "dropped" else mine["level"]
        if (mine["winner"], mine["end"], mine["cube"], level) != (
            theirs["winner"], theirs["end"], theirs["cube"], theirs["level"]
        ):
            raise StoreUserError(Message(
                "Game %(number)s as you entered it differs from game %(number)s of the match "
                "file; correct it, or leave the games empty to take the file's.",
                number=number,
            ), field="games")
    if len(typed["games"]) != len(record["games"]):
        raise StoreUserError(PluralMessage(
            "You entered %(count)s game; the match file has %(file_games)s.",
            "You entered %(count)s games; the match file has %(file_games)s.",
            len(typed["games"]), file_games=len(record["games"]),
        ), field="games")


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.get("score") == b.get("score") and (
        not a.get("games") or not b.get("games") or a.get("games") == b.get("games")
    )


def report_result(
    session: Session,
    *,
    grant: PlayerGrant,
    match_id: int,
    score: tuple[int, int] | None = None,
    games: Sequence[results.GameFields] = (),
    record_file: tuple[str, bytes] | None = None,
    links: LinkMaker,
) -> ReportView:
    """Report a match's result from a player's link: a final score, games one by one, or
    a ``.mat`` record (given as ``(filename, bytes)``). Scores and game winners are in the
    match's terms (``a``, ``b``).

    The same report again changes nothing. A player's new report replaces their pending
    one. When the opponent reported already, the same result confirms theirs and a
    different one disputes it (it goes to the director's queue).

    Raises:
        NotFoundError: not a match of this player's.
        ConflictError: the match has its result already.
        StoreUserError: the rules make the result impossible (the reason names the rule),
            or the record is invalid (its findings), or the report is decided already.
    """
    match, side = _players_match(session, grant, match_id)
    event = _check_open(session, match)
    if record_file is not None:
        content = _record_content(session, grant, match, *record_file)
        if games:
            _check_games_match_record(_games_content(event, match, games), content)
    elif games:
        content = _games_content(event, match, games)
    elif score is not None:
        content = _score_content(event, match, score)
    else:
        raise StoreUserError(Message("Enter the final score, the games, or a match record."))
    report = _open_report(session, match_id)
    text = None if record_file is None else record_file[1].decode("utf-8", errors="replace")
    if report is not None and report.status != ReportStatus.PENDING.value:
        raise StoreUserError(
            Message("This match's report was disputed and waits for the director's decision.")
            if report.status == ReportStatus.DISPUTED.value
            else Message("This match's report is decided already.")
        )
    if report is not None and report.reporter_entry_id != grant.entry_id:
        if _same(report.content, content):
            return _confirm(session, grant, report, match, links)[0]
        return _dispute(session, grant, report, match, content, links)
    if report is not None and report.content == content and report.record_text == text:
        return _report_view(session, report, match, grant.entry_id)  # reported twice: no-op
    before = None if report is None else {"content": report.content}
    if report is None:
        report = ResultReport(
            event_id=grant.event_id, match_id=match_id, reporter_entry_id=grant.entry_id,
            content=content, match_version=match.version,
        )
        session.add(report)
    report.content, report.record_text = content, text
    report.match_version, report.updated_at = match.version, utcnow()
    session.flush()
    record(
        session, actor=grant.actor, action="match.report", entity_type="match",
        entity_id=match_id, event_id=grant.event_id, match_id=match_id, before=before,
        after={"report": content, "side": side},
    )
    _mail_opponent_to_confirm(session, grant, match, side, report, links)
    return _report_view(session, report, match, grant.entry_id)


def _player_of_side(session: Session, match: Match, side: str) -> tuple[Entry, Player] | None:
    fe_id = match.entry_a_id if side == "a" else match.entry_b_id
    fe = session.get(FlightEntry, fe_id) if fe_id else None
    entry = session.get(Entry, fe.entry_id) if fe else None
    player = session.get(Player, entry.player_id) if entry else None
    return None if entry is None or player is None else (entry, player)


def _mail_opponent_to_confirm(
    session: Session, grant: PlayerGrant, match: Match, side: str, report: ResultReport,
    links: LinkMaker,
) -> None:
    other = _player_of_side(session, match, "b" if side == "a" else "a")
    if other is None or not other[1].email:
        return
    language = mail_language(session, other[0].id or 0)
    names = _fe_names(session, [match.entry_a_id, match.entry_b_id])
    pair = (names.get(match.entry_a_id or 0, "?"), names.get(match.entry_b_id or 0, "?"))
    words, lines = _content_words(report.content, pair)
    body = "\n".join([
        translate(Message("Hello %(name)s,", name=other[1].name), language),
        "",
        translate(Message(
            "%(name)s reported the result of your match at %(event)s:",
            name=grant.name, event=grant.event_name,
        ), language),
        f"  {translate(words, language)}",
        *(f"  {translate(line, language)}" for line in lines),
        "",
        translate(Message(
            "Please confirm it, or dispute it if it is wrong, from your own link:"
        ), language),
        link_for_entry(session, links, other[0].id or 0),
    ])
    subject = Message(
        "%(event)s: confirm your result against %(name)s",
        event=grant.event_name, name=grant.name,
    )
    outbox.enqueue(
        session, event_id=grant.event_id, kind="report_to_confirm", recipient=other[1].email,
        subject=translate(subject, language), body=body,
    )


def _apply(
    session: Session, actor: Actor, match_id: int, content: dict[str, Any],
    record_text: str | None, expected_version: int | None,
) -> None:
    """Enter ``content`` as the match's result through the results use cases."""
    kind = content["kind"]
    if kind == "record" and record_text is not None:
        upload = results.upload_match_record(
            session, actor=actor, match_id=match_id, filename=content.get("filename", "report.mat"),
            data=record_text.encode("utf-8"), expected_version=expected_version,
        )
        if not upload.ok:
            raise StoreUserError(
                SemicolonList(tuple(_finding_text(f) for f in upload.findings[:5]))
            )
    elif content.get("games"):
        for number, game in enumerate(content["games"]):
            results.record_game(
                session, actor=actor, match_id=match_id,
                game=results.GameFields(
                    winner=game.get("winner") or "", end=game["end"], cube=game.get("cube", 1),
                    level=game.get("level"),
                ),
                expected_version=expected_version if number == 0 else None,
            )
    else:
        score = content["score"]
        results.record_final_score(
            session, actor=actor, match_id=match_id, score_a=score[0], score_b=score[1],
            expected_version=expected_version,
        )


def _apply_safely(
    session: Session, actor: Actor, match: Match, content: dict[str, Any],
    record_text: str | None, expected_version: int | None,
) -> tuple[str, bool] | None:
    """Apply in a savepoint: none when it went in, else why not and whether it was a
    conflict (the match got its result another way); nothing of it is kept."""
    try:
        with session.begin_nested():
            if expected_version is not None and match.status in progress.DONE:
                raise ConflictError(Message(
                    "A director entered this match's result first: %(score)s.",
                    score=format_score((match.score_a, match.score_b)),
                ))
            _apply(session, actor, match.id or 0, content, record_text, expected_version)
    except StoreUserError as error:
        return error.message, isinstance(error, ConflictError)
    return None


def _confirm(
    session: Session, grant: PlayerGrant, report: ResultReport, match: Match, links: LinkMaker
) -> tuple[ReportView, ReportOutcome]:
    problem = _apply_safely(
        session, grant.actor, match, report.content, report.record_text, report.match_version
    )
    report.responder_entry_id = grant.entry_id
    report.updated_at = utcnow()
    if problem is None:
        report.status = ReportStatus.CONFIRMED.value
        report.outcome = Message("Confirmed by the opponent.")
        outcome = ReportOutcome(True, Message("Confirmed: the result is in."))
    elif problem[1]:
        report.status = ReportStatus.SUPERSEDED.value
        report.outcome = problem[0][:500]
        outcome = ReportOutcome(False, problem[0])
    else:
        # The rules refused it now (the event's rules changed since): the director decides.
        report.status = ReportStatus.DISPUTED.value
        report.outcome = Message("Could not be entered: %(reason)s", reason=problem[0])[:500]
        outcome = ReportOutcome(False, problem[0])
    session.flush()
    record(
        session, actor=grant.actor, action="match.report_confirm", entity_type="match",
        entity_id=match.id, event_id=grant.event_id, match_id=match.id,
        after={"status": report.status, "outcome": report.outcome},
    )
    return _report_view(session, report, match, grant.entry_id), outcome


def _dispute(
    session: Session, grant: PlayerGrant, report: ResultReport, match: Match,
    counter: dict[str, Any] | None, links: LinkMaker,
) -> ReportView:
    report.status = ReportStatus.DISPUTED.value
    report.counter = counter
    report.responder_entry_id = grant.entry_id
    report.updated_at = utcnow()
    session.flush()
    record(
        session, actor=grant.actor, action="match.report_dispute", entity_type="match",
        entity_id=match.id, event_id=grant.event_id, match_id=match.id,
        after={"reported": report.content, "counter": counter},
    )
    return _report_view(session, report, match, grant.entry_id)


def _pending_for_opponent(
    session: Session, grant: PlayerGrant, report_id: int
) -> tuple[ResultReport, Match] | None:
    report = session.get(ResultReport, report_id)
    if report is None or report.event_id != grant.event_id:
        raise NotFoundError(Message("No such report."))
    match, _ = _players_match(session, grant, report.match_id)
    session.refresh(report)
    if report.reporter_entry_id == grant.entry_id:
        raise StoreUserError(Message("Your opponent confirms your report, not you."))
    if report.status != ReportStatus.PENDING.value:
        return None
    return report, match


def confirm_report(
    session: Session, *, grant: PlayerGrant, report_id: int, links: LinkMaker
) -> ReportOutcome:
    """The opponent confirms a report: it becomes the match's result (all match rules
    apply). Confirming again changes nothing.

    Raises:
        NotFoundError: no such report of a match of this player's.
        StoreUserError: the player made the report themselves.
    """
    found = _pending_for_opponent(session, grant, report_id)
    if found is None:
        report = session.get(ResultReport, report_id)
        assert report is not None
        if report.status == ReportStatus.CONFIRMED.value:
            return ReportOutcome(True, Message("Confirmed already: the result is in."))
        return ReportOutcome(
            False, _stored_outcome(report.outcome) or Message("This report is decided already.")
        )
    return _confirm(session, grant, *found, links)[1]


def dispute_report(
    session: Session,
    *,
    grant: PlayerGrant,
    report_id: int,
    score: tuple[int, int] | None,
    links: LinkMaker,
) -> ReportView:
    """The opponent disputes a report, optionally with their own final score (checked by
    the match rules); it goes to the director's queue with both versions.

    Raises:
        NotFoundError, StoreUserError: as ``confirm_report``; an impossible score.
    """
    found = _pending_for_opponent(session, grant, report_id)
    if found is None:
        raise StoreUserError(Message("This report is decided already."))
    report, match = found
    event = _check_open(session, match)
    counter = None if score is None else _score_content(event, match, score)
    return _dispute(session, grant, report, match, counter, links)


# --- the director's side ---------------------------------------------------------------


def director_queue(session: Session, actor: Actor, event_id: int) -> list[QueueItem]:
    """Disputed reports, reports refused on confirmation, and matches past their round's
    deadline with no result, in round order.

    Raises:
        NotFoundError, AccessDeniedError: no such event, or not on its staff.
    """
    require_event(session, actor, event_id, manage=False)
    now = utcnow()
    flights = select(Flight.id).where(Flight.event_id == event_id)
    disputed = {
        r.match_id: r
        for r in session.exec(
            select(ResultReport).where(
                ResultReport.event_id == event_id,
                ResultReport.status == ReportStatus.DISPUTED.value,
            )
        )
    }
    rows = session.exec(
        select(Match, Round)
        .join(Round, col(Round.id) == Match.round_id)
        .where(
            col(Match.flight_id).in_(flights),
            (col(Match.id).in_(list(disputed)))
            | (
                col(Match.status).in_(progress.OPEN)
                & col(Round.deadline_at).is_not(None)
                & (col(Round.deadline_at) <= now)
                & col(Match.entry_a_id).is_not(None)
                & col(Match.entry_b_id).is_not(None)
            ),
        )
        .order_by(col(Round.number), col(Match.position))
    ).all()
    names = _fe_names(session, [fe for m, _ in rows for fe in (m.entry_a_id, m.entry_b_id)])
    items = []
    for match, rnd in rows:
        report = disputed.get(match.id or 0)
        items.append(QueueItem(
            match.id or 0, round_display_name(rnd.name, rnd.number),
            names.get(match.entry_a_id or 0, "?"), names.get(match.entry_b_id or 0, "?"),
            rnd.deadline_at, None if report is None else _report_view(session, report, match, None),
            match.version,
        ))
    return items


DECISIONS = ("report", "counter", "entered")
"""A director's decision on a dispute: the reporter's version, the disputer's, or the
result the director entered on the match page (nothing more to enter)."""

DECISION_SENTENCES: dict[str, Message] = {
    "report": Message("The director confirmed the reported result."),
    "counter": Message("The director confirmed the opponent's result."),
    "entered": Message("The director entered the result."),
}
"""The sentence each decision is told with: kept on the report, flashed to the director
and written into both players' mails in their own languages."""


def decide_dispute(
    session: Session, *, actor: Actor, report_id: int, decision: str, links: LinkMaker
) -> ReportOutcome:
    """The director decides a disputed report; both players are told by mail.

    Raises:
        NotFoundError, AccessDeniedError: no such report, or not on its event's staff.
        StoreUserError: an unknown decision, a version that was not given, or the rules
            refuse it (the reason names the rule).
    """
    report = session.get(ResultReport, report_id)
    if report is None:
        raise NotFoundError(Message("No such report."))
    require_event(session, actor, report.event_id, manage=False)
    if decision not in DECISIONS:
        raise StoreUserError(Message("Choose which version stands."), field="decision")
    match = _lock_match(session, report.match_id)
    session.refresh(report)
    if report.status != ReportStatus.DISPUTED.value:
        raise ConflictError(Message("This report is decided already."))
    chosen = report.content if decision == "report" else report.counter
    if decision == "counter" and chosen is None:
        raise StoreUserError(
            Message("The opponent gave no result of their own."), field="decision"
        )
    if chosen is not None and decision != "entered":
        # A refusal (the rules, or a result entered meanwhile) undoes the whole decision.
        text = report.record_text if decision == "report" else None
        _apply(session, actor, match.id or 0, chosen, text, None)
    report.status = ReportStatus.RESOLVED.value
    decided = DECISION_SENTENCES[decision]
    report.outcome = decided
    report.updated_at = utcnow()
    session.flush()
    record(
        session, actor=actor, action="match.report_decide", entity_type="match",
        entity_id=match.id, event_id=report.event_id, match_id=match.id,
        after={"decision": decision},
    )
    _mail_decision(session, report, match, decided, links)
    return ReportOutcome(True, decided)


def _mail_decision(
    session: Session, report: ResultReport, match: Match, decided: Message, links: LinkMaker
) -> None:
    """Tell both players the director's decision, each in their own mail language."""
    event = session.get(Event, report.event_id)
    assert event is not None
    names = _fe_names(session, [match.entry_a_id, match.entry_b_id])
    pair = (names.get(match.entry_a_id or 0, "?"), names.get(match.entry_b_id or 0, "?"))
    result = f"{pair[0]} {match.score_a}, {pair[1]} {match.score_b}"
    for side in ("a", "b"):
        found = _player_of_side(session, match, side)
        if found is None or not found[1].email:
            continue
        language = mail_language(session, found[0].id or 0)
        body = "\n".join([
            translate(Message("Hello %(name)s,", name=found[1].name), language),
            "",
            translate(Message(
                "The director decided the disputed result of %(a)s v %(b)s at %(event)s.",
                a=pair[0], b=pair[1], event=event.name,
            ), language),
            translate(decided, language),
            translate(Message("The result stands at: %(result)s.", result=result), language),
            "",
            translate(Message("Your page:"), language),
            link_for_entry(session, links, found[0].id or 0),
        ])
        subject = Message(
            "%(event)s: dispute decided (%(a)s v %(b)s)", event=event.name, a=pair[0], b=pair[1]
        )
        outbox.enqueue(
            session, event_id=event.id, kind="dispute_decided", recipient=found[1].email,
            subject=translate(subject, language), body=body,
        )


# --- rounds: publication mails, deadlines --------------------------------------------


def set_round_deadline(
    session: Session, *, actor: Actor, round_id: int, deadline: datetime | None
) -> None:
    """Give a round a deadline (or none); reminders go out again for a new one.

    Raises:
        NotFoundError, AccessDeniedError: no such round, or not a director of its event.
    """
    rnd = session.get(Round, round_id)
    flight = session.get(Flight, rnd.flight_id) if rnd else None
    if rnd is None or flight is None:
        raise NotFoundError(Message("No such round."))
    require_event(session, actor, flight.event_id, manage=True)
    before = {"deadline_at": None if rnd.deadline_at is None else rnd.deadline_at.isoformat()}
    rnd.deadline_at = deadline
    rnd.deadline_reminded_at = None
    session.flush()
    record(
        session, actor=actor, action="round.deadline", entity_type="round", entity_id=round_id,
        event_id=flight.event_id, before=before,
        after={"deadline_at": None if deadline is None else deadline.isoformat()},
    )


def mail_language(session: Session, entry_id: int) -> str:
    """The language a player's mails are written in: the one their registration form was
    served in; English for an entry a director added (events have no language of their
    own)."""
    language = session.exec(
        select(Registration.language).where(Registration.entry_id == entry_id)
    ).first()
    return language if language in LANGUAGE_CODES else DEFAULT_LANGUAGE


def _round_name(rnd: Round) -> Message:
    # A stored round name is a registry name ("Final", "Semifinal") the catalogue knows,
    # or the director's own words, which stay as they are.
    return Message(rnd.name) if rnd.name else Message("Round %(number)s", number=rnd.number)


def _pairing_mail(
    session: Session, match: Match, side: str, context: tuple[Event, Flight, Round],
    names: dict[int, str], links: LinkMaker, kind: str,
) -> bool:
    """Queue the mail telling the player of ``side`` their match (its pairing, a reminder
    or, for ``next_match``, a knockout match that just got both players); false when the
    player has no address."""
    event, flight, rnd = context
    found = _player_of_side(session, match, side)
    if found is None or not found[1].email:
        return False
    language = mail_language(session, found[0].id or 0)

    def say(message: Message) -> str:
        return translate(message, language)

    opponent = names.get((match.entry_b_id if side == "a" else match.entry_a_id) or 0, "?")
    round_name = _round_name(rnd)
    lines = [say(Message("Hello %(name)s,", name=found[1].name)), ""]
    if kind == "next_match":
        lines += [say(Message("Your next match is ready.")), ""]
    lines += [
        say(Message(
            "%(event)s, %(flight)s, %(round)s:",
            event=event.name, flight=flight.name, round=round_name,
        )),
        "  " + say(Message("your opponent: %(name)s", name=opponent)),
        "  " + say(PluralMessage(
            "match to %(count)s point", "match to %(count)s points", match.match_length
        )),
    ]
    if match.table_label:
        lines.append("  " + say(Message("table: %(table)s", table=match.table_label)))
    deadline = None if rnd.deadline_at is None else f"{rnd.deadline_at:%Y-%m-%d %H:%M}"
    if deadline is not None:
        lines.append("  " + say(Message("deadline: %(deadline)s UTC", deadline=deadline)))
    lines += ["", say(Message("Your page (check in, report the result):")),
              link_for_entry(session, links, found[0].id or 0)]
    subject = (
        Message(
            "%(event)s: reminder, %(round)s ends %(deadline)s UTC",
            event=event.name, round=round_name, deadline=deadline,
        )
        if kind == "deadline_reminder"
        else Message(
            "%(event)s: %(round)s against %(opponent)s",
            event=event.name, round=round_name, opponent=opponent,
        )
    )
    outbox.enqueue(
        session, event_id=event.id, kind=kind, recipient=found[1].email,
        subject=say(subject), body="\n".join(lines),
    )
    return True


def _round_mails(
    session: Session, rnd: Round, links: LinkMaker, *, kind: str, only_open: bool
) -> int:
    flight = session.get(Flight, rnd.flight_id)
    assert flight is not None
    event = session.get(Event, flight.event_id)
    assert event is not None
    matches = session.exec(
        select(Match).where(
            Match.round_id == rnd.id,
            col(Match.entry_a_id).is_not(None),
            col(Match.entry_b_id).is_not(None),
        ).order_by(col(Match.position))
    ).all()
    names = _fe_names(session, [fe for m in matches for fe in (m.entry_a_id, m.entry_b_id)])
    queued = 0
    for match in matches:
        if only_open and match.status not in progress.OPEN:
            continue
        if kind == "round_published":
            _mark_told(session, match, _told(session, [match.id or 0]))
        for side in ("a", "b"):
            queued += _pairing_mail(session, match, side, (event, flight, rnd), names, links, kind)
    return queued


def _told(session: Session, match_ids: Sequence[int]) -> set[tuple[int, int]]:
    """Which (match, flight entry) pairs have been told of their match already."""
    if not match_ids:
        return set()
    return {
        (m, fe) for m, fe in session.exec(
            select(MatchMail.match_id, MatchMail.flight_entry_id).where(
                col(MatchMail.match_id).in_(match_ids)
            )
        )
    }


def _mark_told(session: Session, match: Match, told: set[tuple[int, int]]) -> list[str]:
    """Record both players of ``match`` as told of it; returns the sides not told before."""
    new = []
    for side, fe_id in (("a", match.entry_a_id), ("b", match.entry_b_id)):
        if fe_id is not None and (match.id or 0, fe_id) not in told:
            session.add(MatchMail(match_id=match.id or 0, flight_entry_id=fe_id))
            new.append(side)
    session.flush()
    return new


def mail_published_rounds(
    session: Session, *, flight_id: int, since: datetime, links: LinkMaker
) -> int:
    """Queue the pairing mails of the flight's rounds published at or after ``since`` (the
    publication that just happened); returns how many."""
    flight = session.get(Flight, flight_id)
    if flight is None:
        return 0
    together = select(Flight.id).where(Flight.event_id == flight.event_id)
    rounds = session.exec(
        select(Round).where(col(Round.flight_id).in_(together), col(Round.published_at) >= since)
    ).all()
    return sum(_round_mails(session, r, links, kind="round_published", only_open=False)
               for r in rounds)


def queue_next_match_mails(session: Session, *, links: LinkMaker, limit: int = 500) -> int:
    """Queue a "your next match is ready" mail to each player of a match of a published
    round who has not been told of it yet; returns how many mails.

    This runs in the mail worker's pass (``tourney mail work``), not where results are
    entered: a match becomes ready through a director's entry, a confirmed report, a
    walkover, a withdrawal, a bulk entry or a correction, and a scan of what is ready
    catches every one of them, whichever way it came. Each (match, player) told is
    recorded in ``match_mails`` in the transaction that queues its mail, and a unique key
    on the pair stops a second: publication records the players it mails, so a round
    published with both players known is not mailed again here; a player put into a
    match by a corrected result is a new pair and is told; two workers at once lock the
    matches they mail (other workers skip them), and the unique key refuses what a lock
    missed (that match is skipped, its mail left to the worker that recorded it). A match
    its players started before the pass (playing) is still mailed. A pass takes at most
    ``limit`` matches, oldest first; the next pass takes the rest.
    """
    pending = (
        select(Match)
        .join(Round, col(Round.id) == Match.round_id)
        .where(
            col(Round.published_at).is_not(None),
            col(Match.status).in_(progress.OPEN),
            col(Match.entry_a_id).is_not(None),
            col(Match.entry_b_id).is_not(None),
            ~(
                select(MatchMail.id)
                .where(
                    MatchMail.match_id == Match.id,
                    MatchMail.flight_entry_id == Match.entry_a_id,
                )
                .exists()
                & select(MatchMail.id)
                .where(
                    MatchMail.match_id == Match.id,
                    MatchMail.flight_entry_id == Match.entry_b_id,
                )
                .exists()
            ),
        )
        .order_by(col(Match.id))
        .limit(limit)
        .with_for_update(skip_locked=True, of=Match)
    )
    matches = session.exec(pending).all()
    told = _told(session, [m.id or 0 for m in matches])
    names = _fe_names(session, [fe for m in matches for fe in (m.entry_a_id, m.entry_b_id)])
    queued = 0
    for match in matches:
        rnd = session.get(Round, match.round_id)
        flight = session.get(Flight, match.flight_id)
        event = session.get(Event, flight.event_id) if flight else None
        if rnd is None or flight is None or event is None:
            continue
        try:
            # A savepoint: a pair another worker recorded meanwhile skips this match.
            with session.begin_nested():
                sides = _mark_told(session, match, told)
        except IntegrityError:
            continue
        for side in sides:
            queued += _pairing_mail(
                session, match, side, (event, flight, rnd), names, links, "next_match"
            )
    return queued


def queue_deadline_reminders(
    session: Session, *, links: LinkMaker, now: datetime | None = None
) -> int:
    """Queue reminders to the players of unfinished matches of every round whose deadline
    is less than ``REMINDER_BEFORE`` away (once per deadline); returns how many."""
    now = now or utcnow()
    rounds = session.exec(
        select(Round).where(
            col(Round.deadline_at).is_not(None),
            col(Round.deadline_at) > now,
            col(Round.deadline_at) <= now + REMINDER_BEFORE,
            col(Round.deadline_reminded_at).is_(None),
            Round.status != RoundStatus.DRAFT.value,
        )
    ).all()
    queued = 0
    for rnd in rounds:
        queued += _round_mails(session, rnd, links, kind="deadline_reminder", only_open=True)
        rnd.deadline_reminded_at = now
    return queued
