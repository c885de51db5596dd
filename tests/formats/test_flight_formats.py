"""The flight-format registry and the actions each format allows a flight, worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from tourney.formats import knockout as ko
from tourney.formats.errors import FormatInvariantError, FormatUserError
from tourney.formats.flight_formats import (
    FLIGHT_FORMATS,
    Action,
    BracketDraw,
    FlightState,
    Refusal,
    allowed_actions,
    flight_format,
    refusal,
)
from tourney.formats.model import Bye, EntrantId, Pairing

E = EntrantId


def knockout(**facts: Any) -> FlightState:
    return FlightState(format="knockout", **facts)


def swiss(**facts: Any) -> FlightState:
    return FlightState(format="swiss", **facts)


# --- the registry ----------------------------------------------------------------------


def test_registry_holds_each_format_once_with_its_label() -> None:
    assert [(f.key, f.label) for f in FLIGHT_FORMATS] == [
        ("knockout", "Knockout"),
        ("double_elimination", "Double elimination"),
        ("swiss", "Swiss"),
        ("roundrobin", "Round robin"),
    ]


def test_unknown_format_is_a_user_error() -> None:
    with pytest.raises(FormatUserError, match="Unknown format 'ladder'"):
        flight_format("ladder")


def test_only_a_knockout_takes_fed_flights_into_its_bracket() -> None:
    assert [f.key for f in FLIGHT_FORMATS if f.joins_bracket] == ["knockout"]
    assert [f.key for f in FLIGHT_FORMATS if f.is_knockout] == ["knockout", "double_elimination"]
    assert [f.key for f in FLIGHT_FORMATS if f.pairs_round_by_round] == ["swiss"]


def test_double_elimination_refuses_a_fed_flight() -> None:
    spec = ko.FlightSpec("consolation", ko.RoundLengths(3), ko.Feed("main"))
    with pytest.raises(FormatUserError, match="its own losers' bracket"):
        flight_format("double_elimination").plan(
            BracketDraw((E(1), E(2)), 0, ko.RoundLengths(5), fed=[spec])
        )


def test_a_swiss_is_not_planned_as_a_bracket() -> None:
    with pytest.raises(FormatInvariantError):
        flight_format("swiss").plan(BracketDraw((E(1), E(2)), 0, ko.RoundLengths(5)))


def test_round_robin_schedule_keeps_the_order_without_a_shuffle() -> None:
    # Berger table for 3 players and a dummy: whoever meets the dummy has the bye.
    rounds = flight_format("roundrobin").schedule([E(1), E(2), E(3)], shuffle_seed=None)

    assert rounds == (
        (Bye(E(1)), Pairing(E(2), E(3))),
        (Bye(E(3)), Pairing(E(1), E(2))),
        (Bye(E(2)), Pairing(E(3), E(1))),
    )


def test_double_elimination_names_its_brackets_in_placeholders() -> None:
    double, single = flight_format("double_elimination"), flight_format("knockout")
    assert [double.bracket_flight_label(n) for n in ("main", "losers", "final")] == [
        "winners' bracket",
        "losers' bracket",
        "final",
    ]
    assert single.bracket_flight_label("main") is None


# --- actions: knockout -----------------------------------------------------------------


def test_knockout_in_setup_can_only_be_drawn() -> None:
    assert allowed_actions(knockout()) == {Action.DRAW}


def test_drawn_knockout_is_published_undone_or_takes_a_late_entrant() -> None:
    # Three rounds drafted, nothing published yet.
    state = knockout(drawn=True, rounds=3, draft_rounds=3)
    assert allowed_actions(state) == {Action.PUBLISH, Action.UNDO, Action.ENTER_LATE_IN_BYE}


def test_published_knockout_keeps_only_late_entries() -> None:
    state = knockout(drawn=True, rounds=3, draft_rounds=0)
    assert allowed_actions(state) == {Action.ENTER_LATE_IN_BYE}
    assert refusal(state, Action.UNDO) is Refusal.PUBLISHED


def test_fed_knockout_allows_nothing_on_its_own() -> None:
    # A consolation drawn with its main draw: two rounds drafted, published with the main.
    state = knockout(drawn=True, fed=True, rounds=2, draft_rounds=2)
    assert allowed_actions(state) == frozenset()
    assert [refusal(state, a) for a in (Action.PUBLISH, Action.UNDO, Action.DRAW)] == [
        Refusal.FED,
        Refusal.FED,
        Refusal.DRAWN,
    ]


def test_fed_knockout_in_setup_is_not_drawn_on_its_own() -> None:
    assert refusal(knockout(fed=True), Action.DRAW) is Refusal.FED


def test_finished_knockout_allows_nothing() -> None:
    state = knockout(drawn=True, finished=True, rounds=3)
    assert allowed_actions(state) == frozenset()
    assert refusal(state, Action.ENTER_LATE_IN_BYE) is Refusal.FINISHED


def test_knockout_has_no_rounds_to_pair_or_record_late_entries() -> None:
    state = knockout(drawn=True, rounds=3)
    assert [refusal(state, a) for a in (Action.PAIR_NEXT_ROUND, Action.REPAIR_ROUND)] == [
        Refusal.NOT_OFFERED,
        Refusal.NOT_OFFERED,
    ]
    assert refusal(state, Action.ENTER_LATE_WITH_RECORD) is Refusal.NOT_OFFERED


def test_double_elimination_allows_what_a_knockout_does() -> None:
    state = FlightState(format="double_elimination", drawn=True, rounds=5, draft_rounds=5)
    assert allowed_actions(state) == {Action.PUBLISH, Action.UNDO, Action.ENTER_LATE_IN_BYE}


# --- actions: Swiss and round robin ----------------------------------------------------


def test_swiss_with_its_first_round_drafted() -> None:
    state = swiss(drawn=True, rounds=1, draft_rounds=1)
    assert allowed_actions(state) == {
        Action.PUBLISH,
        Action.UNDO,
        Action.REPAIR_ROUND,
        Action.ENTER_LATE_WITH_RECORD,
    }


def test_swiss_round_in_play_can_be_neither_paired_on_nor_paired_again() -> None:
    state = swiss(drawn=True, rounds=2, newest_round_started=True)
    assert allowed_actions(state) == {Action.ENTER_LATE_WITH_RECORD}
    assert refusal(state, Action.PAIR_NEXT_ROUND) is Refusal.ROUND_OPEN
    assert refusal(state, Action.REPAIR_ROUND) is Refusal.ROUND_STARTED
    assert refusal(state, Action.UNDO) is Refusal.PUBLISHED


def test_swiss_pairs_the_next_round_once_the_newest_is_finished_and_one_is_due() -> None:
    due = swiss(
        drawn=True, rounds=2, newest_round_finished=True, newest_round_started=True, round_due=True
    )
    complete = swiss(drawn=True, rounds=3, newest_round_finished=True, newest_round_started=True)
    assert allowed_actions(due) == {Action.PAIR_NEXT_ROUND, Action.ENTER_LATE_WITH_RECORD}
    assert refusal(complete, Action.PAIR_NEXT_ROUND) is Refusal.COMPLETE


def test_finished_swiss_takes_no_late_entry() -> None:
    state = swiss(drawn=True, finished=True, rounds=3, newest_round_finished=True)
    assert refusal(state, Action.ENTER_LATE_WITH_RECORD) is Refusal.FINISHED


def test_swiss_not_drawn_pairs_nothing() -> None:
    assert refusal(swiss(), Action.PAIR_NEXT_ROUND) is Refusal.NOT_DRAWN
    assert refusal(swiss(), Action.UNDO) is Refusal.NO_ROUNDS


def test_round_robin_is_drawn_whole_and_undone_whole() -> None:
    drafted = FlightState(format="roundrobin", drawn=True, rounds=3, draft_rounds=3)
    published = FlightState(format="roundrobin", drawn=True, rounds=3)
    assert allowed_actions(drafted) == {Action.PUBLISH, Action.UNDO}
    assert allowed_actions(published) == frozenset()
    assert refusal(published, Action.ENTER_LATE_WITH_RECORD) is Refusal.NOT_OFFERED
