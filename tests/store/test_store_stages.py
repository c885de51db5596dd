"""Stages in the store: round-robin pools and a Swiss that feed a knockout, the link
checked when it is made, and the knockout drawn from the qualifiers once the stage is
finished."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session

from tourney.store import draws, events, results, roster
from tourney.store.db import transaction
from tourney.store.errors import ConflictError, StoreUserError
from tourney.store.tournament_views import FlightBoard, flight_board

if TYPE_CHECKING:
    from conftest import BuiltEvent

EIGHT = [f"P{n}" for n in range(1, 9)]
POOLS = {"name": "Pools", "format": "roundrobin", "match_length": 1, "pools": 2}
KNOCKOUT = {
    "name": "Knockout",
    "format": "knockout",
    "match_length": 3,
    "qualifies_from": "Pools",
    "qualifiers": 2,
}


def board(engine: Engine, built: BuiltEvent, flight: str) -> FlightBoard:
    with Session(engine) as session:
        return flight_board(session, built.director.actor, built.flights[flight])


def number(name: str) -> int:
    return int(name[1:])


def play_all(
    engine: Engine, built: BuiltEvent, flight: str, *, upset: frozenset[str] = frozenset()
) -> None:
    """Publish and play every match: the better seed wins, except a pair in ``upset``."""
    actor = built.director.actor
    with transaction(engine) as session:
        draws.publish_flight(session, actor=actor, flight_id=built.flights[flight])
    for rnd in board(engine, built, flight).rounds:
        for m in rnd.matches:
            if m.is_bye or m.a is None or m.b is None:
                continue
            a_wins = number(m.a.name) < number(m.b.name)
            if f"{m.a.name}-{m.b.name}" in upset or f"{m.b.name}-{m.a.name}" in upset:
                a_wins = not a_wins
            with transaction(engine) as session:
                results.record_final_score(
                    session,
                    actor=actor,
                    match_id=m.id,
                    score_a=1 if a_wins else 0,
                    score_b=0 if a_wins else 1,
                )


def draw(engine: Engine, built: BuiltEvent, flight: str) -> None:
    with transaction(engine) as session:
        draws.draw_flight(
            session, actor=built.director.actor, flight_id=built.flights[flight], seed=7
        )


def first_round(b: FlightBoard) -> list[tuple[str, str]]:
    return [
        (f"{m.a.origin} {m.a.name}" if m.a else "bye", f"{m.b.origin} {m.b.name}" if m.b else "bye")
        for m in b.rounds[0].matches
    ]


def test_pools_snake_seeded_by_entry_seed(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])

    draw(engine, built, "Pools")

    pools = board(engine, built, "Pools").pool_tables
    assert [(p.label, sorted(r.player.name for r in p.rows)) for p in pools] == [
        ("Pool A", ["P1", "P4", "P5", "P8"]),
        ("Pool B", ["P2", "P3", "P6", "P7"]),
    ]


def test_pools_play_side_by_side_in_three_rounds(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])

    draw(engine, built, "Pools")

    rounds = board(engine, built, "Pools").rounds
    assert [len(r.matches) for r in rounds] == [4, 4, 4]


def test_pool_tables_mark_the_top_two_as_qualifying(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])
    draw(engine, built, "Pools")

    play_all(engine, built, "Pools")

    b = board(engine, built, "Pools")
    assert [
        [(r.display_rank, r.player.name, r.wins, r.qualifies) for r in p.rows]
        for p in b.pool_tables
    ] == [
        [("1", "P1", 3, True), ("2", "P4", 2, True), ("3", "P5", 1, False), ("4", "P8", 0, False)],
        [("1", "P2", 3, True), ("2", "P3", 2, True), ("3", "P6", 1, False), ("4", "P7", 0, False)],
    ]
    assert b.cut_text == "The top 2 of each pool go through to Knockout."
    assert b.flight.is_finished


def test_knockout_drawn_from_pools_crosses_winners_with_other_runners_up(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])
    draw(engine, built, "Pools")
    play_all(engine, built, "Pools")

    draw(engine, built, "Knockout")

    ko = board(engine, built, "Knockout")
    assert first_round(ko) == [("A1 P1", "B2 P3"), ("B1 P2", "A2 P4")]
    assert ko.flight.qualifies_text == "Qualifiers: top 2 of each of 2 pools of Pools"


def test_knockout_refused_while_the_pools_are_not_finished(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])
    draw(engine, built, "Pools")

    with pytest.raises(StoreUserError) as refused:
        draw(engine, built, "Knockout")

    assert str(refused.value) == (
        "“Pools” is not finished: the knockout is drawn from its qualifiers once every "
        "match there is decided."
    )


def test_knockout_refused_before_the_pools_are_drawn(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])

    with pytest.raises(StoreUserError) as refused:
        draw(engine, built, "Knockout")

    assert str(refused.value) == (
        "“Pools” is not drawn yet: the knockout is drawn from its qualifiers once it is finished."
    )


def test_swiss_top_four_seeded_by_place(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    swiss = {"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_rounds": 3}
    top4 = {**KNOCKOUT, "qualifies_from": "Swiss", "qualifiers": 4}
    built = build_event(EIGHT, [swiss, top4])
    actor = built.director.actor
    draw(engine, built, "Swiss")
    for _ in range(3):
        play_all(engine, built, "Swiss")
        if board(engine, built, "Swiss").flight.is_finished:
            break
        with transaction(engine) as session:
            draws.pair_round(session, actor=actor, flight_id=built.flights["Swiss"])
    table = board(engine, built, "Swiss").standings
    top = [r.player.name for r in table[:4]]

    draw(engine, built, "Knockout")

    ko = board(engine, built, "Knockout")
    assert [r.qualifies for r in table] == [True] * 4 + [False] * 4
    assert ko.flight.qualifies_text == "Qualifiers: top 4 of Swiss"
    assert board(engine, built, "Swiss").cut_text == "The top 4 go through to Knockout."
    assert first_round(ko) == [
        (f"Swiss 1st {top[0]}", f"Swiss 4th {top[3]}"),
        (f"Swiss 2nd {top[1]}", f"Swiss 3rd {top[2]}"),
    ]


def _fields(**changes: Any) -> events.FlightFields:
    base: dict[str, Any] = {"name": "Knockout", "format": "knockout", "match_length": 3}
    return events.FlightFields(**{**base, **changes})


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"qualifiers": 0},
            "qualifiers",
            "At least one player must qualify from each pool.",
        ),
        (
            {"format": "swiss"},
            "qualifies_from_id",
            "Only a knockout takes its field from a qualifying stage.",
        ),
        (
            {"source": "Main"},
            "qualifies_from_id",
            "“Main” is a knockout: players qualify only from a round robin or a Swiss.",
        ),
        ({"qualifiers": None}, "qualifiers", "Enter how many players qualify."),
    ],
)
def test_stage_link_refused_when_it_could_never_be_drawn(
    engine: Engine,
    build_event: Callable[..., BuiltEvent],
    changes: dict[str, Any],
    field: str,
    message: str,
) -> None:
    single = {"name": "Table", "format": "roundrobin", "match_length": 1}
    main = {"name": "Main", "format": "knockout", "match_length": 1}
    built = build_event(EIGHT, [single, main])
    changes = dict(changes)  # the parameters are shared by every database's run
    source = built.flights[changes.pop("source", "Table")]
    fields = _fields(**{"qualifies_from_id": source, "qualifiers": 2, **changes})

    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        events.add_flight(
            session, actor=built.director.actor, event_id=built.event_id, fields=fields
        )

    assert (refused.value.field, str(refused.value)) == (field, message)


def test_stage_link_of_one_qualifier_from_one_table_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    single = {"name": "Table", "format": "roundrobin", "match_length": 1}
    built = build_event(EIGHT, [single])
    fields = _fields(qualifies_from_id=built.flights["Table"], qualifiers=1)

    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        events.add_flight(
            session, actor=built.director.actor, event_id=built.event_id, fields=fields
        )

    assert str(refused.value) == "1 qualifier cannot make a knockout: at least 2 must qualify."


def test_consolation_fed_from_a_round_robin_refused_with_the_reason(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    single = {"name": "Table", "format": "roundrobin", "match_length": 1}
    built = build_event(EIGHT, [single])
    fields = _fields(name="Consolation", feeds_from_id=built.flights["Table"])

    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        events.add_flight(
            session, actor=built.director.actor, event_id=built.event_id, fields=fields
        )

    assert (refused.value.field, str(refused.value)) == (
        "feeds_from_id",
        "“Table” cannot feed this flight. Losers are fed on only from a knockout; a round "
        "robin has none. To take its top finishers, choose it under “Qualifiers come from”.",
    )


def test_tie_at_the_cut_waits_for_the_director_then_their_choice_goes_through(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # Pool A (P1 P4 P5 P8): P4 beats P1 and P1 beats P5 ... P1, P4 and P5 end on 2 wins each
    # when P5 beats P4: a three-way tie for places 1-3, two of whom go through.
    pools = {**POOLS, "tiebreaks": ()}
    ko = {**KNOCKOUT, "cut_ties": "director"}
    built = build_event(EIGHT, [pools, ko])
    draw(engine, built, "Pools")
    play_all(engine, built, "Pools", upset=frozenset({"P1-P4", "P4-P5"}))
    with pytest.raises(StoreUserError) as refused:
        draw(engine, built, "Knockout")
    ties = board(engine, built, "Knockout").cut_ties
    pick = {name: fe_id for fe_id, name in ties[0].players}

    with transaction(engine) as session:
        draws.decide_cut(
            session,
            actor=built.director.actor,
            flight_id=built.flights["Knockout"],
            picks=[pick["P5"], pick["P4"]],
        )
    draw(engine, built, "Knockout")

    assert str(refused.value) == (
        "Pool A: P1, P4 and P5 are tied at the cut; choose 2 of them to go through."
    )
    assert [(t.where, t.places, sorted(pick)) for t in ties] == [("Pool A", 2, ["P1", "P4", "P5"])]
    assert sorted(r.player.name for r in board(engine, built, "Knockout").standings) == [
        "P2",
        "P3",
        "P4",
        "P5",
    ]


def test_a_qualifier_who_withdrew_gives_the_place_to_the_next_in_the_pool(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])
    draw(engine, built, "Pools")
    play_all(engine, built, "Pools")
    with transaction(engine) as session:
        roster.withdraw(session, actor=built.director.actor, entry_id=built.entries["P4"])

    draw(engine, built, "Knockout")

    assert first_round(board(engine, built, "Knockout")) == [
        ("A1 P1", "B2 P3"),
        ("B1 P2", "A2 P5"),
    ]


def test_random_pools_come_from_the_draw_seed(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [{**POOLS, "pool_seeding": "random"}])
    draw(engine, built, "Pools")
    first = [
        sorted(r.player.name for r in p.rows) for p in board(engine, built, "Pools").pool_tables
    ]
    with transaction(engine) as session:
        draws.undo_draw(session, actor=built.director.actor, flight_id=built.flights["Pools"])

    draw(engine, built, "Pools")

    again = [
        sorted(r.player.name for r in p.rows) for p in board(engine, built, "Pools").pool_tables
    ]
    assert again == first
    assert first != [["P1", "P4", "P5", "P8"], ["P2", "P3", "P6", "P7"]]
    assert [len(pool) for pool in first] == [4, 4]
    assert board(engine, built, "Pools").flight.pools_text == "2 pools, at random"


def test_stage_in_another_event_refused(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    other = build_event(EIGHT, [POOLS], name="Other Night")
    built = build_event(EIGHT, [])
    fields = _fields(qualifies_from_id=other.flights["Pools"], qualifiers=2)

    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        events.add_flight(
            session, actor=built.director.actor, event_id=built.event_id, fields=fields
        )

    assert str(refused.value) == "The qualifying stage must be a flight of this event."


def test_stage_cannot_become_a_knockout_while_a_knockout_qualifies_from_it(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])
    fields = events.FlightFields(name="Pools", format="knockout", match_length=1)

    with transaction(engine) as session, pytest.raises(StoreUserError) as refused:
        events.update_flight(
            session, actor=built.director.actor, flight_id=built.flights["Pools"], fields=fields
        )

    assert str(refused.value) == (
        "“Knockout” takes its qualifiers from this flight: it must stay a round robin or a Swiss."
    )


def test_drawn_knockout_keeps_its_stage_link(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    built = build_event(EIGHT, [POOLS, KNOCKOUT])
    draw(engine, built, "Pools")
    play_all(engine, built, "Pools")
    draw(engine, built, "Knockout")
    fields = _fields(qualifies_from_id=built.flights["Pools"], qualifiers=1)

    with transaction(engine) as session, pytest.raises(ConflictError) as refused:
        events.update_flight(
            session,
            actor=built.director.actor,
            flight_id=built.flights["Knockout"],
            fields=fields,
        )

    assert str(refused.value) == (
        "The flight is drawn: its format, feeding, pools and qualifiers can no longer change."
    )


def test_swiss_by_lives_feeds_its_top_two(
    engine: Engine, build_event: Callable[..., BuiltEvent]
) -> None:
    # One life each: after three rounds P1 (the best seed, who wins every match) is the
    # only one unbeaten, and one player has two wins; nobody else has more than one.
    swiss = {"name": "Swiss", "format": "swiss", "match_length": 1, "swiss_lives": 1}
    final = {**KNOCKOUT, "qualifies_from": "Swiss", "qualifiers": 2}
    built = build_event(EIGHT, [swiss, final])
    actor = built.director.actor
    draw(engine, built, "Swiss")
    for _ in range(8):
        play_all(engine, built, "Swiss")
        if board(engine, built, "Swiss").flight.is_finished:
            break
        with transaction(engine) as session:
            draws.pair_round(session, actor=actor, flight_id=built.flights["Swiss"])
    table = board(engine, built, "Swiss").standings
    runner_up = table[1].player.name

    draw(engine, built, "Knockout")

    assert [(r.wins, r.qualifies) for r in table[:3]] == [(3, True), (2, True), (1, False)]
    assert first_round(board(engine, built, "Knockout")) == [
        ("Swiss 1st P1", f"Swiss 2nd {runner_up}")
    ]
