"""Who a draw takes when some players have checked in."""

from __future__ import annotations

from tourney.formats.draw_field import split_draw_field


def test_draw_takes_everyone_while_nobody_has_checked_in() -> None:
    assert split_draw_field([("Ann", False), ("Bob", False)]) == (["Ann", "Bob"], [])


def test_draw_takes_only_the_present_once_anyone_has_checked_in() -> None:
    field = [("Ann", True), ("Bob", False), ("Cy", True), ("Di", False)]

    assert split_draw_field(field) == (["Ann", "Cy"], ["Bob", "Di"])


def test_director_may_draw_everyone_entered_after_check_in_began() -> None:
    field = [("Ann", True), ("Bob", False)]

    assert split_draw_field(field, present_only=False) == (["Ann", "Bob"], [])
