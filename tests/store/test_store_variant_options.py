"""An event's variant options: stored with the event, scoring every match, guarded after results.

The expected scores are worked out by hand from the long-nardy rules: oin 1, mars 2, koks 2
(3 where the event scores it), each times the cube.
"""

from __future__ import annotations

import doctest
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

import tourney.store.variant_options as variant_options_module
from tourney.rules.variants import NextGameStarter, VariantOptions
from tourney.store import draws, events, queries, results, tournament_views
from tourney.store.db import transaction
from tourney.store.errors import StoreUserError
from tourney.store.results import GameFields
from tourney.store.rules_change import RulesChangeNeedsConfirmation
from tourney.store.tables import AuditEntry, Event, Game
from tourney.store.variant_options import (
    VariantOptionsError,
    options_from_json,
    options_to_json,
    variant_summary,
)

if TYPE_CHECKING:
    from conftest import BuiltEvent

NARDY_CUBE_KOKS = VariantOptions(cube=True, crawford=True, koks=True, last_roll_draw=True)


def _event_row(engine: Engine, event_id: int) -> Event:
    with Session(engine) as session:
        event = session.get(Event, event_id)
        assert event is not None
        return event


def _fields(event: Event, **changes: object) -> events.EventFields:
    """The event's current fields with some changed, as the edit form would send them."""
    values: dict[str, object] = {
        "name": event.name,
        "slug": event.slug,
        "variant": event.variant,
        "crawford": event.crawford,
        "variant_options": options_from_json(event.variant_options),
    }
    values.update(changes)
    return events.EventFields(**values)  # type: ignore[arg-type]


def _one_match(
    engine: Engine, build_event: Callable[..., BuiltEvent], length: int, **event_fields: object
) -> tuple[BuiltEvent, int]:
    built = build_event(
        ["Ann", "Bob"],
        [{"name": "Main", "format": "knockout", "match_length": length}],
        **event_fields,
    )
    with transaction(engine) as session:
        flight = built.flights["Main"]
        draws.make_draw(session, actor=built.director.actor, flight_id=flight, method="seeded")
        board = draws.publish_draw(session, actor=built.director.actor, flight_id=flight)
    return built, next(m.id for m in board.rounds[0].matches if not m.is_bye)


def _record(engine: Engine, built: BuiltEvent, match_id: int, game: GameFields) -> None:
    with transaction(engine) as session:
        results.record_game(session, actor=built.director.actor, match_id=match_id, game=game)


def test_variant_options_doctests_pass() -> None:
    failures, tried = doctest.testmod(variant_options_module)

    assert (failures, tried > 0) == (0, True)


def test_options_round_trip_through_the_event(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann"], [], variant="long-nardy",
        variant_options=VariantOptions(cube=True, crawford=True, koks=True,
                                       next_game_starter=NextGameStarter.ALTERNATE),
    )

    stored = _event_row(engine, built.event_id)
    with Session(engine) as session:
        detail = queries.event_detail(session, stored, can_manage=True)

    assert stored.variant_options == {
        "crawford": True, "cube": True, "koks": True, "next_game_starter": "alternate"}
    assert detail.variant_options == VariantOptions(
        cube=True, crawford=True, koks=True, next_game_starter=NextGameStarter.ALTERNATE)
    assert detail.variant_summary == (
        "Long nardy · cube on, Crawford · koks scores 3 · players take turns to open")
    # The event's own Crawford flag follows the long-nardy option.
    assert stored.crawford is True


def test_default_options_are_stored_as_null(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann"], [], variant="long-nardy",
        variant_options=VariantOptions(cube=False, next_game_starter=NextGameStarter.WINNER),
    )

    with engine.connect() as connection:
        raw = connection.execute(
            text("SELECT variant_options, crawford FROM events WHERE id = :id"),
            {"id": built.event_id},
        ).one()

    # No cube means no Crawford rule in long nardy either.
    assert (raw[0], raw[1]) == (None, False)


def test_options_of_another_variant_are_ignored(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann"], [], variant="standard",
        variant_options=VariantOptions(gammons=False, cube=False, koks=True, last_roll_draw=True),
    )

    stored = _event_row(engine, built.event_id)

    assert (stored.variant_options, stored.crawford) == (None, True)


def test_hypergammon_gammons_option_is_kept(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(
        ["Ann"], [], variant="hypergammon", variant_options=VariantOptions(gammons=True, koks=True)
    )

    stored = _event_row(engine, built.event_id)

    assert stored.variant_options == {"gammons": True}
    assert variant_summary(stored.variant, options_from_json(stored.variant_options)) == (
        "Hypergammon · gammons count")


def test_crawford_without_the_cube_is_refused_on_its_field(
    engine: Engine, make_user: Callable[..., object]
) -> None:
    director = make_user("director")

    with pytest.raises(StoreUserError) as refused, transaction(engine) as session:
        events.create_event(
            session,
            actor=director.actor,  # type: ignore[attr-defined]
            fields=events.EventFields(
                name="Nardy", variant="long-nardy", variant_options=VariantOptions(crawford=True)
            ),
        )

    assert refused.value.field == "nardy_crawford"
    assert refused.value.message == (
        "The Crawford rule is about doubling: turn the doubling cube on too, or leave the "
        "Crawford rule off.")


@pytest.mark.parametrize(
    "stored",
    [
        ["koks"],
        {"koks": "yes"},
        {"doubling": True},
        {"next_game_starter": "loser"},
    ],
)
def test_stored_options_that_are_not_options_are_refused(stored: object) -> None:
    with pytest.raises(VariantOptionsError):
        options_from_json(stored)


def test_options_to_json_keeps_only_what_differs() -> None:
    assert options_to_json(VariantOptions(koks=False, strict_block=True)) == {"strict_block": True}


def test_koks_on_a_two_cube_scores_six_when_koks_scores_three(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(
        engine, build_event, 7, variant="long-nardy", variant_options=NARDY_CUBE_KOKS
    )

    _record(engine, built, match_id, GameFields("a", "played", 2, "backgammon"))

    with Session(engine) as session:
        (game,) = session.exec(select(Game).where(Game.match_id == match_id)).all()
    # Koks 3 x cube 2.
    assert (game.points, game.level, game.cube_exponent) == (6, "backgammon", 1)


def test_koks_scores_two_when_the_event_does_not_score_it(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(engine, build_event, 7, variant="long-nardy")

    _record(engine, built, match_id, GameFields("b", "played", 1, "backgammon"))

    with Session(engine) as session:
        (game,) = session.exec(select(Game).where(Game.match_id == match_id)).all()
    assert game.points == 2


def test_drawn_game_round_trips_with_no_winner_and_no_points(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(
        engine, build_event, 3, variant="long-nardy", variant_options=NARDY_CUBE_KOKS
    )

    _record(engine, built, match_id, GameFields("", "drawn", 1, None))
    _record(engine, built, match_id, GameFields("a", "played", 1, "gammon"))

    with Session(engine) as session:
        games = session.exec(select(Game).where(Game.match_id == match_id)).all()
        detail = tournament_views.match_detail(session, built.director.actor, match_id)
    assert [(g.number, g.winner, g.end, g.level, g.points) for g in games] == [
        (1, None, "drawn", None, 0),
        (2, "a", "played", "gammon", 2),
    ]
    assert [(g.winner_name, g.end_label, g.score_after) for g in detail.games] == [
        ("Drawn", "Drawn (last roll)", "0-0"),
        ("Ann", "Played out", "2-0"),
    ]


def test_drawn_game_is_refused_without_the_last_roll_option(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(engine, build_event, 3, variant="long-nardy")

    with pytest.raises(StoreUserError) as refused:
        _record(engine, built, match_id, GameFields("", "drawn", 1, None))

    assert refused.value.message == (
        "Game 1 cannot be a draw: only an event with the last-roll rule has drawn games, "
        "and this long nardy event does not use it.")


def test_turning_the_cube_off_after_a_two_cube_game_is_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(
        engine, build_event, 7, variant="long-nardy", variant_options=NARDY_CUBE_KOKS
    )
    _record(engine, built, match_id, GameFields("a", "played", 2, "single"))
    event = _event_row(engine, built.event_id)

    with pytest.raises(StoreUserError) as refused, transaction(engine) as session:
        events.update_event(
            session, actor=built.director.actor, event_id=built.event_id,
            fields=_fields(event, variant_options=VariantOptions(koks=True, last_roll_draw=True)),
        )

    assert refused.value.message == (
        "These rules do not fit the results already entered, so nothing was changed. "
        "Main round 1 match 1 (Ann – Bob): This long nardy event is played without the "
        "doubling cube, so in game 1 the cube must stay at 1. Correct or delete those games "
        "first, or keep the rules as they were.")
    assert _event_row(engine, built.event_id).variant_options == options_to_json(NARDY_CUBE_KOKS)


def test_turning_koks_off_after_a_koks_asks_to_confirm_the_score_change(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(
        engine, build_event, 7, variant="long-nardy", variant_options=NARDY_CUBE_KOKS
    )
    _record(engine, built, match_id, GameFields("b", "played", 1, "backgammon"))
    event = _event_row(engine, built.event_id)
    without_koks = _fields(
        event, variant_options=VariantOptions(cube=True, crawford=True, last_roll_draw=True)
    )

    with pytest.raises(RulesChangeNeedsConfirmation) as asked, transaction(engine) as session:
        events.update_event(
            session, actor=built.director.actor, event_id=built.event_id, fields=without_koks
        )
    with transaction(engine) as session:
        events.update_event(
            session, actor=built.director.actor, event_id=built.event_id, fields=without_koks,
            confirmed_changes=asked.value.digest,
        )

    # The koks scored 3; without the option it scores 2.
    assert asked.value.changes == (
        "Main round 1 match 1 (Ann – Bob): game 1 scores 2 instead of 3; "
        "its score of 0–3 would become 0–2.",
    )
    with Session(engine) as session:
        games = session.exec(select(Game).where(Game.match_id == match_id)).all()
    assert [g.points for g in games] == [2]


def test_option_change_that_keeps_every_score_is_confirmed_saved_and_audited(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(
        engine, build_event, 3, variant="long-nardy",
        variant_options=VariantOptions(cube=True, koks=True),
    )
    # Ann wins a mars, 2-0 in a 3-point match: without the Crawford rule the next game is
    # an ordinary one, and it is played at 1.
    _record(engine, built, match_id, GameFields("a", "played", 1, "gammon"))
    _record(engine, built, match_id, GameFields("b", "played", 1, "single"))
    event = _event_row(engine, built.event_id)

    with_crawford = _fields(event, variant_options=VariantOptions(
        cube=True, crawford=True, koks=True, strict_block=True))
    with pytest.raises(RulesChangeNeedsConfirmation) as asked, transaction(engine) as session:
        events.update_event(
            session, actor=built.director.actor, event_id=built.event_id, fields=with_crawford
        )
    with transaction(engine) as session:
        events.update_event(
            session, actor=built.director.actor, event_id=built.event_id, fields=with_crawford,
            confirmed_changes=asked.value.digest,
        )

    with Session(engine) as session:
        games = session.exec(select(Game).where(Game.match_id == match_id)).all()
        audit = session.exec(
            select(AuditEntry).where(AuditEntry.action == "event.update")
        ).one()
    # With the Crawford rule game 2 (after Ann reached N-1 = 2) is the Crawford game.
    assert [(g.points, g.is_crawford) for g in games] == [(2, False), (1, True)]
    assert audit.before is not None and audit.after is not None
    assert (audit.before["variant_options"], audit.after["variant_options"]) == (
        {"cube": True, "koks": True},
        {"crawford": True, "cube": True, "koks": True, "strict_block": True},
    )
    assert audit.after["results_changed"] == [
        "Main round 1 match 1 (Ann – Bob): game 2 becomes the Crawford game."
    ]


NARDY_RECORD = Path(__file__).resolve().parents[1] / "data/variants/nardy_draw_then_win.json"
"""A 1-point long-nardy match as a JSON record: game 1 ends with Bob bearing off his last
three checkers with the last roll (66: 1/0 1/0 1/0), a draw under the last-roll rule;
in game 2 Ann bears off first while Bob has more than four checkers left and at least
one off: Ann wins an oin, 1-0."""


def test_json_record_upload_to_a_long_nardy_event_enters_the_draw_and_the_win(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(
        engine, build_event, 1, variant="long-nardy",
        variant_options=VariantOptions(last_roll_draw=True),
    )

    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session, actor=built.director.actor, match_id=match_id, filename="final.json",
            data=NARDY_RECORD.read_bytes(),
        )

    assert outcome.ok, outcome.findings
    names = {"a": outcome.match.match.a.name, "b": outcome.match.match.b.name}  # type: ignore[union-attr]
    games = [(g.winner and names[g.winner], g.end, g.points) for g in outcome.match.games]
    assert games == [(None, "drawn", 0), ("Ann", "played", 1)]
    assert names[outcome.match.match.winner or ""] == "Ann"


def test_json_record_with_a_last_roll_is_refused_where_the_event_has_no_such_rule(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built, match_id = _one_match(engine, build_event, 1, variant="long-nardy")

    with transaction(engine) as session:
        outcome = results.upload_match_record(
            session, actor=built.director.actor, match_id=match_id, filename="final.json",
            data=NARDY_RECORD.read_bytes(),
        )

    # Without the rule Ann's bear-off ends game 1, so Bob's last roll is one roll too many.
    assert not outcome.ok
    assert (outcome.findings[0].game, outcome.findings[0].line) == (1, 99)
    assert "comes after the game ended" in outcome.findings[0].message
    assert outcome.match.games == ()
