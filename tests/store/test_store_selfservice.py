"""Players serving themselves through their private links: what a link opens and what it
refuses, check-in, reports confirmed and disputed, and a report meeting a director's entry.

Expected results are worked by hand from the match rules (DESIGN §3) or, for the match
file, from gnubg's own summary of that match (tests/data/records/gnubg/gnubg_L03_s1187:
the first player wins game 1 by a dropped initial double, 1 point, and game 2 by a gammon,
2 points: 3-0).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, col, select

from tourney.store import draws, results, schema, selfservice
from tourney.store.db import make_engine, transaction
from tourney.store.errors import ConflictError, NotFoundError, StoreUserError
from tourney.store.results import GameFields
from tourney.store.selfservice import LinkMaker, PlayerGrant
from tourney.store.selfservice_tables import OutboxMail, ResultReport
from tourney.store.tables import AuditEntry, Entry, Event, Match, Player

if TYPE_CHECKING:
    from conftest import BuiltEvent

DATA = Path(__file__).resolve().parent.parent / "data" / "selfservice"
LINKS = LinkMaker("test-secret", "http://club.example/")
MAIN = {"name": "Main", "format": "knockout", "match_length": 3}
PLAYERS = ["Ann Archer", "Bob Baker", "Cat Cole", "Dan Dunn"]


@dataclass(frozen=True)
class Published:
    """A published seeded knockout of four: Ann v Dan and Bob v Cat, to 3 points."""

    built: BuiltEvent
    slug: str
    ann_v_dan: int
    bob_v_cat: int


def publish_four(engine: Engine, build_event: Callable[..., BuiltEvent], name: str) -> Published:
    built = build_event(PLAYERS, [MAIN], name=name)
    actor = built.director.actor
    with transaction(engine) as session:
        for player_name, entry_id in built.entries.items():
            entry = session.get(Entry, entry_id)
            assert entry is not None
            player = session.get(Player, entry.player_id)
            assert player is not None
            player.email = player_name.split()[0].lower() + "@example.org"
        draws.make_draw(session, actor=actor, flight_id=built.flights["Main"], method="seeded",
                        seed=1)
        draws.publish_flight(session, actor=actor, flight_id=built.flights["Main"])
        event = session.get(Event, built.event_id)
        assert event is not None
        matches = session.exec(
            select(Match).where(Match.flight_id == built.flights["Main"]).order_by(
                col(Match.position))
        ).all()
    by_players = {}
    with Session(engine) as session:
        for match in matches:
            if match.entry_a_id is None or match.entry_b_id is None:
                continue
            names = selfservice._fe_names(session, [match.entry_a_id, match.entry_b_id])
            by_players[(names[match.entry_a_id], names[match.entry_b_id])] = match.id or 0
    return Published(
        built, event.slug, by_players[("Ann Archer", "Dan Dunn")],
        by_players[("Bob Baker", "Cat Cole")],
    )


def grant_of(engine: Engine, event: Published, name: str) -> PlayerGrant:
    with Session(engine) as session:
        url = selfservice.link_for_entry(session, LINKS, event.built.entries[name])
        token = url.rsplit("/", 1)[1]
        return selfservice.open_link(session, LINKS, slug=event.slug, token=token)


def token_of(engine: Engine, event: Published, name: str) -> str:
    with Session(engine) as session:
        return selfservice.link_for_entry(session, LINKS, event.built.entries[name]).rsplit(
            "/", 1)[1]


def match_row(engine: Engine, match_id: int) -> Match:
    with Session(engine) as session:
        found = session.get(Match, match_id)
        assert found is not None
        return found


def audit_actions(engine: Engine, match_id: int) -> list[tuple[str, str]]:
    with Session(engine) as session:
        rows = session.exec(
            select(AuditEntry).where(AuditEntry.match_id == match_id).order_by(
                col(AuditEntry.id))
        ).all()
        return [(r.action, r.actor_label) for r in rows]


# --- links ---------------------------------------------------------------------------


def test_a_link_of_one_event_opens_nothing_in_another(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    first = publish_four(engine, build_event, "Monday Cup")
    second = publish_four(engine, build_event, "Tuesday Cup")
    token = token_of(engine, first, "Ann Archer")
    with Session(engine) as session:
        assert selfservice.open_link(session, LINKS, slug=first.slug, token=token).name == (
            "Ann Archer"
        )
        with pytest.raises(NotFoundError):
            selfservice.open_link(session, LINKS, slug=second.slug, token=token)


def test_a_link_cannot_report_a_match_of_another_event(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    first = publish_four(engine, build_event, "Monday Cup")
    second = publish_four(engine, build_event, "Tuesday Cup")
    ann = grant_of(engine, first, "Ann Archer")
    with transaction(engine) as session, pytest.raises(NotFoundError):
        selfservice.report_result(
            session, grant=ann, match_id=second.ann_v_dan, score=(3, 0), links=LINKS
        )
    assert match_row(engine, second.ann_v_dan).status == "ready"


def test_a_forged_or_foreign_key_token_opens_nothing(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    entry_id = event.built.entries["Ann Archer"]
    forged = LinkMaker("another-secret", LINKS.root).token(event.built.event_id, entry_id, 1)
    with Session(engine) as session:
        for token in (forged, "nonsense", token_of(engine, event, "Ann Archer")[:-2] + "xx"):
            with pytest.raises(NotFoundError):
                selfservice.open_link(session, LINKS, slug=event.slug, token=token)


def test_a_revoked_link_opens_nothing_and_the_new_one_works(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    old = token_of(engine, event, "Ann Archer")
    with transaction(engine) as session:
        selfservice.revoke_link(
            session, actor=event.built.director.actor, entry_id=event.built.entries["Ann Archer"]
        )
    new = token_of(engine, event, "Ann Archer")
    with Session(engine) as session:
        with pytest.raises(NotFoundError):
            selfservice.open_link(session, LINKS, slug=event.slug, token=old)
        assert selfservice.open_link(session, LINKS, slug=event.slug, token=new).name == (
            "Ann Archer"
        )


# --- check-in ------------------------------------------------------------------------


def test_checking_in_twice_checks_in_once_and_is_audited_as_the_player(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    ann = grant_of(engine, event, "Ann Archer")
    with transaction(engine) as session:
        first = selfservice.check_in(session, grant=ann)
    with transaction(engine) as session:
        second = selfservice.check_in(session, grant=ann)
    with Session(engine) as session:
        labels = session.exec(
            select(AuditEntry.actor_label).where(AuditEntry.action == "entry.check_in")
        ).all()
    assert (first, second, labels) == (True, False, ["player Ann Archer (own link)"])


# --- reports -------------------------------------------------------------------------


def test_a_confirmed_score_becomes_the_result_audited_with_both_players(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    dan, ann = grant_of(engine, event, "Dan Dunn"), grant_of(engine, event, "Ann Archer")
    with transaction(engine) as session:
        # Dan is side b: a 3-1 win for Dan is (1, 3) in the match's order.
        report = selfservice.report_result(
            session, grant=dan, match_id=event.ann_v_dan, score=(1, 3), links=LINKS
        )
    with transaction(engine) as session:
        outcome = selfservice.confirm_report(
            session, grant=ann, report_id=report.id, links=LINKS
        )
    match = match_row(engine, event.ann_v_dan)
    assert outcome.applied
    assert (match.status, match.score_a, match.score_b, match.result_source) == (
        "finished", 1, 3, "score"
    )
    assert audit_actions(engine, event.ann_v_dan) == [
        ("match.report", "player Dan Dunn (own link)"),
        ("match.final_score", "player Ann Archer (own link)"),
        ("match.report_confirm", "player Ann Archer (own link)"),
    ]


def test_reporting_the_same_result_twice_is_one_report(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    dan = grant_of(engine, event, "Dan Dunn")
    for _ in range(2):
        with transaction(engine) as session:
            selfservice.report_result(
                session, grant=dan, match_id=event.ann_v_dan, score=(1, 3), links=LINKS
            )
    with Session(engine) as session:
        reports = session.exec(select(ResultReport)).all()
        mails = session.exec(
            select(OutboxMail.recipient).where(OutboxMail.kind == "report_to_confirm")
        ).all()
    assert [(r.match_id, r.content["score"]) for r in reports] == [(event.ann_v_dan, [1, 3])]
    assert audit_actions(engine, event.ann_v_dan) == [
        ("match.report", "player Dan Dunn (own link)")
    ]
    assert mails == ["ann@example.org"]


def test_confirming_twice_enters_the_result_once(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    dan, ann = grant_of(engine, event, "Dan Dunn"), grant_of(engine, event, "Ann Archer")
    with transaction(engine) as session:
        report = selfservice.report_result(
            session, grant=dan, match_id=event.ann_v_dan, score=(1, 3), links=LINKS
        )
    outcomes = []
    for _ in range(2):
        with transaction(engine) as session:
            outcomes.append(selfservice.confirm_report(
                session, grant=ann, report_id=report.id, links=LINKS
            ).message)
    actions = [a for a, _ in audit_actions(engine, event.ann_v_dan)]
    assert outcomes == ["Confirmed: the result is in.", "Confirmed already: the result is in."]
    assert actions.count("match.final_score") == 1


def test_an_impossible_score_is_refused_with_the_rule(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    dan = grant_of(engine, event, "Dan Dunn")
    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        # Nobody reached 3 points: the match is not over.
        selfservice.report_result(
            session, grant=dan, match_id=event.ann_v_dan, score=(2, 2), links=LINKS
        )
    assert "3" in refused.value.message and refused.value.field == "score"


def test_a_cube_in_the_crawford_game_is_refused_game_by_game(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Ann wins game 1 with a gammon (2-0, one away): game 2 is the Crawford game, where
    # no cube may be turned (DESIGN §3), so game 2 at cube 2 is impossible.
    event = publish_four(engine, build_event, "Monday Cup")
    ann = grant_of(engine, event, "Ann Archer")
    games = [GameFields("a", "played", 1, "gammon"), GameFields("a", "played", 2, "single")]
    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        selfservice.report_result(session, grant=ann, match_id=event.ann_v_dan, games=games,
                                  links=LINKS)
    assert refused.value.message.startswith("Game 2: ")
    assert "Crawford" in refused.value.message


def test_a_match_file_report_is_validated_and_confirmed_into_games(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    ann, dan = grant_of(engine, event, "Ann Archer"), grant_of(engine, event, "Dan Dunn")
    data = (DATA / "ann_beats_dan_3_0.mat").read_bytes()
    with transaction(engine) as session:
        report = selfservice.report_result(
            session, grant=ann, match_id=event.ann_v_dan,
            record_file=("ann_beats_dan_3_0.mat", data), links=LINKS,
        )
    with transaction(engine) as session:
        selfservice.confirm_report(session, grant=dan, report_id=report.id, links=LINKS)
    match = match_row(engine, event.ann_v_dan)
    with Session(engine) as session:
        games = results.progress.games_of(session, event.ann_v_dan)
        stored = [(g.winner, g.end, g.level, g.points) for g in games]
    assert report.reported_games == (
        "Game 1: Ann Archer, dropped double, cube 1",
        "Game 2: Ann Archer, gammon, cube 1",
    )
    assert (match.score_a, match.score_b, match.result_source) == (3, 0, "record")
    assert stored == [("a", "dropped", None, 1), ("a", "played", "gammon", 2)]


def test_a_broken_match_file_is_refused_like_a_directors_upload(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    ann = grant_of(engine, event, "Ann Archer")
    data = (DATA / "ann_beats_dan_3_0.mat").read_bytes().replace(b"Dan Dunn", b"Eve Evans")
    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        selfservice.report_result(
            session, grant=ann, match_id=event.ann_v_dan,
            record_file=("wrong.mat", data), links=LINKS,
        )
    assert "Eve Evans" in refused.value.message


def test_a_dispute_waits_for_the_director_who_decides_it(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    bob, cat = grant_of(engine, event, "Bob Baker"), grant_of(engine, event, "Cat Cole")
    director = event.built.director.actor
    with transaction(engine) as session:
        report = selfservice.report_result(
            session, grant=bob, match_id=event.bob_v_cat, score=(3, 1), links=LINKS
        )
    with transaction(engine) as session:
        # Cat says she won 3-2: (2, 3) in the match's order, Bob being side a.
        selfservice.dispute_report(
            session, grant=cat, report_id=report.id, score=(2, 3), links=LINKS
        )
    with Session(engine) as session:
        queue = selfservice.director_queue(session, director, event.built.event_id)
    assert [(q.match_id, q.report.reported if q.report else "", q.report.counter if q.report
             else "") for q in queue] == [
        (event.bob_v_cat, "Bob Baker 3, Cat Cole 1", "Bob Baker 2, Cat Cole 3")
    ]
    with transaction(engine) as session:
        selfservice.decide_dispute(
            session, actor=director, report_id=report.id, decision="counter", links=LINKS
        )
    match = match_row(engine, event.bob_v_cat)
    with Session(engine) as session:
        told = sorted(session.exec(
            select(OutboxMail.recipient).where(OutboxMail.kind == "dispute_decided")
        ).all())
        assert selfservice.director_queue(session, director, event.built.event_id) == []
    assert (match.score_a, match.score_b, match.status) == (2, 3, "finished")
    assert told == ["bob@example.org", "cat@example.org"]


def test_a_directors_entry_before_the_confirmation_wins_and_the_report_says_so(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    dan, ann = grant_of(engine, event, "Dan Dunn"), grant_of(engine, event, "Ann Archer")
    with transaction(engine) as session:
        report = selfservice.report_result(
            session, grant=dan, match_id=event.ann_v_dan, score=(1, 3), links=LINKS
        )
    with transaction(engine) as session:
        results.record_final_score(
            session, actor=event.built.director.actor, match_id=event.ann_v_dan,
            score_a=3, score_b=0,
        )
    with transaction(engine) as session:
        outcome = selfservice.confirm_report(session, grant=ann, report_id=report.id,
                                             links=LINKS)
    match = match_row(engine, event.ann_v_dan)
    assert not outcome.applied
    assert "first" in outcome.message
    assert (match.score_a, match.score_b) == (3, 0)


# --- a report and a director's entry at the same moment ------------------------------


@pytest.fixture
def shared_engine(
    database: object, tmp_path: Path, request: pytest.FixtureRequest
) -> Engine:
    """An engine that several threads can write through: a SQLite file (the in-memory test
    database is one connection), or a fresh PostgreSQL schema."""
    backend = getattr(database, "backend", "sqlite")
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'race.db'}"
    else:
        url = request.getfixturevalue("pg_schemas")()
    engine = make_engine(url)
    schema.upgrade(engine)
    request.addfinalizer(engine.dispose)
    return engine


def test_a_confirmation_and_a_directors_entry_at_once_give_one_result_and_a_conflict(
    shared_engine: Engine, make_user: Callable[..., object]
) -> None:
    from tourney.store import accounts, events, roster
    from tourney.store.audit import Actor
    from tourney.store.passwords import make_hasher

    engine = shared_engine
    with transaction(engine) as session:
        director = accounts.create_user(
            session, actor=Actor.cli(), email="race@example.org", name="Race", password="x" * 12,
            role="director", hasher=make_hasher("fast"),
        )
        actor = director.actor
        event = events.create_event(session, actor=actor, fields=events.EventFields(name="Race"))
        flight = events.add_flight(
            session, actor=actor, event_id=event.id, fields=events.FlightFields(**MAIN)
        )
        entries = {}
        for n, name in enumerate(PLAYERS[:2], start=1):
            player = roster.register_player(session, actor=actor,
                                            fields=roster.PlayerFields(name=name))
            entries[name] = roster.enter_player(session, actor=actor, event_id=event.id,
                                                player_id=player.id, seed=n).id
        draws.make_draw(session, actor=actor, flight_id=flight.id, method="seeded", seed=1)
        draws.publish_flight(session, actor=actor, flight_id=flight.id)
        slug = session.get(Event, event.id).slug  # type: ignore[union-attr]
        match = session.exec(select(Match).where(Match.flight_id == flight.id)).one()
        match_id = match.id or 0
    with Session(engine) as session:
        tokens = {
            name: selfservice.link_for_entry(session, LINKS, entry_id).rsplit("/", 1)[1]
            for name, entry_id in entries.items()
        }
        ann = selfservice.open_link(session, LINKS, slug=slug, token=tokens["Ann Archer"])
        bob = selfservice.open_link(session, LINKS, slug=slug, token=tokens["Bob Baker"])
    with transaction(engine) as session:
        report = selfservice.report_result(
            session, grant=bob, match_id=match_id, score=(1, 3), links=LINKS
        )
    with Session(engine) as session:
        seen = session.get(Match, match_id).version  # type: ignore[union-attr]
    start = threading.Barrier(2)
    said: dict[str, object] = {}

    def confirm() -> None:
        start.wait()
        with transaction(engine) as session:
            said["player"] = selfservice.confirm_report(
                session, grant=ann, report_id=report.id, links=LINKS
            )

    def direct() -> None:
        start.wait()
        try:
            with transaction(engine) as session:
                results.record_final_score(
                    session, actor=actor, match_id=match_id, score_a=3, score_b=0,
                    expected_version=seen,
                )
            said["director"] = "saved"
        except ConflictError as error:
            said["director"] = error

    threads = [threading.Thread(target=confirm), threading.Thread(target=direct)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    with Session(engine) as session:
        final = session.get(Match, match_id)
        assert final is not None
        entered = session.exec(
            select(AuditEntry.action).where(
                AuditEntry.match_id == match_id, AuditEntry.action == "match.final_score"
            )
        ).all()
    player = said["player"]
    assert isinstance(player, selfservice.ReportOutcome)
    director_won = said["director"] == "saved"
    # Exactly one of the two went in; the other was told it came second.
    assert len(entered) == 1
    assert player.applied is not director_won
    if director_won:
        assert (final.score_a, final.score_b) == (3, 0)
        assert "first" in player.message or "saved" in player.message
    else:
        assert isinstance(said["director"], ConflictError)
        assert (final.score_a, final.score_b) == (1, 3)


def test_games_typed_beside_a_match_file_must_be_the_files(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    event = publish_four(engine, build_event, "Monday Cup")
    ann = grant_of(engine, event, "Ann Archer")
    data = (DATA / "ann_beats_dan_3_0.mat").read_bytes()
    # The file: game 1 a dropped initial double, game 2 a gammon. Typed: two gammons...
    wrong = [GameFields("a", "played", 1, "gammon"), GameFields("a", "played", 1, "single")]
    right = [GameFields("a", "dropped", 1, None), GameFields("a", "played", 1, "gammon")]
    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        selfservice.report_result(session, grant=ann, match_id=event.ann_v_dan, games=wrong,
                                  record_file=("m.mat", data), links=LINKS)
    with transaction(engine) as session:
        report = selfservice.report_result(
            session, grant=ann, match_id=event.ann_v_dan, games=right,
            record_file=("m.mat", data), links=LINKS,
        )
    assert refused.value.message.startswith("Game 1 as you entered it differs")
    assert report.reported == "Ann Archer 3, Dan Dunn 0 (2 games, from m.mat)"


# --- deadlines ---------------------------------------------------------------------------


def test_reminders_go_once_before_the_deadline_to_the_players_still_playing(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    from datetime import timedelta

    from tourney.store.tables import Round
    from tourney.store.types import utcnow

    event = publish_four(engine, build_event, "Monday Cup")
    director = event.built.director.actor
    with transaction(engine) as session:
        results.record_final_score(session, actor=director, match_id=event.ann_v_dan,
                                   score_a=3, score_b=0)
        round_id = session.get(Match, event.ann_v_dan).round_id  # type: ignore[union-attr]
    now = utcnow()
    with transaction(engine) as session:
        selfservice.set_round_deadline(session, actor=director, round_id=round_id,
                                       deadline=now + timedelta(hours=30))
    with transaction(engine) as session:
        too_early = selfservice.queue_deadline_reminders(session, links=LINKS, now=now)
    with transaction(engine) as session:
        queued = selfservice.queue_deadline_reminders(
            session, links=LINKS, now=now + timedelta(hours=8))
    with transaction(engine) as session:
        again = selfservice.queue_deadline_reminders(
            session, links=LINKS, now=now + timedelta(hours=9))
    with Session(engine) as session:
        reminded = sorted(session.exec(
            select(OutboxMail.recipient).where(OutboxMail.kind == "deadline_reminder")
        ).all())
        assert session.get(Round, round_id) is not None
    # Ann v Dan is decided: only Bob and Cat are reminded, once, within 24 hours of it.
    assert (too_early, queued, again) == (0, 2, 0)
    assert reminded == ["bob@example.org", "cat@example.org"]


def test_after_the_deadline_unreported_matches_wait_in_the_directors_queue(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    from datetime import timedelta

    from tourney.store.types import utcnow

    event = publish_four(engine, build_event, "Monday Cup")
    director = event.built.director.actor
    with transaction(engine) as session:
        results.record_final_score(session, actor=director, match_id=event.ann_v_dan,
                                   score_a=3, score_b=0)
        round_id = session.get(Match, event.ann_v_dan).round_id  # type: ignore[union-attr]
        selfservice.set_round_deadline(session, actor=director, round_id=round_id,
                                       deadline=utcnow() - timedelta(minutes=1))
    with Session(engine) as session:
        overdue = selfservice.director_queue(session, director, event.built.event_id)
    with transaction(engine) as session:
        results.award_walkover(session, actor=director, match_id=event.bob_v_cat, winner="b")
    with Session(engine) as session:
        after = selfservice.director_queue(session, director, event.built.event_id)
    assert [(q.match_id, q.a, q.b, q.report) for q in overdue] == [
        (event.bob_v_cat, "Bob Baker", "Cat Cole", None)
    ]
    assert after == []
