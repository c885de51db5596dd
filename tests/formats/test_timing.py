"""Round-time planning: durations worked by hand from the model's 8 minutes a point."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tourney.formats.timing import (
    HISTORY_MINIMUM,
    Clock,
    DurationModel,
    PlannedFlight,
    PlannedMatch,
    PlannedRound,
    TimedMatch,
    duration_model,
    expected_lives_rounds,
    plan_timetable,
)

SEVEN_PM = datetime(2026, 11, 24, 19, 0, tzinfo=UTC)


def at(hours: int, minutes: int) -> datetime:
    """A time of the club night."""
    return SEVEN_PM.replace(hour=hours, minute=minutes)


def waiting(key: int, length: int) -> PlannedMatch:
    return PlannedMatch(key, length)


def eight_player_knockout() -> tuple[PlannedFlight, PlannedFlight]:
    """Main: 4 matches to 5, 2 to 5, a final to 7; a consolation of the first round's
    four losers: 2 matches to 3, a final to 3, its first round after the main's first."""
    main = PlannedFlight(
        "main",
        "Main",
        (
            PlannedRound(1, "Quarterfinal", tuple(waiting(k, 5) for k in (1, 2, 3, 4))),
            PlannedRound(2, "Semifinal", (waiting(5, 5), waiting(6, 5))),
            PlannedRound(3, "Final", (waiting(7, 7),)),
        ),
    )
    consolation = PlannedFlight(
        "consolation",
        "Consolation",
        (
            PlannedRound(1, "Semifinal", (waiting(8, 3), waiting(9, 3)), after=(("main", 1),)),
            PlannedRound(2, "Final", (waiting(10, 3),)),
        ),
    )
    return main, consolation


def test_clock_default_gives_two_minutes_a_point_each_and_a_twelve_second_delay() -> None:
    """A 7-point match: 7 x 2 min = 14 minutes on each player's clock."""
    clock = Clock()
    assert (clock.reserve_seconds(7), clock.delay_seconds, clock.is_default) == (840, 12, True)


def test_plan_before_anything_started_runs_rounds_one_after_another() -> None:
    """At 19:00, nothing started, 8 minutes a point:

    Main quarterfinals (to 5): 5 x 8 = 40 min, 19:00-19:40.
    Main semifinals (to 5): 40 min, 19:40-20:20.
    Main final (to 7): 7 x 8 = 56 min, 20:20-21:16.
    Consolation semifinals (to 3) wait for the main quarterfinals: 24 min, 19:40-20:04;
    its final 20:04-20:28, in parallel with the main semifinals.
    The event ends with the main final at 21:16.
    """
    plan = plan_timetable(eight_player_knockout(), model=DurationModel(), now=SEVEN_PM)

    main, consolation = plan.flights
    assert [(r.start, r.end) for r in main.rounds] == [
        (at(19, 0), at(19, 40)),
        (at(19, 40), at(20, 20)),
        (at(20, 20), at(21, 16)),
    ]
    assert [(r.start, r.end) for r in consolation.rounds] == [
        (at(19, 40), at(20, 4)),
        (at(20, 4), at(20, 28)),
    ]
    assert main.final is not None and main.final.start == at(20, 20)
    assert plan.end == at(21, 16)
    assert [r.seconds // 60 for r in main.rounds] == [40, 40, 56]


def test_plan_during_a_round_waits_for_its_slowest_match() -> None:
    """At 19:30 the quarterfinals (budget 40 min each) stand so:

    match 1 started 19:00, finished 19:25: ends 19:25;
    match 2 started 19:00, running: 19:00 + 40 = 19:40;
    match 3 started 19:10, running: 19:10 + 40 = 19:50;
    match 4 not started: from now, 19:30 + 40 = 20:10, the slowest.
    The round started 19:00 (its first start) and ends 20:10; the semifinals follow,
    20:10-20:50, the final 20:50-21:46; the consolation 20:10-20:34-20:58.
    """
    main, consolation = eight_player_knockout()
    quarterfinals = (
        PlannedMatch(1, 5, at(19, 0), at(19, 25), decided=True),
        PlannedMatch(2, 5, at(19, 0)),
        PlannedMatch(3, 5, at(19, 10)),
        PlannedMatch(4, 5),
    )
    first = PlannedRound(1, "Quarterfinal", quarterfinals)
    main = PlannedFlight("main", "Main", (first, *main.rounds[1:]))

    plan = plan_timetable((main, consolation), model=DurationModel(), now=at(19, 30))

    planned_main, planned_consolation = plan.flights
    assert [m.expected_end for m in planned_main.rounds[0].matches] == [
        at(19, 25),
        at(19, 40),
        at(19, 50),
        at(20, 10),
    ]
    assert [(r.start, r.end) for r in planned_main.rounds] == [
        (at(19, 0), at(20, 10)),
        (at(20, 10), at(20, 50)),
        (at(20, 50), at(21, 46)),
    ]
    assert [r.end for r in planned_consolation.rounds] == [at(20, 34), at(20, 58)]
    assert planned_main.rounds[0].is_under_way
    assert plan.late == ()


def test_running_match_past_its_budget_is_late_and_holds_up_the_round() -> None:
    """At 19:45 a match to 5 started at 19:00 has run 45 minutes of its 40: late, and
    expected to end no earlier than now (19:45); the one started 19:10 has run 35: not
    late, ends 19:50, which is when the round (and so the next) can go on."""
    first = PlannedRound(
        1,
        "Round 1",
        (PlannedMatch(1, 5, at(19, 0)), PlannedMatch(2, 5, at(19, 10))),
    )
    second = PlannedRound(2, "Round 2", (waiting(3, 5),))
    flight = PlannedFlight("swiss", "Swiss", (first, second))

    plan = plan_timetable((flight,), model=DurationModel(), now=at(19, 45))

    late = plan.late
    assert [(m.key, m.running_seconds, m.budget_seconds) for m in late] == [(1, 45 * 60, 40 * 60)]
    assert [m.expected_end for m in plan.flights[0].rounds[0].matches] == [at(19, 45), at(19, 50)]
    assert plan.flights[0].rounds[1].end == at(20, 30)


def test_club_history_replaces_the_default_once_there_are_enough_timed_matches() -> None:
    """Twenty 7-point matches of 70 minutes: 600 s a point (10 minutes), the median; an
    implausible one (a match entered 30 seconds after its start) is left out."""
    history = [TimedMatch(7, 70 * 60)] * HISTORY_MINIMUM + [TimedMatch(7, 30)]

    model = duration_model(history)

    assert (model.seconds_per_point, model.samples, model.from_history) == (600, 20, True)
    assert model.match_seconds(5) == 50 * 60


def test_too_little_history_keeps_the_default() -> None:
    """Nineteen timed matches are one short: 8 minutes a point."""
    model = duration_model([TimedMatch(5, 3000)] * (HISTORY_MINIMUM - 1))

    assert (model.seconds_per_point, model.from_history) == (480, False)


def test_lives_swiss_rounds_follow_the_field_by_losses() -> None:
    """Eight players, two lives, half of each group losing each round:
    (losses 0, 1) = (8, 0) -> (4, 4) -> (2, 4) -> (1, 3) -> (0.5, 2) -> (0.25, 1.25)
    -> (0.125, 0.75): 0.875 players left after 6 rounds. One life is a knockout: 3."""
    assert (expected_lives_rounds(8, 2), expected_lives_rounds(8, 1)) == (6, 3)


def test_a_round_all_byes_takes_no_time() -> None:
    """A round whose only match is a bye decided without stamps ends when it starts."""
    rnd = PlannedRound(1, "Round 1", (PlannedMatch(1, 5, decided=True),))

    plan = plan_timetable((PlannedFlight("f", "F", (rnd,)),), model=DurationModel(), now=SEVEN_PM)

    assert plan.flights[0].rounds[0].seconds == 0
    assert plan.flights[0].rounds[0].end == SEVEN_PM + timedelta(0)
