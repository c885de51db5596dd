"""Money sessions and chouettes through the store: starting one, entering games, the
rotation and totals, taking a game back, ending, and what is refused. Every total below
is worked by hand from DESIGN section 7 (per point: cube times level; a drop scores the
cube before the double; under the Jacoby rule a gammon on a centred cube counts single)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.store import money_sessions as ms
from tourney.store.db import transaction
from tourney.store.errors import ConflictError, StoreUserError
from tourney.store.tables import AuditEntry, Entry, MoneySession
from tourney.store.types import utcnow

if TYPE_CHECKING:
    from conftest import BuiltEvent

NAMES = ["Anna", "Boris", "Chloé", "Dmitri", "Eva"]


def _players(engine: Engine, built: BuiltEvent) -> dict[str, int]:
    with Session(engine) as session:
        return {
            name: session.exec(select(Entry.player_id).where(Entry.id == entry)).one()
            for name, entry in built.entries.items()
        }


def _start(engine: Engine, built: BuiltEvent, seats: list[int], **extra: object) -> int:
    fields = ms.SessionFields(
        name="Thursday money",
        player_ids=tuple(seats),
        stake_mode=str(extra.pop("stake_mode", "per-point")),
        stake_minor=int(str(extra.pop("stake_minor", 50))),
        currency="eur",
        **extra,  # type: ignore[arg-type]
    )
    with transaction(engine) as session:
        row = ms.start_session(
            session, actor=built.director.actor, event_id=built.event_id, fields=fields
        )
        return row.id or 0


def _game(
    engine: Engine, built: BuiltEvent, session_id: int, before: int, *results: ms.ResultFields
) -> int:
    with transaction(engine) as session:
        return ms.record_game(
            session,
            actor=built.director.actor,
            session_id=session_id,
            results=results,
            games_before=before,
        )


def _view(engine: Engine, built: BuiltEvent, session_id: int) -> ms.SessionView:
    with Session(engine) as session:
        return ms.session_view(session, built.director.actor, session_id)


def result(
    member: int, *, box_won: bool, end: str = "played", level: int = 1, cube: int = 1,
    centred: bool = True,
) -> ms.ResultFields:
    return ms.ResultFields(member, box_won, end, level, cube, centred)


@pytest.fixture
def club(build_event: Callable[..., BuiltEvent]) -> BuiltEvent:
    return build_event(NAMES, [])


def test_two_players_total_in_units_and_money_and_settle(engine: Engine, club: BuiltEvent) -> None:
    p = _players(engine, club)
    sid = _start(engine, club, [p["Anna"], p["Boris"]])
    # Game 1: Anna wins a gammon on a cube Boris took at 2: 2 x 2 = 4 units to Anna.
    _game(engine, club, sid, 0, result(p["Boris"], box_won=True, level=2, cube=2, centred=False))
    # Game 2: Boris wins a single game, cube in the middle: 1 unit.
    _game(engine, club, sid, 1, result(p["Boris"], box_won=False))

    view = _view(engine, club, sid)
    assert [(x.name, x.units, x.money_text) for x in view.players] == [
        ("Anna", 3, "EUR 1.50"),
        ("Boris", -3, "-EUR 1.50"),
    ]
    assert [(x.payer, x.payee, x.amount_text) for x in view.settlement] == [
        ("Boris", "Anna", "EUR 1.50")
    ]
    assert [(g.number, g.winner, g.units) for g in view.games] == [(1, "Anna", 4), (2, "Boris", 1)]


def test_jacoby_counts_a_gammon_on_a_centred_cube_single(engine: Engine, club: BuiltEvent) -> None:
    p = _players(engine, club)
    sid = _start(engine, club, [p["Anna"], p["Boris"]], jacoby=True)
    _game(engine, club, sid, 0, result(p["Boris"], box_won=True, level=2))
    _game(engine, club, sid, 1, result(p["Boris"], box_won=True, level=2, cube=2, centred=False))

    # 1 (gammon on a centred cube, single under Jacoby) + 4 (gammon, cube turned to 2).
    assert _view(engine, club, sid).players[0].units == 5


def test_a_session_to_a_difference_ends_there_and_takes_no_more_games(
    engine: Engine, club: BuiltEvent
) -> None:
    p = _players(engine, club)
    sid = _start(engine, club, [p["Anna"], p["Boris"]], end_difference=4)
    _game(engine, club, sid, 0, result(p["Boris"], box_won=True, level=2, cube=2, centred=False))

    view = _view(engine, club, sid)
    assert view.is_over and "difference of 4" in view.ended_text
    with pytest.raises(StoreUserError, match="has ended"):
        _game(engine, club, sid, 1, result(p["Boris"], box_won=False))
    # Taking the deciding game back opens the session again.
    with transaction(engine) as session:
        ms.take_back_game(session, actor=club.director.actor, session_id=sid)
    assert not _view(engine, club, sid).is_over


def test_a_five_player_chouette_rotates_and_scores_each_member_against_the_box(
    engine: Engine, club: BuiltEvent
) -> None:
    p = _players(engine, club)
    a, b, c, d, e = (p[n] for n in NAMES)
    sid = _start(engine, club, [a, b, c, d, e])
    # Game 1: the box (Anna) beats all four, single, cubes in the middle: Anna +4, the
    # rest -1. The box beat the captain: Boris goes to the end; Chloé is captain.
    _game(engine, club, sid, 0, *(result(m, box_won=True) for m in (b, c, d, e)))
    view = _view(engine, club, sid)
    assert (view.box and view.box.name, view.captain and view.captain.name) == ("Anna", "Chloé")
    assert [x.name for x in view.line] == ["Dmitri", "Eva", "Boris"]
    # Game 2: Chloé (captain) wins a gammon on a cube of 2 she took: 4. Dmitri dropped the
    # box's double at 1: Anna wins 1 from him. Eva (cube 1, centred) and Boris (cube 2,
    # his) saw the same finish: 2 and 4. Anna: -(4 + 2 + 4) + 1 = -9.
    _game(
        engine, club, sid, 1,
        result(c, box_won=False, level=2, cube=2, centred=False),
        result(d, box_won=True, end="dropped"),
        result(e, box_won=False, level=2),
        result(b, box_won=False, level=2, cube=2, centred=False),
    )
    view = _view(engine, club, sid)
    assert {x.name: x.units for x in view.players} == {
        "Anna": 4 - 9, "Boris": -1 + 4, "Chloé": -1 + 4, "Dmitri": -1 - 1, "Eva": -1 + 2,
    }
    # The captain won: Chloé is the box, Anna goes to the end of the line.
    assert (view.box and view.box.name, view.captain and view.captain.name) == ("Chloé", "Dmitri")
    assert [x.name for x in view.line] == ["Eva", "Boris", "Anna"]

    with transaction(engine) as session:
        assert ms.take_back_game(session, actor=club.director.actor, session_id=sid) == 2
    view = _view(engine, club, sid)
    assert (view.box and view.box.name, view.captain and view.captain.name) == ("Anna", "Chloé")
    assert view.game_count == 1


def test_one_team_cube_takes_the_captains_result_for_everyone(
    engine: Engine, club: BuiltEvent
) -> None:
    p = _players(engine, club)
    a, b, c = p["Anna"], p["Boris"], p["Chloé"]
    sid = _start(engine, club, [a, b, c], team_cube=True)
    # The team wins a single game on the team's cube of 2: Boris and Chloé 2 each, Anna -4.
    _game(engine, club, sid, 0, result(b, box_won=False, cube=2, centred=False))

    assert {x.name: x.units for x in _view(engine, club, sid).players} == {
        "Anna": -4, "Boris": 2, "Chloé": 2,
    }


def test_refusals_name_the_problem(engine: Engine, club: BuiltEvent) -> None:
    p = _players(engine, club)
    with pytest.raises(StoreUserError, match="3 to 8"):
        _start(engine, club, [p["Anna"]])
    with pytest.raises(StoreUserError, match="only once"):
        _start(engine, club, [p["Anna"], p["Anna"]])
    sid = _start(engine, club, [p["Anna"], p["Boris"]], cube_limit=4)
    with pytest.raises(ConflictError, match="meanwhile"):
        _game(engine, club, sid, 3, result(p["Boris"], box_won=True))
    with pytest.raises(StoreUserError, match="8"):
        _game(engine, club, sid, 0, result(p["Boris"], box_won=True, cube=8, centred=False))
    assert _view(engine, club, sid).game_count == 0


def test_every_change_is_audited_with_its_event(engine: Engine, club: BuiltEvent) -> None:
    p = _players(engine, club)
    sid = _start(engine, club, [p["Anna"], p["Boris"]])
    _game(engine, club, sid, 0, result(p["Boris"], box_won=True))
    with transaction(engine) as session:
        ms.take_back_game(session, actor=club.director.actor, session_id=sid)
        ms.end_session(session, actor=club.director.actor, session_id=sid, how="by agreement")
    with Session(engine) as session:
        actions = session.exec(
            select(AuditEntry.action)
            .where(AuditEntry.entity_type == "money_session", AuditEntry.entity_id == sid)
            .where(AuditEntry.event_id == club.event_id)
            .order_by(AuditEntry.id)  # type: ignore[arg-type]
        ).all()
    assert actions == ["money.start", "money.game", "money.take_back", "money.end"]


def test_a_session_with_a_time_limit_takes_no_game_once_the_time_is_up(
    engine: Engine, club: BuiltEvent
) -> None:
    p = _players(engine, club)
    soon = utcnow() + timedelta(minutes=30)
    sid = _start(engine, club, [p["Anna"], p["Boris"]], ends_at=soon)
    _game(engine, club, sid, 0, result(p["Boris"], box_won=True))
    with transaction(engine) as session:
        row = session.get(MoneySession, sid)
        assert row is not None
        row.ends_at = utcnow() - timedelta(minutes=1)  # the half hour has gone by

    view = _view(engine, club, sid)
    assert view.is_over and view.ended_text.startswith("Time was up at")
    with pytest.raises(StoreUserError, match="Time was up"):
        _game(engine, club, sid, 1, result(p["Boris"], box_won=False))
    with pytest.raises(StoreUserError, match="must lie ahead"):
        _start(engine, club, [p["Chloé"], p["Dmitri"]], ends_at=utcnow())
